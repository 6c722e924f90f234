//! A run as a link: scenario, seed, parameters and the action log as query parameters, so
//! that opening the link replays exactly the same run.
//!
//! Parsing never fails as a whole: each malformed parameter gives a [`Notice`] naming it and
//! what is allowed, falls back to its default, and every valid parameter is kept.

use crate::action::{Action, ActionKind};
use crate::autoscale::{self, PolicyId, PolicySettings};
use crate::budget::BudgetAccounting;
use crate::ids::{ScenarioId, UnknownId};
use crate::message::{Message, MessageId};
use crate::params::{
    parse_whole, ModelParams, ParamError, Switch, ENGINE_PARAM, HEDGE_PARAM, LB_PARAM,
    ORDERING_KEYS_PARAM,
};
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
    /// An author's exercise, run instead of `scenario` (it travels in the link's fragment:
    /// [`crate::exercise::link`]); its parameters are the base the link's own apply over.
    #[cfg(feature = "extended")]
    pub exercise: Option<std::sync::Arc<crate::exercise::Exercise>>,
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
            #[cfg(feature = "extended")]
            exercise: None,
        }
    }
}

/// What a notice is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    /// One parameter's value is not allowed (`allowed` says what is); its default is used.
    Invalid,
    /// A rule between two parameters does not hold (`allowed` says what `param` must be,
    /// given the other's value); `param` falls back to its default.
    Rule,
    /// The link is longer than [`MAX_LINK_CHARS`]; what comes after is not read.
    TooLong,
    /// More notices than [`MAX_NOTICES`]: `allowed` says how many more were left unlisted.
    More,
}

/// A parameter that was not understood, and what is allowed instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub param: String,
    /// The value as given, shortened to [`crate::message::QUOTE_CHARS`] characters.
    pub value: String,
    pub allowed: Message,
}

/// Query parameters this module owns (besides the model parameters' names).
pub const KEYS: &[&str] = &["scenario", "seed", "autoscaler", "actions", "t"];

/// Longest link read, in bytes of its decoded keys and values (64 KiB): thousands of
/// actions. Beyond it the rest of the link is left out with a notice, so that the work of
/// reading a link, and of replaying its actions, stays bounded.
pub const MAX_LINK_CHARS: usize = 64 * 1024;

/// Most notices listed about one link; the rest are counted in one last notice.
pub const MAX_NOTICES: usize = 20;

/// Notices, at most [`MAX_NOTICES`] of them listed and the rest counted.
#[derive(Default)]
struct Notices {
    listed: Vec<Notice>,
    more: usize,
}

impl Notices {
    fn push(&mut self, kind: NoticeKind, param: &str, value: &str, allowed: Message) {
        if self.listed.len() < MAX_NOTICES {
            self.listed.push(Notice {
                kind,
                param: crate::message::clip(param),
                value: crate::message::clip(value),
                allowed,
            });
        } else {
            self.more += 1;
        }
    }

    fn finish(mut self) -> Vec<Notice> {
        if self.more > 0 {
            let more = i64::try_from(self.more).unwrap_or(i64::MAX);
            self.listed.push(Notice {
                kind: NoticeKind::More,
                param: String::new(),
                value: String::new(),
                allowed: Message::new(MessageId::LinkMoreNotices).int("count", more),
            });
        }
        self.listed
    }
}

impl ShareState {
    /// Whether the run needs the extended build ([`crate`]'s `extended` feature): the
    /// request engine, a policy routed by formula, several regions, or an action of theirs,
    /// or an autoscaler other than the default (the `policies` feature, which the extended
    /// build has and the console's first download has not).
    pub fn needs_extended(&self) -> bool {
        let scenario = crate::exercise::scenario(self.scenario);
        let requests =
            self.params.engine.unwrap_or(scenario.engine) == crate::params::EngineKind::Requests;
        let regions = self.params.regions > 1 || scenario.regions > 1;
        let routed = self
            .params
            .lb
            .is_some_and(|lb| lb != crate::requests::Routing::LeastRequest);
        let acts = self.actions.iter().any(|a| {
            matches!(
                a.kind,
                ActionKind::Region(_) | ActionKind::Lb(_) | ActionKind::Hedge(_)
            )
        });
        let policy = self.autoscaler != crate::autoscale::DEFAULT_POLICY;
        requests
            || regions
            || routed
            || acts
            || policy
            || self.sets_engine_params()
            || self.custom()
    }

    /// Whether an author's exercise runs (only the extended build reads them).
    fn custom(&self) -> bool {
        #[cfg(feature = "extended")]
        return self.exercise.is_some();
        #[cfg(not(feature = "extended"))]
        false
    }

    /// Whether the run sets one of the request engine's own parameters
    /// ([`crate::params::EXTENDED_PARAMS`]) away from its default (a build without the
    /// extended models does not read them: it keeps them among the pairs it does not own).
    fn sets_engine_params(&self) -> bool {
        self.params.sets_extended_params()
    }
}

impl ShareState {
    /// Reads decoded query pairs. Returns the state, the notices, and the pairs it does not
    /// own (for the page to interpret: language, embedding, speed…).
    ///
    /// Each parameter is checked against its own range as it is read; the rules between
    /// parameters (`elastic.min_nodes` ≤ `elastic.max_nodes`, …) are checked once at the end,
    /// on the whole set, so the order of the parameters never matters. A rule that does not
    /// hold names the rule and the values, and sends the parameters of the link that break
    /// it back to their defaults; every other value is kept.
    pub fn from_pairs(pairs: &[(String, String)]) -> (Self, Vec<Notice>, Vec<(String, String)>) {
        Self::from_pairs_over(Self::default(), pairs)
    }

    /// Reads decoded query pairs over `base` (an author's exercise's state,
    /// [`ShareState::of_exercise`]): the link's parameters apply over the base's.
    pub fn from_pairs_over(
        base: Self,
        pairs: &[(String, String)],
    ) -> (Self, Vec<Notice>, Vec<(String, String)>) {
        let mut state = base;
        let mut setup = state.setup(0);
        let mut notices = Notices::default();
        let mut rest = Vec::new();
        // The policy parameters the link set, with their text (the last one given wins).
        let mut given: Vec<(&str, &str)> = Vec::new();
        let total: usize = pairs.iter().map(|(k, v)| k.len() + v.len() + 2).sum();
        let mut budget = MAX_LINK_CHARS;
        if total > MAX_LINK_CHARS {
            notices.push(
                NoticeKind::TooLong,
                "",
                "",
                Message::new(MessageId::LinkTooLong)
                    .int("given", i64::try_from(total).unwrap_or(i64::MAX))
                    .int("max", i64::try_from(MAX_LINK_CHARS).unwrap_or(i64::MAX)),
            );
        }
        for (key, value) in pairs {
            let size = key.len() + value.len() + 2;
            let (value, last) = if size <= budget {
                budget -= size;
                (value.as_str(), false)
            } else if key == "actions" {
                // The actions that fit, up to the last comma before the limit.
                let room = floor_char_boundary(value, budget.saturating_sub(key.len() + 2));
                (
                    value[..room].rsplit_once(',').map_or("", |(head, _)| head),
                    true,
                )
            } else {
                break;
            };
            let mut pair = LinkPair {
                key,
                value,
                notices: &mut notices,
            };
            match key.as_str() {
                "scenario" | "seed" | "t" | "actions" => pair.read_run(&mut state, &mut setup),
                name => match pair.read_setting(&mut setup) {
                    Setting::Taken if PolicySettings::owns(name) => {
                        given.retain(|(n, _)| *n != name);
                        given.push((name, value));
                    }
                    Setting::Taken | Setting::Refused => {}
                    Setting::Unknown => rest.push((key.clone(), value.to_string())),
                },
            }
            if last {
                break;
            }
        }
        keep_policy_rules(&mut setup, &mut given, &mut notices);
        keep_hedging_rule(&mut setup, pairs, &mut notices);
        state.scenario = if state.custom() {
            ScenarioId::FreePlay
        } else {
            setup.scenario
        };
        state.autoscaler = setup.policy;
        state.params = setup.params;
        state.policy = setup.policies;
        // Replay needs actions in time order; keep the given order within a minute.
        state.actions = crate::action::sort_by_minute(std::mem::take(&mut state.actions));
        (state, notices.finish(), rest)
    }

    /// The pairs that reproduce this state (parameters only where they differ from defaults).
    /// An author's exercise's parameters are its base: only those the link changes are
    /// written, and the scenario is the exercise (in the fragment), not a query pair.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let (base_params, base_policy, base_policies) = self.base();
        let mut pairs = Vec::new();
        if !self.custom() {
            pairs.push(("scenario".to_string(), self.scenario.to_string()));
        }
        if let Some(seed) = self.seed {
            pairs.push(("seed".into(), seed.to_string()));
        }
        let defaults = &base_params;
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
        if let Some(engine) = self.params.engine {
            pairs.push((ENGINE_PARAM.into(), engine.to_string()));
        }
        if let Some(lb) = self.params.lb {
            pairs.push((LB_PARAM.into(), lb.to_string()));
        }
        if let Some(hedge) = self.params.hedge {
            pairs.push((HEDGE_PARAM.into(), hedge.to_string()));
        }
        if self.params.ordering_keys != Switch::default() {
            pairs.push((
                ORDERING_KEYS_PARAM.into(),
                self.params.ordering_keys.to_string(),
            ));
        }
        pairs.extend(self.params.extended_choice_pairs());
        if self.autoscaler != base_policy {
            pairs.push(("autoscaler".into(), self.autoscaler.to_string()));
        }
        let policy_defaults = &base_policies;
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

    /// The parameters every link starts from: the defaults, or an author's exercise's
    /// (model parameters, autoscaler, policy parameters).
    fn base(&self) -> (ModelParams, PolicyId, PolicySettings) {
        #[cfg(feature = "extended")]
        if let Some(exercise) = &self.exercise {
            if let Ok(setup) = RunSetup::for_exercise(exercise.as_ref().clone(), 0) {
                return (setup.params, setup.policy, setup.policies);
            }
        }
        (
            ModelParams::default(),
            autoscale::DEFAULT_POLICY,
            PolicySettings::default(),
        )
    }

    /// The state of author's exercise `exercise` before a link's pairs: its parameters set,
    /// no seed, no actions. A parameter the core refuses gives its name and why.
    #[cfg(feature = "extended")]
    pub fn of_exercise(
        exercise: std::sync::Arc<crate::exercise::Exercise>,
    ) -> Result<Self, (String, SetError)> {
        let setup = RunSetup::for_exercise(exercise.as_ref().clone(), 0)?;
        Ok(Self {
            params: setup.params,
            autoscaler: setup.policy,
            policy: setup.policies,
            exercise: Some(exercise),
            ..Self::default()
        })
    }

    /// The run this state describes, with `seed`.
    pub fn setup(&self, seed: u32) -> RunSetup {
        RunSetup {
            scenario: self.scenario,
            custom: self.custom_run(),
            seed,
            params: self.params.clone(),
            policy: self.autoscaler,
            policies: self.policy.clone(),
            actions: self.actions.clone(),
        }
    }

    /// The scenario this state runs: the author's exercise's, or the built-in one's.
    pub fn definition(&self) -> std::borrow::Cow<'_, crate::scenario::Scenario> {
        #[cfg(feature = "extended")]
        if let Some(exercise) = &self.exercise {
            return std::borrow::Cow::Borrowed(&exercise.scenario);
        }
        std::borrow::Cow::Owned(crate::exercise::scenario(self.scenario))
    }

    /// Whether `other` plays the same author's exercise as this state (or neither plays one).
    pub fn same_exercise(&self, other: &Self) -> bool {
        #[cfg(feature = "extended")]
        return self.exercise == other.exercise;
        #[cfg(not(feature = "extended"))]
        {
            let _ = other;
            true
        }
    }

    /// Runs built-in scenario `id` (an author's exercise, if one ran, is closed).
    pub fn choose_scenario(&mut self, id: ScenarioId) {
        self.scenario = id;
        #[cfg(feature = "extended")]
        {
            self.exercise = None;
        }
    }

    /// What the core needs of the author's exercise, if one runs.
    fn custom_run(&self) -> Option<std::sync::Arc<crate::exercise::Custom>> {
        #[cfg(feature = "extended")]
        return self.exercise.as_ref().map(|e| {
            std::sync::Arc::new(crate::exercise::Custom {
                scenario: e.scenario.clone(),
                expected: e.expected.clone(),
            })
        });
        #[cfg(not(feature = "extended"))]
        None
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

/// Policy parameters `fields` back to their defaults.
fn reset_to_default(setup: &mut RunSetup, fields: &[&'static str]) {
    for field in fields {
        if let Some(spec) = RunSetup::spec(field) {
            // A default is within its own range (the core's tests check every spec).
            let _ = setup.policies.set(field, spec.default);
        }
    }
}

/// The largest index at most `at` that starts a character of `text`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut i = at.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl ShareState {
    /// A simulation of this state with its actions scheduled, not yet stepped. Fails only
    /// when a policy parameter breaks a relation, which [`ShareState::from_pairs`] never
    /// yields.
    pub fn simulation(&self, seed: u32) -> Result<Simulation, ParamError> {
        self.setup(seed).build()
    }
}

/// What became of a setting a link gave.
enum Setting {
    Taken,
    /// Out of range or misspelled: a notice says what is allowed.
    Refused,
    /// A name this build does not know: kept for the build that does.
    Unknown,
}

/// One pair of a link being read, and where its notice goes.
struct LinkPair<'a> {
    key: &'a str,
    value: &'a str,
    notices: &'a mut Notices,
}

impl LinkPair<'_> {
    fn notice(&mut self, value: &str, allowed: Message) {
        self.notices
            .push(NoticeKind::Invalid, self.key, value, allowed);
    }

    /// The run itself: `scenario`, `seed`, `t` or `actions`.
    fn read_run(&mut self, state: &mut ShareState, setup: &mut RunSetup) {
        let value = self.value;
        match self.key {
            "scenario" => match value.parse() {
                Ok(id) => setup.scenario = id,
                Err(e) => self.notice(value, one_of(&e)),
            },
            "seed" => match parse_whole(value).and_then(|v| u32::try_from(v).ok()) {
                Some(seed) => state.seed = Some(seed),
                None => self.notice(
                    value,
                    Message::new(MessageId::RangeWhole)
                        .num("min", 0.0)
                        .num("max", f64::from(u32::MAX)),
                ),
            },
            "t" => match parse_whole(value)
                .and_then(|v| u32::try_from(v).ok())
                .filter(|m| *m <= MAX_MINUTE)
            {
                Some(m) => state.minute = Some(m),
                None => self.notice(
                    value,
                    Message::new(MessageId::AllowedMinutes).int("max", MAX_MINUTE),
                ),
            },
            _ => {
                for item in value.split(',').filter(|s| !s.trim().is_empty()) {
                    match Action::parse(item, MAX_MINUTE) {
                        Ok(a) => state.actions.push(a),
                        Err(e) => self.notice(item, e.message()),
                    }
                }
            }
        }
    }

    /// A setting of the run set-up: taken, refused with a notice, or not this build's.
    fn read_setting(&mut self, setup: &mut RunSetup) -> Setting {
        let (name, value) = (self.key, self.value);
        let allowed = match setup.set(name, value) {
            Ok(()) => return Setting::Taken,
            Err(SetError::UnknownName { .. }) => return Setting::Unknown,
            Err(SetError::UnknownId(e)) => one_of(&e),
            Err(SetError::NotANumber { spec, .. }) => spec.allowed(),
            Err(SetError::Param(e)) => {
                RunSetup::spec(name).map_or(e.problem, |spec| spec.allowed())
            }
        };
        self.notice(value, allowed);
        Setting::Refused
    }
}

/// The rules between the policies' parameters, on the whole set a link gave. Each round
/// sends at least one parameter back to its default, and defaults keep every rule, so this
/// ends.
fn keep_policy_rules(setup: &mut RunSetup, given: &mut Vec<(&str, &str)>, notices: &mut Notices) {
    while let Some(rule) = setup.policies.broken_rule() {
        let mut reset = rule
            .fields()
            .into_iter()
            .filter(|f| given.iter().any(|(n, _)| n == f))
            .peekable();
        if reset.peek().is_none() {
            // Not reachable from a link (defaults keep every rule); end the loop anyway.
            let fields = rule.fields();
            reset_to_default(setup, &fields);
            continue;
        }
        let fields: Vec<&'static str> = reset.collect();
        for field in &fields {
            let text = given
                .iter()
                .find(|(n, _)| n == field)
                .map_or("", |(_, v)| v);
            notices.push(NoticeKind::Rule, field, text, rule.blame(field).problem);
        }
        given.retain(|(n, _)| !fields.contains(n));
        reset_to_default(setup, &fields);
    }
}

/// Hedging's rule (seed 002): a link that breaks it names both timeouts; the hedge delay it
/// gave goes back to its default, and hedging goes off if the rule still does not hold.
fn keep_hedging_rule(setup: &mut RunSetup, pairs: &[(String, String)], notices: &mut Notices) {
    if !setup.hedge_on() {
        return;
    }
    if let Err(e) = setup.params.hedging_rule() {
        let text = pairs
            .iter()
            .rev()
            .find(|(k, _)| *k == e.field)
            .map_or("", |(_, v)| v.as_str());
        notices.push(NoticeKind::Rule, &e.field, text, e.problem.clone());
        if e.field == "hedge_delay_ms" {
            setup.params.hedge_delay_ms = ModelParams::default().hedge_delay_ms;
        }
        if setup.params.hedging_rule().is_err() {
            setup.params.hedge = Some(Switch::Off);
        }
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
            #[cfg(feature = "extended")]
            exercise: None,
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

#[cfg(test)]
mod extended_tests {
    use super::*;

    #[test]
    fn the_runs_that_need_the_extended_models() {
        let state = |pairs: &[(&str, &str)]| ShareState::from_pairs(&owned_pairs(pairs)).0;
        assert!(!state(&[("scenario", "bad-deploy")]).needs_extended());
        assert!(!state(&[("lb", "least-request")]).needs_extended());
        assert!(state(&[("engine", "requests")]).needs_extended());
        assert!(state(&[("lb", "maglev")]).needs_extended());
        assert!(state(&[("regions", "2")]).needs_extended());
        assert!(state(&[("scenario", "slow-instance")]).needs_extended());
        assert!(state(&[("scenario", "hot-key")]).needs_extended());
        assert!(state(&[("scenario", "regional-outage")]).needs_extended());
        assert!(state(&[("actions", "3:hedge=on")]).needs_extended());
        assert!(state(&[("actions", "3:drain_region=a:on")]).needs_extended());
        assert!(!state(&[("actions", "3:rollback")]).needs_extended());
        assert!(state(&[("service_shape", "lognormal")]).needs_extended());
        assert!(state(&[("choice_count", "3")]).needs_extended());
        assert!(!state(&[("keys", "10000")]).needs_extended());
        // Every autoscaler but the default; a policy's parameters alone change nothing.
        assert!(!state(&[("autoscaler", "target-tracking")]).needs_extended());
        assert!(!state(&[("hpa.tolerance", "0.2")]).needs_extended());
        for policy in ["cloud-run", "elastic", "hpa", "kpa"] {
            assert!(
                state(&[("autoscaler", policy)]).needs_extended(),
                "{policy}"
            );
        }
    }

    /// An author's exercise's link: the query carries only what the run changed (no
    /// scenario, none of the exercise's own parameters), and reading it over the exercise
    /// gives the same state and the same run as the exercise's file.
    #[cfg(feature = "extended")]
    #[test]
    fn an_exercises_link_carries_only_what_the_run_changed() {
        let text = include_str!("../tests/data/exercises/good/cache-flush-at-14.json");
        let exercise = std::sync::Arc::new(crate::exercise::file::read(text).unwrap());
        assert!(!exercise.params.is_empty(), "the example sets parameters");
        let base = ShareState::of_exercise(exercise.clone()).unwrap();
        assert!(base.needs_extended());
        let mut state = base.clone();
        state.seed = Some(5);
        state.actions = vec![Action::parse("12:rollback", 240).unwrap()];
        state.minute = Some(20);
        let pairs = state.to_pairs();
        let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["seed", "actions", "t"]);
        let (back, notices, rest) = ShareState::from_pairs_over(base.clone(), &pairs);
        assert_eq!(back, state);
        assert!(notices.is_empty() && rest.is_empty());
        // A link's scenario does not replace the exercise.
        let (back, _, _) = ShareState::from_pairs_over(base, &pairs_of(&[("scenario", "hot-key")]));
        assert_eq!(back.scenario, ScenarioId::FreePlay);
        assert!(back.exercise.is_some());
        // The same run as the file's.
        let from_file = RunSetup::for_exercise(exercise.as_ref().clone(), 5).unwrap();
        let mut from_link = state.setup(5);
        from_link.actions.clear();
        assert_eq!(from_link, from_file);
    }

    fn pairs_of(q: &[(&str, &str)]) -> Vec<(String, String)> {
        super::owned_pairs(q)
    }
}
