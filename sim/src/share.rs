//! A run as a link: scenario, seed, parameters and the action log as query parameters, so
//! that opening the link replays exactly the same run.
//!
//! Parsing never fails as a whole: each malformed parameter gives a [`Notice`] naming it and
//! what is allowed, falls back to its default, and every valid parameter is kept.

use crate::action::Action;
use crate::autoscale::{self, PolicyId, PolicySettings};
use crate::budget::BudgetAccounting;
use crate::ids::{ScenarioId, UnknownId};
use crate::message::{Message, MessageId};
use crate::params::{ModelParams, ParamError};
use crate::setup::{RunSetup, SetError};
use crate::sim::Simulation;

/// Longest run a link can ask for (30 days of minutes).
pub const MAX_MINUTE: u32 = 43_200;

/// Everything that determines a run, plus how far it had got.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareState {
    pub scenario: ScenarioId,
    /// `None` when the link has none (the page then draws one).
    pub seed: Option<u32>,
    /// Model parameters that differ from the defaults.
    pub params: ModelParams,
    /// Autoscaling policy.
    pub autoscaler: PolicyId,
    /// The policies' parameters.
    pub policy: PolicySettings,
    pub actions: Vec<Action>,
    /// Minutes simulated when the link was made.
    pub minute: Option<u32>,
}

impl Default for ShareState {
    fn default() -> Self {
        Self {
            scenario: ScenarioId::FreePlay,
            seed: None,
            params: ModelParams::default(),
            autoscaler: autoscale::DEFAULT_POLICY,
            policy: PolicySettings::default(),
            actions: Vec::new(),
            minute: None,
        }
    }
}

/// A parameter that was not understood, and what is allowed instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub param: String,
    pub value: String,
    pub allowed: Message,
}

/// Query parameters this module owns (besides the model parameters' names).
pub const KEYS: &[&str] = &["scenario", "seed", "autoscaler", "actions", "t"];

impl ShareState {
    /// Reads decoded query pairs. Returns the state, the notices, and the pairs it does not
    /// own (for the page to interpret: language, embedding, speed…).
    pub fn from_pairs(pairs: &[(String, String)]) -> (Self, Vec<Notice>, Vec<(String, String)>) {
        let mut state = Self::default();
        let mut setup = state.setup(0);
        let mut notices = Vec::new();
        let mut rest = Vec::new();
        let mut notice = |param: &str, value: &str, allowed: Message| {
            notices.push(Notice {
                param: param.into(),
                value: value.into(),
                allowed,
            });
        };
        for (key, value) in pairs {
            match key.as_str() {
                "scenario" => match value.parse() {
                    Ok(id) => setup.scenario = id,
                    Err(e) => notice(key, value, one_of(&e)),
                },
                "seed" => match digits(value).and_then(|v| v.parse::<u32>().ok()) {
                    Some(seed) => state.seed = Some(seed),
                    None => notice(
                        key,
                        value,
                        Message::new(MessageId::RangeWhole)
                            .num("min", 0.0)
                            .num("max", f64::from(u32::MAX)),
                    ),
                },
                "t" => match digits(value)
                    .and_then(|v| v.parse::<u32>().ok())
                    .filter(|m| *m <= MAX_MINUTE)
                {
                    Some(m) => state.minute = Some(m),
                    None => notice(
                        key,
                        value,
                        Message::new(MessageId::AllowedMinutes).int("max", MAX_MINUTE),
                    ),
                },
                "actions" => {
                    for item in value.split(',').filter(|s| !s.trim().is_empty()) {
                        match Action::parse(item, MAX_MINUTE) {
                            Ok(a) => state.actions.push(a),
                            Err(e) => notice(key, item, e.message()),
                        }
                    }
                }
                name => match setup.set(name, value) {
                    Ok(()) => {}
                    Err(SetError::UnknownName { .. }) => rest.push((key.clone(), value.clone())),
                    Err(SetError::UnknownId(e)) => notice(key, value, one_of(&e)),
                    Err(SetError::NotANumber { spec, .. }) => notice(key, value, spec.allowed()),
                    Err(SetError::Param(e)) => notice(
                        key,
                        value,
                        RunSetup::spec(name).map_or(e.problem, |spec| spec.allowed()),
                    ),
                },
            }
        }
        state.scenario = setup.scenario;
        state.autoscaler = setup.policy;
        state.params = setup.params;
        state.policy = setup.policies;
        // Replay needs actions in time order; keep the given order within a minute.
        state.actions.sort_by_key(|a| a.minute);
        (state, notices, rest)
    }

    /// The pairs that reproduce this state (parameters only where they differ from defaults).
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut pairs = vec![("scenario".to_string(), self.scenario.to_string())];
        if let Some(seed) = self.seed {
            pairs.push(("seed".into(), seed.to_string()));
        }
        let defaults = ModelParams::default();
        for spec in ModelParams::SPECS {
            let (v, d) = (self.params.get(spec.name), defaults.get(spec.name));
            if v != d {
                if let Some(v) = v {
                    pairs.push((spec.name.into(), format!("{v}")));
                }
            }
        }
        if self.params.budget_accounting != BudgetAccounting::default() {
            pairs.push((
                BudgetAccounting::PARAM.into(),
                self.params.budget_accounting.to_string(),
            ));
        }
        if self.autoscaler != autoscale::DEFAULT_POLICY {
            pairs.push(("autoscaler".into(), self.autoscaler.to_string()));
        }
        let policy_defaults = PolicySettings::default();
        for spec in PolicySettings::all_specs() {
            let v = self.policy.get(spec.name);
            if v != policy_defaults.get(spec.name) {
                if let Some(v) = v {
                    pairs.push((spec.name.into(), format!("{v}")));
                }
            }
        }
        if !self.actions.is_empty() {
            let list: Vec<String> = self.actions.iter().map(Action::encode).collect();
            pairs.push(("actions".into(), list.join(",")));
        }
        if let Some(m) = self.minute {
            pairs.push(("t".into(), m.to_string()));
        }
        pairs
    }

    /// The run this state describes, with `seed`.
    pub fn setup(&self, seed: u32) -> RunSetup {
        RunSetup {
            scenario: self.scenario,
            seed,
            params: self.params.clone(),
            policy: self.autoscaler,
            policies: self.policy.clone(),
            actions: self.actions.clone(),
        }
    }
}

/// "one of …" for an id that names nothing known.
fn one_of(e: &UnknownId) -> Message {
    Message::new(MessageId::OneOfList).codes("allowed", e.allowed.to_vec())
}

/// Query pairs as owned strings (what [`ShareState::from_pairs`] reads), from literals.
pub fn owned_pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
    q.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Only plain ASCII digits count as a number in a link (no sign, no spaces).
fn digits(value: &str) -> Option<&str> {
    (!value.is_empty() && value.len() <= 10 && value.bytes().all(|b| b.is_ascii_digit()))
        .then_some(value)
}

impl ShareState {
    /// A simulation of this state with its actions scheduled, not yet stepped. Fails only
    /// when a policy parameter breaks a relation, which [`ShareState::from_pairs`] never
    /// yields.
    pub fn simulation(&self, seed: u32) -> Result<Simulation, ParamError> {
        self.setup(seed).build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::owned_pairs as pairs;

    #[test]
    fn round_trip() {
        let mut params = ModelParams::default();
        params.set("timeout_s", 3.0).unwrap();
        let mut policy = PolicySettings::default();
        policy.set("hpa.tolerance", 0.2).unwrap();
        let state = ShareState {
            scenario: ScenarioId::BadDeploy,
            seed: Some(77),
            params,
            autoscaler: PolicyId::Hpa,
            policy,
            actions: vec![
                Action::parse("3:min_instances=12", 100).unwrap(),
                Action::parse("14:rollback", 100).unwrap(),
            ],
            minute: Some(30),
        };
        let (back, notices, rest) = ShareState::from_pairs(&state.to_pairs());
        assert_eq!(back, state);
        assert!(notices.is_empty() && rest.is_empty());
    }

    #[test]
    fn bad_values_are_reported_and_the_rest_kept() {
        let (s, notices, rest) = ShareState::from_pairs(&pairs(&[
            ("seed", "+42"),
            ("scenario", "nope"),
            ("timeout_s", "999"),
            ("workers_per_instance", "8"),
            ("actions", "3:rollback,zz,5:min_instances=500,7:warm_cache"),
            ("lang", "es"),
        ]));
        let named: Vec<&str> = notices.iter().map(|n| n.param.as_str()).collect();
        assert_eq!(
            named,
            ["seed", "scenario", "timeout_s", "actions", "actions"]
        );
        assert_eq!(s.seed, None);
        assert_eq!(s.scenario, ScenarioId::FreePlay);
        assert_eq!(s.params.timeout_s, 2.0);
        assert_eq!(s.params.workers_per_instance, 8);
        let kept: Vec<String> = s.actions.iter().map(Action::encode).collect();
        assert_eq!(kept, ["3:rollback", "7:warm_cache"]);
        assert_eq!(rest, pairs(&[("lang", "es")]));
        let allowed = notices[2].allowed.to_string();
        assert!(allowed.contains("0.05 to 60"), "{allowed}");
    }

    #[test]
    fn a_link_replays_the_same_run() {
        let (state, notices, _) = ShareState::from_pairs(&pairs(&[
            ("scenario", "viral-surge"),
            ("seed", "5"),
            ("autoscaler", "kpa"),
            ("actions", "0:min_instances=12,30:shed_low_priority=0.5"),
        ]));
        assert!(notices.is_empty());
        let mut original = state.simulation(5).unwrap();
        original.run(90);
        let (again, _, _) = ShareState::from_pairs(&state.to_pairs());
        let mut replay = again.simulation(5).unwrap();
        replay.run(90);
        assert_eq!(original.history(), replay.history());
        assert_eq!(original.events(), replay.events());
    }
}
