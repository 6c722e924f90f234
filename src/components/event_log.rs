use leptos::prelude::*;

use crate::components::run::use_run;
use crate::event_text::{describe, event_time, EventFamily};
use crate::i18n::{t, tf, Msg};

/// The log shows at most this many events (the newest); the rest stay in the run.
pub const LOG_LIMIT: usize = 200;

/// One line of the log.
#[derive(Clone, Debug, PartialEq)]
struct LogLine {
    /// Index in the run's events: stable, so only new lines are rendered.
    index: usize,
    minute: u32,
    time: String,
    family: EventFamily,
    text: String,
}

/// Whether the log keeps `event` to itself until the exercise is over (the twist the seed
/// draws, which the debrief reveals).
fn hidden_while_playing(event: &oncall_sim::Event) -> bool {
    crate::region_text::hidden_while_playing(&event.kind)
}

/// The core's events, newest first, each in words with its simulated time.
#[component]
pub fn EventLog() -> impl IntoView {
    let run = use_run();
    let total = Memo::new(move |_| run.snapshot.with(|s| s.events));
    let finished = Memo::new(move |_| run.snapshot.with(|s| s.finished));
    let lines = Memo::new(move |_| {
        // A new run can have as many events as the old one.
        run.generation.track();
        let total = total.get();
        run.with(|c| {
            let sim = c.sim();
            let clock = |m: u32| sim.clock_at(m).to_string();
            let events = sim.events();
            let first = events.len().saturating_sub(LOG_LIMIT);
            let finished = finished.get();
            events[first..]
                .iter()
                .enumerate()
                .rev()
                .filter(|(_, e)| finished || !hidden_while_playing(e))
                .map(|(i, e)| {
                    let (family, text) = describe(e, &clock);
                    LogLine {
                        index: first + i,
                        minute: e.minute,
                        time: event_time(e),
                        family,
                        text,
                    }
                })
                .collect::<Vec<_>>()
        })
        .filter(|_| total > 0)
        .unwrap_or_default()
    });
    let truncated = move || {
        let total = total.get();
        (total > LOG_LIMIT).then(|| {
            tf(
                Msg::LogTruncated,
                &[
                    ("shown", &LOG_LIMIT.to_string()),
                    ("total", &total.to_string()),
                ],
            )
        })
    };
    // Lines are keyed by index, time and text: a new minute renders only the new lines.
    view! {
        <section class="panel log-panel" aria-labelledby="log-heading">
            <div class="panel-head">
                <h2 id="log-heading">{t(Msg::LogHeading)}</h2>
                <span class="muted small">{t(Msg::LogCaption)}</span>
            </div>
            <div class="log-scroll" tabindex="0" role="region" aria-labelledby="log-heading">
                <p class="muted" class:hidden=move || { total.get() > 0 }>
                    {t(Msg::LogEmpty)}
                </p>
                <ol class="event-log">
                    <For
                        each=move || lines.get()
                        key=|line| (line.index, line.time.clone(), line.text.clone())
                        children=move |line| {
                            view! {
                                <li
                                    class=format!("event {}", line.family.class())
                                    data-kind=line.family.class()
                                    data-minute=line.minute
                                >
                                    <time>{line.time}</time>
                                    " "
                                    <span class="kind">{line.family.label()}</span>
                                    " "
                                    <span class="text">{line.text}</span>
                                </li>
                            }
                        }
                    />
                </ol>
                <p class="muted small">{truncated}</p>
            </div>
        </section>
    }
}
