//! The consumer's side of seed 003: each region's composite state reaches the consumer's
//! load balancer after a propagation delay; an UNHEALTHY region is taken out of routing and
//! its users go to the nearest region that is not, paying a cross-region latency penalty;
//! when the region is no longer UNHEALTHY its users come back (failback).

use crate::health::{HealthState, SEED_003};
use crate::relations::{
    Relation, RelationId, BACCELLI_HEBUTERNE_1981, THIS_MODEL, ZELTYN_MANDELBAUM_2005,
};
use std::collections::VecDeque;

/// Composite states on their way to the consumer's load balancer.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Propagation {
    /// What the consumer's load balancer knows.
    pub view: HealthState,
    /// States sent and not yet arrived: (second of the run it arrives, state).
    pub in_flight: VecDeque<(u32, HealthState)>,
}

impl Default for Propagation {
    fn default() -> Self {
        Self {
            view: HealthState::Unknown,
            in_flight: VecDeque::new(),
        }
    }
}

/// When a composite state evaluated at second `at_s` of the run reaches the consumer: after
/// the propagation delay (a parameter; seed 003 says the state is propagated automatically
/// but gives no figure, so its default is this model's assumption).
pub fn arrives_at(at_s: u32, delay_s: u32) -> u32 {
    at_s + delay_s
}

impl Propagation {
    /// Sends the composite state evaluated at second `at_s`.
    pub fn send(&mut self, at_s: u32, state: HealthState, delay_s: u32) {
        self.in_flight.push_back((arrives_at(at_s, delay_s), state));
    }

    /// The states that have arrived by second `now_s`, in order: returns the transitions
    /// of the consumer's view (old, new).
    pub fn arrive(&mut self, now_s: u32) -> Vec<(HealthState, HealthState)> {
        let mut changes = Vec::new();
        while self.in_flight.front().is_some_and(|(t, _)| *t <= now_s) {
            let (_, state) = self.in_flight.pop_front().expect("front exists");
            if state != self.view {
                changes.push((self.view, state));
                self.view = state;
            }
        }
        changes
    }
}

pub const PROPAGATION: Relation = Relation {
    id: RelationId::Failover,
    symbols: &["d", "Δ"],
    citations: &[
        SEED_003,
        THIS_MODEL,
        BACCELLI_HEBUTERNE_1981,
        ZELTYN_MANDELBAUM_2005,
    ],
    assumption: true,
};

/// Regions in order of distance from region `home` (itself first): the next one, then the
/// one after (regions are listed so that neighbours are near each other).
pub fn nearest_order(home: usize, regions: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..regions).collect();
    order.sort_by_key(|&r| (r.abs_diff(home), r));
    order
}

/// Where the consumer sends the users of region `home`: their own region unless it is out
/// of routing (its composite state UNHEALTHY with health-based failover on, or drained by
/// hand); then the nearest region that is in routing. With every region out, the users
/// stay home (there is nowhere better to go).
pub fn route(home: usize, out_of_routing: &[bool]) -> usize {
    // The order of [`nearest_order`], without building it: distance 0, 1, …, the lower
    // index first at each distance.
    let n = out_of_routing.len();
    for d in 0..n {
        for r in [home.checked_sub(d), home.checked_add(d)]
            .into_iter()
            .flatten()
        {
            if r < n && !out_of_routing[r] {
                return r;
            }
        }
    }
    home
}

/// Whether a region is out of the consumer's routing: drained by hand, or UNHEALTHY as the
/// consumer last heard while health-based failover is on. UNKNOWN keeps routing (seed 003
/// fails over on UNHEALTHY only).
pub fn out_of_routing(view: HealthState, failover_on: bool, drained: bool) -> bool {
    drained || (failover_on && view == HealthState::Unhealthy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use HealthState::*;

    #[test]
    fn nearest_first() {
        assert_eq!(nearest_order(0, 3), vec![0, 1, 2]);
        assert_eq!(nearest_order(1, 3), vec![1, 0, 2]);
        assert_eq!(nearest_order(2, 3), vec![2, 1, 0]);
    }

    #[test]
    fn users_go_to_the_nearest_region_in_routing() {
        assert_eq!(route(0, &[false, false]), 0);
        assert_eq!(route(0, &[true, false]), 1);
        assert_eq!(route(2, &[false, true, true]), 0);
        assert_eq!(route(0, &[true, true]), 0);
        // The same order as nearest_order, for every home and every set of regions out.
        for n in 1..=3usize {
            for mask in 0..(1u32 << n) {
                let out: Vec<bool> = (0..n).map(|r| mask & (1 << r) != 0).collect();
                for home in 0..n {
                    let want = nearest_order(home, n)
                        .into_iter()
                        .find(|&r| !out[r])
                        .unwrap_or(home);
                    assert_eq!(route(home, &out), want);
                }
            }
        }
        assert!(out_of_routing(Unhealthy, true, false));
        assert!(!out_of_routing(Unhealthy, false, false));
        assert!(!out_of_routing(Unknown, true, false));
        assert!(out_of_routing(Healthy, true, true));
    }

    #[test]
    fn states_arrive_after_the_delay() {
        let mut p = Propagation::default();
        p.send(10, Healthy, 30);
        assert!(p.arrive(39).is_empty());
        assert_eq!(p.arrive(40), vec![(Unknown, Healthy)]);
        p.send(50, Unhealthy, 30);
        p.send(55, Healthy, 30);
        assert_eq!(
            p.arrive(90),
            vec![(Healthy, Unhealthy), (Unhealthy, Healthy)]
        );
    }
}
