//! Maglev's lookup table (Eisenbud et al., NSDI 2016, §3.4 and its Pseudocode 1).
//!
//! Each backend `i` prefers the slots of the table in the order of its permutation
//! `permutation[i][j] = (offset_i + j · skip_i) mod M`; the backends take turns, each claiming
//! the next slot of its permutation that is still empty, until all `M` slots are full. Since
//! every backend claims one slot per turn, each ends with ⌊M/N⌋ or ⌈M/N⌉ of them. A key goes
//! to the backend of slot `hash(key) mod M`.

use super::hash::xxh64;
use super::registry::Balancer;
use super::{HashBalancer, Hosts, QueueModel};
use crate::relations::{Relation, RelationId};
use crate::rng::Mulberry32;

/// Envoy's default table size (a prime).
pub const DEFAULT_TABLE_SIZE: u32 = 65_537;

/// The largest table size Envoy accepts.
pub const MAX_TABLE_SIZE: u32 = 5_000_011;

/// Seed of h₁ (the offset) and of h₂ (the skip): the paper asks for two different hash
/// functions; xxHash64 with two seeds gives them.
pub const OFFSET_SEED: u64 = 0;
/// See [`OFFSET_SEED`].
pub const SKIP_SEED: u64 = 1;

/// The table's population, with citation, for the sources panel.
pub const MAGLEV_TABLE: Relation = Relation {
    id: RelationId::MaglevTable,
    symbols: &["M", "N", "h₁, h₂"],
    citations: &[
        crate::relations::EISENBUD_2016,
        crate::relations::ENVOY_LOAD_BALANCERS,
        crate::relations::XXHASH_SPEC,
    ],
    assumption: false,
};

/// Where a backend's permutation starts and how far it steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    /// First slot the backend wants: h₁(name) mod M.
    pub offset: u64,
    /// Step between its wishes: h₂(name) mod (M − 1) + 1.
    pub skip: u64,
}

impl Preference {
    /// The preference of the backend called `name` in a table of `table_size` slots (a
    /// table needs at least 2; a smaller size is read as 2 rather than divide by zero).
    pub fn of(name: &str, table_size: u32) -> Self {
        let m = u64::from(table_size.max(2));
        Preference {
            offset: xxh64(name.as_bytes(), OFFSET_SEED) % m,
            skip: xxh64(name.as_bytes(), SKIP_SEED) % (m - 1) + 1,
        }
    }

    /// The `j`-th slot of the backend's permutation: (offset + j · skip) mod M.
    pub fn slot(&self, j: u64, table_size: u32) -> u64 {
        let m = u128::from(table_size);
        ((u128::from(self.offset) + u128::from(j) * u128::from(self.skip)) % m) as u64
    }
}

/// Why a table cannot be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The table size is not a prime number of at least 2 (then some permutations would
    /// not visit every slot).
    NotPrime,
    /// No backend.
    NoBackends,
    /// More backends than slots: some would get none.
    MoreBackendsThanSlots,
    /// An offset not below the table size, or a skip outside 1..M−1.
    BadPreference,
}

/// Whether `n` is prime (trial division; table sizes are at most a few million).
pub fn is_prime(n: u32) -> bool {
    if n < 2 {
        return false;
    }
    let n = u64::from(n);
    let mut d = 2u64;
    while d * d <= n {
        if n % d == 0 {
            return false;
        }
        d += 1;
    }
    true
}

/// A populated Maglev lookup table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maglev {
    /// Backend index of each slot.
    entry: Vec<u32>,
    backends: usize,
}

impl Maglev {
    /// The table of `table_size` slots for the backends called `names`, each hashed with
    /// [`Preference::of`].
    pub fn new<S: AsRef<str>>(names: &[S], table_size: u32) -> Result<Self, TableError> {
        if !is_prime(table_size) {
            return Err(TableError::NotPrime);
        }
        let preferences: Vec<Preference> = names
            .iter()
            .map(|n| Preference::of(n.as_ref(), table_size))
            .collect();
        Self::from_preferences(&preferences, table_size)
    }

    /// The table populated from the backends' permutations as given (Pseudocode 1 of the
    /// paper): the backends take turns in index order, each claiming the next empty slot of
    /// its permutation, until the table is full.
    pub fn from_preferences(
        preferences: &[Preference],
        table_size: u32,
    ) -> Result<Self, TableError> {
        if !is_prime(table_size) {
            return Err(TableError::NotPrime);
        }
        let n = preferences.len();
        if n == 0 {
            return Err(TableError::NoBackends);
        }
        if n > table_size as usize {
            return Err(TableError::MoreBackendsThanSlots);
        }
        let m = u64::from(table_size);
        if preferences
            .iter()
            .any(|p| p.offset >= m || p.skip == 0 || p.skip >= m)
        {
            return Err(TableError::BadPreference);
        }
        const EMPTY: u32 = u32::MAX;
        let mut entry = vec![EMPTY; table_size as usize];
        let mut next = vec![0u64; n];
        let mut filled = 0usize;
        // M is prime and 0 < skip < M, so each permutation visits every slot: a backend
        // always finds an empty one while the table is not full.
        'fill: loop {
            for (i, preference) in preferences.iter().enumerate() {
                let mut slot = preference.slot(next[i], table_size) as usize;
                while entry[slot] != EMPTY {
                    next[i] += 1;
                    slot = preference.slot(next[i], table_size) as usize;
                }
                entry[slot] = i as u32;
                next[i] += 1;
                filled += 1;
                if filled == entry.len() {
                    break 'fill;
                }
            }
        }
        Ok(Maglev { entry, backends: n })
    }

    /// The backend index of every slot.
    pub fn entries(&self) -> &[u32] {
        &self.entry
    }

    /// How many slots the table has (M).
    pub fn table_size(&self) -> usize {
        self.entry.len()
    }
}

impl HashBalancer for Maglev {
    fn hosts(&self) -> usize {
        self.backends
    }

    fn host_of(&self, key_hash: u64) -> usize {
        self.entry[(key_hash % self.entry.len() as u64) as usize] as usize
    }

    /// Each backend's slots over M.
    fn shares(&self) -> Vec<f64> {
        let mut count = vec![0u64; self.backends];
        for &i in &self.entry {
            count[i as usize] += 1;
        }
        let m = self.entry.len() as f64;
        count.into_iter().map(|c| c as f64 / m).collect()
    }
}

/// The share of the slots whose backend differs between two tables of the same size built
/// over the same backend indices: the exact share of keys that move.
pub fn moved_share_of_table(before: &Maglev, after: &Maglev) -> f64 {
    let moved = before
        .entry
        .iter()
        .zip(&after.entry)
        .filter(|(a, b)| a != b)
        .count();
    moved as f64 / before.entry.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table 1 of the paper: M = 7; B0 offset 3 skip 4, B1 offset 0 skip 2, B2 offset 3
    /// skip 1.
    fn paper_backends() -> [Preference; 3] {
        [
            Preference { offset: 3, skip: 4 },
            Preference { offset: 0, skip: 2 },
            Preference { offset: 3, skip: 1 },
        ]
    }

    #[test]
    fn the_papers_permutations() {
        let permutation = |p: &Preference| -> Vec<u64> { (0..7).map(|j| p.slot(j, 7)).collect() };
        let [b0, b1, b2] = paper_backends();
        assert_eq!(permutation(&b0), [3, 0, 4, 1, 5, 2, 6]);
        assert_eq!(permutation(&b1), [0, 2, 4, 6, 1, 3, 5]);
        assert_eq!(permutation(&b2), [3, 4, 5, 6, 0, 1, 2]);
    }

    #[test]
    fn the_papers_lookup_table_before_and_after_b1_leaves() {
        let [b0, b1, b2] = paper_backends();
        let before = Maglev::from_preferences(&[b0, b1, b2], 7).unwrap();
        // B1 B0 B1 B0 B2 B2 B0.
        assert_eq!(before.entries(), [1, 0, 1, 0, 2, 2, 0]);
        // Without B1 (B2 is now backend 1): B0 takes 3, B2 4, B0 0, B2 5, B0 1 (4 is taken),
        // B2 6, B0 2 (5 is taken): B0 B0 B0 B0 B2 B2 B2. Slots 0 and 2 leave B1, and slot 6
        // moves from B0 to B2: Maglev trades a little disruption for balance.
        let after = Maglev::from_preferences(&[b0, b2], 7).unwrap();
        assert_eq!(after.entries(), [0, 0, 0, 0, 1, 1, 1]);
        let named = |t: &Maglev, names: &[&'static str]| -> Vec<&'static str> {
            t.entries().iter().map(|&i| names[i as usize]).collect()
        };
        assert_eq!(
            named(&after, &["B0", "B2"]),
            ["B0", "B0", "B0", "B0", "B2", "B2", "B2"]
        );
        assert_eq!(before.shares(), vec![3.0 / 7.0, 2.0 / 7.0, 2.0 / 7.0]);
    }

    #[test]
    fn refuses_what_cannot_be_populated() {
        let p = Preference { offset: 0, skip: 1 };
        assert_eq!(Maglev::from_preferences(&[p], 8), Err(TableError::NotPrime));
        assert_eq!(Maglev::from_preferences(&[p], 1), Err(TableError::NotPrime));
        assert_eq!(
            Maglev::from_preferences(&[], 7),
            Err(TableError::NoBackends)
        );
        assert_eq!(
            Maglev::from_preferences(&[p; 4], 3),
            Err(TableError::MoreBackendsThanSlots)
        );
        let zero_skip = Preference { offset: 0, skip: 0 };
        assert_eq!(
            Maglev::from_preferences(&[zero_skip], 7),
            Err(TableError::BadPreference)
        );
        assert_eq!(Maglev::new(&["a", "b"], 65_536), Err(TableError::NotPrime));
        assert_eq!(Maglev::new(&["a"], 0), Err(TableError::NotPrime));
        let tiny = Preference::of("a", 0);
        assert_eq!((tiny.offset < 2, tiny.skip), (true, 1));
    }

    #[test]
    fn primes() {
        let small: Vec<u32> = (0..30).filter(|&n| is_prime(n)).collect();
        assert_eq!(small, [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
        assert!(is_prime(DEFAULT_TABLE_SIZE));
        assert!(is_prime(MAX_TABLE_SIZE));
        assert!(!is_prime(65_535));
    }

    #[test]
    fn every_backend_gets_the_floor_or_the_ceiling_of_m_over_n() {
        let names: Vec<String> = (0..13).map(crate::balance::host_name).collect();
        let table = Maglev::new(&names, 101).unwrap();
        for share in table.shares() {
            let slots = (share * 101.0).round() as u64;
            assert!(slots == 7 || slots == 8, "{slots}");
        }
    }
}

/// Envoy's `MAGLEV` as a load-balancing policy: the request's key in a lookup table of
/// [`DEFAULT_TABLE_SIZE`] slots over the instances taking requests. A hedge looks the key up
/// again rehashed with the attempt number (as Envoy's hash policies do when a retry must avoid
/// the hosts already tried).
#[derive(Clone, Debug)]
pub struct MaglevHash {
    /// The table over the instances (`None` without any, or with more than it has slots).
    table: Option<Maglev>,
}

impl Balancer for MaglevHash {
    const HASHES_KEYS: bool = true;
    const QUEUE: QueueModel = QueueModel::PoissonSplit;
    const PARAMS: &'static [&'static str] = &["keys", "zipf"];
    const RELATIONS: &'static [RelationId] = &[
        RelationId::MaglevTable,
        RelationId::HashKeysMoved,
        RelationId::RoutedShares,
        RelationId::RoutedMixture,
    ];

    fn build(hosts: &[u32]) -> Self {
        MaglevHash {
            table: Maglev::new(&super::host_names(hosts), DEFAULT_TABLE_SIZE).ok(),
        }
    }

    fn table(&self) -> Option<&dyn HashBalancer> {
        self.table.as_ref().map(|t| t as &dyn HashBalancer)
    }

    #[inline]
    fn pick(
        &mut self,
        hosts: &mut Hosts,
        _rng: &mut Mulberry32,
        key_hash: u64,
        _held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        hosts.by_key(key_hash, self.table.as_ref().map(|t| |h| t.host_of(h)))
    }

    fn pick_other(
        &mut self,
        hosts: &mut Hosts,
        rng: &mut Mulberry32,
        key_hash: u64,
        used: &[u32],
        held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        let Some(table) = &self.table else {
            return self.pick(hosts, rng, key_hash, held);
        };
        let unused = |i: &u32| !used.contains(i);
        for attempt in 1..=u64::from(super::OTHER_TRIES) {
            let h = xxh64(&key_hash.to_le_bytes(), attempt);
            let i = hosts.active[table.host_of(h)];
            if unused(&i) {
                return Some(i as usize);
            }
        }
        hosts.active.iter().find(|i| unused(i)).map(|&i| i as usize)
    }
}
