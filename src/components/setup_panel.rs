use leptos::prelude::*;
use oncall_sim::autoscale::PolicyId;
use oncall_sim::ids::ScenarioId;

use crate::components::extended::{
    custom_heading, custom_option, exercise_text, plays_exercise, setup_extras,
};
use crate::components::run::{use_run, RunHandle};
use crate::embed::EmbedOptions;
use crate::i18n::{policy_name_text, scenario_briefing_text, scenario_title_text, t, tf, Msg};
use crate::seed::random_seed;

/// Reads a seed typed by the user: plain digits, 0–4294967295 (as in a link).
pub fn parse_seed_input(text: &str) -> Option<u32> {
    let text = text.trim();
    if text.is_empty() || text.len() > 10 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The run's set-up: scenario (with its briefing), autoscaler and seed. A new scenario or seed
/// starts a new run; a new autoscaler replays the run's actions under it.
#[component]
pub fn SetupPanel() -> impl IntoView {
    let run = use_run();
    let locks = use_context::<EmbedOptions>().unwrap_or_default().locks;
    view! {
        <section class="panel setup-panel" aria-labelledby="setup-heading">
            <h2 id="setup-heading" class="visually-hidden">
                {t(Msg::SetupHeading)}
            </h2>
            {scenario_field(run, locks.scenario)}
            {briefing(run)}
            {policy_field(run, locks.autoscaler)}
            <crate::components::engine_settings::EngineSettings />
            {seed_form(run, locks.seed)}
            {setup_extras(run, locks.scenario)}
        </section>
    }
}

/// The scenario picker (a new scenario starts a new run).
fn scenario_field(run: RunHandle, locked: bool) -> impl IntoView {
    let scenario_id = move || run.snapshot.with(|s| s.scenario);
    let options = ScenarioId::ALL
        .iter()
        .map(|&id| {
            view! {
                <option
                    value=id.as_str()
                    selected=move || {
                        scenario_id() == id && !plays_exercise(run)
                    }
                >
                    {scenario_title_text(id)}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="field scenario-field">
            <label for="scenario-select">{t(Msg::ScenarioLabel)}</label>
            <select
                id="scenario-select"
                data-field="scenario"
                disabled=locked
                prop:value=move || {
                    if plays_exercise(run) {
                        ""
                    } else {
                        scenario_id().as_str()
                    }
                }
                on:change=move |ev| {
                    if let Ok(id) = event_target_value(&ev).parse() {
                        run.restart_with(Some(id), None);
                    }
                }
            >
                {custom_option(run)}
                {options}
            </select>
        </div>
    }
}

/// The scenario's briefing and the exercise's length.
fn briefing(run: RunHandle) -> impl IntoView {
    let briefing = move || {
        let id = run.snapshot.with(|s| s.scenario);
        exercise_text(run, |e| e.briefing.clone()).unwrap_or_else(|| scenario_briefing_text(id))
    };
    let length = move || {
        run.snapshot.with(|s| match s.length {
            Some(minutes) => tf(Msg::ExerciseLength, &[("minutes", &minutes.to_string())]),
            None => t(Msg::ExerciseEndless).to_owned(),
        })
    };
    view! {
        <div class="briefing" aria-live="polite">
            <h3 class="briefing-heading">{t(Msg::BriefingHeading)}</h3>
            {custom_heading(run)}
            <p data-field="briefing">{briefing} <span class="muted">{length}</span></p>
        </div>
    }
}

/// The autoscaler picker (a new autoscaler replays the run's actions under it).
fn policy_field(run: RunHandle, locked: bool) -> impl IntoView {
    let options = PolicyId::ALL
        .iter()
        .map(|&id| {
            view! {
                <option value=id.as_str() selected=move || run.snapshot.with(|s| s.policy == id)>
                    {policy_name_text(id)}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="field policy-field">
            <label for="policy-select">{t(Msg::AutoscalerLabel)}</label>
            <select
                id="policy-select"
                data-field="autoscaler"
                disabled=locked
                prop:value=move || run.snapshot.with(|s| s.policy.as_str())
                on:change=move |ev| {
                    if let Ok(id) = event_target_value(&ev).parse::<PolicyId>() {
                        run.rerun(|state| state.autoscaler = id);
                    }
                }
            >
                {options}
            </select>
            <p class="muted small policy-note">{t(Msg::PolicyChangeNote)}</p>
        </div>
    }
}

/// The seed: typed (checked) or drawn at random; either starts a new run. Hidden when the
/// link locks it.
fn seed_form(run: RunHandle, locked: bool) -> impl IntoView {
    let seed_text = RwSignal::new(run.snapshot.with_untracked(|s| s.seed.to_string()));
    // A run with another seed shows it; the field is left alone otherwise (the snapshot
    // changes every frame while playing, and would overwrite what is being typed).
    let seed = Memo::new(move |_| run.snapshot.with(|s| s.seed));
    Effect::new(move |_| seed_text.set(seed.get().to_string()));
    let seed_error = RwSignal::new(None::<String>);
    let apply_seed = move || {
        let typed = seed_text.get_untracked();
        match parse_seed_input(&typed) {
            Some(seed) => {
                seed_error.set(None);
                run.restart_with(None, Some(seed));
            }
            None => seed_error.set(Some(tf(Msg::SeedInvalid, &[("value", typed.trim())]))),
        }
    };
    view! {
        <form
            class="field seed-form"
            hidden=locked
            on:submit=move |ev| {
                ev.prevent_default();
                apply_seed();
            }
        >
            <label for="seed-input">{t(Msg::SeedLabel)}</label>
            <div class="seed-row">
                <input
                    id="seed-input"
                    data-field="seed"
                    type="text"
                    inputmode="numeric"
                    autocomplete="off"
                    spellcheck="false"
                    maxlength="10"
                    aria-invalid=move || seed_error.get().is_some().to_string()
                    aria-describedby="seed-error"
                    prop:value=move || seed_text.get()
                    on:input=move |ev| seed_text.set(event_target_value(&ev))
                />
                <button type="submit">{t(Msg::SeedApply)}</button>
                <button
                    type="button"
                    on:click=move |_| {
                        seed_error.set(None);
                        run.restart_with(None, Some(random_seed()));
                    }
                >
                    {t(Msg::SeedRandom)}
                </button>
            </div>
            <p id="seed-error" class="field-error" role="alert">
                {move || seed_error.get()}
            </p>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_seeds_are_digits_in_range() {
        assert_eq!(parse_seed_input(" 42 "), Some(42));
        assert_eq!(parse_seed_input("4294967295"), Some(u32::MAX));
        for bad in ["", "-1", "4294967296", "1e3", "abc", "12345678901", "４２"] {
            assert_eq!(parse_seed_input(bad), None, "{bad}");
        }
    }
}
