//! Ring hash as Envoy builds it (consistent hashing, Karger et al., STOC 1997).
//!
//! Each host is placed on a ring of 2⁶⁴ positions at V points, the hashes of
//! `"{name}_{j}"` for j = 0..V−1, with V = ⌈minimum ring size / hosts⌉ (Envoy's
//! `minimum_ring_size`, 1,024 by default, spread over hosts of equal weight). The points are
//! sorted; a key goes to the first point at or after its hash, wrapping to the first point
//! past the top of the ring, found by binary search.

use super::hash::xxh64;
use super::registry::Balancer;
use super::{HashBalancer, Hosts, QueueModel};
use crate::relations::{Relation, RelationId};
use crate::rng::Mulberry32;
use core::fmt::Write;

/// Envoy's default `minimum_ring_size`.
pub const DEFAULT_MIN_RING_SIZE: u32 = 1_024;

/// Envoy's default `maximum_ring_size` (8 M entries): the largest minimum this accepts.
pub const MAX_RING_SIZE: u32 = 8_388_608;

/// Seed of the hash that places the points.
pub const POINT_SEED: u64 = 0;

/// The ring's construction and lookup, with citation, for the sources panel.
pub const RING_HASH: Relation = Relation {
    id: RelationId::RingHash,
    symbols: &["N", "V"],
    citations: &[
        crate::relations::KARGER_1997,
        crate::relations::ENVOY_LOAD_BALANCERS,
        crate::relations::XXHASH_SPEC,
    ],
    assumption: false,
};

/// Points per host for `hosts` hosts of equal weight and a minimum ring size:
/// ⌈minimum / hosts⌉.
pub fn points_per_host(min_ring_size: u32, hosts: usize) -> usize {
    (min_ring_size as usize).div_ceil(hosts.max(1)).max(1)
}

/// The expected relative standard deviation of the shares of `hosts` hosts with V points
/// each, the points at random positions: √((N − 1)/(N·V + 1)) ≈ 1/√V. A host's share is
/// the sum of V of the N·V gaps between the points, a Beta(V, (N − 1)·V) variable: its
/// variance (N − 1)/(N²(N·V + 1)) over its mean 1/N squared gives it.
pub fn share_relative_spread(points_per_host: usize, hosts: usize) -> f64 {
    let v = points_per_host.max(1) as f64;
    let n = hosts.max(1) as f64;
    libm::sqrt((n - 1.0) / (n * v + 1.0))
}

/// A built ring.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ring {
    /// (position, host index), sorted by position.
    points: Vec<(u64, u32)>,
    hosts: usize,
}

impl Ring {
    /// The ring for the hosts called `names` with at least `min_ring_size` points in all
    /// (`None` without hosts).
    pub fn new<S: AsRef<str>>(names: &[S], min_ring_size: u32) -> Option<Self> {
        if names.is_empty() {
            return None;
        }
        let per_host = points_per_host(min_ring_size, names.len());
        let mut points = Vec::with_capacity(per_host * names.len());
        let mut key = String::new();
        for (i, name) in names.iter().enumerate() {
            for j in 0..per_host {
                key.clear();
                key.push_str(name.as_ref());
                key.push('_');
                // Writing into a String cannot fail.
                let _ = write!(key, "{j}");
                points.push((xxh64(key.as_bytes(), POINT_SEED), i as u32));
            }
        }
        // Sorted by position, ties by host index, so the ring never depends on the sort.
        points.sort_unstable();
        Some(Ring {
            points,
            hosts: names.len(),
        })
    }

    /// The sorted points: (position, host index).
    pub fn points(&self) -> &[(u64, u32)] {
        &self.points
    }
}

impl HashBalancer for Ring {
    fn hosts(&self) -> usize {
        self.hosts
    }

    /// The host of the first point at or after `key_hash`, or of the first point when the
    /// key lies past the last one.
    fn host_of(&self, key_hash: u64) -> usize {
        let at = self
            .points
            .partition_point(|&(position, _)| position < key_hash);
        self.points.get(at).unwrap_or(&self.points[0]).1 as usize
    }

    /// Each host's arcs over 2⁶⁴: the arc of a point runs from just after the point before
    /// it to the point itself (the first point's arc wraps past the top of the ring).
    fn shares(&self) -> Vec<f64> {
        let mut arc = vec![0u128; self.hosts];
        let n = self.points.len();
        if n == 1 {
            arc[self.points[0].1 as usize] = 1u128 << 64;
        } else {
            for (k, &(position, host)) in self.points.iter().enumerate() {
                let before = self.points[(k + n - 1) % n].0;
                arc[host as usize] += u128::from(position.wrapping_sub(before));
            }
        }
        let whole = (1u128 << 64) as f64;
        arc.into_iter().map(|a| a as f64 / whole).collect()
    }
}

/// The exact share of the ring's positions whose host differs between two rings built over
/// the same host indices. Between two neighbouring points of either ring every position has
/// the same host in each, so the positions are summed interval by interval.
pub fn moved_share_of_ring(before: &Ring, after: &Ring) -> f64 {
    let mut cuts: Vec<u64> = before
        .points
        .iter()
        .chain(&after.points)
        .map(|&(position, _)| position)
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let n = cuts.len();
    if n == 1 {
        let same = before.host_of(cuts[0]) == after.host_of(cuts[0]);
        return if same { 0.0 } else { 1.0 };
    }
    let mut moved = 0u128;
    for (k, &end) in cuts.iter().enumerate() {
        // The positions after the cut before this one, up to this one (wrapping for k = 0).
        if before.host_of(end) != after.host_of(end) {
            moved += u128::from(end.wrapping_sub(cuts[(k + n - 1) % n]));
        }
    }
    moved as f64 / (1u128 << 64) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::host_name;

    fn ring(hosts: usize, min: u32) -> Ring {
        let names: Vec<String> = (0..hosts).map(host_name).collect();
        Ring::new(&names, min).unwrap()
    }

    #[test]
    fn points_per_host_rounds_up() {
        assert_eq!(points_per_host(1_024, 10), 103);
        assert_eq!(points_per_host(1_024, 1_024), 1);
        assert_eq!(points_per_host(1_024, 3_000), 1);
        assert_eq!(points_per_host(1_024, 1), 1_024);
        assert_eq!(ring(10, 1_024).points().len(), 1_030);
    }

    #[test]
    fn a_key_goes_to_the_first_point_at_or_after_it_and_wraps() {
        let r = ring(4, 16);
        let p = r.points();
        for k in 0..p.len() {
            assert_eq!(r.host_of(p[k].0), p[k].1 as usize);
            if p[k].0 > 0 && (k == 0 || p[k - 1].0 < p[k].0 - 1) {
                assert_eq!(r.host_of(p[k].0 - 1), p[k].1 as usize);
            }
        }
        let last = p[p.len() - 1].0;
        assert_eq!(r.host_of(last + 1), p[0].1 as usize);
        assert_eq!(r.host_of(u64::MAX), p[0].1 as usize);
        assert_eq!(r.host_of(0), p[0].1 as usize);
    }

    #[test]
    fn the_arcs_cover_the_ring() {
        let shares = ring(10, 1_024).shares();
        let total: f64 = shares.iter().sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        assert_eq!(ring(1, 1).shares(), vec![1.0]);
    }

    #[test]
    fn with_the_same_points_only_the_leaving_hosts_keys_move() {
        // 8 hosts at 16 points each, then the first 6 of them at 16 points each: the exact
        // moved share is the arcs of hosts 6 and 7.
        let names: Vec<String> = (0..8).map(host_name).collect();
        let before = Ring::new(&names, 128).unwrap();
        let after = Ring::new(&names[..6], 96).unwrap();
        assert_eq!(points_per_host(128, 8), points_per_host(96, 6));
        let shares = before.shares();
        let leaving = shares[6] + shares[7];
        assert!((moved_share_of_ring(&before, &after) - leaving).abs() < 1e-12);
        assert_eq!(moved_share_of_ring(&before, &before), 0.0);
        // With Envoy's rebuild (more points per host for the hosts that stay) more move.
        let rebuilt = Ring::new(&names[..6], 128).unwrap();
        assert!(moved_share_of_ring(&before, &rebuilt) > leaving + 0.01);
    }

    #[test]
    fn the_arcs_are_what_lookups_find() {
        // The share of evenly spread positions each host gets approaches its arc share.
        let r = ring(5, 64);
        let shares = r.shares();
        let samples = 200_000u64;
        let step = u64::MAX / samples;
        let mut count = [0u64; 5];
        for s in 0..samples {
            count[r.host_of(s * step)] += 1;
        }
        for (c, share) in count.iter().zip(&shares) {
            let seen = *c as f64 / samples as f64;
            assert!((seen - share).abs() < 0.002, "{seen} vs {share}");
        }
    }
}

/// Envoy's `RING_HASH` as a load-balancing policy: the request's key on a ring of
/// [`DEFAULT_MIN_RING_SIZE`] points or more over the instances taking requests. A hedge walks
/// on along the ring to the next point of an instance its request has not used (as Envoy's
/// hash policies do when a retry must avoid the hosts already tried).
#[derive(Clone, Debug)]
pub struct RingHash {
    /// The ring over the instances (`None` without any).
    ring: Option<Ring>,
}

impl Balancer for RingHash {
    const HASHES_KEYS: bool = true;
    const QUEUE: QueueModel = QueueModel::PoissonSplit;
    const PARAMS: &'static [&'static str] = &["keys", "zipf"];
    const RELATIONS: &'static [RelationId] = &[
        RelationId::RingHash,
        RelationId::HashKeysMoved,
        RelationId::RoutedShares,
        RelationId::RoutedMixture,
    ];

    fn build(hosts: &[u32]) -> Self {
        RingHash {
            ring: Ring::new(&super::host_names(hosts), DEFAULT_MIN_RING_SIZE),
        }
    }

    fn table(&self) -> Option<&dyn HashBalancer> {
        self.ring.as_ref().map(|r| r as &dyn HashBalancer)
    }

    #[inline]
    fn pick(
        &mut self,
        hosts: &mut Hosts,
        _rng: &mut Mulberry32,
        key_hash: u64,
        _held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        hosts.by_key(key_hash, self.ring.as_ref().map(|r| |h| r.host_of(h)))
    }

    fn pick_other(
        &mut self,
        hosts: &mut Hosts,
        rng: &mut Mulberry32,
        key_hash: u64,
        used: &[u32],
        held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        let Some(ring) = &self.ring else {
            return self.pick(hosts, rng, key_hash, held);
        };
        let points = ring.points();
        let start = points.partition_point(|&(p, _)| p < key_hash);
        (0..points.len())
            .map(|k| points[(start + k) % points.len()].1)
            .map(|position| hosts.active[position as usize])
            .find(|i| !used.contains(i))
            .map(|i| i as usize)
    }
}
