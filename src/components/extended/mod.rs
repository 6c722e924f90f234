//! The extended build's part of the console: the regions' panel, the request engine's panel,
//! the regional debrief and the long replay's stop button, and the few hooks the shared
//! components call for them. The first build compiles `first_build.rs` in this module's place:
//! the same names, doing nothing (its runs have neither regions nor requests, and its links
//! replay within a frame or two), so the shared components call them without a gate.

mod editor;
mod exercise;
mod facilitator;
mod hints;
mod postmortem;
mod regional_debrief;
mod regions_panel;
mod requests_panel;
mod stop_replay;
mod trainer;

use leptos::prelude::*;

use crate::components::outcome_table::Outcome;
use crate::components::run::RunHandle;
use crate::console::Console;

pub use exercise::{custom_heading, custom_option};
pub use trainer::provide_trainer;

/// The debrief message waits for the grade (the trainer's part tells it).
pub const GRADES: bool = true;
pub use regions_panel::RegionsPanel;
pub use requests_panel::RequestsPanel;

/// The regions panel and the request-level panel (each shows itself only when its run has
/// regions or requests).
#[component]
pub fn ExtendedPanels() -> impl IntoView {
    let run = crate::components::run::use_run();
    view! {
        <hints::Hints run=run />
        <RegionsPanel />
        <RequestsPanel />
    }
}

/// The regional comparison of the debrief, for the run as played.
pub fn regional(played: Outcome) -> impl IntoView {
    regional_debrief::regional_comparison(played)
}

/// The set-up's trainer parts: the course's exercises (placed first by the stylesheet) and,
/// unless the scenario is locked, the exercise files.
pub fn setup_extras(run: RunHandle, locked: bool) -> impl IntoView {
    view! {
        {trainer::course_panel(run)}
        {exercise::exercise_files(locked)}
    }
}

/// The debrief's trainer parts: the grade (placed under the verdict by the stylesheet) and
/// the postmortem draft.
pub fn debrief_extras(
    run: RunHandle,
    par: RwSignal<crate::components::debrief::Par>,
) -> impl IntoView {
    view! {
        {trainer::grade_view(run, par)}
        {postmortem::postmortem(run, par)}
    }
}

/// The facilitator's view, when the link asks for it (`facilitate=1`; a session code is
/// made up when the link has none).
pub fn facilitator_view(run: RunHandle) -> Option<AnyView> {
    let (facilitating, code) = run.rest.with_value(|rest| {
        (
            facilitator::facilitating(rest),
            facilitator::session_code(rest),
        )
    });
    if !facilitating {
        return None;
    }
    let code = code.unwrap_or_else(|| {
        let code = format!("{:06x}", crate::seed::random_seed() & 0xff_ffff);
        run.rest
            .update_value(|rest| rest.push(("session".to_string(), code.clone())));
        run.write_link();
        code
    });
    Some(view! { <facilitator::FacilitatorView run=run code=code /> }.into_any())
}

/// What the facilitator said to the trainee's window (hints, the end), shown with the
/// exercise's hints.
#[derive(Clone, Copy)]
pub struct SessionSaid(pub RwSignal<Vec<String>>);

/// Gives the page's address the fragment of the author's exercise the run plays (none for a
/// built-in one), so that the address and a shared link open the same exercise. An
/// exercise too large for a link gets none: opening it said so, and the file is the way
/// to share it.
pub fn sync_fragment(run: RunHandle) {
    let fragment = run
        .with(|c| {
            c.exercise()
                .and_then(|e| oncall_sim::exercise::link::fragment(e).ok())
        })
        .flatten()
        .unwrap_or_default();
    let _ = crate::url_state::replace_fragment(&fragment);
}

/// Whether the run plays an author's exercise.
pub fn plays_exercise(run: RunHandle) -> bool {
    run.with(|c| c.exercise().is_some()) == Some(true)
}

/// The author's `words` (title, briefing, lesson) of the exercise the run plays, if any.
pub fn exercise_text(
    run: RunHandle,
    words: impl Fn(&oncall_sim::exercise::Exercise) -> String,
) -> Option<String> {
    run.with(|c| c.exercise().map(words)).flatten()
}

/// Whether `state` plays the same author's exercise as the run (or neither plays one).
pub fn same_exercise(run: RunHandle, state: &oncall_sim::share::ShareState) -> bool {
    run.with(|c| c.base().same_exercise(state)) == Some(true)
}

/// The button that stops a long replay.
pub fn stop_replay() -> impl IntoView {
    view! { <stop_replay::StopReplay /> }
}

/// The minutes a long replay has simulated so far (the snapshot still shows the run as it
/// was before the replay); `None` when no replay is under way.
#[derive(Clone, Copy)]
pub struct ReplayProgress(RwSignal<Option<u32>>);

impl ReplayProgress {
    pub fn new() -> Self {
        ReplayProgress(RwSignal::new(None))
    }

    pub fn get(self) -> Option<u32> {
        self.0.get()
    }

    pub fn clear(self) {
        self.0.set(None);
    }
}

/// What a frame shows of the minutes it simulated: while a link replays (request mode takes
/// seconds), only the replay's progress until its end; otherwise the whole run.
pub fn publish_frame(run: RunHandle, simulated: bool, replaying: bool) {
    if simulated && replaying {
        if let Some(minutes) = run.with(Console::minutes) {
            run.replayed.0.set(Some(minutes));
        }
    } else if simulated {
        run.publish();
    }
}

/// Times each simulated minute as "minute" in the page's performance timeline (request
/// mode's cost per minute is measured there), keeping at most `limit` measures.
pub struct MinuteTimer {
    measures: u32,
    limit: u32,
}

impl MinuteTimer {
    pub fn new(limit: u32) -> Self {
        MinuteTimer { measures: 0, limit }
    }

    /// A minute starts.
    pub fn start(&mut self, performance: &Option<web_sys::Performance>) {
        if let Some(p) = performance {
            p.clear_marks_with_mark_name("minute-start");
            let _ = p.mark("minute-start");
        }
    }

    /// The minute is simulated.
    pub fn end(&mut self, performance: &Option<web_sys::Performance>) {
        if let Some(p) = performance {
            self.measures += 1;
            if self.measures > self.limit {
                p.clear_measures_with_measure_name("minute");
                self.measures = 1;
            }
            let _ = p.measure_with_start_mark("minute", "minute-start");
        }
    }
}
