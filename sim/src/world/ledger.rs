//! What the fleet cost.

/// Money and instance time spent so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ledger {
    /// Dollars spent before the current minute.
    pub cost_so_far: f64,
    /// Instance-seconds billed (booting, serving and draining instances).
    pub instance_seconds: f64,
}

impl Ledger {
    /// Bills `instances` for `seconds`.
    pub fn bill(&mut self, instances: u32, seconds: f64) {
        self.instance_seconds += f64::from(instances) * seconds;
    }

    /// Closes a minute that cost `per_hour` dollars an hour.
    pub fn close_minute(&mut self, per_hour: f64) {
        self.cost_so_far += per_hour / 60.0;
    }
}
