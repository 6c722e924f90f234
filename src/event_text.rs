//! The core's events and the user's actions, written for a person through the catalog.

use oncall_sim::event::FleetReason;
#[cfg(test)]
use oncall_sim::{autoscale::PolicyId, ids::DriverId};
use oncall_sim::{ActionKind, Event, EventKind};

use crate::i18n::{core_text, instances, policy_name_text, t, tf, Msg};
use crate::metrics::{format_value, Format, Value};

/// The family of an event: its icon, colour and the word that says it without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFamily {
    Action,
    Deploy,
    Page,
    Rollback,
    Fleet,
    Cache,
    Traffic,
    Scaling,
    /// Health checks' transitions (endpoint, source, composite, the consumer's view) and
    /// outlier detection's ejections, its passive counterpart: only runs with regions have
    /// them.
    Health,
}

impl EventFamily {
    /// The CSS class and `data-kind` value.
    pub fn class(self) -> &'static str {
        match self {
            Self::Action => "action",
            Self::Deploy => "deploy",
            Self::Page => "page",
            Self::Rollback => "rollback",
            Self::Fleet => "fleet",
            Self::Cache => "cache",
            Self::Traffic => "traffic",
            Self::Scaling => "scaling",
            Self::Health => "health",
        }
    }

    /// The family's name in the page's language.
    pub fn label(self) -> &'static str {
        t(match self {
            Self::Action => Msg::KindAction,
            Self::Deploy => Msg::KindDeploy,
            Self::Page => Msg::KindPage,
            Self::Rollback => Msg::KindRollback,
            Self::Fleet => Msg::KindFleet,
            Self::Cache => Msg::KindCache,
            Self::Traffic => Msg::KindTraffic,
            Self::Scaling => Msg::KindScaling,
            Self::Health => Msg::KindHealth,
        })
    }
}

/// An action in words ("minimum instances → 12").
pub fn action_text(kind: &ActionKind) -> String {
    let value = |format: Format, x: f64| format_value(format, Value::Number(x));
    match *kind {
        ActionKind::MinInstances(n) => tf(Msg::ActMinInstances, &[("value", &n.to_string())]),
        ActionKind::Autoscaling(true) => t(Msg::ActAutoscalingOn).to_owned(),
        ActionKind::Autoscaling(false) => t(Msg::ActAutoscalingOff).to_owned(),
        ActionKind::TargetUtilization(x) => tf(
            Msg::ActTargetUtilization,
            &[("value", &value(Format::Percent { decimals: 0 }, x))],
        ),
        ActionKind::CacheTtlS(n) => tf(
            Msg::ActCacheTtl,
            &[("value", &value(Format::Seconds, f64::from(n)))],
        ),
        ActionKind::WarmCache => t(Msg::ActWarmCache).to_owned(),
        ActionKind::ShedLowPriority(x) => tf(
            Msg::ActShed,
            &[("value", &value(Format::Percent { decimals: 0 }, x))],
        ),
        ActionKind::HeavyFeature(true) => t(Msg::ActHeavyOn).to_owned(),
        ActionKind::HeavyFeature(false) => t(Msg::ActHeavyOff).to_owned(),
        ActionKind::Rollback => t(Msg::ActRollback).to_owned(),
        ActionKind::Lb(policy) => tf(Msg::ActLb, &[("policy", policy.as_str())]),
        ActionKind::Hedge(true) => t(Msg::ActHedgeOn).to_owned(),
        ActionKind::Hedge(false) => t(Msg::ActHedgeOff).to_owned(),
        ActionKind::Region(a) => crate::region_text::action_text(&a),
        // An injected fault: the core's extended feature, which a native build of the
        // workspace turns on whatever this crate's features are.
        #[allow(unreachable_patterns)]
        ref other => {
            let code = other.encode();
            let fault = code.strip_prefix("inject=").unwrap_or(&code);
            tf(Msg::ActInject, &[("fault", fault)])
        }
    }
}

fn reason_text(reason: FleetReason) -> &'static str {
    t(match reason {
        FleetReason::Autoscaler => Msg::ReasonAutoscaler,
        FleetReason::MinimumInstances => Msg::ReasonMinimum,
        FleetReason::Rollback => Msg::ReasonRollback,
        FleetReason::Drained => Msg::ReasonDrained,
        FleetReason::Opening => Msg::ReasonOpening,
        FleetReason::ZoneBack => Msg::ReasonZoneBack,
    })
}

fn burn(x: f64) -> String {
    format_value(Format::Burn { decimals: 1 }, Value::Number(x))
}

/// "HH:MM", or "HH:MM:SS" for an event inside a minute.
pub fn event_time(event: &Event) -> String {
    match event.second {
        Some(s) if s < 60 => format!("{}:{s:02}", event.clock),
        _ => event.clock.to_string(),
    }
}

/// An event's family and its text, which names the region it happened in when the run has
/// several. `clock_at` gives the time of day of a minute (for the rollback's switch-over time).
pub fn describe(event: &Event, clock_at: &dyn Fn(u32) -> String) -> (EventFamily, String) {
    let (family, text) = describe_kind(&event.kind, clock_at);
    let text = crate::region_text::in_region(event, text);
    (family, text)
}

fn describe_kind(kind: &EventKind, clock_at: &dyn Fn(u32) -> String) -> (EventFamily, String) {
    decision_text(kind)
        .or_else(|| release_text(kind, clock_at))
        .or_else(|| page_text(kind))
        .or_else(|| fleet_text(kind))
        .or_else(|| cache_and_traffic_text(kind))
        // Regions: health transitions, failover, ejections and injected failures speak
        // through the core's catalog.
        .unwrap_or_else(|| (regional_family(kind), regional_text(kind)))
}

/// What the user and the autoscaler decided: actions (taken or refused) and scaling.
fn decision_text(kind: &EventKind) -> Option<(EventFamily, String)> {
    Some(match kind {
        EventKind::Action { action } => (
            EventFamily::Action,
            tf(Msg::EvAction, &[("action", &action_text(action))]),
        ),
        EventKind::ActionRefused { action, reason } => (
            EventFamily::Action,
            tf(
                Msg::EvActionRefused,
                &[
                    ("action", &action_text(action)),
                    ("reason", &core_text(reason)),
                ],
            ),
        ),
        EventKind::Scaling {
            policy,
            driver,
            from,
            to,
            detail,
        } => (
            EventFamily::Scaling,
            tf(
                Msg::EvScaling,
                &[
                    ("policy", &policy_name_text(*policy)),
                    ("driver", crate::i18n::driver_text(*driver)),
                    ("from", &from.to_string()),
                    ("to", &instances(*to)),
                    ("detail", &core_text(detail)),
                ],
            ),
        ),
        _ => return None,
    })
}

/// Builds going out and rolled back. `clock_at` gives the rollback's switch-over time.
fn release_text(
    kind: &EventKind,
    clock_at: &dyn Fn(u32) -> String,
) -> Option<(EventFamily, String)> {
    Some(match kind {
        // A dashboard knows a build's number and when it went out, not whether it is bad.
        EventKind::Deploy { build, .. } => (
            EventFamily::Deploy,
            tf(Msg::EvDeploy, &[("build", &build.to_string())]),
        ),
        EventKind::RollbackStarted {
            build,
            instances: n,
            ready_minute,
            restarted,
        } => (
            EventFamily::Rollback,
            tf(
                if *restarted {
                    Msg::EvRollbackRestarted
                } else {
                    Msg::EvRollbackStarted
                },
                &[
                    ("instances", &instances(*n)),
                    ("build", &build.to_string()),
                    ("clock", &clock_at(*ready_minute)),
                ],
            ),
        ),
        EventKind::RollbackFinished { build, .. } => (
            EventFamily::Rollback,
            tf(Msg::EvRollbackFinished, &[("build", &build.to_string())]),
        ),
        _ => return None,
    })
}

/// The page firing and resolving, with the burn rates that decided it.
fn page_text(kind: &EventKind) -> Option<(EventFamily, String)> {
    let text = match kind {
        EventKind::PageFired {
            burn_rate_1h,
            burn_rate_5m,
        } => tf(
            Msg::EvPageFired,
            &[
                ("long", &burn(*burn_rate_1h)),
                ("short", &burn(*burn_rate_5m)),
                ("threshold", &burn(oncall_sim::budget::PAGE_BURN)),
            ],
        ),
        EventKind::PageResolved {
            burn_rate_1h,
            burn_rate_5m,
        } => tf(
            Msg::EvPageResolved,
            &[
                ("long", &burn(*burn_rate_1h)),
                ("short", &burn(*burn_rate_5m)),
            ],
        ),
        _ => return None,
    };
    Some((EventFamily::Page, text))
}

/// Instances starting, serving, draining and stopping.
fn fleet_text(kind: &EventKind) -> Option<(EventFamily, String)> {
    let text = match kind {
        EventKind::InstancesStarted { count, reason } => tf(
            Msg::EvInstancesStarted,
            &[
                ("instances", &instances(*count)),
                ("reason", reason_text(*reason)),
            ],
        ),
        EventKind::InstancesServing { count } => tf(
            Msg::EvInstancesServing,
            &[("instances", &instances(*count))],
        ),
        EventKind::InstancesDraining { count, seconds } => tf(
            Msg::EvInstancesDraining,
            &[
                ("instances", &instances(*count)),
                (
                    "seconds",
                    &format_value(Format::Seconds, Value::Number(*seconds)),
                ),
            ],
        ),
        EventKind::InstancesStopped { count, reason } => tf(
            Msg::EvInstancesStopped,
            &[
                ("instances", &instances(*count)),
                ("reason", reason_text(*reason)),
            ],
        ),
        _ => return None,
    };
    Some((EventFamily::Fleet, text))
}

/// The cache flushed and warmed up, and traffic surging.
fn cache_and_traffic_text(kind: &EventKind) -> Option<(EventFamily, String)> {
    Some(match kind {
        EventKind::CacheFlush { share } => (
            EventFamily::Cache,
            tf(
                Msg::EvCacheFlush,
                &[(
                    "share",
                    &format_value(Format::Percent { decimals: 0 }, Value::Number(*share)),
                )],
            ),
        ),
        EventKind::WarmupStarted { minutes } => (
            EventFamily::Cache,
            tf(
                Msg::EvWarmupStarted,
                &[(
                    "minutes",
                    &format_value(Format::Minutes, Value::Number(f64::from(*minutes))),
                )],
            ),
        ),
        EventKind::WarmupFinished => (EventFamily::Cache, t(Msg::EvWarmupFinished).to_owned()),
        EventKind::SurgeStarted { .. } => (EventFamily::Traffic, t(Msg::EvSurgeStarted).to_owned()),
        _ => return None,
    })
}

/// A regional event in words (none in the first build).
fn regional_text(kind: &EventKind) -> String {
    crate::region_text::event_text(kind)
}

/// The family of a regional event: health checks' transitions and outlier detection's
/// ejections are health, a region's users sent elsewhere are traffic, crashes and injected
/// failures are the fleet's.
fn regional_family(kind: &EventKind) -> EventFamily {
    match kind {
        EventKind::HealthTransition { .. }
        | EventKind::Ejected { .. }
        | EventKind::Unejected { .. } => EventFamily::Health,
        EventKind::Rerouted { .. } => EventFamily::Traffic,
        _ => EventFamily::Fleet,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oncall_sim::message::{Message, MessageId};
    use oncall_sim::{Action, ModelParams, Simulation};

    fn texts(sim: &Simulation) -> Vec<(EventFamily, String)> {
        let clock = |m: u32| sim.clock_at(m).to_string();
        sim.events().iter().map(|e| describe(e, &clock)).collect()
    }

    #[test]
    fn a_bad_deploy_with_a_rollback_reads_well() {
        let s = oncall_sim::exercise::scenario_by_id("bad-deploy").unwrap();
        let mut sim = Simulation::new(&s, 7, ModelParams::default());
        sim.schedule([
            Action::parse("30:rollback", 200).unwrap(),
            Action::parse("30:min_instances=12", 200).unwrap(),
        ]);
        sim.run(45);
        let all = texts(&sim);
        let has = |family: EventFamily, needle: &str| {
            all.iter()
                .any(|(f, text)| *f == family && text.contains(needle))
        };
        assert!(
            has(EventFamily::Deploy, "Deploy: build 2 is rolling out."),
            "{all:#?}"
        );
        assert!(has(EventFamily::Page, "Page fired: burn rate"), "{all:#?}");
        assert!(has(EventFamily::Action, "You: roll back."), "{all:#?}");
        assert!(
            has(EventFamily::Action, "You: minimum instances → 12."),
            "{all:#?}"
        );
        assert!(
            has(EventFamily::Rollback, "traffic switches at 09:35"),
            "{all:#?}"
        );
        assert!(has(
            EventFamily::Rollback,
            "Rollback finished: traffic is on build 1."
        ));
        assert!(all.iter().all(|(_, text)| !text.contains('{')), "{all:#?}");
    }

    #[test]
    fn scaling_decisions_name_the_policy_the_driver_and_the_detail() {
        let e = Event {
            minute: 3,
            clock: "12:03".parse().unwrap(),
            second: Some(15),
            region: None,
            kind: EventKind::Scaling {
                policy: PolicyId::Hpa,
                driver: DriverId::Cpu,
                from: 10,
                to: 12,
                detail: Message::new(MessageId::HpaScaleUp)
                    .int("current", 10)
                    .int("desired", 12)
                    .msg(
                        "how",
                        Message::new(MessageId::HpaRatio)
                            .int("ready", 10)
                            .num("cpu", 72.0)
                            .num("target", 60.0)
                            .int("recommended", 12),
                    ),
            },
        };
        let (family, text) = describe(&e, &|_| String::new());
        assert_eq!(family, EventFamily::Scaling);
        assert_eq!(
            text,
            "Kubernetes HPA, cpu: 10 → 12 instances. scale up 10 → 12: ⌈10 × 72.0 % / 60 %⌉ = 12"
        );
        assert_eq!(event_time(&e), "12:03:15");
    }

    /// The regional outage's health checks speak in a family of their own; its failover is
    /// traffic moving.
    #[cfg(feature = "extended")]
    #[test]
    fn health_transitions_are_their_own_family() {
        let mut sim =
            oncall_sim::setup::RunSetup::new(oncall_sim::ids::ScenarioId::RegionalOutage, 1)
                .build()
                .unwrap();
        sim.run(45);
        let all = texts(&sim);
        let health: Vec<&String> = all
            .iter()
            .filter(|(f, _)| *f == EventFamily::Health)
            .map(|(_, text)| text)
            .collect();
        assert!(
            health
                .iter()
                .any(|t| t.contains("Composite health HEALTHY → UNHEALTHY")),
            "{health:#?}"
        );
        assert!(health.iter().all(|t| t.contains(" → ")), "{health:#?}");
        assert!(
            health.iter().all(|t| t.starts_with("Region ")),
            "{health:#?}"
        );
        assert!(all.iter().any(|(f, t)| *f == EventFamily::Traffic
            && t.contains("users of region A now go to region B")));
        assert!(all
            .iter()
            .all(|(f, t)| *f == EventFamily::Health || !t.contains("HEALTHY →")));
        assert_eq!(EventFamily::Health.class(), "health");
        assert_eq!(EventFamily::Health.label(), "health");
    }

    #[test]
    fn every_action_has_words() {
        for text in [
            "min_instances=3",
            "autoscaling=off",
            "autoscaling=on",
            "target_utilization=0.45",
            "cache_ttl_s=300",
            "warm_cache",
            "shed_low_priority=0.25",
            "heavy_feature=off",
            "heavy_feature=on",
            "rollback",
        ] {
            let words = action_text(&ActionKind::parse(text).unwrap());
            assert!(!words.is_empty() && !words.contains('{'), "{text}: {words}");
        }
        assert_eq!(
            action_text(&ActionKind::TargetUtilization(0.45)),
            "target utilization → 45 %"
        );
        assert_eq!(
            action_text(&ActionKind::CacheTtlS(300)),
            "cache TTL → 300 s"
        );
    }
}
