use std::time::Duration;

use leptos::prelude::*;
use oncall_sim::{ModelParams, Scenario, Simulation};

use crate::components::{MetricsTable, RunFacts};
use crate::hooks::use_interval;
use crate::i18n::{scenario_title, Msg};

/// Wall-clock time per simulated minute.
const MINUTE_PERIOD: Duration = Duration::from_secs(1);

/// A running scenario: owns the simulation and steps it one minute per second.
#[component]
pub fn FreePlay(scenario: Scenario, seed: u32) -> impl IntoView {
    let title = scenario_title(scenario.id).unwrap_or(Msg::ScenarioFreePlay);
    let mut simulation = Simulation::new(&scenario, seed, ModelParams::default());
    // The opening minute is shown at once rather than after the first second.
    let (record, set_record) = signal(simulation.step().clone());
    // The simulation is not `Send` (its autoscaler is a trait object) and lives on the page's
    // one thread.
    let simulation = StoredValue::new_local(simulation);

    use_interval(MINUTE_PERIOD, move || {
        if let Some(next) = simulation.try_update_value(|sim| sim.step().clone()) {
            set_record.set(next);
        }
    });

    view! {
        <RunFacts scenario=title seed=seed record=record />
        <MetricsTable record=record />
    }
}
