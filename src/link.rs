//! The run as a link: the query string read into the core's [`ShareState`], the notices about
//! what was wrong with it written through the catalog, and the query string written back.
//!
//! Pure functions, tested natively; `url_state` reads and writes the browser's location.
//!
//! The core owns the meaning of the parameters (`scenario`, `seed`, `autoscaler`, `actions`,
//! `t`, `budget_accounting` and every model and policy parameter); parameters it does not own are kept in the link
//! untouched, so a host page's own parameters survive.

use oncall_sim::autoscale::PolicyId;
use oncall_sim::budget::BudgetAccounting;
use oncall_sim::ids::ScenarioId;
use oncall_sim::message::Arg;
use oncall_sim::setup::RunSetup;
use oncall_sim::share::{Notice, NoticeKind, ShareState, MAX_MINUTE};

use crate::i18n::{core_text, param_unit_text, t, tf, Msg};

/// Longest part of a rejected value a notice quotes.
const QUOTE_CHARS: usize = 60;

/// What a link says: the run's state, the seed if it had a valid one, what was wrong (as text
/// for the page), and the parameters the core does not own.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub state: ShareState,
    pub notices: Vec<String>,
    pub rest: Vec<(String, String)>,
}

impl Link {
    /// Whether the run needs the build with the extended models: the core's reasons, or a
    /// parameter only that build reads (the request engine's key space, service shape and
    /// least request's settings), which the first download keeps untouched among the
    /// parameters it does not own.
    pub fn needs_extended(&self) -> bool {
        self.state.needs_extended()
            || self
                .rest
                .iter()
                .any(|(k, _)| oncall_sim::params::EXTENDED_PARAMS.contains(&k.as_str()))
    }
}

/// Reads a query string ("?a=b&c=d", with or without the "?") into decoded pairs, in order.
/// `+` means a space; malformed percent escapes are kept as typed.
pub fn parse_query(search: &str) -> Vec<(String, String)> {
    search
        .strip_prefix('?')
        .unwrap_or(search)
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            (decode_component(key), decode_component(value))
        })
        .collect()
}

fn decode_component(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(hi), Some(lo)) => {
                    out.push(hi * 16 + lo);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Writes pairs as a query string starting with "?" (empty when there are none). Letters,
/// digits and `-._~:,=` stay readable (an action log reads "12:rollback,14:cache_ttl_s=120");
/// everything else is percent-encoded.
pub fn encode_query(pairs: &[(String, String)]) -> String {
    if pairs.is_empty() {
        return String::new();
    }
    let mut out = String::from("?");
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        encode_component(key, &mut out, false);
        out.push('=');
        encode_component(value, &mut out, true);
    }
    out
}

fn encode_component(text: &str, out: &mut String, is_value: bool) {
    for b in text.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~' | b':' | b',')
            || (is_value && b == b'=');
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// Shortens a rejected value for quoting in a notice.
fn quote(value: &str) -> String {
    if value.chars().count() <= QUOTE_CHARS {
        value.to_owned()
    } else {
        let mut short: String = value.chars().take(QUOTE_CHARS).collect();
        short.push('…');
        short
    }
}

/// The default of a model or policy parameter, written with its unit ("2 s").
fn default_text(param: &str) -> Option<String> {
    if param == BudgetAccounting::PARAM {
        return Some(BudgetAccounting::default().to_string());
    }
    if param == oncall_sim::params::SERVICE_SHAPE_PARAM {
        return Some(oncall_sim::params::ServiceDistribution::default().to_string());
    }
    let spec = RunSetup::spec(param)?;
    let value = format!("{}", spec.default);
    Some(if spec.unit.is_empty() {
        value
    } else {
        format!("{value} {}", param_unit_text(spec.unit))
    })
}

/// The page's text for one of the core's notices. The parameters the page knows get the
/// catalog's wording; model and policy parameters and actions render the core's rule through
/// the catalog.
pub fn notice_text(notice: &Notice) -> String {
    let value = quote(&notice.value);
    let fallback = |param: &str| {
        default_text(param)
            .map(|d| tf(Msg::ParamFallback, &[("default", &d)]))
            .unwrap_or_default()
    };
    match notice.kind {
        NoticeKind::Invalid => {}
        NoticeKind::Rule => {
            return tf(
                Msg::NoticeRule,
                &[
                    ("param", &notice.param),
                    ("value", &value),
                    ("rule", &core_text(&notice.allowed)),
                    ("fallback", &fallback(&notice.param)),
                ],
            )
        }
        NoticeKind::TooLong | NoticeKind::More => {
            return tf(Msg::NoticeLink, &[("text", &core_text(&notice.allowed))])
        }
    }
    let invalid = |allowed: &str, fallback: &str| {
        tf(
            Msg::NoticeInvalid,
            &[
                ("param", &notice.param),
                ("value", &value),
                ("allowed", allowed),
                ("fallback", fallback),
            ],
        )
    };
    match notice.param.as_str() {
        "seed" => invalid(t(Msg::SeedAllowed), t(Msg::SeedFallbackRandom)),
        "scenario" => invalid(
            &tf(Msg::OneOf, &[("list", &ScenarioId::NAMES.join(", "))]),
            t(Msg::ScenarioFallback),
        ),
        "autoscaler" => invalid(
            &tf(Msg::OneOf, &[("list", &PolicyId::NAMES.join(", "))]),
            t(Msg::AutoscalerFallback),
        ),
        "t" => invalid(
            &tf(Msg::MinuteAllowed, &[("max", &MAX_MINUTE.to_string())]),
            t(Msg::MinuteFallback),
        ),
        "actions" => tf(
            Msg::NoticeAction,
            &[("value", &value), ("reason", &core_text(&notice.allowed))],
        ),
        param => {
            // What is allowed, without the sentence around it.
            let allowed = match notice.allowed.arg("range") {
                Some(Arg::Msg(range)) => core_text(range),
                _ => core_text(&notice.allowed),
            };
            invalid(&allowed, &fallback(param))
        }
    }
}

/// Reads a link's query string.
pub fn read_link(search: &str) -> Link {
    let (state, notices, rest) = ShareState::from_pairs(&parse_query(search));
    Link {
        state,
        notices: notices.iter().map(notice_text).collect(),
        rest,
    }
}

/// Reads the page's link: its query string `search` and, in the extended build, the author's
/// exercise the page's fragment carries (`#exercise=…`), whose parameters the query's apply
/// over. An exercise that cannot be read gives one notice naming why, and the query's run
/// opens without it (every valid parameter kept).
pub fn read_page_link(search: &str) -> Link {
    #[cfg(feature = "extended")]
    return read_link_in(search, &crate::url_state::current_fragment());
    #[cfg(not(feature = "extended"))]
    read_link(search)
}

/// A link of query string `search` and fragment `fragment` (with or without its `#`), as
/// [`read_page_link`] reads the page's.
#[cfg(feature = "extended")]
pub fn read_link_in(search: &str, fragment: &str) -> Link {
    if let Some(encoded) = oncall_sim::exercise::link::in_fragment(fragment) {
        let opened = oncall_sim::exercise::link::decode(encoded)
            .map_err(|e| exercise_error_text(&e))
            .and_then(|exercise| {
                ShareState::of_exercise(std::sync::Arc::new(exercise))
                    .map_err(|(field, _)| tf(Msg::ExerciseParamRefused, &[("field", &field)]))
            });
        return match opened {
            Ok(base) => {
                let (state, notices, rest) =
                    ShareState::from_pairs_over(base, &parse_query(search));
                Link {
                    state,
                    notices: notices.iter().map(notice_text).collect(),
                    rest,
                }
            }
            Err(why) => {
                let mut link = read_link(search);
                link.notices
                    .insert(0, tf(Msg::NoticeExerciseLink, &[("reason", &why)]));
                link
            }
        };
    }
    read_link(search)
}

/// An exercise file's or link's refusal: where (line, column, field) and why.
#[cfg(feature = "extended")]
pub fn exercise_error_text(e: &oncall_sim::exercise::file::ExerciseError) -> String {
    let why = core_text(&e.message);
    if e.field.is_empty() {
        tf(
            Msg::ExerciseErrorAt,
            &[
                ("line", &e.line.to_string()),
                ("column", &e.column.to_string()),
                ("reason", &why),
            ],
        )
    } else {
        tf(
            Msg::ExerciseErrorField,
            &[
                ("line", &e.line.to_string()),
                ("column", &e.column.to_string()),
                ("field", &e.field),
                ("reason", &why),
            ],
        )
    }
}

/// The notice for a `t` past the end of the scenario's exercise.
pub fn minute_beyond_text(value: u32, max: u32) -> String {
    tf(
        Msg::NoticeMinuteBeyond,
        &[("value", &value.to_string()), ("max", &max.to_string())],
    )
}

/// The query string for a run: the core's pairs, then the parameters it does not own.
pub fn link_query(state: &ShareState, rest: &[(String, String)]) -> String {
    let mut pairs = state.to_pairs();
    pairs.extend(rest.iter().cloned());
    encode_query(&pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    use oncall_sim::share::owned_pairs as pairs;

    /// The request engine's own parameters call for the extended build, in either build: the
    /// extended one reads them, the first one keeps them for it.
    #[test]
    fn the_engines_parameters_need_the_extended_build() {
        for query in [
            "?service_shape=lognormal",
            "?keys=500",
            "?zipf=1.1",
            "?choice_count=3",
            "?active_request_bias=0.5",
            "?service_sigma=2",
        ] {
            assert!(read_link(query).needs_extended(), "{query}");
        }
        assert!(!read_link("?scenario=bad-deploy&seed=3").needs_extended());
        let link = read_link("?engine=requests&service_shape=lognormal&service_sigma=1.5");
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        let query = link_query(&link.state, &link.rest);
        assert!(query.contains("service_shape=lognormal"), "{query}");
        assert!(query.contains("service_sigma=1.5"), "{query}");
        assert_eq!(read_link(&query), link);
    }

    /// A bad value of the engine's parameters names the parameter and what it allows (the
    /// extended build reads them).
    #[cfg(feature = "extended")]
    #[test]
    fn a_bad_engine_parameter_is_named_with_what_is_allowed() {
        let link =
            read_link("?engine=requests&service_shape=pareto&service_sigma=9&choice_count=1");
        let n = &link.notices;
        assert_eq!(n.len(), 3, "{n:?}");
        assert!(
            n[0].contains("“service_shape”") && n[0].contains("“pareto”"),
            "{}",
            n[0]
        );
        assert!(
            n[0].contains("exponential") && n[0].contains("lognormal"),
            "{}",
            n[0]
        );
        assert!(n[0].contains("The default, exponential,"), "{}", n[0]);
        assert!(
            n[1].contains("“service_sigma”") && n[1].contains("0 to 4"),
            "{}",
            n[1]
        );
        assert!(n[1].contains("The default, 1,"), "{}", n[1]);
        assert!(
            n[2].contains("“choice_count”") && n[2].contains("2 to 32"),
            "{}",
            n[2]
        );
    }

    #[test]
    fn queries_decode_like_a_browser() {
        assert_eq!(
            parse_query("?seed=42&actions=3%3Arollback%2C5:warm_cache&x=a+b&empty&=v"),
            pairs(&[
                ("seed", "42"),
                ("actions", "3:rollback,5:warm_cache"),
                ("x", "a b"),
                ("empty", ""),
                ("", "v"),
            ])
        );
        assert_eq!(parse_query(""), pairs(&[]));
        assert_eq!(parse_query("?"), pairs(&[]));
        // Broken escapes and invalid UTF-8 neither panic nor vanish.
        assert_eq!(parse_query("a=%&b=%4&c=%zz&d=%ff"), {
            pairs(&[("a", "%"), ("b", "%4"), ("c", "%zz"), ("d", "\u{fffd}")])
        });
    }

    #[test]
    fn encoding_round_trips_and_stays_readable() {
        let p = pairs(&[
            ("scenario", "bad-deploy"),
            ("actions", "12:rollback,14:cache_ttl_s=120"),
            ("odd key", "<b>&x=1#y</b> ü"),
        ]);
        let q = encode_query(&p);
        assert!(q.starts_with("?scenario=bad-deploy&actions=12:rollback,14:cache_ttl_s=120&"));
        assert!(!q.contains('<') && !q.contains('#') && !q.contains(' '));
        assert_eq!(parse_query(&q), p);
        assert_eq!(encode_query(&[]), "");
    }

    #[test]
    fn a_valid_link_gives_no_notice_and_keeps_foreign_parameters() {
        let link = read_link("?scenario=bad-deploy&seed=7&t=30&actions=14:rollback&embed=1");
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        assert_eq!(link.state.scenario, ScenarioId::BadDeploy);
        assert_eq!(link.state.seed, Some(7));
        assert_eq!(link.state.minute, Some(30));
        assert_eq!(link.rest, pairs(&[("embed", "1")]));
        let again = read_link(&link_query(&link.state, &link.rest));
        assert_eq!(again, link);
    }

    #[test]
    fn every_bad_parameter_is_named_with_what_is_allowed_and_the_rest_kept() {
        let link = read_link(
            "?seed=abc&scenario=nope&timeout_s=999&autoscaler=magic&t=-3\
             &actions=3:rollback,zz,5:min_instances=500&hpa.tolerance=x&workers_per_instance=8",
        );
        let n = &link.notices;
        assert_eq!(n.len(), 8, "{n:?}");
        assert!(n[0].contains("“seed”") && n[0].contains("“abc”"));
        assert!(n[0].contains("0 to 4294967295") && n[0].contains("random seed"));
        assert!(n[1].contains("“scenario”") && n[1].contains("bad-deploy"));
        assert!(n[1].contains("Free play"));
        assert!(n[2].contains("“timeout_s”") && n[2].contains("0.05 to 60 s"));
        assert!(n[2].contains("The default, 2 s,"), "{}", n[2]);
        assert!(n[3].contains("“autoscaler”") && n[3].contains("kpa"));
        assert!(n[4].contains("“t”") && n[4].contains("43200"));
        assert!(n[5].contains("“zz”") && n[5].contains("other actions are kept"));
        assert!(n[6].contains("min_instances=500") && n[6].contains("0 to 40"));
        assert!(n[7].contains("“hpa.tolerance”"), "{}", n[7]);
        assert_eq!(link.state.scenario, ScenarioId::FreePlay);
        assert_eq!(link.state.params.workers_per_instance, 8);
        assert_eq!(link.state.actions.len(), 1);
        assert!(n.iter().all(|m| !m.contains('{')), "{n:?}");
    }

    #[test]
    fn the_budget_accounting_round_trips_and_a_bad_one_is_explained() {
        let link = read_link("?scenario=viral-surge&seed=3&budget_accounting=requests");
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        assert_eq!(
            link.state.params.budget_accounting,
            BudgetAccounting::Requests
        );
        let query = link_query(&link.state, &link.rest);
        assert!(query.contains("budget_accounting=requests"), "{query}");
        assert_eq!(read_link(&query), link);

        let link = read_link("?budget_accounting=events&seed=3");
        assert_eq!(link.notices.len(), 1, "{:?}", link.notices);
        let notice = &link.notices[0];
        assert!(
            notice.contains("“budget_accounting”") && notice.contains("“events”"),
            "{notice}"
        );
        assert!(notice.contains("one of time, requests"), "{notice}");
        assert!(notice.contains("The default, time,"), "{notice}");
        assert_eq!(link.state.params.budget_accounting, BudgetAccounting::Time);
        assert!(!link_query(&link.state, &link.rest).contains("budget_accounting"));
    }

    #[test]
    fn long_or_hostile_values_are_quoted_short_and_as_text() {
        let long = "9".repeat(500);
        let link = read_link(&format!("?seed={long}"));
        assert!(link.notices[0].chars().count() < 250, "{}", link.notices[0]);
        let link = read_link("?scenario=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E");
        assert!(link.notices[0].contains("<img src=x onerror=alert(1)>"));
    }

    #[test]
    fn a_broken_rule_is_named_with_the_other_value_in_any_order() {
        for query in [
            "?autoscaler=elastic&seed=1&elastic.min_nodes=1&elastic.max_nodes=1",
            "?autoscaler=elastic&seed=1&elastic.max_nodes=1&elastic.min_nodes=1",
        ] {
            let link = read_link(query);
            assert!(link.notices.is_empty(), "{:?}", link.notices);
            assert_eq!(link.state.policy.elastic.max_nodes, 1);
            let again = read_link(&link_query(&link.state, &link.rest));
            assert_eq!(again, link);
        }
        let link = read_link("?autoscaler=elastic&elastic.max_nodes=1");
        assert_eq!(link.notices.len(), 1);
        let n = &link.notices[0];
        assert!(
            n.contains("“elastic.max_nodes”") && n.contains("“1”"),
            "{n}"
        );
        assert!(n.contains("must be at least elastic.min_nodes (2)"), "{n}");
        assert!(n.contains("The default, 20 nodes,"), "{n}");
        assert!(!n.contains("is not valid"), "{n}");
    }

    #[test]
    fn a_huge_link_gives_a_bounded_list_of_notices() {
        let bad = vec!["x"; 100_000].join(",");
        let link = read_link(&format!("?actions={bad}"));
        assert_eq!(link.notices.len(), oncall_sim::share::MAX_NOTICES + 1);
        assert!(link.notices[0].contains("65536"), "{}", link.notices[0]);
        let last = link.notices.last().unwrap();
        assert!(last.contains("more problems with the link"), "{last}");
        assert!(link.notices.iter().all(|n| !n.contains('{')));
    }

    #[test]
    fn a_minute_past_the_end_is_explained() {
        let text = minute_beyond_text(500, 120);
        assert!(text.contains("“t”") && text.contains("500") && text.contains("120"));
    }
}
