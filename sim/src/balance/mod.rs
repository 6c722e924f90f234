//! Hash-based load balancing as Envoy does it: ring hash and Maglev, the two policies that
//! route a request by a key, so that the same key goes to the same host while the hosts stay.
//!
//! Deterministic and platform-independent: hosts and keys are hashed with a hand-written
//! xxHash64 ([`hash::xxh64`]), the hash Envoy uses for both. Host `i` is called
//! [`host_name`]`(i)`; key `k` (a whole number) is hashed from its eight little-endian bytes
//! with [`KEY_SEED`].
//!
//! Both policies expose each host's share of the hash space, the host of a key, and the
//! share of keys that move when hosts leave ([`moved_share`]).

pub mod hash;
pub mod maglev;
pub mod ring;

use crate::relations::{Relation, RelationId};

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

/// Which hash policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Envoy's `RING_HASH`.
    RingHash,
    /// Envoy's `MAGLEV`.
    Maglev,
}

impl Policy {
    /// The names the command line and links use.
    pub const NAMES: &'static [&'static str] = &["ring-hash", "maglev"];

    /// The policy called `name`.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "ring-hash" => Some(Policy::RingHash),
            "maglev" => Some(Policy::Maglev),
            _ => None,
        }
    }

    /// The default table size (Maglev) or minimum ring size (ring hash).
    pub fn default_size(self) -> u32 {
        match self {
            Policy::RingHash => ring::DEFAULT_MIN_RING_SIZE,
            Policy::Maglev => maglev::DEFAULT_TABLE_SIZE,
        }
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
}

/// The report of `policy` over `hosts` hosts (named by [`host_name`]) with a table or
/// minimum ring of `size`, and, when `remove` is given, the keys that move when the last
/// `remove` hosts leave, over `keys` sampled keys.
pub fn report(
    policy: Policy,
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
        Policy::Maglev => {
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
        Policy::RingHash => {
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
    };
    let spread = Spread::of(&shares).ok_or(ReportError::NoHostLeft)?;
    Ok(Report {
        policy: match policy {
            Policy::RingHash => "ring-hash",
            Policy::Maglev => "maglev",
        },
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
        for name in Policy::NAMES {
            assert!(Policy::parse(name).is_some(), "{name}");
        }
        assert_eq!(Policy::parse("maglev"), Some(Policy::Maglev));
        assert_eq!(Policy::parse("MAGLEV"), None);
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
            report(Policy::Maglev, 3, 7, Some(3), 10),
            Err(ReportError::NoHostLeft)
        );
        assert_eq!(
            report(Policy::RingHash, 0, 1_024, None, 10),
            Err(ReportError::NoHostLeft)
        );
        assert_eq!(
            report(Policy::Maglev, 3, 8, None, 10),
            Err(ReportError::Table(maglev::TableError::NotPrime))
        );
    }

    #[test]
    fn the_same_settings_give_the_same_report() {
        let a = report(Policy::RingHash, 7, 1_024, Some(2), 5_000).unwrap();
        let b = report(Policy::RingHash, 7, 1_024, Some(2), 5_000).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.keys, Some(5_000));
        assert_eq!(a.shares.len(), 7);
    }
}
