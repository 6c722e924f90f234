use leptos::prelude::*;
use oncall_sim::scenario;

use crate::components::{FreePlay, Notice};
use crate::i18n::{t, tf, Msg};
use crate::seed::{choose_seed, parse_seed, random_seed, SEED_PARAM};
use crate::url_state::{query_param, replace_query_param};

/// The id of the scenario the page runs for now.
const SCENARIO_ID: &str = "free-play";

/// The whole page: reads the link, reports what was wrong with it, runs free play.
#[component]
pub fn App() -> impl IntoView {
    let choice = choose_seed(parse_seed(query_param(SEED_PARAM).as_deref()), random_seed);
    // The link always names the seed in use, so copying it reproduces this run. Failing to
    // rewrite it (no history API) changes nothing else, so the error is not fatal.
    let _ = replace_query_param(SEED_PARAM, &choice.seed.to_string());

    let mut notices = Vec::new();
    if choice.rejected.is_some() {
        notices.push(tf(
            Msg::InvalidUrlParam,
            &[
                ("param", SEED_PARAM),
                ("allowed", t(Msg::SeedAllowed)),
                ("fallback", t(Msg::SeedFallbackRandom)),
            ],
        ));
    }

    let run = match scenario::by_id(SCENARIO_ID) {
        Some(free_play) => view! { <FreePlay scenario=free_play seed=choice.seed /> }.into_any(),
        None => view! { <Notice text=t(Msg::ScenarioMissing).to_owned() /> }.into_any(),
    };

    view! {
        <main class="console">
            <header class="console-header">
                <div>
                    <h1>{t(Msg::AppTitle)}</h1>
                    <p class="tagline">{t(Msg::AppTagline)}</p>
                </div>
            </header>
            {notices.into_iter().map(|text| view! { <Notice text=text /> }).collect_view()}
            {run}
            <p class="assumptions">{t(Msg::AssumptionsNote)}</p>
        </main>
    }
}
