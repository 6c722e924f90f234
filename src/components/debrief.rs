use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::*;
use oncall_sim::message::Message;
use oncall_sim::par::{ParKind, ParLine, ParSearch};
use oncall_sim::{coach, scenario, Action, RunSummary};

use crate::components::extended::exercise_text;
use crate::components::outcome_table::{
    budget_text, cost_text, outcome_row, outcome_table, Outcome,
};
use crate::components::run::{use_run, RunHandle};
use crate::event_text::action_text;
use crate::format::{format_value, Format, Value};
use crate::i18n::{core_text, scenario_title_text, t, tf, Msg};

/// A span of minutes on the timeline (e.g. paging).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Span {
    from: u32,
    to: u32,
}

/// What the debrief shows: the core's summary, and where pages and actions fell.
#[derive(Clone, Debug, PartialEq)]
struct Debrief {
    summary: RunSummary,
    scenario: oncall_sim::ids::ScenarioId,
    length: u32,
    paging: Vec<Span>,
    actions: Vec<(Action, String)>,
    /// Time of day at the start and at the end of the exercise.
    ends: (String, String),
    /// The worst minute, its time and cause, in words.
    worst: Option<String>,
    /// The cache TTL the scenario opens with (what a stale cache is measured against).
    opening_ttl_s: u32,
}

fn paging_spans(paging: impl Iterator<Item = bool>) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut open: Option<u32> = None;
    let mut minute = 0;
    for (m, on) in paging.enumerate() {
        minute = m as u32;
        match (on, open) {
            (true, None) => open = Some(minute),
            (false, Some(from)) => {
                spans.push(Span { from, to: minute });
                open = None;
            }
            _ => {}
        }
    }
    if let Some(from) = open {
        spans.push(Span {
            from,
            to: minute + 1,
        });
    }
    spans
}

/// The par lines known so far, and whether the search is over.
pub(crate) type Par = (Vec<ParLine>, bool);

/// Runs the par search a few simulated minutes per timer tick (`minutes_per_tick`: about a
/// frame's worth of work for the run's engine), and fills `lines` as they become known. Stops
/// when the run changes (its generation moves on).
fn search_par(run: RunHandle, search: ParSearch, minutes_per_tick: u32, lines: RwSignal<Par>) {
    let generation = run.generation.get_untracked();
    let search = Rc::new(RefCell::new(search));
    let tick = move || {
        if run.generation.get_untracked() != generation {
            return true;
        }
        let known = search.borrow().lines().len();
        let done = search
            .borrow_mut()
            .advance(minutes_per_tick)
            .unwrap_or(true);
        if done || search.borrow().lines().len() != known {
            lines.set((search.borrow().lines().to_vec(), done));
        }
        done
    };
    fn again(mut tick: impl FnMut() -> bool + 'static) {
        set_timeout(
            move || {
                if !tick() {
                    again(tick);
                }
            },
            Duration::ZERO,
        );
    }
    again(tick);
}

/// The debrief of a finished exercise: budget spent, cost, worst p99, minutes paging,
/// staleness, and the user's actions on the exercise's timeline, so trainers can compare runs.
#[component]
pub fn DebriefPanel() -> impl IntoView {
    let run = use_run();
    let finished = Memo::new(move |_| run.snapshot.with(|s| s.finished));
    let par = use_par_search(run, finished);
    let debrief = use_debrief(run, finished);
    move || debrief.get().map(|d| debrief_section(run, par, d))
}

/// The par lines of the finished run, searched anew for each finished run.
fn use_par_search(run: RunHandle, finished: Memo<bool>) -> RwSignal<Par> {
    let par = RwSignal::new(Par::default());
    Effect::new(move |_| {
        par.set(Par::default());
        if !finished.get() {
            return;
        }
        let search = run.with(|c| {
            let minutes = c.sim().scenario().minutes.unwrap_or(c.minutes()).max(1);
            // A minute of the formulas takes tens of microseconds; one of the request
            // engine, milliseconds.
            let per_tick = if c.sim().last_requests().is_some() {
                1
            } else {
                200
            };
            (
                ParSearch::new(&c.share_state().setup(c.seed()), minutes),
                per_tick,
            )
        });
        if let Some((search, per_tick)) = search {
            search_par(run, search, per_tick, par);
        }
    });
    par
}

/// What the debrief shows of the run, once it is finished.
fn use_debrief(run: RunHandle, finished: Memo<bool>) -> Memo<Option<Debrief>> {
    Memo::new(move |_| {
        run.generation.track();
        if !finished.get() {
            return None;
        }
        run.with(|c| {
            let sim = c.sim();
            Debrief {
                summary: c.summary(),
                scenario: sim.scenario().id,
                length: sim.scenario().minutes.unwrap_or(c.minutes()).max(1),
                paging: paging_spans(sim.history().iter().map(|r| r.paging)),
                actions: sim
                    .actions()
                    .iter()
                    .map(|a| (a.clone(), sim.clock_at(a.minute).to_string()))
                    .collect(),
                ends: (
                    sim.clock_at(0).to_string(),
                    sim.clock_at(sim.minute()).to_string(),
                ),
                worst: coach::worst_minute(sim.history()).map(|w| core_text(&w.message())),
                opening_ttl_s: sim.scenario().settings.cache_ttl_s,
            }
        })
    })
}

/// The debrief's section: the verdict and the par table, the regional comparison, the worst
/// minute and the lesson, the summary, the timeline and the actions taken.
fn debrief_section(run: RunHandle, par: RwSignal<Par>, d: Debrief) -> impl IntoView {
    let s = &d.summary;
    // An author's exercise has its own title and lesson.
    let title =
        exercise_text(run, |e| e.title.clone()).unwrap_or_else(|| scenario_title_text(d.scenario));
    let lesson = exercise_text(run, |e| e.lesson.clone())
        .unwrap_or_else(|| core_text(&Message::new(scenario::lesson(d.scenario))));
    view! {
        <section class="panel debrief" id="debrief" aria-labelledby="debrief-heading">
            <h2 id="debrief-heading" tabindex="-1">{t(Msg::DebriefHeading)}</h2>
            <p>
                {tf(
                    Msg::DebriefIntro,
                    &[
                        ("scenario", &title),
                        ("minutes", &s.minutes.to_string()),
                    ],
                )}
            </p>
            {par_view(par, d.summary.clone(), d.opening_ttl_s)}
            {regional(&d.summary)}
            <p class="worst-minute" data-field="worst-minute">{d.worst.clone()}</p>
            <p class="lesson" data-field="lesson">
                <b>{t(Msg::DebriefLesson)}</b>
                " "
                {lesson}
            </p>
            <dl class="summary">{summary_rows(s)}</dl>
            <h3>{t(Msg::DebriefTimeline)}</h3>
            {timeline(&d)}
            <div class="timeline-ends" aria-hidden="true">
                <span>{d.ends.0.clone()}</span>
                <span>{d.ends.1.clone()}</span>
            </div>
            <h3>{t(Msg::DebriefActions)}</h3>
            {action_list(&d.actions)}
            {crate::components::extended::debrief_extras(run, par)}
            <button type="button" class="primary" data-action="run-again" on:click=move |_| run.reset()>
                {t(Msg::DebriefAgain)}
            </button>
        </section>
    }
}

/// The summary's figures, each keyed by the summary's field name.
fn summary_rows(s: &RunSummary) -> impl IntoView {
    let v = |format: Format, x: f64| format_value(format, Value::Number(x));
    [
        (
            "budget_spent",
            Msg::DebriefBudgetSpent,
            budget_text(s.budget_spent),
        ),
        (
            "budget_left",
            Msg::DebriefBudgetLeft,
            v(Format::Percent { decimals: 1 }, s.budget_left),
        ),
        ("cost", Msg::DebriefCost, cost_text(s.cost)),
        (
            "worst_p99_ms",
            Msg::DebriefWorstP99,
            v(Format::Milliseconds, s.worst_p99_ms),
        ),
        (
            "minutes_paging",
            Msg::DebriefPaging,
            v(Format::Minutes, f64::from(s.minutes_paging)),
        ),
        (
            "minutes_over_budget_rate",
            Msg::DebriefOverBudget,
            v(Format::Minutes, f64::from(s.minutes_over_budget_rate)),
        ),
        (
            "mean_staleness_s",
            Msg::DebriefStaleness,
            v(Format::Seconds, s.mean_staleness_s),
        ),
        (
            "instance_minutes",
            Msg::DebriefInstanceMinutes,
            v(Format::InstanceMinutes, s.instance_minutes as f64),
        ),
    ]
    .into_iter()
    .map(|(field, label, value)| {
        view! {
            <div data-summary=field>
                <dt>{t(label)}</dt>
                <dd>{value}</dd>
            </div>
        }
    })
    .collect_view()
}

/// The exercise's timeline: the spans spent paging, and a tick at each action.
fn timeline(d: &Debrief) -> impl IntoView {
    let length = f64::from(d.length);
    let at = move |minute: u32| format!("{:.3}%", 100.0 * f64::from(minute) / length);
    let spans = d
        .paging
        .iter()
        .map(|span| {
            let width = format!(
                "{:.3}%",
                100.0 * f64::from(span.to.saturating_sub(span.from)) / length
            );
            view! { <span class="tl-page" style:left=at(span.from) style:width=width></span> }
        })
        .collect_view();
    let ticks = d
        .actions
        .iter()
        .map(|(action, _)| {
            view! {
                <span
                    class="tl-action"
                    style:left=at(action.minute)
                    title=action_text(&action.kind)
                ></span>
            }
        })
        .collect_view();
    view! {
        <div class="timeline" aria-hidden="true">
            {spans}
            {ticks}
        </div>
    }
}

/// The actions taken, at their time of day (or a note that there were none).
fn action_list(actions: &[(Action, String)]) -> AnyView {
    if actions.is_empty() {
        return view! { <p class="muted">{t(Msg::DebriefNoActions)}</p> }.into_any();
    }
    let items = actions
        .iter()
        .map(|(action, clock)| {
            view! {
                <li>
                    <time>{clock.clone()}</time>
                    " "
                    {action_text(&action.kind)}
                </li>
            }
        })
        .collect_view();
    view! { <ol class="debrief-actions">{items}</ol> }.into_any()
}

/// The regional comparison (the extended build's; none in the first build, whose runs have
/// one region).
fn regional(summary: &RunSummary) -> impl IntoView {
    crate::components::extended::regional(outcome_of(summary))
}

/// The run as played, in the outcome tables' figures.
fn outcome_of(summary: &RunSummary) -> Outcome {
    Outcome {
        budget_spent: summary.budget_spent,
        cost: summary.cost,
        minutes_paging: summary.minutes_paging,
    }
}

/// A par line's actions in words, each at its time of day ("roll back at 09:14, …").
fn par_actions_text(run: RunHandle, line: &ParLine) -> String {
    line.actions
        .iter()
        .filter_map(|a| Action::parse(a, u32::MAX).ok())
        .map(|a| {
            let clock = run
                .with(|c| c.sim().clock_at(a.minute).to_string())
                .unwrap_or_default();
            tf(
                Msg::ParAt,
                &[("action", &action_text(&a.kind)), ("clock", &clock)],
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The verdict on the run against the par lines (or that they are still being searched), and
/// the warnings that matter once they are known.
fn verdict_view(
    summary: &RunSummary,
    opening_ttl_s: u32,
    lines: &[ParLine],
    done: bool,
) -> impl IntoView {
    let sentence = if done {
        core_text(&coach::verdict(summary, lines).message())
    } else {
        t(Msg::ParSearching).to_owned()
    };
    let warnings = if done {
        coach::warnings(summary, opening_ttl_s, lines)
    } else {
        Vec::new()
    };
    let warnings = (!warnings.is_empty()).then(|| {
        let items = warnings
            .iter()
            .map(|w| view! { <li>{core_text(&w.message())}</li> })
            .collect_view();
        view! { <ul class="debrief-warnings" data-field="warnings">{items}</ul> }
    });
    view! {
        <p class="verdict" data-field="verdict" aria-live="polite">{sentence}</p>
        {warnings}
    }
}

/// The par table: each line's actions, budget spent, fleet cost and minutes paging, and the
/// trainee's;
/// above it the verdict, and once the par lines are known the warnings that matter (the core's
/// [`oncall_sim::coach`] decides both).
fn par_view(par: RwSignal<Par>, summary: RunSummary, opening_ttl_s: u32) -> impl IntoView {
    let run = use_run();
    move || {
        let (lines, done) = par.get();
        let rows = lines
            .iter()
            .map(|l| {
                let (key, name) = match l.kind {
                    ParKind::NothingDone => ("nothing_done", Msg::ParNothing),
                    ParKind::Textbook => ("textbook", Msg::ParTextbook),
                    ParKind::BestSingleAction => ("best_single_action", Msg::ParBest),
                };
                let what = par_actions_text(run, l);
                let name = view! {
                    {t(name)}
                    <span class="par-actions">{what}</span>
                };
                let outcome = Outcome {
                    budget_spent: l.budget_spent,
                    cost: l.cost,
                    minutes_paging: l.minutes_paging,
                };
                outcome_row(name, outcome).attr("data-par", key)
            })
            .collect_view();
        let you = outcome_row(t(Msg::ParYou), outcome_of(&summary)).attr("data-par", "you");
        view! {
            {verdict_view(&summary, opening_ttl_s, &lines, done)}
            <h3>{t(Msg::ParHeading)}</h3>
            {outcome_table("par", t(Msg::ParIntro), (you, rows))}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paging_spans_cover_the_paging_minutes() {
        let spans = paging_spans([false, true, true, false, true].into_iter());
        assert_eq!(spans, [Span { from: 1, to: 3 }, Span { from: 4, to: 5 }]);
        assert!(paging_spans([false, false].into_iter()).is_empty());
    }
}
