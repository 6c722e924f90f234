//! Par lines for the debrief: the same scenario and seed replayed without any action, with the
//! scenario's textbook response, and with the best single action found by trying each control
//! once at a few moments. A trainee's result reads against them: "doing nothing spends 12.6 %
//! of the budget; rolling back when paged, 2.6 %; rolling back at the first errors, 0.7 %".

pub mod regions;

use crate::action::{Action, ActionKind};
use crate::ids::ScenarioId;
use crate::params::ParamError;
use crate::requests::Routing;
use crate::setup::{RunOutcome, RunSetup};
use crate::sim::Simulation;

pub use crate::exercise::{Step, When};

/// What an experienced on-call engineer does in each scenario once the page fires: the
/// responses the scenarios' briefings teach.
pub fn textbook(id: ScenarioId) -> Vec<Step> {
    crate::exercise::expected(id)
}

/// The controls tried, one at a time, for the best single action.
const CANDIDATES: &[ActionKind] = &[
    ActionKind::Rollback,
    ActionKind::WarmCache,
    ActionKind::HeavyFeature(false),
    ActionKind::ShedLowPriority(0.5),
    ActionKind::MinInstances(20),
    ActionKind::MinInstances(40),
    ActionKind::TargetUtilization(0.4),
    ActionKind::CacheTtlS(300),
];

/// The request engine's controls, tried too in the scenarios that run on it.
const REQUEST_CANDIDATES: &[ActionKind] = &[
    ActionKind::Hedge(true),
    ActionKind::Lb(Routing::LeastRequest),
    ActionKind::Lb(Routing::RoundRobin),
];

/// The controls tried: the request engine's too when the scenario runs on it.
fn candidates(requests: bool) -> impl Iterator<Item = &'static ActionKind> {
    CANDIDATES
        .iter()
        .chain(REQUEST_CANDIDATES.iter().filter(move |_| requests))
}

/// The most replays the search for scenario `id` runs: the run left alone, the textbook
/// response, and each control at each of three moments.
pub fn most_replays(id: ScenarioId) -> u32 {
    most_replays_of(&RunSetup::new(id, 0))
}

/// The most replays the search for `setup` runs (its scenario's, an author's exercise's
/// included).
pub fn most_replays_of(setup: &RunSetup) -> u32 {
    let controls = u32::try_from(candidates(on_requests(setup)).count()).unwrap_or(u32::MAX);
    2 + 3 * controls
}

/// Whether `setup`'s scenario runs on the request engine (so that its controls are tried).
fn on_requests(setup: &RunSetup) -> bool {
    match &setup.custom {
        Some(custom) => custom.scenario.engine == crate::params::EngineKind::Requests,
        None => matches!(
            setup.scenario,
            ScenarioId::SlowInstance | ScenarioId::HotKey
        ),
    }
}

/// Which par line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ParKind {
    /// No action at all.
    NothingDone,
    /// The scenario's textbook response at the page.
    Textbook,
    /// The best single action at the best of a few moments.
    BestSingleAction,
}

/// One line of a debrief's table, of kind `K`: what was done and what it cost. The par lines
/// and the regional comparison's lines ([`regions`]) share it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OutcomeLine<K> {
    pub kind: K,
    /// The actions, as `MINUTE:NAME[=VALUE]`.
    pub actions: Vec<String>,
    /// Share of the month's error budget spent.
    pub budget_spent: f64,
    pub minutes_paging: u32,
    pub worst_p99_ms: f64,
    /// Fleet cost, $.
    pub cost: f64,
    /// Minutes from the first fault's start to errors back within the SLO
    /// ([`crate::summary::minutes_to_mitigate`]); `None` (and left out of the JSON line)
    /// when they were not by the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minutes_to_mitigate: Option<u32>,
}

impl<K> OutcomeLine<K> {
    /// The line of `outcome`, a run under objective `slo`.
    pub fn of(kind: K, outcome: &RunOutcome, slo: f64) -> Self {
        let s = &outcome.summary;
        Self {
            kind,
            actions: s.actions.clone(),
            budget_spent: s.budget_spent,
            minutes_paging: s.minutes_paging,
            worst_p99_ms: s.worst_p99_ms,
            cost: s.cost,
            minutes_to_mitigate: crate::summary::minutes_to_mitigate(
                &outcome.history,
                slo,
                outcome.first_fault,
            ),
        }
    }
}

/// One par line.
pub type ParLine = OutcomeLine<ParKind>;

/// The moments of a run left alone at which a person can first react: the minute after the
/// page fired, and the minute after errors first burned the budget faster than it lasts (a
/// minute's figures are seen at its end; an action applies from the next minute's start).
fn moments(nothing: &RunOutcome) -> (Option<u32>, Option<u32>) {
    let after = |seen: Option<&crate::record::MinuteRecord>| seen.map(|r| r.minute + 1);
    let page = after(nothing.history.iter().find(|r| r.paging));
    let errors = after(nothing.history.iter().find(|r| r.burn_rate_5m > 1.0));
    (page, errors)
}

/// Which replay of the search is running.
#[derive(Clone, Debug)]
enum Stage {
    Nothing,
    Textbook,
    Try,
}

/// A replay under way: the simulation, and the minutes it still has to run.
struct Replay {
    stage: Stage,
    sim: Simulation,
    left: u32,
}

/// The par lines computed a few minutes at a time, so that a page can spread the work over
/// frames even when one replay takes long (request mode): [`ParSearch::advance`] simulates at
/// most a given number of minutes and says whether the search is over; [`ParSearch::step`]
/// runs to the end of the current replay.
pub struct ParSearch {
    setup: RunSetup,
    minutes: u32,
    lines: Vec<ParLine>,
    /// The textbook response, when known and not yet replayed.
    textbook: Option<Vec<Action>>,
    /// Replays still to run for the best single action, the next one last.
    tries: Vec<Action>,
    best: Option<RunOutcome>,
    started: bool,
    done: bool,
    current: Option<Replay>,
    /// Replays finished so far.
    replays: u32,
}

impl ParSearch {
    fn slo(&self) -> f64 {
        self.setup.params.slo
    }

    /// The search for `setup`'s scenario, seed and settings (its own actions left out) over
    /// `minutes`.
    pub fn new(setup: &RunSetup, minutes: u32) -> Self {
        let mut setup = setup.clone();
        setup.actions.clear();
        Self {
            setup,
            minutes,
            lines: Vec::new(),
            textbook: None,
            tries: Vec::new(),
            best: None,
            started: false,
            done: false,
            current: None,
            replays: 0,
        }
    }

    fn begin(&self, stage: Stage, actions: Vec<Action>) -> Result<Replay, ParamError> {
        let mut s = self.setup.clone();
        s.actions = actions;
        Ok(Replay {
            stage,
            sim: s.build()?,
            left: self.minutes,
        })
    }

    /// Simulates at most `budget` minutes of the search's replays; `Ok(true)` once every
    /// line is known.
    pub fn advance(&mut self, mut budget: u32) -> Result<bool, ParamError> {
        while !self.done && budget > 0 {
            let mut replay = match self.current.take() {
                Some(replay) => replay,
                None => match self.next_replay()? {
                    Some(replay) => replay,
                    None => break,
                },
            };
            let minutes = replay.left.min(budget);
            replay.sim.run(minutes);
            replay.left -= minutes;
            budget -= minutes;
            if replay.left == 0 {
                self.replays += 1;
                let outcome = RunOutcome::of(&replay.sim);
                self.finish(replay.stage, outcome);
                if self.textbook.is_none() && self.tries.is_empty() {
                    self.conclude();
                }
            } else {
                self.current = Some(replay);
            }
        }
        Ok(self.done)
    }

    /// Runs to the end of the current replay (the whole next one when none is under way; the
    /// first step runs both the run left alone and the textbook response); `Ok(true)` once
    /// every line is known.
    pub fn step(&mut self) -> Result<bool, ParamError> {
        let before = self.replays;
        while !self.done
            && (self.replays == before || self.current.is_some() || self.textbook.is_some())
        {
            self.advance(self.minutes.max(1))?;
        }
        Ok(self.done)
    }

    /// The replay to run next, or none when the search is over.
    fn next_replay(&mut self) -> Result<Option<Replay>, ParamError> {
        if !self.started {
            self.started = true;
            return self.begin(Stage::Nothing, Vec::new()).map(Some);
        }
        if let Some(steps) = self.textbook.take() {
            return self.begin(Stage::Textbook, steps).map(Some);
        }
        if let Some(action) = self.tries.pop() {
            return self.begin(Stage::Try, vec![action]).map(Some);
        }
        self.conclude();
        Ok(None)
    }

    /// Every replay has run: the best single action's line, and the search is over.
    fn conclude(&mut self) {
        if self.done {
            return;
        }
        if let Some(best) = &self.best {
            self.lines
                .push(ParLine::of(ParKind::BestSingleAction, best, self.slo()));
        }
        self.done = true;
    }

    fn finish(&mut self, stage: Stage, outcome: RunOutcome) {
        match stage {
            Stage::Nothing => self.plan(&outcome),
            Stage::Textbook => {
                self.lines
                    .push(ParLine::of(ParKind::Textbook, &outcome, self.slo()))
            }
            Stage::Try => {
                let better = self.best.as_ref().is_none_or(|b| {
                    (outcome.summary.budget_spent, outcome.summary.cost)
                        < (b.summary.budget_spent, b.summary.cost)
                });
                if better {
                    self.best = Some(outcome);
                }
            }
        }
    }

    /// From the run left alone: its line, the textbook response and the single actions to
    /// try (none when it never pages).
    fn plan(&mut self, nothing: &RunOutcome) {
        self.lines
            .push(ParLine::of(ParKind::NothingDone, nothing, self.slo()));
        let (page, first_errors) = moments(nothing);
        let Some(page) = page else {
            return;
        };
        let steps = textbook_actions(&self.setup, page, first_errors);
        if !steps.is_empty() {
            self.textbook = Some(steps);
        }
        let requests = on_requests(&self.setup);
        let mut instants = vec![first_errors.unwrap_or(page), page, page + 10];
        instants.dedup();
        // Tried in order: each moment, each control; kept reversed to pop from the end.
        for &minute in instants.iter().filter(|&&m| m < self.minutes) {
            for kind in candidates(requests) {
                self.tries.push(Action {
                    minute,
                    kind: kind.clone(),
                });
            }
        }
        self.tries.reverse();
    }

    /// The lines known so far, in the order nothing done, textbook, best single action.
    pub fn lines(&self) -> &[ParLine] {
        &self.lines
    }

    /// Replays finished and replays in all, as far as known (the count grows once the run
    /// left alone is known), for a progress indicator.
    pub fn progress(&self) -> (u32, u32) {
        let planned = u32::from(!self.started || self.current.is_some())
            + u32::from(self.textbook.is_some())
            + self.tries.len() as u32;
        (self.replays, self.replays + planned)
    }
}

/// The expected response's actions, stamped with the minutes of the run left alone: its
/// `page` and its `first_errors` (a step at the first errors is left out when there are none).
fn textbook_actions(setup: &RunSetup, page: u32, first_errors: Option<u32>) -> Vec<Action> {
    let at = |when: When| match when {
        When::AtPage => Some(page),
        When::AtFirstErrors => first_errors,
    };
    setup
        .expected_response()
        .iter()
        .filter_map(|s| {
            at(s.when).map(|minute| Action {
                minute,
                kind: s.action.clone(),
            })
        })
        .collect()
}

/// What an exercise's author sees before sharing it: the run left alone and, when it pages,
/// the run with the expected response (the textbook par line), minute by minute.
pub struct Preview {
    pub nothing: RunOutcome,
    pub textbook: Option<RunOutcome>,
}

/// Runs `setup` (its own actions left out) for `minutes` with nothing done and with the
/// expected response, as the par lines do.
pub fn preview(setup: &RunSetup, minutes: u32) -> Result<Preview, ParamError> {
    let mut alone = setup.clone();
    alone.actions.clear();
    let nothing = alone.run(minutes)?;
    let (page, first_errors) = moments(&nothing);
    let textbook = match page {
        Some(page) => {
            let mut answered = alone.clone();
            answered.actions = textbook_actions(setup, page, first_errors);
            Some(answered.run(minutes)?)
        }
        None => None,
    };
    Ok(Preview { nothing, textbook })
}

/// Runs `setup`'s scenario, seed and settings (its own actions left out) for `minutes`: with
/// nothing done, with the scenario's textbook response, and with the single action that
/// spends least budget among each candidate control tried at the first errors, at the page
/// and ten minutes after it. The textbook and best lines are absent when the run left alone
/// never pages.
pub fn par_lines(setup: &RunSetup, minutes: u32) -> Result<Vec<ParLine>, ParamError> {
    let mut search = ParSearch::new(setup, minutes);
    while !search.step()? {}
    Ok(search.lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The preview's two runs are the par lines' doing nothing and textbook response.
    #[test]
    fn the_preview_runs_the_par_lines_nothing_and_textbook() {
        let setup = RunSetup::new(ScenarioId::BadDeploy, 7);
        let lines = par_lines(&setup, 120).unwrap();
        let preview = preview(&setup, 120).unwrap();
        let slo = setup.params.slo;
        assert_eq!(
            ParLine::of(ParKind::NothingDone, &preview.nothing, slo),
            lines[0]
        );
        let textbook = preview.textbook.expect("the bad deploy pages");
        assert_eq!(ParLine::of(ParKind::Textbook, &textbook, slo), lines[1]);
        assert_eq!(textbook.history.len(), 120);
    }

    #[test]
    fn the_built_in_exercises_on_the_request_engine_are_the_ones_named() {
        for id in ScenarioId::ALL {
            let engine = crate::exercise::scenario(*id).engine;
            assert_eq!(
                on_requests(&RunSetup::new(*id, 1)),
                engine == crate::params::EngineKind::Requests,
                "{id}"
            );
        }
    }

    fn spent(lines: &[ParLine], kind: ParKind) -> f64 {
        lines
            .iter()
            .find(|l| l.kind == kind)
            .map(|l| l.budget_spent)
            .unwrap_or(f64::NAN)
    }

    /// The search spread over frames a few minutes at a time finds the same lines as the
    /// search run a replay at a time, and reports its progress to the end.
    #[test]
    fn advancing_by_minutes_finds_the_same_par() {
        for (id, seed) in [(ScenarioId::BadDeploy, 7), (ScenarioId::FreePlay, 3)] {
            let setup = RunSetup::new(id, seed);
            let minutes = crate::exercise::scenario(id).minutes.unwrap_or(60);
            let whole = par_lines(&setup, minutes).unwrap();
            let mut search = ParSearch::new(&setup, minutes);
            let mut calls = 0;
            while !search.advance(7).unwrap() {
                calls += 1;
                let (done, total) = search.progress();
                assert!(done <= total, "{done}/{total}");
            }
            assert_eq!(search.lines(), &whole[..], "{id}");
            let (done, total) = search.progress();
            assert_eq!(done, total);
            assert!(done <= most_replays(id), "{done}");
            if id == ScenarioId::BadDeploy {
                // Nothing done, textbook, and every candidate at each moment.
                assert_eq!(whole.len(), 3);
                assert!(done > 3 && calls as u32 >= done * minutes / 7 - 1);
            } else {
                // Free play never pages: one replay, one line.
                assert_eq!((whole.len(), done), (1, 1));
            }
        }
    }

    #[test]
    fn every_incident_has_a_textbook_response_and_a_best_action_that_helps() {
        for id in [
            ScenarioId::BadDeploy,
            ScenarioId::CacheFlush,
            ScenarioId::ViralSurge,
            ScenarioId::RegionalOutage,
        ] {
            for seed in [7, 11] {
                let setup = RunSetup::new(id, seed);
                let minutes = crate::exercise::scenario(id).minutes.unwrap_or(120);
                let lines = par_lines(&setup, minutes).unwrap();
                let nothing = spent(&lines, ParKind::NothingDone);
                let best = spent(&lines, ParKind::BestSingleAction);
                if lines.len() == 1 {
                    // Left alone it never paged: nothing to beat.
                    continue;
                }
                assert!(best <= nothing, "{id} {seed}: {lines:?}");
                assert!(
                    spent(&lines, ParKind::Textbook) < nothing,
                    "{id} {seed}: {lines:?}"
                );
                // The lines are reproducible: the same seed gives the same figures.
                assert_eq!(lines, par_lines(&setup, minutes).unwrap());
            }
        }
    }

    #[test]
    fn free_play_has_only_the_line_of_doing_nothing() {
        let lines = par_lines(&RunSetup::new(ScenarioId::FreePlay, 42), 120).unwrap();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].kind, ParKind::NothingDone);
        assert!(lines[0].actions.is_empty());
    }
}
