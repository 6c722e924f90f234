#![cfg(feature = "extended")]

//! The request engine's own parameters as run parameters: the key space (`keys`, `zipf`), the
//! service-time shape (`service_shape`, `service_sigma`) and least request's settings
//! (`choice_count`, `active_request_bias`): their ranges and notices, links, and that each one
//! reaches the engine and the routed formulas.

use oncall_sim::engine::formulas::QueueFormulas;
use oncall_sim::engine::requests::{RequestConditions, RequestEngine};
use oncall_sim::engine::{ServiceModel, TickInput};
use oncall_sim::ids::ScenarioId;
use oncall_sim::params::{
    ServiceDistribution, EXTENDED_PARAMS, OUTLIER_DETECTION_PARAM, SERVICE_SHAPE_PARAM,
};
use oncall_sim::queueing::routing::{self, RoutedFleet, Supermarket};
use oncall_sim::requests::{KeySpace, Routing, ServiceShape};
use oncall_sim::setup::RunSetup;
use oncall_sim::share::{owned_pairs, NoticeKind, ShareState};
use oncall_sim::ModelParams;

/// The parameters of a link, or the notices it gave.
fn read(pairs: &[(&str, &str)]) -> (ShareState, Vec<oncall_sim::share::Notice>) {
    let (state, notices, rest) = ShareState::from_pairs(&owned_pairs(pairs));
    assert!(rest.is_empty(), "{rest:?}");
    (state, notices)
}

#[test]
fn the_defaults_are_the_documented_ones() {
    let p = ModelParams::default();
    assert_eq!(p.keys, 10_000);
    assert_eq!(p.zipf, 0.8);
    assert_eq!(p.service_shape, ServiceDistribution::Exponential);
    assert_eq!(p.service_sigma, 1.0);
    assert_eq!(p.choice_count, 2);
    assert_eq!(p.active_request_bias, 1.0);
    // The defaults are the engine's (the run's engine was built from these before they were
    // parameters).
    assert_eq!(p.key_space(), KeySpace::default());
    assert_eq!(p.service_shape(), ServiceShape::Exponential);
    assert_eq!(p.choices(), routing::DEFAULT_CHOICES);
    // Every name the first download hands on is a parameter of this build.
    for name in EXTENDED_PARAMS {
        assert!(
            [SERVICE_SHAPE_PARAM, OUTLIER_DETECTION_PARAM].contains(name)
                || ModelParams::spec(name).is_ok(),
            "{name}"
        );
    }
}

/// Each number at both ends of its range is kept; just past either end, a fraction where
/// only whole numbers go, or text, gives a notice naming the parameter and its range, and
/// the default stays.
#[test]
fn each_range_holds_at_its_edges() {
    let cases: &[(&str, &str, &str, &[&str], &str)] = &[
        // name, min, max, refused values, the range as the notice says it
        (
            "keys",
            "1",
            "1000000",
            &["0", "1000001", "2.5", "many"],
            "1 to 1000000",
        ),
        ("zipf", "0", "10", &["-0.1", "10.5", "x"], "0 to 10"),
        ("service_sigma", "0", "4", &["-1", "4.01", "wide"], "0 to 4"),
        ("choice_count", "2", "32", &["1", "33", "2.5"], "2 to 32"),
        ("active_request_bias", "0", "10", &["-0.5", "11"], "0 to 10"),
    ];
    let defaults = ModelParams::default();
    for (name, min, max, bad, range) in cases {
        for good in [min, max] {
            let (state, notices) = read(&[(name, good)]);
            assert!(notices.is_empty(), "{name}={good}: {notices:?}");
            assert_eq!(
                state.params.get(name),
                good.parse::<f64>().ok(),
                "{name}={good}"
            );
        }
        for value in *bad {
            let (state, notices) = read(&[(name, value)]);
            assert_eq!(notices.len(), 1, "{name}={value}");
            let n = &notices[0];
            assert_eq!(n.kind, NoticeKind::Invalid);
            assert_eq!(n.param, *name);
            assert_eq!(n.value, *value);
            let allowed = n.allowed.to_string();
            assert!(allowed.contains(range), "{name}={value}: {allowed}");
            assert_eq!(state.params.get(name), defaults.get(name), "{name}={value}");
        }
    }
    let (state, notices) = read(&[("service_shape", "pareto")]);
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].param, "service_shape");
    let allowed = notices[0].allowed.to_string();
    assert!(
        allowed.contains("exponential") && allowed.contains("lognormal"),
        "{allowed}"
    );
    assert_eq!(state.params.service_shape, ServiceDistribution::Exponential);
}

/// The command line's `--set` refuses the same values, naming the parameter.
#[test]
fn set_refuses_with_the_parameter_named() {
    let mut setup = RunSetup::new(ScenarioId::FreePlay, 1);
    setup.set("service_shape", "lognormal").unwrap();
    setup.set("service_sigma", "0.5").unwrap();
    setup.set("choice_count", "4").unwrap();
    let before = setup.clone();
    for (name, value) in [
        ("choice_count", "1"),
        ("keys", "0"),
        ("zipf", "11"),
        ("active_request_bias", "-1"),
    ] {
        match setup.set(name, value) {
            Err(oncall_sim::setup::SetError::Param(e)) => assert_eq!(e.field, name),
            other => panic!("{name}={value}: {other:?}"),
        }
    }
    assert!(matches!(
        setup.set("service_shape", "uniform"),
        Err(oncall_sim::setup::SetError::UnknownId(e)) if e.kind == "service_shape"
    ));
    assert_eq!(setup, before);
    assert_eq!(
        setup.params.service_shape(),
        ServiceShape::Lognormal { sigma: 0.5 }
    );
}

#[test]
fn the_parameters_round_trip_through_a_link() {
    let (state, notices) = read(&[
        ("engine", "requests"),
        ("lb", "maglev"),
        ("keys", "500"),
        ("zipf", "1.2"),
        ("service_shape", "lognormal"),
        ("service_sigma", "1.5"),
        ("choice_count", "3"),
        ("active_request_bias", "0.5"),
        (OUTLIER_DETECTION_PARAM, "on"),
        ("consecutive_5xx", "3"),
        ("base_ejection_time_s", "10"),
        ("max_ejection_percent", "20"),
        ("healthy_panic_threshold", "40"),
        ("slow_start_window_s", "30"),
    ]);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(
        state.params.key_space(),
        KeySpace {
            keys: 500,
            exponent: 1.2
        }
    );
    assert_eq!(
        state.params.service_shape(),
        ServiceShape::Lognormal { sigma: 1.5 }
    );
    assert_eq!(state.params.choices(), 3);
    assert_eq!(state.params.active_request_bias, 0.5);
    let pairs = state.to_pairs();
    for name in EXTENDED_PARAMS {
        assert!(pairs.iter().any(|(k, _)| k == name), "{name}: {pairs:?}");
    }
    let (again, notices, _) = ShareState::from_pairs(&pairs);
    assert!(notices.is_empty());
    assert_eq!(again, state);
    // Back at their defaults they leave the link.
    assert!(ShareState::default()
        .to_pairs()
        .iter()
        .all(|(k, _)| !EXTENDED_PARAMS.contains(&k.as_str())));
}

fn steady(
    lambda: f64,
    service_s: f64,
    serving: u32,
    workers: u32,
    c: RequestConditions,
) -> TickInput {
    TickInput {
        lambda,
        service_s,
        serving,
        workers_per_instance: workers,
        timeout_s: 2.0,
        admission: None,
        want_p95: false,
        cold_start: None,
        requests: RequestConditions { tick_s: 60.0, ..c },
        failed_over: Default::default(),
    }
}

/// What the engine measured over `minutes` of a steady load: the mean service time (busy
/// worker time over requests served), the mean time in the system of the served requests
/// (mean wait plus mean service), and the mean of the minutes' p99.
struct Measured {
    mean_service_s: f64,
    mean_sojourn_s: f64,
    p99_s: f64,
}

fn measure(engine: &mut RequestEngine, input: &TickInput, minutes: u32) -> Measured {
    let (mut busy, mut served, mut wait, mut p99) = (0.0, 0u64, 0.0, 0.0);
    let capacity = f64::from(input.serving * input.workers_per_instance) * input.requests.tick_s;
    for minute in 0..=minutes {
        let out = engine.tick(input);
        engine.close_minute();
        // The first minute starts empty; leave it out.
        if minute == 0 {
            continue;
        }
        let m = engine.requests().unwrap();
        busy += out.queue.utilization * capacity;
        served += m.served;
        wait += out.queue.mean_wait_s * m.served as f64;
        p99 += m.p99_s;
    }
    let n = served as f64;
    Measured {
        mean_service_s: busy / n,
        mean_sojourn_s: (wait + busy) / n,
        p99_s: p99 / f64::from(minutes),
    }
}

/// A link's `service_shape=lognormal` reaches the engine: the tail is heavier than the
/// exponential's, and the measured mean service time is still the model's mean.
#[test]
fn lognormal_service_keeps_the_mean_and_widens_the_tail() {
    let (state, notices) = read(&[
        ("engine", "requests"),
        ("service_shape", "lognormal"),
        ("service_sigma", "1.5"),
    ]);
    assert!(notices.is_empty());
    let p = &state.params;
    let (lambda, service_s, serving, workers) = (500.0, 0.05, 4, 16);
    let c = RequestConditions {
        keys: p.key_space(),
        choices: p.choices(),
        ..RequestConditions::default()
    };
    // A deadline no call reaches: the request timeout would cut the longest services (those
    // past 2 s, 40 means), and this test measures the service times themselves.
    let input = TickInput {
        timeout_s: 3600.0,
        ..steady(lambda, service_s, serving, workers, c)
    };
    let minutes = 20;
    let mut lognormal = RequestEngine::new(7, p.key_space(), p.service_shape());
    let logn = measure(&mut lognormal, &input, minutes);
    let defaults = ModelParams::default();
    let mut exponential = RequestEngine::new(7, defaults.key_space(), defaults.service_shape());
    let expo = measure(&mut exponential, &input, minutes);
    // About 600,000 requests: the standard error of the mean service is
    // S·√(e^(σ²) − 1)/√n ≈ 0.4 % of S for σ = 1.5 (the boundary work between ticks is a few
    // requests' worth). Four standard errors.
    let n = lambda * 60.0 * f64::from(minutes);
    let cv = (libm::exp(1.5 * 1.5) - 1.0).sqrt();
    let bound = 4.0 * cv / n.sqrt();
    let relative = logn.mean_service_s / service_s - 1.0;
    eprintln!(
        "lognormal σ = 1.5: mean service {:.5} s (model {service_s} s, {:+.3} %, bound {:.3} %), p99 {:.4} s; exponential: mean service {:.5} s, p99 {:.4} s",
        logn.mean_service_s,
        relative * 100.0,
        bound * 100.0,
        logn.p99_s,
        expo.mean_service_s,
        expo.p99_s
    );
    assert!(relative.abs() < bound, "{relative}");
    assert!((expo.mean_service_s / service_s - 1.0).abs() < 4.0 / n.sqrt());
    // At ρ ≈ 0.4 the p99 is nearly the service time's: exponential 4.6·S, lognormal
    // e^(−σ²/2 + 2.326·σ)·S ≈ 10.6·S.
    assert!(expo.p99_s < 5.5 * service_s, "{}", expo.p99_s);
    assert!(logn.p99_s > 9.0 * service_s, "{}", logn.p99_s);
}

/// A run in request mode with the lognormal differs from the exponential one, and is the
/// same again from the same link.
#[test]
fn a_lognormal_run_differs_and_repeats() {
    let run = |pairs: &[(&str, &str)]| {
        let (state, notices) = read(pairs);
        assert!(notices.is_empty());
        let mut sim = state.simulation(3).unwrap();
        sim.run(5);
        sim.history().to_vec()
    };
    let expo = run(&[("engine", "requests")]);
    let logn = [("engine", "requests"), ("service_shape", "lognormal")];
    let a = run(&logn);
    assert_ne!(a, expo);
    assert_eq!(a, run(&logn));
    // The formulas keep the exponential: the shape changes nothing there.
    assert_eq!(
        run(&[("engine", "formulas")]),
        run(&[("engine", "formulas"), ("service_shape", "lognormal")])
    );
}

/// `choice_count` reaches least request: with three choices on many single-worker instances
/// the engine's mean time in the system is the supermarket model's for d = 3 (Mitzenmacher
/// 2001), well below two choices'.
#[test]
fn choice_count_reaches_least_request() {
    let (rho, service_s, serving) = (0.9, 0.1, 100);
    let lambda = rho * f64::from(serving) / service_s;
    let mut sojourn = Vec::new();
    for d in [2, 3] {
        let (state, notices) = read(&[("choice_count", &d.to_string())]);
        assert!(notices.is_empty());
        let c = RequestConditions {
            routing: Routing::LeastRequest,
            choices: state.params.choices(),
            ..RequestConditions::default()
        };
        let input = steady(lambda, service_s, serving, 1, c);
        let mut engine = RequestEngine::new(5, KeySpace::default(), ServiceShape::Exponential);
        let m = measure(&mut engine, &input, 8);
        let formula = Supermarket::new(rho, d, service_s).mean_sojourn_in_services() * service_s;
        eprintln!(
            "least request, d = {d}, ρ = {rho}, {serving} instances: mean time in system {:.4} s, supermarket model {formula:.4} s",
            m.mean_sojourn_s
        );
        assert!(
            (m.mean_sojourn_s / formula - 1.0).abs() < 0.05,
            "d = {d}: {} against {formula}",
            m.mean_sojourn_s
        );
        sojourn.push(m.mean_sojourn_s);
    }
    assert!(sojourn[1] < 0.9 * sojourn[0], "{sojourn:?}");
}

/// `active_request_bias` acts only on hosts of different weights; the simulated instances
/// all have the same weight, so a run is the same whatever the bias.
#[test]
fn active_request_bias_changes_nothing_with_equal_weights() {
    let run = |bias: &str| {
        let (state, notices) = read(&[
            ("engine", "requests"),
            ("scenario", "slow-instance"),
            ("active_request_bias", bias),
        ]);
        assert!(notices.is_empty());
        let mut sim = state.simulation(2).unwrap();
        sim.run(4);
        sim.history().to_vec()
    };
    assert_eq!(run("0"), run("3.5"));
}

/// The key space reaches the routed formulas: a hash policy's arrival shares follow the
/// keys' popularity, so its queue does too.
#[test]
fn the_key_space_reaches_the_hash_policies_formulas() {
    let tick = |keys: KeySpace| {
        let c = RequestConditions {
            routing: Routing::Maglev,
            keys,
            ..RequestConditions::default()
        };
        let input = TickInput {
            requests: c,
            ..steady(1100.0, 0.09, 10, 16, c)
        };
        let got = QueueFormulas::default().tick(&input).queue;
        let fleet = RoutedFleet {
            keys,
            ..RoutedFleet::new(10, 16)
        };
        let want = routing::routed(Routing::Maglev, &fleet, 1100.0, 0.09, 2.0);
        assert_eq!(got.p_wait, want.p_wait);
        assert_eq!(got.p99_s, want.p99_s);
        (got, want.shares)
    };
    let (even, even_shares) = tick(KeySpace {
        keys: 10_000,
        exponent: 0.0,
    });
    let (skewed, skewed_shares) = tick(KeySpace {
        keys: 200,
        exponent: 1.2,
    });
    let spread =
        |s: &[f64]| s.iter().copied().fold(0.0, f64::max) - s.iter().copied().fold(1.0, f64::min);
    assert!(spread(&skewed_shares) > 2.0 * spread(&even_shares));
    // The busiest instance of the skewed keys waits more.
    assert!(skewed.p_wait > even.p_wait, "{skewed:?} {even:?}");
}

/// Every new parameter at both ends of its range, in request mode under each policy with
/// hedging and the lognormal: the run keeps finite figures.
#[test]
fn extreme_values_in_request_mode() {
    for name in EXTENDED_PARAMS
        .iter()
        .filter(|n| ![SERVICE_SHAPE_PARAM, OUTLIER_DETECTION_PARAM].contains(n))
    {
        let spec = ModelParams::spec(name).unwrap();
        for value in [spec.min, spec.max] {
            for lb in Routing::ALL {
                let mut setup = RunSetup::new(ScenarioId::FreePlay, 3);
                for (k, v) in [
                    ("engine", "requests"),
                    ("hedge", "on"),
                    ("service_shape", "lognormal"),
                    ("lb", lb.as_str()),
                    (name, &format!("{value}")),
                ] {
                    setup.set(k, v).unwrap();
                }
                let mut sim = setup.build().unwrap();
                let r = sim.step().clone();
                assert!(
                    r.p99_ms.is_finite() && r.error_rate.is_finite() && r.utilization.is_finite(),
                    "{name} = {value}, {lb}: {r:?}"
                );
            }
        }
    }
}
