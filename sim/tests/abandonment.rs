//! Timeouts as abandonment (M/M/N+D) against its limits and against a simulation of the same
//! queue written out here: Poisson arrivals, N workers, exponential service, first come first
//! served, and every request leaving once it has waited the timeout.

use oncall_sim::queueing::{self, SojournTail};
use proptest::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

fn relative(got: f64, want: f64) -> f64 {
    (got - want).abs() / want.abs()
}

#[test]
fn a_long_timeout_is_erlang_c() {
    // Below saturation, with a timeout nobody reaches, M/M/N+D is M/M/N.
    for (n, lambda, s) in [(10u32, 8.0, 1.0), (160, 850.0, 0.178), (3, 2.0, 1.0)] {
        let q = queueing::solve(lambda, s, n, 1e4);
        let c = queueing::erlang_c(lambda * s, n);
        let theta = queueing::drain_rate(n, s, lambda);
        assert!(relative(q.p_wait, c) < 1e-12, "{n}: {} vs {c}", q.p_wait);
        assert!(q.timeout_share < 1e-300);
        assert!(relative(q.mean_wait_s, c / theta) < 1e-9);
        let p99 = queueing::sojourn_p99_exact(c, s, n, lambda).unwrap();
        assert!(relative(q.p99_s, p99) < 1e-9, "{} vs {p99}", q.p99_s);
        // The wait's tail is C·e^(−θt).
        let t = 0.3 * c / theta;
        let tail = queueing::waiting_tail(c, theta, t);
        assert!(relative(q.tail.wait_over(t), tail) < 1e-9);
    }
    // M/M/3 at a = 2 by hand: C = 4/9.
    let q = queueing::solve(2.0, 1.0, 3, 1e3);
    assert!((q.p_wait - 4.0 / 9.0).abs() < 1e-12);
}

#[test]
fn no_patience_is_erlang_b() {
    // With a zero timeout whoever finds every worker busy leaves at once: Erlang's loss
    // system, at any load.
    for (n, a) in [(10u32, 5.0), (10, 10.0), (5, 2.0), (160, 200.0), (1, 3.0)] {
        let q = queueing::solve(a, 1.0, n, 0.0);
        let b = queueing::erlang_b(a, n);
        assert!(relative(q.timeout_share, b) < 1e-12, "{n}, {a}");
        assert!(relative(q.p_wait, b) < 1e-12);
        assert_eq!(q.mean_wait_s, 0.0);
        // Served requests never waited: the service time's own p99.
        assert!(relative(q.p99_s, 100f64.ln()) < 1e-12);
    }
    // ITU table value: 10 trunks, 5 Erlangs → 1.838 % lost.
    assert!((queueing::solve(5.0, 1.0, 10, 0.0).timeout_share - 0.018_38).abs() < 5e-5);
}

#[test]
fn far_past_saturation_is_the_fluid_share() {
    // As the load grows the requests that give up approach 1 − N/a, what the workers cannot
    // serve.
    for (n, a) in [(160u32, 400.0), (10, 30.0), (5000, 6000.0)] {
        let q = queueing::solve(a / 0.1, 0.1, n, 2.0);
        let fluid = 1.0 - f64::from(n) / a;
        assert!(
            (q.timeout_share - fluid).abs() < 1e-9,
            "{n}: {}",
            q.timeout_share
        );
        assert!((q.utilization - 1.0).abs() < 1e-9);
    }
}

#[test]
fn thousands_of_workers_stay_finite() {
    for n in [1u32, 500, 5000, 20_000] {
        for rho in [0.0, 0.3, 0.9, 0.999, 1.0, 1.001, 1.5, 10.0] {
            for timeout in [0.0, 0.05, 2.0, 60.0] {
                let s = 0.05;
                let lambda = rho * f64::from(n) / s;
                let q = queueing::solve(lambda, s, n, timeout);
                let values = [
                    q.timeout_share,
                    q.p_wait,
                    q.utilization,
                    q.mean_wait_s,
                    q.p99_s,
                    q.tail.mean_wait_all(),
                ];
                assert!(
                    values.iter().all(|v| v.is_finite() && *v >= 0.0),
                    "N {n}, ρ {rho}, τ {timeout}: {q:?}"
                );
                assert!(q.timeout_share <= 1.0 && q.p_wait <= 1.0 && q.utilization <= 1.0);
                assert!(q.mean_wait_s <= timeout + 1e-12);
                assert!(q.p99_s <= timeout + s * 100f64.ln() + 1e-9);
            }
        }
    }
}

#[test]
fn the_issue_examples_rise_with_load() {
    // 160 workers of 178 ms and a 2 s timeout, just below, at and just above saturation.
    let share = |lambda: f64| queueing::solve(lambda, 0.178, 160, 2.0).timeout_share;
    let below = share(897.978);
    let at = share(160.0 / 0.178);
    let above = share(899.775);
    assert!(below < at && at < above, "{below} {at} {above}");
    // At ρ = 1 a fixed 2 s patience loses well under one percent.
    assert!(at < 0.002, "{at}");
}

/// SplitMix64: a small, well-mixed generator for the test's own simulation.
struct SplitMix(u64);

impl SplitMix {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // (0, 1]: never 0, so its logarithm is finite.
        ((z >> 11) as f64 + 1.0) / (1u64 << 53) as f64
    }

    fn exponential(&mut self, rate: f64) -> f64 {
        -self.uniform().ln() / rate
    }
}

/// What the simulation measured.
struct Measured {
    abandon_share: f64,
    p_wait: f64,
    mean_wait_served: f64,
    p99_served: f64,
}

/// M/M/N with a fixed patience, first come first served. A request's wait is known when it
/// arrives: the earliest time a worker frees that no earlier request has claimed. If that is
/// the timeout or more away, it leaves without claiming a worker.
fn simulate(
    lambda: f64,
    service_s: f64,
    n: u32,
    timeout_s: f64,
    arrivals: usize,
    seed: u64,
) -> Measured {
    let mut rng = SplitMix(seed ^ u64::from(n) ^ lambda.to_bits());
    // Times (non-negative f64, so their bits order as the values) at which workers free.
    let mut free: BinaryHeap<Reverse<u64>> = (0..n).map(|_| Reverse(0f64.to_bits())).collect();
    let warm_up = arrivals / 10;
    let (mut now, mut abandoned, mut waited, mut wait_sum) = (0.0, 0usize, 0usize, 0.0);
    let mut sojourns = Vec::with_capacity(arrivals);
    for k in 0..warm_up + arrivals {
        now += rng.exponential(lambda);
        let Some(Reverse(earliest)) = free.peek().copied() else {
            unreachable!("at least one worker")
        };
        let wait = (f64::from_bits(earliest) - now).max(0.0);
        let counted = k >= warm_up;
        if wait >= timeout_s && timeout_s.is_finite() {
            if counted {
                abandoned += 1;
                waited += 1;
            }
            continue;
        }
        let service = rng.exponential(1.0 / service_s);
        free.pop();
        free.push(Reverse((now + wait + service).to_bits()));
        if counted {
            if wait > 0.0 {
                waited += 1;
            }
            wait_sum += wait;
            sojourns.push(wait + service);
        }
    }
    sojourns.sort_by(f64::total_cmp);
    let served = sojourns.len();
    Measured {
        abandon_share: abandoned as f64 / arrivals as f64,
        p_wait: waited as f64 / arrivals as f64,
        mean_wait_served: wait_sum / served as f64,
        p99_served: sojourns[served - served / 100],
    }
}

#[test]
fn the_formulas_match_a_simulation_around_saturation() {
    // 10 workers of 1 s, a 2 s timeout: at these loads between 0.3 % and 24 % give up,
    // often enough for a million requests to measure it well.
    for rho in [0.95, 1.0, 1.05, 1.3] {
        let (n, s, timeout) = (10u32, 1.0, 2.0);
        let lambda = rho * f64::from(n) / s;
        let q = queueing::solve(lambda, s, n, timeout);
        let m = simulate(lambda, s, n, timeout, 3_000_000, 0x5EED);
        let report = format!(
            "ρ {rho}: abandon {} vs {}, p_wait {} vs {}, wait {} vs {}, p99 {} vs {}",
            q.timeout_share,
            m.abandon_share,
            q.p_wait,
            m.p_wait,
            q.mean_wait_s,
            m.mean_wait_served,
            q.p99_s,
            m.p99_served
        );
        eprintln!("{report}");
        assert!(
            relative(m.abandon_share, q.timeout_share) < 0.04,
            "{report}"
        );
        assert!((m.p_wait - q.p_wait).abs() < 0.01, "{report}");
        assert!(
            relative(m.mean_wait_served, q.mean_wait_s) < 0.03,
            "{report}"
        );
        assert!(relative(m.p99_served, q.p99_s) < 0.02, "{report}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// More load never means fewer timeouts, at any number of workers, service time and
    /// timeout, on either side of saturation.
    #[test]
    fn the_timeout_share_never_falls_as_load_rises(
        n in 1u32..3000,
        s in 0.001f64..2.0,
        timeout in 0.0f64..30.0,
        rho in 0.0f64..3.0,
        step in 1e-6f64..0.2,
    ) {
        let lambda = rho * f64::from(n) / s;
        let more = lambda * (1.0 + step) + 1e-9;
        let q1 = SojournTail::new(lambda, s, n, timeout).abandon_share();
        let q2 = SojournTail::new(more, s, n, timeout).abandon_share();
        prop_assert!(q1.is_finite() && q2.is_finite());
        prop_assert!(q2 >= q1 - 1e-12 * q1.max(1e-300), "N {n}, S {s}, τ {timeout}: {q1} at λ {lambda}, {q2} at {more}");
    }
}

/// The figure the model's notes quote: 160 workers of 178 ms at ρ = 1 with a 2 s timeout.
/// Few requests give up there (well under 1 %) and the queue forgets its state only over
/// millions of arrivals, so this takes eight independent runs of 150 million requests;
/// run it with `cargo test --release -p oncall-sim --test abandonment -- --ignored
/// --nocapture`.
#[test]
#[ignore = "long: a billion simulated requests"]
fn the_console_case_at_saturation_by_simulation() {
    let (n, s, timeout) = (160u32, 0.178, 2.0);
    let lambda = f64::from(n) / s;
    let q = queueing::solve(lambda, s, n, timeout);
    let runs: Vec<f64> = (0..8u64)
        .map(|k| simulate(lambda, s, n, timeout, 150_000_000, 0x5EED + k).abandon_share)
        .collect();
    let mean = runs.iter().sum::<f64>() / runs.len() as f64;
    let spread = runs.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (runs.len() - 1) as f64;
    let standard_error = (spread / runs.len() as f64).sqrt();
    eprintln!(
        "N 160, S 0.178 s, τ 2 s, ρ 1: abandon share {} (formula), {mean} ± {standard_error} \
         (simulation, mean ± standard error of {} runs: {runs:?})",
        q.timeout_share,
        runs.len()
    );
    assert!(relative(mean, q.timeout_share) < 0.1);
}
