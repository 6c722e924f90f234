use leptos::prelude::*;
use oncall_sim::MinuteRecord;

use crate::i18n::{t, Msg};

/// The facts that identify the run and where it is: scenario, seed, time of day, minute.
/// Each value carries `data-field` so tests can read it whatever its label says.
#[component]
pub fn RunFacts(scenario: Msg, seed: u32, record: ReadSignal<MinuteRecord>) -> impl IntoView {
    let clock = move || record.with(|r| r.clock.clone());
    let minute = move || record.with(|r| r.minute);
    view! {
        <dl class="run-facts">
            <div>
                <dt>{t(Msg::ScenarioLabel)}</dt>
                <dd data-field="scenario">{t(scenario)}</dd>
            </div>
            <div>
                <dt>{t(Msg::SeedLabel)}</dt>
                <dd data-field="seed">{seed}</dd>
            </div>
            <div>
                <dt>{t(Msg::ClockLabel)}</dt>
                <dd data-field="clock">{clock}</dd>
            </div>
            <div>
                <dt>{t(Msg::MinuteLabel)}</dt>
                <dd data-field="minute">{minute}</dd>
            </div>
        </dl>
    }
}
