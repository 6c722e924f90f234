//! The fuzz harness: random links, elastic configurations, actions and parameters, each
//! parsed, and every input that parses simulated for a few minutes with its outputs checked
//! (every number finite, every share within 0–1, every message rendered without a NaN, the
//! request engine's work bounded by its arrivals). Nothing may panic.
//!
//! The names and values come from the core's registries (scenarios, policies, the model's and
//! the policies' parameter specs, the choices `RunSetup::set` reads, the link's own keys, the
//! actions and the regional actions, with the values each allows), so a new entry is fuzzed
//! without a change here. The switches that decide what a run reaches (the engine, the load
//! balancer, hedging, regions, the service-time shape) are drawn often enough that the request
//! engine, hedging and several regions each come in tens of percent of the inputs; junk still
//! comes in every part.
//!
//! Each target runs `PROPTEST_CASES` inputs (default [`DEFAULT_CASES`]) from the seed
//! `FUZZ_SEED` (default 0, so that a run is reproducible), and prints how many it ran and what
//! the runs it built reached, read from each built simulation: the request engine, hedging,
//! regions, scenarios, policies, load balancers, service shapes and the actions applied. A
//! long run:
//!
//! ```sh
//! PROPTEST_CASES=1000000 FUZZ_SEED=7 cargo test --release -p oncall-sim --test fuzz -- --nocapture
//! ```
//!
//! The failures it found are tests of their own at their smallest inputs (at the end).

use oncall_sim::action::{ActionError, Allowed, ACTION_NAMES};
use oncall_sim::autoscale::elastic::{self, config::ElasticConfig};
use oncall_sim::autoscale::{PolicyId, PolicySettings};
use oncall_sim::engine::requests::RequestMinute;
use oncall_sim::event::EventKind;
use oncall_sim::ids::ScenarioId;
use oncall_sim::message::{Arg, Message, MessageId, QUOTE_CHARS};
use oncall_sim::params::{
    EngineKind, ParamSpec, Routing, Switch, ENGINE_PARAM, HEDGE_PARAM, LB_PARAM,
};
use oncall_sim::regions::{RegionAction, REGION_CODES};
use oncall_sim::setup::{RunSetup, CHOICE_PARAMS};
use oncall_sim::share::{ShareState, KEYS, MAX_MINUTE, MAX_NOTICES};
use oncall_sim::{Action, ActionKind, ModelParams, Simulation};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Inputs per target when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 1000;

/// Runs `check` over `PROPTEST_CASES` inputs from `strategy`; a failure (or a panic) is
/// shrunk to a smallest input and reported with it. `check` says whether the input was
/// valid as a whole (a link without a notice, a configuration accepted, …) and notes what
/// each run it built reached in the [`Reach`] it is given.
fn fuzz<S: Strategy>(
    target: &str,
    strategy: S,
    check: impl Fn(S::Value, &Reach) -> Result<bool, TestCaseError>,
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
        // A rejected input is drawn again.
        max_global_rejects: cases.max(1024),
        ..Config::default()
    };
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let (ran, valid) = (AtomicU64::new(0), AtomicU64::new(0));
    let reach = Reach::default();
    let mut runner = TestRunner::new(config);
    let result = runner.run(&strategy, |input| {
        ran.fetch_add(1, Relaxed);
        let ok = match check(input, &reach) {
            Err(TestCaseError::Reject(reason)) => {
                reach.add("rejected (drawn again)", reason.message());
                return Err(TestCaseError::Reject(reason));
            }
            result => result?,
        };
        valid.fetch_add(u64::from(ok), Relaxed);
        Ok(())
    });
    let (ran, valid) = (ran.into_inner(), valid.into_inner());
    match result {
        Ok(()) => {
            eprintln!(
                "fuzz {target}: {ran} inputs ({valid} valid), 0 failures, 0 panics (seed {seed})"
            );
            eprint!("{}", reach.report(target));
        }
        Err(e) => panic!("fuzz {target} (seed {seed}, after {ran} inputs): {e}"),
    }
}

// ---- What the runs reached ---------------------------------------------------------------

/// What one built run reached, read from the simulation after its minutes.
#[derive(Debug, Default)]
struct RunFacts {
    /// The request engine served some minute (in some region).
    requests: bool,
    /// Hedging was on in some minute the request engine served.
    hedging: bool,
    /// Hedges sent over the run.
    hedges_sent: u64,
    /// Events the request engine handled over the run, and its arrivals.
    engine_events: u64,
    arrivals: u64,
}

/// Counts of what the built runs reached, by group ("scenario", "regions", …) and value.
#[derive(Default)]
struct Reach {
    counts: RefCell<BTreeMap<&'static str, BTreeMap<String, u64>>>,
    /// The most events per arrival the request engine handled in a run (a run with at least
    /// a thousand arrivals).
    most_work: RefCell<f64>,
}

impl Reach {
    fn add(&self, group: &'static str, value: impl ToString) {
        *self
            .counts
            .borrow_mut()
            .entry(group)
            .or_default()
            .entry(value.to_string())
            .or_default() += 1;
    }

    fn count(&self, group: &str, value: &str) -> u64 {
        self.counts
            .borrow()
            .get(group)
            .and_then(|g| g.get(value))
            .copied()
            .unwrap_or(0)
    }

    /// Notes a built run `sim` after its minutes, with what [`check_run`] saw.
    fn run(&self, sim: &Simulation, facts: &RunFacts) {
        self.add("built", "runs");
        if facts.requests {
            self.add("built", "request engine");
        }
        if facts.hedging {
            self.add("built", "hedging on");
        }
        if facts.hedges_sent > 0 {
            self.add("built", "hedges sent");
        }
        if facts.arrivals >= 1000 {
            let per_arrival = facts.engine_events as f64 / facts.arrivals as f64;
            let mut most = self.most_work.borrow_mut();
            *most = most.max(per_arrival);
        }
        self.add("regions", sim.region_count());
        self.add("scenario", sim.scenario().id);
        self.add("policy", sim.policy());
        if facts.requests {
            self.add("lb at the end (request engine)", sim.settings().lb);
            self.add("service shape (request engine)", sim.params().service_shape);
        }
        for action in sim.actions() {
            self.add("actions applied", action.kind.name());
        }
        for event in sim.events() {
            if let EventKind::ActionRefused { action, .. } = &event.kind {
                self.add("actions refused", action.name());
            }
        }
    }

    /// The counts, a line per group, every known value named (0 when never reached).
    fn report(&self, target: &str) -> String {
        let known: [(&str, Vec<String>); 6] = [
            (
                "built",
                ["runs", "request engine", "hedging on", "hedges sent"]
                    .map(String::from)
                    .to_vec(),
            ),
            (
                "regions",
                (1..=REGION_CODES.len()).map(|n| n.to_string()).collect(),
            ),
            (
                "scenario",
                ScenarioId::NAMES.iter().map(|s| s.to_string()).collect(),
            ),
            (
                "policy",
                PolicyId::NAMES.iter().map(|s| s.to_string()).collect(),
            ),
            (
                "lb at the end (request engine)",
                Routing::NAMES.iter().map(|s| s.to_string()).collect(),
            ),
            (
                "actions applied",
                all_action_names().iter().map(|s| s.to_string()).collect(),
            ),
        ];
        let mut out = String::new();
        for (group, values) in &known {
            let line: Vec<String> = values
                .iter()
                .map(|v| format!("{v} {}", self.count(group, v)))
                .collect();
            out.push_str(&format!("fuzz {target}: {group}: {}\n", line.join(", ")));
        }
        for (group, counts) in self.counts.borrow().iter() {
            if known.iter().any(|(g, _)| g == group) {
                continue;
            }
            let line: Vec<String> = counts.iter().map(|(v, n)| format!("{v} {n}")).collect();
            out.push_str(&format!("fuzz {target}: {group}: {}\n", line.join(", ")));
        }
        out.push_str(&format!(
            "fuzz {target}: request engine: at most {:.2} events per arrival in a run \
             (the bound is {EVENTS_PER_ARRIVAL} per arrival and {EVENTS_PER_HEDGE} per hedge)\n",
            self.most_work.borrow()
        ));
        out
    }
}

// ---- Generators ------------------------------------------------------------------------

/// Every spelling the registries know for a choice: scenarios, policies and the choices
/// `RunSetup::set` reads (engines, load balancers, switches, shapes, budget accountings).
fn known_words() -> Vec<&'static str> {
    let mut words: Vec<&'static str> = ScenarioId::NAMES.to_vec();
    words.extend(PolicyId::NAMES);
    for (_, spellings) in CHOICE_PARAMS {
        words.extend(*spellings);
    }
    words
}

/// The names a link or `--set` knows: the link's own keys, the choices, the model's and the
/// policies' parameters.
fn known_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = KEYS.to_vec();
    names.extend(CHOICE_PARAMS.iter().map(|(name, _)| *name));
    names.extend(ModelParams::SPECS.iter().map(|s| s.name));
    names.extend(PolicySettings::all_specs().map(|s| s.name));
    names
}

/// Every action name: the service's controls and the regional ones.
fn all_action_names() -> Vec<&'static str> {
    let mut names = ACTION_NAMES.to_vec();
    names.extend(oncall_sim::regions::ACTION_NAMES);
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
            "on", "off", "a:1", "b:on", "c:0.5", "d:1",
        ])
        .prop_map(str::to_string),
        2 => prop::sample::select(known_words()).prop_map(str::to_string),
        1 => "[ -~]{0,16}",
        1 => "\\PC{0,8}",
        1 => "[\\x00-\\x1f\\x7f]{1,4}",
    ]
}

/// A value for a parameter of `spec`: mostly within its range (uniform, or log-uniform for a
/// range of positive numbers, so that small delays and key counts come as often as large
/// ones), its bounds and default, just past them, or junk.
fn spec_value(spec: ParamSpec) -> BoxedStrategy<String> {
    let (lo, hi) = (spec.min, spec.max);
    let show = move |x: f64| {
        if spec.integer {
            format!("{}", x.round())
        } else {
            format!("{x}")
        }
    };
    let within = (0.0f64..=1.0, any::<bool>()).prop_map(move |(u, log)| {
        let x = if log && lo > 0.0 {
            lo * (hi / lo).powf(u)
        } else {
            lo + u * (hi - lo)
        };
        show(x.clamp(lo, hi))
    });
    let edges = prop::sample::select(vec![lo, hi, spec.default]).prop_map(move |x| format!("{x}"));
    let past = prop::sample::select(vec![
        lo - 1.0,
        hi + 1.0,
        lo - 1e-9,
        hi * 2.0 + 1.0,
        lo + 0.5,
    ])
    .prop_map(|x| format!("{x}"));
    prop_oneof![6 => within, 2 => edges, 1 => past, 1 => value_text()].boxed()
}

/// A value for the link's or `--set`'s `name`, as its registry allows it or near it.
fn value_for(name: &str) -> BoxedStrategy<String> {
    if name == "actions" {
        return action_list().boxed();
    }
    if let Some(spec) = RunSetup::spec(name) {
        return spec_value(*spec);
    }
    let words = |list: &'static [&'static str]| {
        prop_oneof![
            6 => prop::sample::select(list).prop_map(str::to_string),
            1 => value_text(),
        ]
        .boxed()
    };
    if let Some((_, spellings)) = CHOICE_PARAMS.iter().find(|(n, _)| *n == name) {
        return words(spellings);
    }
    match name {
        "scenario" => words(ScenarioId::NAMES),
        "seed" => {
            prop_oneof![4 => any::<u32>().prop_map(|n| n.to_string()), 1 => value_text()].boxed()
        }
        "t" => prop_oneof![
            4 => (0..=MAX_MINUTE + 1).prop_map(|n| n.to_string()),
            1 => value_text(),
        ]
        .boxed(),
        _ => value_text().boxed(),
    }
}

/// `Some` of `value` `percent` % of the time.
fn sometimes<T: std::fmt::Debug + Clone + 'static>(
    percent: u32,
    value: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<Option<T>> {
    prop_oneof![percent => value.prop_map(Some), 100 - percent => Just(None)].boxed()
}

/// The switches that decide what a run reaches, as `(name, value)` pairs: the engine, the
/// load balancer, hedging and its parameters, regions, the service-time shape. Weighted so
/// that the request engine, hedging on and two or three regions each come in tens of
/// percent of the inputs (the scenarios that run in request mode or in regions add to them);
/// every value can still be junk.
fn shaping_pairs() -> impl Strategy<Value = Vec<(String, String)>> {
    // Every choice `RunSetup::set` reads: the engine (the request engine in two inputs of
    // five), hedging (on in one of three), the load balancer half the time, the rest (the
    // policy, the service shape, ordering keys, the budget's accounting) a quarter of the
    // time, any spelling.
    let choices: Vec<_> = CHOICE_PARAMS
        .iter()
        .map(|&(name, _)| {
            let (favourite, percent) = match name {
                ENGINE_PARAM => (Some(EngineKind::Requests.as_str()), 50),
                HEDGE_PARAM => (Some(Switch::On.as_str()), 45),
                LB_PARAM => (None, 50),
                _ => (None, 25),
            };
            let value = match favourite {
                Some(f) => prop_oneof![3 => Just(f.to_string()), 1 => value_for(name)].boxed(),
                None => value_for(name),
            };
            sometimes(percent, value.prop_map(move |v| (name.to_string(), v)))
        })
        .collect();
    let regions = ModelParams::spec("regions").expect("the regions parameter");
    let several = prop_oneof![
        6 => (2..=regions.max as u32).prop_map(|n| n.to_string()),
        1 => spec_value(*regions),
    ];
    // The request engine's and the regions' own parameters: hedging's, the key space, the
    // service shape's, least request's and the health checks' (every spec of the model,
    // drawn more often than among all the names).
    let model_pair = prop::sample::select(ModelParams::SPECS)
        .prop_flat_map(|spec| (Just(spec.name.to_string()), spec_value(spec)));
    (
        choices,
        sometimes(40, several.prop_map(|n| ("regions".to_string(), n))),
        prop::collection::vec(model_pair, 0..4),
    )
        .prop_map(|(choices, regions, mut pairs)| {
            pairs.extend(choices.into_iter().chain([regions]).flatten());
            pairs
        })
}

/// What an action's value looks like, read from the action's registry (what it says is
/// allowed when the value is missing).
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    /// The action takes no value.
    NoValue,
    Whole(u32, u32),
    Fraction(f64, f64),
    OnOff,
    OneOf(&'static [&'static str]),
    /// `REGION:VALUE`, the region's code first.
    InRegion(Box<Shape>),
    /// A shape this harness does not know (a test fails on it).
    Unknown,
}

/// The shape of action `name`'s value.
fn action_shape(name: &str) -> Shape {
    match ActionKind::parse(name) {
        Ok(_) => Shape::NoValue,
        Err(ActionError::NeedsValue { allowed, .. }) => match allowed {
            Allowed::Whole { lo, hi } | Allowed::Seconds { lo, hi } => Shape::Whole(lo, hi),
            Allowed::Fraction { lo, hi } => Shape::Fraction(lo, hi),
            Allowed::OnOff => Shape::OnOff,
            Allowed::OneOf(names) => Shape::OneOf(names),
            Allowed::Regional(name) => message_shape(&RegionAction::allowed(name)),
            // An injected fault is not a control: the harness draws the controls' actions
            // (ACTION_NAMES) and the regional ones; fault_action's tests read injects.
            Allowed::Inject => Shape::Unknown,
        },
        Err(_) => Shape::Unknown,
    }
}

/// The shape a regional action's "allowed" message describes.
fn message_shape(m: &Message) -> Shape {
    let int = |k| match m.arg(k) {
        Some(Arg::Int(n)) => u32::try_from(*n).ok(),
        _ => None,
    };
    let num = |k| match m.arg(k) {
        Some(Arg::Num(x)) => Some(*x),
        _ => None,
    };
    let whole = match (int("lo"), int("hi")) {
        (Some(lo), Some(hi)) => Shape::Whole(lo, hi),
        _ => Shape::Unknown,
    };
    match m.id {
        MessageId::RegionAllowedShare => Shape::InRegion(Box::new(Shape::Fraction(0.0, 1.0))),
        MessageId::RegionAllowedOnOff => Shape::InRegion(Box::new(Shape::OnOff)),
        MessageId::RegionAllowedCount => Shape::InRegion(Box::new(whole)),
        MessageId::ActionAllowedWhole => whole,
        MessageId::ActionAllowedOnOff => Shape::OnOff,
        MessageId::ActionAllowedFraction => match (num("lo"), num("hi")) {
            (Some(lo), Some(hi)) => Shape::Fraction(lo, hi),
            _ => Shape::Unknown,
        },
        _ => Shape::Unknown,
    }
}

/// A value of `shape`, or near it, or junk; `None`: no value.
fn shaped_value(shape: &Shape) -> BoxedStrategy<Option<String>> {
    let junk = || value_text().prop_map(Some);
    match shape.clone() {
        Shape::NoValue => prop_oneof![6 => Just(None), 1 => junk()].boxed(),
        Shape::Whole(lo, hi) => prop_oneof![
            5 => (lo..=hi).prop_map(|n| Some(n.to_string())),
            1 => prop::sample::select(vec![i64::from(lo) - 1, i64::from(hi) + 1])
                .prop_map(|n| Some(n.to_string())),
            1 => junk(),
            1 => Just(None),
        ]
        .boxed(),
        Shape::Fraction(lo, hi) => prop_oneof![
            5 => (lo..=hi).prop_map(|x| Some(format!("{x}"))),
            1 => prop::sample::select(vec![lo, hi, lo - 0.01, hi + 0.01])
                .prop_map(|x| Some(format!("{x}"))),
            1 => junk(),
            1 => Just(None),
        ]
        .boxed(),
        Shape::OnOff => prop_oneof![
            5 => prop::sample::select(vec!["on", "off", "true", "false", "1", "0"])
                .prop_map(|v| Some(v.to_string())),
            1 => junk(),
            1 => Just(None),
        ]
        .boxed(),
        Shape::OneOf(names) => prop_oneof![
            5 => prop::sample::select(names).prop_map(|v| Some(v.to_string())),
            1 => junk(),
            1 => Just(None),
        ]
        .boxed(),
        Shape::InRegion(inner) => {
            let region = prop_oneof![
                6 => prop::sample::select(REGION_CODES.to_vec()),
                1 => prop::sample::select(vec!["d", "A", "", " a", "z"]),
            ];
            prop_oneof![
                6 => (region, shaped_value(&inner))
                    .prop_map(|(r, v)| Some(format!("{r}:{}", v.unwrap_or_default()))),
                1 => junk(),
                1 => Just(None),
            ]
            .boxed()
        }
        Shape::Unknown => junk().boxed(),
    }
}

/// One action as a link or `--action` writes it, or something like it.
fn action_text() -> impl Strategy<Value = String> {
    let minute = prop_oneof![
        3 => (0..REQUEST_MINUTES).prop_map(|m| m.to_string()),
        2 => (0u32..12).prop_map(|m| m.to_string()),
        1 => value_text(),
    ];
    let named = prop::sample::select(all_action_names())
        .prop_flat_map(|name| (Just(name.to_string()), shaped_value(&action_shape(name))));
    let unknown = ("[a-z_]{0,14}", prop::option::of(value_text()));
    let write = |(m, (n, v)): (String, (String, Option<String>))| match v {
        Some(v) => format!("{m}:{n}={v}"),
        None => format!("{m}:{n}"),
    };
    prop_oneof![
        8 => (minute.clone(), named).prop_map(write),
        1 => (minute, unknown).prop_map(write),
        1 => "[ -~]{0,20}",
    ]
}

/// A comma-separated action log.
fn action_list() -> impl Strategy<Value = String> {
    prop::collection::vec(action_text(), 0..8).prop_map(|v| v.join(","))
}

/// A name a link or `--set` knows, or something like one, with a value for it.
fn named_pair() -> impl Strategy<Value = (String, String)> {
    let key = prop_oneof![
        8 => prop::sample::select(known_names()).prop_map(str::to_string),
        1 => "[a-z_.]{0,12}",
    ];
    key.prop_flat_map(|k| {
        let value = value_for(&k);
        (Just(k), value)
    })
}

/// A link's query pairs, decoded: a scenario (usually), the shaping switches, an action log
/// (in two links of five) and any other names, in any order.
fn link_pairs() -> impl Strategy<Value = Vec<(String, String)>> {
    let scenario = sometimes(85, (Just("scenario".to_string()), value_for("scenario")));
    let actions = sometimes(40, (Just("actions".to_string()), value_for("actions")));
    (
        (scenario, actions),
        shaping_pairs(),
        prop::collection::vec(named_pair(), 0..8),
    )
        .prop_map(|((scenario, actions), mut pairs, more)| {
            pairs.extend(scenario.into_iter().chain(actions));
            pairs.extend(more);
            pairs
        })
        .prop_shuffle()
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

/// Every field of `value` (a record serialized) is finite: serde_json writes a NaN or an
/// infinity as null, and no field of these records is ever null.
fn check_fields(what: &str, value: &serde_json::Value) -> Result<(), TestCaseError> {
    for (field, v) in value.as_object().unwrap() {
        prop_assert!(!v.is_null(), "{what}: {field} is not finite: {value}");
        if let Some(x) = v.as_f64() {
            prop_assert!(x.is_finite(), "{what}: {field} = {x}");
        }
    }
    Ok(())
}

/// Each share of `shares` within 0–1 (rounding aside).
fn check_shares(what: &str, shares: &[(&str, f64)]) -> Result<(), TestCaseError> {
    for (name, x) in shares {
        prop_assert!((-1e-9..=1.0 + 1e-9).contains(x), "{what}: {name} = {x}");
    }
    Ok(())
}

/// The request engine's work bound. Up to each minute, the events the engine has handled in a
/// region are at most [`EVENTS_PER_ARRIVAL`] per arrival plus [`EVENTS_PER_HEDGE`] per hedge
/// sent plus [`EVENTS_SLACK`]: a request costs its arrival, its first copy's end, a hedge
/// timer, a total timeout and, when the event list takes over, the phantom of the worker it
/// holds (one more spare); a hedge costs its copy's end and the next timer. A timer that
/// re-arms without sending a hedge, again and again, breaks it: the work would then grow with
/// how long a request lives rather than with the requests.
const EVENTS_PER_ARRIVAL: u64 = 6;
const EVENTS_PER_HEDGE: u64 = 2;
const EVENTS_SLACK: u64 = 1000;

/// The totals of one region's request engine over the run so far.
#[derive(Clone, Copy, Debug, Default)]
struct Work {
    events: u64,
    arrivals: u64,
    hedges: u64,
}

/// Checks one region's request-engine minute `m` and adds it to `work`.
fn check_requests(
    m: &RequestMinute,
    params: &ModelParams,
    what: &str,
    work: &mut Work,
) -> Result<(), TestCaseError> {
    for (name, x) in [
        ("p50_s", m.p50_s),
        ("p99_s", m.p99_s),
        ("measured.p99_s", m.measured.p99_s),
        ("formula.p99_s", m.formula.p99_s),
    ] {
        prop_assert!(x.is_finite() && x >= 0.0, "{what}: {name} = {x}");
    }
    if let Some(tokens) = m.tokens_left {
        let most = f64::from(params.hedge_max_tokens);
        prop_assert!(
            (0.0..=most).contains(&tokens),
            "{what}: tokens_left = {tokens} (bucket of {most})"
        );
    }
    for (side, f) in [("measured", &m.measured), ("formula", &m.formula)] {
        check_shares(
            &format!("{what} {side}"),
            &[
                ("utilization", f.utilization),
                ("timeout_share", f.timeout_share),
                ("p_wait", f.p_wait),
                ("rejected_share", f.rejected_share),
            ],
        )?;
    }
    for (i, load) in m.instances.iter().enumerate() {
        check_shares(
            &format!("{what} instance {i}"),
            &[("utilization", load.utilization)],
        )?;
    }
    work.events += m.events;
    work.arrivals += m.arrivals;
    work.hedges += m.hedges.sent;
    let bound = EVENTS_PER_ARRIVAL * work.arrivals + EVENTS_PER_HEDGE * work.hedges + EVENTS_SLACK;
    prop_assert!(
        work.events <= bound,
        "{what}: the request engine handled {} events so far for {} arrivals and {} hedges \
         (at most {bound}); this minute {} events, {} arrivals, {} hedges, {} served, {} \
         timeouts, tokens left {:?}",
        work.events,
        work.arrivals,
        work.hedges,
        m.events,
        m.arrivals,
        m.hedges.sent,
        m.served,
        m.timeouts,
        m.tokens_left
    );
    Ok(())
}

/// Most minutes a run on the request engine is simulated for. A request-engine minute at a
/// scenario's own traffic costs milliseconds where the formulas' costs microseconds (about
/// 5 ms, 12 ms with hedging, in a release build), so those runs are kept short for the
/// default count of inputs to finish in well under a minute per target; the actions' minutes
/// are drawn early often enough to apply within them.
const REQUEST_MINUTES: u32 = 3;

/// Runs `minutes` (at most [`REQUEST_MINUTES`] on the request engine) and checks every record
/// (the minute's, each region's and each request engine's), every event and its message, and
/// the summary; notes in `reach` what the run reached.
fn check_run(mut sim: Simulation, minutes: u32, reach: &Reach) -> Result<(), TestCaseError> {
    let engine = sim.params().engine.unwrap_or(sim.scenario().engine);
    let minutes = if engine == EngineKind::Requests {
        minutes.min(REQUEST_MINUTES)
    } else {
        minutes
    };
    let mut facts = RunFacts::default();
    let mut work = vec![Work::default(); sim.region_count()];
    for _ in 0..minutes {
        let record = sim.step().clone();
        let what = format!("minute {}", record.minute);
        let value = serde_json::to_value(&record).unwrap();
        check_fields(&what, &value)?;
        check_shares(
            &what,
            &[
                ("utilization", record.utilization),
                ("error_rate", record.error_rate),
                ("timeout_share", record.timeout_share),
                ("rejected_share", record.rejected_share),
                ("shed_share", record.shed_share),
                ("cache_hit", record.cache_hit),
            ],
        )?;
        prop_assert!(record.p99_ms >= 0.0 && record.requests_per_s >= 0.0);
        for (r, work) in work.iter_mut().enumerate() {
            let Some(m) = sim.region_requests(r) else {
                continue;
            };
            facts.requests = true;
            facts.hedging |= m.hedging;
            facts.hedges_sent += m.hedges.sent;
            let what = format!("{what}, region {}, request engine", REGION_CODES[r]);
            check_requests(m, sim.params(), &what, work)?;
        }
        if let Some(regions) = sim.region_history().last() {
            for region in regions {
                let what = format!("{what}, region {}", region.region);
                check_fields(&what, &serde_json::to_value(region).unwrap())?;
                check_shares(
                    &what,
                    &[
                        ("error_rate", region.error_rate),
                        ("cache_hit", region.cache_hit),
                        ("traffic_share", region.traffic_share),
                        ("failed_over_share", region.failed_over_share),
                    ],
                )?;
                prop_assert!(region.p99_ms >= 0.0 && region.requests_per_s >= 0.0);
            }
        }
    }
    for event in sim.events() {
        let line = serde_json::to_string(event).unwrap();
        prop_assert!(!non_finite(&line), "{line}");
        let message = match &event.kind {
            EventKind::Action {
                action: ActionKind::Region(a),
            } => Some(a.message()),
            kind => kind.regional_message(),
        };
        if let Some(message) = message {
            let text = message.to_string();
            check_text(&text, 4000)?;
            prop_assert!(!non_finite(&text), "{text}");
        }
    }
    let summary = serde_json::to_value(sim.summary()).unwrap();
    for (field, v) in summary.as_object().unwrap() {
        if let Some(x) = v.as_f64() {
            prop_assert!(x.is_finite(), "summary {field} = {x}");
        }
    }
    for w in &work {
        facts.engine_events += w.events;
        facts.arrivals += w.arrivals;
    }
    reach.run(&sim, &facts);
    Ok(())
}

// ---- Targets -----------------------------------------------------------------------------

/// Applies `pairs` to `setup` by name (what is refused is left out) and returns the names
/// set.
fn set_all<'a>(setup: &mut RunSetup, pairs: &'a [(String, String)]) -> Vec<&'a str> {
    let mut given = Vec::new();
    for (name, text) in pairs {
        if setup.set(name, text).is_ok() {
            given.push(name.as_str());
        }
    }
    given
}

/// Applies the shaping `pairs` to `setup` as a link does: what is refused is left out, a
/// hedge delay against hedging's rule goes back to its default, and hedging goes off if the
/// rule still does not hold.
fn shape(setup: &mut RunSetup, pairs: &[(String, String)]) {
    set_all(setup, pairs);
    if setup.check_rules(&[]).is_err() {
        setup.params.hedge_delay_ms = ModelParams::default().hedge_delay_ms;
    }
    if setup.check_rules(&[]).is_err() {
        setup.params.hedge = Some(Switch::Off);
    }
}

#[test]
fn fuzz_links() {
    fuzz(
        "links",
        (link_pairs(), 1u32..6),
        |(pairs, minutes), reach| {
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
            check_run(sim.unwrap(), minutes, reach)?;
            Ok(notices_first.is_empty())
        },
    );
}

#[test]
fn fuzz_elastic_configurations() {
    fuzz(
        "elastic configurations",
        (
            config_text(),
            prop::sample::select(ScenarioId::ALL),
            shaping_pairs(),
            any::<u32>(),
        ),
        |(text, scenario, shaping, seed), reach| {
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
                    let mut setup = RunSetup::new(scenario, seed);
                    shape(&mut setup, &shaping);
                    setup.policy = PolicyId::Elastic;
                    setup.policies.elastic = config;
                    check_run(setup.build().unwrap(), 4, reach)?;
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
        prop::sample::select(ScenarioId::ALL),
        prop::sample::select(PolicyId::ALL),
        shaping_pairs(),
        any::<u32>(),
    );
    fuzz(
        "actions",
        strategy,
        |(texts, scenario, policy, shaping, seed), reach| {
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
            let mut setup = RunSetup::new(scenario, seed);
            setup.policy = policy;
            shape(&mut setup, &shaping);
            let parsed = !actions.is_empty();
            setup.actions = actions;
            check_run(setup.build().unwrap(), 12, reach)?;
            Ok(parsed)
        },
    );
}

#[test]
fn fuzz_parameters() {
    let strategy = (
        shaping_pairs(),
        prop::collection::vec(named_pair(), 0..8),
        prop::sample::select(ScenarioId::ALL),
        any::<u32>(),
        1u32..6,
    );
    fuzz(
        "parameters",
        strategy,
        |(shaping, sets, scenario, seed, minutes), reach| {
            let mut setup = RunSetup::new(scenario, seed);
            let mut given = set_all(&mut setup, &shaping);
            given.extend(set_all(&mut setup, &sets));
            match setup.check_rules(&given) {
                Ok(()) => {
                    let sim = setup.build();
                    prop_assert!(sim.is_ok(), "{setup:?}: {:?}", sim.err());
                    check_run(sim.unwrap(), minutes, reach)?;
                    Ok(!given.is_empty())
                }
                Err(e) => {
                    // The error blames one of the parameters that were set.
                    prop_assert!(given.contains(&e.field.as_str()), "{e} not in {given:?}");
                    check_text(&e.to_string(), 1000)?;
                    Ok(false)
                }
            }
        },
    );
}

#[test]
fn the_default_elastic_configuration_parses() {
    // Guards the generators' assumption that the export format is accepted.
    let text = ElasticConfig::default().to_json_text(true);
    assert!(elastic::parse(&text).is_ok());
}

#[test]
fn every_action_has_a_known_shape() {
    // Guards the generators: an action whose value this harness cannot draw would be fuzzed
    // with junk only.
    for name in all_action_names() {
        let shape = action_shape(name);
        let known = match &shape {
            Shape::InRegion(inner) => **inner != Shape::Unknown,
            shape => *shape != Shape::Unknown,
        };
        assert!(known, "{name}: {shape:?}");
    }
}

/// The failures the harness found, each at its smallest input, with every check on: with
/// hedging on and the token bucket empty, hedge timers used to re-arm every delay for as long
/// as a request lived (13 events per arrival here from the first minute).
#[test]
fn hedge_timers_without_tokens_stay_bounded() {
    let mut setup = RunSetup::new(ScenarioId::FreePlay, 0);
    for (name, value) in [
        (ENGINE_PARAM, "requests"),
        (HEDGE_PARAM, "on"),
        ("app_time_ms", "2000"),
        ("timeout_s", "10"),
    ] {
        setup.set(name, value).unwrap();
    }
    let result = check_run(setup.build().unwrap(), 1, &Reach::default());
    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn the_hedging_rule_blames_a_parameter_that_was_set() {
    let mut setup = RunSetup::new(ScenarioId::FreePlay, 0);
    let given = [HEDGE_PARAM, "timeout_s"];
    setup.set(HEDGE_PARAM, "on").unwrap();
    setup.set("timeout_s", "0.05").unwrap();
    let e = setup.check_rules(&given).unwrap_err();
    assert!(given.contains(&e.field.as_str()), "{e} not in {given:?}");
}

/// Found with `FUZZ_SEED=2` (the actions): with hedging on in three regions, the fleet's
/// minimum lowered and region c's zone down, an instance of region c's request engine showed
/// a negative utilization (-0.39 in minute 2: events that fell due while the region served
/// nothing were handled at their own, past, times).
#[test]
fn no_negative_instance_utilization_after_a_zone_outage() {
    let mut setup = RunSetup::new(ScenarioId::FreePlay, 0);
    for (name, value) in [
        (ENGINE_PARAM, "requests"),
        (HEDGE_PARAM, "on"),
        ("regions", "3"),
    ] {
        setup.set(name, value).unwrap();
    }
    setup.actions = ["0:min_instances=5", "1:zone_outage=c:1"]
        .iter()
        .map(|a| Action::parse(a, 10).unwrap())
        .collect();
    let result = check_run(setup.build().unwrap(), 3, &Reach::default());
    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn the_checks_fail_on_broken_records() {
    // Each check of a run's records against a record broken on purpose: a check that
    // cannot fail checks nothing.
    let params = ModelParams::default();
    let sound = RequestMinute {
        arrivals: 1000,
        events: 3000,
        ..RequestMinute::default()
    };
    let check = |m: &RequestMinute| check_requests(m, &params, "broken", &mut Work::default());
    assert!(check(&sound).is_ok());
    let mut broken = Vec::new();
    let mut m = sound.clone();
    m.p99_s = f64::NAN;
    broken.push(m);
    let mut m = sound.clone();
    m.measured.timeout_share = 1.5;
    broken.push(m);
    let mut m = sound.clone();
    m.formula.utilization = -0.1;
    broken.push(m);
    let mut m = sound.clone();
    m.tokens_left = Some(f64::from(params.hedge_max_tokens) + 1.0);
    broken.push(m);
    let mut m = sound.clone();
    m.instances = vec![oncall_sim::engine::requests::InstanceLoad {
        utilization: f64::INFINITY,
        ..Default::default()
    }];
    broken.push(m);
    let mut m = sound.clone();
    m.events = EVENTS_PER_ARRIVAL * m.arrivals + EVENTS_SLACK + 1;
    broken.push(m);
    for m in &broken {
        assert!(check(m).is_err(), "{m:?}");
    }
    // The region records' and the minute records' fields and shares.
    assert!(check_fields("broken", &serde_json::json!({ "p99_ms": null })).is_err());
    assert!(check_fields("sound", &serde_json::json!({ "p99_ms": 1.0 })).is_ok());
    assert!(check_shares("broken", &[("traffic_share", 1.01)]).is_err());
    assert!(check_shares("sound", &[("traffic_share", 1.0)]).is_ok());
    // A message's text.
    assert!(check_text("a\u{1b}[2J", 100).is_err());
    assert!(non_finite("p99 NaN ms") && non_finite("rate inf") && !non_finite("infinite"));
}
