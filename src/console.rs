//! The run behind the page: the core's [`Simulation`], the link state it was built from, and
//! the log of the user's actions. Pure Rust (no browser), so it is tested natively.
//!
//! The page never changes the simulation except through [`Console::act`] (an action for the
//! next minute) and [`Console::step`]. Actions taken while paused wait here, one per control
//! (moving a slider five times before the next minute keeps the last position), and are handed
//! to the core, stamped with the minute, when that minute is simulated. The log therefore holds
//! exactly what the core applied, and [`Console::share_state`] writes a link that replays the
//! run bit for bit: same seed, same settings, same actions at the same minutes.

use oncall_sim::autoscale::PolicyId;
use oncall_sim::ids::ScenarioId;
use oncall_sim::share::ShareState;
use oncall_sim::{Action, ActionKind, MinuteRecord, ParamError, RunSummary, Settings, Simulation};

/// The run the page shows.
pub struct Console {
    /// What the run was built from (its `actions` and `minute` are not kept up to date: see
    /// [`Console::share_state`]).
    base: ShareState,
    seed: u32,
    sim: Simulation,
    /// Every action handed to the core, in the order it got them.
    log: Vec<Action>,
    /// Actions for the next minute, at most one per control.
    pending: Vec<ActionKind>,
    /// While the run is below this many minutes, it is replaying a link: the pending actions
    /// belong to that minute and wait for it.
    replay_to: u32,
    /// The last minute's record (the run always has one: `start` simulates the opening
    /// minute).
    last: MinuteRecord,
}

/// What the page shows about the run, copied out after each change.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// The last simulated minute.
    pub record: MinuteRecord,
    /// Minutes simulated (the link's `t`).
    pub minutes: u32,
    /// Length of the scenario's exercise, if it has one.
    pub length: Option<u32>,
    pub finished: bool,
    /// Minutes still to replay from a link (0 when the run is live).
    pub replay_left: u32,
    /// The controls' values for the next minute (the core's settings with the pending actions
    /// applied).
    pub settings: Settings,
    pub pending: Vec<ActionKind>,
    /// Time of day of the next minute.
    pub next_clock: String,
    /// The month's budget left at the next minute, the strip's minute: the balance now,
    /// after the last minute was paid for (the record's is at that minute's start).
    pub budget_left: f64,
    /// Number of events so far.
    pub events: usize,
    pub scenario: ScenarioId,
    pub policy: PolicyId,
    pub seed: u32,
    /// The build a rollback would return to, if there is an earlier one.
    pub rollback_target: Option<u32>,
}

impl Console {
    /// Builds the run of a link and simulates its opening minute. Replaying to the link's
    /// minute is done with [`Console::replay`], a slice at a time.
    ///
    /// `state.minute` is the number of minutes to replay to; the page always shows at least
    /// the opening minute, so 0 and 1 mean the same. Actions stamped with exactly that minute
    /// were still waiting when the link was made; they wait here again.
    pub fn start(mut state: ShareState, seed: u32) -> Result<Self, ParamError> {
        state.seed = Some(seed);
        let replay_to = state.minute.unwrap_or(1).max(1);
        let (waiting, scheduled): (Vec<Action>, Vec<Action>) = state
            .actions
            .iter()
            .cloned()
            .partition(|a| a.minute == replay_to);
        let mut scheduled_state = state.clone();
        scheduled_state.actions = scheduled.clone();
        let mut sim = scheduled_state.simulation(seed)?;
        // The opening minute: the page always has a minute to show.
        let last = sim.step().clone();
        Ok(Self {
            base: state,
            seed,
            sim,
            log: scheduled,
            pending: waiting.into_iter().map(|a| a.kind).collect(),
            replay_to,
            last,
        })
    }

    /// The core's simulation (read-only).
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// The author's exercise the run plays, if it plays one (only the extended build reads
    /// them).
    pub fn exercise(&self) -> Option<&oncall_sim::exercise::Exercise> {
        #[cfg(feature = "extended")]
        return self.base.exercise.as_deref();
        #[cfg(not(feature = "extended"))]
        None
    }

    /// The state the run was built from.
    pub fn base(&self) -> &ShareState {
        &self.base
    }

    /// Minutes simulated so far.
    pub fn minutes(&self) -> u32 {
        self.sim.history().len() as u32
    }

    /// Minutes the replay of a link still has to simulate.
    pub fn replay_left(&self) -> u32 {
        let end = self.sim.scenario().minutes.unwrap_or(u32::MAX);
        self.replay_to.min(end).saturating_sub(self.minutes())
    }

    /// Whether the page is firing after the last simulated minute.
    pub fn paging(&self) -> bool {
        self.sim.history().last().is_some_and(|r| r.paging)
    }

    pub fn finished(&self) -> bool {
        self.sim.finished()
    }

    /// Simulates the next minute, handing the pending actions to the core first. Does nothing
    /// once the exercise is over. Returns whether a minute was simulated.
    pub fn step(&mut self) -> bool {
        if self.sim.finished() {
            return false;
        }
        let minute = self.sim.minute();
        if minute >= self.replay_to && !self.pending.is_empty() {
            let actions: Vec<Action> = self
                .pending
                .drain(..)
                .map(|kind| Action { minute, kind })
                .collect();
            self.log.extend(actions.iter().cloned());
            self.sim.schedule(actions);
        }
        self.last = self.sim.step().clone();
        true
    }

    /// Simulates up to `max` minutes of a link's replay; returns how many it did.
    pub fn replay(&mut self, max: u32) -> u32 {
        let mut done = 0;
        while done < max && self.replay_left() > 0 && self.step() {
            done += 1;
        }
        done
    }

    /// Stops a link's replay at the minute reached: the run is live from here, paused, and
    /// the link's later actions keep their minutes (those stamped with the link's last
    /// minute, which were waiting for it, are scheduled for it). Playing on therefore gives
    /// the same run as the whole replay would have. False when no replay is under way.
    pub fn stop_replay(&mut self) -> bool {
        if self.replay_left() == 0 {
            return false;
        }
        let minute = self.replay_to;
        let waiting: Vec<Action> = self
            .pending
            .drain(..)
            .map(|kind| Action { minute, kind })
            .collect();
        self.log.extend(waiting.iter().cloned());
        self.sim.schedule(waiting);
        self.replay_to = self.minutes();
        true
    }

    /// Queues an action for the next minute. A later action on the same control replaces the
    /// earlier one. Refused (false) once the exercise is over or while a link replays.
    pub fn act(&mut self, kind: ActionKind) -> bool {
        if self.sim.finished() || self.replay_left() > 0 {
            return false;
        }
        match self.pending.iter_mut().find(|k| k.name() == kind.name()) {
            Some(slot) => *slot = kind,
            None => self.pending.push(kind),
        }
        true
    }

    /// Actions waiting for the next minute.
    pub fn pending(&self) -> &[ActionKind] {
        &self.pending
    }

    /// The controls as they will be for the next minute.
    pub fn settings(&self) -> Settings {
        let mut s = self.sim.settings().clone();
        for kind in &self.pending {
            s.start_with(kind);
        }
        s
    }

    /// Everything that reproduces the run as it is now: the link's parameters, the actions
    /// the core got plus those waiting (stamped with the next minute), and the minutes
    /// simulated.
    pub fn share_state(&self) -> ShareState {
        let mut state = self.base.clone();
        state.seed = Some(self.seed);
        let next = self.sim.minute();
        let mut actions = self.log.clone();
        actions.extend(
            self.pending
                .iter()
                .cloned()
                .map(|kind| Action { minute: next, kind }),
        );
        // Within a minute the order is the order the core applies them in.
        state.actions = oncall_sim::action::sort_by_minute(actions);
        state.minute = Some(self.minutes().max(self.replay_to.min(self.length_or_max())));
        state
    }

    fn length_or_max(&self) -> u32 {
        self.sim.scenario().minutes.unwrap_or(u32::MAX)
    }

    /// The one way a run starts over: this run's set-up changed by `edit`, with `seed` (or
    /// the same seed), from minute 0 and without actions. A set-up the core refuses leaves
    /// the run as it was.
    pub fn restart(
        &mut self,
        seed: Option<u32>,
        edit: impl FnOnce(&mut ShareState),
    ) -> Result<(), ParamError> {
        let state = self.restarted(seed, edit);
        self.become_run(state)
    }

    /// The run [`Console::restart`] starts, not yet started.
    pub fn restarted(&self, seed: Option<u32>, edit: impl FnOnce(&mut ShareState)) -> ShareState {
        let mut state = self.base.clone();
        edit(&mut state);
        state.actions.clear();
        state.minute = None;
        state.seed = Some(seed.unwrap_or(self.seed));
        state
    }

    /// The same run under a changed set-up (another autoscaler, a policy parameter): the
    /// actions, those still waiting included, and the minutes played are kept and replayed
    /// under it. A set-up the core refuses leaves the run as it was.
    pub fn rerun(&mut self, edit: impl FnOnce(&mut ShareState)) -> Result<(), ParamError> {
        let state = self.rerun_state(edit);
        self.become_run(state)
    }

    /// The run [`Console::rerun`] starts, not yet started.
    pub fn rerun_state(&self, edit: impl FnOnce(&mut ShareState)) -> ShareState {
        let mut state = self.share_state();
        edit(&mut state);
        state
    }

    /// Becomes the run `state` describes (a link's, exact to its minute), with this run's
    /// seed when the state names none. A state the core refuses leaves the run as it was.
    pub fn become_run(&mut self, state: ShareState) -> Result<(), ParamError> {
        let seed = state.seed.unwrap_or(self.seed);
        *self = Self::start(state, seed)?;
        Ok(())
    }

    /// A new run with the same scenario, seed and parameters, and no actions.
    pub fn reset(&mut self) -> Result<(), ParamError> {
        self.restart(None, |_| {})
    }

    /// A new run of another scenario, autoscaler or seed (the model parameters are kept).
    pub fn restart_with(
        &mut self,
        scenario: Option<ScenarioId>,
        policy: Option<PolicyId>,
        seed: Option<u32>,
    ) -> Result<(), ParamError> {
        self.restart(seed, |state| {
            if let Some(id) = scenario {
                state.choose_scenario(id);
            }
            if let Some(id) = policy {
                state.autoscaler = id;
            }
        })
    }

    /// The debrief of the run so far.
    pub fn summary(&self) -> RunSummary {
        self.sim.summary()
    }

    /// What the page shows, copied out.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            rollback_target: self.sim.rollback_target(),
            record: self.last.clone(),
            minutes: self.minutes(),
            length: self.sim.scenario().minutes,
            finished: self.sim.finished(),
            replay_left: self.replay_left(),
            settings: self.settings(),
            pending: self.pending.clone(),
            next_clock: self.sim.clock_at(self.sim.minute()).to_string(),
            budget_left: self
                .sim
                .budget_left_at(self.sim.minute())
                .unwrap_or_default(),
            events: self.sim.events().len(),
            scenario: self.sim.scenario().id,
            policy: self.sim.policy(),
            seed: self.seed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{link_query, read_link};

    fn state(scenario: &str) -> ShareState {
        ShareState {
            scenario: scenario.parse().unwrap(),
            ..ShareState::default()
        }
    }

    fn replay_link(console: &Console) -> Console {
        let query = link_query(&console.share_state(), &[]);
        let link = read_link(&query);
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        let seed = link.state.seed.expect("the link names the seed");
        let mut replay = Console::start(link.state, seed).expect("the link starts");
        while replay.replay(7) > 0 {}
        replay
    }

    #[test]
    fn a_replay_stopped_early_plays_on_into_the_same_run() {
        let mut link = state("bad-deploy");
        link.minute = Some(40);
        link.actions = vec![
            Action {
                minute: 25,
                kind: ActionKind::Rollback,
            },
            Action {
                minute: 40,
                kind: ActionKind::MinInstances(12),
            },
        ];
        let mut whole = Console::start(link.clone(), 7).unwrap();
        while whole.replay(7) > 0 {}
        let mut stopped = Console::start(link, 7).unwrap();
        stopped.replay(10);
        assert!(stopped.replay_left() > 0);
        assert!(stopped.stop_replay());
        assert_eq!(stopped.replay_left(), 0);
        assert!(!stopped.stop_replay());
        assert_eq!(stopped.minutes(), 11);
        assert_eq!(stopped.share_state().minute, Some(11));
        while stopped.minutes() < 50 {
            assert!(stopped.step());
        }
        while whole.minutes() < 50 {
            assert!(whole.step());
        }
        assert_eq!(stopped.sim().history(), whole.sim().history());
        assert_eq!(
            stopped.share_state().actions,
            whole.share_state().actions,
            "the link's actions are kept, each at its minute"
        );
    }

    #[test]
    fn the_opening_minute_is_shown_at_once() {
        let console = Console::start(state("free-play"), 42).unwrap();
        assert_eq!(console.minutes(), 1);
        assert_eq!(console.snapshot().record.minute, 0);
        assert_eq!(console.snapshot().record.serving, 10);
        assert_eq!(console.share_state().minute, Some(1));
    }

    #[test]
    fn actions_wait_for_the_next_minute_one_per_control() {
        let mut c = Console::start(state("free-play"), 1).unwrap();
        c.step();
        assert!(c.act(ActionKind::MinInstances(12)));
        assert!(c.act(ActionKind::CacheTtlS(120)));
        assert!(c.act(ActionKind::MinInstances(20)));
        assert_eq!(
            c.pending(),
            [ActionKind::MinInstances(20), ActionKind::CacheTtlS(120)]
        );
        assert_eq!(c.settings().min_instances, 20);
        assert_eq!(c.sim().settings().min_instances, 2);
        c.step();
        assert!(c.pending().is_empty());
        let applied: Vec<String> = c.sim().actions().iter().map(Action::encode).collect();
        assert_eq!(applied, ["2:min_instances=20", "2:cache_ttl_s=120"]);
        assert_eq!(c.snapshot().record.booting, 10);
    }

    #[test]
    fn a_shared_link_replays_the_same_run_including_waiting_actions() {
        let mut c = Console::start(state("bad-deploy"), 7).unwrap();
        for _ in 0..13 {
            c.step();
        }
        c.act(ActionKind::Rollback);
        c.step();
        c.act(ActionKind::ShedLowPriority(0.5));
        for _ in 0..9 {
            c.step();
        }
        c.act(ActionKind::MinInstances(14));
        c.act(ActionKind::WarmCache);
        let replay = replay_link(&c);
        assert_eq!(replay.minutes(), c.minutes());
        assert_eq!(replay.sim().history(), c.sim().history());
        assert_eq!(replay.sim().events(), c.sim().events());
        assert_eq!(replay.pending(), c.pending());
        assert_eq!(replay.snapshot(), c.snapshot());
        assert_eq!(replay.share_state(), c.share_state());

        // And they go on identically.
        let (mut a, mut b) = (c, replay);
        for _ in 0..20 {
            a.step();
            b.step();
        }
        assert_eq!(a.sim().history(), b.sim().history());
        assert_eq!(a.sim().events(), b.sim().events());
    }

    #[test]
    fn a_link_of_an_untouched_run_replays_too() {
        let mut c = Console::start(state("viral-surge"), 5).unwrap();
        for _ in 0..40 {
            c.step();
        }
        let replay = replay_link(&c);
        assert_eq!(replay.sim().history(), c.sim().history());
    }

    #[test]
    fn actions_are_refused_while_replaying_and_after_the_end() {
        let mut s = state("bad-deploy");
        s.minute = Some(50);
        let mut c = Console::start(s, 3).unwrap();
        assert_eq!(c.replay_left(), 49);
        assert!(!c.act(ActionKind::Rollback));
        assert_eq!(c.replay(10), 10);
        assert_eq!(c.minutes(), 11);
        while c.replay(100) > 0 {}
        assert_eq!(c.minutes(), 50);
        assert!(c.act(ActionKind::Rollback));
        while c.step() {}
        assert!(c.finished());
        assert_eq!(c.minutes(), 120);
        assert!(!c.act(ActionKind::WarmCache));
        assert!(!c.step());
    }

    #[test]
    fn a_minute_past_the_end_stops_at_the_end() {
        let mut s = state("bad-deploy");
        s.minute = Some(500);
        let mut c = Console::start(s, 3).unwrap();
        while c.replay(1000) > 0 {}
        assert_eq!(c.minutes(), 120);
        assert!(c.finished());
        assert_eq!(c.replay_left(), 0);
        assert_eq!(c.share_state().minute, Some(120));
    }

    #[test]
    fn reset_and_restart_clear_the_actions_and_keep_the_parameters() {
        let mut s = state("free-play");
        s.params.set("timeout_s", 3.0).unwrap();
        let mut c = Console::start(s, 9).unwrap();
        c.act(ActionKind::WarmCache);
        c.step();
        c.reset().unwrap();
        assert_eq!(c.minutes(), 1);
        assert!(c.sim().actions().is_empty() && c.pending().is_empty());
        assert_eq!(c.sim().params().timeout_s, 3.0);
        c.restart_with(Some(ScenarioId::CacheFlush), Some(PolicyId::Hpa), Some(11))
            .unwrap();
        assert_eq!(c.snapshot().scenario, ScenarioId::CacheFlush);
        assert_eq!(c.snapshot().policy, PolicyId::Hpa);
        assert_eq!(c.seed(), 11);
        assert_eq!(c.sim().params().timeout_s, 3.0);
        // An unknown scenario cannot reach a restart: ids are parsed at the edge.
        assert!("nope".parse::<ScenarioId>().is_err());
    }

    #[test]
    fn a_new_autoscaler_or_parameter_replays_the_same_actions_to_the_same_minute() {
        let mut c = Console::start(state("bad-deploy"), 7).unwrap();
        for _ in 0..14 {
            c.step();
        }
        c.act(ActionKind::Rollback);
        c.step();
        c.act(ActionKind::MinInstances(14));
        for _ in 0..5 {
            c.step();
        }
        c.act(ActionKind::WarmCache);
        let before = c.share_state();
        assert_eq!(before.actions.len(), 3);

        c.rerun(|s| s.autoscaler = PolicyId::Hpa).unwrap();
        assert_eq!(c.snapshot().policy, PolicyId::Hpa);
        assert!(c.replay_left() > 0);
        while c.replay(16) > 0 {}
        assert_eq!(c.minutes(), 21);
        assert_eq!(c.pending(), [ActionKind::WarmCache]);
        let applied: Vec<String> = c.sim().actions().iter().map(Action::encode).collect();
        assert_eq!(applied, ["15:rollback", "16:min_instances=14"]);
        let after = c.share_state();
        assert_eq!(after.actions, before.actions);
        assert_eq!(after.minute, before.minute);

        // The same as a fresh run of the new set-up's link.
        let mut fresh_state = before.clone();
        fresh_state.autoscaler = PolicyId::Hpa;
        let mut fresh = Console::start(fresh_state, 7).unwrap();
        while fresh.replay(16) > 0 {}
        assert_eq!(fresh.sim().history(), c.sim().history());

        // A policy parameter too; a refused one leaves the run as it was.
        c.rerun(|s| s.policy.set("hpa.tolerance", 0.3).unwrap())
            .unwrap();
        while c.replay(16) > 0 {}
        assert_eq!(c.share_state().actions, before.actions);
        assert_eq!(c.sim().settings().min_instances, 14);
        let kept = c.share_state();
        assert!(c
            .rerun(|s| {
                s.autoscaler = PolicyId::Elastic;
                s.policy.elastic.min_nodes = 50;
                s.policy.elastic.max_nodes = 1;
            })
            .is_err());
        assert_eq!(c.share_state(), kept);
    }

    #[test]
    fn extreme_link_parameters_neither_panic_nor_hang() {
        // Every model and policy parameter a link can set, at each end of its range, under
        // every policy and in every scenario: the page must keep running.
        let names: Vec<(&str, f64, f64)> = oncall_sim::ModelParams::SPECS
            .iter()
            .chain(oncall_sim::autoscale::PolicySettings::all_specs())
            .map(|s| (s.name, s.min, s.max))
            .collect();
        for (name, min, max) in names {
            for value in [min, max] {
                for (i, policy) in PolicyId::ALL.iter().enumerate() {
                    let scenario = ScenarioId::ALL[i % ScenarioId::ALL.len()];
                    // On the formulas (the request engine's own sweep is the core's
                    // `extreme_parameters_in_request_mode`).
                    let query = format!(
                        "?scenario={scenario}&engine=formulas&autoscaler={policy}&{name}={value}\
                         &actions=3:min_instances=40,4:warm_cache,5:rollback,6:shed_low_priority=1,\
                         7:heavy_feature=off,8:autoscaling=off,9:cache_ttl_s=1,10:autoscaling=on"
                    );
                    let link = crate::link::read_link(&query);
                    // Some combinations are refused as a whole (e.g. a policy's own
                    // consistency rules); that is a notice, not a crash.
                    let Ok(mut c) = Console::start(link.state, 1) else {
                        continue;
                    };
                    for _ in 0..40 {
                        c.step();
                    }
                    let r = c.snapshot().record;
                    assert!(r.p99_ms.is_finite() && r.error_rate.is_finite(), "{query}");
                }
            }
        }
    }
}
