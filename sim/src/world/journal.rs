//! What happened: the records, the events and the actions, in order.

use crate::action::Action;
use crate::event::{Event, EventKind};
use crate::record::MinuteRecord;
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

    /// Time of day of minute `m`, "HH:MM".
    pub fn clock_at(&self, minute: u32) -> String {
        let t = (self.clock_min + minute) % 1440;
        format!("{:02}:{:02}", t / 60, t % 60)
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
