//! Envoy's `ROUND_ROBIN` with equal weights: the instances in turn.
//!
//! A hedge takes the next instance in turn its request has not used. In the minute model
//! each instance takes every I-th request: Erlang-I arrivals
//! ([`crate::queueing::routing::erlang_arrivals_queue`]).

use super::registry::Balancer;
use super::{Hosts, QueueModel};
use crate::relations::RelationId;
use crate::rng::Mulberry32;

/// Round robin: no state of its own beyond the turn the engine keeps ([`Hosts::next_turn`]).
#[derive(Clone, Copy, Debug)]
pub struct RoundRobin;

impl Balancer for RoundRobin {
    const WEIGHTED: bool = true;
    const QUEUE: QueueModel = QueueModel::InTurn;
    const RELATIONS: &'static [RelationId] =
        &[RelationId::RoundRobinQueue, RelationId::RoutedMixture];

    fn build(_hosts: &[u32]) -> Self {
        RoundRobin
    }

    #[inline]
    fn pick(
        &mut self,
        hosts: &mut Hosts,
        _rng: &mut Mulberry32,
        _key_hash: u64,
        _held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        let position = hosts.take_turn();
        hosts.at(position)
    }

    fn pick_other(
        &mut self,
        hosts: &mut Hosts,
        _rng: &mut Mulberry32,
        _key_hash: u64,
        used: &[u32],
        _held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        for _ in 0..hosts.active.len() {
            let t = hosts.take_turn();
            if !used.contains(&hosts.active[t]) {
                return Some(hosts.active[t] as usize);
            }
        }
        None
    }
}
