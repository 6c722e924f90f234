//! Which metrics the table shows, in which order, and how each value is written.
//!
//! The numbers come from the core's [`MinuteRecord`]; this module only chooses a unit, a
//! precision (written by [`crate::format`]) and a [`Level`] (normal, watch, critical) from
//! display thresholds. Each row is keyed by the record's field name, which the page exposes as
//! `data-metric` so tests (and trainers' scripts) can find a row whatever its label says.

use oncall_sim::MinuteRecord;

pub use crate::format::{format_value, Format, Value};
use crate::i18n::{t, Msg};

/// How alarming a value is. Shown by colour and by a word, never by colour alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    #[default]
    Normal,
    /// Worth watching: the service is off its normal state.
    Warning,
    /// Acting is urgent: the page fires, the budget is gone, requests time out.
    Critical,
}

impl Level {
    /// The CSS class and `data-level` value.
    pub fn class(self) -> &'static str {
        match self {
            Level::Normal => "normal",
            Level::Warning => "warning",
            Level::Critical => "critical",
        }
    }

    /// The word shown next to the value (empty when normal).
    pub fn cue(self) -> &'static str {
        match self {
            Level::Normal => "",
            Level::Warning => t(Msg::LevelWarning),
            Level::Critical => t(Msg::LevelCritical),
        }
    }
}

/// The limits the thresholds derive from: the run's model parameters, not numbers of the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Availability objective, e.g. 0.999.
    pub slo: f64,
    /// Request timeout, ms.
    pub timeout_ms: f64,
    /// Burn rate at which the page fires.
    pub page_burn: f64,
}

impl Limits {
    /// The limits of a run with these model parameters.
    pub fn of(params: &oncall_sim::ModelParams) -> Self {
        Self {
            slo: params.slo,
            timeout_ms: params.timeout_s * 1000.0,
            page_burn: oncall_sim::budget::PAGE_BURN,
        }
    }

    /// Error rate the month's budget sustains (burn 1×).
    fn budget_rate(&self) -> f64 {
        1.0 - self.slo
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::of(&oncall_sim::ModelParams::default())
    }
}

/// Which way a metric gets worse, and where.
#[derive(Clone, Copy, Debug)]
pub enum Threshold {
    /// Never alarming (counts, costs).
    None,
    /// Worse when higher: watch at `.0`, critical at `.1`.
    Above(fn(&Limits) -> (f64, f64)),
    /// Worse when lower: watch below `.0`, critical below `.1`.
    Below(fn(&Limits) -> (f64, f64)),
    /// A raised flag is critical.
    Flag,
}

/// One row of the metrics table.
#[derive(Clone, Copy, Debug)]
pub struct MetricSpec {
    /// The `MinuteRecord` field this row shows (also its `data-metric` attribute).
    pub field: &'static str,
    pub label: Msg,
    pub format: Format,
    pub read: fn(&MinuteRecord) -> Value,
    pub threshold: Threshold,
}

impl MetricSpec {
    /// The row's value in `record`, written for a person.
    pub fn display(&self, record: &MinuteRecord) -> String {
        format_value(self.format, (self.read)(record))
    }

    /// How alarming the row's value is.
    pub fn level(&self, record: &MinuteRecord, limits: &Limits) -> Level {
        let value = (self.read)(record);
        match (self.threshold, value) {
            (Threshold::Flag, Value::Flag(true)) => Level::Critical,
            (Threshold::Above(f), Value::Number(x)) => {
                let (watch, critical) = f(limits);
                if x >= critical {
                    Level::Critical
                } else if x > watch {
                    Level::Warning
                } else {
                    Level::Normal
                }
            }
            (Threshold::Below(f), Value::Number(x)) => {
                let (watch, critical) = f(limits);
                if x < critical {
                    Level::Critical
                } else if x < watch {
                    Level::Warning
                } else {
                    Level::Normal
                }
            }
            _ => Level::Normal,
        }
    }
}

macro_rules! metric {
    ($field:ident, $label:ident, $format:expr, number, $threshold:expr) => {
        MetricSpec {
            field: stringify!($field),
            label: Msg::$label,
            format: $format,
            read: |r| Value::Number(f64::from(r.$field)),
            threshold: $threshold,
        }
    };
    ($field:ident, $label:ident, $format:expr, flag) => {
        MetricSpec {
            field: stringify!($field),
            label: Msg::$label,
            format: $format,
            read: |r| Value::Flag(r.$field),
            threshold: Threshold::Flag,
        }
    };
}

use Threshold::{Above, Below};

/// The rows of the metrics table: the source's opening table, with what an on-call engineer
/// also watches (error budget, errors, timeouts, p99) next to the burn rate.
pub const METRICS: &[MetricSpec] = &[
    metric!(
        burn_rate_1h,
        MetricBurnRate1h,
        Format::Burn { decimals: 1 },
        number,
        Above(|l| (1.0, l.page_burn))
    ),
    metric!(paging, MetricPaging, Format::YesNo, flag),
    metric!(
        budget_left,
        MetricBudgetLeft,
        Format::Percent { decimals: 1 },
        number,
        Below(|_| (0.25, 0.0))
    ),
    metric!(
        error_rate,
        MetricErrorRate,
        Format::Percent { decimals: 3 },
        number,
        Above(|l| (l.budget_rate(), l.budget_rate() * l.page_burn))
    ),
    metric!(
        timeout_share,
        MetricTimeouts,
        Format::Percent { decimals: 3 },
        number,
        Above(|l| (l.budget_rate(), l.budget_rate() * l.page_burn))
    ),
    metric!(
        p99_ms,
        MetricP99,
        Format::Milliseconds,
        number,
        Above(|l| (l.timeout_ms * 0.25, l.timeout_ms))
    ),
    metric!(
        requests_per_s,
        MetricRequests,
        Format::ReqPerS,
        number,
        Threshold::None
    ),
    metric!(
        serving,
        MetricServing,
        Format::Count,
        number,
        Threshold::None
    ),
    metric!(
        booting,
        MetricBooting,
        Format::Count,
        number,
        Threshold::None
    ),
    metric!(
        utilization,
        MetricUtilization,
        Format::Percent { decimals: 0 },
        number,
        Above(|_| (0.8, 0.95))
    ),
    metric!(
        cache_hit,
        MetricCacheHit,
        Format::Percent { decimals: 0 },
        number,
        Below(|_| (0.6, 0.3))
    ),
    metric!(
        db_utilization,
        MetricDbUtilization,
        Format::Percent { decimals: 0 },
        number,
        Above(|_| (0.8, 1.0))
    ),
    metric!(
        shed_share,
        MetricShed,
        Format::Percent { decimals: 0 },
        number,
        Above(|_| (0.0, f64::INFINITY))
    ),
    metric!(
        fleet_cost_per_hour,
        MetricFleetCost,
        Format::DollarsPerHour,
        number,
        Threshold::None
    ),
    metric!(
        cost_so_far,
        MetricCostSoFar,
        Format::Dollars,
        number,
        Threshold::None
    ),
    metric!(
        cache_age_s,
        MetricCacheAge,
        Format::Seconds,
        number,
        Threshold::None
    ),
    // What a dashboard knows of a deploy: the build's number and how far it has rolled out,
    // not whether it is bad.
    metric!(build, MetricBuild, Format::Count, number, Threshold::None),
    metric!(
        build_share,
        MetricBuildShare,
        Format::Percent { decimals: 0 },
        number,
        Threshold::None
    ),
    metric!(
        feature_available,
        MetricFeatureAvailable,
        Format::Percent { decimals: 0 },
        number,
        Below(|_| (1.0, f64::NEG_INFINITY))
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use oncall_sim::{ModelParams, Simulation};

    fn opening_record() -> MinuteRecord {
        let free_play =
            oncall_sim::exercise::scenario_by_id("free-play").expect("free play exists");
        let mut sim = Simulation::new(&free_play, 42, ModelParams::default());
        sim.step().clone()
    }

    fn shown(record: &MinuteRecord, field: &str) -> String {
        METRICS
            .iter()
            .find(|m| m.field == field)
            .unwrap_or_else(|| panic!("no row for {field}"))
            .display(record)
    }

    #[test]
    fn field_names_are_unique() {
        let mut fields: Vec<_> = METRICS.iter().map(|m| m.field).collect();
        fields.sort_unstable();
        fields.dedup();
        assert_eq!(fields.len(), METRICS.len());
    }

    #[test]
    fn field_names_match_the_records_json() {
        // The `data-metric` keys must be the names a JSON export uses.
        let json = serde_json::to_value(opening_record()).expect("record serializes");
        for m in METRICS {
            assert!(
                json.get(m.field).is_some(),
                "{} is not a record field",
                m.field
            );
        }
    }

    #[test]
    fn opening_free_play_reads_like_the_source_table() {
        let r = opening_record();
        assert_eq!(shown(&r, "serving"), "10");
        assert_eq!(shown(&r, "booting"), "0");
        assert_eq!(shown(&r, "fleet_cost_per_hour"), "4.00 $/h");
        assert_eq!(shown(&r, "cost_so_far"), "0.00 $");
        assert_eq!(shown(&r, "shed_share"), "0 %");
        assert_eq!(shown(&r, "feature_available"), "100 %");
        assert_eq!(shown(&r, "paging"), "no");
        let requests = shown(&r, "requests_per_s");
        assert!(requests.ends_with(" req/s"), "{requests}");
    }

    #[test]
    fn values_are_written_with_their_units() {
        assert_eq!(
            format_value(Format::Burn { decimals: 1 }, Value::Number(14.44)),
            "14.4×"
        );
        assert_eq!(
            format_value(Format::ReqPerS, Value::Number(1124.6)),
            "1125 req/s"
        );
        assert_eq!(
            format_value(Format::Percent { decimals: 0 }, Value::Number(0.77)),
            "77 %"
        );
        assert_eq!(
            format_value(Format::Percent { decimals: 3 }, Value::Number(0.00031)),
            "0.031 %"
        );
        assert_eq!(
            format_value(Format::Milliseconds, Value::Number(87.4)),
            "87 ms"
        );
        assert_eq!(format_value(Format::Seconds, Value::Number(30.0)), "30 s");
        assert_eq!(format_value(Format::YesNo, Value::Flag(true)), "yes");
    }

    #[test]
    fn negative_zero_and_non_finite_values_are_written_sensibly() {
        assert_eq!(
            format_value(Format::Dollars, Value::Number(-0.001)),
            "0.00 $"
        );
        assert_eq!(
            format_value(Format::Percent { decimals: 1 }, Value::Number(-0.5)),
            "-50.0 %"
        );
        assert_eq!(format_value(Format::Count, Value::Number(f64::NAN)), "—");
        assert_eq!(
            format_value(Format::Count, Value::Number(f64::INFINITY)),
            "—"
        );
    }

    fn spec(field: &str) -> &'static MetricSpec {
        METRICS.iter().find(|m| m.field == field).expect("a row")
    }

    #[test]
    fn levels_follow_the_slo_the_timeout_and_the_page_threshold() {
        let limits = Limits::default();
        let mut r = opening_record();
        for m in METRICS {
            assert_eq!(
                m.level(&r, &limits),
                Level::Normal,
                "{} at the opening",
                m.field
            );
        }
        r.burn_rate_1h = 2.0;
        assert_eq!(spec("burn_rate_1h").level(&r, &limits), Level::Warning);
        r.burn_rate_1h = 14.4;
        assert_eq!(spec("burn_rate_1h").level(&r, &limits), Level::Critical);
        r.paging = true;
        assert_eq!(spec("paging").level(&r, &limits), Level::Critical);
        r.error_rate = 0.002;
        assert_eq!(spec("error_rate").level(&r, &limits), Level::Warning);
        r.error_rate = 0.05;
        assert_eq!(spec("error_rate").level(&r, &limits), Level::Critical);
        r.p99_ms = 2000.0;
        assert_eq!(spec("p99_ms").level(&r, &limits), Level::Critical);
        r.budget_left = 0.2;
        assert_eq!(spec("budget_left").level(&r, &limits), Level::Warning);
        r.budget_left = -0.01;
        assert_eq!(spec("budget_left").level(&r, &limits), Level::Critical);
        r.cache_hit = 0.1;
        assert_eq!(spec("cache_hit").level(&r, &limits), Level::Critical);
        r.shed_share = 0.09;
        assert_eq!(spec("shed_share").level(&r, &limits), Level::Warning);
        r.feature_available = 0.0;
        assert_eq!(spec("feature_available").level(&r, &limits), Level::Warning);
        assert_eq!(Level::Critical.cue(), "critical");
        assert_eq!(Level::Normal.cue(), "");
    }

    #[test]
    fn a_longer_timeout_moves_the_latency_thresholds() {
        let params = oncall_sim::ModelParams {
            timeout_s: 4.0,
            ..Default::default()
        };
        let limits = Limits::of(&params);
        let mut r = opening_record();
        r.p99_ms = 2000.0;
        assert_eq!(spec("p99_ms").level(&r, &limits), Level::Warning);
    }
}
