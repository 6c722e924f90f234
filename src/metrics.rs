//! Which metrics the table shows, in which order, and how each value is written.
//!
//! The numbers come from the core's [`MinuteRecord`]; this module only chooses a unit and a
//! precision. Each row is keyed by the record's field name, which the page exposes as
//! `data-metric` so tests (and trainers' scripts) can find a row whatever its label says.

use oncall_sim::MinuteRecord;

use crate::i18n::{t, tf, Msg};

/// How a value is written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Format {
    /// A multiple, e.g. a burn rate: "2.4×".
    Burn {
        decimals: usize,
    },
    /// Requests per second.
    ReqPerS,
    /// A whole number of things.
    Count,
    /// A fraction 0–1 written as a percentage.
    Percent {
        decimals: usize,
    },
    Milliseconds,
    Seconds,
    DollarsPerHour,
    Dollars,
    YesNo,
}

/// A value read from a record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Number(f64),
    Flag(bool),
}

/// One row of the metrics table.
#[derive(Clone, Copy, Debug)]
pub struct MetricSpec {
    /// The `MinuteRecord` field this row shows (also its `data-metric` attribute).
    pub field: &'static str,
    pub label: Msg,
    pub format: Format,
    pub read: fn(&MinuteRecord) -> Value,
}

impl MetricSpec {
    /// The row's value in `record`, written for a person.
    pub fn display(&self, record: &MinuteRecord) -> String {
        format_value(self.format, (self.read)(record))
    }
}

macro_rules! metric {
    ($field:ident, $label:ident, $format:expr, number) => {
        MetricSpec {
            field: stringify!($field),
            label: Msg::$label,
            format: $format,
            read: |r| Value::Number(f64::from(r.$field)),
        }
    };
    ($field:ident, $label:ident, $format:expr, flag) => {
        MetricSpec {
            field: stringify!($field),
            label: Msg::$label,
            format: $format,
            read: |r| Value::Flag(r.$field),
        }
    };
}

/// The rows of the metrics table: the source's opening table, with what an on-call engineer
/// also watches (error budget, errors, timeouts, p99) next to the burn rate.
pub const METRICS: &[MetricSpec] = &[
    metric!(
        burn_rate_1h,
        MetricBurnRate1h,
        Format::Burn { decimals: 1 },
        number
    ),
    metric!(paging, MetricPaging, Format::YesNo, flag),
    metric!(
        budget_left,
        MetricBudgetLeft,
        Format::Percent { decimals: 1 },
        number
    ),
    metric!(
        error_rate,
        MetricErrorRate,
        Format::Percent { decimals: 3 },
        number
    ),
    metric!(
        timeout_share,
        MetricTimeouts,
        Format::Percent { decimals: 3 },
        number
    ),
    metric!(p99_ms, MetricP99, Format::Milliseconds, number),
    metric!(requests_per_s, MetricRequests, Format::ReqPerS, number),
    metric!(serving, MetricServing, Format::Count, number),
    metric!(booting, MetricBooting, Format::Count, number),
    metric!(
        utilization,
        MetricUtilization,
        Format::Percent { decimals: 0 },
        number
    ),
    metric!(
        cache_hit,
        MetricCacheHit,
        Format::Percent { decimals: 0 },
        number
    ),
    metric!(
        db_utilization,
        MetricDbUtilization,
        Format::Percent { decimals: 0 },
        number
    ),
    metric!(
        shed_share,
        MetricShed,
        Format::Percent { decimals: 0 },
        number
    ),
    metric!(
        fleet_cost_per_hour,
        MetricFleetCost,
        Format::DollarsPerHour,
        number
    ),
    metric!(cost_so_far, MetricCostSoFar, Format::Dollars, number),
    metric!(cache_age_s, MetricCacheAge, Format::Seconds, number),
    metric!(
        bad_build_share,
        MetricBadBuild,
        Format::Percent { decimals: 0 },
        number
    ),
    metric!(
        feature_available,
        MetricFeatureAvailable,
        Format::Percent { decimals: 0 },
        number
    ),
];

/// Writes `value` with `decimals` digits after the point; never "-0" and never "NaN".
fn fixed(value: f64, decimals: usize) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    let text = format!("{value:.decimals$}");
    // A tiny negative value rounds to "-0.00": show it as zero.
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => Some(rest.to_owned()),
        _ => Some(text),
    }
}

/// A value written for a person, in the page's language.
pub fn format_value(format: Format, value: Value) -> String {
    let number = match value {
        Value::Flag(flag) => return t(if flag { Msg::Yes } else { Msg::No }).to_owned(),
        Value::Number(number) => number,
    };
    let (unit, scaled, decimals) = match format {
        Format::Burn { decimals } => (Msg::UnitBurn, number, decimals),
        Format::ReqPerS => (Msg::UnitReqPerS, number, 0),
        Format::Count => (Msg::Count, number, 0),
        Format::Percent { decimals } => (Msg::UnitPercent, number * 100.0, decimals),
        Format::Milliseconds => (Msg::UnitMilliseconds, number, 0),
        Format::Seconds => (Msg::UnitSeconds, number, 0),
        Format::DollarsPerHour => (Msg::UnitDollarsPerHour, number, 2),
        Format::Dollars => (Msg::UnitDollars, number, 2),
        Format::YesNo => return t(if number != 0.0 { Msg::Yes } else { Msg::No }).to_owned(),
    };
    match fixed(scaled, decimals) {
        Some(text) => tf(unit, &[("value", &text)]),
        None => t(Msg::NotAvailable).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oncall_sim::{scenario, ModelParams, Simulation};

    fn opening_record() -> MinuteRecord {
        let free_play = scenario::by_id("free-play").expect("free play exists");
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
}
