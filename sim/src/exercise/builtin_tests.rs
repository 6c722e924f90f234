//! The built-in scenarios' draws: the same for a seed, spread over their ranges, and the
//! ranges the sources panel states.

use crate::exercise::scenario as get;
use crate::ids::ScenarioId;
use crate::region_action::RegionAction;
use crate::relations::RelationId;
use crate::scenario::*;

/// The first inject of kind `$kind` in built-in scenario `$id`'s timeline.
macro_rules! twist {
    ($id:expr, $kind:ident) => {
        get($id)
            .first(|i| match i {
                Inject::$kind(d) => Some(*d),
                _ => None,
            })
            .unwrap()
    };
}

#[test]
fn every_id_resolves() {
    assert_eq!(crate::exercise::scenarios().len(), 7);
    for s in crate::exercise::scenarios() {
        assert_eq!(crate::exercise::scenario_by_id(s.id.as_str()).unwrap(), s);
    }
    assert!(crate::exercise::scenario_by_id("nope").is_none());
}

fn deploy(seed: u32) -> (u32, u32, f64) {
    match twist!(ScenarioId::BadDeploy, BadDeploy).draw(seed) {
        Scripted::Deploy {
            minute,
            bad,
            rollout_minutes,
            severity,
        } => {
            assert!(bad);
            (minute, rollout_minutes, severity)
        }
        other => panic!("{other:?}"),
    }
}

fn flush(seed: u32) -> (u32, f64) {
    match twist!(ScenarioId::CacheFlush, CacheFlush).draw(seed) {
        Scripted::CacheFlush { minute, share } => (minute, share),
        other => panic!("{other:?}"),
    }
}

#[test]
fn twists_are_the_same_for_a_seed_and_differ_across_seeds() {
    for seed in [7, 42, 1] {
        assert_eq!(deploy(seed), deploy(seed));
        assert_eq!(flush(seed), flush(seed));
        let drift = twist!(ScenarioId::FreePlay, TrafficDrift);
        assert_eq!(drift.draw(seed), drift.draw(seed));
        let s = get(ScenarioId::BadDeploy);
        assert_eq!(s.script(seed), s.script(seed));
    }
    // Seeds 7 and 42: the bad build goes out at 09:08 over 5 minutes failing 1.15 × the
    // model's share, or at 09:07 over 5 minutes failing 0.86 ×; the flush comes at
    // minute 19 (89 %) or 14 (83 %).
    assert_ne!(deploy(7), deploy(42));
    assert_ne!(deploy(7).0, deploy(42).0);
    assert_ne!(flush(7), flush(42));
    assert_ne!(flush(7).0, flush(42).0);
    let drift = twist!(ScenarioId::FreePlay, TrafficDrift);
    assert_ne!(drift.draw(7), drift.draw(42));
    // The other scenarios have no script.
    assert!(get(ScenarioId::FreePlay).script(7).is_empty());
    assert!(get(ScenarioId::ViralSurge).script(7).is_empty());
}

#[test]
fn twists_stay_within_their_ranges_and_cover_them() {
    let d = twist!(ScenarioId::BadDeploy, BadDeploy);
    let f = twist!(ScenarioId::CacheFlush, CacheFlush);
    let r = twist!(ScenarioId::FreePlay, TrafficDrift);
    let mut starts = std::collections::BTreeSet::new();
    let mut lengths = std::collections::BTreeSet::new();
    let mut flush_minutes = std::collections::BTreeSet::new();
    let (mut sev_lo, mut sev_hi) = (f64::MAX, f64::MIN);
    let (mut level_lo, mut level_hi) = (f64::MAX, f64::MIN);
    for seed in (0..20_000u32).map(|k| k.wrapping_mul(2_654_435_761)) {
        let (start, length, severity) = deploy(seed);
        assert!((d.start_min.0..=d.start_min.1).contains(&start), "{seed}");
        assert!(
            (d.rollout_min.0..=d.rollout_min.1).contains(&length),
            "{seed}"
        );
        assert!(
            severity >= d.severity.0 && severity < d.severity.1,
            "{seed}"
        );
        starts.insert(start);
        lengths.insert(length);
        (sev_lo, sev_hi) = (sev_lo.min(severity), sev_hi.max(severity));
        let (minute, share) = flush(seed);
        assert!((f.minute.0..=f.minute.1).contains(&minute), "{seed}");
        assert!(share >= f.share.0 && share < f.share.1, "{seed}");
        flush_minutes.insert(minute);
        let drift = r.draw(seed);
        assert!(drift.level >= r.level.0 && drift.level < r.level.1);
        assert!(drift.tau_min >= r.tau_min.0 && drift.tau_min < r.tau_min.1);
        (level_lo, level_hi) = (level_lo.min(drift.level), level_hi.max(drift.level));
    }
    // Every whole minute of each range comes up, and the shares spread over theirs.
    assert_eq!(starts.len() as u32, d.start_min.1 - d.start_min.0 + 1);
    assert_eq!(lengths.len() as u32, d.rollout_min.1 - d.rollout_min.0 + 1);
    assert_eq!(flush_minutes.len() as u32, f.minute.1 - f.minute.0 + 1);
    assert!(sev_lo < d.severity.0 + 0.01 && sev_hi > d.severity.1 - 0.01);
    assert!(level_lo < r.level.0 + 0.01 && level_hi > r.level.1 - 0.01);
}

#[test]
fn the_sources_panel_states_the_ranges_the_scenarios_draw_from() {
    let text = crate::catalog::relations_en::texts(RelationId::ScenarioTwists).formula;
    let d = twist!(ScenarioId::BadDeploy, BadDeploy);
    let f = twist!(ScenarioId::CacheFlush, CacheFlush);
    let r = twist!(ScenarioId::FreePlay, TrafficDrift);
    let v = twist!(ScenarioId::ViralSurge, TrafficSurge);
    let o = twist!(ScenarioId::RegionalOutage, RegionFailure);
    assert_eq!(o.zone_outage_chance, 0.75, "3 seeds in 4");
    for needle in [
        format!(
            "rollout starts at minute {}–{}",
            d.start_min.0, d.start_min.1
        ),
        format!("lasts {}–{} min", d.rollout_min.0, d.rollout_min.1),
        format!("fails {}–{} ×", d.severity.0, d.severity.1),
        format!("at minute {}–{} (", f.minute.0, f.minute.1),
        format!("{}–{} % of the cache", f.share.0 * 100.0, f.share.1 * 100.0),
        format!("level {} % to +{} %", r.level.0 * 100.0, r.level.1 * 100.0),
        format!("τ {}–{} min", r.tau_min.0, r.tau_min.1),
        format!("start at minute {}–{}", v.start_min.0, v.start_min.1),
        format!("peak ×{}–×{}", v.peak.0, v.peak.1),
        format!("ramp {}–{} min", v.ramp_min.0, v.ramp_min.1),
        format!("hold {}–{} min", v.hold_min.0, v.hold_min.1),
        format!("τ = {} min", v.decay_min),
        format!(
            "regional outage: at minute {}–{}",
            o.start_min.0, o.start_min.1
        ),
        format!(
            "loses {}–{} % of its instances",
            o.share.0 * 100.0,
            o.share.1 * 100.0
        ),
        format!("back after {}–{} min", o.duration_min.0, o.duration_min.1),
        {
            let d = twist!(ScenarioId::SlowInstance, SlowInstance);
            format!(
                "one of {} instances at minute {}–{} (11:58–12:05) for {}–{} min, service times ×{}–×{}",
                d.among, d.start_min.0, d.start_min.1, d.minutes.0, d.minutes.1, d.factor.0, d.factor.1
            )
        },
        {
            let d = twist!(ScenarioId::HotKey, HotKey);
            format!(
                "at minute {}–{} (11:48–11:55) for {}–{} min, carrying {}–{} %",
                d.start_min.0,
                d.start_min.1,
                d.minutes.0,
                d.minutes.1,
                d.share.0 * 100.0,
                d.share.1 * 100.0
            )
        },
    ] {
        let needle = needle.replace('-', "−");
        assert!(text.contains(&needle), "{needle:?} not in {text:?}");
    }
}

#[test]
fn surge_depends_on_seed_only() {
    let d = twist!(ScenarioId::ViralSurge, TrafficSurge);
    assert_eq!(d.draw(1), d.draw(1));
    assert_ne!(d.draw(1), d.draw(2));
}

#[test]
fn the_same_seed_gives_the_same_failure_and_others_differ() {
    let d = twist!(ScenarioId::RegionalOutage, RegionFailure);
    assert_eq!(d.draw(7), d.draw(7));
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..200u32 {
        let s = d.draw(seed);
        let Scripted::RegionFailure { minute, action } = s[0] else {
            panic!("{s:?}")
        };
        assert!((d.start_min.0..=d.start_min.1).contains(&minute));
        if let RegionAction::ZoneOutage { share, .. } = action {
            assert!(share >= d.share.0 && share < d.share.1);
        }
        let Scripted::RegionFailure { minute: back, .. } = s[1] else {
            panic!("{s:?}")
        };
        assert!(back >= minute + d.duration_min.0 && back <= minute + d.duration_min.1);
        kinds.insert(action.name());
    }
    assert_eq!(kinds.len(), 2, "both failures come up");
}

#[test]
fn the_built_in_files_are_in_canonical_form_and_say_what_the_catalog_says() {
    use crate::catalog::en;
    for id in ScenarioId::ALL {
        let exercise = crate::exercise::builtin(*id);
        assert_eq!(exercise.id, id.as_str());
        // Exporting a built-in exercise gives its file back, byte for byte.
        assert_eq!(
            crate::exercise::file::write(&exercise),
            crate::exercise::builtin_text(*id),
            "{id}"
        );
        // The console and the command line show the catalog's words for a built-in
        // exercise (so that they can be translated); its file carries the same English.
        assert_eq!(exercise.title, en::scenario_title(*id), "{id}");
        assert_eq!(exercise.briefing, en::scenario_briefing(*id), "{id}");
        assert_eq!(exercise.lesson, en::template(lesson(*id)), "{id}");
    }
}

/// The Rust text of the built-in exercises' numbers that the page's first download compiles
/// in (it reads no file): generated from the files.
fn compiled_text() -> String {
    use crate::exercise::{builtin, When};
    let mut scenarios = String::new();
    let mut expected = String::new();
    for id in ScenarioId::ALL {
        let e = builtin(*id);
        let s = &e.scenario;
        let settings = if s.settings == crate::action::Settings::default() {
            "Settings::default()".to_string()
        } else {
            format!("{:?}", s.settings).replace("lb: ", "lb: Routing::")
        };
        let timeline: Vec<String> = s
            .timeline
            .iter()
            .map(|i| format!("Inject::{i:?}"))
            .collect();
        scenarios.push_str(&format!(
            "        ScenarioId::{id:?} => Scenario {{\n            id,\n            clock_min: {},\n            budget_left: {:?},\n            boot_minutes: {},\n            base_rps: {:?},\n            instances: {},\n            settings: {},\n            timeline: vec![{}],\n            minutes: {:?},\n            engine: EngineKind::{:?},\n            regions: {},\n        }},\n",
            s.clock_min,
            s.budget_left,
            s.boot_minutes,
            s.base_rps,
            s.instances,
            settings,
            timeline.join(", "),
            s.minutes,
            s.engine,
            s.regions,
        ));
        let steps: Vec<String> = e
            .expected
            .iter()
            .map(|step| {
                let when = match step.when {
                    When::AtPage => "When::AtPage",
                    When::AtFirstErrors => "When::AtFirstErrors",
                };
                let action = format!("{:?}", step.action)
                    .replace("Region(", "Region(RegionAction::")
                    .replace("Lb(", "Lb(Routing::");
                format!("Step {{ when: {when}, action: ActionKind::{action} }}")
            })
            .collect();
        expected.push_str(&format!(
            "        ScenarioId::{id:?} => vec![{}],\n",
            steps.join(", ")
        ));
    }
    format!(
        "//! The built-in exercises' numbers for the page's first download, which reads no file.\n\
         //! Generated from `sim/scenarios/*.json` by the test\n\
         //! `the_compiled_built_in_exercises_are_their_files`, which fails when this text differs\n\
         //! from what the files give (`ONCALL_SIM_WRITE_COMPILED=1` rewrites it).\n\
         #![allow(dead_code)]\n\n\
         use super::{{Step, When}};\n\
         use crate::action::{{ActionKind, Settings}};\n\
         use crate::balance::Routing;\n\
         use crate::region_action::RegionAction;\n\
         use crate::ids::ScenarioId;\n\
         use crate::params::EngineKind;\n\
         use crate::scenario::*;\n\n\
         /// The scenario of built-in exercise `id`.\n\
         pub(super) fn scenario(id: ScenarioId) -> Scenario {{\n    match id {{\n{scenarios}    }}\n}}\n\n\
         /// The response built-in exercise `id` expects.\n\
         pub(super) fn expected(id: ScenarioId) -> Vec<Step> {{\n    match id {{\n{expected}    }}\n}}\n"
    )
}

#[test]
fn the_compiled_built_in_exercises_are_their_files() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/exercise/compiled.rs");
    let text = compiled_text();
    if std::env::var_os("ONCALL_SIM_WRITE_COMPILED").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        text,
        "run this test with ONCALL_SIM_WRITE_COMPILED=1 and commit compiled.rs"
    );
    // And what it compiles to is what the files read to.
    for id in ScenarioId::ALL {
        assert_eq!(super::compiled::scenario(*id), get(*id), "{id}");
        assert_eq!(super::compiled::expected(*id), super::expected(*id), "{id}");
    }
}

/// Each kind of hint comes due when its condition first holds, and stays due.
#[test]
fn hints_come_due_at_their_minute_after_an_unanswered_page_and_below_a_budget() {
    use crate::action::Action;
    use crate::exercise::{hints_due, Hint, HintTrigger};
    use crate::setup::RunSetup;
    let hint = |trigger| Hint {
        trigger,
        text: String::new(),
    };
    let hints = [
        hint(HintTrigger::At(10)),
        hint(HintTrigger::PagedWithoutAction(3)),
        hint(HintTrigger::BudgetBelow(0.19)),
    ];
    // The bad deploy, seed 7: the page fires at the end of minute 25 (shown from 26).
    let idle = RunSetup::new(crate::ids::ScenarioId::BadDeploy, 7)
        .run(40)
        .unwrap();
    let due = |minutes: usize, actions: &[Action], budget: f64| {
        hints_due(&hints, &idle.history[..minutes], actions, budget)
    };
    assert_eq!(due(9, &[], 0.2), Vec::<usize>::new());
    assert_eq!(due(10, &[], 0.2), [0]);
    assert_eq!(due(28, &[], 0.2), [0]);
    assert_eq!(due(29, &[], 0.2), [0, 1]);
    let answered = [Action::parse("27:min_instances=10", 100).unwrap()];
    assert_eq!(due(40, &answered, 0.2), [0]);
    assert_eq!(due(40, &answered, 0.18), [0, 2]);
}
