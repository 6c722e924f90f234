use leptos::prelude::*;
use oncall_sim::ids::ScenarioId;

use crate::components::run::use_run;
use crate::i18n::{scenario_briefing_text, scenario_title_text, t, tf, Msg};

/// The scenario a newcomer begins with: one incident, one decision.
pub const FIRST_SCENARIO: ScenarioId = ScenarioId::BadDeploy;

/// Whether a page opened with `search` (its query string) shows the start view: only the bare
/// link does; a link that names anything is a run to show.
pub fn opens_start_view(search: &str) -> bool {
    search.trim_start_matches('?').is_empty()
}

/// The start view of the bare link: the exercises as cards (what happens, how long), the first
/// marked as the place to begin, and free play one click away. Choosing hides it.
#[component]
pub fn StartView(shown: RwSignal<bool>) -> impl IntoView {
    let run = use_run();
    let cards = ScenarioId::ALL
        .iter()
        .copied()
        .filter(|&id| id != ScenarioId::FreePlay)
        .map(|id| {
            let minutes = oncall_sim::exercise::scenario(id).minutes.unwrap_or(0);
            let first = id == FIRST_SCENARIO;
            view! {
                <li class="start-card" class:first=first data-scenario=id.as_str()>
                    <h3>{scenario_title_text(id)}</h3>
                    {first.then(|| view! { <p class="start-here">{t(Msg::StartHere)}</p> })}
                    <p>{scenario_briefing_text(id)}</p>
                    <p class="muted small">
                        {tf(Msg::ExerciseLength, &[("minutes", &minutes.to_string())])}
                    </p>
                    <button
                        type="button"
                        class:primary=first
                        data-action="start"
                        on:click=move |_| {
                            shown.set(false);
                            run.restart_with(Some(id), None);
                        }
                    >
                        {t(Msg::StartExercise)}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="start-view panel" aria-labelledby="start-heading">
            <h2 id="start-heading">{t(Msg::StartHeading)}</h2>
            <p>{t(Msg::StartIntro)}</p>
            <ul class="start-cards">{cards}</ul>
            <p class="start-other">
                <button type="button" data-action="free-play" on:click=move |_| shown.set(false)>
                    {t(Msg::StartFreePlay)}
                </button>
                <button
                    type="button"
                    data-action="open-run-file"
                    on:click=move |_| {
                        shown.set(false);
                        open_run_file();
                    }
                >
                    {t(Msg::StartOpenRunFile)}
                </button>
            </p>
        </section>
    }
}

/// Opens the comparison's module (where run files are exported and imported) with the focus
/// on its import, by the same button its placeholder shows.
fn open_run_file() {
    crate::handover::ask_for_import();
    if let Some(button) = crate::dom::html_element("[data-action=\"open-compare\"]") {
        button.click();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_bare_link_opens_the_start_view() {
        assert!(opens_start_view(""));
        assert!(opens_start_view("?"));
        assert!(!opens_start_view("?scenario=bad-deploy"));
        assert!(!opens_start_view("?seed=7"));
        assert!(!opens_start_view("?embed=1"));
    }
}
