//! The relations with live values give the number of the row they explain, minute by minute:
//! a cache flush (with load shed and the fleet saturated) and a viral surge.

use oncall_sim::catalog::{render, EN};
use oncall_sim::live::{live, relation_of_field};
use oncall_sim::message::Arg;
use oncall_sim::relations::RelationId;
use oncall_sim::{scenario, Action, ModelParams, Simulation};

fn num(m: &oncall_sim::message::Message, name: &str) -> f64 {
    match m.arg(name) {
        Some(Arg::Num(x)) => *x,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn the_utilization_row_is_the_relation_with_its_values() {
    assert_eq!(
        relation_of_field("utilization"),
        Some(RelationId::Utilization)
    );
    assert_eq!(relation_of_field("cost_so_far"), None);
    for (id, seed, actions) in [
        ("cache-flush", 7, vec!["20:shed_low_priority=0.5"]),
        ("viral-surge", 11, vec![]),
    ] {
        let s = scenario::by_id(id).unwrap();
        let params = ModelParams::default();
        let mut sim = Simulation::new(&s, seed, params.clone());
        sim.schedule(actions.iter().map(|a| Action::parse(a, 1000).unwrap()));
        sim.run(120);
        let mut saturated = 0;
        for r in sim.history() {
            let m = live(RelationId::Utilization, r, &params).expect("a fleet serves");
            // Recomputed from the record's fields, the row's value comes back to within 1e-9
            // (about 1e-11 was seen), far below the one decimal the page shows.
            let busy = num(&m, "busy") / 100.0;
            assert!(
                (busy - r.utilization).abs() < 1e-9,
                "{id} minute {}: {busy} vs {}",
                r.minute,
                r.utilization
            );
            // The substituted values multiply out to ρ.
            let servers = match m.arg("servers") {
                Some(Arg::Int(n)) => *n as f64,
                other => panic!("{other:?}"),
            };
            let rho = num(&m, "lambda") * num(&m, "service") / servers;
            assert!((rho - num(&m, "rho")).abs() < 1e-12);
            saturated += usize::from(num(&m, "rho") > 1.0);
        }
        if id == "cache-flush" {
            assert!(saturated > 0, "the flush saturates the fleet");
        }
    }
}

#[test]
fn the_live_text_shows_the_values_and_the_result() {
    let s = scenario::by_id("bad-deploy").unwrap();
    let params = ModelParams::default();
    let mut sim = Simulation::new(&s, 7, params.clone());
    sim.run(5);
    let r = sim.history().last().unwrap();
    let text = render(&live(RelationId::Utilization, r, &params).unwrap(), EN);
    assert!(text.starts_with("Now: ρ = λ·S / N = "), "{text}");
    assert!(
        text.contains(&format!("/ {} workers", r.serving * params.workers())),
        "{text}"
    );
    assert!(
        text.ends_with(&format!(
            "busy workers min(ρ, 1) = {:.1} %",
            100.0 * r.utilization
        )),
        "{text}"
    );
}

#[test]
fn a_relation_has_live_values_exactly_when_it_says_so() {
    let s = scenario::by_id("bad-deploy").unwrap();
    let params = ModelParams::default();
    let mut sim = Simulation::new(&s, 7, params.clone());
    sim.run(3);
    let r = sim.history().last().unwrap();
    for id in RelationId::ALL {
        assert_eq!(
            oncall_sim::live::has_live(*id),
            live(*id, r, &params).is_some(),
            "{id:?}"
        );
    }
}
