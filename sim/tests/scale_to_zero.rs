//! Scale to zero and back, without a scenario's script: traffic falls to nothing for two
//! hours (a night with no users), then returns. Under Cloud Run and the Knative KPA, with a
//! minimum of 0, the fleet goes to zero after the policy's idle rule and comes back when
//! requests arrive; the requests that arrive while the first instance starts wait for it
//! and, past the request timeout, fail. Under the other policies a minimum of 0 is refused.

use oncall_sim::autoscale::{self, PolicyId, PolicySettings};
use oncall_sim::ids::ScenarioId;
use oncall_sim::scenario::{Inject, Scenario, SurgeDraw};
use oncall_sim::{Action, EventKind, MinuteRecord, ModelParams, Simulation};

/// Free play whose traffic ramps down to zero from minute 60 over 5 minutes, stays at zero
/// for 120 minutes, then comes back within minutes; with free play's drift of the seed or
/// without it (this night's traffic alone).
fn quiet_night(drift: bool) -> Scenario {
    let mut s = oncall_sim::exercise::scenario(ScenarioId::FreePlay);
    s.timeline.push(Inject::TrafficSurge(SurgeDraw {
        start_min: (60.0, 60.0),
        peak: (0.0, 0.0),
        ramp_min: (5.0, 5.0),
        hold_min: (120.0, 120.0),
        decay_min: 3.0,
    }));
    s.minutes = Some(300);
    if !drift {
        s.timeline.retain(|i| !matches!(i, Inject::TrafficDrift(_)));
    }
    s
}

fn run(policy: PolicyId, actions: &[&str]) -> Simulation {
    run_night(policy, actions, false)
}

fn run_night(policy: PolicyId, actions: &[&str], drift: bool) -> Simulation {
    let params = ModelParams::default();
    let mut sim = Simulation::new(&quiet_night(drift), 5, params.clone());
    sim.set_autoscaler(autoscale::build(policy, &PolicySettings::default(), &params).unwrap());
    sim.schedule(actions.iter().map(|a| Action::parse(a, 300).unwrap()));
    sim.run(300);
    sim
}

fn live(r: &MinuteRecord) -> u32 {
    r.serving + r.booting
}

#[test]
fn cloud_run_and_the_kpa_scale_to_zero_at_night_and_back_on_the_first_request() {
    for policy in [PolicyId::CloudRun, PolicyId::Kpa] {
        scales_to_zero_and_back(policy, &run(policy, &["0:min_instances=0"]));
    }
}

/// With the seed's drift the morning comes back at about 900 req/s, a demand of five
/// instances or more whose cold start takes two minutes. The instances still starting are
/// not idle: they stay until they serve, and the requests held for them count as demand.
#[test]
fn with_the_drift_the_fleet_comes_back_while_the_first_instances_still_start() {
    for policy in [PolicyId::CloudRun, PolicyId::Kpa] {
        let sim = run_night(policy, &["0:min_instances=0"], true);
        scales_to_zero_and_back(policy, &sim);
        let h = sim.history();
        // The instances started for the morning are not stopped while they boot: none
        // stops before the first of them serves.
        let stopped: Vec<_> = sim
            .events()
            .iter()
            .filter(|e| e.minute >= 185)
            .take_while(|e| !matches!(e.kind, EventKind::InstancesServing { .. }))
            .filter(|e| matches!(e.kind, EventKind::InstancesStopped { .. }))
            .collect();
        assert!(stopped.is_empty(), "{policy}: {stopped:?}");
        // The traffic of that morning, served by minute 200.
        let peak = h[195..]
            .iter()
            .map(|r| r.requests_per_s)
            .fold(0.0, f64::max);
        assert!(peak > 800.0, "{policy}: {peak}");
        assert!(h[200..].iter().all(|r| r.error_rate < 0.001), "{policy}");
    }
}

fn scales_to_zero_and_back(policy: PolicyId, sim: &Simulation) {
    let h = sim.history();
    assert_eq!(sim.settings().min_instances, 0, "{policy}");
    // Traffic is zero from minute 65 to 185.
    assert!(h[70..185].iter().all(|r| r.requests_per_s == 0.0));
    // The fleet is gone well before the night ends, and stays gone while nobody comes.
    let zero_from = h
        .iter()
        .position(|r| r.minute >= 60 && live(r) == 0)
        .unwrap_or_else(|| panic!("{policy}: never scaled to zero"));
    assert!(zero_from < 100, "{policy}: zero only at minute {zero_from}");
    assert!(h[zero_from..185].iter().all(|r| live(r) == 0), "{policy}");
    // Requests return at minute 185; an instance starts in that minute.
    let back = h[185..]
        .iter()
        .position(|r| r.requests_per_s > 0.0)
        .unwrap()
        + 185;
    assert!(live(&h[back]) >= 1, "{policy}: nothing started at {back}");
    // The scenario's instances boot in minutes, longer than the 2 s timeout: the early
    // requests of the cold start fail, and the served ones show the wait in the p99.
    let cold = &h[back];
    assert!(cold.error_rate > 0.5, "{policy}: {cold:?}");
    // Among the requests served in the first minutes, the slowest 1 % waited for the
    // instance: a p99 of over a second, where a warm fleet answers in about 0.35 s.
    let waited = h[back..back + 5]
        .iter()
        .find(|r| r.error_rate < 1.0 && r.p99_ms > 1000.0);
    assert!(waited.is_some(), "{policy}: {:?}", &h[back..back + 5]);
    // Once serving, the fleet carries the traffic again.
    let later = &h[back + 10..];
    assert!(later.iter().all(|r| r.serving >= 1), "{policy}");
    let last = h.last().unwrap();
    assert!(last.error_rate < 0.001, "{policy}: {last:?}");
}

#[test]
fn with_a_minimum_of_one_the_last_instance_stays() {
    for policy in [PolicyId::CloudRun, PolicyId::Kpa] {
        let sim = run(policy, &["0:min_instances=1"]);
        assert!(
            sim.history()[70..185].iter().all(|r| live(r) >= 1),
            "{policy}"
        );
    }
}

#[test]
fn other_policies_refuse_a_minimum_of_zero_with_a_notice() {
    for policy in [PolicyId::TargetTracking, PolicyId::Hpa, PolicyId::Elastic] {
        let sim = run(policy, &["0:min_instances=0"]);
        // The minimum stays what it was, and the log says why.
        assert_eq!(sim.settings().min_instances, 2, "{policy}");
        let refused = sim
            .events()
            .iter()
            .find_map(|e| match &e.kind {
                EventKind::ActionRefused { reason, .. } => Some(reason.to_string()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{policy}: no notice"));
        assert!(
            refused.contains("cloud-run or kpa") && refused.contains(policy.as_str()),
            "{refused}"
        );
        assert!(sim.history().iter().all(|r| live(r) >= 1), "{policy}");
        assert_eq!(autoscale::lowest_minimum(policy), 1);
    }
    assert_eq!(autoscale::lowest_minimum(PolicyId::CloudRun), 0);
    assert_eq!(autoscale::lowest_minimum(PolicyId::Kpa), 0);
}
