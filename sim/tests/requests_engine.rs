//! The request-level engine against the theory: M/M/N (Erlang C), M/M/1 per instance under
//! random routing, the supermarket model under least request, M/M/N+D with the timeout.
//!
//! How the counts are chosen. Each figure is the mean over R independent replications (each
//! its own seed, each starting with a warm-up that is not counted, so the empty start does not
//! bias it). The spread of the R replication means gives the figure's standard error without
//! any assumption about how strongly successive requests' waits are correlated (which is what
//! makes a heavily loaded queue need many requests). The counts below were raised until two
//! standard errors (a 95 % interval) fall inside the tolerance, and every test asserts that
//! they still do: a count too small for its tolerance fails the test instead of passing by
//! luck.

use oncall_sim::queueing::{self, SojournTail};
use oncall_sim::requests::{
    run, run_with, run_with_events, Hedging, Options, Routing, RunConfig, RunOutcome, SlowInstance,
    TimeoutScope,
};

/// Mean and standard error of the mean over the replications.
fn mean_and_error(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// Runs `replications` copies of `config`, seeds 1, 2, …, with the timeout as M/M/N+D's
/// patience (it bounds the wait for a worker, not the whole call), as the formulas read it.
fn replicate(config: RunConfig, replications: u32) -> Vec<RunOutcome> {
    let patience = Options {
        timeout_scope: TimeoutScope::Queue,
        ..Options::default()
    };
    (1..=replications)
        .map(|seed| {
            run_with(&RunConfig { seed, ..config }, &patience).expect("a valid configuration")
        })
        .collect()
}

/// Checks the replications' mean of `figure` against `theory` within `tolerance` (relative),
/// and that two standard errors (a 95 % interval) fit in the tolerance. Returns (measured, standard error).
fn agrees(
    label: &str,
    outcomes: &[RunOutcome],
    figure: impl Fn(&RunOutcome) -> f64,
    theory: f64,
    tolerance: f64,
) -> (f64, f64) {
    let xs: Vec<f64> = outcomes.iter().map(figure).collect();
    let (mean, error) = mean_and_error(&xs);
    let allowed = tolerance * theory;
    println!(
        "{label}: engine {mean:.6} ± {error:.6} (s.e.), theory {theory:.6}, off {:+.3} %",
        100.0 * (mean / theory - 1.0)
    );
    assert!(
        2.0 * error < allowed,
        "{label}: standard error {error} too large for the tolerance {allowed}"
    );
    assert!(
        (mean - theory).abs() < allowed,
        "{label}: engine {mean}, theory {theory}"
    );
    (mean, error)
}

fn pooled(workers: u32, load: f64, customers: u64) -> RunConfig {
    RunConfig {
        instances: 1,
        workers_per_instance: workers,
        arrival_rate: load,
        service_s: 1.0,
        customers,
        warmup: customers / 10,
        routing: Routing::RoundRobin,
        timeout_s: None,
        seed: 1,
    }
}

/// M/M/N through the engine: P(wait) against Erlang C within 2 %, the mean wait against
/// C·S/(N − a) within 3 %.
fn check_erlang_c(workers: u32, load: f64, customers: u64, replications: u32) {
    let outcomes = replicate(pooled(workers, load, customers), replications);
    let c = queueing::erlang_c(load, workers);
    let wait = c / queueing::drain_rate(workers, 1.0, load);
    let label = format!("M/M/{workers} a={load} ({replications} × {customers})");
    agrees(
        &format!("{label} P(wait)"),
        &outcomes,
        |o| o.p_wait,
        c,
        0.02,
    );
    agrees(
        &format!("{label} mean wait"),
        &outcomes,
        |o| o.mean_wait_s,
        wait,
        0.03,
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "long: run with --release")]
fn pooled_fifo_is_erlang_c() {
    check_erlang_c(5, 4.5, 2_000_000, 10);
    check_erlang_c(14, 10.0, 1_000_000, 10);
    check_erlang_c(20, 19.0, 4_000_000, 20);
    check_erlang_c(100, 90.0, 4_000_000, 10);
}

/// 12 × 500,000 customers: the replications' standard error of the mean wait is then about
/// a third of its 3 % tolerance (10 × 300,000 left it at half, too close to fail by chance).
#[test]
fn pooled_fifo_is_erlang_c_quick() {
    check_erlang_c(14, 10.0, 500_000, 12);
}

/// `instances` instances of one worker each, load ρ per worker, routed by `routing`.
fn single_workers(instances: u32, rho: f64, routing: Routing, customers: u64) -> RunConfig {
    RunConfig {
        instances,
        workers_per_instance: 1,
        arrival_rate: rho * f64::from(instances),
        service_s: 1.0,
        customers,
        warmup: customers / 10,
        routing,
        timeout_s: None,
        seed: 1,
    }
}

/// Random routing splits a Poisson stream into independent Poisson streams of rate λ/I:
/// every instance is an M/M/1 queue, with mean time in the system S/(1 − ρ) and P(wait) = ρ.
fn check_random_is_mm1(instances: u32, rho: f64, customers: u64, replications: u32) {
    let config = single_workers(instances, rho, Routing::Random, customers);
    let outcomes = replicate(config, replications);
    let label = format!("random, {instances} × M/M/1 ρ={rho} ({replications} × {customers})");
    agrees(
        &format!("{label} mean sojourn"),
        &outcomes,
        |o| o.mean_sojourn_s,
        1.0 / (1.0 - rho),
        0.03,
    );
    agrees(
        &format!("{label} P(wait)"),
        &outcomes,
        |o| o.p_wait,
        rho,
        0.02,
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "long: run with --release")]
fn random_routing_is_mm1_per_instance() {
    check_random_is_mm1(100, 0.5, 2_000_000, 10);
    check_random_is_mm1(100, 0.8, 4_000_000, 10);
}

#[test]
fn random_routing_is_mm1_per_instance_quick() {
    check_random_is_mm1(50, 0.5, 200_000, 10);
}

/// The supermarket model (Mitzenmacher 2001) for d = 2: see
/// [`queueing::supermarket_mean_sojourn`].
fn check_supermarket(instances: u32, load: f64, customers: u64, replications: u32) {
    let config = single_workers(instances, load, Routing::LeastRequest, customers);
    let outcomes = replicate(config, replications);
    let label = format!(
        "least request, {instances} × M/M/1 λ={load} ({replications} × {customers}) mean sojourn"
    );
    agrees(
        &label,
        &outcomes,
        |o| o.mean_sojourn_s,
        queueing::supermarket_mean_sojourn(load),
        0.05,
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "long: run with --release")]
fn least_request_is_the_supermarket_model() {
    check_supermarket(100, 0.5, 2_000_000, 10);
    check_supermarket(100, 0.9, 2_000_000, 10);
    check_supermarket(1000, 0.99, 4_000_000, 10);
}

#[test]
fn least_request_is_the_supermarket_model_quick() {
    check_supermarket(100, 0.9, 200_000, 10);
}

/// One instance of N workers whose requests give up after waiting the timeout: the share
/// that gives up against M/M/N+D within 10 %.
fn check_abandonment(workers: u32, rho: f64, timeout: f64, customers: u64, replications: u32) {
    let lambda = rho * f64::from(workers);
    let config = RunConfig {
        timeout_s: Some(timeout),
        ..pooled(workers, lambda, customers)
    };
    let outcomes = replicate(config, replications);
    let theory = SojournTail::new(lambda, 1.0, workers, timeout);
    let label = format!("M/M/{workers}+D ρ={rho} τ={timeout} ({replications} × {customers})");
    agrees(
        &format!("{label} timeout share"),
        &outcomes,
        |o| o.timeout_share,
        theory.abandon_share(),
        0.10,
    );
    agrees(
        &format!("{label} P(wait)"),
        &outcomes,
        |o| o.p_wait,
        theory.p_wait(),
        0.02,
    );
    agrees(
        &format!("{label} mean wait of the served"),
        &outcomes,
        |o| o.mean_wait_s,
        theory.mean_wait_served(),
        0.03,
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "long: run with --release")]
fn timeouts_are_m_m_n_plus_d() {
    check_abandonment(10, 0.95, 0.5, 2_000_000, 10);
    check_abandonment(10, 1.05, 0.5, 2_000_000, 10);
}

#[test]
fn timeouts_are_m_m_n_plus_d_quick() {
    check_abandonment(10, 1.05, 0.5, 200_000, 10);
}

#[test]
fn the_same_seed_gives_the_same_requests() {
    for routing in Routing::ALL {
        let config = RunConfig {
            instances: 4,
            workers_per_instance: 3,
            arrival_rate: 11.0,
            service_s: 1.0,
            customers: 50_000,
            warmup: 0,
            routing: *routing,
            timeout_s: Some(1.0),
            seed: 42,
        };
        let a = run(&config).unwrap();
        let b = run(&config).unwrap();
        assert_eq!(a, b, "{routing}");
        let other = run(&RunConfig { seed: 43, ..config }).unwrap();
        assert_ne!(a, other, "{routing}: another seed, other requests");
    }
}

/// The request timeout is a deadline on the whole call, as Envoy's route timeout is: no
/// served request's time in the system passes it, on either implementation, under every
/// policy, with a slow instance whose services mostly outlive it; and the calls it cuts are
/// counted as timeouts. With hedging it is each attempt's deadline (seed 002's request
/// timeout), and the total timeout bounds the whole request.
#[test]
fn the_timeout_is_a_deadline_on_the_whole_call() {
    let timeout = 0.8;
    for routing in Routing::ALL {
        let config = RunConfig {
            instances: 4,
            workers_per_instance: 2,
            arrival_rate: 6.0,
            service_s: 0.25,
            customers: 40_000,
            warmup: 1_000,
            routing: *routing,
            timeout_s: Some(timeout),
            seed: 5,
        };
        let slow = Some(SlowInstance {
            instance: 1,
            factor: 10.0,
            from_s: 0.0,
            to_s: 1e9,
        });
        let options = Options {
            slow,
            ..Options::default()
        };
        let by_arrivals = run_with(&config, &options).unwrap();
        let by_events = run_with_events(&config, &options).unwrap();
        for out in [&by_arrivals, &by_events] {
            assert!(out.p999_s <= timeout, "{routing}: {out:?}");
            let served: u64 = out.per_instance_served.iter().sum();
            let failed = libm::round(out.timeout_share * 40_000.0) as u64;
            assert_eq!(served + failed, 40_000, "{routing}");
        }
        // Both implementations give every request the same fate.
        assert_eq!(
            by_arrivals.timeout_share, by_events.timeout_share,
            "{routing}"
        );
        assert!(
            (by_arrivals.p99_s - by_events.p99_s).abs() < 1e-9,
            "{routing}: {by_arrivals:?} against {by_events:?}"
        );
        // The slow instance's services last 2.5 s on average: most of its calls are cut.
        // Bounding only the wait would have served them, far past the timeout.
        let patience = run_with(
            &config,
            &Options {
                timeout_scope: TimeoutScope::Queue,
                ..options.clone()
            },
        )
        .unwrap();
        assert!(patience.p999_s > 2.0 * timeout, "{routing}: {patience:?}");
        assert!(
            by_arrivals.timeout_share > patience.timeout_share,
            "{routing}"
        );

        // Hedged: each attempt has the timeout, the request the total timeout.
        let total = 1.5;
        let hedged = run_with(
            &config,
            &Options {
                hedging: Some(Hedging {
                    delay_s: 0.3,
                    total_timeout_s: Some(total),
                    ..Hedging::default()
                }),
                ..options.clone()
            },
        )
        .unwrap();
        assert!(hedged.hedges_sent > 0, "{routing}");
        assert!(hedged.p999_s <= total, "{routing}: {hedged:?}");
        // A served request's winning attempt answered within its own deadline.
        assert!(
            hedged.mean_sojourn_s - hedged.mean_hedge_wait_s <= timeout,
            "{routing}: {hedged:?}"
        );
    }
}
