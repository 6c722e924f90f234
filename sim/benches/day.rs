//! Median time to simulate a day (1,440 minutes) of each scenario.
//!
//! `cargo bench -p oncall-sim --bench day` prints one line per scenario; the target is
//! at most 5 ms per simulated day natively.

use oncall_sim::{scenario, ModelParams, Simulation};
use std::hint::black_box;
use std::time::Instant;

const RUNS: usize = 31;

fn main() {
    println!(
        "{:<14} {:>12} {:>12} {:>12}",
        "scenario", "median_ms", "min_ms", "max_ms"
    );
    for id in scenario::IDS {
        let s = scenario::by_id(id).expect("listed scenario exists");
        let mut times: Vec<f64> = (0..RUNS)
            .map(|run| {
                let started = Instant::now();
                let mut sim = Simulation::new(&s, run as u32, ModelParams::default());
                sim.run(1440);
                black_box(sim.history().last());
                started.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!(
            "{:<14} {:>12.3} {:>12.3} {:>12.3}",
            id,
            times[RUNS / 2],
            times[0],
            times[RUNS - 1]
        );
    }
}
