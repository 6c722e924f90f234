//! One path to build a run: a [`RunSetup`] (scenario, seed, model and policy parameters,
//! actions) set by name from text and built into a [`Simulation`]; a [`RunOutcome`] (history,
//! events, summary) for debriefs and comparisons. The command line, the link parser and the
//! console all go through here.

use crate::action::Action;
use crate::autoscale::{self, PolicyId, PolicySettings};
use crate::budget::BudgetAccounting;
use crate::event::{Event, EventKind};
use crate::exercise::{Custom, Exercise, Step};
use crate::ids::{ScenarioId, UnknownId};
use crate::params::{
    ModelParams, ParamError, ParamSpec, Switch, ENGINE_PARAM, HEDGE_PARAM, LB_PARAM,
    ORDERING_KEYS_PARAM,
};
use crate::record::MinuteRecord;
use crate::scenario::Scenario;
use crate::sim::Simulation;
use crate::summary::RunSummary;

/// Everything that determines a run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSetup {
    /// The built-in scenario (free play when an author's exercise runs).
    pub scenario: ScenarioId,
    /// An author's exercise, run instead of the built-in `scenario`.
    pub custom: Option<std::sync::Arc<Custom>>,
    pub seed: u32,
    pub params: ModelParams,
    pub policy: PolicyId,
    pub policies: PolicySettings,
    pub actions: Vec<Action>,
}

/// Why a setting given as text was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum SetError {
    /// `scenario`, `autoscaler` or `budget_accounting` named no known id.
    UnknownId(UnknownId),
    /// Neither a model nor a policy parameter.
    UnknownName { name: String },
    /// The value is not a number; `spec` says what is allowed.
    NotANumber {
        name: String,
        given: String,
        spec: &'static ParamSpec,
    },
    /// The number is outside what the parameter allows (or breaks a relation).
    Param(ParamError),
}

/// The settings [`RunSetup::set`] reads as one of a list of spellings rather than as a
/// number, each with its spellings (the numbers are [`RunSetup::spec`]'s). Tests and the fuzz
/// harness draw from this list, so a choice added to `set` belongs here too.
pub const CHOICE_PARAMS: &[(&str, &[&str])] = &[
    ("autoscaler", PolicyId::NAMES),
    (BudgetAccounting::PARAM, BudgetAccounting::NAMES),
    (ENGINE_PARAM, crate::params::EngineKind::NAMES),
    (LB_PARAM, crate::params::Routing::NAMES),
    (HEDGE_PARAM, Switch::NAMES),
    (ORDERING_KEYS_PARAM, Switch::NAMES),
    #[cfg(feature = "extended")]
    (crate::params::OUTLIER_DETECTION_PARAM, Switch::NAMES),
    #[cfg(feature = "extended")]
    (
        crate::params::SERVICE_SHAPE_PARAM,
        crate::params::ServiceDistribution::NAMES,
    ),
];

impl RunSetup {
    /// `scenario` with `seed`, default parameters, the default policy and no actions.
    pub fn new(scenario: ScenarioId, seed: u32) -> Self {
        Self {
            scenario,
            custom: None,
            seed,
            params: ModelParams::default(),
            policy: autoscale::DEFAULT_POLICY,
            policies: PolicySettings::default(),
            actions: Vec::new(),
        }
    }

    /// Author's exercise `exercise` with `seed`: its run parameters set (in the order
    /// written, then checked together), default ones otherwise. A refused parameter gives
    /// its name and why.
    pub fn for_exercise(exercise: Exercise, seed: u32) -> Result<Self, (String, SetError)> {
        let mut setup = Self::new(ScenarioId::FreePlay, seed);
        for (name, value) in &exercise.params {
            setup.set(name, value).map_err(|e| (name.clone(), e))?;
        }
        let names: Vec<&str> = exercise.params.iter().map(|(n, _)| n.as_str()).collect();
        if let Err(e) = setup.check_rules(&names) {
            return Err((e.field.to_string(), SetError::Param(e)));
        }
        setup.custom = Some(std::sync::Arc::new(Custom {
            scenario: exercise.scenario,
            expected: exercise.expected,
        }));
        Ok(setup)
    }

    /// The scenario this set-up runs: the author's exercise's, or the built-in one's.
    pub fn definition(&self) -> std::borrow::Cow<'_, Scenario> {
        match &self.custom {
            Some(e) => std::borrow::Cow::Borrowed(&e.scenario),
            None => std::borrow::Cow::Owned(crate::exercise::scenario(self.scenario)),
        }
    }

    /// The exercise's length in minutes: 240 (four hours) for an endless one (free play),
    /// what a whole run of the command line and a sweep take.
    pub fn length(&self) -> u32 {
        self.definition().minutes.unwrap_or(240)
    }

    /// The response the textbook par line replays.
    pub fn expected_response(&self) -> Vec<Step> {
        match &self.custom {
            Some(e) => e.expected.clone(),
            None => crate::exercise::expected(self.scenario),
        }
    }

    /// The spec of the model or policy parameter called `name`.
    pub fn spec(name: &str) -> Option<&'static ParamSpec> {
        ModelParams::spec(name)
            .ok()
            .or_else(|| PolicySettings::all_specs().find(|s| s.name == name))
    }

    /// Sets `autoscaler`, `budget_accounting` or a model or policy parameter from text;
    /// nothing changes on error. (The scenario is chosen when the set-up is made: the CLI's
    /// `--scenario`, a link's `scenario`.)
    pub fn set(&mut self, name: &str, text: &str) -> Result<(), SetError> {
        if name == "autoscaler" {
            self.policy = text.parse().map_err(SetError::UnknownId)?;
            return Ok(());
        }
        if name == BudgetAccounting::PARAM {
            self.params.budget_accounting = text.parse().map_err(SetError::UnknownId)?;
            return Ok(());
        }
        match name {
            ENGINE_PARAM => {
                self.params.engine = Some(text.parse().map_err(SetError::UnknownId)?);
                return Ok(());
            }
            LB_PARAM => {
                self.params.lb = Some(text.parse().map_err(SetError::UnknownId)?);
                return Ok(());
            }
            HEDGE_PARAM => {
                self.params.hedge = Some(text.parse().map_err(SetError::UnknownId)?);
                return Ok(());
            }
            ORDERING_KEYS_PARAM => {
                self.params.ordering_keys = text.parse().map_err(SetError::UnknownId)?;
                return Ok(());
            }
            _ => {}
        }
        if let Some(set) = self.params.set_extended_choice(name, text) {
            return set.map_err(SetError::UnknownId);
        }
        let policy_param = PolicySettings::owns(name);
        let spec = Self::spec(name);
        if spec.is_none() && !policy_param {
            return Err(SetError::UnknownName {
                name: name.to_string(),
            });
        }
        let value: f64 = match crate::params::parse_number(text) {
            Some(x) => x,
            None => match spec {
                Some(spec) => {
                    return Err(SetError::NotANumber {
                        name: name.to_string(),
                        given: text.to_string(),
                        spec,
                    })
                }
                // An unknown policy parameter: let its policy name the known ones.
                None => f64::NAN,
            },
        };
        let result = if policy_param {
            self.policies.set(name, value)
        } else {
            self.params.set(name, value)
        };
        result.map_err(SetError::Param)
    }

    /// Checks the rules between parameters (`min_nodes` ≤ `max_nodes` and the like) on the
    /// whole set, once every parameter is set, so that the order in which they were given
    /// never matters. The error blames a parameter named in `given` (the names the person
    /// set) where the rule involves one, and says what it must be given the other's value.
    pub fn check_rules(&self, given: &[&str]) -> Result<(), ParamError> {
        if let Some(rule) = self.policies.broken_rule() {
            return Err(rule.blame_given(given));
        }
        if self.hedge_on() {
            self.params
                .hedging_rule()
                .map_err(|e| blame_given_hedging(e, given))?;
        }
        Ok(())
    }

    /// Whether hedging is on at the start: the `hedge` parameter, or the scenario's.
    pub fn hedge_on(&self) -> bool {
        self.params
            .hedge
            .map_or_else(|| self.definition().settings.hedge, Switch::is_on)
    }

    /// A simulation of this setup with its actions scheduled, not yet stepped.
    pub fn build(&self) -> Result<Simulation, ParamError> {
        if self.hedge_on() {
            self.params.hedging_rule()?;
        }
        let scenario = self.definition();
        let mut policies = Vec::new();
        let mut sim = Simulation::new(&scenario, self.seed, self.params.clone());
        // One autoscaler instance per region, same policy and parameters.
        for _ in 0..sim.region_count() {
            policies.push(autoscale::build(self.policy, &self.policies, &self.params)?);
        }
        sim.set_autoscalers(|| policies.pop().expect("one policy per region"));
        sim.schedule(self.actions.iter().cloned());
        Ok(sim)
    }

    /// Runs `minutes` and returns what happened.
    pub fn run(&self, minutes: u32) -> Result<RunOutcome, ParamError> {
        let mut sim = self.build()?;
        sim.run(minutes);
        Ok(RunOutcome::of_finished(sim))
    }
}

/// The hedge delay's rule involves the delay and both timeouts (and hedging itself): its
/// error blames the delay when the person set it, otherwise the first of the others they set,
/// so that the line names what was given.
fn blame_given_hedging(mut e: ParamError, given: &[&str]) -> ParamError {
    if e.field == "hedge_delay_ms" && !given.contains(&"hedge_delay_ms") {
        let set = ["timeout_s", "total_timeout_s", HEDGE_PARAM]
            .into_iter()
            .find(|f| given.contains(f));
        if let Some(field) = set {
            e.field = field.into();
        }
    }
    e
}

/// What a run produced: for debriefs, comparisons and reports.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutcome {
    pub policy: PolicyId,
    pub history: Vec<MinuteRecord>,
    pub events: Vec<Event>,
    pub summary: RunSummary,
    /// Scaling decisions that changed the fleet.
    pub scaling_decisions: u32,
    /// Most instances live (serving and booting) in any minute.
    pub peak_instances: u32,
    /// The minute the first fault started ([`Simulation::first_fault`]).
    pub first_fault: Option<u32>,
}

impl RunOutcome {
    /// The outcome of `sim` so far.
    pub fn of(sim: &Simulation) -> Self {
        Self::assemble(sim, |s| (s.history().to_vec(), s.events().to_vec()))
    }

    /// The outcome of a run that is over, its records taken rather than copied.
    pub fn of_finished(sim: Simulation) -> Self {
        Self::assemble(sim, |mut s| s.take_records())
    }

    /// The figures of `sim`, then its minute records and events as `records` gives them.
    fn assemble<S: std::borrow::Borrow<Simulation>>(
        sim: S,
        records: impl FnOnce(S) -> (Vec<MinuteRecord>, Vec<Event>),
    ) -> Self {
        let s = sim.borrow();
        let scaling_decisions = s
            .events()
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Scaling { .. }))
            .count() as u32;
        let peak_instances = s
            .history()
            .iter()
            .map(|r| r.serving + r.booting)
            .max()
            .unwrap_or(0);
        let (policy, summary, first_fault) = (s.policy(), s.summary(), s.first_fault());
        let (history, events) = records(sim);
        Self {
            policy,
            history,
            events,
            summary,
            scaling_decisions,
            peak_instances,
            first_fault,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_by_name_and_refuse_with_the_reason() {
        let mut setup = RunSetup::new(ScenarioId::FreePlay, 1);
        setup.set("autoscaler", "hpa").unwrap();
        setup.set("timeout_s", "3").unwrap();
        setup.set("hpa.tolerance", "0.2").unwrap();
        assert_eq!(setup.policy, PolicyId::Hpa);
        assert_eq!(setup.params.timeout_s, 3.0);
        assert_eq!(setup.policies.hpa.tolerance, 0.2);
        let before = setup.clone();
        assert!(matches!(
            setup.set("autoscaler", "magic"),
            Err(SetError::UnknownId(_))
        ));
        assert!(matches!(
            setup.set("scenario", "bad-deploy"),
            Err(SetError::UnknownName { .. })
        ));
        assert!(matches!(
            setup.set("nope", "1"),
            Err(SetError::UnknownName { .. })
        ));
        assert!(matches!(
            setup.set("timeout_s", "x"),
            Err(SetError::NotANumber { .. })
        ));
        assert!(matches!(
            setup.set("timeout_s", "999"),
            Err(SetError::Param(_))
        ));
        assert!(matches!(
            setup.set("hpa.nope", "1"),
            Err(SetError::Param(_))
        ));
        assert_eq!(setup, before);
        let outcome = setup.run(30).unwrap();
        assert_eq!(outcome.history.len(), 30);
        assert_eq!(outcome.policy, PolicyId::Hpa);
    }

    #[test]
    fn every_choice_takes_its_spellings_and_refuses_others() {
        for (name, spellings) in CHOICE_PARAMS {
            assert!(
                RunSetup::spec(name).is_none(),
                "{name} has a numeric spec too"
            );
            for spelling in *spellings {
                let mut setup = RunSetup::new(ScenarioId::FreePlay, 1);
                assert_eq!(setup.set(name, spelling), Ok(()), "{name}={spelling}");
            }
            let mut setup = RunSetup::new(ScenarioId::FreePlay, 1);
            match setup.set(name, "nope") {
                Err(SetError::UnknownId(e)) => assert_eq!(e.allowed, *spellings, "{name}"),
                other => panic!("{name}=nope: {other:?}"),
            }
        }
    }
}
