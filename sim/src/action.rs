//! The user's controls as actions stamped with the simulated minute. A run is a pure
//! function of (scenario, seed, parameters, actions).

use core::fmt;

/// The values of the controls that persist (sliders and toggles).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Settings {
    /// Floor of the fleet.
    pub min_instances: u32,
    /// Target tracking on (off = exactly the minimum).
    pub autoscaling: bool,
    /// Target utilization of target tracking, 0.1–0.95.
    pub target_utilization: f64,
    /// Cache TTL in seconds.
    pub cache_ttl_s: u32,
    /// Share of the low-priority traffic rejected at the load balancer, 0–1.
    pub shed_low_priority: f64,
    /// Recommendations on.
    pub heavy_feature: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            min_instances: 2,
            autoscaling: true,
            target_utilization: 0.6,
            cache_ttl_s: 60,
            shed_low_priority: 0.0,
            heavy_feature: true,
        }
    }
}

/// Allowed ranges of the controls.
pub const MIN_INSTANCES_RANGE: (u32, u32) = (1, 40);
pub const TARGET_UTILIZATION_RANGE: (f64, f64) = (0.1, 0.95);
pub const CACHE_TTL_RANGE: (u32, u32) = (1, 3600);
pub const SHED_RANGE: (f64, f64) = (0.0, 1.0);

/// One control operated by the user.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "action", content = "value", rename_all = "snake_case")]
pub enum ActionKind {
    MinInstances(u32),
    Autoscaling(bool),
    TargetUtilization(f64),
    CacheTtlS(u32),
    WarmCache,
    ShedLowPriority(f64),
    HeavyFeature(bool),
    Rollback,
}

/// An action and the simulated minute at whose start it applies.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Action {
    pub minute: u32,
    #[serde(flatten)]
    pub kind: ActionKind,
}

/// A malformed or out-of-range action; `Display` names what was wrong and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError(pub String);

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ActionError {}

/// Action names, as the CLI and the URL spell them.
pub const ACTION_NAMES: &[&str] = &[
    "min_instances",
    "autoscaling",
    "target_utilization",
    "cache_ttl_s",
    "warm_cache",
    "shed_low_priority",
    "heavy_feature",
    "rollback",
];

impl ActionKind {
    /// The action's name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::MinInstances(_) => "min_instances",
            Self::Autoscaling(_) => "autoscaling",
            Self::TargetUtilization(_) => "target_utilization",
            Self::CacheTtlS(_) => "cache_ttl_s",
            Self::WarmCache => "warm_cache",
            Self::ShedLowPriority(_) => "shed_low_priority",
            Self::HeavyFeature(_) => "heavy_feature",
            Self::Rollback => "rollback",
        }
    }

    /// `NAME[=VALUE]`, the inverse of [`ActionKind::parse`].
    pub fn encode(&self) -> String {
        let on_off = |b: &bool| if *b { "on" } else { "off" };
        match self {
            Self::MinInstances(n) => format!("min_instances={n}"),
            Self::Autoscaling(b) => format!("autoscaling={}", on_off(b)),
            Self::TargetUtilization(x) => format!("target_utilization={x}"),
            Self::CacheTtlS(n) => format!("cache_ttl_s={n}"),
            Self::WarmCache => "warm_cache".into(),
            Self::ShedLowPriority(x) => format!("shed_low_priority={x}"),
            Self::HeavyFeature(b) => format!("heavy_feature={}", on_off(b)),
            Self::Rollback => "rollback".into(),
        }
    }

    /// Parses `NAME[=VALUE]`, checking the value's range.
    pub fn parse(text: &str) -> Result<Self, ActionError> {
        let (name, value) = match text.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (text.trim(), None),
        };
        let need = |v: Option<&str>, allowed: &str| -> Result<String, ActionError> {
            v.map(str::to_string).ok_or_else(|| {
                ActionError(format!(
                    "action {name} needs a value: {name}=VALUE with VALUE {allowed}"
                ))
            })
        };
        let no_value = |v: Option<&str>| -> Result<(), ActionError> {
            match v {
                None => Ok(()),
                Some(_) => Err(ActionError(format!("action {name} takes no value"))),
            }
        };
        match name {
            "min_instances" => {
                let (lo, hi) = MIN_INSTANCES_RANGE;
                let allowed = format!("a whole number from {lo} to {hi}");
                let v = need(value, &allowed)?;
                parse_int(&v, lo, hi)
                    .map(Self::MinInstances)
                    .ok_or_else(|| bad(name, &v, &allowed))
            }
            "autoscaling" => parse_on_off(name, &need(value, "on or off")?).map(Self::Autoscaling),
            "heavy_feature" => {
                parse_on_off(name, &need(value, "on or off")?).map(Self::HeavyFeature)
            }
            "target_utilization" => {
                let (lo, hi) = TARGET_UTILIZATION_RANGE;
                let allowed = format!("a fraction from {lo} to {hi}");
                let v = need(value, &allowed)?;
                parse_float(&v, lo, hi)
                    .map(Self::TargetUtilization)
                    .ok_or_else(|| bad(name, &v, &allowed))
            }
            "cache_ttl_s" => {
                let (lo, hi) = CACHE_TTL_RANGE;
                let allowed = format!("a whole number of seconds from {lo} to {hi}");
                let v = need(value, &allowed)?;
                parse_int(&v, lo, hi)
                    .map(Self::CacheTtlS)
                    .ok_or_else(|| bad(name, &v, &allowed))
            }
            "shed_low_priority" => {
                let (lo, hi) = SHED_RANGE;
                let allowed = format!("a fraction from {lo} to {hi}");
                let v = need(value, &allowed)?;
                parse_float(&v, lo, hi)
                    .map(Self::ShedLowPriority)
                    .ok_or_else(|| bad(name, &v, &allowed))
            }
            "warm_cache" => no_value(value).map(|()| Self::WarmCache),
            "rollback" => no_value(value).map(|()| Self::Rollback),
            _ => Err(ActionError(format!(
                "unknown action {name:?}; allowed: {}",
                ACTION_NAMES.join(", ")
            ))),
        }
    }
}

impl Action {
    /// Parses `MINUTE:NAME[=VALUE]`; minutes run from 0 to `max_minute`.
    pub fn parse(text: &str, max_minute: u32) -> Result<Self, ActionError> {
        let (minute, rest) = text.split_once(':').ok_or_else(|| {
            ActionError(format!(
                "action {text:?} must be MINUTE:NAME[=VALUE], e.g. 12:rollback"
            ))
        })?;
        let minute = parse_int(minute.trim(), 0, max_minute).ok_or_else(|| {
            ActionError(format!(
                "action {text:?}: minute {minute:?} must be a whole number from 0 to {max_minute}"
            ))
        })?;
        let kind = ActionKind::parse(rest)?;
        Ok(Self { minute, kind })
    }

    /// `MINUTE:NAME[=VALUE]`.
    pub fn encode(&self) -> String {
        format!("{}:{}", self.minute, self.kind.encode())
    }
}

fn bad(name: &str, value: &str, allowed: &str) -> ActionError {
    ActionError(format!(
        "action {name}: value {value:?} is not allowed; use {allowed}"
    ))
}

fn parse_int(v: &str, lo: u32, hi: u32) -> Option<u32> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) || v.len() > 10 {
        return None;
    }
    v.parse::<u64>()
        .ok()
        .filter(|n| *n >= u64::from(lo) && *n <= u64::from(hi))
        .map(|n| n as u32)
}

fn parse_float(v: &str, lo: f64, hi: f64) -> Option<f64> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= lo && *x <= hi)
}

fn parse_on_off(name: &str, v: &str) -> Result<bool, ActionError> {
    match v {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(bad(name, v, "on or off")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for text in [
            "3:min_instances=12",
            "0:autoscaling=off",
            "7:target_utilization=0.5",
            "9:cache_ttl_s=120",
            "1:warm_cache",
            "2:shed_low_priority=0.75",
            "4:heavy_feature=off",
            "5:rollback",
        ] {
            let a = Action::parse(text, 1440).unwrap();
            assert_eq!(a.encode(), text);
        }
    }

    #[test]
    fn errors_name_the_problem() {
        let e = Action::parse("x:rollback", 10).unwrap_err().0;
        assert!(e.contains("minute") && e.contains("0 to 10"), "{e}");
        let e = Action::parse("3:min_instances=99", 10).unwrap_err().0;
        assert!(e.contains("min_instances") && e.contains("1 to 40"), "{e}");
        let e = Action::parse("3:teleport", 10).unwrap_err().0;
        assert!(
            e.contains("unknown action") && e.contains("rollback"),
            "{e}"
        );
        assert!(Action::parse("3:rollback=1", 10).is_err());
        assert!(Action::parse("3:shed_low_priority=NaN", 10).is_err());
        assert!(Action::parse("3:heavy_feature=maybe", 10).is_err());
        assert!(Action::parse("-1:rollback", 10).is_err());
    }
}
