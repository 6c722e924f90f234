//! The service stage: how the fleet serves one tick's requests. [`ServiceModel`] is the seam:
//! the textbook formulas ([`formulas::QueueFormulas`]) are one implementation; a
//! request-level engine can be another, with the same inputs and outputs.

pub mod formulas;
pub mod requests;

use crate::autoscale::Admission;
use crate::queueing::{self, QueueOutcome};

/// What the service stage needs to know about one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TickInput {
    /// Admitted arrival rate, req/s.
    pub lambda: f64,
    /// Mean service time of a request, s.
    pub service_s: f64,
    /// Serving instances.
    pub serving: u32,
    /// Worker slots per instance.
    pub workers_per_instance: u32,
    /// Request timeout at the load balancer, s.
    pub timeout_s: f64,
    /// Per-node limits in front of the fleet (the elastic scaler's Envoy), if any.
    pub admission: Option<Admission>,
    /// Whether the caller needs the p95 of the time in the system (policies that act
    /// faster than a minute read it).
    pub want_p95: bool,
    /// While no instance serves under a policy that holds requests for the first one.
    pub cold_start: Option<ColdStart>,
    /// What only the request engine reads (the tick's length, the policy, hedging, faults);
    /// the formulas ignore it.
    pub requests: requests::RequestConditions,
    /// The share of the requests that come from another region's users, and the latency
    /// they pay to get here (none in a run with one region).
    pub failed_over: FailedOver,
}

/// The requests of failed-over users among a tick's arrivals: each pays the cross-region
/// penalty on its way, out of its timeout.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FailedOver {
    /// Share of the arrivals from another region's users.
    pub share: f64,
    /// The cross-region penalty Δ, s.
    pub penalty_s: f64,
}

impl FailedOver {
    /// Whether the penalty changes anything (it does not at share 0 or Δ = 0).
    pub fn applies(&self) -> bool {
        self.share > 0.0 && self.penalty_s > 0.0
    }

    /// The timeouts the penalty adds to a queue's share, as a share of all its arrivals:
    /// the failed-over requests that wait longer than τ − Δ but not past τ
    /// ([`queueing::failed_over_timeout_share`]).
    pub fn extra_timeouts(&self, tail: &queueing::SojournTail, timeout_s: f64) -> f64 {
        if !self.applies() {
            return 0.0;
        }
        let far = queueing::failed_over_timeout_share(tail, timeout_s, self.penalty_s);
        (self.share * (far - tail.abandon_share())).max(0.0)
    }
}

/// No instance serves yet and the policy holds arriving requests for the first one (Cloud
/// Run's pending queue, Knative's activator).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColdStart {
    /// Seconds from the tick's start until the first instance serves.
    pub ready_in_s: f64,
    /// Longest a request is held: the pending bound or the request timeout, whichever is
    /// shorter.
    pub patience_s: f64,
    /// Length of the tick, s.
    pub tick_s: f64,
}

/// What the service stage reports for one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TickOutcome {
    pub queue: QueueOutcome,
    /// Share of arrivals rejected by a per-node limit.
    pub rejected: f64,
    /// p95 of the time in the system as measured, s (0 when not asked for, and from the
    /// formulas, whose tail gives it to whoever reads it).
    pub p95_s: f64,
    /// Worker slots that take requests (after per-node limits).
    pub workers: u32,
}

/// A model of how the fleet serves requests.
pub trait ServiceModel {
    /// Serves one tick.
    fn tick(&mut self, input: &TickInput) -> TickOutcome;

    /// Ends the minute whose ticks were served since the last call: a model that measures
    /// requests returns the measured p99 of the minute's time in the system, s (the formulas
    /// return `None`: the minute model mixes their ticks' distributions).
    fn close_minute(&mut self) -> Option<f64> {
        None
    }

    /// Whether the same input always gives the same outcome, with nothing kept from one tick
    /// to the next (the formulas): a tick like the one before may then take its outcome
    /// without asking. The request engine draws requests and measures them: it does not.
    fn repeats(&self) -> bool {
        false
    }

    /// What the requests did in the last closed minute (`None` for the formulas).
    fn requests(&self) -> Option<&requests::RequestMinute> {
        None
    }
}
