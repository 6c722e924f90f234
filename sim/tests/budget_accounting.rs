//! The error budget's two accountings: by time (the source's rule and the default: burn /
//! 43,200 a minute) and by requests (`budget_accounting=requests`: errors over the month's
//! allowed errors, so a busy minute costs more than a quiet one).

mod common;
use common::cli;
use oncall_sim::budget::{self, BudgetAccounting};
use oncall_sim::ids::ScenarioId;
use oncall_sim::setup::{RunOutcome, RunSetup, SetError};
use oncall_sim::share::{owned_pairs, ShareState};

/// `scenario` with `seed` for `minutes`, with `budget_accounting` set as text when given.
fn run(scenario: ScenarioId, seed: u32, accounting: Option<&str>, minutes: u32) -> RunOutcome {
    let mut setup = RunSetup::new(scenario, seed);
    if let Some(text) = accounting {
        setup.set("budget_accounting", text).unwrap();
    }
    setup.run(minutes).unwrap()
}

#[test]
fn by_requests_the_viral_surge_spends_more_than_by_time() {
    for seed in [1, 42] {
        let time = run(ScenarioId::ViralSurge, seed, None, 240)
            .summary
            .budget_spent;
        let requests = run(ScenarioId::ViralSurge, seed, Some("requests"), 240)
            .summary
            .budget_spent;
        assert!(time > 0.01, "seed {seed}: the surge spends budget ({time})");
        assert!(
            requests > time,
            "seed {seed}: by requests {requests}, by time {time}"
        );
    }
}

#[test]
fn time_is_the_default_and_its_rule_is_unchanged() {
    let default = run(ScenarioId::ViralSurge, 1, None, 240);
    let time = run(ScenarioId::ViralSurge, 1, Some("time"), 240);
    assert_eq!(default, time);
    // Each minute spends exactly burn / 43,200 of the budget, bit for bit.
    let slo = RunSetup::new(ScenarioId::ViralSurge, 1).params.slo;
    let mut spent = 0;
    for pair in default.history.windows(2) {
        let rule = budget::budget_spent_per_minute(budget::burn_rate(pair[0].error_rate, slo));
        assert_eq!(
            pair[1].budget_left.to_bits(),
            (pair[0].budget_left - rule).to_bits(),
            "minute {}",
            pair[0].minute
        );
        spent += usize::from(rule > 0.0);
    }
    assert!(spent > 10, "the run has minutes that spend budget");
}

#[test]
fn by_requests_each_minute_costs_in_proportion_to_its_traffic() {
    let time = run(ScenarioId::ViralSurge, 42, None, 240);
    let requests = run(ScenarioId::ViralSurge, 42, Some("requests"), 240);
    let base = oncall_sim::exercise::scenario(ScenarioId::ViralSurge).base_rps;
    // The accounting changes the budget and nothing else.
    assert_eq!(time.events, requests.events);
    let (mut cheapest, mut dearest) = (f64::INFINITY, 0.0f64);
    for (t, r) in time.history.windows(2).zip(requests.history.windows(2)) {
        let mut same = r[0].clone();
        same.budget_left = t[0].budget_left;
        assert_eq!(same, t[0]);
        let by_time = t[0].budget_left - t[1].budget_left;
        let by_requests = r[0].budget_left - r[1].budget_left;
        if by_time < 1e-9 {
            assert!(by_requests < 1e-9, "minute {}", t[0].minute);
            continue;
        }
        let admitted = r[0].requests_per_s * (1.0 - r[0].shed_share);
        let ratio = by_requests / by_time;
        assert!(
            (ratio / (admitted / base) - 1.0).abs() < 1e-6,
            "minute {}: {ratio} vs {admitted} / {base}",
            t[0].minute
        );
        cheapest = cheapest.min(ratio);
        dearest = dearest.max(ratio);
    }
    // The surge's minutes carry well above the base rate, so they cost more than by time.
    assert!(dearest > 1.5, "{dearest}");
    assert!(cheapest < dearest, "{cheapest} {dearest}");
}

#[test]
fn the_link_carries_the_accounting() {
    let (state, notices, rest) = ShareState::from_pairs(&owned_pairs(&[
        ("scenario", "viral-surge"),
        ("seed", "3"),
        ("budget_accounting", "requests"),
    ]));
    assert!(
        notices.is_empty() && rest.is_empty(),
        "{notices:?} {rest:?}"
    );
    assert_eq!(state.params.budget_accounting, BudgetAccounting::Requests);
    let pairs = state.to_pairs();
    assert!(
        pairs.contains(&("budget_accounting".to_string(), "requests".to_string())),
        "{pairs:?}"
    );
    let (back, notices, _) = ShareState::from_pairs(&pairs);
    assert!(notices.is_empty());
    assert_eq!(back, state);
    let mut sim = back.simulation(3).unwrap();
    sim.run(5);
    assert_eq!(sim.params().budget_accounting, BudgetAccounting::Requests);
    // The default is not written, so links made before the option read the same.
    let plain = ShareState::default().to_pairs();
    assert!(
        plain.iter().all(|(k, _)| k != "budget_accounting"),
        "{plain:?}"
    );
}

#[test]
fn an_unknown_accounting_is_refused_with_what_is_allowed() {
    let (state, notices, _) = ShareState::from_pairs(&owned_pairs(&[
        ("budget_accounting", "events"),
        ("timeout_s", "3"),
    ]));
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].param, "budget_accounting");
    assert_eq!(notices[0].value, "events");
    assert_eq!(notices[0].allowed.to_string(), "one of time, requests");
    assert_eq!(state.params.budget_accounting, BudgetAccounting::Time);
    assert_eq!(state.params.timeout_s, 3.0);

    let mut setup = RunSetup::new(ScenarioId::FreePlay, 1);
    let before = setup.clone();
    match setup.set("budget_accounting", "Requests") {
        Err(SetError::UnknownId(e)) => {
            assert_eq!(e.kind, "budget_accounting");
            assert_eq!(e.allowed, ["time", "requests"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(setup, before);
}

#[test]
fn the_command_line_sets_and_checks_the_accounting() {
    let args = |value: &'static str| {
        [
            "run",
            "--scenario",
            "bad-deploy",
            "--seed",
            "4",
            "--minutes",
            "60",
            "--set",
            value,
        ]
    };
    let last_budget = |out: &str| -> f64 {
        let last = out
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .rfind(|v| v.get("event").is_none())
            .unwrap();
        last["budget_left"].as_f64().unwrap()
    };
    let (code, by_time, err) = cli(&args("budget_accounting=time"));
    assert_eq!(code, 0, "{err}");
    let (code, by_requests, err) = cli(&args("budget_accounting=requests"));
    assert_eq!(code, 0, "{err}");
    let (time_left, requests_left) = (last_budget(&by_time), last_budget(&by_requests));
    assert!(time_left < 0.2 && requests_left < 0.2);
    assert_ne!(time_left, requests_left);

    let (code, out, err) = cli(&args("budget_accounting=events"));
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err.trim_end(),
        "oncall-sim: --set budget_accounting: \"events\" is not allowed; use one of time, requests"
    );
}
