//! The fuzz harness: random links, elastic configurations, actions and parameters, each
//! parsed, and every input that parses simulated for a few minutes with its outputs checked
//! (every number finite, every share within 0–1, no NaN in any message). Nothing may panic.
//!
//! Each target runs `PROPTEST_CASES` inputs (default [`DEFAULT_CASES`], a few seconds on
//! two cores) from the seed `FUZZ_SEED` (default 0, so that a run is reproducible), and
//! prints how many it ran. A long run:
//!
//! ```sh
//! PROPTEST_CASES=1000000 FUZZ_SEED=7 cargo test --release -p oncall-sim --test fuzz -- --nocapture
//! ```

use oncall_sim::action::ACTION_NAMES;
use oncall_sim::autoscale::elastic::{self, config::ElasticConfig};
use oncall_sim::autoscale::{PolicyId, PolicySettings};
use oncall_sim::ids::ScenarioId;
use oncall_sim::message::{Message, MessageId, QUOTE_CHARS};
use oncall_sim::setup::RunSetup;
use oncall_sim::share::{ShareState, KEYS, MAX_NOTICES};
use oncall_sim::{Action, ModelParams, Simulation};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

/// Inputs per target when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 1000;

/// Runs `check` over `PROPTEST_CASES` inputs from `strategy`; a failure (or a panic) is
/// shrunk to a smallest input and reported with it. `check` says whether the input was
/// valid as a whole (a link without a notice, a configuration accepted, …).
fn fuzz<S: Strategy>(
    target: &str,
    strategy: S,
    check: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let cases =
        env("PROPTEST_CASES").map_or(DEFAULT_CASES, |n| u32::try_from(n).unwrap_or(u32::MAX));
    let seed = env("FUZZ_SEED").unwrap_or(0);
    let config = Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    };
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let (ran, valid) = (AtomicU64::new(0), AtomicU64::new(0));
    let mut runner = TestRunner::new(config);
    let result = runner.run(&strategy, |input| {
        ran.fetch_add(1, Relaxed);
        let ok = check(input)?;
        valid.fetch_add(u64::from(ok), Relaxed);
        Ok(())
    });
    let (ran, valid) = (ran.into_inner(), valid.into_inner());
    match result {
        Ok(()) => eprintln!(
            "fuzz {target}: {ran} inputs ({valid} valid), 0 failures, 0 panics (seed {seed})"
        ),
        Err(e) => panic!("fuzz {target} (seed {seed}, after {ran} inputs): {e}"),
    }
}

// ---- Generators ------------------------------------------------------------------------

/// The names a link or `--set` knows, and the action names.
fn known_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = KEYS.to_vec();
    names.push("autoscaler");
    names.extend(ModelParams::SPECS.iter().map(|s| s.name));
    names.extend(PolicySettings::all_specs().map(|s| s.name));
    names
}

/// A parameter's value as text: numbers near and past every range, signs, words, junk.
fn value_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (-5i64..300).prop_map(|n| n.to_string()),
        3 => (-2.0f64..3.0).prop_map(|x| format!("{x}")),
        2 => any::<f64>().prop_map(|x| format!("{x}")),
        1 => (0u64..u64::MAX).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec![
            "", " ", "+5", "-0", "0.0", "1e309", "-1e309", "NaN", "inf", "-inf", "1e-320",
            "0x10", "1_0", "½", "٣", "1,5", "4294967295", "4294967296", "43200", "43201",
            "free-play", "bad-deploy", "viral-surge", "cache-flush", "elastic", "kpa", "hpa",
            "cloud-run", "target-tracking", "on", "off",
        ])
        .prop_map(str::to_string),
        1 => prop::sample::select(PolicyId::NAMES.to_vec()).prop_map(str::to_string),
        1 => "[ -~]{0,16}",
        1 => "\\PC{0,8}",
        1 => "[\\x00-\\x1f\\x7f]{1,4}",
    ]
}

/// One action as a link or `--action` writes it, or something like it.
fn action_text() -> impl Strategy<Value = String> {
    let minute = prop_oneof![4 => (0u32..12).prop_map(|m| m.to_string()), 1 => value_text()];
    let name = prop_oneof![
        6 => prop::sample::select(ACTION_NAMES.to_vec()).prop_map(str::to_string),
        1 => "[a-z_]{0,14}",
    ];
    let value = prop_oneof![
        3 => (0u32..50).prop_map(|n| n.to_string()),
        2 => (0.0f64..1.2).prop_map(|x| format!("{x}")),
        1 => prop::sample::select(vec!["on", "off", "true", "0", "1", "3600", "3601", "0.95"])
            .prop_map(str::to_string),
        1 => value_text(),
    ];
    prop_oneof![
        6 => (minute.clone(), name.clone(), value).prop_map(|(m, n, v)| format!("{m}:{n}={v}")),
        3 => (minute, name).prop_map(|(m, n)| format!("{m}:{n}")),
        1 => "[ -~]{0,20}",
    ]
}

/// A comma-separated action log.
fn action_list() -> impl Strategy<Value = String> {
    prop::collection::vec(action_text(), 0..8).prop_map(|v| v.join(","))
}

/// A link's query pairs, decoded.
fn link_pairs() -> impl Strategy<Value = Vec<(String, String)>> {
    let key = prop_oneof![
        8 => prop::sample::select(known_names()).prop_map(str::to_string),
        1 => "[a-z_.]{0,12}",
    ];
    let pair = key.prop_flat_map(|k| {
        let value = if k == "actions" {
            action_list().boxed()
        } else {
            value_text().boxed()
        };
        (Just(k), value)
    });
    prop::collection::vec(pair, 0..10)
}

/// A JSON value of the kind a configuration holds, or not.
fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        4 => (-5i64..300).prop_map(|n| n.to_string()),
        2 => (-1.0f64..2.0).prop_map(|x| format!("{x}")),
        1 => any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(|x| format!("{x:e}")),
        1 => prop::sample::select(vec!["true", "false", "null", "1e400", "-0", "\"10\"", "\"ROUND_ROBIN\"", "\"MAGLEV\"", "\"FASTEST\""])
            .prop_map(str::to_string),
        1 => "[ -~]{0,10}".prop_map(|s| format!("{:?}", s)),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(
                prop_oneof![
                    prop::sample::select(elastic::config::STRATEGIES.to_vec())
                        .prop_map(|s| format!("\"{s}\"")),
                    inner.clone(),
                ],
                0..4
            )
            .prop_map(|v| format!("[{}]", v.join(", "))),
            prop::collection::vec((json_key(), inner), 0..5).prop_map(|v| object(&v)),
        ]
    })
}

/// A key of a configuration, or something like it (with escapes).
fn json_key() -> impl Strategy<Value = String> {
    let known = elastic::config::top_level_keys();
    prop_oneof![
        8 => prop::sample::select(known).prop_map(str::to_string),
        1 => "[ -~]{0,10}".prop_map(|s| s.replace(['"', '\\'], "")),
        1 => prop::sample::select(vec!["a\\nb", "\\u001b[2J", "\\t", "\\ud800"]).prop_map(str::to_string),
    ]
}

fn object(fields: &[(String, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", body.join(", "))
}

/// A configuration file: an object of known and unknown settings, sometimes with the
/// source's comments and trailing commas, sometimes cut or with a byte changed.
fn config_text() -> impl Strategy<Value = String> {
    let nested = |block: &'static str| {
        let fields: Vec<&'static str> = elastic::config::SPECS
            .iter()
            .filter_map(move |s| {
                s.name
                    .strip_prefix("elastic.")?
                    .strip_prefix(block)?
                    .strip_prefix('.')
            })
            .collect();
        let value = prop_oneof![3 => (1u32..300).prop_map(|n| n.to_string()), 1 => json_value()];
        prop::collection::vec(
            (prop::sample::select(fields).prop_map(str::to_string), value),
            0..4,
        )
        .prop_map(move |v| (block.to_string(), object(&v)))
    };
    let number = prop_oneof![
        3 => (0u32..300).prop_map(|n| n.to_string()),
        1 => (0.0f64..2.0).prop_map(|x| format!("{x}")),
    ];
    let field = prop_oneof![
        6 => (json_key(), number),
        2 => (json_key(), json_value()),
        1 => nested("trend_expansion"),
        1 => nested("delay_prediction"),
        1 => nested("p95_expansion"),
    ];
    let text = prop::collection::vec(field, 0..10).prop_map(|v| object(&v));
    (text, 0u8..8, any::<prop::sample::Index>(), any::<u8>()).prop_map(
        |(text, mutation, at, byte)| {
            let cut = |t: &str| {
                let mut i = at.index(t.len().max(1)).min(t.len());
                while !t.is_char_boundary(i) {
                    i -= 1;
                }
                i
            };
            match mutation {
                0 => format!("// a comment\n{text}"),
                1 => text.replacen(", ", ", /* c */ ", 1).replacen('}', ",}", 1),
                2 => text[..cut(&text)].to_string(),
                3 => {
                    let i = cut(&text);
                    let mut bytes = text.into_bytes();
                    if i < bytes.len() {
                        bytes[i] = byte;
                    }
                    String::from_utf8_lossy(&bytes).into_owned()
                }
                _ => text,
            }
        },
    )
}

// ---- Checks ------------------------------------------------------------------------------

/// Text the person sees: no control characters (a message may span lines only where its
/// template does), bounded. (It may quote the person's own "NaN"; the model's numbers are
/// checked in [`check_run`].)
fn check_text(text: &str, most: usize) -> Result<(), TestCaseError> {
    prop_assert!(
        !text.contains(|c: char| c.is_control() && c != '\n'),
        "{text:?}"
    );
    prop_assert!(
        text.chars().count() <= most,
        "{} chars: {text:?}",
        text.chars().count()
    );
    Ok(())
}

/// Whether `text` shows a number that is not finite ("NaN", "inf" as a word of its own).
fn non_finite(text: &str) -> bool {
    let letter = |c: Option<char>| c.is_some_and(char::is_alphabetic);
    text.contains("NaN")
        || text.match_indices("inf").any(|(i, _)| {
            !letter(text[..i].chars().next_back()) && !letter(text[i + 3..].chars().next())
        })
}

/// Runs `minutes` and checks every record, event and the summary.
fn check_run(mut sim: Simulation, minutes: u32) -> Result<(), TestCaseError> {
    for _ in 0..minutes {
        let record = sim.step().clone();
        let value = serde_json::to_value(&record).unwrap();
        for (field, v) in value.as_object().unwrap() {
            // serde_json writes a NaN or an infinity as null.
            prop_assert!(
                !v.is_null(),
                "minute {}: {field} is not finite: {record:?}",
                record.minute
            );
            if let Some(x) = v.as_f64() {
                prop_assert!(x.is_finite(), "{field} = {x}");
            }
        }
        for (name, x) in [
            ("utilization", record.utilization),
            ("error_rate", record.error_rate),
            ("timeout_share", record.timeout_share),
            ("rejected_share", record.rejected_share),
            ("shed_share", record.shed_share),
            ("cache_hit", record.cache_hit),
        ] {
            prop_assert!(
                (-1e-9..=1.0 + 1e-9).contains(&x),
                "minute {}: {name} = {x}",
                record.minute
            );
        }
        prop_assert!(record.p99_ms >= 0.0 && record.requests_per_s >= 0.0);
    }
    for event in sim.events() {
        let line = serde_json::to_string(event).unwrap();
        prop_assert!(!non_finite(&line), "{line}");
    }
    let summary = serde_json::to_value(sim.summary()).unwrap();
    for (field, v) in summary.as_object().unwrap() {
        if let Some(x) = v.as_f64() {
            prop_assert!(x.is_finite(), "summary {field} = {x}");
        }
    }
    Ok(())
}

// ---- Targets -----------------------------------------------------------------------------

#[test]
fn fuzz_links() {
    fuzz("links", (link_pairs(), 1u32..6), |(pairs, minutes)| {
        let (state, notices, _rest) = ShareState::from_pairs(&pairs);
        let notices_first = notices.clone();
        prop_assert!(
            notices.len() <= MAX_NOTICES + 1,
            "{} notices",
            notices.len()
        );
        for n in &notices {
            prop_assert!(n.value.chars().count() <= QUOTE_CHARS + 1);
            prop_assert!(n.param.chars().count() <= QUOTE_CHARS + 1);
            check_text(&n.allowed.to_string(), 4000)?;
        }
        // What a link gives reopens to itself, without a notice.
        let written = state.to_pairs();
        let (again, notices, rest) = ShareState::from_pairs(&written);
        prop_assert!(notices.is_empty(), "{written:?}: {notices:?}");
        prop_assert!(rest.is_empty());
        prop_assert_eq!(&again, &state);
        // And always builds a run.
        let sim = state.simulation(state.seed.unwrap_or(0));
        prop_assert!(sim.is_ok(), "{state:?}: {:?}", sim.err());
        check_run(sim.unwrap(), minutes)?;
        Ok(notices_first.is_empty())
    });
}

#[test]
fn fuzz_elastic_configurations() {
    fuzz(
        "elastic configurations",
        (config_text(), 0usize..4, any::<u32>()),
        |(text, which, seed)| {
            match elastic::parse(&text) {
                Ok((config, notes)) => {
                    prop_assert!(config.validate().is_ok());
                    for note in &notes {
                        check_text(&note.to_string(), 4000)?;
                        prop_assert!(!non_finite(&note.to_string()), "{note}");
                    }
                    // The export reads back the same.
                    let (back, _) = elastic::parse(&config.to_json_text(true)).unwrap();
                    prop_assert_eq!(&back, &config);
                    let mut setup = RunSetup::new(ScenarioId::ALL[which], seed);
                    setup.policy = PolicyId::Elastic;
                    setup.policies.elastic = config;
                    check_run(setup.build().unwrap(), 4)?;
                    Ok(true)
                }
                Err(e) => {
                    let line = Message::new(MessageId::FieldProblem)
                        .given("field", e.field.clone())
                        .msg("problem", e.message.clone())
                        .to_string();
                    check_text(&line, 4000)?;
                    prop_assert!(!line.contains('\n'), "{line:?}");
                    Ok(false)
                }
            }
        },
    );
}

#[test]
fn fuzz_actions() {
    let strategy = (
        prop::collection::vec(action_text(), 0..12),
        0usize..4,
        0usize..5,
        any::<u32>(),
    );
    fuzz("actions", strategy, |(texts, which, policy, seed)| {
        let mut actions = Vec::new();
        for text in &texts {
            match Action::parse(text, 10) {
                Ok(action) => {
                    prop_assert!(action.minute <= 10);
                    let again = Action::parse(&action.encode(), 10);
                    prop_assert_eq!(again.as_ref(), Ok(&action));
                    actions.push(action);
                }
                Err(e) => check_text(&e.to_string(), 3 * QUOTE_CHARS + 400)?,
            }
        }
        let mut setup = RunSetup::new(ScenarioId::ALL[which], seed);
        setup.policy = PolicyId::ALL[policy];
        let parsed = !actions.is_empty();
        setup.actions = actions;
        check_run(setup.build().unwrap(), 12)?;
        Ok(parsed)
    });
}

#[test]
fn fuzz_parameters() {
    let name = prop_oneof![
        8 => prop::sample::select(known_names()).prop_map(str::to_string),
        1 => "[a-z_.]{0,12}",
    ];
    let strategy = (
        prop::collection::vec((name, value_text()), 0..8),
        0usize..4,
        any::<u32>(),
        1u32..6,
    );
    fuzz("parameters", strategy, |(sets, which, seed, minutes)| {
        let mut setup = RunSetup::new(ScenarioId::ALL[which], seed);
        let mut given = Vec::new();
        for (name, text) in &sets {
            if setup.set(name, text).is_ok() {
                given.push(name.as_str());
            }
        }
        match setup.check_rules(&given) {
            Ok(()) => {
                let sim = setup.build();
                prop_assert!(sim.is_ok(), "{setup:?}: {:?}", sim.err());
                check_run(sim.unwrap(), minutes)?;
                Ok(!given.is_empty())
            }
            Err(e) => {
                // The error blames one of the parameters that were set.
                prop_assert!(given.contains(&e.field.as_str()), "{e} not in {given:?}");
                check_text(&e.to_string(), 1000)?;
                Ok(false)
            }
        }
    });
}

#[test]
fn the_default_elastic_configuration_parses() {
    // Guards the generators' assumption that the export format is accepted.
    let text = ElasticConfig::default().to_json_text(true);
    assert!(elastic::parse(&text).is_ok());
}
