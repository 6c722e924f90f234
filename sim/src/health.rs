//! Endpoint health checks and seed 003's composite health.
//!
//! Each rule is one function beside its citation:
//! - [`probe_step`]: an endpoint's state after one periodic probe (Google Cloud's
//!   health-check defaults: a probe every 5 s with a 5 s timeout, healthy after 2
//!   consecutive successes, unhealthy after 2 consecutive failures);
//! - [`probe_passes`]: when a probe fails (the instance crashed, is not serving, or cannot
//!   answer within the probe's timeout); a bad build that answers probes passes them;
//! - [`source_state`]: a health aggregation policy over a backend service's endpoints
//!   (healthy share ≥ `healthy_percent` and healthy count ≥ `min_healthy`, seed 003);
//! - [`composite_state`]: a composite health check over its health sources (seed 003).

use crate::relations::{Citation, Relation, RelationId, THIS_MODEL};

/// Seed 003: Google Cloud, "Composite health for automatic cross-region failover".
pub const SEED_003: Citation = Citation {
    text: "Google Cloud, Private Service Connect documentation, \"About composite health for automatic cross-region failover\" (health aggregation policy: healthy_percent 60 %, min_healthy 1; health sources; composite health check: HEALTHY, UNHEALTHY, UNKNOWN; propagation to the consumer's load balancer; no composite as a source; no test mode)",
    url: "https://cloud.google.com/vpc/docs/about-composite-health",
};

/// Google Cloud's health-check defaults.
pub const GCP_HEALTH_CHECKS: Citation = Citation {
    text: "Google Cloud Load Balancing documentation, \"Health checks overview\" (check interval 5 s, timeout 5 s, healthy threshold 2, unhealthy threshold 2)",
    url: "https://cloud.google.com/load-balancing/docs/health-check-concepts",
};

/// The state of an endpoint, a health source, a composite check or the consumer's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum HealthState {
    Healthy,
    Unhealthy,
    /// Not yet evaluated: resources created or reconfigured start here.
    Unknown,
}

impl HealthState {
    /// Every state, in the order the command line lists them.
    pub const ALL: [HealthState; 3] = [Self::Healthy, Self::Unhealthy, Self::Unknown];

    /// `HEALTHY`, `UNHEALTHY` or `UNKNOWN`, as seed 003 writes them.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Healthy => "HEALTHY",
            Self::Unhealthy => "UNHEALTHY",
            Self::Unknown => "UNKNOWN",
        }
    }

    /// Reads `HEALTHY`, `UNHEALTHY` or `UNKNOWN` (any case).
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

impl core::fmt::Display for HealthState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A health aggregation policy (seed 003).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AggregationPolicy {
    /// Least share of healthy endpoints, in percent (0–100).
    pub healthy_percent: u32,
    /// Least number of healthy endpoints.
    pub min_healthy: u32,
}

impl Default for AggregationPolicy {
    /// Seed 003's defaults: 60 % and 1.
    fn default() -> Self {
        Self {
            healthy_percent: 60,
            min_healthy: 1,
        }
    }
}

/// Seed 003's aggregation rule: a backend service is HEALTHY when its healthy endpoints are
/// at least `healthy_percent` % of all of them **and** at least `min_healthy`; otherwise
/// UNHEALTHY. The share is compared in whole numbers (healthy × 100 ≥ percent × total), so
/// 6 of 10 is exactly 60 %. With no endpoint the share condition holds vacuously and the
/// count decides (UNHEALTHY under the default `min_healthy` of 1).
pub fn source_state(healthy: u32, total: u32, policy: AggregationPolicy) -> HealthState {
    let share_ok =
        u64::from(healthy.min(total)) * 100 >= u64::from(policy.healthy_percent) * u64::from(total);
    if share_ok && healthy >= policy.min_healthy {
        HealthState::Healthy
    } else {
        HealthState::Unhealthy
    }
}

pub const AGGREGATION: Relation = Relation {
    id: RelationId::HealthAggregation,
    symbols: &["h", "n", "p", "m"],
    citations: &[SEED_003],
    assumption: false,
};

/// Seed 003's composite rule: HEALTHY when every source is healthy, UNHEALTHY when any is
/// unhealthy, UNKNOWN when none is unhealthy but one or more are unknown (and with no
/// source at all, since nothing has been evaluated).
pub fn composite_state(sources: &[HealthState]) -> HealthState {
    if sources.contains(&HealthState::Unhealthy) {
        HealthState::Unhealthy
    } else if sources.is_empty() || sources.contains(&HealthState::Unknown) {
        HealthState::Unknown
    } else {
        HealthState::Healthy
    }
}

pub const COMPOSITE: Relation = Relation {
    id: RelationId::CompositeHealth,
    symbols: &[],
    citations: &[SEED_003],
    assumption: false,
};

/// The registry of health sources: one line per kind of source a region's composite check
/// combines, `Variant = "code", module::Type;`, the module being a file of
/// `regions/sources/` whose type implements `regions::sources::Source`. It generates
/// [`SourceKind`] here and the look-up of each kind's rules in the regions' model; adding a
/// source is that file plus one line here.
macro_rules! source_registry {
    ($then:ident) => {
        $then! {
            /// The region's app fleet (its instances are the endpoints).
            AppFleet = "app_fleet", app_fleet::AppFleet;
            /// The region's database replicas.
            Database = "database", database::Database;
        }
    };
}
pub(crate) use source_registry;

/// Generates [`SourceKind`] from the registry's lines.
macro_rules! source_kinds {
    ($( $(#[$meta:meta])* $variant:ident = $code:literal, $module:ident :: $ty:ident; )*) => {
        /// What a health source watches.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
        pub enum SourceKind {
            $( $(#[$meta])* #[serde(rename = $code)] $variant, )*
            /// Another composite health check: seed 003 does not allow it as a source.
            #[serde(rename = "composite")]
            Composite,
        }

        impl SourceKind {
            /// The kinds a region's composite check combines, in the registry's order.
            pub const REGIONAL: &'static [SourceKind] = &[$( Self::$variant, )*];

            /// Its code, as the event log writes it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $code, )*
                    Self::Composite => "composite",
                }
            }
        }
    };
}

source_registry!(source_kinds);

/// Which resource a health transition is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "resource", rename_all = "snake_case")]
pub enum Resource {
    /// An app instance (by id) of the region's fleet.
    Endpoint { instance: u32 },
    /// A database replica (by index).
    Replica { replica: u32 },
    /// An endpoint (by index) of another kind of health source.
    SourceEndpoint { source: SourceKind, endpoint: u32 },
    /// A health source.
    Source { source: SourceKind },
    /// The region's composite health check.
    Composite,
    /// The consumer's load balancer's view of the region.
    ConsumerRouting,
}

impl Resource {
    /// The resource's code, as the event log names it.
    pub fn code(self) -> &'static str {
        match self {
            Self::Endpoint { .. } => "endpoint",
            Self::Replica { .. } => "replica",
            Self::SourceEndpoint { .. } => "source_endpoint",
            Self::Source { source } => source.as_str(),
            Self::Composite => "composite",
            Self::ConsumerRouting => "consumer_routing",
        }
    }
}

/// A composite health check's configuration that seed 003 does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// "You can't use the composite health of one service as a health source of another."
    CompositeAsSource,
    /// A composite check combines one or more sources.
    NoSource,
}

impl ConfigError {
    /// As a message for the catalogs.
    pub fn message(self) -> crate::message::Message {
        use crate::message::{Message, MessageId};
        match self {
            Self::CompositeAsSource => Message::new(MessageId::HealthCompositeAsSource),
            Self::NoSource => Message::new(MessageId::HealthNoSource),
        }
    }
}

/// A health source: one backend service and the policy that judges it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HealthSource {
    pub kind: SourceKind,
    pub policy: AggregationPolicy,
}

/// The sources of a composite health check, checked against seed 003's limits.
pub fn check_sources(sources: &[HealthSource]) -> Result<(), ConfigError> {
    if sources.is_empty() {
        return Err(ConfigError::NoSource);
    }
    if sources.iter().any(|s| s.kind == SourceKind::Composite) {
        return Err(ConfigError::CompositeAsSource);
    }
    Ok(())
}

/// Periodic health checks of the endpoints (Google Cloud's defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ProbeConfig {
    /// Seconds between probes of an endpoint.
    pub interval_s: u32,
    /// Seconds a probe waits for the answer.
    pub timeout_s: u32,
    /// Consecutive successes that make an unhealthy endpoint healthy.
    pub healthy_threshold: u32,
    /// Consecutive failures that make a healthy endpoint unhealthy.
    pub unhealthy_threshold: u32,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        Self {
            interval_s: 5,
            timeout_s: 5,
            healthy_threshold: 2,
            unhealthy_threshold: 2,
        }
    }
}

/// An endpoint's health as its probes have found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EndpointHealth {
    pub healthy: bool,
    /// Consecutive probes that gave the other answer than `healthy` says.
    pub streak: u32,
}

impl EndpointHealth {
    /// An endpoint that passed its readiness (the instance's boot ends when it passes).
    pub const READY: Self = Self {
        healthy: true,
        streak: 0,
    };
}

/// Google Cloud's threshold rule for one probe: a healthy endpoint becomes unhealthy after
/// `unhealthy_threshold` consecutive failed probes, an unhealthy one healthy after
/// `healthy_threshold` consecutive successes; a probe that agrees with the state resets the
/// count.
pub fn probe_step(e: EndpointHealth, passed: bool, cfg: &ProbeConfig) -> EndpointHealth {
    if passed == e.healthy {
        return EndpointHealth {
            healthy: e.healthy,
            streak: 0,
        };
    }
    let streak = e.streak + 1;
    let threshold = if e.healthy {
        cfg.unhealthy_threshold
    } else {
        cfg.healthy_threshold
    };
    if streak >= threshold.max(1) {
        EndpointHealth {
            healthy: passed,
            streak: 0,
        }
    } else {
        EndpointHealth {
            healthy: e.healthy,
            streak,
        }
    }
}

pub const PROBES: Relation = Relation {
    id: RelationId::HealthProbes,
    symbols: &["I", "k_u", "k_h", "d"],
    citations: &[GCP_HEALTH_CHECKS, THIS_MODEL],
    assumption: false,
};

/// Whether a probe of an app instance passes: it fails when the instance crashed or is not
/// serving, or when the instance cannot answer within the probe's timeout. The probe waits
/// in the same queue as the requests, and they give up after the request timeout, so the
/// queue holds a probe longer than its own timeout only when the request timeout is at
/// least the probe's; this model says it does then when most requests time out. A bad build
/// that still answers the probe passes: the grey failure.
pub fn probe_passes(
    serving: bool,
    timeout_share: f64,
    request_timeout_s: f64,
    probe_timeout_s: f64,
) -> bool {
    serving && !(timeout_share >= 0.5 && request_timeout_s >= probe_timeout_s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use HealthState::*;

    fn policy(healthy_percent: u32, min_healthy: u32) -> AggregationPolicy {
        AggregationPolicy {
            healthy_percent,
            min_healthy,
        }
    }

    #[test]
    fn sixty_percent_edge() {
        let p = AggregationPolicy::default();
        assert_eq!(source_state(6, 10, p), Healthy);
        assert_eq!(source_state(5, 10, p), Unhealthy);
        assert_eq!(source_state(10, 10, p), Healthy);
        // 3 of 5 is 60 %, 2 of 3 is 66.7 %, 1 of 2 is 50 %.
        assert_eq!(source_state(3, 5, p), Healthy);
        assert_eq!(source_state(2, 3, p), Healthy);
        assert_eq!(source_state(1, 2, p), Unhealthy);
    }

    #[test]
    fn min_healthy_wins_when_stricter() {
        // 3 of 4 is 75 % ≥ 60 %, but fewer than 4 healthy.
        assert_eq!(source_state(3, 4, policy(60, 4)), Unhealthy);
        assert_eq!(source_state(4, 4, policy(60, 4)), Healthy);
        // Seed 003's example: at least 75 % and at least 3.
        assert_eq!(source_state(3, 4, policy(75, 3)), Healthy);
        assert_eq!(source_state(2, 2, policy(75, 3)), Unhealthy);
        assert_eq!(source_state(5, 8, policy(75, 3)), Unhealthy);
    }

    #[test]
    fn no_endpoint() {
        assert_eq!(source_state(0, 0, AggregationPolicy::default()), Unhealthy);
        assert_eq!(source_state(0, 0, policy(60, 0)), Healthy);
        assert_eq!(source_state(0, 0, policy(0, 0)), Healthy);
    }

    #[test]
    fn a_policy_at_100_percent() {
        let p = policy(100, 1);
        assert_eq!(source_state(10, 10, p), Healthy);
        assert_eq!(source_state(9, 10, p), Unhealthy);
        assert_eq!(source_state(1, 1, p), Healthy);
        assert_eq!(source_state(0, 1, p), Unhealthy);
    }

    #[test]
    fn every_combination_of_two_and_three_sources() {
        for a in HealthState::ALL {
            assert_eq!(composite_state(&[a]), a);
            for b in HealthState::ALL {
                let want = if a == Unhealthy || b == Unhealthy {
                    Unhealthy
                } else if a == Unknown || b == Unknown {
                    Unknown
                } else {
                    Healthy
                };
                assert_eq!(composite_state(&[a, b]), want, "{a} {b}");
                for c in HealthState::ALL {
                    let all = [a, b, c];
                    let want = if all.contains(&Unhealthy) {
                        Unhealthy
                    } else if all.contains(&Unknown) {
                        Unknown
                    } else {
                        Healthy
                    };
                    assert_eq!(composite_state(&all), want, "{a} {b} {c}");
                }
            }
        }
        assert_eq!(composite_state(&[Healthy, Healthy]), Healthy);
        assert_eq!(composite_state(&[Healthy, Unknown]), Unknown);
        assert_eq!(composite_state(&[Unknown, Unhealthy]), Unhealthy);
        assert_eq!(composite_state(&[]), Unknown);
    }

    #[test]
    fn a_composite_cannot_be_a_source() {
        let app = HealthSource {
            kind: SourceKind::AppFleet,
            policy: AggregationPolicy::default(),
        };
        let nested = HealthSource {
            kind: SourceKind::Composite,
            policy: AggregationPolicy::default(),
        };
        assert_eq!(check_sources(&[app]), Ok(()));
        assert_eq!(
            check_sources(&[app, nested]),
            Err(ConfigError::CompositeAsSource)
        );
        assert_eq!(check_sources(&[]), Err(ConfigError::NoSource));
    }

    #[test]
    fn thresholds_of_consecutive_probes() {
        let cfg = ProbeConfig::default();
        let mut e = EndpointHealth::READY;
        e = probe_step(e, false, &cfg);
        assert!(e.healthy, "one failure is not enough");
        e = probe_step(e, true, &cfg);
        e = probe_step(e, false, &cfg);
        assert!(e.healthy, "a success in between resets the count");
        e = probe_step(e, false, &cfg);
        assert!(!e.healthy, "two in a row");
        e = probe_step(e, true, &cfg);
        assert!(!e.healthy);
        e = probe_step(e, true, &cfg);
        assert!(e.healthy);
    }

    #[test]
    fn grey_failure_passes_probes() {
        assert!(probe_passes(true, 0.0, 2.0, 5.0));
        assert!(!probe_passes(false, 0.0, 2.0, 5.0));
        // Requests give up after 2 s: the queue never holds a 5 s probe that long.
        assert!(probe_passes(true, 0.9, 2.0, 5.0));
        // With a 10 s request timeout and most requests timing out, the probe does too.
        assert!(!probe_passes(true, 0.6, 10.0, 5.0));
        assert!(probe_passes(true, 0.4, 10.0, 5.0));
    }

    #[test]
    fn states_read_and_print_as_seed_003_writes_them() {
        for s in HealthState::ALL {
            assert_eq!(HealthState::parse(s.as_str()), Some(s));
        }
        assert_eq!(HealthState::parse("healthy"), Some(Healthy));
        assert_eq!(HealthState::parse("ok"), None);
        assert_eq!(serde_json::to_string(&Unknown).unwrap(), "\"UNKNOWN\"");
    }
}
