//! Median time to simulate a day (1,440 minutes) of each scenario under the default policy,
//! and of the viral surge under every autoscaling policy.
//!
//! `cargo bench -p oncall-sim --bench day` prints one line per run; the target is at most
//! 5 ms per simulated day natively for the default policy. Then free play's day in one, two
//! and three regions, and the ratio of three to one (the target: at most 3×).
//! `cargo bench -p oncall-sim --bench day -- regions` runs only those.

use oncall_sim::autoscale::PolicyId;
use oncall_sim::autoscale::{self, PolicySettings};
use oncall_sim::ids::ScenarioId;
use oncall_sim::params::EngineKind;
use oncall_sim::{ModelParams, Simulation};
use std::hint::black_box;
use std::time::Instant;

const RUNS: usize = 31;

/// Median, minimum and maximum milliseconds of `RUNS` days made by `make`.
fn time_days(make: impl Fn(u32) -> Simulation) -> (f64, f64, f64) {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|run| {
            let mut sim = make(run as u32);
            let started = Instant::now();
            sim.run(1440);
            black_box(sim.history().last());
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[RUNS / 2], times[0], times[RUNS - 1])
}

/// Free play's day in 1, 2 and 3 regions under the default policy, and the ratio of three
/// regions to one.
fn regions() {
    println!(
        "{:<14} {:>10} {:>10} {:>10}",
        "regions", "median_ms", "min_ms", "max_ms"
    );
    let mut medians = Vec::new();
    // `-- regions N` times N regions only (for instruction counts under `perf stat`).
    let only: Option<u32> = std::env::args()
        .skip_while(|a| a != "regions")
        .nth(1)
        .and_then(|a| a.parse().ok());
    for n in 1..=3u32 {
        if only.is_some_and(|o| o != n) {
            continue;
        }
        let (median, min, max) = time_days(|seed| {
            let mut setup = oncall_sim::setup::RunSetup::new(ScenarioId::FreePlay, seed);
            setup
                .set("regions", &n.to_string())
                .expect("1 to 3 regions are allowed");
            setup.build().expect("defaults build")
        });
        println!("{n:<14} {median:>10.3} {min:>10.3} {max:>10.3}");
        medians.push((median, min));
    }
    if let [one, _, three] = medians[..] {
        println!(
            "ratio 3 regions / 1 region: {:.2} (medians), {:.2} (minimums)",
            three.0 / one.0,
            three.1 / one.1
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "regions") {
        regions();
        return;
    }
    println!(
        "{:<14} {:<16} {:>10} {:>10} {:>10}",
        "scenario", "policy", "median_ms", "min_ms", "max_ms"
    );
    let mut rows: Vec<(ScenarioId, PolicyId)> = Vec::new();
    // The scenarios on the formulas (the request engine has its own bench,
    // `request_minute`).
    for id in ScenarioId::ALL {
        if oncall_sim::exercise::scenario(*id).engine == EngineKind::Formulas {
            rows.push((*id, autoscale::DEFAULT_POLICY));
        }
    }
    for policy in &PolicyId::ALL[1..] {
        rows.push((ScenarioId::ViralSurge, *policy));
    }
    for (id, policy) in rows {
        let s = oncall_sim::exercise::scenario(id);
        let (median, min, max) = time_days(|seed| {
            let params = ModelParams::default();
            let mut sim = Simulation::new(&s, seed, params.clone());
            let built = autoscale::build(policy, &PolicySettings::default(), &params);
            sim.set_autoscaler(built.expect("listed policy builds with its defaults"));
            sim
        });
        let (id, policy) = (id.as_str(), policy.as_str());
        println!("{id:<14} {policy:<16} {median:>10.3} {min:>10.3} {max:>10.3}");
    }
    regions();
}
