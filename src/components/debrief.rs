use leptos::prelude::*;
use oncall_sim::{Action, RunSummary};

use crate::components::run::use_run;
use crate::event_text::action_text;
use crate::format::{self, format_value, Format, Value};
use crate::i18n::{scenario_title_text, t, tf, Locale, Msg};

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

/// The debrief of a finished exercise: budget spent, cost, worst p99, minutes paging,
/// staleness, and the user's actions on the exercise's timeline, so trainers can compare runs.
#[component]
pub fn DebriefPanel() -> impl IntoView {
    let run = use_run();
    let finished = Memo::new(move |_| run.snapshot.with(|s| s.finished));
    let debrief = Memo::new(move |_| {
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
                    .map(|a| (a.clone(), sim.clock_at(a.minute)))
                    .collect(),
                ends: (sim.clock_at(0), sim.clock_at(sim.minute())),
            }
        })
    });
    move || {
        debrief.get().map(|d| {
            let v = |format: Format, x: f64| format_value(format, Value::Number(x));
            let s = &d.summary;
            let rows = [
                (
                    "budget_spent",
                    Msg::DebriefBudgetSpent,
                    format::with_unit(
                        Locale::default(),
                        Msg::UnitBudgetPoints,
                        s.budget_spent * 100.0,
                        1,
                    ),
                ),
                ("budget_left", Msg::DebriefBudgetLeft, v(Format::Percent { decimals: 1 }, s.budget_left)),
                ("cost", Msg::DebriefCost, v(Format::Dollars, s.cost)),
                ("worst_p99_ms", Msg::DebriefWorstP99, v(Format::Milliseconds, s.worst_p99_ms)),
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
                ("mean_staleness_s", Msg::DebriefStaleness, v(Format::Seconds, s.mean_staleness_s)),
                (
                    "instance_minutes",
                    Msg::DebriefInstanceMinutes,
                    v(Format::Count, s.instance_minutes as f64),
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
            .collect_view();
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
                    view! { <span class="tl-page" style=format!("left: {}; width: {width}", at(span.from))></span> }
                })
                .collect_view();
            let ticks = d
                .actions
                .iter()
                .map(|(action, _)| {
                    view! {
                        <span
                            class="tl-action"
                            style=format!("left: {}", at(action.minute))
                            title=action_text(&action.kind)
                        ></span>
                    }
                })
                .collect_view();
            let list = if d.actions.is_empty() {
                view! { <p class="muted">{t(Msg::DebriefNoActions)}</p> }.into_any()
            } else {
                let items = d
                    .actions
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
            };
            view! {
                <section class="panel debrief" id="debrief" aria-labelledby="debrief-heading">
                    <h2 id="debrief-heading">{t(Msg::DebriefHeading)}</h2>
                    <p>
                        {tf(
                            Msg::DebriefIntro,
                            &[
                                ("scenario", &scenario_title_text(d.scenario)),
                                ("minutes", &s.minutes.to_string()),
                            ],
                        )}
                    </p>
                    <dl class="summary">{rows}</dl>
                    <h3>{t(Msg::DebriefTimeline)}</h3>
                    <div class="timeline" aria-hidden="true">
                        {spans}
                        {ticks}
                    </div>
                    <div class="timeline-ends" aria-hidden="true">
                        <span>{d.ends.0.clone()}</span>
                        <span>{d.ends.1.clone()}</span>
                    </div>
                    <h3>{t(Msg::DebriefActions)}</h3>
                    {list}
                    <button type="button" class="primary" on:click=move |_| run.reset()>
                        {t(Msg::DebriefAgain)}
                    </button>
                </section>
            }
        })
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
