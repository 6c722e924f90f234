//! The grade of real runs: the bad deploy's textbook response scores full marks, doing
//! nothing scores little, and an exercise's objectives decide the pass.

use oncall_sim::exercise::Objectives;
use oncall_sim::grade::{grade, Reached};
use oncall_sim::ids::ScenarioId;
use oncall_sim::par::{par_lines, ParKind};
use oncall_sim::setup::RunSetup;
use oncall_sim::summary::minutes_to_mitigate;
use oncall_sim::Action;

fn reached(setup: &RunSetup, minutes: u32) -> Reached {
    let outcome = setup.run(minutes).unwrap();
    let mitigate = minutes_to_mitigate(&outcome.history, setup.params.slo, outcome.first_fault);
    Reached::of(&outcome.summary, mitigate)
}

#[test]
fn the_bad_deploys_textbook_response_scores_full_marks_and_doing_nothing_does_not() {
    let mut setup = RunSetup::new(ScenarioId::BadDeploy, 7);
    let par = par_lines(&setup, 120).unwrap();
    let textbook = par.iter().find(|l| l.kind == ParKind::Textbook).unwrap();
    // The textbook response is a rollback just after the page (minute 26 for this seed).
    assert_eq!(textbook.actions, ["26:rollback"]);
    // From the deploy at minute 8 to errors back within the SLO at 09:31, as the
    // postmortem tells it; left alone, the bad build fails requests to the end.
    assert_eq!(textbook.minutes_to_mitigate, Some(23));
    let nothing = par.iter().find(|l| l.kind == ParKind::NothingDone).unwrap();
    assert_eq!(nothing.minutes_to_mitigate, None);

    setup.actions = vec![Action::parse("26:rollback", 119).unwrap()];
    let rolled_back = grade(&reached(&setup, 120), &par, &Objectives::default());
    assert_eq!(rolled_back.score, 100);
    assert!(rolled_back.passed);

    setup.actions.clear();
    let idle = grade(&reached(&setup, 120), &par, &Objectives::default());
    assert!(idle.score <= 25, "{idle:?}");
    assert!(!idle.passed);

    // A rollback at the first errors beats the textbook: still 100 (parts are capped).
    setup.actions = vec![Action::parse("10:rollback", 119).unwrap()];
    let early = grade(&reached(&setup, 120), &par, &Objectives::default());
    assert_eq!(early.score, 100);

    // An objective the textbook misses fails the run whatever its score.
    let strict = Objectives {
        minutes_paging_at_most: Some(textbook.minutes_paging.saturating_sub(1)),
        ..Objectives::default()
    };
    setup.actions = vec![Action::parse("26:rollback", 119).unwrap()];
    let failed = grade(&reached(&setup, 120), &par, &strict);
    assert_eq!(failed.score, 100);
    assert!(!failed.passed);
}
