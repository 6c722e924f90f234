//! Exercise files: `scenario check` refuses each malformed file with one line (the file, the
//! line and column, the field, what is allowed) and exit status 2; `scenario export` gives
//! the built-in files back; a run from a file is the run of the built-in exercise it copies;
//! and any exercise the writer writes reads back to itself and runs.

mod common;

use common::cli;
use oncall_sim::exercise::{self, file, Exercise, Hint, HintTrigger, Objectives, Step, When};
use oncall_sim::ids::ScenarioId;
use oncall_sim::scenario::{
    DeployDraw, DriftDraw, FlushDraw, Inject, Scenario, SurgeDraw, WindowDraw,
};
use oncall_sim::setup::RunSetup;
use oncall_sim::ActionKind;
use proptest::prelude::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/exercises");

fn path(dir: &str, name: &str) -> String {
    format!("{DATA}/{dir}/{name}")
}

/// `scenario check` refuses `file` with exit status 2 and one line on stderr that names the
/// file, a line and a column, and says `expected`.
fn refused(file: &str, expected: &str) {
    let (code, out, err) = cli(&["scenario", "check", file]);
    assert_eq!(code, 2, "{file}: {err}");
    assert!(out.is_empty(), "{file}: {out}");
    assert_eq!(err.lines().count(), 1, "{file}: {err}");
    assert!(err.contains(file), "{file}: {err}");
    assert!(err.contains("line ") && err.contains("column "), "{err}");
    assert!(err.contains(expected), "{file}: {expected:?} not in {err}");
}

#[test]
fn each_malformed_file_gets_one_clear_line_and_exit_status_2() {
    for (name, expected) in [
        (
            "unknown-fault.json",
            "timeline[0].fault: unknown fault kind \"meteor_strike\"; allowed: bad_deploy, traffic_surge,",
        ),
        ("minute-past-end.json", "is past the end of the exercise"),
        ("overlapping-deploys.json", "may overlap in time with timeline[0]"),
        ("wrong-type.json", "minutes: must be a number"),
        (
            "unknown-parameter.json",
            "service.cpus: unknown field \"cpus\"; allowed: instances, base_rps, boot_minutes, engine, regions",
        ),
        ("missing-briefing.json", "the field \"briefing\" is missing"),
        ("bad-start.json", "\"25:00\" is not a time of day"),
        ("range-reversed.json", "a range is written [lo, hi] with lo ≤ hi"),
        ("needs-request-engine.json", "needs the request engine"),
        ("no-such-region.json", "region 1 does not exist"),
        ("newer-version.json", "version 2 is newer than this program reads"),
        ("not-json.json", "expected"),
        ("out-of-range.json", "budget_left: 1.5 is not allowed: must be a number from 0 to 1"),
    ] {
        refused(&path("bad", name), expected);
    }
}

#[test]
fn a_ten_megabyte_file_and_an_unknown_run_parameter_are_refused_too() {
    let dir = std::env::temp_dir().join(format!("oncall-sim-exercises-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let huge = dir.join("huge.json");
    std::fs::write(&huge, vec![b' '; 10 * 1024 * 1024]).unwrap();
    let (code, _, err) = cli(&["scenario", "check", huge.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is larger than 65536 bytes"), "{err}");

    // A run parameter the file sets is checked as `--set` checks it, with its place.
    let text = exercise::builtin_text(ScenarioId::BadDeploy).replace(
        "  \"timeline\"",
        "  \"params\": {\n    \"db_capacity\": 5\n  },\n  \"timeline\"",
    );
    let unknown = dir.join("unknown-param.json");
    std::fs::write(&unknown, text).unwrap();
    let (code, _, err) = cli(&["scenario", "check", unknown.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("line 19, column 20, params.db_capacity:"),
        "{err}"
    );
    assert!(
        err.contains("db_capacity_qps"),
        "names the known ones: {err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `scenario link FILE` prints the fragment the console reads: the same exercise comes back
/// from it, and a file the reader refuses is refused as `check` refuses it.
#[cfg(feature = "extended")]
#[test]
fn link_prints_the_fragment_that_carries_the_exercise() {
    let file = path("good", "cache-flush-at-14.json");
    let (code, out, err) = cli(&["scenario", "link", &file]);
    assert_eq!(code, 0, "{err}");
    let encoded = out
        .trim_end()
        .strip_prefix("#exercise=")
        .unwrap_or_else(|| panic!("{out}"));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        exercise::link::decode(encoded).unwrap(),
        file::read(&text).unwrap()
    );
    let bad = path("bad", "unknown-fault.json");
    let (code, out, err) = cli(&["scenario", "link", &bad]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("unknown fault kind"), "{err}");
}

#[test]
fn export_gives_the_built_in_files_and_they_check() {
    for id in ScenarioId::ALL {
        let (code, out, err) = cli(&["scenario", "export", id.as_str()]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, exercise::builtin_text(*id));
        let file =
            concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/").to_string() + id.as_str() + ".json";
        let (code, out, err) = cli(&["scenario", "check", &file]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("a valid exercise"), "{out}");
    }
    for name in ["cache-flush-at-14.json", "dependency-and-neighbour.json"] {
        let file = path("good", name);
        let (code, out, err) = cli(&["scenario", "check", &file]);
        assert_eq!(code, 0, "{file}: {err}");
        assert!(out.contains("a valid exercise"), "{out}");
        // The authored files are in the canonical form: export writes them back.
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(file::write(&file::read(&text).unwrap()), text, "{name}");
    }
    let (code, _, err) = cli(&["scenario", "export", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("allowed: free-play, bad-deploy"), "{err}");
}

#[test]
fn a_run_par_and_postmortem_from_a_built_in_file_are_the_built_in_ones() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/bad-deploy.json");
    for args in [
        vec![
            "run",
            "--seed",
            "7",
            "--minutes",
            "60",
            "--action",
            "26:rollback",
        ],
        vec!["par", "--seed", "7"],
    ] {
        let mut by_id = args.clone();
        by_id.extend(["--scenario", "bad-deploy"]);
        let mut by_file = args.clone();
        by_file.extend(["--scenario-file", file]);
        let (code, a, err) = cli(&by_id);
        assert_eq!(code, 0, "{err}");
        let (code, b, err) = cli(&by_file);
        assert_eq!(code, 0, "{err}");
        assert_eq!(a, b, "{args:?}");
    }
    let (code, _, err) = cli(&[
        "run",
        "--scenario",
        "bad-deploy",
        "--scenario-file",
        file,
        "--seed",
        "1",
        "--minutes",
        "3",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not both"), "{err}");
}

#[test]
fn an_authored_exercise_runs_its_faults() {
    // The database at half size and a cache flush at 14:00 give more errors than the
    // built-in cache flush's quiet start; the dependency, the cut and the neighbour slow
    // every request while they hold.
    let text = std::fs::read_to_string(path("good", "dependency-and-neighbour.json")).unwrap();
    let setup = RunSetup::for_exercise(file::read(&text).unwrap(), 3).unwrap();
    let minutes = setup.definition().minutes.unwrap_or(60);
    let with = setup.run(minutes).unwrap();
    let mut calm = setup.clone();
    let mut custom = (**calm.custom.as_ref().unwrap()).clone();
    custom.scenario.timeline.clear();
    calm.custom = Some(std::sync::Arc::new(custom));
    let without = calm.run(minutes).unwrap();
    let slowest = |o: &oncall_sim::setup::RunOutcome| {
        o.history
            .iter()
            .map(|r| r.service_time_ms)
            .fold(0.0, f64::max)
    };
    assert!(
        slowest(&with) > slowest(&without) * 1.2,
        "{} vs {}",
        slowest(&with),
        slowest(&without)
    );
}

// ---- Any exercise the writer writes reads back to itself and runs -------------------------

fn span_u(lo: u32, hi: u32) -> impl Strategy<Value = (u32, u32)> {
    (lo..=hi, lo..=hi).prop_map(|(a, b)| (a.min(b), a.max(b)))
}

fn span_f(lo: f64, hi: f64) -> impl Strategy<Value = (f64, f64)> {
    // Values on a grid of hundredths, as an author writes them.
    let lo_i = (lo * 100.0) as i64;
    let hi_i = (hi * 100.0) as i64;
    (lo_i..=hi_i, lo_i..=hi_i).prop_map(|(a, b)| (a.min(b) as f64 / 100.0, a.max(b) as f64 / 100.0))
}

fn inject() -> impl Strategy<Value = Inject> {
    prop_oneof![
        (span_u(0, 20), span_u(1, 6), span_f(0.0, 3.0)).prop_map(|(s, r, v)| Inject::BadDeploy(
            DeployDraw {
                start_min: s,
                rollout_min: r,
                severity: v
            }
        )),
        (
            span_u(0, 30),
            span_f(1.0, 3.0),
            span_f(1.0, 10.0),
            span_f(0.0, 30.0)
        )
            .prop_map(|(s, p, r, h)| Inject::TrafficSurge(SurgeDraw {
                start_min: (f64::from(s.0), f64::from(s.1)),
                peak: p,
                ramp_min: r,
                hold_min: h,
                decay_min: 45.0,
            })),
        (span_f(-0.2, 0.2), span_f(60.0, 600.0)).prop_map(|(l, t)| Inject::TrafficDrift(
            DriftDraw {
                level: l,
                tau_min: t
            }
        )),
        (span_u(0, 30), span_f(0.0, 1.0)).prop_map(|(m, s)| Inject::CacheFlush(FlushDraw {
            minute: m,
            share: s
        })),
        (span_u(0, 30), span_u(1, 20), span_f(0.0, 300.0)).prop_map(|(s, m, l)| {
            Inject::DependencyLatency(WindowDraw {
                start_min: s,
                minutes: m,
                level: l,
            })
        }),
        (span_u(0, 30), span_u(1, 20), span_f(0.0, 0.9)).prop_map(|(s, m, l)| {
            Inject::CapacityCut(WindowDraw {
                start_min: s,
                minutes: m,
                level: l,
            })
        }),
        (span_u(0, 30), span_u(1, 20), span_f(0.0, 0.9)).prop_map(|(s, m, l)| {
            Inject::NoisyNeighbour(WindowDraw {
                start_min: s,
                minutes: m,
                level: l,
            })
        }),
    ]
}

fn exercise_strategy() -> impl Strategy<Value = Exercise> {
    (
        0u32..1440,
        span_f(0.05, 1.0),
        2u32..30,
        prop::collection::vec(inject(), 0..4),
        prop::option::of(0.0f64..1.0),
        prop::collection::vec((0u32..39, 1u32..10), 0..3),
    )
        .prop_map(|(clock, budget, instances, timeline, goal, hints)| {
            // Kinds that cannot stack are kept to their first.
            let mut kept: Vec<Inject> = Vec::new();
            for i in timeline {
                if matches!(i, Inject::BadDeploy(_)) && kept.iter().any(|k| k.same_kind(&i)) {
                    continue;
                }
                kept.push(i);
            }
            Exercise {
                id: "generated".into(),
                title: "A generated exercise".into(),
                briefing: "Something happens; \"quotes\", a tab\tand a new line\n survive.".into(),
                lesson: String::new(),
                scenario: Scenario {
                    id: ScenarioId::FreePlay,
                    clock_min: clock,
                    budget_left: budget.0,
                    boot_minutes: 2,
                    base_rps: 900.0,
                    instances,
                    settings: Default::default(),
                    timeline: kept,
                    minutes: Some(40),
                    engine: oncall_sim::params::EngineKind::Formulas,
                    regions: 1,
                },
                params: vec![("db_capacity_qps".into(), "1500".into())],
                expected: vec![Step {
                    when: When::AtPage,
                    action: ActionKind::Rollback,
                }],
                objectives: Objectives {
                    budget_left_at_least: goal.map(|g| (g * 100.0).round() / 100.0),
                    ..Objectives::default()
                },
                hints: hints
                    .into_iter()
                    .map(|(at, minutes)| Hint {
                        trigger: if at % 2 == 0 {
                            HintTrigger::At(at)
                        } else {
                            HintTrigger::PagedWithoutAction(minutes)
                        },
                        text: "Look at the database.".into(),
                    })
                    .collect(),
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn export_check_run_round_trips(exercise in exercise_strategy()) {
        let text = file::write(&exercise);
        let back = file::read(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &exercise);
        prop_assert_eq!(file::write(&back), text);
        let setup = RunSetup::for_exercise(back, 11).map_err(|(n, _)| TestCaseError::fail(n))?;
        let outcome = setup.run(40).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(outcome.history.len(), 40);
        prop_assert!(outcome.history.iter().all(|r| r.error_rate.is_finite()));
    }
}
