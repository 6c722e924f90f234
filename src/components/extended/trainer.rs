//! Courses that grade, in the page (the extended build): the course's exercises and the
//! trainee's progress, the score and pass of each finished run in the debrief, the answer
//! hidden until the link allows it, and the `debrief`, `progress` and `complete` messages to
//! a lesson page. The parameters and the stored progress are [`crate::course`]'s.

use js_sys::{Array, Object, Reflect};
use leptos::prelude::*;
use oncall_sim::coach::{self, VerdictKind};
use oncall_sim::exercise::Objectives;
use oncall_sim::grade::{self, Grade, Reached};
use oncall_sim::ids::ScenarioId;
use oncall_sim::par::ParKind;
use wasm_bindgen::JsValue;

use crate::components::debrief::Par;
use crate::components::host;
use crate::components::run::RunHandle;
use crate::course::{read_course, storage_key, CourseOptions, Entry, Progress};
use crate::embed::EmbedOptions;
use crate::i18n::{scenario_title_text, t, tf, Msg};

/// The course, the trainee's progress and the last run's grade, shared by the page's parts.
#[derive(Clone, Copy)]
pub struct Trainer {
    options: StoredValue<CourseOptions>,
    progress: RwSignal<Progress>,
}

/// Reads the course's parameters, loads the progress kept in the browser and marks the
/// document for the stylesheet (the briefing in the compact layout, the answer hidden).
/// Adds the notices for wrong parameters to `notices`.
pub fn provide_trainer(run: RunHandle, notices: &mut Vec<String>) {
    let (options, wrong) = run.rest.with_value(|rest| read_course(rest));
    notices.extend(wrong);
    // The trainee's side of a facilitated session.
    let session = run.rest.with_value(|rest| {
        (!super::facilitator::facilitating(rest))
            .then(|| super::facilitator::session_code(rest))
            .flatten()
    });
    let said = RwSignal::new(Vec::new());
    provide_context(super::SessionSaid(said));
    if let Some(code) = session {
        super::facilitator::use_session(run, &code, said);
    }
    let progress = load(&options.key);
    let trainer = Trainer {
        options: StoredValue::new(options),
        progress: RwSignal::new(progress),
    };
    provide_context(trainer);
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let Some(root) = &root {
        trainer.options.with_value(|o| {
            if o.briefing {
                let _ = root.set_attribute("data-briefing", "shown");
            }
            if !o.exercises.is_empty() {
                let _ = root.set_attribute("data-course", "");
            }
        });
    }
    // The answer shows as the link allows, for the exercise on screen.
    Effect::new(move |_| {
        // Which exercise plays changes only with the run (not with each minute).
        run.generation.track();
        let id = exercise_id(run);
        let shown = trainer.progress.with(|p| {
            let entry = p.entry(&id);
            trainer.options.with_value(|o| o.reveals(&entry))
        });
        if let Some(root) = &root {
            let _ = if shown {
                root.remove_attribute("data-answer")
            } else {
                root.set_attribute("data-answer", "hidden")
            };
        }
    });
}

/// The id progress is kept under: the author's exercise's, or the built-in scenario's.
fn exercise_id(run: RunHandle) -> String {
    run.with(|c| {
        c.exercise()
            .map_or_else(|| c.base().scenario.as_str().to_string(), |e| e.id.clone())
    })
    .unwrap_or_default()
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The progress kept in this browser for `course` (none when storage is unavailable).
fn load(course: &str) -> Progress {
    storage()
        .and_then(|s| s.get_item(&storage_key(course)).ok().flatten())
        .map(|text| Progress::from_json(&text))
        .unwrap_or_default()
}

fn save(course: &str, progress: &Progress) {
    if let Some(s) = storage() {
        // A full or refused storage keeps the progress for this visit only.
        let _ = s.set_item(&storage_key(course), &progress.to_json());
    }
}

/// The course's exercises with their progress, each a button that opens it, and the reset;
/// nothing without a course.
pub fn course_panel(run: RunHandle) -> impl IntoView {
    let trainer = use_context::<Trainer>()?;
    let exercises = trainer.options.with_value(|o| o.exercises.clone());
    if exercises.is_empty() {
        return None;
    }
    let total = exercises.len();
    let passed = move || {
        trainer.progress.with(|p| {
            exercises
                .iter()
                .filter(|id| p.entry(id.as_str()).passed)
                .count()
        })
    };
    let list = trainer
        .options
        .with_value(|o| o.exercises.clone())
        .into_iter()
        .map(|id| course_item(run, trainer, id))
        .collect_view();
    Some(view! {
        <section class="course" data-panel="course" aria-labelledby="course-heading">
            <h3 id="course-heading">
                {t(Msg::CourseHeading)}
                " "
                <span class="muted" data-field="course-progress">
                    {move || {
                        tf(
                            Msg::CourseProgress,
                            &[("passed", &passed().to_string()), ("total", &total.to_string())],
                        )
                    }}
                </span>
            </h3>
            <ol class="course-list">{list}</ol>
            <button
                type="button"
                data-action="reset-progress"
                on:click=move |_| {
                    let key = trainer.options.with_value(|o| o.key.clone());
                    trainer.progress.set(Progress::default());
                    save(&key, &Progress::default());
                }
            >
                {t(Msg::CourseReset)}
            </button>
        </section>
    })
}

fn course_item(run: RunHandle, trainer: Trainer, id: ScenarioId) -> impl IntoView {
    let current = move || {
        run.snapshot.with(|s| s.scenario) == id && !crate::components::extended::plays_exercise(run)
    };
    let state = move || {
        let e = trainer.progress.with(|p| p.entry(id.as_str()));
        entry_text(&e)
    };
    view! {
        <li data-exercise=id.as_str() aria-current=move || current().then_some("step")>
            <button type="button" on:click=move |_| run.restart_with(Some(id), None)>
                {scenario_title_text(id)}
            </button>
            " "
            <span class="muted" data-field="exercise-progress">{state}</span>
        </li>
    }
}

fn entry_text(e: &Entry) -> String {
    if e.passed {
        tf(Msg::CoursePassed, &[("best", &e.best.to_string())])
    } else if e.attempts > 0 {
        tf(
            Msg::CourseTried,
            &[
                ("attempts", &e.attempts.to_string()),
                ("best", &e.best.to_string()),
            ],
        )
    } else {
        t(Msg::CourseNotTried).to_owned()
    }
}

/// One finished run's grade and attempt.
#[derive(Clone, Debug, PartialEq)]
struct Graded {
    grade: Grade,
    attempt: u32,
    /// Attempts left, when the link limits them.
    left: Option<u32>,
    /// The course is done with this run (every exercise passed, this one last).
    completes: bool,
    /// The next exercise of the course not passed yet.
    next: Option<ScenarioId>,
}

/// The debrief's grade: once the par lines are known, the run's score and pass (recorded
/// in the progress once per run) and what it means for the course; tells the lesson page.
pub fn grade_view(run: RunHandle, par: RwSignal<Par>) -> impl IntoView {
    let trainer = use_context::<Trainer>();
    let graded = RwSignal::new(None::<Graded>);
    let recorded = StoredValue::new(None::<u64>);
    Effect::new(move |_| {
        let done = par.with(|(_, done)| *done);
        let generation = run.generation.get_untracked();
        if !done || recorded.get_value() == Some(generation) {
            return;
        }
        recorded.set_value(Some(generation));
        let lines = par.with_untracked(|(lines, _)| lines.clone());
        let Some((you, objectives, summary_object)) = run.with(|c| {
            let sim = c.sim();
            let summary = c.summary();
            let slo = c.share_state().setup(c.seed()).params.slo;
            let mitigate =
                oncall_sim::summary::minutes_to_mitigate(sim.history(), slo, sim.first_fault());
            let objectives = c
                .exercise()
                .map_or_else(Objectives::default, |e| e.objectives);
            (
                Reached::of(&summary, mitigate),
                objectives,
                host::summary_object(c),
            )
        }) else {
            return;
        };
        let grade = grade::grade(&you, &lines, &objectives);
        let verdict = run
            .with(|c| coach::verdict(&c.summary(), &lines).kind)
            .unwrap_or(VerdictKind::SameAsNothing);
        let id = exercise_id(run);
        let (attempt, entry, first_pass, course_score, next, options) = match trainer {
            Some(tr) => {
                let key = tr.options.with_value(|o| o.key.clone());
                let passed_before = tr.progress.with_untracked(|p| p.entry(&id).passed);
                let was_complete = tr
                    .progress
                    .with_untracked(|p| tr.options.with_value(|o| o.complete(p)));
                let mut attempt = 0;
                tr.progress.update(|p| {
                    attempt = p.record(&id, grade.score, grade.passed);
                    save(&key, p);
                });
                let entry = tr.progress.with_untracked(|p| p.entry(&id));
                let (course_score, next) = tr.progress.with_untracked(|p| {
                    tr.options.with_value(|o| {
                        let next = o
                            .exercises
                            .iter()
                            .copied()
                            .find(|e| !p.entry(e.as_str()).passed);
                        // The course's score: the mean of its exercises' best scores.
                        let score = (!was_complete && o.complete(p)).then(|| {
                            let sum: u32 =
                                o.exercises.iter().map(|e| p.entry(e.as_str()).best).sum();
                            (f64::from(sum) / o.exercises.len() as f64).round() as u32
                        });
                        (score, next)
                    })
                });
                let first_pass = grade.passed && !passed_before;
                (
                    attempt,
                    entry,
                    first_pass,
                    course_score,
                    next,
                    tr.options.get_value(),
                )
            }
            None => (
                1,
                Entry {
                    best: grade.score,
                    attempts: 1,
                    passed: grade.passed,
                },
                grade.passed,
                None,
                None,
                CourseOptions::default(),
            ),
        };
        let left = options.attempts.map(|n| n.saturating_sub(entry.attempts));
        tell_lesson_page(
            &grade,
            verdict,
            &lines,
            (attempt, first_pass, course_score),
            summary_object,
            &id,
            &entry,
            &options,
        );
        graded.set(Some(Graded {
            grade,
            attempt,
            left,
            completes: course_score.is_some(),
            next,
        }));
    });
    move || graded.get().map(|g| graded_view(run, g))
}

fn graded_view(run: RunHandle, g: Graded) -> impl IntoView {
    let percent = |x: f64| format!("{:.0}", x * 100.0);
    let verdict = if g.grade.passed {
        t(Msg::GradePassed).to_owned()
    } else {
        t(Msg::GradeNotPassed).to_owned()
    };
    let objectives = g
        .grade
        .objectives
        .iter()
        .map(|o| {
            view! {
                <li data-objective=o.objective data-met=o.met.to_string()>
                    {tf(
                        if o.met { Msg::GradeObjectiveMet } else { Msg::GradeObjectiveMissed },
                        &[
                            ("objective", o.objective),
                            ("reached", &format!("{}", (o.reached * 100.0).round() / 100.0)),
                            ("bound", &format!("{}", o.bound)),
                        ],
                    )}
                </li>
            }
        })
        .collect_view();
    let attempts = match g.left {
        Some(0) if !g.grade.passed => Some(t(Msg::GradeAttemptsUsedUp).to_owned()),
        Some(left) => Some(tf(
            Msg::GradeAttemptsLeft,
            &[
                ("attempt", &g.attempt.to_string()),
                ("left", &left.to_string()),
            ],
        )),
        None => Some(tf(
            Msg::GradeAttempt,
            &[("attempt", &g.attempt.to_string())],
        )),
    };
    let next = g.next.filter(|_| g.grade.passed).map(|id| {
        view! {
            <button
                type="button"
                class="primary"
                data-action="next-exercise"
                on:click=move |_| run.restart_with(Some(id), None)
            >
                {tf(Msg::CourseNext, &[("title", &scenario_title_text(id))])}
            </button>
        }
    });
    view! {
        <div
            class="grade"
            data-field="grade"
            data-passed=g.grade.passed.to_string()
            data-score=g.grade.score.to_string()
        >
            <p class="score">
                <b>{tf(Msg::GradeScore, &[("score", &g.grade.score.to_string())])}</b>
                " · "
                <span data-field="passed">{verdict}</span>
            </p>
            <p class="muted">
                {tf(
                    Msg::GradeParts,
                    &[
                        ("budget", &percent(g.grade.budget)),
                        ("paging", &percent(g.grade.paging)),
                        ("mitigation", &percent(g.grade.mitigation)),
                        ("cost", &percent(g.grade.cost)),
                    ],
                )}
            </p>
            <ul class="objectives">{objectives}</ul>
            <p class="muted" data-field="attempt">{attempts}</p>
            <p class="answer-note" data-field="answer-note">{t(Msg::AnswerHidden)}</p>
            {g.completes.then(|| view! { <p class="course-done">{t(Msg::CourseComplete)}</p> })}
            {next}
        </div>
    }
}

fn verdict_code(kind: VerdictKind) -> &'static str {
    match kind {
        VerdictKind::BetterThanEveryPar => "better_than_every_par",
        VerdictKind::BetterThanTextbook => "better_than_textbook",
        VerdictKind::MatchesTextbook => "matches_textbook",
        VerdictKind::MatchesTextbookAtMoreCost => "matches_textbook_at_more_cost",
        VerdictKind::BetweenTextbookAndNothing => "between_textbook_and_nothing",
        VerdictKind::BetterThanNothing => "better_than_nothing",
        VerdictKind::SameAsNothing => "same_as_nothing",
        VerdictKind::SameAsNothingAtMoreCost => "same_as_nothing_at_more_cost",
        VerdictKind::WorseThanNothing => "worse_than_nothing",
    }
}

/// Posts `data` to the lesson page around the frame, to the origins the link allows.
fn post(options: &EmbedOptions, data: JsValue) {
    let Some(host) = host::host_window() else {
        return;
    };
    let own = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    for target in options.message_targets(&own) {
        let _ = host.post_message(&data, &target);
    }
}

fn set(object: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(object, &key.into(), &value.into());
}

/// `debrief` (with the grade), then `progress`; `complete` for an exercise passed for the
/// first time, and for the course once every exercise of it is passed (`course_score`: the
/// mean of their best scores). Only in a frame.
#[allow(clippy::too_many_arguments)]
fn tell_lesson_page(
    grade: &Grade,
    verdict: VerdictKind,
    lines: &[oncall_sim::par::ParLine],
    (attempt, first_pass, course_score): (u32, bool, Option<u32>),
    summary: JsValue,
    id: &str,
    entry: &Entry,
    options: &CourseOptions,
) {
    let Some(embed) = use_context::<EmbedOptions>() else {
        return;
    };
    let par = Object::new();
    for line in lines {
        let kind = match line.kind {
            ParKind::NothingDone => "nothing_done",
            ParKind::Textbook => "textbook",
            ParKind::BestSingleAction => "best_single_action",
        };
        let one = Object::new();
        set(&one, "budget_spent", line.budget_spent);
        set(&one, "minutes_paging", line.minutes_paging);
        set(&one, "cost", line.cost);
        if let Some(m) = line.minutes_to_mitigate {
            set(&one, "minutes_to_mitigate", m);
        }
        let actions: Array = line
            .actions
            .iter()
            .map(|a| JsValue::from(a.as_str()))
            .collect();
        set(&one, "actions", actions);
        set(&par, kind, one);
    }
    post(
        &embed,
        host::message(
            "debrief",
            &[
                ("summary", summary),
                ("exercise", id.into()),
                ("score", grade.score.into()),
                ("passed", grade.passed.into()),
                ("verdict", verdict_code(verdict).into()),
                ("par", par.into()),
                ("attempt", attempt.into()),
            ],
        ),
    );
    let progress = Object::new();
    set(&progress, "best", entry.best);
    set(&progress, "attempts", entry.attempts);
    set(&progress, "passed", entry.passed);
    let course = JsValue::from(options.key.as_str());
    post(
        &embed,
        host::message(
            "progress",
            &[
                ("course", course.clone()),
                ("exercise", id.into()),
                ("progress", progress.into()),
            ],
        ),
    );
    if first_pass {
        post(
            &embed,
            host::message(
                "complete",
                &[
                    ("course", course.clone()),
                    ("exercise", id.into()),
                    ("score", grade.score.into()),
                ],
            ),
        );
    }
    if let Some(score) = course_score {
        post(
            &embed,
            host::message(
                "complete",
                &[
                    ("course", course),
                    ("exercise", JsValue::NULL),
                    ("score", score.into()),
                ],
            ),
        );
    }
}
