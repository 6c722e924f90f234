//! Events the core reports: what happened, when, and why.

/// Why instances started or stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FleetReason {
    /// The autoscaler asked for more or fewer.
    Autoscaler,
    /// The minimum was raised, or autoscaling was switched off.
    MinimumInstances,
    /// A rollback prepares a new fleet or replaces the old one.
    Rollback,
    /// A draining instance finished its requests (or reached its drain timeout).
    Drained,
    /// The scenario's starting fleet.
    Opening,
    /// A zone that was down came back: the instances it lost boot again.
    ZoneBack,
}

/// Something that happened in the simulated service.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// A user action took effect.
    Action {
        #[serde(serialize_with = "crate::action::serialize_encoded")]
        action: crate::action::ActionKind,
    },
    /// A user action the run could not apply, and why; the control keeps its value.
    ActionRefused {
        #[serde(serialize_with = "crate::action::serialize_encoded")]
        action: crate::action::ActionKind,
        /// Why; serialized as its English text.
        #[serde(serialize_with = "crate::message::serialize_english")]
        reason: crate::message::Message,
    },
    /// A new build started rolling out.
    Deploy {
        build: u32,
        bad: bool,
    },
    /// The multiwindow burn-rate rule fired.
    PageFired {
        burn_rate_1h: f64,
        burn_rate_5m: f64,
    },
    /// The rule stopped holding.
    PageResolved {
        burn_rate_1h: f64,
        burn_rate_5m: f64,
    },
    /// A rollback fleet is being prepared (`restarted` when the button was pressed again).
    RollbackStarted {
        build: u32,
        instances: u32,
        ready_minute: u32,
        restarted: bool,
    },
    /// Traffic switched to the rollback fleet.
    RollbackFinished {
        build: u32,
        bad_build_was_live: bool,
    },
    InstancesStarted {
        count: u32,
        reason: FleetReason,
    },
    InstancesServing {
        count: u32,
    },
    /// Instances taken out of service: no new traffic, billed until they have finished
    /// their requests (about `seconds`).
    InstancesDraining {
        count: u32,
        seconds: f64,
    },
    InstancesStopped {
        count: u32,
        reason: FleetReason,
    },
    /// `share` of the cache was flushed.
    CacheFlush {
        share: f64,
    },
    WarmupStarted {
        minutes: u32,
    },
    WarmupFinished,
    /// The traffic surge began ramping up.
    SurgeStarted {
        peak: f64,
    },
    /// A health state changed: an endpoint, a health source, a composite health check, or
    /// the consumer's routing (its view of a region's composite state).
    HealthTransition {
        resource: crate::health::Resource,
        from: crate::health::HealthState,
        to: crate::health::HealthState,
        /// Why; serialized as its English text.
        #[serde(serialize_with = "crate::message::serialize_english")]
        reason: crate::message::Message,
    },
    /// The consumer sends a region's users elsewhere (failover) or home again (failback).
    Rerouted {
        users: &'static str,
        from: &'static str,
        to: &'static str,
    },
    /// Outlier detection ejected an instance for `seconds`.
    Ejected {
        instance: u32,
        seconds: u32,
    },
    /// Instances crashed (a zone went down).
    InstancesCrashed {
        count: u32,
    },
    /// A failure the scenario injects.
    Failure {
        /// What failed; serialized as its English text.
        #[serde(serialize_with = "crate::message::serialize_english")]
        failure: crate::message::Message,
        /// The failure as the regional action that injects it, for a page to put in words
        /// (not serialized: `failure` says it).
        #[serde(skip)]
        injected: crate::region_action::RegionAction,
    },
    /// An ejected instance returned to service.
    Unejected {
        instance: u32,
    },
    /// An autoscaler decision: which policy, which driver fired, what it saw and computed.
    Scaling {
        policy: crate::autoscale::PolicyId,
        driver: crate::ids::DriverId,
        from: u32,
        to: u32,
        /// What the policy saw and computed; serialized as its English text.
        #[serde(serialize_with = "crate::message::serialize_english")]
        detail: crate::message::Message,
    },
}

/// An event and the simulated minute (and second within the run) it happened at.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Event {
    pub minute: u32,
    pub clock: crate::time::Clock,
    /// Seconds into the minute, for events inside it (policies that act faster than a
    /// minute); absent for events at the minute's start and for minute-cadence policies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<u32>,
    /// The region it happened in, when the run has several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<&'static str>,
    #[serde(flatten)]
    pub kind: EventKind,
}
