//! Arrivals: the diurnal sine, the scenario's surge and the per-minute noise.

use crate::relations::{Relation, RelationId, THIS_MODEL};
use crate::rng::Mulberry32;

pub const ARRIVALS: Relation = Relation {
    id: RelationId::Arrivals,
    symbols: &["base", "clock", "surge(t)", "drift(t)"],
    citations: &[THIS_MODEL],
    assumption: true,
};

/// Minutes in a day.
pub const DAY_MINUTES: f64 = 1440.0;

/// Mean arrival rate at minute `t` of a run that started at `clock_min` minutes after
/// midnight, before any surge.
pub fn diurnal_rate(base: f64, amplitude: f64, t_min: f64, clock_min: f64) -> f64 {
    let phase = 2.0 * core::f64::consts::PI * (t_min + clock_min - 360.0) / DAY_MINUTES;
    base * (1.0 + amplitude * libm::sin(phase))
}

/// A traffic surge: ramps up linearly over `ramp_min`, holds for `hold_min`, then decays
/// exponentially with time constant `decay_min`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Surge {
    /// Minute of the run when the ramp starts.
    pub start_min: f64,
    /// Peak multiplier (e.g. 2.5 = two and a half times the usual traffic).
    pub peak: f64,
    pub ramp_min: f64,
    pub hold_min: f64,
    pub decay_min: f64,
}

impl Surge {
    /// Multiplier at minute `t`.
    pub fn factor(&self, t_min: f64) -> f64 {
        let since = t_min - self.start_min;
        if since <= 0.0 {
            return 1.0;
        }
        let extra = self.peak - 1.0;
        if since < self.ramp_min {
            1.0 + extra * since / self.ramp_min
        } else if since < self.ramp_min + self.hold_min {
            self.peak
        } else {
            let after = since - self.ramp_min - self.hold_min;
            1.0 + extra * libm::exp(-after / self.decay_min)
        }
    }
}

/// A slow drift of the usual traffic: from 1 at the start towards 1 + `level`, with time
/// constant `tau_min` (free play's twist; see [`crate::scenario::DriftDraw`]).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Drift {
    /// Share of the usual traffic gained (or lost, when negative) in the long run.
    pub level: f64,
    /// Minutes to go 63 % of the way.
    pub tau_min: f64,
}

impl Drift {
    /// Multiplier at minute `t`: 1 + level × (1 − e^(−t/τ)).
    pub fn factor(&self, t_min: f64) -> f64 {
        1.0 + self.level * (1.0 - libm::exp(-t_min.max(0.0) / self.tau_min))
    }
}

/// Requests counted in one minute around the mean rate: Normal(60λ, √(60λ)) × (1 + Normal(0, cv)),
/// never negative. Returns requests per second.
pub fn noisy_rate(rng: &mut Mulberry32, lambda: f64, drift_cv: f64) -> f64 {
    let mean = 60.0 * lambda;
    if !(mean > 0.0) {
        return 0.0;
    }
    let count = rng.normal(mean, libm::sqrt(mean));
    let drift = 1.0 + rng.normal(0.0, drift_cv);
    (count * drift).max(0.0) / 60.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_at_noon_trough_at_midnight() {
        // sin(2π(12 h − 6 h)/24 h) = sin(π/2) = 1.
        assert!((diurnal_rate(900.0, 0.25, 0.0, 720.0) - 1125.0).abs() < 1e-9);
        assert!((diurnal_rate(900.0, 0.25, 0.0, 0.0) - 675.0).abs() < 1e-9);
        assert!((diurnal_rate(900.0, 0.25, 360.0, 0.0) - 900.0).abs() < 1e-9);
    }

    #[test]
    fn drift_starts_at_one_and_approaches_its_level() {
        let d = Drift {
            level: 0.2,
            tau_min: 100.0,
        };
        assert_eq!(d.factor(0.0), 1.0);
        assert!((d.factor(100.0) - (1.0 + 0.2 * (1.0 - (-1.0f64).exp()))).abs() < 1e-12);
        assert!((d.factor(1e6) - 1.2).abs() < 1e-12);
    }

    #[test]
    fn surge_shape() {
        let s = Surge {
            start_min: 10.0,
            peak: 3.0,
            ramp_min: 10.0,
            hold_min: 20.0,
            decay_min: 30.0,
        };
        assert_eq!(s.factor(5.0), 1.0);
        assert!((s.factor(15.0) - 2.0).abs() < 1e-12);
        assert_eq!(s.factor(30.0), 3.0);
        assert!((s.factor(70.0) - (1.0 + 2.0 * (-1.0f64).exp())).abs() < 1e-12);
    }
}
