//! Error budget, burn rate and the multiwindow page.

use crate::ids::ids;
use crate::relations::{
    Relation, RelationId, SRE_BOOK_SLO, SRE_WORKBOOK_ALERTING, SRE_WORKBOOK_IMPLEMENTING_SLOS,
    THIS_MODEL,
};

/// Minutes in the 30-day month the budget covers.
pub const MONTH_MINUTES: f64 = 43_200.0;

ids! {
    /// How a minute's errors are charged to the month's budget (parameter
    /// `budget_accounting`).
    #[derive(Default)]
    BudgetAccounting, "budget_accounting" {
        #[default]
        /// The source's rule and the default: every minute costs burn / 43,200, whatever its
        /// traffic ([`budget_spent_per_minute`]).
        Time = "time",
        /// An events-based SLO: a minute costs its errors over the month's allowed errors
        /// ([`budget_spent_by_requests`]), so a busy minute costs more than a quiet one.
        Requests = "requests",
    }
}

impl BudgetAccounting {
    /// The parameter's name, as `--set` and links spell it.
    pub const PARAM: &'static str = "budget_accounting";
}

/// Burn rate: how many times faster than sustainable the budget is being spent.
pub fn burn_rate(error_rate: f64, slo: f64) -> f64 {
    error_rate / (1.0 - slo)
}

/// Share of the month's budget one minute at `burn` spends.
pub fn budget_spent_per_minute(burn: f64) -> f64 {
    burn / MONTH_MINUTES
}

/// Requests the month is expected to bring: the mean rate of the scenario's demand curve over
/// 30 days. The daily curve's mean is its base rate (the sine averages to zero over a day);
/// the surge and the per-minute noise are left out, since nobody expects them, so the count is
/// the same for every seed.
pub fn month_expected_requests(base_rps: f64) -> f64 {
    base_rps * 60.0 * MONTH_MINUTES
}

/// Share of the month's budget a minute with `errors` failed requests spends under an
/// events-based SLO: errors / ((1 − SLO) × the month's expected requests). With no expected
/// traffic there is no budget to measure against and nothing is charged.
pub fn budget_spent_by_requests(errors: f64, month_requests: f64, slo: f64) -> f64 {
    let allowed = (1.0 - slo) * month_requests;
    if allowed > 0.0 {
        errors / allowed
    } else {
        0.0
    }
}

pub const ERROR_BUDGET: Relation = Relation {
    id: RelationId::ErrorBudget,
    symbols: &["SLO"],
    citations: &[SRE_BOOK_SLO, SRE_WORKBOOK_ALERTING],
    assumption: false,
};

pub const ERROR_BUDGET_REQUESTS: Relation = Relation {
    id: RelationId::ErrorBudgetRequests,
    symbols: &["base", "errors"],
    citations: &[SRE_WORKBOOK_IMPLEMENTING_SLOS, SRE_WORKBOOK_ALERTING],
    assumption: false,
};

pub const BURN_RATE_1H: Relation = Relation {
    id: RelationId::BurnRate1h,
    symbols: &[],
    citations: &[SRE_WORKBOOK_ALERTING],
    assumption: false,
};

/// Threshold of the fast-burn page: 2 % of a 30-day budget in one hour.
pub const PAGE_BURN: f64 = 14.4;

/// The multiwindow rule: page while both the long (1 h) and the short (5 min) window burn at
/// or above 14.4×. The short window makes the page resolve soon after the errors stop.
pub fn page_fires(burn_long: f64, burn_short: f64) -> bool {
    burn_long >= PAGE_BURN && burn_short >= PAGE_BURN
}

pub const MULTIWINDOW_PAGE: Relation = Relation {
    id: RelationId::MultiwindowPage,
    symbols: &["14.4"],
    citations: &[SRE_WORKBOOK_ALERTING],
    assumption: false,
};

pub const ERRORS_COUNTED: Relation = Relation {
    id: RelationId::ErrorsCounted,
    symbols: &[],
    citations: &[THIS_MODEL, SRE_BOOK_SLO],
    assumption: true,
};

/// A sliding mean over the last `len` values, pre-filled with the first value pushed.
#[derive(Clone, Debug, Default)]
pub struct Window {
    values: Vec<f64>,
    next: usize,
    sum: f64,
    len: usize,
}

impl Window {
    pub fn new(len: usize) -> Self {
        Self {
            values: Vec::with_capacity(len),
            next: 0,
            sum: 0.0,
            len: len.max(1),
        }
    }

    /// Adds a value; the first value fills the whole window.
    pub fn push(&mut self, value: f64) {
        if self.values.is_empty() {
            self.values.resize(self.len, value);
        } else {
            self.values[self.next] = value;
            self.next = (self.next + 1) % self.len;
        }
        // Recomputed rather than updated incrementally so that rounding never accumulates.
        self.sum = self.values.iter().sum();
    }

    pub fn mean(&self) -> f64 {
        if self.values.is_empty() {
            0.0
        } else {
            self.sum / self.len as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burn_and_budget() {
        // 5 % errors against a 99.9 % SLO burn 50× and spend 50/43,200 of the budget a minute.
        assert!((burn_rate(0.05, 0.999) - 50.0).abs() < 1e-9);
        assert!((budget_spent_per_minute(50.0) - 0.001_157_407_407).abs() < 1e-12);
    }

    #[test]
    fn by_requests_a_minute_costs_its_errors_over_the_months_allowed_errors() {
        // 900 req/s for 30 days: 2,332,800,000 requests, of which 0.1 % (2,332,800) may fail.
        let month = month_expected_requests(900.0);
        assert_eq!(month, 2_332_800_000.0);
        assert!((budget_spent_by_requests(2_332.8, month, 0.999) - 0.001).abs() < 1e-15);
        // At the base rate the two rules agree: 5 % of 900 req/s for a minute is 2,700 errors.
        let by_requests = budget_spent_by_requests(0.05 * 900.0 * 60.0, month, 0.999);
        let by_time = budget_spent_per_minute(burn_rate(0.05, 0.999));
        assert!(
            (by_requests / by_time - 1.0).abs() < 1e-12,
            "{by_requests} {by_time}"
        );
        // Twice the base rate with the same error rate costs twice as much.
        let busy = budget_spent_by_requests(0.05 * 1800.0 * 60.0, month, 0.999);
        assert!((busy / by_time - 2.0).abs() < 1e-12);
        // No expected traffic: nothing to measure against, nothing charged, no division by 0.
        assert_eq!(budget_spent_by_requests(10.0, 0.0, 0.999), 0.0);
    }

    #[test]
    fn accounting_spellings() {
        assert_eq!(BudgetAccounting::default(), BudgetAccounting::Time);
        assert_eq!("requests".parse(), Ok(BudgetAccounting::Requests));
        assert_eq!(BudgetAccounting::Time.to_string(), "time");
        let err = "events".parse::<BudgetAccounting>().unwrap_err();
        assert_eq!(err.kind, BudgetAccounting::PARAM);
        assert_eq!(err.allowed, ["time", "requests"]);
    }

    #[test]
    fn window_is_prefilled() {
        let mut w = Window::new(60);
        w.push(0.0);
        w.push(0.06);
        assert!((w.mean() - 0.001).abs() < 1e-15);
        assert!(page_fires(14.4, 20.0) && !page_fires(14.3, 100.0) && !page_fires(30.0, 1.0));
    }
}
