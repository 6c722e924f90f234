//! Runs with regions in words (the build with the extended models): the regional actions and
//! failures, the health checks' transitions and the region an event happened in. The region's
//! code is written as the regions panel writes it ("A").

use oncall_sim::message::{Message, MessageId};
use oncall_sim::regions::health::{Resource, SourceKind};
use oncall_sim::regions::RegionAction;
use oncall_sim::{Event, EventKind};

use crate::i18n::{core_text, t, tf, Msg};
use crate::metrics::{format_value, Format, Value};

/// A region's code as the panel writes it.
fn region_name(code: &str) -> String {
    code.to_uppercase()
}

fn region_of(index: u8) -> String {
    region_name(oncall_sim::regions::code(usize::from(index)))
}

fn share(x: f64) -> String {
    format_value(Format::Percent { decimals: 0 }, Value::Number(x))
}

/// A regional action, or a failure the scenario injects, in words ("minimum instances in
/// region B → 14").
pub fn action_text(action: &RegionAction) -> String {
    use RegionAction as A;
    let in_region = |msg: Msg, region: u8| tf(msg, &[("region", &region_of(region))]);
    match *action {
        A::ZoneOutage { region, share: x } if x > 0.0 => tf(
            Msg::ActZoneOutage,
            &[("region", &region_of(region)), ("share", &share(x))],
        ),
        A::ZoneOutage { region, .. } => in_region(Msg::ActZoneBack, region),
        A::DbFailure { region, on: true } => in_region(Msg::ActDbFailure, region),
        A::DbFailure { region, .. } => in_region(Msg::ActDbBack, region),
        A::BadBuild { region, share: x } => tf(
            Msg::ActRegionBadBuild,
            &[("region", &region_of(region)), ("share", &share(x))],
        ),
        A::DrainRegion { region, on: true } => in_region(Msg::ActDrain, region),
        A::DrainRegion { region, .. } => in_region(Msg::ActUndrain, region),
        A::RegionMinInstances { region, min } => tf(
            Msg::ActRegionMinInstances,
            &[("region", &region_of(region)), ("value", &min.to_string())],
        ),
        A::OutlierDetection { region, on: true } => in_region(Msg::ActOutlierOn, region),
        A::OutlierDetection { region, .. } => in_region(Msg::ActOutlierOff, region),
        A::Failover(on) => t(if on {
            Msg::ActFailoverOn
        } else {
            Msg::ActFailoverOff
        })
        .to_owned(),
        A::HealthyPercent(p) => tf(
            Msg::ActHealthyPercent,
            &[("value", &share(f64::from(p) / 100.0))],
        ),
        A::MinHealthy(n) => tf(Msg::ActMinHealthy, &[("value", &n.to_string())]),
    }
}

/// What a health transition is about, in words ("instance 3", "app fleet").
fn resource_text(resource: Resource) -> String {
    match resource {
        Resource::Endpoint { instance } => tf(
            Msg::ResourceInstance,
            &[("instance", &instance.to_string())],
        ),
        Resource::Replica { replica } => {
            tf(Msg::ResourceReplica, &[("replica", &replica.to_string())])
        }
        Resource::SourceEndpoint { source, endpoint } => {
            format!("{} {endpoint}", source_text(source))
        }
        Resource::Source { source } => source_text(source),
        Resource::Composite => t(Msg::RegionsComposite).to_owned(),
        Resource::ConsumerRouting => t(Msg::ResourceConsumer).to_owned(),
    }
}

/// A health source in words ("app fleet"); a kind the page has no words for shows as its
/// code.
fn source_text(source: SourceKind) -> String {
    match source {
        SourceKind::AppFleet => t(Msg::RegionsApp).to_owned(),
        SourceKind::Database => t(Msg::RegionsDatabase).to_owned(),
        SourceKind::Composite => t(Msg::RegionsComposite).to_owned(),
        #[allow(unreachable_patterns)]
        other => other.as_str().to_owned(),
    }
}

/// A regional event in words: the core's message with its codes and actions written out.
pub fn event_text(kind: &EventKind) -> String {
    let message = match kind {
        EventKind::HealthTransition {
            resource,
            from,
            to,
            reason,
        } => Message::new(MessageId::EventHealthTransition)
            .given("resource", resource_text(*resource))
            .code("from", from.as_str())
            .code("to", to.as_str())
            .msg("reason", reason.clone()),
        EventKind::Rerouted { users, from, to } => Message::new(MessageId::EventRerouted)
            .given("users", region_name(users))
            .given("from", region_name(from))
            .given("to", region_name(to)),
        EventKind::Failure { injected, .. } => {
            return tf(
                Msg::EvScenarioFailure,
                &[("failure", &action_text(injected))],
            )
        }
        other => match other.regional_message() {
            Some(m) => m,
            None => return String::new(),
        },
    };
    core_text(&message)
}

/// `text` with the region the event happened in, for a run with several regions. Actions
/// name their own region, or none when they act on the whole service.
pub fn in_region(event: &Event, text: String) -> String {
    match (event.region, &event.kind) {
        (_, EventKind::Action { .. } | EventKind::ActionRefused { .. }) | (None, _) => text,
        (Some(code), _) => tf(
            Msg::EvInRegion,
            &[("region", &region_name(code)), ("text", &text)],
        ),
    }
}

/// Whether the log keeps `kind` to itself until the exercise is over: the failure the
/// scenario injects is the twist the seed draws, which the debrief reveals.
pub fn hidden_while_playing(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Failure { .. })
}

/// The scenario's injected failures, each with its time of day, for the debrief's reveal.
pub fn twists(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Failure { injected, .. } => Some(tf(
                Msg::DebriefTwist,
                &[
                    ("clock", &e.clock.to_string()),
                    ("failure", &action_text(injected)),
                ],
            )),
            _ => None,
        })
        .collect()
}
