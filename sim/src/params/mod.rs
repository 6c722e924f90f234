//! The model's constants: every one a documented parameter with its default and allowed
//! range. The defaults are the example calibration of a mid-size web service; they are
//! assumptions, and the sources panel marks them so.
//!
//! A spec holds numbers and codes only: the words (what a parameter does, its unit's text)
//! are in the catalogs, keyed by the parameter's name and the unit's code
//! ([`crate::catalog::params_en`]).

#[cfg(feature = "extended")]
mod extended;
#[cfg(not(feature = "extended"))]
mod first_build;

use crate::budget::BudgetAccounting;
use crate::ids::ids;
use crate::message::{Message, MessageId};
use crate::relations::{Relation, RelationId, THIS_MODEL};
pub use crate::requests::Routing;
use core::fmt;

/// Description of one parameter.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ParamSpec {
    /// How `--set` and the link spell the parameter; also the key of its doc in the catalogs.
    pub name: &'static str,
    /// The default value.
    pub default: f64,
    /// The smallest value allowed.
    pub min: f64,
    /// The largest value allowed.
    pub max: f64,
    /// The unit's code (`workers`, `share_of_cache`, `s`), whose text the catalogs give;
    /// empty for a plain number.
    pub unit: &'static str,
    /// Whether only whole numbers are allowed.
    pub integer: bool,
}

/// A value a field does not allow, or a name that is no field: which field, and what is wrong
/// as a message the edge renders in its language.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamError {
    pub field: String,
    pub problem: Message,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.problem)
    }
}

impl std::error::Error for ParamError {}

impl ParamError {
    /// "field: problem", as a message.
    pub fn message(&self) -> Message {
        Message::new(MessageId::FieldProblem)
            .given("field", self.field.clone())
            .msg("problem", self.problem.clone())
    }

    /// `name` is none of `specs`.
    pub fn unknown(name: &str, specs: &'static [ParamSpec]) -> Self {
        Self {
            field: name.to_string(),
            problem: Message::new(MessageId::UnknownParam)
                .codes("known", specs.iter().map(|s| s.name).collect()),
        }
    }

    /// `name` starts with none of the policies' prefixes (`dotted`: each with its dot).
    pub fn unknown_policy_param(name: &str, dotted: Vec<&'static str>) -> Self {
        Self {
            field: name.to_string(),
            problem: Message::new(MessageId::UnknownPolicyParam).codes("prefixes", dotted),
        }
    }
}

/// A rule between two fields that does not hold: `field` must relate to `other` as `rule`
/// says, which is the same as `other` relating to `field` as `converse` says. Ranges are
/// checked one field at a time; rules like this one are checked once, on the whole set, so
/// the order in which the fields were given never matters.
#[derive(Clone, Debug, PartialEq)]
pub struct BrokenRule {
    pub field: &'static str,
    pub value: f64,
    pub other: &'static str,
    pub other_value: f64,
    /// How `field` must relate to `other` (a message taking `other` and `value`).
    pub rule: MessageId,
    /// How `other` must relate to `field`.
    pub converse: MessageId,
}

impl BrokenRule {
    /// The two fields of the rule.
    pub fn fields(&self) -> [&'static str; 2] {
        [self.field, self.other]
    }

    /// The error as seen from field `name` (one of the two): what it must be, given the
    /// other's value.
    pub fn blame(&self, name: &str) -> ParamError {
        let (field, id, other, value) = if name == self.other {
            (self.other, self.converse, self.field, self.value)
        } else {
            (self.field, self.rule, self.other, self.other_value)
        };
        ParamError {
            field: field.to_string(),
            problem: Message::new(id).code("other", other).num("value", value),
        }
    }

    /// The error blaming a field the person gave (`given` lists the names given, in any
    /// order): the rule's first field if it was given or neither was, else the other.
    pub fn blame_given(&self, given: &[&str]) -> ParamError {
        let named = |f: &str| given.contains(&f);
        if !named(self.field) && named(self.other) {
            self.blame(self.other)
        } else {
            self.blame(self.field)
        }
    }
}

pub use crate::decimal::{parse_number, parse_whole, NUMBER_CHARS};

impl ParamSpec {
    /// Checks `value` against the range (and integrality); the error names the field.
    pub fn check(&self, value: f64) -> Result<f64, ParamError> {
        let fits = value.is_finite()
            && value >= self.min
            && value <= self.max
            && (!self.integer || value.fract() == 0.0);
        if fits {
            Ok(value)
        } else {
            Err(ParamError {
                field: self.name.to_string(),
                problem: self.allowed(),
            })
        }
    }

    /// "must be" what the field allows.
    pub fn allowed(&self) -> Message {
        Message::new(MessageId::MustBe).msg("range", self.range())
    }

    /// What the field allows: its range, whether whole numbers only, its unit.
    pub fn range(&self) -> Message {
        let id = match (self.integer, self.unit.is_empty()) {
            (true, true) => MessageId::RangeWhole,
            (false, true) => MessageId::RangeNumber,
            (true, false) => MessageId::RangeWholeUnit,
            (false, false) => MessageId::RangeNumberUnit,
        };
        Message::new(id)
            .num("min", self.min)
            .num("max", self.max)
            .unit("unit", self.unit)
    }
}

/// A parameter's value type: whole numbers are integers, the rest `f64`. Specs and the text
/// interfaces (`--set`, links) speak `f64`; the struct keeps each value in its own type.
pub trait ParamValue: Copy {
    /// Whether only whole numbers are allowed.
    const INTEGER: bool;
    /// From a value already checked against its spec.
    fn from_checked(x: f64) -> Self;
    fn to_f64(self) -> f64;
}

impl ParamValue for f64 {
    const INTEGER: bool = false;
    fn from_checked(x: f64) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self
    }
}

impl ParamValue for u32 {
    const INTEGER: bool = true;
    fn from_checked(x: f64) -> Self {
        // Checked: a whole number within the spec's range, which fits a u32.
        x as u32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

ids! {
    /// Which service stage serves the ticks (parameter `engine`).
    #[derive(Default)]
    EngineKind, "engine" {
        /// The queueing formulas of the sources panel (the default).
        #[default]
        Formulas = "formulas",
        /// The request-level engine: every request simulated, the formulas beside it.
        Requests = "requests",
    }
}

ids! {
    /// How the request engine draws service times around the model's mean (parameter
    /// `service_shape`); the formulas keep the exponential of M/M/c either way.
    #[derive(Default)]
    ServiceDistribution, "service_shape" {
        /// Exponential: the formulas' own assumption (the default).
        #[default]
        Exponential = "exponential",
        /// Lognormal of shape `service_sigma` with the same mean: a heavier tail.
        Lognormal = "lognormal",
    }
}

ids! {
    /// A switch as `--set` and links spell it (`hedge`, `ordering_keys`,
    /// `outlier_detection`).
    #[derive(Default)]
    Switch, "switch" {
        On = "on",
        #[default]
        Off = "off",
    }
}

impl Switch {
    pub fn is_on(self) -> bool {
        self == Switch::On
    }
}

/// The choices among the model's parameters, as `--set` and links spell them.
pub const ENGINE_PARAM: &str = "engine";
pub const LB_PARAM: &str = "lb";
pub const HEDGE_PARAM: &str = "hedge";
pub const ORDERING_KEYS_PARAM: &str = "ordering_keys";
pub const OUTLIER_DETECTION_PARAM: &str = "outlier_detection";
pub const SERVICE_SHAPE_PARAM: &str = "service_shape";

/// The parameters only the extended models read (the request engine and the routed
/// formulas): the key space, the service-time shape, least request's settings and host
/// selection around health. The
/// console's first download leaves them out of its build (they cost bytes it has not got,
/// and change nothing it can run); it hands a link that sets any of them to the build that
/// has them.
pub const EXTENDED_PARAMS: &[&str] = &[
    "keys",
    "zipf",
    SERVICE_SHAPE_PARAM,
    "service_sigma",
    "choice_count",
    "active_request_bias",
    OUTLIER_DETECTION_PARAM,
    "consecutive_5xx",
    "base_ejection_time_s",
    "max_ejection_percent",
    "healthy_panic_threshold",
    "slow_start_window_s",
];

/// Worker slots of a simulated instance by default: the most requests it serves at once
/// (the node's concurrency, which the elastic scaler's per-node limits start from).
pub const DEFAULT_WORKERS_PER_INSTANCE: f64 = 16.0;

/// Declares the model's parameters, one row each: field, type, default, range and unit code.
/// The rows carry no product text; each field's doc points to the catalogs, where its doc is
/// keyed by the field's name. Two groups: `core`, in every build, and `extended`, the request
/// engine's and routed formulas' numbers, with `extended_choices` (its switches), which only
/// the extended build compiles: the macro gates each group once.
macro_rules! model_params {
    (
        core {
            $( $(#[$meta:meta])* $field:ident : $ty:ty = $default:expr, $min:expr, $max:expr, $unit:expr; )*
        }
        extended {
            $( $(#[$xmeta:meta])* $xfield:ident : $xty:ty = $xdefault:expr, $xmin:expr, $xmax:expr, $xunit:expr; )*
        }
        extended_choices {
            $( $(#[$cmeta:meta])* $cfield:ident : $cty:ty = $cdefault:expr; )*
        }
    ) => {
        /// Constants of the minute model (see [`ModelParams::SPECS`] for ranges).
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        pub struct ModelParams {
            $(
                #[doc = concat!("Parameter `", stringify!($field), "`; its doc is in the catalogs ([`crate::catalog::params_en`]).")]
                $(#[$meta])*
                pub $field: $ty,
            )*
            $(
                #[doc = concat!("Parameter `", stringify!($xfield), "` (extended build); its doc is in the catalogs ([`crate::catalog::params_en`]).")]
                $(#[$xmeta])*
                #[cfg(feature = "extended")]
                pub $xfield: $xty,
            )*
            /// How the error budget is spent (`budget_accounting`, `time` or `requests`): a
            /// choice rather than a number, so it has no [`ParamSpec`]; `--set` and links
            /// spell it as text ([`crate::setup::RunSetup::set`]).
            pub budget_accounting: BudgetAccounting,
            /// Which service stage serves the ticks (`engine`, `formulas` or `requests`);
            /// `None`: the scenario's.
            pub engine: Option<EngineKind>,
            /// The load-balancing policy of the request engine (`lb`); `None`: the
            /// scenario's.
            pub lb: Option<Routing>,
            /// Hedged requests (`hedge`, `on` or `off`); `None`: the scenario's.
            pub hedge: Option<Switch>,
            /// Whether requests carry ordering keys (`ordering_keys`, `on` or `off`): hedging
            /// cannot be combined with them.
            pub ordering_keys: Switch,
            $(
                $(#[$cmeta])*
                #[cfg(feature = "extended")]
                pub $cfield: $cty,
            )*
        }

        impl Default for ModelParams {
            fn default() -> Self {
                Self {
                    $( $(#[$meta])* $field: <$ty as ParamValue>::from_checked($default), )*
                    budget_accounting: BudgetAccounting::default(),
                    engine: None,
                    lb: None,
                    hedge: None,
                    ordering_keys: Switch::Off,
                    $( #[cfg(feature = "extended")] $xfield: <$xty as ParamValue>::from_checked($xdefault), )*
                    $( #[cfg(feature = "extended")] $cfield: $cdefault, )*
                }
            }
        }

        impl ModelParams {
            /// Every parameter with its default and allowed range.
            pub const SPECS: &'static [ParamSpec] = &[
                $( $(#[$meta])* ParamSpec { name: stringify!($field), default: $default, min: $min, max: $max, unit: $unit, integer: <$ty as ParamValue>::INTEGER }, )*
                $( #[cfg(feature = "extended")] ParamSpec { name: stringify!($xfield), default: $xdefault, min: $xmin, max: $xmax, unit: $xunit, integer: <$xty as ParamValue>::INTEGER }, )*
            ];

            /// Sets a parameter by name, checking its range.
            pub fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
                let spec = Self::spec(name)?;
                let value = spec.check(value)?;
                match name {
                    $( $(#[$meta])* stringify!($field) => self.$field = <$ty as ParamValue>::from_checked(value), )*
                    $( #[cfg(feature = "extended")] stringify!($xfield) => self.$xfield = <$xty as ParamValue>::from_checked(value), )*
                    _ => unreachable!("spec() accepted only known names"),
                }
                Ok(())
            }

            /// Reads a parameter by name.
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    $( $(#[$meta])* stringify!($field) => Some(ParamValue::to_f64(self.$field)), )*
                    $( #[cfg(feature = "extended")] stringify!($xfield) => Some(ParamValue::to_f64(self.$xfield)), )*
                    _ => None,
                }
            }
        }
    };
}

model_params! {
    core {
        workers_per_instance: u32 = DEFAULT_WORKERS_PER_INSTANCE, 1.0, 256.0, "workers";
        max_instances: u32 = 40.0, 1.0, 200.0, "instances";
        price_per_instance_hour: f64 = 0.40, 0.0, 100.0, "usd_per_hour";
        app_time_ms: f64 = 50.0, 1.0, 5000.0, "ms";
        heavy_feature_ms: f64 = 20.0, 0.0, 5000.0, "ms";
        queries_per_miss: f64 = 2.0, 0.0, 50.0, "queries";
        heavy_feature_queries: f64 = 1.0, 0.0, 50.0, "queries";
        db_capacity_qps: f64 = 4000.0, 1.0, 1_000_000.0, "queries_per_s";
        db_query_ms: f64 = 5.0, 0.1, 1000.0, "ms";
        db_query_cap_ms: f64 = 250.0, 1.0, 10_000.0, "ms";
        hot_objects: f64 = 20_000.0, 1.0, 1e9, "objects";
        refill_tau_min: f64 = 30.0, 0.1, 1440.0, "min";
        warmup_gain_per_min: f64 = 0.12, 0.0, 1.0, "share_of_cache";
        warmup_minutes: u32 = 6.0, 1.0, 60.0, "min";
        warmup_db_qps: f64 = 600.0, 0.0, 100_000.0, "queries_per_s";
        timeout_s: f64 = 2.0, 0.05, 60.0, "s";
        low_priority_share: f64 = 0.30, 0.0, 1.0, "share_of_traffic";
        bad_build_error_rate: f64 = 0.05, 0.0, 1.0, "share_of_requests";
        bad_build_cpu_factor: f64 = 1.25, 1.0, 10.0, "times";
        rollback_minutes: u32 = 5.0, 1.0, 60.0, "min";
        scale_in_max_share: f64 = 0.20, 0.01, 1.0, "share_of_fleet";
        scale_in_quiet_minutes: u32 = 10.0, 1.0, 120.0, "min";
        slo: f64 = 0.999, 0.9, 0.99999, "";
        diurnal_amplitude: f64 = 0.25, 0.0, 0.9, "";
        traffic_drift_cv: f64 = 0.02, 0.0, 0.5, "";
        hedge_delay_ms: f64 = crate::requests::hedging::DEFAULT_HEDGE_DELAY_MS, crate::requests::hedging::HEDGE_DELAY_RANGE_MS.0, crate::requests::hedging::HEDGE_DELAY_RANGE_MS.1, "ms";
        hedge_max_tokens: u32 = 50.0, 1.0, 250.0, "tokens";
        hedge_refill_ratio: f64 = 0.1, 0.001, 0.2, "tokens_per_success";
        total_timeout_s: f64 = 600.0, 0.1, 3600.0, "s";
        regions: u32 = 1.0, 1.0, 3.0, "";
        healthy_percent: u32 = 60.0, 0.0, 100.0, "percent";
        min_healthy: u32 = 1.0, 0.0, 1000.0, "instances";
        propagation_delay_s: u32 = 30.0, 0.0, 600.0, "s";
        cross_region_ms: f64 = 60.0, 0.0, 1000.0, "ms";
        db_replicas: u32 = 3.0, 1.0, 20.0, "";
    }
    // The extended build's parameters: the request engine's and the routed formulas'.
    extended {
        // Envoy's host selection around health in the request engine (outlier detection is
        // switched by `outlier_detection`; the defaults are Envoy's, beside the constants).
        consecutive_5xx: u32 = 5.0, 1.0, 100.0, "requests";
        base_ejection_time_s: u32 = 30.0, 1.0, 3600.0, "s";
        max_ejection_percent: u32 = 10.0, 0.0, 100.0, "percent";
        healthy_panic_threshold: f64 = crate::requests::health::DEFAULT_PANIC_THRESHOLD_PERCENT, 0.0, 100.0, "percent";
        slow_start_window_s: f64 = 0.0, 0.0, 3600.0, "s";
        // The request engine's key space, service-time shape and least request's settings (their
        // defaults and sources are in the catalogs' docs and beside the constants).
        keys: u32 = crate::requests::keys::DEFAULT_KEYS as f64, 1.0, crate::requests::keys::MAX_KEYS as f64, "keys";
        zipf: f64 = crate::requests::keys::DEFAULT_EXPONENT, 0.0, crate::requests::keys::MAX_EXPONENT, "";
        service_sigma: f64 = crate::requests::keys::DEFAULT_SIGMA, 0.0, crate::requests::keys::MAX_SIGMA, "";
        choice_count: u32 = crate::requests::DEFAULT_CHOICE_COUNT as f64, 2.0, crate::requests::MAX_CHOICE_COUNT as f64, "instances";
        active_request_bias: f64 = crate::requests::DEFAULT_ACTIVE_REQUEST_BIAS, 0.0, crate::requests::MAX_ACTIVE_REQUEST_BIAS, "";
    }
    extended_choices {
        /// Envoy's outlier detection in the request engine (`outlier_detection`, `on` or
        /// `off`; off by default, as a cluster without an `outlier_detection` block).
        outlier_detection: Switch = Switch::Off;
        /// How the request engine draws service times (`service_shape`, `exponential` or
        /// `lognormal`).
        service_shape: ServiceDistribution = ServiceDistribution::Exponential;
    }
}

impl ModelParams {
    /// The spec of a parameter, or an error listing the known names.
    pub fn spec(name: &str) -> Result<&'static ParamSpec, ParamError> {
        Self::SPECS
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| ParamError::unknown(name, Self::SPECS))
    }

    /// Checks every field (useful after deserializing).
    pub fn validate(&self) -> Result<(), ParamError> {
        for spec in Self::SPECS {
            spec.check(self.get(spec.name).unwrap_or(f64::NAN))?;
        }
        Ok(())
    }

    pub fn workers(&self) -> u32 {
        self.workers_per_instance
    }

    pub fn max_fleet(&self) -> u32 {
        self.max_instances
    }

    /// The hedging these parameters configure (whether it is on is the run's setting).
    pub fn hedging(&self) -> crate::requests::Hedging {
        crate::requests::Hedging {
            delay_s: crate::requests::hedging::delay_seconds(self.hedge_delay_ms),
            max_tokens: self.hedge_max_tokens,
            refill_ratio: self.hedge_refill_ratio,
            initial_tokens: None,
            total_timeout_s: Some(self.total_timeout_s),
        }
    }

    /// The rule of the source (seed 002): the hedge delay must be below the request timeout
    /// and the total timeout, and hedging cannot be combined with ordering keys. Checked
    /// when hedging is on.
    pub fn hedging_rule(&self) -> Result<(), ParamError> {
        use crate::requests::hedging::{delay_below_timeouts, delay_seconds};
        if !delay_below_timeouts(
            delay_seconds(self.hedge_delay_ms),
            self.timeout_s,
            self.total_timeout_s,
        ) {
            return Err(ParamError {
                field: "hedge_delay_ms".into(),
                problem: Message::new(MessageId::HedgeDelayNotBelowTimeouts)
                    .num("delay_ms", self.hedge_delay_ms)
                    .num("timeout_s", self.timeout_s)
                    .num("total_timeout_s", self.total_timeout_s),
            });
        }
        if self.ordering_keys.is_on() {
            return Err(ParamError {
                field: HEDGE_PARAM.into(),
                problem: Message::new(MessageId::HedgeWithOrderingKeys),
            });
        }
        Ok(())
    }
}

pub const CALIBRATION: Relation = Relation {
    id: RelationId::Calibration,
    symbols: &[],
    citations: &[THIS_MODEL],
    assumption: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_within_their_ranges() {
        ModelParams::default().validate().unwrap();
    }

    #[test]
    fn set_names_the_field_and_range() {
        let mut p = ModelParams::default();
        let err = p.set("workers_per_instance", 0.5).unwrap_err();
        assert_eq!(err.field, "workers_per_instance");
        let text = err.problem.to_string();
        assert!(text.contains("1 to 256"), "{text}");
        assert!(p
            .set("nope", 1.0)
            .unwrap_err()
            .to_string()
            .contains("known"));
        p.set("timeout_s", 3.0).unwrap();
        assert_eq!(p.timeout_s, 3.0);
    }
}
