//! Load balancing as Envoy does it: the policies' registry, and the hash tables of the two
//! policies that route a request by a key (ring hash and Maglev), so that the same key goes
//! to the same host while the hosts stay.
//!
//! Each policy is one file (`round_robin`, `random`, `least_request`, `ring`, `maglev`) and
//! one line of the list below, which generates [`Routing`], its id: the link's and the
//! command line's spelling, Envoy's spelling, whether it hashes keys, its parameters, its
//! relations and the queue the routed formulas solve for it ([`registry`]). The request engine
//! ([`crate::requests`]) and the routed formulas ([`crate::queueing::routing`]) both build a
//! hash policy's table through the policy ([`registry::Balancer::build`]).
//!
//! Deterministic and platform-independent: hosts and keys are hashed with a hand-written
//! xxHash64 ([`hash::xxh64`]), the hash Envoy uses for both. Host `i` is called
//! [`host_name`]`(i)`; key `k` (a whole number) is hashed from its eight little-endian bytes
//! with [`KEY_SEED`].
//!
//! Both hash policies expose each host's share of the hash space, the host of a key, and the
//! share of keys that move when hosts leave ([`moved_share`]).

pub mod hash;
pub mod registry;

use crate::relations::{Relation, RelationId};
use crate::rng::Mulberry32;

registry::lb_policies! {
    /// How a request chooses its instance (Envoy's load-balancing policies, spelled as the
    /// command line and links write them). The run's default is least request: of the five
    /// it comes nearest to the pooled M/M/N queue the formulas solve (the supermarket model,
    /// Mitzenmacher 2001), so request mode and the formulas agree until the policy is changed.
    #[derive(Default)]
    {
        /// Envoy `ROUND_ROBIN`: the instances in turn.
        RoundRobin = "round-robin", "ROUND_ROBIN", round_robin::RoundRobin;
        /// Envoy `RANDOM`: an instance drawn uniformly.
        Random = "random", "RANDOM", random::Random;
        /// Envoy `LEAST_REQUEST` with equal weights: `choice_count` instances (2 by default)
        /// each drawn uniformly, with replacement as Envoy draws them (two draws can be the
        /// same instance); the request goes to the one holding the fewest requests (in
        /// service and queued); a tie goes to the first drawn. A hedge goes to instances its
        /// request has not used yet.
        #[default]
        LeastRequest = "least-request", "LEAST_REQUEST", least_request::LeastRequest;
        /// Envoy `RING_HASH`: the request's key on a ring of 1,024 points or more
        /// ([`crate::balance::ring`]).
        RingHash = "ring-hash", "RING_HASH", ring::RingHash;
        /// Envoy `MAGLEV`: the request's key in a lookup table of 65,537 slots
        /// ([`crate::balance::maglev`]).
        Maglev = "maglev", "MAGLEV", maglev::MaglevHash;
    }
}

/// Which queue the minute model's routed formulas solve for a policy's instances
/// ([`crate::queueing::routing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueModel {
    /// Each instance takes a random thinning of the Poisson arrivals, by its arrival share:
    /// M/M/c+D each (random, the hash policies).
    PoissonSplit,
    /// Each instance takes every I-th request: Erlang-I arrivals (round robin).
    InTurn,
    /// The power of d choices: the supermarket model (least request). The minute model
    /// reads the pooled queue M/M/N for it unless asked to route.
    PowerOfChoices,
}

impl Routing {
    /// Whether the minute model reads the pooled queue M/M/N for this policy (least request,
    /// which comes nearest to it) rather than split the queue over the instances.
    pub const fn pools(self) -> bool {
        matches!(self.queue_model(), QueueModel::PowerOfChoices)
    }
}

/// How many draws among the unused instances random and least request make before they
/// take the first unused one in order.
pub(crate) const OTHER_TRIES: u32 = 16;

/// An index drawn uniformly from 0..n (n ≥ 1), by the multiply-shift of a 32-bit draw.
#[inline]
pub(crate) fn draw_index(rng: &mut Mulberry32, n: u32) -> usize {
    use rand_core::RngCore;
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as usize
}

/// The instances a policy routes to, as the request engine keeps them, and what the policies
/// read of them besides their own state.
#[derive(Clone, Debug)]
pub(crate) struct Hosts {
    /// Instances taking new requests (routed to), ascending.
    pub(crate) active: Vec<u32>,
    /// The position next in turn (round robin).
    pub(crate) next_turn: usize,
    /// Least request's number of choices d (Envoy's `choice_count`).
    pub(crate) choices: u32,
    /// When set, the hash policies take a key's number instead of its hash: each key's hash,
    /// and each key's position in `active` under the current table.
    pub(crate) keyed: Option<(Vec<u64>, Vec<u32>)>,
}

impl Hosts {
    /// The instance at `position` of `active`.
    #[inline]
    pub(crate) fn at(&self, position: usize) -> Option<usize> {
        self.active.get(position).map(|&i| i as usize)
    }

    /// The position next in turn, and the turn moves on.
    #[inline]
    pub(crate) fn take_turn(&mut self) -> usize {
        let t = self.next_turn;
        self.next_turn = if t + 1 == self.active.len() { 0 } else { t + 1 };
        t
    }

    /// The instance of key `key` by a hash policy whose table, when it has one, sends key
    /// hash h to position `table(h)`: by the keys' positions when keys go by number, position
    /// 0 without a table.
    #[inline]
    pub(crate) fn by_key(&self, key: u64, table: Option<impl Fn(u64) -> usize>) -> Option<usize> {
        if let Some((_, positions)) = &self.keyed {
            let position = positions.get(key as usize).copied().unwrap_or(0);
            return self.at(position as usize);
        }
        self.at(table.map_or(0, |host_of| host_of(key)))
    }

    /// An instance not in `used` (one exists), drawn uniformly by rejection, or the first
    /// unused one after [`OTHER_TRIES`] draws.
    pub(crate) fn draw_unused(&self, rng: &mut Mulberry32, used: &[u32]) -> usize {
        let n = self.active.len() as u32;
        for _ in 0..OTHER_TRIES {
            let i = self.active[draw_index(rng, n)];
            if !used.contains(&i) {
                return i as usize;
            }
        }
        self.active
            .iter()
            .find(|i| !used.contains(i))
            .map_or(0, |&i| i as usize)
    }
}

/// The names of hosts `hosts`, as the hash policies hash them.
pub(crate) fn host_names(hosts: &[u32]) -> Vec<String> {
    hosts.iter().map(|&i| host_name(i as usize)).collect()
}

/// Seed of the hash of a request's key.
pub const KEY_SEED: u64 = 0;

/// How many keys [`moved_share`] samples by default.
pub const DEFAULT_KEYS: u64 = 100_000;

/// The share of keys that move when hosts leave, with citation, for the sources panel.
pub const KEYS_MOVED: Relation = Relation {
    id: RelationId::HashKeysMoved,
    symbols: &["K", "N"],
    citations: &[
        crate::relations::KARGER_1997,
        crate::relations::EISENBUD_2016,
    ],
    assumption: false,
};

/// A policy that maps a key's hash to a host.
pub trait HashBalancer {
    /// How many hosts it balances over.
    fn hosts(&self) -> usize;
    /// The host index of the key whose hash is `key_hash`.
    fn host_of(&self, key_hash: u64) -> usize;
    /// Each host's share of the hash space (they add up to 1).
    fn shares(&self) -> Vec<f64>;
}

/// The name host `index` is hashed by.
pub fn host_name(index: usize) -> String {
    format!("host-{index}")
}

/// The hash of key number `key`.
pub fn key_hash(key: u64) -> u64 {
    hash::xxh64(&key.to_le_bytes(), KEY_SEED)
}

/// The share of the keys 0..`keys` whose host differs between `before` and `after`
/// (hosts are compared by index, so `after` keeps the indices of the hosts that stay).
pub fn moved_share(before: &dyn HashBalancer, after: &dyn HashBalancer, keys: u64) -> f64 {
    if keys == 0 {
        return 0.0;
    }
    let moved = (0..keys)
        .map(key_hash)
        .filter(|&h| before.host_of(h) != after.host_of(h))
        .count();
    moved as f64 / keys as f64
}

/// The spread of the hosts' shares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The smallest share.
    pub min: f64,
    /// The largest share.
    pub max: f64,
    /// Standard deviation of the shares over their mean (1/N).
    pub relative_std_dev: f64,
}

impl Spread {
    /// The spread of `shares` (`None` when empty).
    pub fn of(shares: &[f64]) -> Option<Self> {
        if shares.is_empty() {
            return None;
        }
        let n = shares.len() as f64;
        let mean = shares.iter().sum::<f64>() / n;
        let variance = shares.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n;
        Some(Spread {
            min: shares.iter().copied().fold(f64::INFINITY, f64::min),
            max: shares.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            relative_std_dev: libm::sqrt(variance) / mean,
        })
    }
}

/// What `oncall-sim lb` prints.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    /// `ring-hash` or `maglev`.
    pub policy: &'static str,
    /// Hosts before any leave.
    pub hosts: usize,
    /// Maglev's table size, or the ring's actual number of points.
    pub table_size: usize,
    /// Ring hash: points per host; Maglev: none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points_per_host: Option<usize>,
    /// Each host's share of the table or ring.
    pub shares: Vec<f64>,
    /// The smallest share.
    pub min_share: f64,
    /// The largest share.
    pub max_share: f64,
    /// Standard deviation of the shares over their mean.
    pub share_relative_std_dev: f64,
    /// Ring hash: the spread consistent hashing predicts for random points,
    /// √((N − 1)/(N·V + 1)) ≈ 1/√V; Maglev: none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_relative_std_dev: Option<f64>,
    /// Hosts that leave (the last ones).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<usize>,
    /// Keys sampled for `moved_share`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keys: Option<u64>,
    /// Share of the sampled keys whose host changes when the hosts leave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_share: Option<f64>,
    /// The same over the whole hash space: Maglev's slots that change host; for ring hash
    /// the positions that change host. Envoy rebuilds the ring with ⌈minimum / hosts⌉
    /// points per host, so the hosts that stay gain points and some keys move between them
    /// too, besides those of the hosts that leave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_share_exact: Option<f64>,
}

/// Why a report cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportError {
    /// Maglev's table could not be built.
    Table(maglev::TableError),
    /// No host, or as many hosts removed as there are.
    NoHostLeft,
    /// The policy routes by no key: it has no table.
    NotHashed,
}

/// A hash policy's table size as `oncall-sim lb --table-size` takes it: the default
/// (Maglev's slots, ring hash's minimum ring size), the smallest and the largest; `None` for
/// the policies that do not hash.
pub fn table_sizes(policy: Routing) -> Option<(u32, u32, u32)> {
    match policy {
        Routing::RingHash => Some((ring::DEFAULT_MIN_RING_SIZE, 1, ring::MAX_RING_SIZE)),
        Routing::Maglev => Some((maglev::DEFAULT_TABLE_SIZE, 2, maglev::MAX_TABLE_SIZE)),
        _ => None,
    }
}

/// The report of `policy` over `hosts` hosts (named by [`host_name`]) with a table or
/// minimum ring of `size`, and, when `remove` is given, the keys that move when the last
/// `remove` hosts leave, over `keys` sampled keys.
pub fn report(
    policy: Routing,
    hosts: usize,
    size: u32,
    remove: Option<usize>,
    keys: u64,
) -> Result<Report, ReportError> {
    if hosts == 0 || remove.is_some_and(|k| k >= hosts) {
        return Err(ReportError::NoHostLeft);
    }
    let names: Vec<String> = (0..hosts).map(host_name).collect();
    let stay = hosts - remove.unwrap_or(0);
    let (table_size, points_per_host, shares, moved, exact) = match policy {
        Routing::Maglev => {
            let before = maglev::Maglev::new(&names, size).map_err(ReportError::Table)?;
            let shares = before.shares();
            let (moved, exact) = match remove {
                Some(_) => {
                    let after =
                        maglev::Maglev::new(&names[..stay], size).map_err(ReportError::Table)?;
                    (
                        Some(moved_share(&before, &after, keys)),
                        Some(maglev::moved_share_of_table(&before, &after)),
                    )
                }
                None => (None, None),
            };
            (before.table_size(), None, shares, moved, exact)
        }
        Routing::RingHash => {
            let before = ring::Ring::new(&names, size).ok_or(ReportError::NoHostLeft)?;
            let shares = before.shares();
            let (moved, exact) = match remove {
                Some(_) => {
                    let after =
                        ring::Ring::new(&names[..stay], size).ok_or(ReportError::NoHostLeft)?;
                    (
                        Some(moved_share(&before, &after, keys)),
                        Some(ring::moved_share_of_ring(&before, &after)),
                    )
                }
                None => (None, None),
            };
            let per_host = ring::points_per_host(size, hosts);
            (before.points().len(), Some(per_host), shares, moved, exact)
        }
        _ => return Err(ReportError::NotHashed),
    };
    let spread = Spread::of(&shares).ok_or(ReportError::NoHostLeft)?;
    Ok(Report {
        policy: policy.as_str(),
        hosts,
        table_size,
        points_per_host,
        min_share: spread.min,
        max_share: spread.max,
        share_relative_std_dev: spread.relative_std_dev,
        expected_relative_std_dev: points_per_host.map(|v| ring::share_relative_spread(v, hosts)),
        shares,
        removed: remove,
        keys: remove.map(|_| keys),
        moved_share: moved,
        moved_share_exact: exact,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_parse_by_name() {
        for name in Routing::NAMES {
            assert!(name.parse::<Routing>().is_ok(), "{name}");
        }
        assert_eq!("maglev".parse::<Routing>(), Ok(Routing::Maglev));
        assert!("MAGLEV".parse::<Routing>().is_err());
        assert_eq!(Routing::from_envoy("MAGLEV"), Some(Routing::Maglev));
        assert_eq!(Routing::from_envoy("maglev"), None);
        for (id, envoy) in Routing::ALL.iter().zip(Routing::ENVOY_NAMES) {
            assert_eq!(id.envoy_name(), *envoy);
            assert_eq!(Routing::from_envoy(envoy), Some(*id));
        }
    }

    /// Only the hash policies read keys, have a table and a table size; every relation a
    /// policy names resolves.
    #[test]
    fn the_registry_describes_each_policy() {
        for &id in Routing::ALL {
            let picker = Picker::build(id, &[0, 1, 2]);
            assert_eq!(picker.table().is_some(), id.hashes_keys(), "{id}");
            assert_eq!(table_sizes(id).is_some(), id.hashes_keys(), "{id}");
            assert_eq!(report(id, 3, 7, None, 10).is_ok(), id.hashes_keys(), "{id}");
            for r in id.relations() {
                assert_eq!(Relation::of(*r).id, *r);
            }
            assert!(crate::catalog::en::lb_text(id).is_some(), "{id}");
        }
        assert_eq!(
            Routing::ALL
                .iter()
                .filter(|r| r.pools())
                .collect::<Vec<_>>(),
            [&Routing::LeastRequest]
        );
    }

    #[test]
    fn spread_of_shares() {
        let s = Spread::of(&[0.2, 0.3, 0.5]).unwrap();
        assert_eq!((s.min, s.max), (0.2, 0.5));
        // Mean 1/3, variance 0.38/3 − 1/9 = 0.14/9: relative standard deviation √0.14.
        assert!((s.relative_std_dev - 0.14f64.sqrt()).abs() < 1e-12);
        assert_eq!(Spread::of(&[]), None);
    }

    #[test]
    fn no_report_without_a_host_left() {
        assert_eq!(
            report(Routing::Maglev, 3, 7, Some(3), 10),
            Err(ReportError::NoHostLeft)
        );
        assert_eq!(
            report(Routing::RingHash, 0, 1_024, None, 10),
            Err(ReportError::NoHostLeft)
        );
        assert_eq!(
            report(Routing::Maglev, 3, 8, None, 10),
            Err(ReportError::Table(maglev::TableError::NotPrime))
        );
    }

    #[test]
    fn the_same_settings_give_the_same_report() {
        let a = report(Routing::RingHash, 7, 1_024, Some(2), 5_000).unwrap();
        let b = report(Routing::RingHash, 7, 1_024, Some(2), 5_000).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.keys, Some(5_000));
        assert_eq!(a.shares.len(), 7);
    }
}
