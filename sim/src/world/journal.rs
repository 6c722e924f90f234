//! What happened: the records, the events and the actions, in order.

use crate::action::Action;
use crate::event::{Event, EventKind};
use crate::record::MinuteRecord;
use crate::time::Clock;
use std::collections::VecDeque;

/// The run's history and the actions waiting for their minute.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    /// Time of day at minute 0, in minutes after midnight.
    pub clock_min: u32,
    /// Actions not yet applied, in time order (stable within a minute); taken from the
    /// front, so that a long action log is applied in linear time.
    pub pending: VecDeque<Action>,
    pub applied: Vec<Action>,
    pub history: Vec<MinuteRecord>,
    pub events: Vec<Event>,
    /// The region events are about, when the run has several.
    pub region: Option<&'static str>,
}

impl Journal {
    pub fn new(clock_min: u32) -> Self {
        Self {
            clock_min,
            ..Self::default()
        }
    }

    /// Time of day of minute `minute`, "HH:MM": the one clock every surface reads.
    ///
    /// Minute M is the minute that starts M minutes after the exercise did, at
    /// `clock_at(M)`; a number M always goes with this time, whoever shows it.
    /// - The status strip's *Minute* and a link's `t` count the minutes played: at M the
    ///   strip reads the start of minute M, the one to be played next, and shows the
    ///   page and burn rates as the minute before left them.
    /// - The record with `minute == M` describes minute M, from `clock_at(M)` to
    ///   `clock_at(M + 1)`; its balances (`budget_left`, `cost_so_far`) are those at its start.
    /// - An action stamped M (`M:rollback` in a link, the CLI's `--action`) takes effect at
    ///   the start of minute M, before it is played.
    /// - An event stamped M happened within minute M: at its `second` when it has one, else
    ///   at its start (actions, the script) or at its end (what the minute's measurements
    ///   decide: the page, the autoscaler).
    /// - The budget at minute M is the balance at its start
    ///   ([`crate::Simulation::budget_left_at`]): what the strip shows at M, and at the end
    ///   of a run what the debrief shows as left.
    pub fn clock_at(&self, minute: u32) -> Clock {
        Clock::of_minutes(self.clock_min + minute)
    }

    /// Records `kind` at `minute` (and `second` into it, for events inside the minute).
    pub fn emit(&mut self, minute: u32, second: Option<u32>, kind: EventKind) {
        let clock = self.clock_at(minute);
        self.events.push(Event {
            minute,
            clock,
            second,
            region: self.region,
            kind,
        });
    }

    /// Queues actions stamped with their minutes.
    pub fn schedule(&mut self, actions: impl IntoIterator<Item = Action>) {
        self.pending.extend(actions);
        // Actions of the same minute keep their order.
        let pending: Vec<Action> = self.pending.drain(..).collect();
        self.pending = crate::action::sort_by_minute(pending).into();
    }

    /// The next action due at or before `minute`, if any.
    pub fn next_due(&mut self, minute: u32) -> Option<Action> {
        if self.pending.front().is_some_and(|a| a.minute <= minute) {
            self.pending.pop_front()
        } else {
            None
        }
    }
}
