//! Envoy's host selection around health in the request engine: outlier detection by
//! consecutive failures (its timing, its backoff, its cap), the panic threshold, and slow
//! start's ramp of a new host's share.
//!
//! Several tests read a slice of a run through two runs of the same seed: a run's first n
//! requests have the same fates whatever comes after them (each fate is decided at its
//! arrival, and outlier detection only counts the responses whose time has come), so the
//! difference of the per-instance counts of the runs of n₁ and n₀ requests is what the
//! requests n₀..n₁ did.

use oncall_sim::regions::outlier::OutlierConfig;
use oncall_sim::requests::{
    run_with, run_with_events, ChangeKind, HostEvent, HostSelection, InstanceChange, Options,
    Routing, RunConfig, RunOutcome, SlowInstance, SlowStart,
};
use oncall_sim::Mulberry32;

/// The arrival times of a run (the engine's arrival stream: stream 0 of the seed).
fn arrival_times(config: &RunConfig, n: usize) -> Vec<f64> {
    let mut rng = Mulberry32::stream(config.seed, 0);
    let mut now = 0.0;
    (0..n)
        .map(|_| {
            now += rng.exponential(1.0 / config.arrival_rate);
            now
        })
        .collect()
}

/// Requests arriving before `t`.
fn arrived_by(times: &[f64], t: f64) -> u64 {
    times.partition_point(|&a| a < t) as u64
}

fn run_first(config: &RunConfig, options: &Options, n: u64) -> RunOutcome {
    let config = RunConfig {
        customers: n,
        ..*config
    };
    run_with(&config, options).unwrap()
}

/// What the requests n0..n1 served, by instance.
fn served_between(config: &RunConfig, options: &Options, n0: u64, n1: u64) -> Vec<u64> {
    let a = run_first(config, options, n0);
    let b = run_first(config, options, n1);
    b.per_instance_served
        .iter()
        .zip(a.per_instance_served.iter().chain(std::iter::repeat(&0)))
        .map(|(b, a)| b - a)
        .collect()
}

/// The hosts ejected just after `t`.
fn ejected_at(events: &[HostEvent], t: f64, instances: usize) -> Vec<bool> {
    let mut ejected = vec![false; instances];
    for e in events.iter().take_while(|e| e.at_s <= t) {
        ejected[e.instance as usize] = e.ejected;
    }
    ejected
}

/// The most hosts ejected at once.
fn most_ejected(events: &[HostEvent], instances: usize) -> usize {
    let mut ejected = vec![false; instances];
    let mut most = 0;
    for e in events {
        ejected[e.instance as usize] = e.ejected;
        most = most.max(ejected.iter().filter(|&&x| x).count());
    }
    most
}

fn outliers(outlier: OutlierConfig) -> HostSelection {
    HostSelection {
        outlier: Some(outlier),
        ..HostSelection::default()
    }
}

/// Ten instances under round robin, instance 0 a thousand times slower throughout: every
/// call it takes is cut at its deadline of 0.2 s (a 504 to Envoy).
fn failing_host() -> (RunConfig, SlowInstance) {
    let config = RunConfig {
        instances: 10,
        workers_per_instance: 4,
        arrival_rate: 100.0,
        service_s: 0.05,
        customers: 40_000,
        warmup: 0,
        routing: Routing::RoundRobin,
        timeout_s: Some(0.2),
        seed: 11,
    };
    let slow = SlowInstance {
        instance: 0,
        factor: 1000.0,
        from_s: 0.0,
        to_s: 1e9,
    };
    (config, slow)
}

/// Round robin sends instance 0 the requests 0, 10, 20, …: with `consecutive_5xx` k its k-th
/// request's failure, at that request's arrival + the timeout, ejects it at once. It comes
/// back at the first sweep (every 10 s from the start) at least 30 s later; ejected again a
/// moment after, it stays out twice as long, then three times (the backoff grows while it
/// is ejected again within a sweep of its return). Only instance 0 is ever ejected (one host
/// of ten at 10 %), and both implementations log the same ejections.
#[test]
fn a_failing_host_is_ejected_at_its_kth_failure_and_back_after_base_times_ejections() {
    let (config, slow) = failing_host();
    let times = arrival_times(&config, 100);
    for k in [5u32, 3] {
        let options = Options {
            slow: Some(slow),
            host_selection: outliers(OutlierConfig {
                consecutive_5xx: k,
                ..OutlierConfig::default()
            }),
            ..Options::default()
        };
        let out = run_with(&config, &options).unwrap();
        let by_events = run_with_events(&config, &options).unwrap();
        assert_eq!(out.host_events, by_events.host_events, "k = {k}");
        let ev = &out.host_events;
        println!(
            "consecutive_5xx {k}: {:?}",
            ev.iter()
                .take(8)
                .map(|e| (e.at_s, e.instance, e.ejected))
                .collect::<Vec<_>>()
        );
        assert!(ev.len() >= 6, "{ev:?}");
        assert!(ev.iter().all(|e| e.instance == 0), "{ev:?}");
        // Ejected at its k-th failure, no sooner and no later.
        let kth = times[10 * (k as usize - 1)] + 0.2;
        assert!(ev[0].ejected && (ev[0].at_s - kth).abs() < 1e-9, "{ev:?}");
        // Ejected, back, ejected, back, …
        for (i, e) in ev.iter().enumerate() {
            assert_eq!(e.ejected, i % 2 == 0, "{ev:?}");
        }
        for (n, pair) in ev.chunks(2).take(3).enumerate() {
            let [out_at, back] = [pair[0].at_s, pair[1].at_s];
            let lasts = 30.0 * (n as f64 + 1.0);
            // Back at a sweep, the first one once the ejection time has passed.
            assert_eq!(back % 10.0, 0.0, "{ev:?}");
            assert!(
                back - out_at >= lasts && back - out_at < lasts + 10.0,
                "ejection {n}: {out_at} to {back}"
            );
        }
        // Each return is followed within a second by the next ejection (k more failures).
        for pair in ev[1..].chunks(2).take(2) {
            assert!(pair[1].at_s - pair[0].at_s < 1.0, "{ev:?}");
        }
        assert_eq!(
            out.hosts.ejections,
            ev.iter().filter(|e| e.ejected).count() as u64
        );
    }
}

/// Every call fails (a deadline of 0.1 ms on calls of 50 ms): every host is ejected as soon as
/// the cap lets it. Envoy's cap is 100 × (ejected + 1) / hosts ≤ max_ejection_percent: 3 of 10
/// at 30 %, never a fourth; 1 of 10 at 10 %; none of 5 at 10 % (one would be 20 %), unless
/// always_eject_one_host lets one be.
#[test]
fn never_more_hosts_ejected_than_the_cap() {
    let config = |instances| RunConfig {
        instances,
        workers_per_instance: 4,
        arrival_rate: 100.0,
        service_s: 0.05,
        customers: 30_000,
        warmup: 0,
        routing: Routing::RoundRobin,
        timeout_s: Some(0.0001),
        seed: 5,
    };
    let cases = [
        (10, 30, false, 3),
        (10, 10, false, 1),
        (5, 10, false, 0),
        (5, 10, true, 1),
    ];
    for (instances, percent, always, cap) in cases {
        let options = Options {
            host_selection: HostSelection {
                always_eject_one_host: always,
                ..outliers(OutlierConfig {
                    max_ejection_percent: percent,
                    ..OutlierConfig::default()
                })
            },
            ..Options::default()
        };
        let out = run_with(&config(instances), &options).unwrap();
        let most = most_ejected(&out.host_events, instances as usize);
        println!(
            "{instances} hosts, {percent} %, always one {always}: {} ejections, at most {most} at once",
            out.hosts.ejections
        );
        assert_eq!(most, cap, "{instances} hosts at {percent} %");
        if cap > 0 {
            // Hosts come back and others take their place: more ejections than the cap.
            assert!(out.hosts.ejections > 2 * cap as u64, "{out:?}");
        } else {
            assert_eq!(out.hosts.ejections, 0);
        }
    }
}

/// Half the calls fail (a deadline of S·ln 2 on exponential calls of mean S), every host may
/// be ejected: runs of five failures eject hosts faster than they come back, and more than
/// half are soon out. Below the panic threshold (50 % healthy) Envoy routes across all the
/// hosts: in a stretch where six or more are ejected, the ejected ones serve about as many
/// requests as the others (the share each gets of the arrivals is the same; half of them
/// are served). Without panic (a threshold of 0) they serve none there, and with
/// fail_traffic_on_panic every request of the stretch fails instead.
#[test]
fn below_the_panic_threshold_traffic_goes_to_all_hosts() {
    let config = RunConfig {
        instances: 10,
        workers_per_instance: 4,
        arrival_rate: 100.0,
        service_s: 0.05,
        customers: 60_000,
        warmup: 0,
        routing: Routing::RoundRobin,
        timeout_s: Some(0.05 * core::f64::consts::LN_2),
        seed: 3,
    };
    let times = arrival_times(&config, 60_000);
    let with = |threshold: f64, fail: bool| Options {
        host_selection: HostSelection {
            panic_threshold_percent: threshold,
            fail_traffic_on_panic: fail,
            ..outliers(OutlierConfig {
                max_ejection_percent: 100,
                ..OutlierConfig::default()
            })
        },
        ..Options::default()
    };
    // A stretch of at least a second without an ejection or a return, with six to nine
    // hosts out.
    let stretch = |events: &[HostEvent]| {
        events
            .windows(2)
            .map(|w| (w[0].at_s, w[1].at_s))
            .find(|&(a, b)| {
                let out = ejected_at(events, a, 10).iter().filter(|&&x| x).count();
                b - a >= 1.0 && (6..=9).contains(&out)
            })
            .expect("a stretch with six to nine hosts out")
    };
    for (threshold, fail) in [(50.0, false), (0.0, false), (50.0, true)] {
        let options = with(threshold, fail);
        let full = run_with(&config, &options).unwrap();
        let (a, b) = stretch(&full.host_events);
        let ejected = ejected_at(&full.host_events, a, 10);
        let (n0, n1) = (arrived_by(&times, a), arrived_by(&times, b));
        let served = served_between(&config, &options, n0, n1);
        let share = |out: bool| {
            let hosts: Vec<u64> = (0..10)
                .filter(|&i| ejected[i] == out)
                .map(|i| served[i])
                .collect();
            hosts.iter().sum::<u64>() as f64 / hosts.len().max(1) as f64
        };
        let (ejected_mean, healthy_mean) = (share(true), share(false));
        println!(
            "threshold {threshold} %, fail on panic {fail}: {} ejected over [{a:.1}, {b:.1}] s \
             ({} requests): served by instance {served:?}, mean {ejected_mean:.1} ejected, \
             {healthy_mean:.1} healthy",
            ejected.iter().filter(|&&x| x).count(),
            n1 - n0,
        );
        match (threshold > 0.0, fail) {
            (true, false) => {
                assert!(ejected_mean > 0.0, "{served:?}");
                assert!(
                    ejected_mean > 0.7 * healthy_mean && ejected_mean < 1.3 * healthy_mean,
                    "{served:?}"
                );
            }
            (false, _) => {
                assert_eq!(ejected_mean, 0.0, "{served:?}");
                assert!(healthy_mean > 0.0, "{served:?}");
            }
            (true, true) => assert_eq!(served.iter().sum::<u64>(), 0, "{served:?}"),
        }
    }
}

/// Four instances under round robin, a fifth starting at 100 s with a slow-start window of
/// 60 s: the scheduler (EDF) gives it max(10 %, age / 60 s) of an old host's weight, so its
/// share of the requests of each slice of the window is the mean of w / (w + 4) over the
/// slice, within one percentage point; after the window it takes its fifth. Without slow
/// start it takes its fifth at once.
#[test]
fn a_new_host_ramps_up_over_the_slow_start_window() {
    let config = RunConfig {
        instances: 4,
        workers_per_instance: 8,
        arrival_rate: 200.0,
        service_s: 0.05,
        customers: 40_000,
        warmup: 0,
        routing: Routing::RoundRobin,
        timeout_s: None,
        seed: 17,
    };
    let times = arrival_times(&config, 40_000);
    let start = InstanceChange {
        at_s: 100.0,
        instance: 4,
        kind: ChangeKind::Start,
    };
    let window = 60.0;
    let ramp = SlowStart::window(window);
    for slow_start in [Some(ramp), None] {
        let options = Options {
            changes: vec![start],
            host_selection: HostSelection {
                slow_start,
                ..HostSelection::default()
            },
            ..Options::default()
        };
        let mut shares = Vec::new();
        for k in 0..8 {
            let (a, b) = (100.0 + 10.0 * f64::from(k), 110.0 + 10.0 * f64::from(k));
            let served = served_between(
                &config,
                &options,
                arrived_by(&times, a),
                arrived_by(&times, b),
            );
            let share = served[4] as f64 / served.iter().sum::<u64>() as f64;
            // The expected share: w / (w + 4) averaged over the slice.
            let steps = 1000;
            let expected = match slow_start {
                Some(s) => {
                    (0..steps)
                        .map(|j| {
                            let age = (a - 100.0) + (b - a) * (f64::from(j) + 0.5) / 1000.0;
                            let w = s.factor(age);
                            w / (w + 4.0)
                        })
                        .sum::<f64>()
                        / f64::from(steps)
                }
                None => 0.2,
            };
            shares.push((share, expected));
            assert!(
                (share - expected).abs() < 0.01,
                "slow start {slow_start:?}, [{a}, {b}) s: share {share:.4}, expected {expected:.4}"
            );
        }
        println!(
            "slow start {:?}: the new host's share by 10 s slice (measured, expected): {:?}",
            slow_start.map(|s| s.window_s),
            shares
                .iter()
                .map(|(m, e)| format!("{m:.3}/{e:.3}"))
                .collect::<Vec<_>>()
        );
        let out = run_first(&config, &options, arrived_by(&times, 130.0));
        assert_eq!(out.hosts.slow_start, u32::from(slow_start.is_some()));
    }
}

/// Least request under slow start weighs each host by 1 / (active requests + 1) times its
/// slow-start factor (Envoy's EDF instead of its two choices while a host is in its window):
/// the new host's share starts near the minimum weight's and grows over the window.
#[test]
fn least_request_ramps_a_new_host_too() {
    let config = RunConfig {
        instances: 4,
        workers_per_instance: 8,
        arrival_rate: 200.0,
        service_s: 0.05,
        customers: 40_000,
        warmup: 0,
        routing: Routing::LeastRequest,
        timeout_s: None,
        seed: 19,
    };
    let times = arrival_times(&config, 40_000);
    let options = Options {
        changes: vec![InstanceChange {
            at_s: 100.0,
            instance: 4,
            kind: ChangeKind::Start,
        }],
        host_selection: HostSelection {
            slow_start: Some(SlowStart::window(60.0)),
            ..HostSelection::default()
        },
        ..Options::default()
    };
    let share_in = |a: f64, b: f64| {
        let served = served_between(
            &config,
            &options,
            arrived_by(&times, a),
            arrived_by(&times, b),
        );
        served[4] as f64 / served.iter().sum::<u64>() as f64
    };
    let shares: Vec<f64> = (0..4)
        .map(|k| share_in(100.0 + 15.0 * f64::from(k), 115.0 + 15.0 * f64::from(k)))
        .collect();
    let after = share_in(170.0, 200.0);
    println!("least request: the new host's share by 15 s slice {shares:.3?}, after {after:.3}");
    assert!(shares[0] < 0.1, "{shares:?}");
    assert!(shares.windows(2).all(|w| w[0] < w[1]), "{shares:?}");
    assert!((after - 0.2).abs() < 0.02, "{after}");
}

// ---- Request mode: the minute model's request engine, tick by tick ----

use oncall_sim::engine::requests::{RequestConditions, RequestEngine, SlowFault};
use oncall_sim::engine::{ServiceModel, TickInput};
use oncall_sim::requests::{Hedging, KeySpace, ServiceShape};
use oncall_sim::share::{owned_pairs, ShareState};

/// The host selection a link sets (and the link it writes back reads the same).
fn linked(pairs: &[(&str, &str)]) -> HostSelection {
    let (state, notices, rest) = ShareState::from_pairs(&owned_pairs(pairs));
    assert!(
        notices.is_empty() && rest.is_empty(),
        "{notices:?} {rest:?}"
    );
    let again = ShareState::from_pairs(&state.to_pairs()).0;
    assert_eq!(again.params, state.params);
    state.params.host_selection()
}

fn tick_input(serving: u32, c: RequestConditions) -> TickInput {
    TickInput {
        lambda: 100.0,
        service_s: 0.05,
        serving,
        workers_per_instance: 4,
        timeout_s: 0.2,
        admission: None,
        want_p95: false,
        cold_start: None,
        requests: RequestConditions { tick_s: 1.0, ..c },
        failed_over: Default::default(),
    }
}

/// Request mode with `outlier_detection=on` from a link: instance 0 of ten is a thousand times
/// slower, so without outlier detection a tenth of the requests time out on it; with it,
/// instance 0 is ejected at its fifth failure, back for a moment every 30, 60, 90 s … and the
/// timeouts fall to a small share. The minute's figures count the ejections and show it
/// ejected at the minute's end. The same on the event list (hedging on from the start, its
/// delay past the timeout so that no hedge is sent).
#[test]
fn request_mode_ejects_a_failing_instance() {
    let on = linked(&[("outlier_detection", "on"), ("engine", "requests")]);
    assert_eq!(on.outlier, Some(OutlierConfig::default()));
    assert_eq!(linked(&[]), HostSelection::default());
    for hedging in [None, Some(Hedging::default())] {
        let mut timeouts = Vec::new();
        for host_selection in [HostSelection::default(), on] {
            let c = RequestConditions {
                routing: Routing::RoundRobin,
                slow: Some(SlowFault {
                    instance: 0,
                    factor: 1000.0,
                }),
                hedging,
                host_selection,
                ..RequestConditions::default()
            };
            let input = tick_input(10, c);
            let mut engine = RequestEngine::new(9, KeySpace::default(), ServiceShape::Exponential);
            let mut minutes = Vec::new();
            for _ in 0..5 {
                for _ in 0..60 {
                    engine.tick(&input);
                }
                engine.close_minute();
                minutes.push(engine.requests().unwrap().clone());
            }
            let late: u64 = minutes[1..].iter().map(|m| m.timeouts).sum();
            let arrivals: u64 = minutes[1..].iter().map(|m| m.arrivals).sum();
            println!(
                "request mode, hedging {}, outliers {}: timeouts {:.4} of minutes 2-5, by minute {:?}",
                hedging.is_some(),
                host_selection.outlier.is_some(),
                late as f64 / arrivals as f64,
                minutes.iter().map(|m| m.hosts).collect::<Vec<_>>()
            );
            timeouts.push(late as f64 / arrivals as f64);
            if host_selection.outlier.is_some() {
                assert!(minutes[0].hosts.ejections >= 1, "{:?}", minutes[0].hosts);
                assert!(minutes.iter().all(|m| m.hosts.ejected <= 1));
                assert_eq!(minutes[4].hosts.ejected, 1);
            } else {
                assert!(minutes.iter().all(|m| m.hosts == Default::default()));
            }
        }
        assert!(timeouts[0] > 0.08, "{timeouts:?}");
        assert!(timeouts[1] < 0.25 * timeouts[0], "{timeouts:?}");
    }
}

/// Request mode with `slow_start_window_s=60`: a fifth instance that starts serving at minute
/// 2 takes, over its first minute, the share of the requests its ramp gives (the mean of
/// w / (w + 4) over the window), and its fifth after it; without slow start, its fifth at once.
#[test]
fn request_mode_ramps_a_new_instance() {
    let ramp = linked(&[("slow_start_window_s", "60"), ("lb", "round-robin")]);
    assert_eq!(ramp.slow_start, Some(SlowStart::window(60.0)));
    let window = SlowStart::window(60.0);
    let expected_first: f64 = (0..6000)
        .map(|j| {
            let w = window.factor((f64::from(j) + 0.5) / 100.0);
            w / (w + 4.0)
        })
        .sum::<f64>()
        / 6000.0;
    for (host_selection, first) in [(ramp, expected_first), (HostSelection::default(), 0.2)] {
        let c = RequestConditions {
            routing: Routing::RoundRobin,
            host_selection,
            ..RequestConditions::default()
        };
        let mut engine = RequestEngine::new(4, KeySpace::default(), ServiceShape::Exponential);
        let mut shares = Vec::new();
        for minute in 0..4 {
            let input = tick_input(if minute < 2 { 4 } else { 5 }, c);
            for _ in 0..60 {
                engine.tick(&input);
            }
            engine.close_minute();
            let m = engine.requests().unwrap();
            let total: u64 = m.instances.iter().map(|i| i.served).sum();
            let new = m.instances.get(4).map_or(0, |i| i.served);
            shares.push(new as f64 / total as f64);
        }
        println!(
            "request mode, slow start {:?}: the new instance's share by minute {shares:.4?} (expected {first:.4} in its first minute)",
            host_selection.slow_start.map(|s| s.window_s)
        );
        assert!((shares[2] - first).abs() < 0.01, "{shares:?}");
        assert!((shares[3] - 0.2).abs() < 0.01, "{shares:?}");
    }
}
