//! An author's exercise's hints, shown as they come due (at a minute, after a page left
//! unanswered, below a share of the budget: `oncall_sim::exercise::hints_due`), each until
//! the trainee dismisses it.

use leptos::prelude::*;

use crate::components::run::RunHandle;
use crate::i18n::{t, tf, Msg};

#[component]
pub fn Hints(run: RunHandle) -> impl IntoView {
    // Dismissed hints, by index, for the run they were dismissed in.
    let dismissed = RwSignal::new((u64::MAX, Vec::<usize>::new()));
    let due = Memo::new(move |_| {
        run.snapshot.track();
        run.with(|c| {
            let Some(exercise) = c.exercise() else {
                return Vec::new();
            };
            let sim = c.sim();
            let budget = run.snapshot.with_untracked(|s| s.budget_left);
            oncall_sim::exercise::hints_due(&exercise.hints, sim.history(), sim.actions(), budget)
                .into_iter()
                .map(|i| (i, exercise.hints[i].text.clone()))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
    });
    let said = use_context::<super::SessionSaid>();
    let from_facilitator = move || {
        said.map(|s| s.0.get())
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .map(|(i, text)| {
                view! {
                    <div class="hint" data-hint=format!("session-{i}")>
                        <p><b>{t(Msg::FacilitatorSays)}</b> " " {text}</p>
                    </div>
                }
            })
            .collect_view()
    };
    let shown = move || {
        let generation = run.generation.get();
        let gone = dismissed.with(|(g, gone)| {
            if *g == generation {
                gone.clone()
            } else {
                Vec::new()
            }
        });
        due.get()
            .into_iter()
            .filter(|(i, _)| !gone.contains(i))
            .collect::<Vec<_>>()
    };
    view! {
        <aside class="hints" aria-live="polite" aria-label=t(Msg::HintsLabel)>
            {from_facilitator}
            <For each=shown key=|(i, _)| *i let:hint>
                <div class="hint" data-hint=hint.0>
                    <p>
                        <b>{t(Msg::HintHeading)}</b>
                        " "
                        {hint.1.clone()}
                    </p>
                    <button
                        type="button"
                        data-action="dismiss-hint"
                        aria-label=tf(Msg::HintDismiss, &[("n", &(hint.0 + 1).to_string())])
                        on:click=move |_| {
                            let generation = run.generation.get_untracked();
                            dismissed
                                .update(|(g, gone)| {
                                    if *g != generation {
                                        *g = generation;
                                        gone.clear();
                                    }
                                    gone.push(hint.0);
                                });
                        }
                    >
                        "×"
                    </button>
                </div>
            </For>
        </aside>
    }
}
