//! Envoy's `LEAST_REQUEST` with equal weights (power of d choices): `choice_count` instances
//! drawn uniformly, the request to the one holding the fewest requests.
//!
//! A hedge draws among the instances its request has not used. In the minute model the
//! supermarket model's fixed point stands for it ([`crate::queueing::routing::Supermarket`]),
//! and by default the pooled queue M/M/N, which it comes nearest to.

use super::registry::Balancer;
use super::{draw_index, Hosts, QueueModel, OTHER_TRIES};
use crate::relations::RelationId;
use crate::rng::Mulberry32;

/// Least request's number of choices by default: Envoy's `choice_count` default, "two-choice
/// selection if the field is not set" (Envoy's `LeastRequest` load-balancing policy); Envoy
/// accepts 2 or more.
pub const DEFAULT_CHOICE_COUNT: u32 = 2;

/// Most choices least request draws (the simulator's limit: the choices are kept in a fixed
/// array, nothing allocated per request). With as many choices as instances it looks at them
/// all.
pub const MAX_CHOICE_COUNT: u32 = 32;

/// Least request: its number of choices is the engine's ([`Hosts::choices`]).
#[derive(Clone, Copy, Debug)]
pub struct LeastRequest;

impl Balancer for LeastRequest {
    const WEIGHTED: bool = true;
    const READS_HELD: bool = true;
    const QUEUE: QueueModel = QueueModel::PowerOfChoices;
    const PARAMS: &'static [&'static str] = &["choice_count"];
    const RELATIONS: &'static [RelationId] = &[RelationId::SupermarketLatency];

    fn build(_hosts: &[u32]) -> Self {
        LeastRequest
    }

    /// Least request among `n ≥ 2` instances as Envoy draws it (`least_request_lb.cc`,
    /// `unweightedHostPickNChoices`): d positions each drawn uniformly from all n, with
    /// replacement (two draws can be the same instance), and the instance holding the fewest
    /// requests among them; a tie goes to the first drawn.
    #[inline]
    fn pick(
        &mut self,
        hosts: &mut Hosts,
        rng: &mut Mulberry32,
        _key_hash: u64,
        held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        let active = &hosts.active;
        let n = active.len() as u32;
        let mut best = active[draw_index(rng, n)] as usize;
        let mut best_held = held(best);
        for _ in 1..hosts.choices {
            let candidate = active[draw_index(rng, n)] as usize;
            let candidate_held = held(candidate);
            if candidate_held < best_held {
                best = candidate;
                best_held = candidate_held;
            }
        }
        Some(best)
    }

    /// d distinct unused instances (fewer when fewer are left), each drawn by rejection or,
    /// after [`OTHER_TRIES`] draws, the first left in order; the one holding the fewest.
    fn pick_other(
        &mut self,
        hosts: &mut Hosts,
        rng: &mut Mulberry32,
        _key_hash: u64,
        used: &[u32],
        held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        let n = hosts.active.len();
        let unused = |i: u32| !used.contains(&i);
        let a = hosts.draw_unused(rng, used);
        let mut chosen = [0u32; MAX_CHOICE_COUNT as usize];
        chosen[0] = a as u32;
        let (mut best, mut best_held) = (a, held(a));
        for k in 1..hosts.choices as usize {
            let fresh = |i: u32| unused(i) && !chosen[..k].contains(&i);
            if !hosts.active.iter().any(|&i| fresh(i)) {
                break;
            }
            let drawn = (0..OTHER_TRIES)
                .map(|_| hosts.active[draw_index(rng, n as u32)])
                .find(|&i| fresh(i));
            let Some(b) = drawn.or_else(|| hosts.active.iter().copied().find(|&i| fresh(i))) else {
                break;
            };
            chosen[k] = b;
            let b_held = held(b as usize);
            if b_held < best_held {
                best = b as usize;
                best_held = b_held;
            }
        }
        Some(best)
    }
}
