//! Regions: a run has one region (the service as it always was) or several. Each region
//! owns its service unit (fleet, autoscaler instance, service model, cache), its database,
//! its users (a share of the demand, in their own time zone), its cost and its health:
//! endpoint probes, the health sources (the app fleet and the database's replicas, each kind
//! a file of [`sources`]) and the composite health check of seed 003, whose state the
//! consumer's load balancer learns after a propagation delay and fails over on
//! ([`failover`]). Outlier detection ([`outlier`]) is an option per region.
//!
//! # Time inside the minute
//!
//! The service is served tick by tick as before (one tick a minute for minute-cadence
//! policies). Health probes (every 5 s), outlier sweeps (every 10 s) and the propagation
//! delay act faster than that: the regional stage walks the minute second by second
//! *before* serving it. Probes at second s judge the endpoints from the fleet of the
//! minute's start (instances crashed by a zone outage fail; a bad build answers), from the
//! database's state, and, for probe timeouts, from the queue of the region's last served
//! tick (the minute before). The consumer's routing is then known for every second of the
//! minute; each region serves the time-weighted mean of what was routed to it, and the
//! share of its requests sent to crashed instances still marked healthy fails at once.
//! Transitions carry their second.

pub mod failover;
pub mod sources;

use crate::message::{Message, MessageId};
use crate::relations::{Relation, RelationId, THIS_MODEL};
use crate::world::service::ServiceUnit;
// Plain data the regions' model is built on, below it (their old paths kept).
pub use crate::health;
use crate::health::{AggregationPolicy, EndpointHealth, HealthState, SourceKind};
pub use crate::outlier;
pub use crate::region_action::{self as action, RegionAction, RegionValueError, ACTION_NAMES};
pub use crate::region_codes::{self as codes, code, index, MAX_REGIONS, REGION_CODES};

/// Share of the users in each region, for 1, 2 and 3 regions (an assumption of this model).
pub fn demand_shares(regions: usize) -> &'static [f64] {
    match regions {
        2 => &[0.6, 0.4],
        3 => &[0.5, 0.3, 0.2],
        _ => &[1.0],
    }
}

/// Each region's users' clock against the scenario's, minutes: region a keeps the
/// scenario's clock, b is an hour behind, c three (an assumption of this model). A
/// region's diurnal peak comes that much later on the scenario's clock.
pub const UTC_OFFSETS_MIN: [i32; MAX_REGIONS] = [0, -60, -180];

pub const REGION_DEMAND: Relation = Relation {
    id: RelationId::RegionDemand,
    symbols: &["w_r", "o_r"],
    citations: &[THIS_MODEL],
    assumption: true,
};

/// The scenario's clock shifted to region `r`'s users (the diurnal curve takes it).
pub fn region_clock_min(clock_min: u32, offset_min: i32) -> f64 {
    f64::from(clock_min) + f64::from(offset_min)
}

/// A source's state with its counts, as the regions panel shows it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SourceView {
    pub state: HealthState,
    pub healthy: u32,
    pub total: u32,
    pub healthy_percent: u32,
    pub min_healthy: u32,
}

/// The health sources of a region's minute, each under its kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceViews(pub Vec<(SourceKind, SourceView)>);

impl SourceViews {
    /// Source `kind`'s view, if the region has that source.
    pub fn get(&self, kind: SourceKind) -> Option<&SourceView> {
        self.0.iter().find(|(k, _)| *k == kind).map(|(_, v)| v)
    }
}

impl RegionMinute {
    /// The app fleet's source, which the readers of the fleet read (an empty view for a
    /// region without one).
    pub fn app(&self) -> SourceView {
        self.sources
            .get(SourceKind::AppFleet)
            .copied()
            .unwrap_or(SourceView {
                state: HealthState::Unknown,
                healthy: 0,
                total: 0,
                healthy_percent: 0,
                min_healthy: 0,
            })
    }
}

/// Written as a map from each source's key to its view.
impl serde::Serialize for SourceViews {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (kind, view) in &self.0 {
            let key = sources::rule(*kind).map_or(kind.as_str(), |r| r.key());
            map.serialize_entry(key, view)?;
        }
        map.end()
    }
}

/// One region in one minute: what the regions panel and the per-region chart lines read.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RegionMinute {
    pub region: &'static str,
    /// The composite health check's state at the minute's end.
    pub composite: HealthState,
    /// The state the consumer's load balancer knows (after the propagation delay).
    pub consumer_view: HealthState,
    /// Whether the region takes traffic at the minute's end.
    pub in_routing: bool,
    /// Each health source's state with its counts, in the registry's order (written under
    /// each source's key: `app`, `database`).
    #[serde(flatten)]
    pub sources: SourceViews,
    /// Where this region's users are sent at the minute's end.
    pub routed_to: &'static str,
    /// Requests per second of this region's users (wherever served).
    pub users_per_s: f64,
    /// Requests per second served in this region (time-weighted over the minute).
    pub requests_per_s: f64,
    /// Share of all requests served in this region.
    pub traffic_share: f64,
    /// Share of the requests served here that came from another region's users.
    pub failed_over_share: f64,
    pub serving: u32,
    pub booting: u32,
    /// Instances crashed by a zone outage (endpoints that fail their probes).
    pub crashed: u32,
    /// Instances ejected by outlier detection at the minute's end.
    pub ejected: u32,
    pub outlier_detection: bool,
    pub drained: bool,
    pub error_rate: f64,
    pub p99_ms: f64,
    pub cache_hit: f64,
    pub db_utilization: f64,
    pub db_failed: bool,
    pub fleet_cost_per_hour: f64,
}

/// A health source's state: its endpoints and what its policy last found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SourceHealth {
    pub kind: SourceKind,
    pub endpoints: sources::Endpoints,
    pub state: HealthState,
}

impl SourceHealth {
    /// Its healthy and total endpoints.
    pub fn counts(&self) -> (u32, u32) {
        let healthy = self.endpoints.iter().filter(|(_, e)| e.healthy).count() as u32;
        (healthy, self.endpoints.len() as u32)
    }

    /// Its rules.
    pub fn rule(&self) -> &'static dyn sources::Source {
        sources::rule(self.kind).expect("a region's sources are kinds of the registry")
    }
}

/// A region's health-check state.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RegionHealth {
    /// The composite check's sources, in the registry's order.
    pub sources: Vec<SourceHealth>,
    pub composite: HealthState,
    pub propagation: failover::Propagation,
}

impl RegionHealth {
    /// Health checks created now: every source UNKNOWN until its first evaluation.
    pub fn new(params: &crate::params::ModelParams) -> Self {
        Self {
            sources: SourceKind::REGIONAL
                .iter()
                .map(|&kind| SourceHealth {
                    kind,
                    endpoints: sources::starting_endpoints(kind, params),
                    state: HealthState::Unknown,
                })
                .collect(),
            composite: HealthState::Unknown,
            propagation: failover::Propagation::default(),
        }
    }

    /// The endpoints of source `kind` (none when the region has no such source).
    pub fn endpoints(&self, kind: SourceKind) -> &[(u32, EndpointHealth)] {
        self.sources
            .iter()
            .find(|s| s.kind == kind)
            .map_or(&[], |s| &s.endpoints)
    }

    /// Each source's state, in order.
    pub fn states(&self) -> impl Iterator<Item = HealthState> + '_ {
        self.sources.iter().map(|s| s.state)
    }
}

/// One region.
pub struct Region {
    pub index: usize,
    /// Its unit; `None` while the unit is the simulation's current one (see
    /// [`crate::sim::Simulation`]'s `service`).
    pub unit: Option<ServiceUnit>,
    /// Share of all users.
    pub share: f64,
    pub utc_offset_min: i32,
    /// A floor of its own set by hand (`region_min_instances`); `None`: the shared one.
    pub min_instances: Option<u32>,
    /// Its database's capacity, queries per second: each region's database is sized like
    /// the one region's (an active-active deployment provisions each region to take the
    /// others' users; an assumption of this model).
    pub db_capacity_qps: f64,
    /// Its database failed (every replica down, every query fails).
    pub db_failed: bool,
    /// How warm its cache is for each region's users' keys (its own: the unit's cache).
    pub foreign_warm: [f64; MAX_REGIONS],
    /// Instances crashed by a zone outage, still registered as endpoints.
    pub crashed: Vec<u32>,
    /// Instances of a zone that came back, booting again: still registered as endpoints,
    /// they fail their probes until they serve.
    pub restoring: Vec<u32>,
    /// While a zone's instances come back, the least its autoscaler may keep: the live
    /// fleet the zone's return restored. The instance group recreates the zone's
    /// instances at its target size, and an idle region (its users failed over) must not
    /// scale them away before it takes its users back. Lifted at the end of the first
    /// minute that they all serve and the consumer routes to the region throughout (its
    /// drain by hand aside).
    pub recovery_floor: Option<u32>,
    /// Instances on a bad build of this region alone (they fail real requests, answer
    /// probes).
    pub grey: Vec<u32>,
    pub health: RegionHealth,
    pub outlier: outlier::Outlier,
    /// Taken out of routing by hand.
    pub drained: bool,
    /// Where the consumer sent this region's users last.
    pub routed_to: usize,
    /// While a zone is down, the region cannot grow past what it has left: its remaining
    /// zones have no capacity to spare (every tenant of the lost zone moves there). An
    /// assumption of this model.
    pub capacity_cap: Option<u32>,
    /// Timeout share of its last served tick (probe timeouts read it).
    pub last_timeout_share: f64,
    /// Error share of its requests in the last minute (outlier detection reads it).
    pub last_error_rate: f64,
}

/// The aggregation policy of `params`.
pub fn policy_of(params: &crate::params::ModelParams) -> AggregationPolicy {
    AggregationPolicy {
        healthy_percent: params.healthy_percent,
        min_healthy: params.min_healthy,
    }
}

impl crate::event::EventKind {
    /// The message of a regional event (health transitions, failover, ejections, injected
    /// failures); `None` for the others, which the edges put in words themselves.
    pub fn regional_message(&self) -> Option<Message> {
        use crate::event::EventKind as E;
        Some(match self {
            E::HealthTransition {
                resource,
                from,
                to,
                reason,
            } => Message::new(MessageId::EventHealthTransition)
                .code("resource", resource.code())
                .code("from", from.as_str())
                .code("to", to.as_str())
                .msg("reason", reason.clone()),
            E::Rerouted { users, from, to } => Message::new(MessageId::EventRerouted)
                .code("users", users)
                .code("from", from)
                .code("to", to),
            E::Ejected { instance, seconds } => Message::new(MessageId::EventEjected)
                .int("instance", *instance)
                .int("seconds", *seconds),
            E::Unejected { instance } => {
                Message::new(MessageId::EventUnejected).int("instance", *instance)
            }
            E::InstancesCrashed { count } => {
                Message::new(MessageId::EventInstancesCrashed).int("count", *count)
            }
            E::Failure { failure, .. } => {
                Message::new(MessageId::EventFailure).msg("failure", failure.clone())
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip() {
        for (name, value) in [
            ("zone_outage", "a:0.5"),
            ("bad_build", "b:0.1"),
            ("db_failure", "a:on"),
            ("drain_region", "c:off"),
            ("outlier_detection", "b:on"),
            ("region_min_instances", "b:12"),
            ("failover", "off"),
            ("healthy_percent", "75"),
            ("min_healthy", "3"),
        ] {
            let a = RegionAction::parse(name, value).unwrap().unwrap();
            assert_eq!(a.name(), name);
            assert_eq!(a.value(), value);
        }
        assert!(RegionAction::parse("rollback", "").is_none());
        assert!(RegionAction::parse("zone_outage", "d:0.5")
            .unwrap()
            .is_err());
        assert!(RegionAction::parse("zone_outage", "a:1.5")
            .unwrap()
            .is_err());
        assert!(RegionAction::parse("healthy_percent", "101")
            .unwrap()
            .is_err());
        assert!(RegionAction::parse("db_failure", "a").unwrap().is_err());
    }

    #[test]
    fn shares_sum_to_one() {
        for n in 1..=MAX_REGIONS {
            let s: f64 = demand_shares(n).iter().sum();
            assert!((s - 1.0).abs() < 1e-12);
            assert_eq!(demand_shares(n).len(), n);
        }
    }
}
