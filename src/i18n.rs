//! The message catalog: every piece of text the page shows a person comes from here.
//!
//! Components name a [`Msg`] and never spell text themselves, so adding a language means adding
//! one table below (the product is to speak Spanish, Chinese, Italian and Malayalam as well).
//! Messages with parameters use `{name}` placeholders, filled by [`fill`].

/// A language the page can speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Locale {
    /// English, the default and, for now, the only complete catalog.
    #[default]
    En,
}

impl Locale {
    /// The BCP 47 tag, for the document's `lang` attribute.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
        }
    }
}

/// The key of one message in the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Msg {
    AppTitle,
    AppTagline,
    ScenarioFreePlay,
    SeedLabel,
    ScenarioLabel,
    ClockLabel,
    MinuteLabel,
    MetricsHeading,
    MetricsCaption,
    MetricColumn,
    ValueColumn,
    AssumptionsNote,
    /// Placeholders: `{param}` (the URL parameter's name), `{allowed}` (what it may be),
    /// `{fallback}` (what is used instead).
    InvalidUrlParam,
    SeedAllowed,
    SeedFallbackRandom,
    ScenarioMissing,

    MetricBurnRate1h,
    MetricRequests,
    MetricServing,
    MetricBooting,
    MetricUtilization,
    MetricCacheHit,
    MetricDbUtilization,
    MetricShed,
    MetricErrorRate,
    MetricTimeouts,
    MetricP99,
    MetricBudgetLeft,
    MetricFleetCost,
    MetricCostSoFar,
    MetricCacheAge,
    MetricBadBuild,
    MetricFeatureAvailable,
    MetricPaging,

    /// Placeholder `{value}` in all unit formats.
    UnitBurn,
    UnitReqPerS,
    UnitPercent,
    UnitDollarsPerHour,
    UnitDollars,
    UnitSeconds,
    UnitMilliseconds,
    Count,
    Yes,
    No,
    /// Shown in place of a value that cannot be computed.
    NotAvailable,
}

/// The English text of a message.
fn en(msg: Msg) -> &'static str {
    match msg {
        Msg::AppTitle => "On-call simulator",
        Msg::AppTagline => {
            "You are on call for a web service. Each second is one simulated minute."
        }
        Msg::ScenarioFreePlay => "Free play",
        Msg::SeedLabel => "Seed",
        Msg::ScenarioLabel => "Scenario",
        Msg::ClockLabel => "Time of day",
        Msg::MinuteLabel => "Minute",
        Msg::MetricsHeading => "Metrics",
        Msg::MetricsCaption => "Values for the current simulated minute",
        Msg::MetricColumn => "Metric",
        Msg::ValueColumn => "Value",
        Msg::AssumptionsNote => {
            "An educational model: its constants are example calibrations for a mid-size web \
             service, not measurements. Real sites calibrate every constant to their own data."
        }
        Msg::InvalidUrlParam => {
            "The link's “{param}” parameter is not valid: it must be {allowed}. {fallback}"
        }
        Msg::SeedAllowed => "an integer from 0 to 4294967295",
        Msg::SeedFallbackRandom => "A random seed is used instead.",
        Msg::ScenarioMissing => "The free-play scenario is not available in this build.",

        Msg::MetricBurnRate1h => "Burn rate (1 h)",
        Msg::MetricRequests => "Requests",
        Msg::MetricServing => "Serving instances",
        Msg::MetricBooting => "Booting instances",
        Msg::MetricUtilization => "Worker utilization",
        Msg::MetricCacheHit => "Cache hit rate",
        Msg::MetricDbUtilization => "Database utilization",
        Msg::MetricShed => "Shed traffic",
        Msg::MetricErrorRate => "Error rate",
        Msg::MetricTimeouts => "Timeouts",
        Msg::MetricP99 => "Latency p99",
        Msg::MetricBudgetLeft => "Error budget left",
        Msg::MetricFleetCost => "Fleet cost",
        Msg::MetricCostSoFar => "Cost so far",
        Msg::MetricCacheAge => "Mean age of cached answers",
        Msg::MetricBadBuild => "Traffic on the bad build",
        Msg::MetricFeatureAvailable => "Recommendations available",
        Msg::MetricPaging => "Paging",

        Msg::UnitBurn => "{value}×",
        Msg::UnitReqPerS => "{value} req/s",
        Msg::UnitPercent => "{value} %",
        Msg::UnitDollarsPerHour => "{value} $/h",
        Msg::UnitDollars => "{value} $",
        Msg::UnitSeconds => "{value} s",
        Msg::UnitMilliseconds => "{value} ms",
        Msg::Count => "{value}",
        Msg::Yes => "yes",
        Msg::No => "no",
        Msg::NotAvailable => "—",
    }
}

/// The catalog key of a scenario's title, by the core's scenario id.
pub fn scenario_title(id: &str) -> Option<Msg> {
    match id {
        "free-play" => Some(Msg::ScenarioFreePlay),
        _ => None,
    }
}

/// The text of a message in a language.
pub fn text(locale: Locale, msg: Msg) -> &'static str {
    match locale {
        Locale::En => en(msg),
    }
}

/// The text of a message in the page's language.
pub fn t(msg: Msg) -> &'static str {
    text(Locale::default(), msg)
}

/// Replaces each `{name}` placeholder in `template` with its value. Unknown placeholders stay as
/// they are, so a missing argument shows up on screen instead of silently vanishing.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// A message with its placeholders filled, in the page's language.
pub fn tf(msg: Msg, args: &[(&str, &str)]) -> String {
    fill(t(msg), args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_every_named_placeholder() {
        assert_eq!(
            fill("{a} and {b}, {a}", &[("a", "x"), ("b", "y")]),
            "x and y, x"
        );
    }

    #[test]
    fn fill_keeps_unknown_placeholders_visible() {
        assert_eq!(fill("{value} s", &[]), "{value} s");
    }

    #[test]
    fn invalid_seed_notice_names_the_parameter_and_the_range() {
        let notice = tf(
            Msg::InvalidUrlParam,
            &[
                ("param", "seed"),
                ("allowed", t(Msg::SeedAllowed)),
                ("fallback", t(Msg::SeedFallbackRandom)),
            ],
        );
        assert!(notice.contains("“seed”"));
        assert!(notice.contains("0 to 4294967295"));
        assert!(!notice.contains('{'));
    }

    #[test]
    fn english_units_carry_a_value_placeholder() {
        for msg in [
            Msg::UnitBurn,
            Msg::UnitReqPerS,
            Msg::UnitPercent,
            Msg::UnitDollarsPerHour,
            Msg::UnitDollars,
            Msg::UnitSeconds,
            Msg::UnitMilliseconds,
            Msg::Count,
        ] {
            assert!(t(msg).contains("{value}"), "{msg:?}");
        }
    }
}
