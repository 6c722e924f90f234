//! The first build's stand-ins for the extended build's panels and hooks
//! (`components/extended/`): the same names, doing nothing. Its runs have neither regions nor
//! requests, and its links (the formulas, tens of microseconds a minute) replay within a frame
//! or two, publishing as they go.

use leptos::prelude::*;

use crate::components::outcome_table::Outcome;
use crate::components::run::RunHandle;

/// No regions, no requests: nothing to show.
#[component]
pub fn ExtendedPanels() -> impl IntoView {}

/// One region: nothing to compare.
pub fn regional(_played: Outcome) {}

/// No long replay to stop.
pub fn stop_replay() {}

/// The first build's replays publish as they go: no progress of their own to show.
#[derive(Clone, Copy)]
pub struct ReplayProgress;

impl ReplayProgress {
    pub fn new() -> Self {
        ReplayProgress
    }

    pub fn get(self) -> Option<u32> {
        None
    }

    pub fn clear(self) {}
}

/// Every simulated slice is published at once.
pub fn publish_frame(run: RunHandle, simulated: bool, _replaying: bool) {
    if simulated {
        run.publish();
    }
}

/// Minutes are not timed in the first build.
pub struct MinuteTimer;

impl MinuteTimer {
    pub fn new(_limit: u32) -> Self {
        MinuteTimer
    }

    pub fn start(&mut self, _performance: &Option<web_sys::Performance>) {}

    pub fn end(&mut self, _performance: &Option<web_sys::Performance>) {}
}
