//! The exercise editor: a form over an exercise file ([`crate::exercise_draft`]) for its
//! words, clock, run parameters, timeline of injects (added, moved, removed), expected
//! response, objectives and hints, checked as it is typed by the core's reader; a preview
//! that runs it left alone and with the expected response and draws both budgets; and the
//! ways to share it (play it here, its link, its file).

use std::sync::Arc;

use leptos::prelude::*;
use oncall_sim::exercise::{faults, link, Exercise};
use oncall_sim::par;
use oncall_sim::setup::RunSetup;
use oncall_sim::share::ShareState;

use crate::components::run::RunHandle;
use crate::exercise_draft::{Draft, HintDraft, InjectDraft, StepDraft, OBJECTIVES};
use crate::files::json_data_url;
use crate::i18n::{core_text, t, tf, Msg};
use crate::link::exercise_error_text;

/// What the preview found: each run's budget left minute by minute, and their spend.
#[derive(Clone, Debug, PartialEq)]
struct Previewed {
    nothing: Vec<f64>,
    textbook: Option<Vec<f64>>,
    nothing_spent: f64,
    textbook_spent: Option<f64>,
}

/// The editor, opened from the exercise files; it starts from the exercise on screen (an
/// author's, or the built-in one's file).
#[component]
pub fn ExerciseEditor(run: RunHandle) -> impl IntoView {
    let start = run
        .with(|c| {
            c.exercise().cloned().unwrap_or_else(|| {
                let mut e = oncall_sim::exercise::builtin(c.base().scenario);
                e.id = format!("my-{}", c.base().scenario);
                e
            })
        })
        .unwrap_or_else(|| oncall_sim::exercise::builtin(oncall_sim::ids::ScenarioId::FreePlay));
    let draft = RwSignal::new(Draft::of(&start));
    // Changes when an item is added, moved or removed (the lists re-render; typing does not).
    let shape = RwSignal::new(0u32);
    let checked = Memo::new(move |_| draft.with(Draft::check));
    let previewed = RwSignal::new(None::<Result<Previewed, String>>);
    let shared = RwSignal::new(None::<String>);
    let edit = move |f: Box<dyn FnOnce(&mut Draft)>| {
        draft.update(|d| f(d));
        shared.set(None);
    };
    let reshape = move |f: Box<dyn FnOnce(&mut Draft)>| {
        edit(f);
        shape.update(|n| *n += 1);
        previewed.set(None);
    };
    let text = move |field: &'static str,
                     read: fn(&Draft) -> String,
                     write: fn(&mut Draft, String),
                     long: bool| {
        let value = draft.with_untracked(read);
        let on_input = move |ev| {
            let v = event_target_value(&ev);
            edit(Box::new(move |d| write(d, v)));
        };
        let label = t(field_label(field));
        if long {
            view! {
                <label class="editor-field">
                    {label}
                    <textarea rows="3" data-field=format!("editor-{field}") prop:value=value on:input=on_input></textarea>
                </label>
            }
            .into_any()
        } else {
            view! {
                <label class="editor-field">
                    {label}
                    <input type="text" data-field=format!("editor-{field}") prop:value=value on:input=on_input />
                </label>
            }
            .into_any()
        }
    };
    let objectives = OBJECTIVES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let value = draft.with_untracked(|d| d.objectives[i].clone());
            view! {
                <label class="editor-field">
                    <code>{*name}</code>
                    <input
                        type="text"
                        data-field=format!("editor-{name}")
                        prop:value=value
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            edit(Box::new(move |d| d.objectives[i] = v));
                        }
                    />
                </label>
            }
        })
        .collect_view();
    view! {
        <section class="editor" data-panel="editor" aria-labelledby="editor-heading">
            <h3 id="editor-heading">{t(Msg::EditorHeading)}</h3>
            <p class="muted">{t(Msg::EditorIntro)}</p>
            {text("title", |d| d.title.clone(), |d, v| d.title = v, false)}
            {text("briefing", |d| d.briefing.clone(), |d, v| d.briefing = v, true)}
            {text("lesson", |d| d.lesson.clone(), |d, v| d.lesson = v, true)}
            <div class="editor-row">
                {text("start", |d| d.start.clone(), |d, v| d.start = v, false)}
                {text("minutes", |d| d.minutes.clone(), |d, v| d.minutes = v, false)}
            </div>
            {text("params", |d| d.params.clone(), |d, v| d.params = v, true)}
            <h4>{t(Msg::EditorTimeline)}</h4>
            {move || {
                shape.track();
                timeline_view(draft, edit, reshape)
            }}
            <button
                type="button"
                data-action="add-inject"
                on:click=move |_| reshape(Box::new(|d| d.timeline.push(InjectDraft::new("traffic_surge"))))
            >
                {t(Msg::EditorAddInject)}
            </button>
            <h4>{t(Msg::EditorExpected)}</h4>
            {move || {
                shape.track();
                expected_view(draft, edit, reshape)
            }}
            <button
                type="button"
                data-action="add-step"
                on:click=move |_| {
                    reshape(
                        Box::new(|d| {
                            d.expected
                                .push(StepDraft {
                                    when: "page".into(),
                                    action: "rollback".into(),
                                })
                        }),
                    )
                }
            >
                {t(Msg::EditorAddStep)}
            </button>
            <h4>{t(Msg::EditorObjectives)}</h4>
            <p class="muted">{t(Msg::EditorObjectivesNote)}</p>
            <div class="editor-row">{objectives}</div>
            <h4>{t(Msg::EditorHints)}</h4>
            {move || {
                shape.track();
                hints_view(draft, edit, reshape)
            }}
            <button
                type="button"
                data-action="add-hint"
                on:click=move |_| {
                    reshape(
                        Box::new(|d| {
                            d.hints
                                .push(HintDraft {
                                    when: "at".into(),
                                    value: "10".into(),
                                    text: String::new(),
                                })
                        }),
                    )
                }
            >
                {t(Msg::EditorAddHint)}
            </button>
            <p
                class="editor-status"
                role="status"
                data-status=move || checked.with(|c| if c.is_ok() { "ok" } else { "error" })
            >
                {move || {
                    checked
                        .with(|c| match c {
                            Ok(e) => tf(Msg::EditorValid, &[("title", &e.title)]),
                            Err(e) => exercise_error_text(e),
                        })
                }}
            </p>
            {move || share_view(run, checked, previewed, shared)}
        </section>
    }
}

fn field_label(field: &str) -> Msg {
    match field {
        "title" => Msg::EditorTitle,
        "briefing" => Msg::EditorBriefing,
        "lesson" => Msg::EditorLesson,
        "start" => Msg::EditorStart,
        "minutes" => Msg::EditorMinutes,
        _ => Msg::EditorParams,
    }
}

/// Up, down and remove for item `i` of a list of `len`.
fn item_buttons(
    i: usize,
    len: usize,
    reshape: impl Fn(Box<dyn FnOnce(&mut Draft)>) + Copy + 'static,
    list: fn(&mut Draft) -> &mut dyn Reorder,
) -> impl IntoView {
    view! {
        <button
            type="button"
            data-action="move-up"
            disabled={i == 0}
            aria-label=t(Msg::EditorMoveUp)
            on:click=move |_| reshape(Box::new(move |d| list(d).swap_items(i, i - 1)))
        >
            "↑"
        </button>
        <button
            type="button"
            data-action="move-down"
            disabled={i + 1 >= len}
            aria-label=t(Msg::EditorMoveDown)
            on:click=move |_| reshape(Box::new(move |d| list(d).swap_items(i, i + 1)))
        >
            "↓"
        </button>
        <button
            type="button"
            data-action="remove"
            on:click=move |_| reshape(Box::new(move |d| list(d).remove_item(i)))
        >
            {t(Msg::EditorRemove)}
        </button>
    }
}

/// A list of the draft the buttons reorder.
trait Reorder {
    fn swap_items(&mut self, a: usize, b: usize);
    fn remove_item(&mut self, i: usize);
}

impl<T> Reorder for Vec<T> {
    fn swap_items(&mut self, a: usize, b: usize) {
        if a < self.len() && b < self.len() {
            self.swap(a, b);
        }
    }

    fn remove_item(&mut self, i: usize) {
        if i < self.len() {
            self.remove(i);
        }
    }
}

fn timeline_view(
    draft: RwSignal<Draft>,
    edit: impl Fn(Box<dyn FnOnce(&mut Draft)>) + Copy + 'static,
    reshape: impl Fn(Box<dyn FnOnce(&mut Draft)>) + Copy + 'static,
) -> impl IntoView {
    let items = draft.with_untracked(|d| d.timeline.clone());
    let len = items.len();
    let kinds = faults::names();
    let list = items
        .into_iter()
        .enumerate()
        .map(|(i, inject)| {
            let options = kinds
                .iter()
                .map(|k| view! { <option value=*k selected=*k == inject.fault>{*k}</option> })
                .collect_view();
            let fields = inject
                .fields
                .iter()
                .enumerate()
                .map(|(j, (name, value))| {
                    view! {
                        <label class="editor-field">
                            <code>{name.clone()}</code>
                            <input
                                type="text"
                                data-field=format!("inject-{name}")
                                prop:value=value.clone()
                                on:input=move |ev| {
                                    let v = event_target_value(&ev);
                                    edit(
                                        Box::new(move |d| {
                                            if let Some(f) = d.timeline.get_mut(i).and_then(|x| x.fields.get_mut(j)) {
                                                f.1 = v;
                                            }
                                        }),
                                    );
                                }
                            />
                        </label>
                    }
                })
                .collect_view();
            view! {
                <li class="editor-item" data-inject=i>
                    <select
                        data-field="inject-fault"
                        aria-label=t(Msg::EditorFault)
                        on:change=move |ev| {
                            let kind = event_target_value(&ev);
                            reshape(
                                Box::new(move |d| {
                                    if let Some(x) = d.timeline.get_mut(i) {
                                        *x = x.with_kind(&kind);
                                    }
                                }),
                            );
                        }
                    >
                        {options}
                    </select>
                    {fields}
                    {item_buttons(i, len, reshape, |d| &mut d.timeline)}
                </li>
            }
        })
        .collect_view();
    view! { <ol class="editor-list" data-list="timeline">{list}</ol> }
}

fn expected_view(
    draft: RwSignal<Draft>,
    edit: impl Fn(Box<dyn FnOnce(&mut Draft)>) + Copy + 'static,
    reshape: impl Fn(Box<dyn FnOnce(&mut Draft)>) + Copy + 'static,
) -> impl IntoView {
    let items = draft.with_untracked(|d| d.expected.clone());
    let len = items.len();
    let list = items
        .into_iter()
        .enumerate()
        .map(|(i, step)| {
            view! {
                <li class="editor-item" data-step=i>
                    <select
                        data-field="step-when"
                        aria-label=t(Msg::EditorWhen)
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            edit(Box::new(move |d| if let Some(s) = d.expected.get_mut(i) { s.when = v }));
                        }
                    >
                        <option value="page" selected=step.when == "page">{t(Msg::EditorWhenPage)}</option>
                        <option value="first_errors" selected=step.when == "first_errors">
                            {t(Msg::EditorWhenFirstErrors)}
                        </option>
                    </select>
                    <input
                        type="text"
                        data-field="step-action"
                        aria-label=t(Msg::EditorAction)
                        prop:value=step.action.clone()
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            edit(Box::new(move |d| if let Some(s) = d.expected.get_mut(i) { s.action = v }));
                        }
                    />
                    {item_buttons(i, len, reshape, |d| &mut d.expected)}
                </li>
            }
        })
        .collect_view();
    view! { <ol class="editor-list" data-list="expected">{list}</ol> }
}

fn hints_view(
    draft: RwSignal<Draft>,
    edit: impl Fn(Box<dyn FnOnce(&mut Draft)>) + Copy + 'static,
    reshape: impl Fn(Box<dyn FnOnce(&mut Draft)>) + Copy + 'static,
) -> impl IntoView {
    let items = draft.with_untracked(|d| d.hints.clone());
    let len = items.len();
    let list = items
        .into_iter()
        .enumerate()
        .map(|(i, hint)| {
            let option = |value: &'static str, label: Msg| {
                view! { <option value=value selected=hint.when == value>{t(label)}</option> }
            };
            view! {
                <li class="editor-item" data-hint-item=i>
                    <select
                        data-field="hint-when"
                        aria-label=t(Msg::EditorWhen)
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            edit(Box::new(move |d| if let Some(h) = d.hints.get_mut(i) { h.when = v }));
                        }
                    >
                        {option("at", Msg::EditorHintAt)}
                        {option("paged_without_action", Msg::EditorHintPaged)}
                        {option("budget_below", Msg::EditorHintBudget)}
                    </select>
                    <input
                        type="text"
                        class="short"
                        data-field="hint-value"
                        aria-label=t(Msg::EditorHintValue)
                        prop:value=hint.value.clone()
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            edit(Box::new(move |d| if let Some(h) = d.hints.get_mut(i) { h.value = v }));
                        }
                    />
                    <input
                        type="text"
                        data-field="hint-text"
                        aria-label=t(Msg::EditorHintText)
                        prop:value=hint.text.clone()
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            edit(Box::new(move |d| if let Some(h) = d.hints.get_mut(i) { h.text = v }));
                        }
                    />
                    {item_buttons(i, len, reshape, |d| &mut d.hints)}
                </li>
            }
        })
        .collect_view();
    view! { <ol class="editor-list" data-list="hints">{list}</ol> }
}

/// Preview, play, link and file, for a draft the reader accepts.
fn share_view(
    run: RunHandle,
    checked: Memo<Result<Exercise, oncall_sim::exercise::file::ExerciseError>>,
    previewed: RwSignal<Option<Result<Previewed, String>>>,
    shared: RwSignal<Option<String>>,
) -> impl IntoView {
    let exercise = checked.with(|c| c.as_ref().ok().cloned())?;
    let seed = run.with(|c| c.seed()).unwrap_or(1);
    let file_text = oncall_sim::exercise::file::write(&exercise);
    let file_name = format!("{}.json", exercise.id);
    let for_preview = exercise.clone();
    let for_play = exercise.clone();
    let for_link = exercise.clone();
    Some(view! {
        <div class="editor-actions">
            <button
                type="button"
                data-action="editor-preview"
                on:click=move |_| previewed.set(Some(preview(&for_preview, seed)))
            >
                {t(Msg::EditorPreview)}
            </button>
            <button
                type="button"
                data-action="editor-play"
                on:click=move |_| {
                    if let Ok(state) = ShareState::of_exercise(Arc::new(for_play.clone())) {
                        run.open_exercise(state);
                    }
                }
            >
                {t(Msg::EditorPlay)}
            </button>
            <button
                type="button"
                data-action="editor-link"
                on:click=move |_| shared.set(Some(exercise_link(&for_link, seed)))
            >
                {t(Msg::EditorLink)}
            </button>
            <a class="button" data-action="editor-download" download=file_name href=json_data_url(&file_text)>
                {t(Msg::ExerciseDownload)}
            </a>
        </div>
        {move || {
            shared
                .get()
                .map(|href| {
                    view! {
                        <input type="text" readonly class="editor-link" data-field="editor-link" prop:value=href />
                    }
                })
        }}
        {move || previewed.get().map(preview_view)}
    })
}

/// The link that opens the exercise with `seed`: this page, its query the seed alone, its
/// fragment the exercise (or why it cannot travel in a link).
fn exercise_link(exercise: &Exercise, seed: u32) -> String {
    match link::fragment(exercise) {
        Ok(fragment) => {
            let location = web_sys::window().map(|w| w.location());
            let base = location
                .and_then(|l| Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?)))
                .unwrap_or_default();
            format!("{base}?seed={seed}{fragment}")
        }
        Err(why) => core_text(&why),
    }
}

fn preview(exercise: &Exercise, seed: u32) -> Result<Previewed, String> {
    let setup = RunSetup::for_exercise(exercise.clone(), seed)
        .map_err(|(field, _)| tf(Msg::ExerciseParamRefused, &[("field", &field)]))?;
    let minutes = exercise.scenario.minutes.unwrap_or(240);
    let p = par::preview(&setup, minutes).map_err(|e| core_text(&e.message()))?;
    let budget =
        |o: &oncall_sim::setup::RunOutcome| o.history.iter().map(|r| r.budget_left).collect();
    Ok(Previewed {
        nothing: budget(&p.nothing),
        textbook: p.textbook.as_ref().map(budget),
        nothing_spent: p.nothing.summary.budget_spent,
        textbook_spent: p.textbook.as_ref().map(|o| o.summary.budget_spent),
    })
}

fn preview_view(p: Result<Previewed, String>) -> impl IntoView {
    let p = match p {
        Ok(p) => p,
        Err(why) => {
            return view! { <p class="editor-status" data-status="error">{why}</p> }.into_any()
        }
    };
    const W: f64 = 600.0;
    const H: f64 = 160.0;
    let top = p
        .nothing
        .iter()
        .chain(p.textbook.iter().flatten())
        .fold(0.0_f64, |m, x| m.max(*x))
        .max(1e-9);
    let points = |series: &[f64]| {
        let n = series.len().max(2) - 1;
        series
            .iter()
            .enumerate()
            .map(|(i, b)| {
                format!(
                    "{:.1},{:.1}",
                    i as f64 / n as f64 * W,
                    H - (b.max(0.0) / top) * H
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let pct = |x: f64| format!("{:.1}", x * 100.0);
    let summary = match p.textbook_spent {
        Some(t_spent) => tf(
            Msg::EditorPreviewSummary,
            &[
                ("nothing", &pct(p.nothing_spent)),
                ("textbook", &pct(t_spent)),
            ],
        ),
        None => tf(
            Msg::EditorPreviewNoPage,
            &[("nothing", &pct(p.nothing_spent))],
        ),
    };
    let nothing = points(&p.nothing);
    let textbook = p.textbook.as_deref().map(points);
    view! {
        <figure class="editor-preview" data-field="editor-preview">
            <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=summary.clone() preserveAspectRatio="none">
                <polyline class="nothing" points=nothing fill="none" />
                {textbook.map(|pts| view! { <polyline class="textbook" points=pts fill="none" /> })}
            </svg>
            <figcaption>
                <span class="key nothing">{t(Msg::EditorNothing)}</span>
                " "
                <span class="key textbook">{t(Msg::EditorTextbook)}</span>
                <br />
                <span data-field="editor-preview-summary">{summary}</span>
            </figcaption>
        </figure>
    }
    .into_any()
}
