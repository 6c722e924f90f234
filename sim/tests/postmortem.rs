//! The postmortem draft: its clock times against the run's script and events, its sections,
//! a run where nothing was done, and the command line printing the library's text.

mod common;

use common::cli;
use oncall_sim::catalog::{self, EN};
use oncall_sim::ids::ScenarioId;
use oncall_sim::message::{Message, MessageId as M};
use oncall_sim::postmortem::{self, EntryKind, Moment, Postmortem};
use oncall_sim::scenario::Scripted;
use oncall_sim::setup::RunSetup;
use oncall_sim::{Action, EventKind};

/// The bad deploy's exercise length.
const MINUTES: u32 = 120;

fn bad_deploy(seed: u32, actions: &[&str]) -> RunSetup {
    let mut setup = RunSetup::new(ScenarioId::BadDeploy, seed);
    setup.actions = actions
        .iter()
        .map(|a| Action::parse(a, MINUTES - 1).unwrap())
        .collect();
    setup
}

fn moment(minute: u32, clock: &str) -> Option<Moment> {
    Some(Moment {
        minute,
        clock: clock.parse().unwrap(),
    })
}

fn heading(id: M) -> String {
    format!("\n## {}\n\n", catalog::render(&Message::new(id), EN))
}

const HEADINGS: [M; 8] = [
    M::PostmortemHeadSummary,
    M::PostmortemHeadImpact,
    M::PostmortemHeadDetection,
    M::PostmortemHeadTimeline,
    M::PostmortemHeadWentWell,
    M::PostmortemHeadWentPoorly,
    M::PostmortemHeadActionItems,
    M::PostmortemHeadSources,
];

/// Bad deploy, seed 7, rolled back at minute 26: the bad build goes out at 09:08 (the
/// script's minute 8, as `run --events` reports it), the page fires at 09:25, the rollback
/// is pressed at 09:26 and takes traffic at 09:31.
#[test]
fn bad_deploy_rolled_back_has_the_clock_times_of_the_run() {
    let setup = bad_deploy(7, &["26:rollback"]);
    let outcome = setup.run(MINUTES).unwrap();
    let par = oncall_sim::par::par_lines(&setup, MINUTES).unwrap();
    let draft = Postmortem::new(&setup, &outcome, &par);
    let text = draft.to_string();

    // The deploy: the script's bad build, and the run's event of it.
    let script = oncall_sim::exercise::scenario(ScenarioId::BadDeploy).script(7);
    let Some(&Scripted::Deploy {
        minute: deployed, ..
    }) = script
        .iter()
        .find(|s| matches!(s, Scripted::Deploy { bad: true, .. }))
    else {
        panic!("no bad deploy in {script:?}");
    };
    let deploy = outcome
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Deploy { bad: true, .. }))
        .unwrap();
    assert_eq!(
        (deploy.minute, deploy.clock.to_string().as_str()),
        (deployed, "09:08")
    );
    let page = outcome
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::PageFired { .. }))
        .unwrap();
    assert_eq!(
        (page.minute, page.clock.to_string().as_str()),
        (25, "09:25")
    );
    let rollback = outcome
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Action { .. }))
        .unwrap();
    assert_eq!(
        (rollback.minute, rollback.clock.to_string().as_str()),
        (26, "09:26")
    );

    let d = &draft.detection;
    assert_eq!(d.fault_start, moment(8, "09:08"));
    assert_eq!(d.first_symptom, moment(8, "09:08"));
    assert_eq!(d.page, moment(25, "09:25"));
    assert_eq!(d.first_action, moment(26, "09:26"));
    assert_eq!(d.response, moment(26, "09:26"));
    assert_eq!(d.recovered, moment(31, "09:31"));
    assert_eq!(d.time_to_detect(), Some(17));
    assert_eq!(d.time_to_respond(), Some(1));
    assert_eq!(d.time_to_mitigate(), Some(23));

    assert!(
        text.starts_with("# Postmortem: Bad deploy, seed 7, 09:00–11:00\n"),
        "{text}"
    );
    for line in [
        "- **09:08** Build 2, a bad build, started rolling out\n",
        "- **09:25** The page fired: burn rate 15.3× over 1 h and 57.6× over 5 min\n",
        "- **09:26** Action: `rollback`\n",
        "- **09:26** Rollback to build 1 started: 11 instances booting, to take traffic at 09:31\n",
        "- **09:31** Traffic switched to the rollback fleet on build 1\n",
        "- **09:31** Errors back within the SLO\n",
        "- **09:34** The page resolved\n",
        "- **11:00** The run ended\n",
        "- Fault start: 09:08\n",
        "- Page: 09:25\n",
        "- First action: 09:26, `rollback`\n",
        "- Time to detect: 17 minutes, from the fault's start to the page\n",
        "- Time to respond: 1 minute, from the page to the first action\n",
        "- Time to mitigate: 23 minutes, from the fault's start to errors back within the SLO at 09:31\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    // The timeline keeps the run's order.
    let minutes: Vec<u32> = draft.timeline.iter().map(|e| e.minute).collect();
    assert!(minutes.windows(2).all(|w| w[0] <= w[1]), "{minutes:?}");
    assert_eq!(draft.timeline.last().map(|e| e.kind), Some(EntryKind::End));

    // Every section, in the book's order.
    let mut from = 0;
    for id in HEADINGS {
        let at = text[from..]
            .find(&heading(id))
            .unwrap_or_else(|| panic!("{id} missing or out of order:\n{text}"));
        from += at + 1;
    }
    assert!(text.contains("ch. 15 \"Postmortem Culture: Learning from Failure\""));
    assert!(text.contains("appendix D, \"Example Postmortem\""));

    // The impact is the run summary's, formatted as the debrief formats it.
    let s = &outcome.summary;
    assert!(text.contains(&format!(
        "- Error budget spent: {:.1} % of the month's, leaving {:.1} %\n",
        100.0 * s.budget_spent,
        100.0 * s.budget_left
    )));
    assert!(text.contains(&format!(
        "- Failed requests: about {:.0}\n",
        s.failed_requests
    )));
    assert!(text.contains(&format!("- Minutes paging: {}\n", s.minutes_paging)));
    assert!(text.contains(&format!("- Fleet cost: {:.2} $\n", s.cost)));
    // The textbook is this very response; rolling back at the first errors does better.
    assert!(text.contains("As good as the textbook response"), "{text}");
    assert!(
        text.contains("The best single action found, `rollback` at 09:09"),
        "{text}"
    );
    assert!(!text.contains('{'), "a placeholder left unfilled:\n{text}");
}

/// Left alone, the same seed gives a postmortem that says no action was taken: no first
/// action, no time to respond, errors never back within the SLO.
#[test]
fn a_run_where_nothing_was_done_says_so() {
    let setup = bad_deploy(7, &[]);
    let draft = postmortem::draft(&setup, MINUTES).unwrap();
    let text = draft.to_string();
    let d = &draft.detection;
    assert_eq!(d.fault_start, moment(8, "09:08"));
    assert_eq!(d.page, moment(25, "09:25"));
    assert_eq!((d.first_action.clone(), d.response.clone()), (None, None));
    assert_eq!(d.recovered, None);
    assert_eq!(
        (d.time_to_respond(), d.time_to_mitigate()),
        (None, None),
        "{d:?}"
    );
    assert!(!draft.timeline.iter().any(|e| e.kind == EntryKind::Action));
    for line in [
        "No action was taken.",
        "- First action: none was taken\n",
        "- Time to detect: 17 minutes, from the fault's start to the page\n",
        "- Time to mitigate: not mitigated; errors were still above the rate the SLO allows when the run ended at 11:00\n",
        "- The page fired at 09:25 and no action followed.\n",
        "- No better than doing nothing: you spent 14.7 % of the budget, doing nothing 14.7 %.\n",
        "it fired for 95 of the run's 120 minutes.\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert!(!text.contains("Time to respond"), "{text}");
    for id in HEADINGS {
        assert!(text.contains(&heading(id)), "{id} missing:\n{text}");
    }
}

/// Every formula scenario's draft, left alone, fills every placeholder and has every section;
/// a run without a fault or an error says there was none to detect or mitigate.
#[test]
fn every_formula_scenario_drafts_a_whole_document() {
    for id in [
        ScenarioId::FreePlay,
        ScenarioId::BadDeploy,
        ScenarioId::ViralSurge,
        ScenarioId::CacheFlush,
    ] {
        let minutes = oncall_sim::exercise::scenario(id).minutes.unwrap_or(240);
        let text = postmortem::draft(&RunSetup::new(id, 3), minutes)
            .unwrap()
            .to_string();
        assert!(!text.contains('{'), "{id}:\n{text}");
        for heading_id in HEADINGS {
            assert!(text.contains(&heading(heading_id)), "{id}:\n{text}");
        }
        if id == ScenarioId::FreePlay {
            assert!(text.contains("- Fault start: none scripted\n"), "{text}");
            assert!(
                text.contains("- Time to mitigate: nothing to mitigate\n"),
                "{text}"
            );
        }
    }
}

/// `oncall-sim postmortem` with a run's options prints the library's draft, and nothing on
/// stderr.
#[test]
fn the_command_line_prints_the_same_draft() {
    let (code, out, err) = cli(&[
        "postmortem",
        "--scenario",
        "bad-deploy",
        "--seed",
        "7",
        "--action",
        "26:rollback",
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{err}");
    let draft = postmortem::draft(&bad_deploy(7, &["26:rollback"]), MINUTES).unwrap();
    assert_eq!(out, draft.to_string());
    // Bad options are refused as `run` refuses them.
    let (code, out, err) = cli(&["postmortem", "--scenario", "bad-deploy", "--seed", "x"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("--seed"), "{err}");
    let (code, _, err) = cli(&[
        "postmortem",
        "--scenario",
        "bad-deploy",
        "--seed",
        "7",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown argument \"--format\""), "{err}");
}

/// The README's example is the draft the command prints, byte for byte.
#[test]
fn the_readme_shows_the_draft_the_command_prints() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    let open = "<!--postmortem:bad-deploy-7-rollback-26-->\n```markdown\n";
    let start = readme.find(open).expect("the README's postmortem example") + open.len();
    let end = start
        + readme[start..]
            .find("```\n<!--/postmortem-->")
            .expect("the end of the README's postmortem example");
    let draft = postmortem::draft(&bad_deploy(7, &["26:rollback"]), MINUTES).unwrap();
    assert_eq!(&readme[start..end], draft.to_string());
}
