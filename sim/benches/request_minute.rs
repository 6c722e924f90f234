//! Time per simulated minute of the request-level engine at the opening load of free play
//! (about 1,125 requests a second, 67,500 a minute, on ten instances of 16 workers), for each
//! load-balancing policy, with and without hedging, beside the formulas.
//!
//! `cargo bench -p oncall-sim --bench request_minute` prints the median and the p95 of the
//! wall time of one `Simulation::step` over 120 minutes of each of 5 seeds. The browser's
//! play runs 60 simulated minutes a second, so a minute must take well under 16 ms there.

use oncall_sim::ids::ScenarioId;
use oncall_sim::params::{EngineKind, Switch};
use oncall_sim::requests::Routing;
use oncall_sim::{ModelParams, Simulation};
use std::hint::black_box;
use std::time::Instant;

const SEEDS: u32 = 5;
const MINUTES: u32 = 120;

/// Median and p95 of the milliseconds per step, and the mean requests per minute.
fn time_steps(params: &ModelParams) -> (f64, f64, f64) {
    let s = oncall_sim::exercise::scenario(ScenarioId::FreePlay);
    let mut times = Vec::new();
    let mut requests = 0.0;
    for seed in 0..SEEDS {
        let mut sim = Simulation::new(&s, seed + 1, params.clone());
        for _ in 0..MINUTES {
            let started = Instant::now();
            let record = sim.step();
            requests += record.requests_per_s * 60.0;
            black_box(record);
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let p95 = times[(n * 95).div_ceil(100) - 1];
    (times[n / 2], p95, requests / n as f64)
}

fn main() {
    println!(
        "{:<10} {:<14} {:<6} {:>12} {:>10} {:>10}",
        "engine", "lb", "hedge", "req/minute", "median_ms", "p95_ms"
    );
    let formulas = ModelParams::default();
    let (median, p95, per_minute) = time_steps(&formulas);
    println!(
        "{:<10} {:<14} {:<6} {per_minute:>12.0} {median:>10.3} {p95:>10.3}",
        "formulas", "-", "-"
    );
    for routing in Routing::ALL {
        for hedge in [Switch::Off, Switch::On] {
            let params = ModelParams {
                engine: Some(EngineKind::Requests),
                lb: Some(*routing),
                hedge: Some(hedge),
                ..ModelParams::default()
            };
            let (median, p95, per_minute) = time_steps(&params);
            println!(
                "{:<10} {:<14} {:<6} {per_minute:>12.0} {median:>10.3} {p95:>10.3}",
                "requests",
                routing.as_str(),
                hedge.as_str()
            );
        }
    }
}
