//! The Web Workers of the comparison's module run the extended build
//! (`assets/sweep-worker.js` imports it without a page to mount). The Monte Carlo debrief gives
//! each the page's link and a slice of the sweep's seeds, and takes back their lines, as
//! `oncall-sim sweep` prints them; the export replays the page's run into its files, and the
//! import reads a run file into the link that replays it.

use oncall_sim::autoscale::PolicyId;
use oncall_sim::run_file;
use oncall_sim::sweep::SweepPlan;
use wasm_bindgen::prelude::wasm_bindgen;

/// The lines (JSON, one per strategy and seed) of the seeds at indices `from..to` of a sweep
/// of `seeds` seeds over the run of the link (query string `search`, fragment `fragment`):
/// its actions, doing nothing, the textbook response and every policy left alone, for the
/// exercise's length ([`oncall_sim::setup::RunSetup::length`]). An error says why in words.
#[wasm_bindgen]
pub fn sweep_seeds(
    search: &str,
    fragment: &str,
    seeds: u32,
    from: u32,
    to: u32,
) -> Result<String, String> {
    let link = crate::link::read_link_in(search, fragment);
    let setup = link.state.setup(link.state.seed.unwrap_or_default());
    let minutes = setup.length();
    let refused = |e: oncall_sim::ParamError| crate::i18n::core_text(&e.message());
    let plan = SweepPlan::new(setup, minutes, seeds, PolicyId::ALL.to_vec()).map_err(refused)?;
    let mut out = String::new();
    for line in plan.run(from.min(seeds)..to.min(seeds)).map_err(refused)? {
        out.push_str(&line.to_json());
        out.push('\n');
    }
    Ok(out)
}

/// Speaks the page's language (its tag and catalog's text), for the texts of the event log's
/// export and of errors.
#[wasm_bindgen]
pub fn speak(tag: &str, catalog: &str) {
    crate::i18n::loaded::install(tag, catalog);
}

/// The files of the run of the link (query string `search`, fragment `fragment`), replayed
/// to the link's minute: the run file (JSON), the minute records as CSV and as JSON lines
/// (what `oncall-sim run --format csv` and `oncall-sim run` print), and the event log as CSV
/// in the page's language. An error says why in words.
#[wasm_bindgen]
pub fn export_run(search: &str, fragment: &str) -> Result<Vec<String>, String> {
    let link = crate::link::read_link_in(search, fragment);
    let seed = link.state.seed.unwrap_or_default();
    let mut sim = link
        .state
        .simulation(seed)
        .map_err(|e| crate::i18n::core_text(&e.message()))?;
    for _ in 0..link.state.minute.unwrap_or(0) {
        sim.step();
    }
    let records = sim.history();
    let clock = |m: u32| sim.clock_at(m).to_string();
    let events = run_file::events_csv(sim.events(), |e| crate::event_text::describe(e, &clock).1);
    Ok(vec![
        run_file::write(&link.state, seed, records),
        run_file::records_csv(records),
        run_file::records_json_lines(records),
        events,
    ])
}

/// The link (query string and fragment, `?…#…`) that replays the run of run file `text` (at
/// most [`run_file::MAX_BYTES`]: the panel checks before it sends), or
/// why the file cannot be read (its line, column and field, in words). The settings and
/// actions are not checked here: the page reads them as it reads any link, with a notice for
/// each that is not allowed.
#[wasm_bindgen]
pub fn import_run(text: &str) -> Result<String, String> {
    let read = run_file::read(text).map_err(|e| crate::link::exercise_error_text(&e))?;
    let mut link = crate::link::encode_query(&read.pairs);
    if let Some(exercise) = &read.exercise {
        let fragment = oncall_sim::exercise::link::fragment(exercise)
            .map_err(|m| crate::i18n::core_text(&m))?;
        link.push_str(&fragment);
    }
    Ok(link)
}
