//! Error budget, burn rate and the multiwindow page.

use crate::relations::{Relation, RelationId, SRE_BOOK_SLO, SRE_WORKBOOK_ALERTING, THIS_MODEL};

/// Minutes in the 30-day month the budget covers.
pub const MONTH_MINUTES: f64 = 43_200.0;

/// Burn rate: how many times faster than sustainable the budget is being spent.
pub fn burn_rate(error_rate: f64, slo: f64) -> f64 {
    error_rate / (1.0 - slo)
}

/// Share of the month's budget one minute at `burn` spends.
pub fn budget_spent_per_minute(burn: f64) -> f64 {
    burn / MONTH_MINUTES
}

pub const ERROR_BUDGET: Relation = Relation {
    id: RelationId::ErrorBudget,
    symbols: &["SLO"],
    citations: &[SRE_BOOK_SLO, SRE_WORKBOOK_ALERTING],
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
    fn window_is_prefilled() {
        let mut w = Window::new(60);
        w.push(0.0);
        w.push(0.06);
        assert!((w.mean() - 0.001).abs() < 1e-15);
        assert!(page_fires(14.4, 20.0) && !page_fires(14.3, 100.0) && !page_fires(30.0, 1.0));
    }
}
