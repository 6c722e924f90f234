//! An exercise as data: a scenario's numbers and timeline of injects with the words a
//! trainee reads (title, briefing, lesson), the run parameters it sets, the response it
//! expects (the textbook par line), its objectives and its hints. The seven built-in
//! exercises are files in this format (`sim/scenarios/*.json`), read by the same reader as
//! an author's file ([`file::read`]); `docs/scenario.md` documents the format.

#[rustfmt::skip]
mod compiled;
pub mod faults;
pub mod file;
pub mod injects;
#[cfg(feature = "extended")]
pub mod link;

use crate::action::ActionKind;
use crate::ids::ScenarioId;
use crate::scenario::Scenario;

/// When a step of the expected response happens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum When {
    /// Just after the page fires when nothing is done (no step if it never fires).
    AtPage,
    /// Just after the first minute whose errors burn the budget faster than it lasts (burn
    /// over 1 over the last 5 minutes) when nothing is done.
    AtFirstErrors,
}

/// One step of an expected (textbook) response.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub when: When,
    pub action: ActionKind,
}

/// What a run must reach to meet the exercise's objectives (each optional).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Objectives {
    /// Share of the month's error budget left at the end, at least.
    pub budget_left_at_least: Option<f64>,
    /// Minutes with the page firing, at most.
    pub minutes_paging_at_most: Option<u32>,
    /// Cost of the run, dollars, at most.
    pub cost_at_most: Option<f64>,
    /// Minutes from the first page to the page resolving, at most.
    pub minutes_to_mitigate_at_most: Option<u32>,
}

/// When a hint shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HintTrigger {
    /// At this minute of the run.
    At(u32),
    /// When the page has fired and no action was taken for this many minutes.
    PagedWithoutAction(u32),
    /// When the share of the month's budget left falls below this.
    BudgetBelow(f64),
}

/// A hint for the trainee.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    pub trigger: HintTrigger,
    pub text: String,
}

/// An exercise: a scenario with its words, parameters, expected response, objectives and
/// hints.
#[derive(Clone, Debug, PartialEq)]
pub struct Exercise {
    /// Its id: lower-case letters, digits and hyphens.
    pub id: String,
    pub title: String,
    pub briefing: String,
    /// The one lesson the debrief states (may be empty).
    pub lesson: String,
    /// The numbers and the timeline of injects.
    pub scenario: Scenario,
    /// Run parameters by name, as text (`db_capacity_qps` → `1500`), set before a run's own.
    pub params: Vec<(String, String)>,
    /// The response the textbook par line replays.
    pub expected: Vec<Step>,
    pub objectives: Objectives,
    pub hints: Vec<Hint>,
}

/// What a run of an author's exercise needs beyond its parameters: the scenario and the
/// expected response (the words stay with the [`Exercise`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Custom {
    pub scenario: Scenario,
    pub expected: Vec<Step>,
}

/// The built-in exercises' files, in listing order.
const BUILTIN_FILES: [(ScenarioId, &str); 7] = [
    (
        ScenarioId::FreePlay,
        include_str!("../../scenarios/free-play.json"),
    ),
    (
        ScenarioId::BadDeploy,
        include_str!("../../scenarios/bad-deploy.json"),
    ),
    (
        ScenarioId::ViralSurge,
        include_str!("../../scenarios/viral-surge.json"),
    ),
    (
        ScenarioId::CacheFlush,
        include_str!("../../scenarios/cache-flush.json"),
    ),
    (
        ScenarioId::SlowInstance,
        include_str!("../../scenarios/slow-instance.json"),
    ),
    (
        ScenarioId::HotKey,
        include_str!("../../scenarios/hot-key.json"),
    ),
    (
        ScenarioId::RegionalOutage,
        include_str!("../../scenarios/regional-outage.json"),
    ),
];

/// The text of built-in exercise `id`'s file.
pub fn builtin_text(id: ScenarioId) -> &'static str {
    BUILTIN_FILES
        .iter()
        .find(|(i, _)| *i == id)
        .map_or("", |(_, text)| text)
}

/// Built-in exercise `id`, read from its file. The files are part of the program and a
/// test reads each of them, so reading cannot fail at run time.
/// Each file is read once, on first use.
#[cfg(feature = "extended")]
pub fn builtin(id: ScenarioId) -> Exercise {
    static READ: std::sync::OnceLock<Vec<Exercise>> = std::sync::OnceLock::new();
    let all = READ.get_or_init(|| {
        BUILTIN_FILES
            .iter()
            .map(|(id, text)| {
                let mut exercise = file::read(text)
                    .unwrap_or_else(|e| panic!("built-in exercise {id} does not read: {e}"));
                exercise.scenario.id = *id;
                exercise
            })
            .collect()
    });
    let index = BUILTIN_FILES
        .iter()
        .position(|(i, _)| *i == id)
        .unwrap_or(0);
    all[index].clone()
}

/// The scenario of built-in exercise `id`, as its file says.
pub fn scenario(id: ScenarioId) -> Scenario {
    #[cfg(feature = "extended")]
    return builtin(id).scenario;
    #[cfg(not(feature = "extended"))]
    compiled::scenario(id)
}

/// The response built-in exercise `id` expects, as its file says.
pub fn expected(id: ScenarioId) -> Vec<Step> {
    #[cfg(feature = "extended")]
    return builtin(id).expected;
    #[cfg(not(feature = "extended"))]
    compiled::expected(id)
}

/// Every built-in scenario, in listing order.
pub fn scenarios() -> Vec<Scenario> {
    ScenarioId::ALL.iter().map(|id| scenario(*id)).collect()
}

/// A built-in scenario by its spelling (parsing at the edge).
pub fn scenario_by_id(id: &str) -> Option<Scenario> {
    id.parse().ok().map(scenario)
}

/// The hints of `hints` due after `history` (the minutes played, with `actions` taken and
/// `budget_left` the share of the month's budget left now), by their index: a hint `at` a
/// minute once that many minutes are played; `paged_without_action` once the page has fired
/// and that many minutes passed from the minute it fired without an action; `budget_below`
/// once the budget left is below its share. A hint once due stays due.
pub fn hints_due(
    hints: &[Hint],
    history: &[crate::record::MinuteRecord],
    actions: &[crate::action::Action],
    budget_left: f64,
) -> Vec<usize> {
    let played = u32::try_from(history.len()).unwrap_or(u32::MAX);
    // The minutes at which the page started firing.
    let fired: Vec<u32> = history
        .iter()
        .zip(std::iter::once(false).chain(history.iter().map(|r| r.paging)))
        .filter(|(r, before)| r.paging && !before)
        .map(|(r, _)| r.minute + 1)
        .collect();
    hints
        .iter()
        .enumerate()
        .filter(|(_, hint)| match hint.trigger {
            HintTrigger::At(minute) => played >= minute,
            HintTrigger::PagedWithoutAction(wait) => fired.iter().any(|&from| {
                let until = from.saturating_add(wait);
                played >= until && !actions.iter().any(|a| a.minute >= from && a.minute < until)
            }),
            HintTrigger::BudgetBelow(share) => budget_left < share,
        })
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod builtin_tests;
