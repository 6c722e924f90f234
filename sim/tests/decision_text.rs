//! The English text of the autoscaling policies' decisions, pinned to the byte. A decision's
//! detail is a message rendered by the English catalog; the command line, the JSON output
//! and the golden file show exactly these strings, so a change of a template or of a number
//! format shows up here first.

use oncall_sim::autoscale::cloud_run::{CloudRun, CloudRunParams};
use oncall_sim::autoscale::elastic::config::ElasticConfig;
use oncall_sim::autoscale::elastic::Elastic;
use oncall_sim::autoscale::hpa::{Hpa, HpaParams};
use oncall_sim::autoscale::kpa::{Kpa, KpaParams};
use oncall_sim::autoscale::target_tracking::TargetTracking;
use oncall_sim::autoscale::test_support::obs;
use oncall_sim::autoscale::{Autoscaler, Observation};
use oncall_sim::event::{Event, EventKind};
use oncall_sim::ids::ScenarioId;
use oncall_sim::setup::RunSetup;
use oncall_sim::Action;

/// The details of the scaling decisions of a run under `policy`, with `sets` applied and
/// `actions` scheduled.
fn run_details(
    scenario: ScenarioId,
    seed: u32,
    policy: &str,
    sets: &[(&str, &str)],
    actions: &[&str],
    minutes: u32,
) -> Vec<String> {
    let mut setup = RunSetup::new(scenario, seed);
    setup.set("autoscaler", policy).unwrap();
    for (name, value) in sets {
        setup.set(name, value).unwrap();
    }
    setup.actions = actions
        .iter()
        .map(|a| Action::parse(a, minutes).unwrap())
        .collect();
    let outcome = setup.run(minutes).unwrap();
    outcome
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Scaling { detail, .. } => Some(detail.to_string()),
            _ => None,
        })
        .collect()
}

/// The first detail that contains `needle`.
fn first_with(details: &[String], needle: &str) -> String {
    details
        .iter()
        .find(|d| d.contains(needle))
        .unwrap_or_else(|| panic!("no decision says {needle:?}: {details:#?}"))
        .clone()
}

/// The detail of the decision `policy` takes on `o`.
fn detail(policy: &mut dyn Autoscaler, o: &Observation) -> String {
    policy.decide(o).expect("a decision").detail.to_string()
}

#[test]
fn first_decisions_of_each_policy_in_two_scenarios() {
    let cases: [(&str, ScenarioId, &[&str]); 10] = [
        (
            "target-tracking",
            ScenarioId::ViralSurge,
            &[
                "scale out: ⌈8 × 60.6 % / 60 %⌉ = 9 → 9 instances",
                "scale out: ⌈9 × 66.5 % / 60 %⌉ = 10 → 10 instances",
                "scale out: ⌈10 × 100.0 % / 60 %⌉ = 17 → 17 instances",
            ],
        ),
        (
            "target-tracking",
            ScenarioId::BadDeploy,
            &[
                "scale out: ⌈10 × 61.9 % / 60 %⌉ = 11 → 11 instances",
                "scale out: ⌈11 × 60.1 % / 60 %⌉ = 12 → 12 instances",
                "scale in after 10 quiet minutes: ⌈12 × 52.1 % / 60 %⌉ = 11, at most 20 % of 12 → 11 instances",
            ],
        ),
        (
            "cloud-run",
            ScenarioId::ViralSurge,
            &[
                "scale out, concurrency drives: concurrency max(84.6, 80.4) / 16 / 60 % = 66 % of 8 → ⌈8.81⌉ = 9;  CPU 4.99 CPUs / 60 % = 62 % → holds (in band);  ACT 16: 84.6 / 16 / 60 % = 66 % → ⌈8.81⌉ = 9 → 9",
                "scale out, concurrency drives: concurrency max(95.3, 81.4) / 16 / 60 % = 66 % of 9 → ⌈9.92⌉ = 10;  CPU 5.64 CPUs / 60 % = 63 % → holds (in band);  ACT 16: 95.3 / 16 / 60 % = 66 % → ⌈9.92⌉ = 10 → 10",
                "scale out, concurrency drives: concurrency max(105.8, 83.1) / 16 / 60 % = 66 % of 10 → ⌈11.02⌉ = 12;  CPU 6.29 CPUs / 60 % = 63 % → holds (in band);  ACT 16: 105.8 / 16 / 60 % = 66 % → ⌈11.02⌉ = 12 → 12",
            ],
        ),
        (
            "cloud-run",
            ScenarioId::BadDeploy,
            &[
                "scale in: concurrency max(77.0, 77.0) / 16 / 60 % = 48 % of 10 → ⌈8.02⌉ = 9;  CPU 4.52 CPUs / 60 % = 45 % → ⌈7.54⌉ = 8;  ACT 16: 77.0 / 16 / 60 % = 48 % → ⌈8.02⌉ = 9; the 1 instance no longer recommended ran at 0 % < 10 % for 60 s → 9",
                "scale out, concurrency drives: concurrency max(95.0, 82.9) / 16 / 60 % = 66 % of 9 → ⌈9.90⌉ = 10;  CPU 5.65 CPUs / 60 % = 63 % → holds (in band);  ACT 16: 95.0 / 16 / 60 % = 66 % → ⌈9.90⌉ = 10 → 10",
                "scale out, concurrency drives: concurrency max(105.6, 102.6) / 16 / 60 % = 66 % of 10 → ⌈11.00⌉ = 12;  CPU 6.30 CPUs / 60 % = 63 % → holds (in band);  ACT 16: 105.6 / 16 / 60 % = 66 % → ⌈11.00⌉ = 12 → 12",
            ],
        ),
        (
            "elastic",
            ScenarioId::ViralSurge,
            &[
                // The per-node limit is the node's 16 workers: the trend rule's safe
                // capacity is 16 − rate × 60 s.
                "shrink: healthy for 600 s; trend allows ⌈77 / 15⌉ = 6 nodes, min_nodes 2 → remove 1 (at most 1); drain until its requests finish (≈ 0.34 s) or drain_timeout 60 s",
                "shrink: healthy for 600 s; trend allows ⌈78 / 15⌉ = 6 nodes, min_nodes 2 → remove 1 (at most 1); drain until its requests finish (≈ 0.34 s) or drain_timeout 60 s",
                "shrink: healthy for 660 s; trend allows ⌈77 / 20⌉ = 4 nodes, min_nodes 2 → remove 1 (at most 1); drain until its requests finish (≈ 0.34 s) or drain_timeout 60 s",
            ],
        ),
        (
            "elastic",
            ScenarioId::BadDeploy,
            &[
                // The per-node limit is the node's 16 workers: the trend rule's safe
                // capacity is 16 − rate × 60 s.
                "shrink: healthy for 600 s; trend allows ⌈94 / 11⌉ = 9 nodes, min_nodes 2 → remove 1 (at most 1); drain until its requests finish (≈ 0.41 s) or drain_timeout 60 s",
                "shrink: healthy for 600 s; trend allows ⌈98 / 15⌉ = 7 nodes, min_nodes 2 → remove 1 (at most 1); drain until its requests finish (≈ 0.42 s) or drain_timeout 60 s",
                "shrink: healthy for 660 s; trend allows ⌈97 / 20⌉ = 5 nodes, min_nodes 2 → remove 1 (at most 1); drain until its requests finish (≈ 0.42 s) or drain_timeout 60 s",
            ],
        ),
        (
            "hpa",
            ScenarioId::ViralSurge,
            &[
                "scale up 8 → 10: ⌈8 × 71.0 % / 60 %⌉ = 10",
                "scale up 10 → 12: CPU 87.5 % on 8 ready pods, 2 not ready counted at 0 %: ⌈10 × 1.167⌉ = 12",
                "scale up 12 → 17: CPU 97.5 % on 10 ready pods, 2 not ready counted at 0 %: ⌈12 × 1.354⌉ = 17",
            ],
        ),
        (
            "hpa",
            ScenarioId::BadDeploy,
            &[
                // A new HPA holds the ten it finds for the 300 s window: the first
                // scale-down comes at 5:15.
                "scale down 10 → 9: ⌈10 × 48.0 % / 60 %⌉ = 9",
                "scale up 9 → 11: ⌈9 × 67.3 % / 60 %⌉ = 11",
                "scale down 11 → 10: ⌈11 × 53.0 % / 60 %⌉ = 10",
            ],
        ),
        (
            "kpa",
            ScenarioId::ViralSurge,
            &[
                "stable: concurrency 75.5 over 60 s, 75.5 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈6.739⌉ = 7, panic ⌈6.739⌉ = 7 (88 % of 8 ready, threshold 200 %) → 7",
                "stable: concurrency 78.4 over 60 s, 80.0 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈7.001⌉ = 8, panic ⌈7.146⌉ = 8 (114 % of 7 ready, threshold 200 %) → 8",
                "stable: concurrency 78.3 over 60 s, 78.0 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈6.995⌉ = 7, panic ⌈6.964⌉ = 7 (100 % of 7 ready, threshold 200 %) → 7",
            ],
        ),
        (
            "kpa",
            ScenarioId::BadDeploy,
            &[
                "stable: concurrency 77.0 over 60 s, 77.0 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈6.877⌉ = 7, panic ⌈6.877⌉ = 7 (70 % of 10 ready, threshold 200 %) → 7",
                "stable: concurrency 78.4 over 60 s, 79.2 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈7.002⌉ = 8, panic ⌈7.070⌉ = 8 (114 % of 7 ready, threshold 200 %) → 8",
                "stable: concurrency 78.4 over 60 s, 77.8 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈6.996⌉ = 7, panic ⌈6.947⌉ = 7 (100 % of 7 ready, threshold 200 %) → 7",
            ],
        ),
    ];
    for (policy, scenario, expected) in cases {
        let details = run_details(scenario, 42, policy, &[], &[], 240);
        assert_eq!(
            &details[..expected.len()],
            expected,
            "{policy} in {scenario}"
        );
    }
}

/// The per-node limits of the source's example configuration (the simulator starts from the
/// simulated node's concurrency instead).
const SOURCE_LIMITS: [(&str, &str); 2] = [
    ("elastic.max_requests", "1000"),
    ("elastic.max_connections", "1000"),
];

/// Actions that lower the minimum, the target and the maximum and switch autoscaling off
/// and on push the policies into their rarer sentences.
const SHAKE_UP: &[&str] = &[
    "20:min_instances=1",
    "60:target_utilization=0.3",
    "120:autoscaling=off",
    "130:autoscaling=on",
    "200:min_instances=20",
    "260:min_instances=1",
];

/// Free play with seed 3 (its traffic drifts as the seed draws) under the shake-up.
#[test]
fn rarer_decisions_of_a_shaken_up_run() {
    let run = |policy| {
        run_details(
            ScenarioId::FreePlay,
            3,
            policy,
            &[("max_instances", "12")],
            SHAKE_UP,
            600,
        )
    };
    let kpa = run("kpa");
    assert_eq!(
        first_with(&kpa, "panic (entered)"),
        "panic (entered): concurrency 2165.6 over 60 s, 2165.6 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈193.357⌉ = 194, panic ⌈193.357⌉ = 194 (19400 % of 1 ready, threshold 200 %) → 12"
    );
    assert_eq!(
        first_with(&kpa, "stable (panic ended)"),
        "stable (panic ended): concurrency 81.0 over 60 s, 81.0 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈7.229⌉ = 8, panic ⌈7.229⌉ = 8 (67 % of 12 ready, threshold 200 %) → 8"
    );
    // The elastic scaler with the source's example limits (1000 per node), where its trend
    // rule sizes nodes far beyond what one holds.
    let elastic = run_details(
        ScenarioId::FreePlay,
        3,
        "elastic",
        &[("max_instances", "12"), SOURCE_LIMITS[0], SOURCE_LIMITS[1]],
        SHAKE_UP,
        600,
    );
    assert_eq!(
        first_with(&elastic, "nodes; delay"),
        "trend: active 2166 + 0.0/s × 60 s = 2166 > 2 × 1000 → safe capacity 1000 − 0.0 × 60 s = 1000, ⌈2166 / 1000⌉ = 3 nodes; delay prediction: 2166 in flight / 215 completed per s = 10.07 s ≥ 2 s over 10749 requests → add max(⌈2 × 0.2⌉, 2) = 2; cooling 180 s"
    );
    assert_eq!(
        first_with(&run("cloud-run"), "on-demand"),
        "on-demand: demand λ·S = 1075 × 0.074 s = 80.0 requests > 1 instances × 16 slots → ⌈80.0 / 16⌉ = 5"
    );
    assert_eq!(
        first_with(&run("target-tracking"), "scale in"),
        "scale in after 10 quiet minutes: ⌈10 × 52.3 % / 60 %⌉ = 9, at most 20 % of 10 → 9 instances"
    );
}

#[test]
fn capped_and_limited_decisions() {
    let elastic = run_details(
        ScenarioId::ViralSurge,
        9,
        "elastic",
        &[
            ("elastic.max_nodes", "6"),
            SOURCE_LIMITS[0],
            SOURCE_LIMITS[1],
        ],
        &[],
        600,
    );
    assert_eq!(
        first_with(&elastic, "≤ 0: go to max_nodes"),
        "trend: active 2659 + 42.6/s × 60 s = 5218 > 5 × 1000 → safe capacity 1000 − 42.6 × 60 s = -1559 ≤ 0: go to max_nodes 6; delay prediction: 2659 in flight / 1205 completed per s = 2.21 s ≥ 2 s over 74390 requests → add max(⌈5 × 0.2⌉, 2) = 2; capped at max_nodes 6; cooling 180 s"
    );
    assert_eq!(
        first_with(&elastic, "p95:"),
        "p95: 22.5 % of 63706 requests over 500 ms for 30 s ≥ 30 s → add max(⌈5 × 0.2⌉, 2) = 2; capped at max_nodes 6; cooling 180 s"
    );
    let hpa = run_details(
        ScenarioId::ViralSurge,
        9,
        "hpa",
        &[
            ("hpa.scale_up_percent", "10"),
            ("hpa.scale_up_pods", "1"),
            ("hpa.scale_down_percent", "10"),
        ],
        &[],
        600,
    );
    assert_eq!(
        first_with(&hpa, "not ready counted at 0 %: ⌈"),
        "scale up 9 → 10: CPU 76.1 % on 8 ready pods, 1 not ready counted at 0 %: ⌈9 × 1.127⌉ = 11; limited to max(9 × 110 %, 9 + 1) = 10 per 15 s"
    );
    assert_eq!(
        first_with(&hpa, "the highest recommendation"),
        "scale down 17 → 16: ⌈17 × 51.2 % / 60 %⌉ = 15; held at 16, the highest recommendation of the last 300 s"
    );
}

#[test]
fn decisions_taken_on_single_observations() {
    // Target tracking: out by the ratio, in by at most a fifth after ten quiet minutes.
    let mut tt = TargetTracking::new(10, 0.2);
    let mut o = obs(0.0, 60.0, 10, 0, 0.9 * 160.0);
    (o.min_instances, o.max_instances) = (2, 40);
    assert_eq!(
        detail(&mut tt, &o),
        "scale out: ⌈10 × 90.0 % / 60 %⌉ = 15 → 15 instances"
    );
    let mut o = obs(0.0, 60.0, 20, 0, 0.1 * 320.0);
    (o.min_instances, o.max_instances) = (2, 40);
    for _ in 0..9 {
        assert!(tt.decide(&o).is_none());
    }
    assert_eq!(detail(&mut tt, &o), "scale in after 10 quiet minutes: ⌈20 × 10.0 % / 60 %⌉ = 4, at most 20 % of 20 → 16 instances");

    // Cloud Run: on demand up to the maximum, then the pending queue and 429.
    let mut cr = CloudRun::new(CloudRunParams::default());
    let mut o = obs(1.0, 1.0, 8, 0, 128.0);
    o.arrival_rate = 6000.0;
    o.max_instances = 12;
    assert_eq!(detail(&mut cr, &o), "on-demand: demand λ·S = 6000 × 0.050 s = 300.0 requests > 8 instances × 16 slots → ⌈300.0 / 16⌉ = 19, capped at the maximum 12: requests wait up to max(10 s, 3.5 × 60 s) = 210 s for a slot, then 429 (36.0 % of them; the 2 s request timeout ends them first)");
    // The three drivers.
    let mut cr = CloudRun::new(CloudRunParams::default());
    assert_eq!(detail(&mut cr, &obs(1.0, 1.0, 10, 0, 144.0)), "scale out, concurrency drives: concurrency max(144.0, 144.0) / 16 / 60 % = 90 % of 10 → ⌈15.00⌉ = 15;  CPU 9.00 CPUs / 60 % = 90 % → ⌈15.00⌉ = 15;  ACT 16: 144.0 / 16 / 60 % = 90 % → ⌈15.00⌉ = 15 → 15");
    // A short burst every 30 s keeps the spare instances above 10 %: the idle timeout
    // removes them after 15 minutes.
    let mut cr = CloudRun::new(CloudRunParams::default());
    let mut idle = None;
    for s in 1..=1200 {
        let busy = if s % 30 == 0 { 40.0 } else { 0.0 };
        if let Some(d) = cr.decide(&obs(f64::from(s), 1.0, 10, 0, busy)) {
            idle = Some((s, d.detail.to_string()));
            break;
        }
    }
    assert_eq!(
        idle,
        Some((
            900,
            "scale in: concurrency max(1.3, 1.3) / 16 / 60 % = 1 % of 10 → ⌈0.14⌉ = 1;  CPU 0.08 CPUs / 60 % = 1 % → ⌈0.14⌉ = 1;  ACT 16: 1.3 / 16 / 60 % = 1 % → ⌈0.14⌉ = 1; the 9 instances no longer recommended reached the 15-minute idle timeout → 1".to_string()
        ))
    );
    // Above the maximum.
    let mut cr = CloudRun::new(CloudRunParams::default());
    let mut o = obs(1.0, 1.0, 10, 0, 96.0);
    o.max_instances = 8;
    assert_eq!(detail(&mut cr, &o), "10 instances exceed the maximum 8");

    // HPA: not-ready pods hold the scale-up, the minimum still applies.
    let mut hpa = Hpa::new(HpaParams::default());
    let mut o = obs(15.0, 15.0, 8, 6, 115.2);
    o.min_instances = 20;
    assert_eq!(detail(&mut hpa, &o), "scale up 14 → 20: CPU 90.0 % on 8 ready pods, 6 not ready counted at 0 %: 51.4 % / 60 % = 0.857, no scale-up");
    // The stabilization window holds the replicas, the maximum lowers them.
    let mut hpa = Hpa::new(HpaParams::default());
    assert!(hpa.decide(&obs(15.0, 15.0, 10, 0, 96.0)).is_none());
    let mut o = obs(30.0, 15.0, 10, 0, 32.0);
    o.max_instances = 8;
    assert_eq!(
        detail(&mut hpa, &o),
        "scale down 10 → 8: ⌈10 × 20.0 % / 60 %⌉ = 4; held at 10 by the 300 s stabilization window"
    );
    // The scale-down policy limits the step.
    let mut hpa = Hpa::new(HpaParams {
        scale_down_stabilization_s: 0,
        scale_down_percent: 10.0,
        ..HpaParams::default()
    });
    assert_eq!(
        detail(&mut hpa, &obs(15.0, 15.0, 10, 0, 32.0)),
        "scale down 10 → 9: ⌈10 × 20.0 % / 60 %⌉ = 4; limited to 9: at most 10 % per 15 s"
    );
    // The scale-up policies limit the step.
    let mut hpa = Hpa::new(HpaParams::default());
    let mut o = obs(15.0, 15.0, 2, 0, 32.0);
    o.target_utilization = 0.1;
    assert_eq!(
        detail(&mut hpa, &o),
        "scale up 2 → 6: ⌈2 × 100.0 % / 10 %⌉ = 20; limited to max(2 × 200 %, 2 + 4) = 6 per 15 s"
    );
    // Within the tolerance, the minimum still applies.
    let mut hpa = Hpa::new(HpaParams::default());
    let mut o = obs(15.0, 15.0, 10, 0, 100.0);
    o.min_instances = 12;
    assert_eq!(
        detail(&mut hpa, &o),
        "scale up 10 → 12: CPU 62.5 % / target 60 % = 1.042, within the tolerance 0.1"
    );

    // KPA: the last pod stays for the grace period.
    let mut kpa = Kpa::new(KpaParams::default());
    let mut o = obs(2.0, 2.0, 1, 1, 0.0);
    o.in_service = 0.0;
    assert_eq!(detail(&mut kpa, &o), "stable: concurrency 0.0 over 60 s, 0.0 over 6 s; target 16 × 70 % = 11.2 per pod → stable ⌈0.000⌉ = 0, panic ⌈0.000⌉ = 0 (0 % of 1 ready, threshold 200 %) → 1; the last pod stays for the 30 s scale-to-zero grace period");

    // Elastic: the node bounds.
    let mut el = Elastic::new(ElasticConfig::default());
    assert_eq!(
        detail(&mut el, &obs(10.0, 10.0, 1, 0, 5.0)),
        "1 nodes < min_nodes 2: scale up at once"
    );
    let mut el = Elastic::new(ElasticConfig::default());
    assert_eq!(
        detail(&mut el, &obs(10.0, 10.0, 30, 0, 5.0)),
        "30 nodes > max_nodes 20"
    );
}

#[test]
fn the_json_output_carries_the_english_text() {
    let mut tt = TargetTracking::new(10, 0.2);
    let mut o = obs(0.0, 60.0, 10, 0, 0.9 * 160.0);
    (o.min_instances, o.max_instances) = (2, 40);
    let decision = tt.decide(&o).unwrap();
    let event = Event {
        minute: 1,
        clock: oncall_sim::time::Clock::of_minutes(12 * 60 + 1),
        second: None,
        region: None,
        kind: EventKind::Scaling {
            policy: oncall_sim::autoscale::PolicyId::TargetTracking,
            driver: decision.driver,
            from: 10,
            to: decision.desired,
            detail: decision.detail,
        },
    };
    assert_eq!(
        serde_json::to_string(&event).unwrap(),
        r#"{"minute":1,"clock":"12:01","event":"scaling","policy":"target-tracking","driver":"utilization","from":10,"to":15,"detail":"scale out: ⌈10 × 90.0 % / 60 %⌉ = 15 → 15 instances"}"#
    );
}
