//! Envoy's `RANDOM`: an instance drawn uniformly.
//!
//! A hedge draws among the instances its request has not used. In the minute model a
//! Poisson stream split at random is independent Poisson streams, so each instance is exactly
//! M/M/c+D at λ/I ([`crate::queueing::routing::split_poisson`]).

use super::registry::Balancer;
use super::{draw_index, Hosts, QueueModel};
use crate::relations::RelationId;
use crate::rng::Mulberry32;

/// Random: no state of its own.
#[derive(Clone, Copy, Debug)]
pub struct Random;

impl Balancer for Random {
    const QUEUE: QueueModel = QueueModel::PoissonSplit;
    const RELATIONS: &'static [RelationId] =
        &[RelationId::RoutedShares, RelationId::RoutedMixture];

    fn build(_hosts: &[u32]) -> Self {
        Random
    }

    #[inline]
    fn pick(
        &mut self,
        hosts: &mut Hosts,
        rng: &mut Mulberry32,
        _key_hash: u64,
        _held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        hosts.at(draw_index(rng, hosts.active.len() as u32))
    }

    fn pick_other(
        &mut self,
        hosts: &mut Hosts,
        rng: &mut Mulberry32,
        _key_hash: u64,
        used: &[u32],
        _held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        Some(hosts.draw_unused(rng, used))
    }
}
