//! Every relation against values computed independently: textbook tables and hand
//! calculations written out here.

use oncall_sim::{budget, cache, database, queueing, traffic};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn erlang_b_matches_published_tables() {
    // Erlang B table (grade of service for N trunks and A Erlangs), e.g. the ITU tables:
    // N = 10, A = 5 → 0.01838; N = 10, A = 10 → 0.2146; N = 5, A = 2 → 0.03670.
    assert!(close(queueing::erlang_b(5.0, 10), 0.018_38, 5e-5));
    assert!(close(queueing::erlang_b(10.0, 10), 0.214_58, 5e-5));
    assert!(close(queueing::erlang_b(2.0, 5), 0.036_70, 5e-5));
    // By hand for N = 1: B = a/(1 + a).
    assert!(close(queueing::erlang_b(3.0, 1), 0.75, 1e-15));
}

#[test]
fn erlang_c_by_hand() {
    // M/M/3 with a = 2: C = (a³/3!)·(3/(3 − a)) / (Σ_{k<3} a^k/k! + (a³/3!)·(3/(3 − a)))
    //   = (8/6 · 3) / (1 + 2 + 2 + 4) = 4/9.
    assert!(close(queueing::erlang_c(2.0, 3), 4.0 / 9.0, 1e-12));
    // M/M/1: C = ρ.
    assert!(close(queueing::erlang_c(0.7, 1), 0.7, 1e-12));
    // M/M/10 at a = 8: 0.4092 (standard call-centre tables).
    assert!(close(queueing::erlang_c(8.0, 10), 0.409_18, 5e-5));
    // Saturation and zero traffic.
    assert_eq!(queueing::erlang_c(10.0, 10), 1.0);
    assert_eq!(queueing::erlang_c(25.0, 10), 1.0);
    assert_eq!(queueing::erlang_c(0.0, 10), 0.0);
}

#[test]
fn waiting_tail_and_saturation() {
    // M/M/10, λ = 8/s, S = 1 s: θ = 10 − 8 = 2/s; P(W > 0.5) = 0.40918 · e^(−1) = 0.15053.
    let c = queueing::erlang_c(8.0, 10);
    assert!(close(
        queueing::waiting_tail(c, 2.0, 0.5),
        c * (-1.0f64).exp(),
        1e-12
    ));
    assert!(close(queueing::waiting_tail(c, 2.0, 0.5), 0.150_53, 5e-5));
    // Far past saturation with a timeout (M/M/N+D): 160 workers and 400 Erlangs. Waits
    // pile up at the timeout, so those who give up are the fluid share 1 − N/a = 60 %, the
    // workers are all busy, and a served request waited about the whole 2 s.
    let q = queueing::solve(400.0 / 0.5, 0.5, 160, 2.0);
    assert!(close(q.timeout_share, 0.6, 1e-12), "{}", q.timeout_share);
    assert!(close(q.utilization, 1.0, 1e-12));
    // Waits are Exp(λ − N/S = 480/s) back from 2 s, so the served p99 is 2 s minus a
    // few milliseconds plus about the service time's p99, 0.5·ln 100 = 2.30 s.
    assert!(q.p99_s > 4.2 && q.p99_s < 4.31, "{}", q.p99_s);
    assert!(
        close(q.mean_wait_s, 2.0 - 1.0 / 480.0, 1e-9),
        "{}",
        q.mean_wait_s
    );
}

#[test]
fn exact_p99_against_closed_forms() {
    // M/M/1: the sojourn time is Exp(μ − λ), so p99 = ln 100/(μ − λ).
    // μ = 10/s, λ = 7/s → ln 100 / 3 = 1.53506 s.
    let (lambda, s) = (7.0, 0.1);
    let c = queueing::erlang_c(lambda * s, 1);
    let p99 = queueing::sojourn_p99_exact(c, s, 1, lambda).unwrap();
    assert!(close(p99, 100f64.ln() / 3.0, 1e-9), "{p99}");
    // No waiting (C ≈ 0): p99 of Exp(μ) alone, S·ln 100.
    let p99 = queueing::sojourn_p99_exact(0.0, 0.05, 100, 1.0).unwrap();
    assert!(close(p99, 0.05 * 100f64.ln(), 1e-12));
    // θ = μ, the equal-rates case: P(T > t) = (1−C)e^(−μt) + C(1 + μt)e^(−μt).
    // M/M/2 with S = 1, λ = 1: θ = 2 − 1 = 1 = μ. C(1, 2) = 1/3.
    let c = queueing::erlang_c(1.0, 2);
    assert!(close(c, 1.0 / 3.0, 1e-12));
    let t = queueing::sojourn_p99_exact(c, 1.0, 2, 1.0).unwrap();
    let tail = (1.0 - c) * (-t).exp() + c * (1.0 + t) * (-t).exp();
    assert!(close(tail, 0.01, 1e-12), "{tail}");
    // Saturation has no steady state.
    assert!(queueing::sojourn_p99_exact(1.0, 1.0, 2, 3.0).is_none());
}

#[test]
fn the_approximation_is_close_but_not_exact() {
    // M/M/10, λ = 8, S = 1: approx = ln 100 + ln(0.40918/0.01)/2 = 4.60517 + 1.85669 = 6.46186.
    let c = queueing::erlang_c(8.0, 10);
    let approx = queueing::sojourn_p99_approx(c, 1.0, 10, 8.0).unwrap();
    assert!(close(approx, 100f64.ln() + (c / 0.01).ln() / 2.0, 1e-12));
    let exact = queueing::sojourn_p99_exact(c, 1.0, 10, 8.0).unwrap();
    // Summing quantiles overestimates the quantile of the sum here.
    assert!(
        exact < approx && exact > 100f64.ln(),
        "exact {exact}, approx {approx}"
    );
}

#[test]
fn littles_law_utilization() {
    // 1125 req/s × 74 ms over 160 workers: L = 83.25 busy, 52.03 %.
    assert!(close(
        queueing::utilization(1125.0, 0.074, 160),
        83.25 / 160.0,
        1e-12
    ));
    assert_eq!(queueing::utilization(0.0, 0.074, 160), 0.0);
}

#[test]
fn zero_traffic_is_quiet_and_finite() {
    let q = queueing::solve(0.0, 0.07, 160, 2.0);
    assert_eq!(
        (q.erlang_c, q.timeout_share, q.utilization),
        (0.0, 0.0, 0.0)
    );
    assert!(close(q.p99_s, 0.07 * 100f64.ln(), 1e-12));
}

#[test]
fn opening_state_by_hand() {
    // SPEC 1.4: TTL 60 s, 10 instances, heavy feature on (q = 3), λ = 1125 req/s.
    let lambda = 1125.0;
    let hit = cache::ttl_hit(1.0, lambda, 60.0, 20_000.0);
    assert_eq!((hit * 100.0).round(), 77.0); // 3.375/4.375 = 77.14 %
    let load = database::db_load(lambda, 3.0, hit, 0.0);
    assert_eq!((load / 4000.0 * 100.0).round(), 19.0); // 771.4/4000 = 19.3 %
    assert_eq!(cache::mean_age_s(60.0), 30.0);
    // Cold cache: every request misses; 1125 × 3 = 3375 queries/s.
    assert_eq!(cache::ttl_hit(0.0, lambda, 60.0, 20_000.0), 0.0);
    assert!(close(
        database::db_load(lambda, 3.0, 0.0, 0.0),
        3375.0,
        1e-9
    ));
    // Saturated database: 5 ms / (1 − ρ) exceeds the cap, so queries take 250 ms and a miss
    // costs 70 + 3 × 250 = 820 ms.
    let q = database::query_time_ms(5.0, 1.2, 250.0);
    assert_eq!(q, 250.0);
    assert!(close(
        database::service_time_ms(70.0, 0.0, 3.0, q),
        820.0,
        1e-12
    ));
}

#[test]
fn diurnal_and_budget() {
    assert!(close(
        traffic::diurnal_rate(900.0, 0.25, 0.0, 720.0),
        1125.0,
        1e-9
    ));
    // 5 % errors: 50× burn; an hour of it spends 60 × 50 / 43,200 = 6.94 % of the month.
    let burn = budget::burn_rate(0.05, 0.999);
    assert!(close(
        60.0 * budget::budget_spent_per_minute(burn),
        0.069_444,
        1e-6
    ));
    assert!(budget::page_fires(14.4, 14.4));
}
