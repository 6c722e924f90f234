//! Builds, rolling deploys and rollbacks.

use crate::event::{EventKind, FleetReason};
use crate::fleet::Fleet;
use crate::time::secs;

/// Share of its requests a bad build fails: the model's bad-build error share times the
/// deploy's severity (the bad deploy's twist, drawn from the seed), at most all of them.
pub fn bad_build_errors(bad_build_error_rate: f64, severity: f64) -> f64 {
    (bad_build_error_rate * severity).clamp(0.0, 1.0)
}

/// The build every scenario starts on.
pub const OPENING_BUILD: u32 = 1;

/// A build rolling out over several minutes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rollout {
    build: u32,
    start_minute: u32,
    minutes: u32,
}

/// Which builds exist, which one is rolling out, and the rollback under way.
///
/// A rollback returns to the build that was live before the current one, as a deployment
/// tool does: it knows the order of the builds, not which one is bad. With no earlier build
/// there is nothing to roll back to.
#[derive(Clone, Debug, PartialEq)]
pub struct Deploys {
    rollout: Option<Rollout>,
    /// The build new instances start on.
    pub live_build: u32,
    /// Minute the live build started rolling out (`None` for the opening build).
    pub live_since_minute: Option<u32>,
    /// Builds that went live, oldest first, each with the minute it went out; the last is
    /// the live build. A finished rollback removes the build it reverted.
    history: Vec<(u32, Option<u32>)>,
    /// The build a rollback in preparation returns to.
    rollback_target: Option<(u32, Option<u32>)>,
    bad_builds: Vec<u32>,
    next_build: u32,
    /// Minute the rollback fleet takes over, while one is being prepared.
    pub rollback_ready_minute: Option<u32>,
    /// The rolling update's step of the current minute (build, minutes done, minutes), for
    /// the other regions' fleets.
    last_roll: Option<(u32, u32, u32)>,
}

impl Default for Deploys {
    fn default() -> Self {
        Self {
            rollout: None,
            live_build: OPENING_BUILD,
            live_since_minute: None,
            history: vec![(OPENING_BUILD, None)],
            rollback_target: None,
            bad_builds: Vec::new(),
            next_build: OPENING_BUILD + 1,
            rollback_ready_minute: None,
            last_roll: None,
        }
    }
}

impl Deploys {
    /// Whether `build` is one of the scenario's bad builds.
    pub fn is_bad(&self, build: u32) -> bool {
        self.bad_builds.contains(&build)
    }

    /// A new build starts rolling out at `minute` over `minutes`.
    pub fn deploy(&mut self, minute: u32, bad: bool, minutes: u32) -> EventKind {
        let build = self.next_build;
        self.next_build += 1;
        if bad {
            self.bad_builds.push(build);
        }
        self.live_build = build;
        self.live_since_minute = Some(minute);
        self.history.push((build, Some(minute)));
        self.rollout = Some(Rollout {
            build,
            start_minute: minute,
            minutes: minutes.max(1),
        });
        EventKind::Deploy { build, bad }
    }

    /// Moves the rolling update on by a minute: after k+1 of its minutes, that share of the
    /// live fleet runs the new build.
    pub fn advance_rollout(&mut self, minute: u32, fleet: &mut Fleet) {
        self.last_roll = None;
        if let Some(r) = self.rollout {
            let done = minute - r.start_minute + 1;
            fleet.roll_out(r.build, done, r.minutes);
            self.last_roll = Some((r.build, done, r.minutes));
            if done >= r.minutes {
                self.rollout = None;
            }
        }
    }

    /// This minute's step of the rolling update (made by [`Deploys::advance_rollout`] on
    /// one fleet) on another region's fleet.
    pub fn roll_out_fleet(&self, fleet: &mut Fleet) {
        if let Some((build, done, minutes)) = self.last_roll {
            fleet.roll_out(build, done, minutes);
        }
    }

    /// The build a rollback would return to: the one live before the current one.
    pub fn rollback_target(&self) -> Option<u32> {
        self.previous().map(|(build, _)| build)
    }

    fn previous(&self) -> Option<(u32, Option<u32>)> {
        let n = self.history.len();
        (n >= 2).then(|| self.history[n - 2])
    }

    /// Prepares the previous build on a new fleet beside each of `fleets` (every region's),
    /// ready at `ready_minute` (pressed again, the preparation starts over). One event for
    /// them all; `None` when there is no earlier build.
    pub fn start_rollback(
        &mut self,
        minute: u32,
        ready_minute: u32,
        fleets: &mut [&mut Fleet],
    ) -> Option<EventKind> {
        let target = self.rollback_target.or_else(|| self.previous())?;
        let restarted = self.rollback_ready_minute.is_some();
        let now_ms = secs(minute * 60);
        let ready_ms = secs(ready_minute * 60);
        let instances = fleets
            .iter_mut()
            .map(|fleet| fleet.prepare_rollback(target.0, now_ms, ready_ms, restarted))
            .sum();
        self.rollback_ready_minute = Some(ready_minute);
        self.rollback_target = Some(target);
        Some(EventKind::RollbackStarted {
            build: target.0,
            instances,
            ready_minute,
            restarted,
        })
    }

    /// Switches traffic to the rollback fleets, every region's at once; returns the events
    /// it makes.
    pub fn finish_rollback(&mut self, fleets: &mut [&mut Fleet]) -> Vec<EventKind> {
        let was_live = fleets.iter().any(|f| f.runs_live(|b| self.is_bad(b)));
        let old = fleets.iter_mut().map(|f| f.switch_to_rollback()).sum();
        let (build, since) = self
            .rollback_target
            .take()
            .unwrap_or((self.live_build, self.live_since_minute));
        // Everything deployed after the target is reverted.
        if let Some(at) = self.history.iter().position(|(b, _)| *b == build) {
            self.history.truncate(at + 1);
        }
        self.live_build = build;
        self.live_since_minute = since;
        self.rollout = None;
        self.rollback_ready_minute = None;
        let mut events = Vec::new();
        if old > 0 {
            events.push(EventKind::InstancesStopped {
                count: old,
                reason: FleetReason::Rollback,
            });
        }
        events.push(EventKind::RollbackFinished {
            build,
            bad_build_was_live: was_live,
        });
        events
    }
}
