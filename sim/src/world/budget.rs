//! The error budget and its burn-rate page.

use crate::budget::{self, BudgetAccounting, Window};

/// The month's error budget, the burn-rate windows and whether the page is firing.
#[derive(Clone, Debug)]
pub struct ErrorBudget {
    /// Share of the month's budget left.
    pub left: f64,
    window_1h: Window,
    window_5m: Window,
    pub paging: bool,
    /// How a minute's errors are charged.
    accounting: BudgetAccounting,
    /// Requests the month is expected to bring (the requests rule's denominator).
    month_requests: f64,
}

/// The burn rates of a minute and whether the page rule holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BurnReading {
    pub burn_1h: f64,
    pub burn_5m: f64,
    pub page: bool,
}

impl ErrorBudget {
    /// A budget with `left` of the month remaining, charged by `accounting`; `base_rps` is the
    /// scenario's base rate, from which the month's expected requests follow.
    pub fn new(left: f64, accounting: BudgetAccounting, base_rps: f64) -> Self {
        Self {
            left,
            window_1h: Window::new(60),
            window_5m: Window::new(5),
            paging: false,
            accounting,
            month_requests: budget::month_expected_requests(base_rps),
        }
    }

    /// Takes a minute's error rate into the windows and reads the burn rates.
    pub fn observe(&mut self, error_rate: f64, slo: f64) -> BurnReading {
        self.window_1h.push(error_rate);
        self.window_5m.push(error_rate);
        let burn_1h = budget::burn_rate(self.window_1h.mean(), slo);
        let burn_5m = budget::burn_rate(self.window_5m.mean(), slo);
        BurnReading {
            burn_1h,
            burn_5m,
            page: budget::page_fires(burn_1h, burn_5m),
        }
    }

    /// Spends a minute of budget: at that minute's error rate by time, or for its failed
    /// requests (`error_rate` of `admitted_per_s` over 60 s) by requests.
    pub fn spend(&mut self, error_rate: f64, admitted_per_s: f64, slo: f64) {
        self.left -= self.cost_of_minute(error_rate, admitted_per_s, slo);
    }

    /// Share of the month's budget a minute costs under the accounting in force.
    pub fn cost_of_minute(&self, error_rate: f64, admitted_per_s: f64, slo: f64) -> f64 {
        match self.accounting {
            BudgetAccounting::Time => {
                budget::budget_spent_per_minute(budget::burn_rate(error_rate, slo))
            }
            BudgetAccounting::Requests => budget::budget_spent_by_requests(
                error_rate * admitted_per_s * 60.0,
                self.month_requests,
                slo,
            ),
        }
    }

    pub fn accounting(&self) -> BudgetAccounting {
        self.accounting
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Night (the trough of a ±25 % day around 900 req/s) and peak rates.
    const NIGHT: f64 = 675.0;
    const PEAK: f64 = 1125.0;

    #[test]
    fn by_requests_a_peak_minute_costs_more_than_a_night_minute() {
        let budget = ErrorBudget::new(1.0, BudgetAccounting::Requests, 900.0);
        let night = budget.cost_of_minute(0.05, NIGHT, 0.999);
        let peak = budget.cost_of_minute(0.05, PEAK, 0.999);
        assert!(peak > night, "{peak} {night}");
        assert!((peak / night - PEAK / NIGHT).abs() < 1e-12);
        let mut spent = budget.clone();
        spent.spend(0.05, PEAK, 0.999);
        assert_eq!(spent.left, 1.0 - peak);
        assert_eq!(spent.accounting(), BudgetAccounting::Requests);
    }

    #[test]
    fn by_time_every_minute_costs_the_same_as_before() {
        let budget = ErrorBudget::new(0.2, BudgetAccounting::Time, 900.0);
        let night = budget.cost_of_minute(0.05, NIGHT, 0.999);
        let peak = budget.cost_of_minute(0.05, PEAK, 0.999);
        // The source's rule, bit for bit: burn / 43,200 whatever the traffic.
        let rule = budget::budget_spent_per_minute(budget::burn_rate(0.05, 0.999));
        assert_eq!(night.to_bits(), rule.to_bits());
        assert_eq!(peak.to_bits(), rule.to_bits());
        let mut spent = budget.clone();
        spent.spend(0.05, PEAK, 0.999);
        assert_eq!(spent.left.to_bits(), (0.2 - rule).to_bits());
    }
}
