//! The page's one number formatter: every number a person reads (the metrics table, the status
//! strip, the chart axes, the events, the debrief, the policy parameters) is written here.
//!
//! Each function takes the [`Locale`]: how a number is written (decimal separator, minus sign)
//! comes from [`NumberStyle::of`], and where the unit goes comes from the message catalog's unit
//! templates ([`Msg::UnitPercent`]: `"{value} %"`), so a language changes both without touching
//! a component. The functions without a locale argument ([`format_value`]) use the page's.
//!
//! Values that are not finite are never written as "NaN" or "inf": they read as
//! [`Msg::NotAvailable`]. A value that rounds to zero is never written "-0".

use crate::i18n::{fill, plural_category, text, Locale, Msg, PluralCategory};

/// How a locale writes a number. Thousands are grouped only by the formats of large totals
/// ([`Format::Requests`], [`Format::InstanceMinutes`]): the console's other numbers are short
/// and the same figure must read the same in a table cell and on a narrow axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberStyle {
    /// Between the whole part and the decimals.
    pub decimal: char,
    /// Before a negative number.
    pub minus: char,
    /// Between groups of digits of a large total.
    pub group: char,
    /// The fewest digits a total has before it is grouped at all (CLDR's minimum grouping
    /// digits: Spanish and Italian write 4000 but 40.000).
    pub min_grouped: usize,
    /// Groups of two above the first thousand (Malayalam, as India writes: 8,11,405).
    pub lakh: bool,
}

impl NumberStyle {
    /// How numbers are written in `locale`: CLDR's symbols and grouping for each language
    /// (the end-to-end tests compare them with the browser's `Intl.NumberFormat`).
    pub const fn of(locale: Locale) -> Self {
        const POINT: NumberStyle = NumberStyle {
            decimal: '.',
            minus: '-',
            group: ',',
            min_grouped: 4,
            lakh: false,
        };
        // The first build speaks English only.
        #[cfg(not(feature = "languages"))]
        let _ = locale;
        #[cfg(not(feature = "languages"))]
        return POINT;
        #[cfg(feature = "languages")]
        match locale {
            Locale::Es => NumberStyle {
                decimal: locale.decimal(),
                group: '.',
                min_grouped: 5,
                ..POINT
            },
            Locale::It => NumberStyle {
                decimal: locale.decimal(),
                group: '.',
                min_grouped: 5,
                ..POINT
            },
            Locale::Ml => NumberStyle {
                lakh: true,
                ..POINT
            },
            _ => POINT,
        }
    }
}

/// How a value is written: a unit and a precision.
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
    /// A total of requests, thousands grouped: "811,405 requests".
    Requests,
    /// A total of instance-minutes, thousands grouped: "12,340 instance-min".
    InstanceMinutes,
    /// A number of instances: "1 instance", "12 instances".
    Instances,
    /// A number of scaling decisions: "1 decision", "13 decisions".
    Decisions,
    /// A fraction 0–1 written as a percentage.
    Percent {
        decimals: usize,
    },
    Milliseconds,
    Seconds,
    Minutes,
    DollarsPerHour,
    Dollars,
    YesNo,
}

/// A value to write.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Number(f64),
    Flag(bool),
}

/// `value` with exactly `decimals` digits after the separator; `None` when it is not finite.
pub fn fixed(locale: Locale, value: f64, decimals: usize) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    let text = format!("{value:.decimals$}");
    // A tiny negative value rounds to "-0.00": written as zero.
    let text = match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest,
        _ => text.as_str(),
    };
    Some(localize(locale, text))
}

/// Rewrites a number written by Rust ('.' and '-') in the locale's style.
fn localize(locale: Locale, text: &str) -> String {
    let style = NumberStyle::of(locale);
    text.chars()
        .map(|c| match c {
            '.' => style.decimal,
            '-' => style.minus,
            c => c,
        })
        .collect()
}

/// `value` rounded to `decimals` inside the unit template `unit` ("{value} ms"), or the
/// catalog's "not available" for a value that is not finite.
pub fn with_unit(locale: Locale, unit: Msg, value: f64, decimals: usize) -> String {
    match fixed(locale, value, decimals) {
        Some(number) => fill(text(locale, unit), &[("value", &number)]),
        None => text(locale, Msg::NotAvailable).to_owned(),
    }
}

/// A whole number with its digits grouped by three in `locale`'s style ("811,405"), or
/// `None` when it is not finite.
pub fn grouped(locale: Locale, value: f64) -> Option<String> {
    let text = fixed(locale, value.round(), 0)?;
    let style = NumberStyle::of(locale);
    let (sign, digits) = match text.strip_prefix(style.minus) {
        Some(rest) => (Some(style.minus), rest),
        None => (None, text.as_str()),
    };
    let mut out: String = sign.into_iter().collect();
    let len = digits.len();
    let grouped = len >= style.min_grouped;
    for (i, digit) in digits.chars().enumerate() {
        let left = len - i;
        let boundary = if style.lakh && left > 3 {
            (left - 3) % 2 == 0
        } else {
            left % 3 == 0
        };
        if grouped && i > 0 && boundary {
            out.push(style.group);
        }
        out.push(digit);
    }
    Some(out)
}

/// A large total in the unit template `unit`, grouped by thousands.
fn total(locale: Locale, unit: Msg, value: f64) -> String {
    match grouped(locale, value) {
        Some(number) => fill(text(locale, unit), &[("value", &number)]),
        None => text(locale, Msg::NotAvailable).to_owned(),
    }
}

/// A value written for a person in `locale`.
pub fn value(locale: Locale, format: Format, value: Value) -> String {
    let number = match value {
        Value::Flag(flag) => return yes_no(locale, flag),
        Value::Number(number) => number,
    };
    let (unit, scaled, decimals) = match format {
        Format::Requests => return total(locale, Msg::UnitRequests, number),
        Format::InstanceMinutes => return total(locale, Msg::UnitInstanceMinutes, number),
        Format::Instances | Format::Decisions => {
            // The language's plural rule, for the whole number shown.
            let shown = number.round();
            let one = shown >= 0.0
                && shown < u64::MAX as f64
                && plural_category(locale, shown as u64) == PluralCategory::One;
            let unit = match (format, one) {
                (Format::Instances, true) => Msg::InstancesOne,
                (Format::Instances, false) => Msg::InstancesOther,
                (_, true) => Msg::DecisionsOne,
                (_, false) => Msg::DecisionsOther,
            };
            (unit, number, 0)
        }
        Format::Burn { decimals } => (Msg::UnitBurn, number, decimals),
        Format::ReqPerS => (Msg::UnitReqPerS, number, 0),
        Format::Count => (Msg::Count, number, 0),
        Format::Percent { decimals } => (Msg::UnitPercent, number * 100.0, decimals),
        Format::Milliseconds => (Msg::UnitMilliseconds, number, 0),
        Format::Seconds => (Msg::UnitSeconds, number, 0),
        Format::Minutes => (Msg::UnitMinutes, number, 0),
        Format::DollarsPerHour => (Msg::UnitDollarsPerHour, number, 2),
        Format::Dollars => (Msg::UnitDollars, number, 2),
        Format::YesNo => return yes_no(locale, number != 0.0),
    };
    with_unit(locale, unit, scaled, decimals)
}

/// A value written for a person in the page's language.
pub fn format_value(format: Format, v: Value) -> String {
    value(Locale::page(), format, v)
}

/// A number in the page's language with `format`'s unit and precision.
pub fn number(format: Format, x: f64) -> String {
    format_value(format, Value::Number(x))
}

fn yes_no(locale: Locale, flag: bool) -> String {
    text(locale, if flag { Msg::Yes } else { Msg::No }).to_owned()
}

/// What a chart axis measures; its labels are shorter than the table's values (whole numbers
/// where the axis allows, a unit that fits a narrow margin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisUnit {
    /// Plain whole numbers (requests per second, instances: the legend says which).
    Plain,
    Milliseconds,
    /// A fraction shown as a percentage.
    Percent,
    Times,
    Dollars,
}

/// The label of an axis tick at `v`.
pub fn axis_label(locale: Locale, unit: AxisUnit, v: f64) -> String {
    match unit {
        AxisUnit::Plain => with_unit(locale, Msg::Count, v, 0),
        AxisUnit::Percent => with_unit(locale, Msg::UnitPercent, v * 100.0, 0),
        AxisUnit::Times => with_unit(locale, Msg::UnitBurn, v, 0),
        // Small sums need cents, or the axis reads "1 $, 1 $, 2 $".
        AxisUnit::Dollars if v.abs() < 10.0 && v.fract() != 0.0 => {
            with_unit(locale, Msg::UnitDollars, v, 2)
        }
        AxisUnit::Dollars => with_unit(locale, Msg::UnitDollars, v, 0),
        AxisUnit::Milliseconds if v >= 1000.0 => with_unit(locale, Msg::UnitSeconds, v / 1000.0, 1),
        AxisUnit::Milliseconds => with_unit(locale, Msg::UnitMilliseconds, v, 0),
    }
}

/// A time of day, "HH:MM", for a number of minutes after midnight (any whole number: it wraps
/// around the day in both directions). Clock times are written the same in every locale the
/// product plans; a 12-hour locale would change this one function.
pub fn clock(minutes_after_midnight: i64) -> String {
    let t = minutes_after_midnight.rem_euclid(24 * 60);
    let (h, m) = (t / 60, t % 60);
    let digit = |d: i64| char::from(b'0' + d as u8);
    [
        digit(h / 10),
        digit(h % 10),
        ':',
        digit(m / 10),
        digit(m % 10),
    ]
    .iter()
    .collect()
}

/// A number as plainly as it can be written: the shortest text that reads back as the same
/// number, no trailing zeros, no exponent for the ranges the core uses; empty for a value that
/// is not finite. Parameters' input fields and allowed ranges use it, and [`parse_number`]
/// reads it back.
pub fn plain(locale: Locale, x: f64) -> String {
    if !x.is_finite() {
        return String::new();
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return localize(locale, &(x as i64).to_string());
    }
    localize(locale, &x.to_string())
}

/// A number as a person types it in `locale`: decimal, optionally signed, with an exponent;
/// blanks around it are ignored. Infinities and NaN are not numbers here. The core's one
/// number parser reads it, with the language's decimal separator and minus sign.
pub fn parse_number(locale: Locale, text: &str) -> Option<f64> {
    let style = NumberStyle::of(locale);
    oncall_sim::decimal::parse_typed(text, style.decimal, style.minus)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: Locale = Locale::En;

    #[test]
    fn values_are_written_with_their_units() {
        let v = |f, x| value(EN, f, Value::Number(x));
        assert_eq!(v(Format::Burn { decimals: 1 }, 14.44), "14.4×");
        assert_eq!(v(Format::ReqPerS, 1124.6), "1125 req/s");
        assert_eq!(v(Format::Percent { decimals: 0 }, 0.77), "77 %");
        assert_eq!(v(Format::Percent { decimals: 3 }, 0.00031), "0.031 %");
        assert_eq!(v(Format::Milliseconds, 87.4), "87 ms");
        assert_eq!(v(Format::Seconds, 30.0), "30 s");
        assert_eq!(v(Format::Minutes, 12.0), "12 min");
        assert_eq!(v(Format::DollarsPerHour, 4.0), "4.00 $/h");
        assert_eq!(v(Format::YesNo, 1.0), "yes");
        assert_eq!(v(Format::Requests, 811405.0), "811,405 requests");
        assert_eq!(v(Format::Requests, 12.0), "12 requests");
        assert_eq!(
            v(Format::InstanceMinutes, 1234567.4),
            "1,234,567 instance-min"
        );
        assert_eq!(v(Format::InstanceMinutes, 999.0), "999 instance-min");
        assert_eq!(v(Format::Instances, 1.0), "1 instance");
        assert_eq!(v(Format::Instances, 14.0), "14 instances");
        assert_eq!(v(Format::Decisions, 1.0), "1 decision");
        assert_eq!(v(Format::Decisions, 13.0), "13 decisions");
        assert_eq!(grouped(EN, -1000.0).as_deref(), Some("-1,000"));
        assert_eq!(grouped(EN, 100.0).as_deref(), Some("100"));
        assert_eq!(v(Format::Requests, f64::NAN), "—");
        assert_eq!(value(EN, Format::YesNo, Value::Flag(false)), "no");
    }

    #[test]
    fn no_negative_zero_and_no_nan() {
        assert_eq!(fixed(EN, -0.001, 2).as_deref(), Some("0.00"));
        assert_eq!(fixed(EN, -0.4, 0).as_deref(), Some("0"));
        assert_eq!(fixed(EN, -0.5, 1).as_deref(), Some("-0.5"));
        assert_eq!(fixed(EN, f64::NAN, 1), None);
        assert_eq!(number(Format::Count, f64::INFINITY), "—");
    }

    #[test]
    fn axis_labels_are_short_and_share_the_tables_units() {
        let a = |u, v| axis_label(EN, u, v);
        assert_eq!(a(AxisUnit::Percent, 0.05), "5 %");
        assert_eq!(a(AxisUnit::Times, 14.4), "14×");
        assert_eq!(a(AxisUnit::Dollars, 1.5), "1.50 $");
        assert_eq!(a(AxisUnit::Dollars, 2.0), "2 $");
        assert_eq!(a(AxisUnit::Dollars, 40.0), "40 $");
        assert_eq!(a(AxisUnit::Milliseconds, 250.0), "250 ms");
        assert_eq!(a(AxisUnit::Milliseconds, 1500.0), "1.5 s");
        assert_eq!(a(AxisUnit::Plain, 1200.0), "1200");
    }

    #[test]
    fn clock_times_wrap_around_the_day() {
        assert_eq!(clock(9 * 60 + 5), "09:05");
        assert_eq!(clock(0), "00:00");
        assert_eq!(clock(24 * 60 + 61), "01:01");
        assert_eq!(clock(-1), "23:59");
    }

    #[test]
    fn plains_read_back_as_the_same_number() {
        assert_eq!(plain(EN, 600.0), "600");
        assert_eq!(plain(EN, 0.6), "0.6");
        assert_eq!(plain(EN, 1e6), "1000000");
        assert_eq!(plain(EN, -2.5), "-2.5");
        assert_eq!(plain(EN, f64::NAN), "");
        for x in [0.1, 0.35, 1e-4, 123.456, 7.0] {
            assert_eq!(parse_number(EN, &plain(EN, x)), Some(x));
        }
    }

    #[test]
    fn typed_numbers_are_plain_decimals() {
        assert_eq!(parse_number(EN, " 0.2 "), Some(0.2));
        assert_eq!(parse_number(EN, "-3e2"), Some(-300.0));
        for bad in ["", "abc", "1,5", "inf", "NaN", "0x10", "1e999"] {
            assert_eq!(parse_number(EN, bad), None, "{bad}");
        }
    }

    /// Each language writes a number as CLDR says (the end-to-end tests check the same
    /// figures against the browser's `Intl.NumberFormat`).
    #[cfg(feature = "languages")]
    #[test]
    fn each_language_writes_decimals_and_groups_as_cldr() {
        let cases = [
            (Locale::Es, "1234", "12.345", "1.234.567", "0,5"),
            (Locale::It, "1234", "12.345", "1.234.567", "0,5"),
            (Locale::Zh, "1,234", "12,345", "1,234,567", "0.5"),
            (Locale::Ml, "1,234", "12,345", "12,34,567", "0.5"),
            (Locale::En, "1,234", "12,345", "1,234,567", "0.5"),
        ];
        for (locale, thousand, ten_thousand, million, half) in cases {
            assert_eq!(
                grouped(locale, 1234.0).as_deref(),
                Some(thousand),
                "{locale:?}"
            );
            assert_eq!(
                grouped(locale, 12345.0).as_deref(),
                Some(ten_thousand),
                "{locale:?}"
            );
            assert_eq!(
                grouped(locale, 1234567.0).as_deref(),
                Some(million),
                "{locale:?}"
            );
            assert_eq!(fixed(locale, 0.5, 1).as_deref(), Some(half), "{locale:?}");
        }
    }
}
