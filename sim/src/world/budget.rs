//! The error budget and its burn-rate page.

use crate::budget::{self, Window};

/// The month's error budget, the burn-rate windows and whether the page is firing.
#[derive(Clone, Debug)]
pub struct ErrorBudget {
    /// Share of the month's budget left.
    pub left: f64,
    window_1h: Window,
    window_5m: Window,
    pub paging: bool,
}

/// The burn rates of a minute and whether the page rule holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BurnReading {
    pub burn_1h: f64,
    pub burn_5m: f64,
    pub page: bool,
}

impl ErrorBudget {
    pub fn new(left: f64) -> Self {
        Self {
            left,
            window_1h: Window::new(60),
            window_5m: Window::new(5),
            paging: false,
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

    /// Spends a minute of budget at that minute's error rate.
    pub fn spend(&mut self, error_rate: f64, slo: f64) {
        self.left -= budget::budget_spent_per_minute(budget::burn_rate(error_rate, slo));
    }
}
