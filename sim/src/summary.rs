//! The debrief of a run: what it cost in budget, money and latency. Also what `compare`
//! prints per policy, so trainers can put runs side by side.

use crate::action::Action;
use crate::record::MinuteRecord;

/// Figures of a whole run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RunSummary {
    pub minutes: u32,
    /// Share of the month's error budget the run spent.
    pub budget_spent: f64,
    /// Share of the month's budget left at the end.
    pub budget_left: f64,
    /// Fleet cost, $.
    pub cost: f64,
    pub worst_p99_ms: f64,
    pub minutes_paging: u32,
    /// Minutes whose error rate exceeded the rate the SLO allows (burn above 1).
    pub minutes_over_budget_rate: u32,
    /// Sum over minutes of the instances billed.
    pub instance_minutes: u64,
    /// Requests that failed.
    pub failed_requests: f64,
    /// Requests shed on purpose.
    pub shed_requests: f64,
    /// Mean age of cached answers over the run, s.
    pub mean_staleness_s: f64,
    /// The user's actions with their minutes.
    pub actions: Vec<String>,
}

impl RunSummary {
    /// Summarises `history`; `budget_left_now` and `cost_now` are the balances after the last
    /// minute, and `slo` the objective.
    pub fn new(
        history: &[MinuteRecord],
        actions: &[Action],
        budget_left_now: f64,
        cost_now: f64,
        slo: f64,
    ) -> Self {
        let n = history.len().max(1) as f64;
        let budget_at_start = history.first().map_or(budget_left_now, |r| r.budget_left);
        Self {
            minutes: history.len() as u32,
            budget_spent: budget_at_start - budget_left_now,
            budget_left: budget_left_now,
            cost: cost_now,
            worst_p99_ms: history.iter().map(|r| r.p99_ms).fold(0.0, f64::max),
            minutes_paging: history.iter().filter(|r| r.paging).count() as u32,
            minutes_over_budget_rate: history.iter().filter(|r| over_budget_rate(r, slo)).count()
                as u32,
            instance_minutes: history
                .iter()
                .map(|r| u64::from(r.serving + r.booting + r.draining))
                .sum(),
            failed_requests: history
                .iter()
                .map(|r| 60.0 * r.requests_per_s * (1.0 - r.shed_share) * r.error_rate)
                .sum(),
            shed_requests: history
                .iter()
                .map(|r| 60.0 * r.requests_per_s * r.shed_share)
                .sum(),
            mean_staleness_s: history.iter().map(|r| r.cache_age_s).sum::<f64>() / n,
            actions: actions.iter().map(Action::encode).collect(),
        }
    }
}

/// Minutes from `from` (a fault's start; the first minute above the rate the objective `slo`
/// allows when `None`) until errors are back within it for good, at the minute after the last
/// one above it: 0 when no minute was above it, `None` when the run's last minute still was.
pub fn minutes_to_mitigate(history: &[MinuteRecord], slo: f64, from: Option<u32>) -> Option<u32> {
    let Some((first, recovered)) = errors_over(history, slo) else {
        return Some(0);
    };
    let end = u32::try_from(history.len()).unwrap_or(u32::MAX);
    (recovered < end).then(|| recovered.saturating_sub(from.unwrap_or(first)))
}

/// The first minute above the rate the objective `slo` allows, and the minute after the last
/// one, when errors are back within it for good (the run's length when its last minute was
/// still above it); `None` when no minute was. The postmortem's detection and the minutes to
/// mitigate read the same two minutes.
pub fn errors_over(history: &[MinuteRecord], slo: f64) -> Option<(u32, u32)> {
    let mut over = history.iter().filter(|r| over_budget_rate(r, slo));
    let first = over.next()?;
    let last = over.next_back().unwrap_or(first);
    Some((first.minute, last.minute + 1))
}

/// Whether minute `r` failed requests above the rate the objective `slo` allows (its burn
/// above 1): the minutes [`RunSummary::minutes_over_budget_rate`] counts.
pub fn over_budget_rate(r: &MinuteRecord, slo: f64) -> bool {
    r.error_rate > 1.0 - slo
}
