//! The regional controls and the failures a scenario injects into a region, as actions
//! spell them: plain data below the regions' model, which actions and events name.

use crate::message::{Message, MessageId};
use crate::region_codes::{code, index, MAX_REGIONS, REGION_CODES};

/// An on-call engineer's regional control, or a failure injected into a region.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RegionAction {
    /// A share of the region's serving instances crash (a zone goes down); 0 brings the
    /// zone back (its crashed instances boot again through the boot delay).
    ZoneOutage { region: u8, share: f64 },
    /// The region's database fails (`on`) or comes back.
    DbFailure { region: u8, on: bool },
    /// A share of the region's serving instances run a bad build that fails real requests
    /// but answers health checks (the grey failure).
    BadBuild { region: u8, share: f64 },
    /// The region is taken out of routing by hand (`on`) or put back.
    DrainRegion { region: u8, on: bool },
    /// The region's own minimum of instances.
    RegionMinInstances { region: u8, min: u32 },
    /// Outlier detection in the region on or off.
    OutlierDetection { region: u8, on: bool },
    /// Health-based failover at the consumer on or off.
    Failover(bool),
    /// The aggregation policy's healthy share, percent (every source, every region).
    HealthyPercent(u32),
    /// The aggregation policy's least healthy count.
    MinHealthy(u32),
}

/// The regional actions' names, as the CLI and the links spell them.
pub const ACTION_NAMES: &[&str] = &[
    "zone_outage",
    "db_failure",
    "bad_build",
    "drain_region",
    "region_min_instances",
    "outlier_detection",
    "failover",
    "healthy_percent",
    "min_healthy",
];

/// What went wrong parsing a regional action's value: what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionValueError {
    pub allowed: Message,
}

pub(crate) fn on_off(v: &str) -> Option<bool> {
    match v.trim() {
        "on" | "true" | "1" => Some(true),
        "off" | "false" | "0" => Some(false),
        _ => None,
    }
}

impl RegionAction {
    pub fn name(&self) -> &'static str {
        match self {
            Self::ZoneOutage { .. } => "zone_outage",
            Self::DbFailure { .. } => "db_failure",
            Self::BadBuild { .. } => "bad_build",
            Self::DrainRegion { .. } => "drain_region",
            Self::RegionMinInstances { .. } => "region_min_instances",
            Self::OutlierDetection { .. } => "outlier_detection",
            Self::Failover(_) => "failover",
            Self::HealthyPercent(_) => "healthy_percent",
            Self::MinHealthy(_) => "min_healthy",
        }
    }

    /// The region it targets, if any.
    pub fn region(&self) -> Option<usize> {
        match *self {
            Self::ZoneOutage { region, .. }
            | Self::DbFailure { region, .. }
            | Self::BadBuild { region, .. }
            | Self::DrainRegion { region, .. }
            | Self::RegionMinInstances { region, .. }
            | Self::OutlierDetection { region, .. } => Some(usize::from(region)),
            _ => None,
        }
    }

    /// The value as `NAME=VALUE` writes it.
    pub fn value(&self) -> String {
        let oo = |b: bool| if b { "on" } else { "off" };
        let r = |i: u8| code(usize::from(i));
        match *self {
            Self::ZoneOutage { region, share } | Self::BadBuild { region, share } => {
                format!("{}:{share}", r(region))
            }
            Self::DbFailure { region, on }
            | Self::DrainRegion { region, on }
            | Self::OutlierDetection { region, on } => format!("{}:{}", r(region), oo(on)),
            Self::RegionMinInstances { region, min } => format!("{}:{min}", r(region)),
            Self::Failover(on) => oo(on).to_string(),
            Self::HealthyPercent(p) => p.to_string(),
            Self::MinHealthy(n) => n.to_string(),
        }
    }

    /// What the value of action `name` may be, as a message.
    pub fn allowed(name: &str) -> Message {
        let m = |id| Message::new(id).codes("regions", REGION_CODES.to_vec());
        match name {
            "zone_outage" | "bad_build" => m(MessageId::RegionAllowedShare),
            "db_failure" | "drain_region" | "outlier_detection" => m(MessageId::RegionAllowedOnOff),
            "region_min_instances" => m(MessageId::RegionAllowedCount)
                .int("lo", crate::fleet::MIN_INSTANCES_RANGE.0)
                .int("hi", crate::fleet::MIN_INSTANCES_RANGE.1),
            "healthy_percent" => Message::new(MessageId::ActionAllowedWhole)
                .int("lo", 0)
                .int("hi", 100),
            "min_healthy" => Message::new(MessageId::ActionAllowedWhole)
                .int("lo", 0)
                .int("hi", 1000),
            _ => Message::new(MessageId::ActionAllowedOnOff),
        }
    }

    /// Parses the value of action `name` (one of [`ACTION_NAMES`]); `None` when `name` is
    /// not a regional action. Region codes are checked against the most regions a run may
    /// have; a run with fewer refuses the action when it applies.
    pub fn parse(name: &str, value: &str) -> Option<Result<Self, RegionValueError>> {
        if !ACTION_NAMES.contains(&name) {
            return None;
        }
        let bad = || RegionValueError {
            allowed: Self::allowed(name),
        };
        let regional = |v: &str| -> Option<(u8, String)> {
            let (r, rest) = v.split_once(':')?;
            Some((index(r, MAX_REGIONS)? as u8, rest.trim().to_string()))
        };
        let share = |v: &str| {
            crate::decimal::parse_number(v).filter(|x| x.is_finite() && (0.0..=1.0).contains(x))
        };
        let whole = |v: &str, hi: u64| {
            crate::decimal::parse_whole(v)
                .filter(|n| *n <= hi)
                .map(|n| n as u32)
        };
        let parsed = match name {
            "zone_outage" | "bad_build" => regional(value).and_then(|(region, v)| {
                let share = share(&v)?;
                Some(if name == "zone_outage" {
                    Self::ZoneOutage { region, share }
                } else {
                    Self::BadBuild { region, share }
                })
            }),
            "db_failure" | "drain_region" | "outlier_detection" => {
                regional(value).and_then(|(region, v)| {
                    let on = on_off(&v)?;
                    Some(match name {
                        "db_failure" => Self::DbFailure { region, on },
                        "drain_region" => Self::DrainRegion { region, on },
                        _ => Self::OutlierDetection { region, on },
                    })
                })
            }
            "region_min_instances" => regional(value).and_then(|(region, v)| {
                let (lo, hi) = crate::fleet::MIN_INSTANCES_RANGE;
                let min = whole(&v, u64::from(hi)).filter(|n| *n >= lo)?;
                Some(Self::RegionMinInstances { region, min })
            }),
            "failover" => on_off(value).map(Self::Failover),
            "healthy_percent" => whole(value, 100).map(Self::HealthyPercent),
            _ => whole(value, 1000).map(Self::MinHealthy),
        };
        Some(parsed.ok_or_else(bad))
    }

    /// The action as a message for the event log.
    pub fn message(&self) -> Message {
        Message::new(MessageId::RegionAction)
            .code("name", self.name())
            .given("value", self.value())
    }
}
