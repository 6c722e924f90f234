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

/// The first build plays no author's exercise: its links have no fragment to keep.
pub fn sync_fragment(_run: RunHandle) {}

/// The first build has no course and opens no exercise file (a link with either goes to the
/// extended build).
pub fn setup_extras(_run: RunHandle, _locked: bool) {}

/// The first build plays no author's exercise.
pub fn plays_exercise(_run: RunHandle) -> bool {
    false
}

/// No author's exercise: no author's words.
pub fn exercise_text(
    _run: RunHandle,
    _words: impl Fn(&oncall_sim::exercise::Exercise) -> String,
) -> Option<String> {
    None
}

/// Without author's exercises, two links play the same one.
pub fn same_exercise(_run: RunHandle, _state: &oncall_sim::share::ShareState) -> bool {
    true
}

/// No custom exercise to list.
pub fn custom_option(_run: RunHandle) {}

/// No custom exercise to name.
pub fn custom_heading(_run: RunHandle) {}

/// The grade and the postmortem draft are the extended build's.
pub fn debrief_extras(_run: RunHandle, _par: RwSignal<crate::components::debrief::Par>) {}

/// The first build does not grade: the debrief message goes when the run ends.
pub const GRADES: bool = false;

/// No course, no progress: nothing to read (the first page hands a lesson page's course
/// links to the extended build).
pub fn provide_trainer(_run: RunHandle, _notices: &mut Vec<String>) {}

/// The facilitator's console is the extended build's (the first page hands its links over).
pub fn facilitator_view(_run: RunHandle) -> Option<leptos::prelude::AnyView> {
    None
}

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
