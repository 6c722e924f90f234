//! The button that stops a link's replay where it got to, in the build with the extended
//! models: its request-mode links can take minutes to replay, while the first build's (the
//! formulas, tens of microseconds a minute) replay within a second or two even for a month.

use leptos::prelude::*;

use crate::components::run::use_run;
use crate::console::Console;
use crate::i18n::{t, Msg};

/// Shown while a link replays: stops the replay at the minute reached, paused (see
/// [`Console::stop_replay`]).
#[component]
pub fn StopReplay() -> impl IntoView {
    let run = use_run();
    let stop = move |_| {
        if run.update(Console::stop_replay).unwrap_or(false) {
            run.publish();
            run.charts_changed();
        }
    };
    view! {
        <button
            type="button"
            class="stop-replay"
            data-action="stop-replay"
            title=t(Msg::StopReplayHint)
            hidden=move || run.snapshot.with(|s| s.replay_left == 0)
            on:click=stop
        >
            {t(Msg::StopReplay)}
        </button>
    }
}
