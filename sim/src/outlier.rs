//! Outlier detection as Envoy does it, the contrast to composite health: it ejects single
//! instances from the failed responses it observes, so it catches a bad build that still
//! answers health checks, but it never takes a whole region out of routing.
//!
//! Envoy's defaults: `consecutive_5xx` 5, `interval` 10 s, `base_ejection_time` 30 s,
//! `max_ejection_percent` 10 %.

use crate::relations::{Citation, Relation, RelationId, THIS_MODEL};

pub const ENVOY_OUTLIER_DETECTION: Citation = Citation {
    text: "Envoy documentation, \"Outlier detection\" (architecture overview and config.cluster.v3.OutlierDetection: consecutive_5xx 5, interval 10 s, base_ejection_time 30 s × the number of times ejected, max_ejection_percent 10 %, max_ejection_time 300 s)",
    url: "https://www.envoyproxy.io/docs/envoy/latest/intro/arch_overview/upstream/outlier",
};

/// Envoy's outlier detection settings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct OutlierConfig {
    pub consecutive_5xx: u32,
    pub interval_s: u32,
    pub base_ejection_s: u32,
    pub max_ejection_percent: u32,
    pub max_ejection_s: u32,
}

impl Default for OutlierConfig {
    fn default() -> Self {
        Self {
            consecutive_5xx: 5,
            interval_s: 10,
            base_ejection_s: 30,
            max_ejection_percent: 10,
            max_ejection_s: 300,
        }
    }
}

/// Expected number of runs of at least `k` consecutive failures among `n` requests that
/// each fail with probability `e`: a run starts at the first request or right after a
/// success, λ = e^k · (1 + (n − k)(1 − e)) for n ≥ k (0 below). The chance of at least one
/// such run is then about 1 − e^(−λ) (the Poisson clumping approximation).
pub fn expected_runs(n: f64, e: f64, k: u32) -> f64 {
    let k_f = f64::from(k);
    if !(n >= k_f) || !(e > 0.0) {
        return 0.0;
    }
    let e = e.min(1.0);
    libm::pow(e, k_f) * (1.0 + (n - k_f) * (1.0 - e))
}

/// Whether the requests an instance answered since the last sweep held `consecutive_5xx`
/// failures in a row: this model ejects at the sweep when a run is more likely than not,
/// λ ≥ ln 2 (Envoy ejects at the fifth consecutive failure itself; the sweep every
/// `interval` bounds the delay).
pub fn ejects(requests: f64, error_share: f64, cfg: &OutlierConfig) -> bool {
    expected_runs(requests, error_share, cfg.consecutive_5xx) >= core::f64::consts::LN_2
}

/// Envoy's cap on ejections: another host may be ejected only while the ejected share is
/// below `max_ejection_percent` (so at least one host can be ejected).
pub fn may_eject(ejected: u32, hosts: u32, cfg: &OutlierConfig) -> bool {
    u64::from(ejected) * 100 < u64::from(cfg.max_ejection_percent) * u64::from(hosts)
}

/// How long an ejection lasts: `base_ejection_time` × the number of times the host has been
/// ejected, at most `max_ejection_time`.
pub fn ejection_s(times_ejected: u32, cfg: &OutlierConfig) -> u32 {
    (cfg.base_ejection_s * times_ejected.max(1)).min(cfg.max_ejection_s)
}

pub const OUTLIER_DETECTION: Relation = Relation {
    id: RelationId::OutlierDetection,
    symbols: &["n", "e", "k", "λ"],
    citations: &[ENVOY_OUTLIER_DETECTION, THIS_MODEL],
    assumption: false,
};

/// One ejected instance.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Ejection {
    pub instance: u32,
    /// Second of the run it returns at.
    pub until_s: u32,
}

/// A region's outlier detection state.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Outlier {
    pub on: bool,
    pub ejected: Vec<Ejection>,
    /// How many times each instance has been ejected (instance id, count).
    pub times: Vec<(u32, u32)>,
}

impl Outlier {
    pub fn is_ejected(&self, id: u32) -> bool {
        self.ejected.iter().any(|e| e.instance == id)
    }

    /// Counts another ejection of `id` and returns how many it has had.
    pub fn count(&mut self, id: u32) -> u32 {
        match self.times.iter_mut().find(|(i, _)| *i == id) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.times.push((id, 1));
                1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envoy_defaults() {
        let c = OutlierConfig::default();
        assert_eq!(
            (
                c.consecutive_5xx,
                c.interval_s,
                c.base_ejection_s,
                c.max_ejection_percent
            ),
            (5, 10, 30, 10)
        );
    }

    #[test]
    fn runs_of_failures() {
        // Every request fails: one run, certain.
        assert_eq!(expected_runs(100.0, 1.0, 5), 1.0);
        // e = 0.5, n = 5: only the run of all five, 1/32.
        assert!((expected_runs(5.0, 0.5, 5) - 1.0 / 32.0).abs() < 1e-15);
        // A 5 % error share over 1,000 requests: 0.05^5 × (1 + 995 × 0.95) ≈ 2.95e-4.
        let l = expected_runs(1000.0, 0.05, 5);
        assert!((l - 0.05f64.powi(5) * (1.0 + 995.0 * 0.95)).abs() < 1e-15);
        assert!(!ejects(1000.0, 0.05, &OutlierConfig::default()));
        assert!(ejects(1000.0, 1.0, &OutlierConfig::default()));
        assert!(ejects(1000.0, 0.5, &OutlierConfig::default()));
        assert_eq!(expected_runs(4.0, 1.0, 5), 0.0);
    }

    #[test]
    fn at_most_ten_percent_but_at_least_one() {
        let c = OutlierConfig::default();
        assert!(may_eject(0, 10, &c));
        assert!(!may_eject(1, 10, &c));
        assert!(may_eject(1, 20, &c));
        assert!(!may_eject(2, 20, &c));
        assert!(may_eject(0, 3, &c));
        assert!(!may_eject(1, 3, &c));
    }

    #[test]
    fn ejections_grow_with_each_one() {
        let c = OutlierConfig::default();
        assert_eq!(ejection_s(1, &c), 30);
        assert_eq!(ejection_s(3, &c), 90);
        assert_eq!(ejection_s(20, &c), 300);
    }
}
