//! The user's controls as actions stamped with the simulated minute. A run is a pure
//! function of (scenario, seed, parameters, actions).

use crate::message::{Message, MessageId};
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
    /// The request engine's load-balancing policy.
    pub lb: crate::requests::Routing,
    /// Whether requests are hedged (the request engine).
    pub hedge: bool,
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
            lb: crate::requests::Routing::default(),
            hedge: false,
        }
    }
}

impl Settings {
    /// The control `action` sets, at its value (an action that sets no control, such as a
    /// rollback, changes nothing): an exercise's controls at the start, and the console's
    /// controls as they will be once its pending actions apply.
    pub fn start_with(&mut self, action: &ActionKind) {
        match *action {
            ActionKind::MinInstances(n) => self.min_instances = n,
            ActionKind::Autoscaling(on) => self.autoscaling = on,
            ActionKind::TargetUtilization(x) => self.target_utilization = x,
            ActionKind::CacheTtlS(t) => self.cache_ttl_s = t,
            ActionKind::ShedLowPriority(x) => self.shed_low_priority = x,
            ActionKind::HeavyFeature(on) => self.heavy_feature = on,
            ActionKind::Lb(lb) => self.lb = lb,
            ActionKind::Hedge(on) => self.hedge = on,
            ActionKind::WarmCache | ActionKind::Rollback | ActionKind::Region(_) => {}
            #[cfg(feature = "extended")]
            ActionKind::Inject(_) => {}
        }
    }
}

/// Serializes an action as its `NAME[=VALUE]` code (the events' `action` field).
pub fn serialize_encoded<S: serde::Serializer>(kind: &ActionKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&kind.encode())
}

/// Allowed ranges of the controls (the minimum's, beside the fleet it bounds).
pub use crate::fleet::MIN_INSTANCES_RANGE;
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
    /// The request engine's load-balancing policy from now on.
    Lb(crate::requests::Routing),
    /// Hedged requests on or off.
    Hedge(bool),
    /// A regional control or an injected failure ([`crate::region_action::RegionAction`]).
    Region(crate::region_action::RegionAction),
    /// A fault injected now (the facilitator's console): [`crate::fault_action`].
    #[cfg(feature = "extended")]
    #[serde(serialize_with = "serialize_inject")]
    Inject(crate::fault_action::FaultInject),
}

/// An injected fault's value as written in a link.
#[cfg(feature = "extended")]
fn serialize_inject<S: serde::Serializer>(
    inject: &crate::fault_action::FaultInject,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(&inject.value())
}

/// An action and the simulated minute at whose start it applies.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Action {
    pub minute: u32,
    #[serde(flatten)]
    pub kind: ActionKind,
}

/// Puts `actions` in time order, keeping the given order within a minute (the order the core
/// applies them in), as replaying a run needs.
///
/// Every caller goes through this one function: each use of the standard library's stable
/// sort on another closure is compiled anew, and the page pays for each copy.
pub fn sort_by_minute(actions: Vec<Action>) -> Vec<Action> {
    if actions.windows(2).all(|w| w[0].minute <= w[1].minute) {
        return actions;
    }
    // Binary insertion of (minute, position) keys: each action goes after every earlier one of
    // its minute. Lists are short (a person's actions) and moving 8-byte keys is cheap.
    let mut order: Vec<(u32, usize)> = Vec::with_capacity(actions.len());
    for (i, a) in actions.iter().enumerate() {
        let at = order.partition_point(|&(minute, _)| minute <= a.minute);
        order.insert(at, (a.minute, i));
    }
    let mut slots: Vec<Option<Action>> = actions.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|(_, i)| slots.get_mut(i).and_then(Option::take))
        .collect()
}

/// What an action's value may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Allowed {
    Whole {
        lo: u32,
        hi: u32,
    },
    Seconds {
        lo: u32,
        hi: u32,
    },
    Fraction {
        lo: f64,
        hi: f64,
    },
    OnOff,
    /// One of these spellings.
    OneOf(&'static [&'static str]),
    /// A regional action's value (by the action's name).
    Regional(&'static str),
    /// An injected fault's kind and fields.
    #[cfg(feature = "extended")]
    Inject,
}

impl Allowed {
    /// As a message.
    pub fn message(self) -> Message {
        match self {
            Allowed::Whole { lo, hi } => Message::new(MessageId::ActionAllowedWhole)
                .int("lo", lo)
                .int("hi", hi),
            Allowed::Seconds { lo, hi } => Message::new(MessageId::ActionAllowedSeconds)
                .int("lo", lo)
                .int("hi", hi),
            Allowed::Fraction { lo, hi } => Message::new(MessageId::ActionAllowedFraction)
                .num("lo", lo)
                .num("hi", hi),
            Allowed::OnOff => Message::new(MessageId::ActionAllowedOnOff),
            Allowed::OneOf(names) => {
                Message::new(MessageId::OneOfList).codes("allowed", names.to_vec())
            }
            Allowed::Regional(name) => crate::region_action::RegionAction::allowed(name),
            #[cfg(feature = "extended")]
            Allowed::Inject => crate::fault_action::allowed(),
        }
    }
}

/// A malformed or out-of-range action: what was wrong and what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionError {
    /// Not `MINUTE:NAME[=VALUE]`.
    Malformed {
        text: String,
    },
    /// The minute is not a whole number within the run.
    BadMinute {
        text: String,
        minute: String,
        max: u32,
    },
    UnknownAction {
        name: String,
    },
    NeedsValue {
        name: String,
        allowed: Allowed,
    },
    TakesNoValue {
        name: String,
    },
    BadValue {
        name: String,
        value: String,
        allowed: Allowed,
    },
}

impl ActionError {
    /// As a message for the catalogs.
    pub fn message(&self) -> Message {
        match self {
            ActionError::Malformed { text } => {
                Message::new(MessageId::ActionMalformed).given("text", text.clone())
            }
            ActionError::BadMinute { text, minute, max } => {
                Message::new(MessageId::ActionBadMinute)
                    .given("text", text.clone())
                    .given("minute", minute.clone())
                    .int("max", *max)
            }
            ActionError::UnknownAction { name } => Message::new(MessageId::ActionUnknown)
                .given("name", name.clone())
                .codes("allowed", ACTION_NAMES.to_vec()),
            ActionError::NeedsValue { name, allowed } => Message::new(MessageId::ActionNeedsValue)
                .given("name", name.clone())
                .msg("allowed", allowed.message()),
            ActionError::TakesNoValue { name } => {
                Message::new(MessageId::ActionTakesNoValue).given("name", name.clone())
            }
            ActionError::BadValue {
                name,
                value,
                allowed,
            } => Message::new(MessageId::ActionBadValue)
                .given("name", name.clone())
                .given("value", value.clone())
                .msg("allowed", allowed.message()),
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message().fmt(f)
    }
}

impl std::error::Error for ActionError {}

/// Action names, as the CLI and the URL spell them (the regional ones are
/// [`crate::region_action::ACTION_NAMES`]).
pub const ACTION_NAMES: &[&str] = &[
    "min_instances",
    "autoscaling",
    "target_utilization",
    "cache_ttl_s",
    "warm_cache",
    "shed_low_priority",
    "heavy_feature",
    "rollback",
    "lb",
    "hedge",
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
            Self::Lb(_) => "lb",
            Self::Hedge(_) => "hedge",
            Self::Region(a) => a.name(),
            #[cfg(feature = "extended")]
            Self::Inject(_) => "inject",
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
            Self::Lb(r) => format!("lb={r}"),
            Self::Hedge(b) => format!("hedge={}", on_off(b)),
            Self::Region(a) => format!("{}={}", a.name(), a.value()),
            #[cfg(feature = "extended")]
            Self::Inject(f) => format!("inject={}", f.value()),
        }
    }

    /// Parses `NAME[=VALUE]`, checking the value's range.
    pub fn parse(text: &str) -> Result<Self, ActionError> {
        let (name, value) = match text.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (text.trim(), None),
        };
        let need = |v: Option<&str>, allowed: Allowed| -> Result<String, ActionError> {
            v.map(str::to_string)
                .ok_or_else(|| ActionError::NeedsValue {
                    name: name.to_string(),
                    allowed,
                })
        };
        let no_value = |v: Option<&str>| -> Result<(), ActionError> {
            match v {
                None => Ok(()),
                Some(_) => Err(ActionError::TakesNoValue {
                    name: name.to_string(),
                }),
            }
        };
        match name {
            "min_instances" => {
                let (lo, hi) = MIN_INSTANCES_RANGE;
                let allowed = Allowed::Whole { lo, hi };
                let v = need(value, allowed)?;
                parse_int(&v, lo, hi)
                    .map(Self::MinInstances)
                    .ok_or_else(|| bad(name, &v, allowed))
            }
            "autoscaling" => {
                parse_on_off(name, &need(value, Allowed::OnOff)?).map(Self::Autoscaling)
            }
            "heavy_feature" => {
                parse_on_off(name, &need(value, Allowed::OnOff)?).map(Self::HeavyFeature)
            }
            "target_utilization" => {
                let (lo, hi) = TARGET_UTILIZATION_RANGE;
                let allowed = Allowed::Fraction { lo, hi };
                let v = need(value, allowed)?;
                parse_float(&v, lo, hi)
                    .map(Self::TargetUtilization)
                    .ok_or_else(|| bad(name, &v, allowed))
            }
            "cache_ttl_s" => {
                let (lo, hi) = CACHE_TTL_RANGE;
                let allowed = Allowed::Seconds { lo, hi };
                let v = need(value, allowed)?;
                parse_int(&v, lo, hi)
                    .map(Self::CacheTtlS)
                    .ok_or_else(|| bad(name, &v, allowed))
            }
            "shed_low_priority" => {
                let (lo, hi) = SHED_RANGE;
                let allowed = Allowed::Fraction { lo, hi };
                let v = need(value, allowed)?;
                parse_float(&v, lo, hi)
                    .map(Self::ShedLowPriority)
                    .ok_or_else(|| bad(name, &v, allowed))
            }
            "hedge" => parse_on_off(name, &need(value, Allowed::OnOff)?).map(Self::Hedge),
            "lb" => {
                let allowed = Allowed::OneOf(crate::requests::Routing::NAMES);
                let v = need(value, allowed)?;
                v.parse().map(Self::Lb).map_err(|_| bad(name, &v, allowed))
            }
            "warm_cache" => no_value(value).map(|()| Self::WarmCache),
            "rollback" => no_value(value).map(|()| Self::Rollback),
            #[cfg(feature = "extended")]
            "inject" => {
                let v = need(value, Allowed::Inject)?;
                crate::fault_action::FaultInject::parse(&v)
                    .map(Self::Inject)
                    .ok_or_else(|| bad(name, &v, Allowed::Inject))
            }
            _ => {
                let Some(&known) = crate::region_action::ACTION_NAMES
                    .iter()
                    .find(|n| **n == name)
                else {
                    return Err(ActionError::UnknownAction {
                        name: name.to_string(),
                    });
                };
                let allowed = Allowed::Regional(known);
                let v = need(value, allowed)?;
                match crate::region_action::RegionAction::parse(known, &v) {
                    Some(Ok(a)) => Ok(Self::Region(a)),
                    _ => Err(bad(name, &v, allowed)),
                }
            }
        }
    }
}

impl Action {
    /// Parses `MINUTE:NAME[=VALUE]`; minutes run from 0 to `max_minute`.
    pub fn parse(text: &str, max_minute: u32) -> Result<Self, ActionError> {
        let (minute, rest) = text.split_once(':').ok_or_else(|| ActionError::Malformed {
            text: text.to_string(),
        })?;
        let minute =
            parse_int(minute.trim(), 0, max_minute).ok_or_else(|| ActionError::BadMinute {
                text: text.to_string(),
                minute: minute.to_string(),
                max: max_minute,
            })?;
        let kind = ActionKind::parse(rest)?;
        Ok(Self { minute, kind })
    }

    /// `MINUTE:NAME[=VALUE]`.
    pub fn encode(&self) -> String {
        format!("{}:{}", self.minute, self.kind.encode())
    }
}

fn bad(name: &str, value: &str, allowed: Allowed) -> ActionError {
    ActionError::BadValue {
        name: name.to_string(),
        value: value.to_string(),
        allowed,
    }
}

fn parse_int(v: &str, lo: u32, hi: u32) -> Option<u32> {
    crate::params::parse_whole(v)
        .filter(|n| *n >= u64::from(lo) && *n <= u64::from(hi))
        .and_then(|n| u32::try_from(n).ok())
}

fn parse_float(v: &str, lo: f64, hi: f64) -> Option<f64> {
    crate::params::parse_number(v).filter(|x| x.is_finite() && *x >= lo && *x <= hi)
}

fn parse_on_off(name: &str, v: &str) -> Result<bool, ActionError> {
    match v {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(bad(name, v, Allowed::OnOff)),
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
            "6:lb=ring-hash",
            "8:hedge=on",
        ] {
            let a = Action::parse(text, 1440).unwrap();
            assert_eq!(a.encode(), text);
        }
    }

    #[test]
    fn errors_name_the_problem() {
        let e = Action::parse("x:rollback", 10).unwrap_err().to_string();
        assert!(e.contains("minute") && e.contains("0 to 10"), "{e}");
        let e = Action::parse("3:min_instances=99", 10)
            .unwrap_err()
            .to_string();
        assert!(e.contains("min_instances") && e.contains("0 to 40"), "{e}");
        let e = Action::parse("3:teleport", 10).unwrap_err().to_string();
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

#[cfg(test)]
mod order_tests {
    use super::*;

    fn at(minute: u32, kind: ActionKind) -> Action {
        Action { minute, kind }
    }

    #[test]
    fn actions_go_in_time_order_and_keep_their_order_within_a_minute() {
        let given = vec![
            at(9, ActionKind::Rollback),
            at(3, ActionKind::WarmCache),
            at(9, ActionKind::CacheTtlS(120)),
            at(3, ActionKind::MinInstances(5)),
            at(1, ActionKind::HeavyFeature(false)),
        ];
        assert_eq!(
            sort_by_minute(given),
            vec![
                at(1, ActionKind::HeavyFeature(false)),
                at(3, ActionKind::WarmCache),
                at(3, ActionKind::MinInstances(5)),
                at(9, ActionKind::Rollback),
                at(9, ActionKind::CacheTtlS(120)),
            ]
        );
        let sorted = vec![at(2, ActionKind::Rollback), at(2, ActionKind::WarmCache)];
        assert_eq!(sort_by_minute(sorted.clone()), sorted);
        assert_eq!(sort_by_minute(Vec::new()), Vec::new());
    }
}
