//! Properties over random parameters: outputs finite, shares within 0–1, Erlang C falling as
//! servers are added.

use oncall_sim::{queueing, Action, ActionKind, ModelParams, Simulation};
use proptest::prelude::*;

proptest! {
    #[test]
    fn erlang_c_falls_as_servers_are_added(a in 0.01f64..200.0, n in 1u32..300) {
        let c1 = queueing::erlang_c(a, n);
        let c2 = queueing::erlang_c(a, n + 1);
        prop_assert!((0.0..=1.0).contains(&c1));
        prop_assert!(c2 <= c1 + 1e-12, "C({a}, {n}) = {c1} < C({a}, {}) = {c2}", n + 1);
        let b = queueing::erlang_b(a, n);
        prop_assert!((0.0..=1.0).contains(&b) && b <= c1 + 1e-12);
    }

    #[test]
    fn queue_outputs_are_finite_shares(lambda in 0.0f64..20_000.0, s in 0.001f64..3.0, n in 0u32..700, timeout in 0.1f64..10.0) {
        let q = queueing::solve(lambda, s, n, timeout);
        for share in [q.erlang_c, q.utilization, q.timeout_share] {
            prop_assert!(share.is_finite() && (0.0..=1.0).contains(&share), "{q:?}");
        }
        // A served request waited less than the timeout, then was served: its time is at
        // most the timeout plus a service time, whose p99 is S·ln 100.
        prop_assert!(q.p99_s.is_finite() && q.p99_s > 0.0, "{q:?}");
        prop_assert!(q.p99_s <= timeout + s * 100f64.ln() + 1e-9, "{q:?}");
        prop_assert!(q.p99_approx_s.is_finite() && q.mean_wait_s.is_finite());
    }

    #[test]
    fn exact_p99_solves_its_equation(lambda in 0.1f64..500.0, s in 0.01f64..1.0, n in 1u32..200) {
        let c = queueing::erlang_c(lambda * s, n);
        if let Some(t) = queueing::sojourn_p99_exact(c, s, n, lambda) {
            let theta = queueing::drain_rate(n, s, lambda);
            let tail = queueing::sojourn_tail(c, 1.0 / s, theta, t);
            prop_assert!((tail - 0.01).abs() < 1e-9, "P(T > {t}) = {tail}");
        }
    }

    #[test]
    fn runs_stay_finite_under_any_actions(
        which in 0usize..4,
        policy in 0usize..5,
        seed in any::<u32>(),
        raw in proptest::collection::vec((0u32..90, 0usize..8, 0.0f64..1.0), 0..12),
    ) {
        let s = oncall_sim::exercise::scenario(oncall_sim::ids::ScenarioId::ALL[which]);
        let params = ModelParams::default();
        let mut sim = Simulation::new(&s, seed, params.clone());
        let id = oncall_sim::autoscale::PolicyId::ALL[policy];
        let settings = oncall_sim::autoscale::PolicySettings::default();
        sim.set_autoscaler(oncall_sim::autoscale::build(id, &settings, &params).unwrap());
        let actions = raw.into_iter().map(|(minute, k, x)| {
            let kind = match k {
                0 => ActionKind::MinInstances(1 + (x * 39.0) as u32),
                1 => ActionKind::Autoscaling(x < 0.5),
                2 => ActionKind::TargetUtilization(0.1 + x * 0.85),
                3 => ActionKind::CacheTtlS(1 + (x * 3599.0) as u32),
                4 => ActionKind::WarmCache,
                5 => ActionKind::ShedLowPriority(x),
                6 => ActionKind::HeavyFeature(x < 0.5),
                _ => ActionKind::Rollback,
            };
            Action { minute, kind }
        });
        sim.schedule(actions);
        sim.run(100);
        for r in sim.history() {
            for share in [r.cache_hit, r.shed_share, r.bad_build_share, r.feature_available,
                r.utilization, r.error_rate, r.timeout_share, r.cache_warm, r.erlang_c, r.rejected_share] {
                prop_assert!(share.is_finite() && (0.0..=1.0).contains(&share), "{r:?}");
            }
            for x in [r.requests_per_s, r.db_utilization, r.fleet_cost_per_hour, r.cost_so_far,
                r.cache_age_s, r.p99_ms, r.p99_approx_ms, r.burn_rate_1h, r.burn_rate_5m,
                r.budget_left, r.capacity_per_s, r.service_time_ms, r.query_time_ms] {
                prop_assert!(x.is_finite(), "{r:?}");
            }
            prop_assert!(r.serving + r.booting <= 2 * 40);
        }
    }
}
