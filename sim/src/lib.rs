//! Simulation core of the on-call simulator.
//!
//! A web service (load balancer, autoscaled fleet, TTL cache, database, 99.9 % SLO) simulated
//! minute by minute from textbook formulas. Pure Rust with no web dependencies: the same
//! (scenario, seed, parameters, actions) give bit-identical results natively and in
//! WebAssembly. Transcendental functions come from `libm` so that no platform math library
//! can change a result.
//!
//! ```
//! use oncall_sim::{exercise, ModelParams, Simulation};
//! let free_play = exercise::scenario_by_id("free-play").unwrap();
//! let mut sim = Simulation::new(&free_play, 42, ModelParams::default());
//! let first = sim.step();
//! assert_eq!(first.serving, 10);
//! ```

// `!(x > 0.0)` is used on purpose: it also rejects NaN, which `x <= 0.0` would let through.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
// Without the extended models (request engine, routed formulas, regions) their code stays in
// place but is never reached.
#![cfg_attr(not(feature = "extended"), allow(dead_code, unused_imports))]

pub mod action;
pub mod autoscale;
pub mod balance;
pub mod budget;
pub mod cache;
pub mod catalog;
pub mod coach;
pub mod compare;
pub mod database;
pub mod decimal;
pub mod engine;
pub mod event;
pub mod exercise;
#[cfg(feature = "extended")]
pub mod fault_action;
pub mod fleet;
pub mod grade;
pub mod health;
pub mod ids;
pub mod json;
pub mod live;
pub mod message;
pub mod outlier;
pub mod par;
pub mod params;
pub mod postmortem;
pub mod queueing;
pub mod record;
pub mod region_action;
pub mod region_codes;
pub mod regions;
pub mod relations;
pub mod requests;
pub mod rng;
pub mod run_file;
pub mod scenario;
pub mod setup;
pub mod share;
pub mod sim;
pub mod summary;
pub mod sweep;
pub mod time;
pub mod traffic;
pub mod world;

pub use action::{Action, ActionError, ActionKind, Settings};
pub use event::{Event, EventKind};
pub use params::{ModelParams, ParamError};
pub use record::MinuteRecord;
pub use rng::Mulberry32;
pub use scenario::Scenario;
pub use sim::Simulation;
pub use summary::RunSummary;

/// Runs `scenario` for `minutes` and returns the output as JSON lines: one record per minute,
/// each followed by the events of that minute (lines with an `event` field).
pub fn run_jsonl(
    scenario: &Scenario,
    seed: u32,
    params: ModelParams,
    actions: &[Action],
    minutes: u32,
) -> String {
    let mut sim = Simulation::new(scenario, seed, params);
    sim.schedule(actions.iter().cloned());
    let mut out = String::new();
    let mut seen = 0;
    for _ in 0..minutes {
        let line = serde_json::to_string(sim.step()).unwrap_or_default();
        out.push_str(&line);
        out.push('\n');
        for e in &sim.events()[seen..] {
            out.push_str(&serde_json::to_string(e).unwrap_or_default());
            out.push('\n');
        }
        seen = sim.events().len();
    }
    out
}
