//! The outcome accounting of a whole run: how each counted request ended, gathered the same
//! way whether the engine runs by arrival times or through the event list.

use super::arrivals::Fate;
use super::{percentiles, HostCounts, HostEvent, RunOutcome};

/// How a counted request ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// Refused with a 503 (no instance took it, or its node was at its limits).
    Rejected,
    /// Failed at its timeout, waiting or in service.
    TimedOut,
    /// Cut by its instance's stop.
    Reset,
    /// Answered: its wait in a queue and its time in the system, s.
    Served { wait: f64, sojourn: f64 },
}

/// Busy worker time over worker time, within [0, 1] (0 without any worker time).
#[inline]
pub(crate) fn utilization(busy: f64, capacity: f64) -> f64 {
    if capacity > 0.0 {
        (busy / capacity).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The counts both ways of running gather, turned into a [`RunOutcome`] at the end.
pub(crate) struct Tally {
    pub(crate) customers: u64,
    pub(crate) sojourns: Vec<f64>,
    pub(crate) served_by: Vec<u64>,
    pub(crate) waited: u64,
    pub(crate) gave_up: u64,
    pub(crate) rejected: u64,
    pub(crate) reset: u64,
    pub(crate) wait_sum: f64,
    pub(crate) hedge_wait_sum: f64,
    pub(crate) hedges_sent: u64,
    pub(crate) hedges_won: u64,
    pub(crate) hedges_cancelled: u64,
    pub(crate) duplicates: u64,
}

impl Tally {
    pub(crate) fn new(customers: u64, instances: usize) -> Self {
        let capacity = usize::try_from(customers).unwrap_or(usize::MAX);
        Tally {
            customers,
            sojourns: Vec::with_capacity(capacity),
            served_by: vec![0; instances],
            waited: 0,
            gave_up: 0,
            rejected: 0,
            reset: 0,
            wait_sum: 0.0,
            hedge_wait_sum: 0.0,
            hedges_sent: 0,
            hedges_won: 0,
            hedges_cancelled: 0,
            duplicates: 0,
        }
    }

    /// Counts how a request ended.
    #[inline]
    pub(crate) fn count(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Rejected => self.rejected += 1,
            Outcome::TimedOut => self.gave_up += 1,
            Outcome::Reset => self.reset += 1,
            Outcome::Served { wait, sojourn } => {
                self.wait_sum += wait;
                self.sojourns.push(sojourn);
            }
        }
    }

    /// Counts the fate of a request run by arrival times: whether it waited, how it ended,
    /// and the instance that served it.
    #[inline]
    pub(crate) fn count_fate(&mut self, fate: &Fate) {
        self.waited += u64::from(fate.waited());
        if let Fate::Served { instance, .. } = *fate {
            self.served_by[instance] += 1;
        }
        self.count(fate.outcome());
    }

    pub(crate) fn finish(
        mut self,
        utilization: f64,
        tokens_left: Option<f64>,
        events: u64,
        hosts: HostCounts,
        host_events: Vec<HostEvent>,
    ) -> RunOutcome {
        let customers = self.customers as f64;
        let served = self.sojourns.len();
        let per_served = |sum: f64| if served > 0 { sum / served as f64 } else { 0.0 };
        let mean_sojourn_s = per_served(self.sojourns.iter().sum::<f64>());
        let [p50_s, p95_s, p99_s, p999_s] =
            percentiles(&mut self.sojourns, [0.5, 0.95, 0.99, 0.999]);
        RunOutcome {
            p_wait: self.waited as f64 / customers,
            mean_wait_s: per_served(self.wait_sum),
            mean_hedge_wait_s: per_served(self.hedge_wait_sum),
            mean_sojourn_s,
            p50_s,
            p95_s,
            p99_s,
            p999_s,
            timeout_share: self.gave_up as f64 / customers,
            rejected_share: self.rejected as f64 / customers,
            reset_share: self.reset as f64 / customers,
            utilization,
            per_instance_served: self.served_by,
            hedges_sent: self.hedges_sent,
            hedges_won: self.hedges_won,
            hedges_cancelled: self.hedges_cancelled,
            duplicates: self.duplicates,
            tokens_left,
            hosts,
            host_events,
            customers: self.customers,
            events,
        }
    }
}
