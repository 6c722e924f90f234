//! Request mode: the request-level engine as the minute model's service stage, its
//! parameters, links, validation and scenarios.

use oncall_sim::engine::formulas::QueueFormulas;
use oncall_sim::engine::requests::{
    latency_bin_edge, RequestConditions, RequestEngine, LATENCY_BINS,
};
use oncall_sim::engine::{FailedOver, ServiceModel, TickInput};
use oncall_sim::ids::ScenarioId;
use oncall_sim::params::{EngineKind, Switch};
use oncall_sim::queueing;
use oncall_sim::requests::{KeySpace, Routing, ServiceShape};
use oncall_sim::setup::RunSetup;
use oncall_sim::share::{owned_pairs, NoticeKind, ShareState};
use oncall_sim::{Action, ActionKind, ModelParams};

fn steady(lambda: f64, service_s: f64, serving: u32, workers: u32, routing: Routing) -> TickInput {
    TickInput {
        lambda,
        service_s,
        serving,
        workers_per_instance: workers,
        timeout_s: 2.0,
        admission: None,
        want_p95: false,
        cold_start: None,
        requests: RequestConditions {
            tick_s: 60.0,
            routing,
            ..RequestConditions::default()
        },
        failed_over: Default::default(),
    }
}

/// Mean and standard error of the per-minute values (batch means).
fn mean_and_error(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// The engine against the formulas on a steady load: one instance of N workers is the
/// pooled M/M/N+D queue the formulas solve, so the measured utilization and the share of
/// requests that wait must be the formulas' within the statistical error.
///
/// The error is estimated by batch means over one-minute batches: a minute holds 67,500
/// requests, and the queue forgets its state within seconds (at ρ ≈ 0.94 with 120 workers the
/// busy periods and waits last a fraction of a second, the timeout is 2 s), so successive
/// minutes are nearly independent and their spread gives the standard error of the mean.
/// The first minute (the queue starts empty) is left out. The bound is 4 standard errors: a
/// correct engine fails it with probability below 1e-4, and the seed is fixed.
#[test]
fn on_a_steady_load_the_engine_agrees_with_erlang_c() {
    let (lambda, service_s, workers) = (1125.0, 0.1, 120);
    let input = steady(lambda, service_s, 1, workers, Routing::LeastRequest);
    let formula = queueing::solve(lambda, service_s, workers, 2.0);
    let mut engine = RequestEngine::new(11, KeySpace::default(), ServiceShape::Exponential);
    let (mut util, mut wait) = (Vec::new(), Vec::new());
    for minute in 0..41 {
        let out = engine.tick(&input);
        engine.close_minute();
        if minute > 0 {
            util.push(out.queue.utilization);
            wait.push(out.queue.p_wait);
        }
        // The formulas' values travel beside the measured ones.
        let m = engine.requests().unwrap();
        assert_eq!(m.formula.p_wait, formula.p_wait);
        assert_eq!(m.formula.utilization, formula.utilization);
    }
    let (u, u_err) = mean_and_error(&util);
    let (w, w_err) = mean_and_error(&wait);
    eprintln!(
        "M/M/{workers}+D, a = {}: utilization {u:.5} ± {u_err:.5} (formula {:.5}), P(wait) {w:.5} ± {w_err:.5} (formula {:.5})",
        lambda * service_s,
        formula.utilization,
        formula.p_wait
    );
    // a = 112.5 Erlangs on 120 workers: utilization 0.9375 (few give up), Erlang C about 0.4.
    assert!((formula.utilization - 0.9375).abs() < 0.002, "{formula:?}");
    assert!(
        (u - formula.utilization).abs() < 4.0 * u_err,
        "utilization {u:.5} ± {u_err:.5} vs {:.5}",
        formula.utilization
    );
    assert!(
        (w - formula.p_wait).abs() < 4.0 * w_err,
        "p_wait {w:.5} ± {w_err:.5} vs {:.5}",
        formula.p_wait
    );
    // And the agreement is tight in absolute terms.
    assert!(u_err < 0.002 && w_err < 0.01, "{u_err} {w_err}");
}

/// Over ten instances the utilization does not depend on the policy (every request is
/// served somewhere): each policy gives the formulas' utilization within the error.
#[test]
fn every_policy_keeps_the_utilization_of_the_formulas() {
    let (lambda, service_s) = (1000.0, 0.06);
    for routing in Routing::ALL {
        let input = steady(lambda, service_s, 10, 12, *routing);
        let formula = queueing::solve(lambda, service_s, 120, 2.0);
        let mut engine = RequestEngine::new(5, KeySpace::default(), ServiceShape::Exponential);
        let mut util = Vec::new();
        for minute in 0..9 {
            let out = engine.tick(&input);
            engine.close_minute();
            if minute > 0 {
                util.push(out.queue.utilization);
            }
        }
        let (u, err) = mean_and_error(&util);
        eprintln!("{routing}: utilization {u:.5} ± {err:.5} (formula 0.5)");
        // ρ = 0.5 and no timeouts: the formula's utilization is λS/N.
        assert!((formula.utilization - 0.5).abs() < 1e-9);
        // The hash policies split the load unevenly but still serve every request.
        assert!(
            (u - 0.5).abs() < 4.0 * err + 1e-3,
            "{routing}: {u:.5} ± {err:.5}"
        );
    }
}

#[test]
fn the_minute_summary_adds_up() {
    let input = steady(1125.0, 0.07, 10, 16, Routing::RoundRobin);
    let mut engine = RequestEngine::new(3, KeySpace::default(), ServiceShape::Exponential);
    engine.tick(&input);
    let p99 = engine.close_minute().unwrap();
    let m = engine.requests().unwrap();
    assert_eq!(m.minute, 0);
    assert_eq!(m.instances.len(), 10);
    let per_instance: u64 = m.instances.iter().map(|i| i.served).sum();
    assert_eq!(per_instance, m.served);
    assert_eq!(m.latency.counts.iter().sum::<u64>(), m.served);
    assert_eq!(m.served + m.timeouts + m.rejected, m.arrivals);
    // About 67,500 Poisson arrivals: within 4 standard deviations (√67,500 ≈ 260).
    assert!(
        (m.arrivals as f64 - 67_500.0).abs() < 1040.0,
        "{}",
        m.arrivals
    );
    assert!(m.p50_s > 0.0 && m.p50_s < m.p99_s && m.p99_s == p99);
    // Round robin gives every instance a tenth of the requests.
    for load in &m.instances {
        assert!((load.served as f64 / m.served as f64 - 0.1).abs() < 0.005);
        assert!(load.serving && load.utilization > 0.4 && load.utilization < 0.6);
    }
    // The p99 falls in the bin the histogram puts the 99th percent in.
    let mut seen = 0;
    let bin = (0..LATENCY_BINS)
        .find(|&k| {
            seen += m.latency.counts[k];
            seen as f64 >= 0.99 * m.served as f64
        })
        .unwrap();
    assert!(latency_bin_edge(bin) <= p99 && p99 < latency_bin_edge(bin + 1));
    assert_eq!(m.tokens_left, None);
    assert!(!m.hedging);
}

#[test]
fn the_histogram_bins_are_quarter_doublings_from_about_a_millisecond() {
    assert_eq!(latency_bin_edge(0), 1.0 / 1024.0);
    assert_eq!(latency_bin_edge(4), 1.0 / 512.0);
    assert_eq!(latency_bin_edge(40), 1.0);
    assert!((latency_bin_edge(2) - (2.0f64).sqrt() / 1024.0).abs() < 1e-15);
}

fn records_of(setup: &RunSetup, minutes: u32) -> String {
    let outcome = setup.run(minutes).unwrap();
    outcome
        .history
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn request_mode_gives_the_same_records_byte_for_byte() {
    for (scenario, extra) in [
        (
            ScenarioId::FreePlay,
            vec![("engine", "requests"), ("lb", "maglev")],
        ),
        (ScenarioId::SlowInstance, vec![("hedge", "on")]),
    ] {
        let mut setup = RunSetup::new(scenario, 17);
        for (k, v) in &extra {
            setup.set(k, v).unwrap();
        }
        let a = records_of(&setup, 20);
        let b = records_of(&setup, 20);
        assert_eq!(a, b);
        // And the engine is really used: another seed gives other requests.
        let mut other = setup.clone();
        other.seed = 18;
        assert_ne!(a, records_of(&other, 20));
    }
}

#[test]
fn the_new_parameters_round_trip_through_a_link() {
    let pairs = owned_pairs(&[
        ("scenario", "free-play"),
        ("seed", "4"),
        ("engine", "requests"),
        ("lb", "ring-hash"),
        ("hedge", "on"),
        ("hedge_delay_ms", "500"),
        ("hedge_max_tokens", "20"),
        ("hedge_refill_ratio", "0.05"),
        ("total_timeout_s", "30"),
        ("actions", "3:lb=least-request,5:hedge=off"),
    ]);
    let (state, notices, rest) = ShareState::from_pairs(&pairs);
    assert!(notices.is_empty(), "{notices:?}");
    assert!(rest.is_empty());
    assert_eq!(state.params.engine, Some(EngineKind::Requests));
    assert_eq!(state.params.lb, Some(Routing::RingHash));
    assert_eq!(state.params.hedge, Some(Switch::On));
    assert_eq!(state.params.hedge_delay_ms, 500.0);
    assert_eq!(state.params.hedge_max_tokens, 20);
    assert_eq!(state.params.hedge_refill_ratio, 0.05);
    assert_eq!(state.params.total_timeout_s, 30.0);
    assert_eq!(
        state.actions,
        vec![
            Action {
                minute: 3,
                kind: ActionKind::Lb(Routing::LeastRequest)
            },
            Action {
                minute: 5,
                kind: ActionKind::Hedge(false)
            },
        ]
    );
    let (again, notices, _) = ShareState::from_pairs(&state.to_pairs());
    assert!(notices.is_empty());
    assert_eq!(again, state);
    // Defaults write nothing.
    let plain = ShareState::default().to_pairs();
    assert!(plain
        .iter()
        .all(|(k, _)| !["engine", "lb", "hedge", "ordering_keys"].contains(&k.as_str())));
}

#[test]
fn bad_values_give_the_same_kind_of_notice() {
    let pairs = owned_pairs(&[
        ("engine", "magic"),
        ("lb", "fastest"),
        ("hedge", "maybe"),
        ("hedge_delay_ms", "50"),
        ("hedge_max_tokens", "251"),
    ]);
    let (state, notices, _) = ShareState::from_pairs(&pairs);
    let params: Vec<&str> = notices.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(
        params,
        [
            "engine",
            "lb",
            "hedge",
            "hedge_delay_ms",
            "hedge_max_tokens"
        ]
    );
    assert!(notices.iter().all(|n| n.kind == NoticeKind::Invalid));
    let lb = notices[1].allowed.to_string();
    assert!(lb.contains("round-robin") && lb.contains("maglev"), "{lb}");
    assert!(notices[3].allowed.to_string().contains("100 to 10000"));
    assert_eq!(state.params, ModelParams::default());
}

#[test]
fn a_hedge_delay_not_below_both_timeouts_is_refused_naming_both() {
    // From the command line's path: the rule on the whole set.
    let mut setup = RunSetup::new(ScenarioId::FreePlay, 1);
    setup.set("hedge", "on").unwrap();
    setup.set("hedge_delay_ms", "2500").unwrap();
    let e = setup.check_rules(&["hedge", "hedge_delay_ms"]).unwrap_err();
    assert_eq!(e.field, "hedge_delay_ms");
    let text = e.problem.to_string();
    assert!(
        text.contains("timeout_s: 2 s") && text.contains("total_timeout_s: 600 s"),
        "{text}"
    );
    assert!(setup.build().is_err());
    // Below the request timeout but not the total one.
    setup.set("hedge_delay_ms", "1500").unwrap();
    setup.set("total_timeout_s", "1").unwrap();
    assert_eq!(setup.check_rules(&[]).unwrap_err().field, "hedge_delay_ms");
    setup.set("total_timeout_s", "600").unwrap();
    assert!(setup.check_rules(&[]).is_ok());
    // Hedging with ordering keys.
    setup.set("ordering_keys", "on").unwrap();
    let e = setup.check_rules(&[]).unwrap_err();
    assert_eq!(e.field, "hedge");
    assert!(e.problem.to_string().contains("ordering_keys"));
    // Off, the rule does not apply.
    setup.set("hedge", "off").unwrap();
    assert!(setup.check_rules(&[]).is_ok());

    // From a link: a notice naming both, the delay back to its default.
    let (state, notices, _) =
        ShareState::from_pairs(&owned_pairs(&[("hedge", "on"), ("hedge_delay_ms", "3000")]));
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].kind, NoticeKind::Rule);
    assert_eq!(notices[0].param, "hedge_delay_ms");
    assert_eq!(notices[0].value, "3000");
    assert!(notices[0].allowed.to_string().contains("total_timeout_s"));
    assert_eq!(state.params.hedge_delay_ms, 1000.0);
    assert_eq!(state.params.hedge, Some(Switch::On));
    // A request timeout below the default delay: hedging goes off.
    let (state, notices, _) =
        ShareState::from_pairs(&owned_pairs(&[("hedge", "on"), ("timeout_s", "0.5")]));
    assert_eq!(notices.len(), 1);
    assert_eq!(state.params.hedge, Some(Switch::Off));
    assert_eq!(state.params.timeout_s, 0.5);
}

#[test]
fn turning_hedging_on_against_the_rule_is_refused_during_a_run() {
    let mut setup = RunSetup::new(ScenarioId::FreePlay, 2);
    setup.set("engine", "requests").unwrap();
    setup.set("timeout_s", "0.5").unwrap();
    setup.actions = vec![Action {
        minute: 1,
        kind: ActionKind::Hedge(true),
    }];
    let outcome = setup.run(3).unwrap();
    let refused = outcome.events.iter().any(|e| {
        matches!(&e.kind, oncall_sim::EventKind::ActionRefused { reason, .. }
            if reason.to_string().contains("total timeout"))
    });
    assert!(refused, "{:?}", outcome.events);
}

#[test]
fn the_formulas_stay_the_default_and_the_new_scenarios_run_on_requests() {
    let sim = RunSetup::new(ScenarioId::FreePlay, 1).build().unwrap();
    assert!(sim.last_requests().is_none());
    for id in [ScenarioId::SlowInstance, ScenarioId::HotKey] {
        let mut sim = RunSetup::new(id, 1).build().unwrap();
        sim.step();
        let m = sim.last_requests().expect("request mode");
        assert_eq!(m.minute, 0);
        assert!(m.served > 60_000, "{}", m.served);
        // The link can still ask for the formulas.
        let mut setup = RunSetup::new(id, 1);
        setup.set("engine", "formulas").unwrap();
        let mut sim = setup.build().unwrap();
        sim.step();
        assert!(sim.last_requests().is_none());
    }
}

/// The two scenarios of request mode left alone page, and their textbook responses (hedging
/// for the slow instance, least request for the hot key) spend less of the budget; the
/// debrief's coaching reads both without trouble. (The par search's first step: doing nothing
/// and the textbook; the best single action is the same search as for every scenario.)
#[test]
fn the_request_scenarios_page_and_their_textbook_responses_help() {
    use oncall_sim::coach;
    use oncall_sim::par::{ParKind, ParSearch};
    for (id, seed) in [(ScenarioId::SlowInstance, 1), (ScenarioId::HotKey, 7)] {
        let setup = RunSetup::new(id, seed);
        let mut search = ParSearch::new(&setup, 45);
        assert!(!search.step().unwrap(), "{id}: more lines to come");
        let lines = search.lines().to_vec();
        assert_eq!(lines.len(), 2, "{id}: {lines:?}");
        assert_eq!(lines[0].kind, ParKind::NothingDone);
        assert!(lines[0].minutes_paging > 0, "{id}: {lines:?}");
        assert_eq!(lines[1].kind, ParKind::Textbook);
        assert!(
            lines[1].budget_spent < 0.6 * lines[0].budget_spent,
            "{id}: {lines:?}"
        );
        let outcome = setup.run(45).unwrap();
        let opening_ttl = oncall_sim::exercise::scenario(id).settings.cache_ttl_s;
        let _ = coach::warnings(&outcome.summary, opening_ttl, &lines);
        let _ = coach::verdict(&outcome.summary, &lines);
        assert!(coach::worst_minute(&outcome.history).is_some());
    }
}

/// Every model parameter at each end of its range, in request mode with hedging on (the event
/// list) on a hash policy with a hot key: a minute runs, and its figures are numbers.
#[test]
fn extreme_parameters_in_request_mode() {
    for spec in ModelParams::SPECS {
        for value in [spec.min, spec.max] {
            let mut setup = RunSetup::new(ScenarioId::HotKey, 3);
            setup.set("hedge", "on").unwrap();
            setup.set(spec.name, &format!("{value}")).unwrap();
            // A hedging rule broken by an extreme timeout is refused as a whole.
            let Ok(mut sim) = setup.build() else {
                assert!(setup.check_rules(&[]).is_err(), "{} = {value}", spec.name);
                continue;
            };
            let r = sim.step().clone();
            assert!(
                r.p99_ms.is_finite() && r.error_rate.is_finite() && r.utilization.is_finite(),
                "{} = {value}: {r:?}",
                spec.name
            );
            assert!(sim.last_requests().is_some());
        }
    }
}

/// The elastic configuration's `lb_policy` names the request engine's policies.
#[test]
fn the_elastic_lb_policy_selects_the_same_policy() {
    use oncall_sim::autoscale::elastic::config::LB_POLICIES;
    for name in LB_POLICIES {
        let p = Routing::from_envoy(name).unwrap();
        let spelled = name.to_lowercase().replace('_', "-");
        assert_eq!(p.as_str(), spelled);
        assert_eq!(p.envoy_name(), *name);
    }
}

/// FNV-1a over the bytes of a run's JSON lines: the digest the browser's test checks too
/// (`tests/web.rs`), so both compute the same requests, byte for byte.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Request mode under Maglev with hedging, eight minutes of free play, seed 9.
const REQUEST_MODE_DIGEST: u64 = 0xe72f_612a_adcd_3eb0;

#[test]
fn request_mode_output_has_the_digest_the_browser_checks() {
    let params = ModelParams {
        engine: Some(EngineKind::Requests),
        lb: Some(Routing::Maglev),
        hedge: Some(Switch::On),
        ..ModelParams::default()
    };
    let free_play = oncall_sim::exercise::scenario(ScenarioId::FreePlay);
    let out = oncall_sim::run_jsonl(&free_play, 9, params, &[], 8);
    assert!(out.lines().count() >= 8);
    assert_eq!(
        fnv1a(out.as_bytes()),
        REQUEST_MODE_DIGEST,
        "{:#x}",
        fnv1a(out.as_bytes())
    );
}

/// One instance of 20 workers of 100 ms at ρ = 0.99, τ = 2 s: waits spread over the timeout.
fn near_saturation(failed_over: FailedOver) -> TickInput {
    TickInput {
        failed_over,
        ..steady(198.0, 0.1, 1, 20, Routing::LeastRequest)
    }
}

#[test]
fn failed_over_requests_have_the_penalty_less_to_wait() {
    let half = |penalty_s| FailedOver {
        share: 0.5,
        penalty_s,
    };
    let none = FailedOver::default();
    let base = QueueFormulas::default().tick(&near_saturation(none));
    // Without a penalty, or without failed-over users, nothing changes.
    for f in [
        half(0.0),
        FailedOver {
            share: 0.0,
            penalty_s: 1.5,
        },
    ] {
        assert_eq!(QueueFormulas::default().tick(&near_saturation(f)), base);
    }
    // The formulas: a share P(V > τ − Δ) of the failed-over requests times out.
    let tail = base.queue.tail;
    let far = queueing::failed_over_timeout_share(&tail, 2.0, 1.5);
    assert_eq!(far, tail.wait_over(0.5));
    assert_eq!(
        queueing::failed_over_timeout_share(&tail, 2.0, 0.0),
        tail.abandon_share()
    );
    assert_eq!(queueing::failed_over_timeout_share(&tail, 2.0, 2.5), 1.0);
    let penalised = QueueFormulas::default().tick(&near_saturation(half(1.5)));
    let want = base.queue.timeout_share + 0.5 * (far - tail.abandon_share());
    assert_eq!(penalised.queue.timeout_share, want);
    assert!(want > base.queue.timeout_share + 0.05, "{want} vs {base:?}");

    // The requests, one by one: the same draws, and a failed-over request times out when
    // it waits longer than τ − Δ.
    let minutes = 12;
    let run = |f: FailedOver| -> Vec<(oncall_sim::engine::TickOutcome, f64)> {
        let mut engine = RequestEngine::new(3, KeySpace::default(), ServiceShape::Exponential);
        (0..minutes)
            .map(|_| {
                let out = engine.tick(&near_saturation(f));
                engine.close_minute();
                (out, engine.requests().unwrap().formula.timeout_share)
            })
            .collect()
    };
    let plain = run(none);
    assert_eq!(run(half(0.0)), plain);
    assert_eq!(
        run(FailedOver {
            share: 0.0,
            penalty_s: 1.5
        }),
        plain
    );
    let late = run(half(1.5));
    let shares: Vec<f64> = late[1..]
        .iter()
        .map(|(o, _)| o.queue.timeout_share)
        .collect();
    let (mean, error) = mean_and_error(&shares);
    let plain_mean = plain[1..]
        .iter()
        .map(|(o, _)| o.queue.timeout_share)
        .sum::<f64>()
        / (minutes - 1) as f64;
    assert!(mean > plain_mean + 0.05, "{mean} vs {plain_mean}");
    // And as many as the formula says, within the statistical error.
    assert_eq!(late[1].1, want);
    assert!(
        (mean - want).abs() < 4.0 * error,
        "{mean} ± {error} vs {want}"
    );
}

/// The request panel's minute carries the incident's fault while it is in force (the slow
/// instance, the hot key's share while a hash policy routes), so the panel can say what the
/// formulas beside the requests leave out; before the fault, and for the hot key once least
/// request routes, it carries none.
#[test]
fn the_minute_names_the_fault_the_formulas_leave_out() {
    use oncall_sim::scenario::Scripted;
    for (id, lb) in [
        (ScenarioId::SlowInstance, None),
        (ScenarioId::HotKey, None),
        (ScenarioId::HotKey, Some("least-request")),
    ] {
        let (start, expected) = match oncall_sim::exercise::scenario(id).script(1).as_slice() {
            [Scripted::SlowInstance { minute, factor, .. }] => (*minute, *factor),
            [Scripted::HotKey { minute, share, .. }] => (*minute, *share),
            other => panic!("{other:?}"),
        };
        let mut setup = RunSetup::new(id, 1);
        if let Some(lb) = lb {
            setup.set("lb", lb).unwrap();
        }
        let mut sim = setup.build().unwrap();
        let fault = |sim: &oncall_sim::Simulation| {
            let m = sim.last_requests().unwrap();
            match id {
                ScenarioId::SlowInstance => m.slow.map_or(0.0, |s| s.factor),
                _ => m.hot_key_share,
            }
        };
        for _ in 0..start {
            sim.step();
        }
        assert_eq!(fault(&sim), 0.0, "{id} before minute {start}");
        sim.step();
        sim.step();
        let seen = fault(&sim);
        if lb.is_some() {
            assert_eq!(seen, 0.0, "{id} routed by least request");
        } else {
            assert_eq!(seen, expected, "{id} at minute {}", start + 1);
        }
    }
}
