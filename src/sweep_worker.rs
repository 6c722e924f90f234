//! The Monte Carlo debrief's Web Workers run the extended build (`assets/sweep-worker.js`
//! imports it without a page to mount): each is given the page's link and a slice of the
//! sweep's seeds, and answers with their lines, as `oncall-sim sweep` prints them.

use oncall_sim::autoscale::PolicyId;
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
