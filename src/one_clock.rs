//! One clock on every surface. A run is played as the page plays it (a step a minute, the
//! user's action taken when the status strip shows its minute), and at every minute the
//! strip, the host page's messages, the event log, the link's action stamps, the command
//! line's lines and the debrief are compared: minute M goes with `clock_at(M)` and with the
//! budget left at M wherever they show it (see `Journal::clock_at`).

use oncall_sim::{coach, Action, ActionKind, EventKind, ModelParams};

use crate::components::host::{event_at, strip_after};
use crate::console::Console;
use crate::event_text::{describe, event_time};
use crate::format::{format_value, Format, Value};
use crate::i18n::core_text;
use oncall_sim::share::ShareState;

fn budget(x: f64) -> String {
    format_value(Format::Percent { decimals: 1 }, Value::Number(x))
}

/// Plays `scenario` with seed `seed` to its end, taking `action` when the strip shows
/// minute `at`; checks the strip and the host page's minute message at every minute.
fn play(scenario: &str, seed: u32, at: u32, action: ActionKind) -> Console {
    let state = ShareState {
        scenario: scenario.parse().unwrap(),
        ..ShareState::default()
    };
    let mut c = Console::start(state, seed).unwrap();
    while !c.finished() {
        let s = c.snapshot();
        let sim = c.sim();
        let m = sim.minute();
        assert_eq!(
            (s.minutes, &s.next_clock),
            (m, &sim.clock_at(m).to_string()),
            "the strip"
        );
        assert_eq!(
            Some(s.budget_left),
            sim.budget_left_at(m),
            "the strip's budget"
        );
        let host = strip_after(sim, sim.history().last().unwrap());
        assert_eq!(
            host,
            (m, s.next_clock.clone(), s.budget_left),
            "the host's minute"
        );
        if m == at {
            assert!(c.act(action.clone()));
        }
        c.step();
    }
    c
}

/// The action taken at `at`: the link's stamp, its event, its log line and its host message
/// all say minute `at` at `clock_at(at)`.
fn action_agrees(c: &Console, at: u32) {
    let sim = c.sim();
    let stamped: Vec<u32> = c.share_state().actions.iter().map(|a| a.minute).collect();
    assert_eq!(stamped, [at], "the link's stamp");
    let event = sim
        .events()
        .iter()
        .find(|e| matches!(e.kind, EventKind::Action { .. }))
        .expect("the action took effect");
    assert_eq!(
        event_at(event),
        (at, sim.clock_at(at).to_string()),
        "the host's event"
    );
    assert_eq!(
        event_time(event),
        sim.clock_at(at).to_string(),
        "the log's time"
    );
}

/// Every event: the log, the host page and the command line give its minute and time; a page
/// event is in the minute whose record first pages, which the strip shows at the next minute.
fn events_agree(c: &Console, actions: &[Action]) {
    let sim = c.sim();
    let clock = |m: u32| sim.clock_at(m).to_string();
    let scenario = oncall_sim::exercise::scenario(sim.scenario().id);
    let cli = oncall_sim::run_jsonl(
        &scenario,
        c.seed(),
        ModelParams::default(),
        actions,
        c.minutes(),
    );
    let cli_events: Vec<serde_json::Value> = cli
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("event").is_some())
        .collect();
    assert_eq!(
        cli_events.len(),
        sim.events().len(),
        "the command line's events"
    );
    for (e, line) in sim.events().iter().zip(&cli_events) {
        let (minute, time) = event_at(e);
        assert_eq!(
            (line["minute"].as_u64(), line["clock"].as_str()),
            (Some(u64::from(minute)), Some(time.as_str()))
        );
        assert_eq!(time, clock(e.minute));
        assert!(event_time(e).starts_with(&time));
        let (_, text) = describe(e, &clock);
        assert!(!text.is_empty());
        if matches!(e.kind, EventKind::PageFired { .. }) {
            let h = sim.history();
            assert!(h[e.minute as usize].paging, "the page's own minute pages");
            assert!(e.minute == 0 || !h[e.minute as usize - 1].paging);
        }
    }
    for line in cli
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
    {
        if line.get("event").is_none() {
            let m = line["minute"].as_u64().unwrap() as u32;
            assert_eq!(line["clock"].as_str(), Some(clock(m).as_str()));
            // JSON's reading of a float may differ in its last bit; the figure shown may not.
            let (printed, left) = (
                line["budget_left"].as_f64().unwrap(),
                sim.budget_left_at(m).unwrap(),
            );
            assert!((printed - left).abs() < 1e-12, "minute {m}");
            assert_eq!(budget(printed), budget(left), "minute {m}");
        }
    }
}

/// The debrief: the worst minute with its own time, the budget left as the strip shows it at
/// the end.
fn debrief_agrees(c: &Console) {
    let sim = c.sim();
    let w = coach::worst_minute(sim.history()).unwrap();
    assert_eq!(w.clock, sim.clock_at(w.minute));
    let text = core_text(&w.message());
    assert!(
        text.contains(&format!("minute {} ({})", w.minute, w.clock)),
        "{text}"
    );
    let s = c.snapshot();
    assert_eq!(c.summary().budget_left, s.budget_left);
    assert_eq!(budget(c.summary().budget_left), budget(s.budget_left));
    assert_eq!(
        (s.minutes, s.next_clock),
        (sim.minute(), sim.clock_at(sim.minute()).to_string())
    );
}

fn every_surface(scenario: &str, seed: u32, at: u32, action: ActionKind) -> Console {
    let c = play(scenario, seed, at, action.clone());
    action_agrees(&c, at);
    events_agree(
        &c,
        &[Action {
            minute: at,
            kind: action,
        }],
    );
    debrief_agrees(&c);
    c
}

#[test]
fn a_bad_deploy_rolled_back_at_26_reads_the_same_everywhere() {
    let c = every_surface("bad-deploy", 7, 26, ActionKind::Rollback);
    assert!(c
        .sim()
        .events()
        .iter()
        .any(|e| matches!(e.kind, EventKind::PageFired { .. })));
    assert_eq!(c.sim().clock_at(26).to_string(), "09:26");
}

#[test]
fn a_viral_surge_with_a_higher_floor_reads_the_same_everywhere() {
    every_surface("viral-surge", 11, 40, ActionKind::MinInstances(20));
}

#[cfg(feature = "extended")]
#[test]
fn a_regional_outage_reads_the_same_everywhere_and_in_words() {
    use oncall_sim::regions::RegionAction;
    let action = ActionKind::Region(RegionAction::RegionMinInstances { region: 1, min: 14 });
    let c = every_surface("regional-outage", 7, 40, action);
    let sim: &oncall_sim::Simulation = c.sim();
    let clock = |m: u32| sim.clock_at(m).to_string();
    // Words, not NAME=VALUE or unrounded numbers; every health event names its region; the
    // seed's failure is kept for the debrief, which tells it.
    let raw = |t: &str| {
        t.as_bytes()
            .windows(2)
            .any(|w| w[1] == b'=' && (w[0].is_ascii_alphanumeric() || w[0] == b'_'))
    };
    let unrounded = |t: &str| {
        t.as_bytes()
            .windows(6)
            .any(|w| w[0] == b'.' && w[1..].iter().all(u8::is_ascii_digit))
    };
    for e in sim.events() {
        let (_, text) = describe(e, &clock);
        assert!(!raw(&text) && !unrounded(&text), "{text}");
        if matches!(e.kind, EventKind::HealthTransition { .. }) {
            assert!(text.starts_with("Region "), "{text}");
        }
        let hidden = crate::region_text::hidden_while_playing(&e.kind);
        assert_eq!(hidden, matches!(e.kind, EventKind::Failure { .. }));
    }
    let twists = crate::region_text::twists(sim.events());
    assert!(!twists.is_empty());
    for t in &twists {
        assert!(t.starts_with("At ") && !raw(t) && !unrounded(t), "{t}");
    }
    let taken = crate::event_text::action_text(&c.share_state().actions[0].kind);
    assert_eq!(taken, "minimum instances in region B → 14");
}
