//! An author's exercise in the page: opening its file (the picker, or a file dropped anywhere
//! on the page), what the page says it opened or why not, the exercise marked as custom with
//! its author's title and briefing, and its file to download. The file is read by the core's
//! one reader (`oncall_sim::exercise::file`), the same as `oncall-sim scenario check`.

use std::sync::Arc;

use leptos::prelude::*;
use oncall_sim::exercise::{file, link};
use oncall_sim::message::{Message, MessageId};
use oncall_sim::share::ShareState;

use crate::components::run::{use_run, RunHandle};
use crate::files::{json_data_url, read_text};
use crate::i18n::{core_text, t, tf, Msg};
use crate::link::exercise_error_text;

/// What the last file gave: opened (with a note when it cannot travel in a link) or refused.
#[derive(Clone, Debug, PartialEq)]
struct Status {
    ok: bool,
    text: String,
}

/// The exercise files' part of the set-up, unless the page's scenario is locked.
pub fn exercise_files(locked: bool) -> impl IntoView {
    (!locked).then(|| view! { <ExerciseFiles /> })
}

/// The exercise files' part of the set-up: open a file, download the custom exercise's file.
#[component]
fn ExerciseFiles() -> impl IntoView {
    let run = use_run();
    let status = RwSignal::new(None::<Status>);
    let dragging = RwSignal::new(false);
    let editing = RwSignal::new(false);
    use_dropped_files(run, status, dragging);
    let download = move || {
        // Which exercise plays changes only with the run (not with each minute).
        run.generation.track();
        run.with(|c| {
            c.exercise()
                .map(|e| (format!("{}.json", e.id), file::write(e)))
        })
        .flatten()
    };
    view! {
        <div class="exercise-files" data-panel="exercise-files">
            <h3>{t(Msg::ExerciseToolsHeading)}</h3>
            <div class="exercise-actions">
                <label class="file-button">
                    {t(Msg::ExerciseOpenFile)}
                    <input
                        type="file"
                        data-field="exercise-file"
                        accept=".json,application/json"
                        on:change=move |ev| chosen(run, &ev, status)
                    />
                </label>
                {move || {
                    download()
                        .map(|(name, text)| {
                            view! {
                                <a
                                    class="button"
                                    data-action="exercise-download"
                                    download=name
                                    href=json_data_url(&text)
                                >
                                    {t(Msg::ExerciseDownload)}
                                </a>
                            }
                        })
                }}
            </div>
            <p class="muted">{t(Msg::ExerciseDropHint)}</p>
            <button
                type="button"
                data-action="open-editor"
                aria-expanded=move || editing.get().to_string()
                on:click=move |_| editing.update(|e| *e = !*e)
            >
                {t(Msg::EditorOpen)}
            </button>
            {move || {
                editing.get().then(|| view! { <super::editor::ExerciseEditor run=run /> })
            }}
            {move || {
                status
                    .get()
                    .map(|s| {
                        view! {
                            <p
                                class=if s.ok { "exercise-status ok" } else { "exercise-status error" }
                                role="status"
                                data-status=if s.ok { "ok" } else { "error" }
                            >
                                {s.text}
                            </p>
                        }
                    })
            }}
            <div class="drop-overlay" hidden=move || !dragging.get() aria-hidden="true">
                <p>{t(Msg::ExerciseDropHere)}</p>
            </div>
        </div>
    }
}

/// The scenario picker's entry for the custom exercise the run plays, selected (none for a
/// built-in one).
pub fn custom_option(run: RunHandle) -> impl IntoView {
    move || {
        // Which exercise plays changes only with the run (not with each minute).
        run.generation.track();
        run.with(|c| {
            c.exercise().map(|e| {
                view! {
                    <option value="" selected=true data-custom="true">
                        {tf(Msg::ExerciseCustomOption, &[("title", &e.title)])}
                    </option>
                }
            })
        })
        .flatten()
    }
}

/// "Custom exercise" and the author's title above the briefing, when the run plays one.
pub fn custom_heading(run: RunHandle) -> impl IntoView {
    move || {
        // Which exercise plays changes only with the run (not with each minute).
        run.generation.track();
        run.with(|c| {
            c.exercise().map(|e| {
                view! {
                    <p class="custom-exercise" data-field="custom-exercise">
                        <span class="badge">{t(Msg::ExerciseCustom)}</span>
                        " "
                        <b data-field="custom-title">{e.title.clone()}</b>
                    </p>
                }
            })
        })
        .flatten()
    }
}

/// The file chosen in the picker.
fn chosen(run: RunHandle, ev: &leptos::ev::Event, status: RwSignal<Option<Status>>) {
    if let Some(picked) = crate::files::take_chosen(ev) {
        open_file(run, &picked, status);
    }
}

/// A file dropped anywhere on the page opens as an exercise; while one is dragged over the
/// page, the page says where it will go.
fn use_dropped_files(run: RunHandle, status: RwSignal<Option<Status>>, dragging: RwSignal<bool>) {
    let carries_files = |ev: &web_sys::DragEvent| {
        ev.data_transfer()
            .is_some_and(|d| d.types().includes(&"Files".into(), 0))
    };
    let over = window_event_listener(leptos::ev::dragover, move |ev| {
        if carries_files(&ev) {
            // Without this the browser would open the file in place of the page.
            ev.prevent_default();
            dragging.set(true);
        }
    });
    let left = window_event_listener(leptos::ev::dragleave, move |ev| {
        // Leaving the window: no related target.
        if ev.related_target().is_none() {
            dragging.set(false);
        }
    });
    let dropped = window_event_listener(leptos::ev::drop, move |ev| {
        dragging.set(false);
        let Some(picked) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        else {
            return;
        };
        ev.prevent_default();
        open_file(run, &picked, status);
    });
    on_cleanup(move || {
        over.remove();
        left.remove();
        dropped.remove();
    });
}

/// Reads `picked` and opens the exercise it holds, or says why not.
fn open_file(run: RunHandle, picked: &web_sys::File, status: RwSignal<Option<Status>>) {
    let name = picked.name();
    if picked.size() > file::MAX_BYTES as f64 {
        let why = Message::new(MessageId::ExerciseTooLarge)
            .int("size", picked.size() as i64)
            .int("max", file::MAX_BYTES as i64);
        status.set(Some(refused(&name, &core_text(&why))));
        return;
    }
    read_text(picked, move |text| {
        let next = match text {
            Some(text) => open_text(run, &name, &text),
            None => Status {
                ok: false,
                text: tf(Msg::ExerciseFileUnreadable, &[("file", &name)]),
            },
        };
        status.try_set(Some(next));
    });
}

/// Opens the exercise in `text` (from the file called `name`) as a new run with the same
/// seed, or says why not.
fn open_text(run: RunHandle, name: &str, text: &str) -> Status {
    let exercise = match file::read(text) {
        Ok(exercise) => Arc::new(exercise),
        Err(e) => return refused(name, &exercise_error_text(&e)),
    };
    let state = match ShareState::of_exercise(exercise.clone()) {
        Ok(state) => state,
        Err((field, _)) => {
            return refused(name, &tf(Msg::ExerciseParamRefused, &[("field", &field)]));
        }
    };
    run.open_exercise(state);
    let mut said = tf(
        Msg::ExerciseOpened,
        &[("title", &exercise.title), ("file", name)],
    );
    if let Err(why) = link::encode(&exercise) {
        said.push(' ');
        said.push_str(&tf(Msg::ExerciseNoLink, &[("reason", &core_text(&why))]));
    }
    Status {
        ok: true,
        text: said,
    }
}

fn refused(name: &str, reason: &str) -> Status {
    Status {
        ok: false,
        text: tf(
            Msg::ExerciseFileRefused,
            &[("file", name), ("reason", reason)],
        ),
    }
}
