//! What hedging buys and costs on the slow-instance scenario: the p99 and timeouts of the
//! minutes the instance is slow, with hedging off and on, and the hedges sent, won, cancelled
//! and duplicated over the run.
//!
//! `cargo run --release -p oncall-sim --example slow_instance_hedging [SEED]`

use oncall_sim::ids::ScenarioId;
use oncall_sim::scenario::Scripted;
use oncall_sim::setup::RunSetup;

fn main() {
    let seed: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for hedge in ["off", "on"] {
        let mut setup = RunSetup::new(ScenarioId::SlowInstance, seed);
        setup.set("hedge", hedge).expect("a valid switch");
        let mut sim = setup.build().expect("the scenario's defaults build");
        let (from, to) = sim
            .script()
            .iter()
            .find_map(|s| match *s {
                Scripted::SlowInstance {
                    minute, minutes, ..
                } => Some((minute, minute + minutes)),
                _ => None,
            })
            .expect("the scenario has a slow instance");
        let (mut arrivals, mut served, mut sent, mut won, mut cancelled, mut duplicates) =
            (0, 0, 0, 0, 0, 0);
        let (mut p99s, mut timeouts, mut busy) = (Vec::new(), 0.0, 0.0);
        for _ in 0..to + 5 {
            let minute = sim.minute();
            let record = sim.step().clone();
            let m = sim.last_requests().expect("request mode");
            if minute > from && minute < to {
                p99s.push(m.p99_s);
                timeouts += record.timeout_share;
                busy += record.utilization;
                arrivals += m.arrivals;
                served += m.served;
                sent += m.hedges.sent;
                won += m.hedges.won;
                cancelled += m.hedges.cancelled;
                duplicates += m.hedges.duplicates;
            }
        }
        let n = p99s.len() as f64;
        p99s.sort_by(f64::total_cmp);
        println!(
            "seed {seed}, hedge={hedge}, minutes {}–{} (slow): median p99 {:.0} ms, timeouts {:.2} %, utilization {:.3}, requests {arrivals}, served {served}, hedges sent {sent} ({:.2} % of requests), won {won}, cancelled {cancelled}, duplicates {duplicates} ({:.2} % extra work)",
            from + 1,
            to - 1,
            p99s[p99s.len() / 2] * 1000.0,
            100.0 * timeouts / n,
            busy / n,
            100.0 * sent as f64 / arrivals.max(1) as f64,
            100.0 * duplicates as f64 / served.max(1) as f64,
        );
    }
}
