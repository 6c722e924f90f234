//! Policies at their edges in whole runs: a new Kubernetes HPA holds the fleet it finds for
//! its scale-down stabilization window; elastic nodes boot in the elastic configuration's
//! cold-start time, whatever the scenario's boot delay.

use oncall_sim::autoscale::{self, PolicyId, PolicySettings};
use oncall_sim::ids::ScenarioId;
use oncall_sim::scenario;
use oncall_sim::{ModelParams, Simulation};

#[test]
fn a_new_hpa_holds_an_oversized_fleet_for_300_s_then_scales_down() {
    // Free play at noon needs about ten instances; this fleet has forty.
    let mut s = scenario::get(ScenarioId::FreePlay);
    s.instances = 40;
    let params = ModelParams::default();
    let mut sim = Simulation::new(&s, 7, params.clone());
    sim.set_autoscaler(
        autoscale::build(PolicyId::Hpa, &PolicySettings::default(), &params).unwrap(),
    );
    sim.run(10);
    let live: Vec<u32> = sim
        .history()
        .iter()
        .map(|r| r.serving + r.booting)
        .collect();
    // The first sync (15 s) records 40 and the window keeps it for 300 s: minutes 0 to 4
    // keep the forty, the scale-down comes at the sync of 315 s, in minute 5.
    assert!(live[..5].iter().all(|&n| n == 40), "{live:?}");
    assert!(live[5] < 40, "no scale-down after the window: {live:?}");
    assert!(live[9] <= 15, "{live:?}");
}
