//! The service stage from queueing formulas: the fleet as one M/M/N queue with a timeout
//! (Erlang C and its waiting-time tail), or M/M/N/K behind Envoy's per-node limits.
//!
//! Under a load-balancing policy that splits the requests over the instances' own queues
//! (round robin, random, ring hash, Maglev), the queue is the routed fleet's
//! ([`queueing::routing`]): each instance's share of the arrivals and its own queue, mixed
//! over the instances. Least request, the run's default, stays the pooled queue it comes
//! near (the supermarket model). The pooled queue also stands in where the routed formulas do
//! not reach: behind per-node limits, while no instance serves, and in minutes a fast
//! autoscaler splits into ticks (their p95 and the minute's mixture read the pooled tail).

use super::{ServiceModel, TickInput, TickOutcome};
use crate::queueing::{self, routing};
use crate::requests::{KeySpace, Routing};

/// Inputs of a queue solve; ticks with the same inputs reuse the last solution.
#[derive(Clone, Copy, Debug, PartialEq)]
struct QueueKey {
    lambda: f64,
    service_s: f64,
    /// The serving instances and their workers (the routed fleet reads them apart).
    #[cfg(feature = "extended")]
    serving: u32,
    #[cfg(feature = "extended")]
    workers_per_instance: u32,
    workers: u32,
    room: Option<u32>,
    timeout_s: f64,
    want_p95: bool,
    cold_start: Option<super::ColdStart>,
    routing: Routing,
    failed_over: super::FailedOver,
    keys: KeySpace,
    choices: u32,
}

/// The formulas of the sources panel, with the last solve remembered.
#[derive(Clone, Debug, Default)]
pub struct QueueFormulas {
    last: Option<(QueueKey, TickOutcome)>,
    /// The arrival shares of the last routed fleet (building a hash policy's table is the
    /// costly part).
    shares: Option<RoutedShares>,
}

/// A routed fleet's arrival shares and what they depend on.
#[derive(Clone, Debug)]
struct RoutedShares {
    policy: Routing,
    instances: u32,
    workers_per_instance: u32,
    keys: KeySpace,
    shares: Vec<f64>,
}

impl QueueFormulas {
    /// The routed fleet's queue in place of the pooled one's figures, where it applies.
    fn routed(&mut self, input: &TickInput, pooled: &mut queueing::QueueOutcome) {
        let policy = input.requests.routing;
        let fleet = routing::RoutedFleet {
            keys: input.requests.keys,
            choices: input.requests.choices,
            ..routing::RoutedFleet::new(input.serving, input.workers_per_instance)
        };
        let known = self.shares.as_ref().is_some_and(|s| {
            s.policy == policy
                && s.instances == input.serving
                && s.workers_per_instance == input.workers_per_instance
                && s.keys == fleet.keys
        });
        if !known {
            self.shares = Some(RoutedShares {
                policy,
                instances: input.serving,
                workers_per_instance: input.workers_per_instance,
                keys: fleet.keys,
                shares: routing::arrival_shares(policy, &fleet),
            });
        }
        let shares = self
            .shares
            .as_ref()
            .map_or(&[][..], |s| s.shares.as_slice());
        let r = routing::routed_with_shares(
            policy,
            &fleet,
            shares,
            input.lambda,
            input.service_s,
            input.timeout_s,
        );
        pooled.utilization = r.utilization;
        pooled.p_wait = r.p_wait;
        pooled.timeout_share = r.timeout_share;
        pooled.p99_s = r.p99_s;
        pooled.mean_wait_s = r.mean_wait_s;
        // Those that give up waited exactly the timeout.
        pooled.mean_wait_all_s =
            (1.0 - r.timeout_share) * r.mean_wait_s + r.timeout_share * input.timeout_s;
    }
}

impl ServiceModel for QueueFormulas {
    fn repeats(&self) -> bool {
        true
    }

    fn tick(&mut self, input: &TickInput) -> TickOutcome {
        let workers_per_instance = input.workers_per_instance;
        // The elastic scaler's Envoy: a node runs at most its limit at once, and the
        // balancer holds only so many beyond the nodes' limits.
        let (workers, room) = match input.admission {
            None => (input.serving * workers_per_instance, None),
            Some(a) => {
                let per_node = workers_per_instance.min(a.per_node_requests);
                let inside = a.per_node_requests.saturating_sub(workers_per_instance);
                let room = input
                    .serving
                    .saturating_mul(inside)
                    .saturating_add(a.pending);
                (input.serving * per_node, Some(room))
            }
        };
        let key = QueueKey {
            lambda: input.lambda,
            service_s: input.service_s,
            #[cfg(feature = "extended")]
            serving: input.serving,
            #[cfg(feature = "extended")]
            workers_per_instance,
            workers,
            room,
            timeout_s: input.timeout_s,
            want_p95: input.want_p95,
            cold_start: input.cold_start.filter(|_| input.serving == 0),
            routing: input.requests.routing,
            failed_over: input.failed_over,
            keys: input.requests.keys,
            choices: input.requests.choices,
        };
        if let Some((k, outcome)) = self.last {
            if k == key {
                return outcome;
            }
        }
        #[cfg(feature = "extended")]
        if let Some(outcome) = memo::recall(&key) {
            self.last = Some((key, outcome));
            return outcome;
        }
        let (queue, rejected) = match (key.cold_start, room) {
            (Some(c), _) => (
                queueing::solve_cold_start(
                    input.lambda,
                    input.service_s,
                    c.ready_in_s,
                    c.patience_s,
                    c.tick_s,
                ),
                0.0,
            ),
            (None, None) => (
                queueing::solve(input.lambda, input.service_s, workers, input.timeout_s),
                0.0,
            ),
            (None, Some(room)) => queueing::solve_bounded(
                input.lambda,
                input.service_s,
                workers,
                room,
                input.timeout_s,
            ),
        };
        let mut queue = queue;
        let routed = cfg!(feature = "extended")
            && key.routing != Routing::LeastRequest
            && room.is_none()
            && key.cold_start.is_none()
            && !input.want_p95
            && input.serving > 1
            && input.lambda > 0.0;
        if routed {
            self.routed(input, &mut queue);
        }
        // Failed-over requests time out sooner: the penalty takes part of their timeout (on
        // a routed fleet the added share is read from the pooled queue's wait). Only regions
        // fail requests over.
        #[cfg(feature = "extended")]
        if input.failed_over.applies() && input.serving > 0 && key.cold_start.is_none() {
            let extra = input
                .failed_over
                .extra_timeouts(&queue.tail, input.timeout_s);
            queue.timeout_share = (queue.timeout_share + extra).min(1.0);
        }
        // The p95 is a root search on the tail: the formulas leave it to a policy that
        // reads it ([`crate::autoscale::Observation::p95_s`]).
        let outcome = TickOutcome {
            queue,
            rejected,
            p95_s: 0.0,
            workers,
        };
        self.last = Some((key, outcome));
        #[cfg(feature = "extended")]
        memo::keep(key, outcome);
        outcome
    }
}

/// Solutions remembered across runs. A solve is a pure function of its [`QueueKey`], and
/// the runs of one seed in a sweep (doing nothing, the textbook response, the person's
/// actions, each policy) meet the same minutes' inputs again and again until they part
/// (four solves in ten are repeats in the bad deploy's sweep): a hit returns the very
/// outcome the solve would give, so results stay bit for bit those of solving. A table of
/// one thread (a core of the sweep, a Web Worker), each key in one slot by its hash: a
/// collision forgets the older key and costs only a solve.
#[cfg(feature = "extended")]
mod memo {
    use super::{QueueKey, TickOutcome};
    use std::cell::RefCell;

    /// Slots of the table (a power of two): about four times the distinct inputs of one
    /// seed's runs of the bad deploy.
    const SLOTS: usize = 2048;

    type Table = Vec<Option<(QueueKey, TickOutcome)>>;

    std::thread_local! {
        static TABLE: RefCell<Table> = const { RefCell::new(Vec::new()) };
    }

    /// The slot of a key: FNV-1a over the figures that tell solves apart.
    fn slot(key: &QueueKey) -> usize {
        let words = [
            key.lambda.to_bits(),
            key.service_s.to_bits(),
            u64::from(key.serving) << 32 | u64::from(key.workers_per_instance),
            u64::from(key.workers) << 32 | u64::from(key.room.unwrap_or(u32::MAX)),
            key.timeout_s.to_bits() ^ u64::from(key.want_p95),
        ];
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for w in words {
            h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3);
        }
        (h ^ (h >> 29)) as usize & (SLOTS - 1)
    }

    /// The outcome solved for exactly this key, if the table still holds it.
    pub(super) fn recall(key: &QueueKey) -> Option<TickOutcome> {
        TABLE.with(|t| match t.borrow().get(slot(key)) {
            Some(Some((k, outcome))) if k == key => Some(*outcome),
            _ => None,
        })
    }

    /// Remembers the outcome of a solve.
    pub(super) fn keep(key: QueueKey, outcome: TickOutcome) {
        TABLE.with(|t| {
            let mut t = t.borrow_mut();
            if t.is_empty() {
                t.resize(SLOTS, None);
            }
            let i = slot(&key);
            t[i] = Some((key, outcome));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::requests::RequestConditions;

    fn input(routing: Routing, want_p95: bool) -> TickInput {
        TickInput {
            lambda: 1100.0,
            service_s: 0.09,
            serving: 10,
            workers_per_instance: 16,
            timeout_s: 2.0,
            admission: None,
            want_p95,
            cold_start: None,
            requests: RequestConditions {
                routing,
                ..RequestConditions::default()
            },
            failed_over: Default::default(),
        }
    }

    /// A policy that splits the requests takes the routed fleet's figures; least request
    /// keeps the pooled queue, and so does a minute split into ticks.
    #[test]
    fn the_policy_chooses_the_queue() {
        let pooled = queueing::solve(1100.0, 0.09, 160, 2.0);
        let mut f = QueueFormulas::default();
        let least = f.tick(&input(Routing::LeastRequest, false));
        assert_eq!(least.queue, pooled);
        for policy in [Routing::RoundRobin, Routing::Random, Routing::Maglev] {
            let fleet = routing::RoutedFleet::new(10, 16);
            let want = routing::routed(policy, &fleet, 1100.0, 0.09, 2.0);
            let got = f.tick(&input(policy, false)).queue;
            assert_eq!(got.p_wait, want.p_wait, "{policy:?}");
            assert_eq!(got.timeout_share, want.timeout_share, "{policy:?}");
            assert_eq!(got.p99_s, want.p99_s, "{policy:?}");
            assert_eq!(got.utilization, want.utilization, "{policy:?}");
            // Each instance's own queue waits more than the pooled one.
            assert!(got.p_wait > pooled.p_wait, "{policy:?}");
            let ticked = f.tick(&input(policy, true)).queue;
            assert_eq!(ticked.p_wait, pooled.p_wait, "{policy:?}");
        }
    }
}
