use leptos::prelude::*;
use oncall_sim::budget::BudgetAccounting;

use crate::components::icons::{Icon, IconView};
use crate::components::run::{use_run, RunHandle, UndoKind};
use crate::format::{format_value, Format, Value};
use crate::i18n::{plural, t, tf, Msg};
use crate::metrics::{Level, Limits, METRICS};
use crate::speed::SPEEDS;

/// The minutes simulated: while a link replays in request mode, those replayed so far (the
/// snapshot still shows the run as it was before the replay). The first build's replays
/// publish as they go.
fn shown_minutes(run: RunHandle) -> u32 {
    if let Some(minutes) = run.replayed.get() {
        return minutes;
    }
    run.snapshot.with(|s| s.minutes)
}

/// The budget left at the strip's minute, as the strip and the debrief write it.
pub fn budget_text(s: &crate::console::Snapshot) -> String {
    format_value(
        Format::Percent { decimals: 1 },
        Value::Number(s.budget_left),
    )
}

/// The button that stops a long replay, in the build whose links replay for long.
fn stop_replay() -> impl IntoView {
    crate::components::extended::stop_replay()
}

/// Play/pause, step, speed and reset.
#[component]
pub fn TimeControls() -> impl IntoView {
    let run = use_run();
    let blocked = move || run.snapshot.with(|s| s.finished || s.replay_left > 0);
    let playing = run.playing;
    let options = SPEEDS
        .iter()
        .enumerate()
        .map(|(i, speed)| {
            view! {
                <option value=i.to_string() selected=move || run.speed.get() == i>
                    {tf(Msg::SpeedOption, &[("value", &speed.to_string())])}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="time-controls" role="group" aria-label=t(Msg::TimeHeading)>
            <button
                type="button"
                class="primary"
                data-time="play"
                aria-keyshortcuts="Space"
                disabled=blocked
                on:click=move |_| run.toggle_play()
            >
                {move || {
                    if playing.get() {
                        view! { <IconView icon=Icon::Pause /> }
                    } else {
                        view! { <IconView icon=Icon::Play /> }
                    }
                }}
                <span>{move || t(if playing.get() { Msg::Pause } else { Msg::Play })}</span>
            </button>
            <button
                type="button"
                data-time="step"
                title=t(Msg::StepHint)
                aria-keyshortcuts="ArrowRight S"
                disabled=blocked
                on:click=move |_| run.step()
            >
                <IconView icon=Icon::Step />
                <span>{t(Msg::Step)}</span>
            </button>
            <label class="speed">
                <span>{t(Msg::SpeedLabel)}</span>
                <select
                    data-time="speed"
                    aria-keyshortcuts="+ -"
                    prop:value=move || run.speed.get().to_string()
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            run.set_speed(i);
                        }
                    }
                >
                    {options}
                </select>
            </label>
            <button
                type="button"
                data-time="reset"
                title=t(Msg::ResetHint)
                aria-keyshortcuts="R"
                on:click=move |_| run.reset()
            >
                <IconView icon=Icon::Reset />
                <span>{t(Msg::Reset)}</span>
            </button>
            <label class="pause-on-page">
                <input
                    type="checkbox"
                    data-time="pause-on-page"
                    prop:checked=move || run.pause_on_page.get()
                    on:change=move |ev| run.pause_on_page.set(event_target_checked(&ev))
                />
                <span>{t(Msg::PauseOnPage)}</span>
            </label>
        </div>
    }
}

/// What an on-call engineer reads at a glance: time, the page, the budget and how fast it
/// burns; with the time controls beside it.
#[component]
pub fn StatusStrip() -> impl IntoView {
    let run = use_run();
    let limits = Memo::new(move |_| {
        run.generation.track();
        run.with(|c| Limits::of(c.sim().params()))
            .unwrap_or_default()
    });
    view! {
        <section class="status-strip" aria-label=t(Msg::StatusHeading)>
            <div class="status-inner">
                <dl class="status-facts">
                    {clock_fact(run)}
                    {minute_fact(run)}
                    {page_fact(run)}
                    {budget_fact(run, limits)}
                    {burn_fact(run, limits)}
                </dl>
                <TimeControls />
            </div>
            {exercise_progress(run)}
            <div class="status-hint-row">
                {status_hint(run)}
                {stop_replay()}
            </div>
            <UndoOffer />
        </section>
    }
}

/// The time of day of the next minute.
fn clock_fact(run: RunHandle) -> impl IntoView {
    view! {
        <div class="fact clock">
            <dt>{t(Msg::ClockLabel)}</dt>
            <dd data-field="clock">{move || run.snapshot.with(|s| s.next_clock.clone())}</dd>
        </div>
    }
}

/// The minutes simulated.
fn minute_fact(run: RunHandle) -> impl IntoView {
    view! {
        <div class="fact minute">
            <dt>{t(Msg::MinuteLabel)}</dt>
            <dd data-field="minute">{move || shown_minutes(run).to_string()}</dd>
        </div>
    }
}

/// Whether the page is firing.
fn page_fact(run: RunHandle) -> impl IntoView {
    let paging = Memo::new(move |_| run.snapshot.with(|s| s.record.paging));
    view! {
        <div class="fact page" data-level=move || if paging.get() { "critical" } else { "normal" }>
            <dt>{t(Msg::PageLabel)}</dt>
            <dd data-field="paging" aria-live="polite">
                <span class="dot" aria-hidden="true"></span>
                {move || t(if paging.get() { Msg::PageFiring } else { Msg::PageQuiet })}
            </dd>
            // While the page fires, the actions are one tap (or A) away: beside the page's
            // state, and on a phone in its place (the state stays for screen readers).
            <dd class="respond-slot" hidden=move || !paging.get()>
                <button
                    type="button"
                    class="respond"
                    id="respond-button"
                    data-action="respond"
                    aria-keyshortcuts="A"
                    on:click=move |_| run.respond()
                >
                    {t(Msg::Respond)}
                </button>
            </dd>
        </div>
    }
}

/// The budget left at the strip's minute, how it is counted, and its meter.
fn budget_fact(run: RunHandle, limits: Memo<Limits>) -> impl IntoView {
    // The budget at the strip's minute: the balance now, not at the last record's start.
    let level = Memo::new(move |_| {
        let limits = limits.get();
        run.snapshot.with(|s| {
            let now = oncall_sim::MinuteRecord {
                budget_left: s.budget_left,
                ..s.record.clone()
            };
            METRICS
                .iter()
                .find(|m| m.field == "budget_left")
                .map_or(Level::Normal, |m| m.level(&now, &limits))
        })
    });
    let accounting = Memo::new(move |_| {
        run.generation.track();
        run.with(|c| c.sim().params().budget_accounting)
            .unwrap_or_default()
    });
    let fill = move || {
        run.snapshot
            .with(|s| ("--fill", format!("{:.4}", s.budget_left.clamp(0.0, 1.0))))
    };
    view! {
        <div class="fact budget" data-level=move || level.get().class()>
            <dt>
                {t(Msg::BudgetLabel)} " "
                <span
                    class="accounting"
                    data-field="budget_accounting"
                    data-accounting=move || accounting.get().as_str()
                >
                    {move || {
                        t(match accounting.get() {
                            BudgetAccounting::Time => Msg::BudgetByTime,
                            BudgetAccounting::Requests => Msg::BudgetByRequests,
                        })
                    }}
                </span>
            </dt>
            <dd data-field="budget_left">
                {move || run.snapshot.with(budget_text)}
                <span class="meter" aria-hidden="true">
                    <span style=fill></span>
                </span>
            </dd>
        </div>
    }
}

/// How fast the budget burns over the last hour.
fn burn_fact(run: RunHandle, limits: Memo<Limits>) -> impl IntoView {
    let level = Memo::new(move |_| {
        let limits = limits.get();
        METRICS
            .iter()
            .find(|m| m.field == "burn_rate_1h")
            .map_or(Level::Normal, |m| {
                run.snapshot.with(|s| m.level(&s.record, &limits))
            })
    });
    let burn = move || {
        run.snapshot.with(|s| {
            format_value(
                Format::Burn { decimals: 1 },
                Value::Number(s.record.burn_rate_1h),
            )
        })
    };
    view! {
        <div class="fact burn" data-level=move || level.get().class()>
            <dt>{t(Msg::BurnLabel)}</dt>
            <dd data-field="burn_rate_1h">{burn}</dd>
        </div>
    }
}

/// How far the exercise is, when it has a length.
fn exercise_progress(run: RunHandle) -> impl IntoView {
    let progress = move || {
        let minutes = shown_minutes(run);
        run.snapshot.with(|s| {
            s.length.map(|len| {
                let done = f64::from(minutes) / f64::from(len.max(1));
                (
                    ("--fill", format!("{:.4}", done.clamp(0.0, 1.0))),
                    format!("{minutes} / {len}"),
                )
            })
        })
    };
    move || {
        progress().map(|(fill, label)| {
            view! {
                <div class="exercise-progress" title=label.clone() aria-hidden="true">
                    <span style=fill></span>
                </div>
            }
        })
    }
}

/// A line under the strip: the replay's progress, the exercise over, the clock stopped by the
/// page, or how to start.
fn status_hint(run: RunHandle) -> impl IntoView {
    let hint = move || {
        let minutes = shown_minutes(run);
        run.snapshot.with(|s| {
            if s.replay_left > 0 {
                Some(tf(
                    Msg::Replaying,
                    &[
                        ("minute", &minutes.to_string()),
                        ("total", &(s.minutes + s.replay_left).to_string()),
                    ],
                ))
            } else if s.finished {
                Some(t(Msg::ExerciseOver).to_owned())
            } else if run.paused_by_page.get() && !run.playing.get() {
                Some(tf(
                    Msg::PausedByPage,
                    &[("clock", &s.record.clock.to_string())],
                ))
            } else if s.minutes <= 1 && !run.playing.get() {
                Some(t(Msg::StartHint).to_owned())
            } else {
                None
            }
        })
    };
    view! {
        <p class="status-hint" role="status" class:hidden=move || hint().is_none()>
            {hint}
        </p>
    }
}

/// The run a reset or a new scenario or seed replaced, offered back until it is dismissed or
/// another run replaces this one.
#[component]
fn UndoOffer() -> impl IntoView {
    let run = use_run();
    let offer = move || {
        run.undo.with(|offer| {
            offer.as_ref().map(|o| {
                let (note, button) = match o.kind {
                    UndoKind::Reset => (Msg::UndoResetNote, Msg::UndoReset),
                    UndoKind::Restart => (Msg::UndoRestartNote, Msg::UndoRestart),
                };
                let actions = plural(
                    o.run.actions.len() as u64,
                    Msg::ActionsOne,
                    Msg::ActionsOther,
                );
                // The link's `t` counts the minutes played, as the status strip shows them.
                let minute = o.run.minute.unwrap_or(0).to_string();
                let note = tf(note, &[("minute", &minute), ("actions", &actions)]);
                view! {
                    <div class="undo-offer notice" role="status">
                        <p>{note}</p>
                        <button type="button" data-action="undo" on:click=move |_| run.undo()>
                            {t(button)}
                        </button>
                        <button
                            type="button"
                            class="dismiss"
                            aria-label=t(Msg::NoticeDismiss)
                            title=t(Msg::NoticeDismiss)
                            on:click=move |_| run.undo.set(None)
                        >
                            "×"
                        </button>
                    </div>
                }
            })
        })
    };
    view! { {offer} }
}
