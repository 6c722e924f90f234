//! English texts of the parameters: what each one does ([`param_doc`]) and the text of each
//! unit code ([`param_unit`]), from `locales/en/params.json` (`doc.NAME`, `unit.CODE`).
//!
//! # Design
//!
//! A [`ParamSpec`](crate::params::ParamSpec) holds numbers and codes only: its name, default,
//! range, whether only whole numbers are allowed, and a unit code. The rows that declare the
//! parameters (`model_params!`, `policy_params!`, `elastic_settings!`) carry no product text;
//! the doc comment generated for each struct field points here. The texts are keyed the way
//! the relations' are, by a stable key:
//!
//! - a parameter's doc by the spec's name (`timeout_s`, `hpa.sync_period_s`,
//!   `elastic.p95_expansion.threshold`), the name `--set` and the link spell;
//! - a unit by its code (`workers`, `share_of_cache`, `s`, `usd_per_hour`). Error messages carry
//!   the code ([`Arg::Unit`](crate::message::Arg::Unit)) and each language's catalog gives
//!   its text when the message is rendered.
//!
//! # Defaults in the docs
//!
//! A doc never writes a parameter's default as a literal, so that the text cannot drift from
//! the value. Where a doc states a default, it names the parameter in braces with the syntax
//! of the relations' texts ([`super::relations_en`]: `{name}`, `{name%}` for a share shown as
//! a percentage), and [`param_doc_text`] fills in the parameter's *default*: a doc describes
//! the parameter, not the run in progress. Most docs state no value at all, since the console
//! shows the range and the default next to the doc. The tests check that every spec has a
//! doc and a unit text, that every placeholder names a parameter and is filled, and that no
//! doc writes a default as a number.

/// The doc of the parameter whose spec is called `name`, placeholders unfilled; `None` for a
/// name that is no parameter.
pub fn param_doc(name: &str) -> Option<&'static str> {
    include!(concat!(env!("OUT_DIR"), "/param_doc_en.rs"))
}

/// The doc of the parameter called `name` with the defaults filled in, ready to show; `None`
/// for a name that is no parameter.
pub fn param_doc_text(name: &str) -> Option<String> {
    param_doc(name).map(super::fill_defaults)
}

/// The text of unit `code` (as [`ParamSpec::unit`](crate::params::ParamSpec::unit) spells
/// it); `None` for a code without one.
pub fn param_unit(code: &str) -> Option<&'static str> {
    include!(concat!(env!("OUT_DIR"), "/param_unit_en.rs"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::autoscale::PolicySettings;
    use crate::catalog::relations_en::placeholders;
    use crate::params::{ModelParams, ParamSpec};

    fn all_specs() -> impl Iterator<Item = &'static ParamSpec> {
        ModelParams::SPECS.iter().chain(PolicySettings::all_specs())
    }

    /// The numbers written in `text`, outside placeholders ("p95" is a name, not a number).
    fn literal_numbers(text: &str) -> Vec<f64> {
        let mut outside = String::new();
        let mut depth = 0;
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => outside.push(c),
                _ => outside.push(' '),
            }
        }
        let mut numbers = Vec::new();
        let mut previous = ' ';
        let mut chars = outside.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() && !(previous.is_alphanumeric() || previous == '_') {
                let mut number = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_digit() || d == '.' || d == ',' {
                        number.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                let digits = number.trim_end_matches(['.', ',']).replace(',', "");
                numbers.push(digits.parse().expect("digits"));
                previous = '0';
            } else {
                previous = c;
            }
        }
        numbers
    }

    #[test]
    fn every_spec_has_a_doc_and_a_unit_text() {
        for spec in all_specs() {
            let doc = param_doc(spec.name).unwrap_or_else(|| panic!("no doc for {}", spec.name));
            assert!(doc.ends_with('.'), "{}: {doc:?}", spec.name);
            if !spec.unit.is_empty() {
                let text = param_unit(spec.unit)
                    .unwrap_or_else(|| panic!("{}: no text for unit {:?}", spec.name, spec.unit));
                assert!(!text.trim().is_empty(), "{}", spec.name);
            }
        }
        assert_eq!(param_doc("nope"), None);
        assert_eq!(param_unit("nope"), None);
    }

    #[test]
    fn docs_fill_every_placeholder_with_a_default() {
        for spec in all_specs() {
            let doc = param_doc(spec.name).unwrap_or_default();
            for p in placeholders(doc) {
                assert!(
                    all_specs().any(|s| s.name == p.name),
                    "{}: {{{}}} names no parameter",
                    spec.name,
                    p.name
                );
            }
            let text = param_doc_text(spec.name).unwrap_or_default();
            assert!(
                !text.contains('{') && !text.contains('}'),
                "{}: unfilled placeholder in {text:?}",
                spec.name
            );
        }
        assert_eq!(
            param_doc_text("kpa.target_utilization").as_deref(),
            Some("container-concurrency-target-percentage: the share of the container concurrency (the workers per instance) a pod aims to run (default 70 %).")
        );
        assert_eq!(
            param_doc_text("cloud_run.cpu_target").as_deref(),
            Some("CPU utilization target (Cloud Run's default: 60 %).")
        );
    }

    /// A default is stated through a placeholder, never as a number: no number written in a
    /// doc equals the spec's default (as it is, as a percentage, or in minutes), and no doc
    /// has the old "(15 s)" form or "default 60".
    #[test]
    fn no_doc_writes_a_default_as_a_number() {
        for spec in all_specs() {
            let doc = param_doc(spec.name).unwrap_or_default();
            let readings = [spec.default, spec.default * 100.0, spec.default / 60.0];
            for x in literal_numbers(doc) {
                assert!(
                    readings
                        .iter()
                        .all(|r| (r - x).abs() > 1e-9 * r.abs().max(1.0)),
                    "{}: {doc:?} writes {x}, which reads as the default {}",
                    spec.name,
                    spec.default
                );
            }
            let chars: Vec<char> = doc.chars().collect();
            for pair in chars.windows(2) {
                assert!(
                    !(pair[0] == '(' && pair[1].is_ascii_digit()),
                    "{}: {doc:?} states a value in parentheses",
                    spec.name
                );
            }
            for (i, _) in doc.match_indices("default") {
                let after = doc[i + "default".len()..].trim_start_matches([' ', ':']);
                assert!(
                    !after.starts_with(|c: char| c.is_ascii_digit()),
                    "{}: {doc:?} writes its default",
                    spec.name
                );
            }
        }
        assert_eq!(
            literal_numbers("p95 of 1,000 {x} (3.5×) in 60 s."),
            [1000.0, 3.5, 60.0]
        );
    }
}
