//! One simulated minute, as the metrics table, the charts and the CLI show it.

use crate::time::Clock;

/// Metrics of one simulated minute. Shares are fractions 0–1. Rates and the burn rates are
/// measured over the minute (burn windows end with it); `cost_so_far` and `budget_left` are
/// the balances at the start of the minute, before the minute is paid for.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MinuteRecord {
    pub minute: u32,
    /// Time of day, "HH:MM".
    pub clock: Clock,
    /// Incoming requests per second (before shedding).
    pub requests_per_s: f64,
    pub serving: u32,
    /// Instances booting, including a rollback fleet being prepared.
    pub booting: u32,
    pub cache_hit: f64,
    /// Database demand over capacity (may exceed 1 when the database is overloaded).
    pub db_utilization: f64,
    /// Share of all requests shed on purpose (low priority, "try later").
    pub shed_share: f64,
    pub fleet_cost_per_hour: f64,
    pub cost_so_far: f64,
    pub cache_age_s: f64,
    /// Share of the serving fleet on a bad build (what the model knows; a dashboard shows
    /// `build` and `build_share`).
    pub bad_build_share: f64,
    /// The live build: the one new instances start on (1 is the opening build).
    pub build: u32,
    /// Share of the serving fleet running the live build (a rollout's progress).
    pub build_share: f64,
    /// Share of responses that include recommendations.
    pub feature_available: f64,
    /// Measured utilization of the serving workers (at most 1).
    pub utilization: f64,
    /// Share of admitted requests that failed (see the sources panel for what counts).
    pub error_rate: f64,
    /// Share of admitted requests that timed out waiting (including the failed share at
    /// saturation).
    pub timeout_share: f64,
    /// Exact p99 of the time in the system, ms, capped at the timeout.
    pub p99_ms: f64,
    pub burn_rate_1h: f64,
    /// Fraction of the month's error budget left (negative once overspent).
    pub budget_left: f64,
    /// The burn-rate page is firing.
    pub paging: bool,
    /// The source's p99 approximation, ms, capped at the timeout.
    pub p99_approx_ms: f64,
    pub burn_rate_5m: f64,
    /// Instances draining.
    pub draining: u32,
    /// Requests per second the serving fleet can complete, N/S.
    pub capacity_per_s: f64,
    /// Mean service time, ms.
    pub service_time_ms: f64,
    /// Database query time, ms.
    pub query_time_ms: f64,
    /// Share of the working set the cache holds.
    pub cache_warm: f64,
    /// Minutes the warm-up job still runs (0: idle).
    pub warmup_minutes_left: u32,
    /// Minutes until the rollback fleet takes traffic (0: none in progress).
    pub rollback_minutes_left: u32,
    /// Probability of waiting for a worker (Erlang C).
    pub erlang_c: f64,
    /// Share of admitted requests the balancer rejected because every node was at its limit
    /// and the overflow queue was full (503); they count as errors.
    pub rejected_share: f64,
}
