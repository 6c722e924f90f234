//! The service stage from queueing formulas: the fleet as one M/M/N queue with a timeout
//! (Erlang C and its waiting-time tail), or M/M/N/K behind Envoy's per-node limits.

use super::{ServiceModel, TickInput, TickOutcome};
use crate::queueing;

/// Inputs of a queue solve; ticks with the same inputs reuse the last solution.
#[derive(Clone, Copy, Debug, PartialEq)]
struct QueueKey {
    lambda: f64,
    service_s: f64,
    workers: u32,
    room: Option<u32>,
    timeout_s: f64,
    want_p95: bool,
    cold_start: Option<super::ColdStart>,
}

/// The formulas of the sources panel, with the last solve remembered.
#[derive(Clone, Debug, Default)]
pub struct QueueFormulas {
    last: Option<(QueueKey, TickOutcome)>,
}

impl ServiceModel for QueueFormulas {
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
            workers,
            room,
            timeout_s: input.timeout_s,
            want_p95: input.want_p95,
            cold_start: input.cold_start.filter(|_| input.serving == 0),
        };
        if let Some((k, outcome)) = self.last {
            if k == key {
                return outcome;
            }
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
        // Only the policies read the p95; minute-cadence ones skip the solve.
        let p95_s = if input.want_p95 {
            queue.tail.quantile(0.05)
        } else {
            0.0
        };
        let outcome = TickOutcome {
            queue,
            rejected,
            p95_s,
            workers,
        };
        self.last = Some((key, outcome));
        outcome
    }
}
