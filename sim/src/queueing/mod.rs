//! Queueing at the load balancer: Erlang B and C, the M/M/N waiting tail and sojourn-time
//! p99 (exact and the source's approximation), utilization, and the M/M/N+D queue in which
//! requests give up at the timeout ([`patience`]), which is what a step of the model solves.
//!
//! Within a step the queue is treated as being in steady state: requests take milliseconds,
//! a step lasts seconds to a minute.

mod patience;
pub mod routing;

pub use patience::SojournTail;

use crate::relations::{
    Relation, RelationId, BACCELLI_HEBUTERNE_1981, ENVOY_CIRCUIT_BREAKING, ERLANG_1917,
    HARCHOL_BALTER_2013, KLEINROCK_1975, LITTLE_1961, MITZENMACHER_2001, THIS_MODEL,
    ZELTYN_MANDELBAUM_2005,
};

pub const OFFERED_LOAD: Relation = Relation {
    id: RelationId::OfferedLoad,
    symbols: &["N", "λ", "S", "a"],
    citations: &[KLEINROCK_1975],
    assumption: false,
};

/// Erlang B blocking probability for `a` Erlangs offered to `n` servers, by the stable
/// recursion of its reciprocal: 1/B(0) = 1, 1/B(k) = 1 + (k/a)·1/B(k−1) (the same recursion
/// as B(k) = a·B(k−1) / (k + a·B(k−1)), taken without a division per step).
pub fn erlang_b(a: f64, n: u32) -> f64 {
    if !(a > 0.0) {
        return if n == 0 { 1.0 } else { 0.0 };
    }
    1.0 / inverse_erlang_b(1.0 / a, n)
}

/// 1/B(a, n) by the recursion, for a load whose reciprocal is `per_erlang`.
fn inverse_erlang_b(per_erlang: f64, n: u32) -> f64 {
    let mut r = 1.0;
    for k in 1..=n {
        r = 1.0 + f64::from(k) * per_erlang * r;
        // Once it overflows (B has underflowed to 0) it stays infinite: the rest of the
        // recursion, often most of it when the servers far outnumber the load, changes nothing.
        if r == f64::INFINITY {
            break;
        }
    }
    r
}

pub const ERLANG_B: Relation = Relation {
    id: RelationId::ErlangB,
    symbols: &["B"],
    citations: &[ERLANG_1917, KLEINROCK_1975],
    assumption: false,
};

/// Erlang C: probability that an arriving request has to wait. At or beyond saturation
/// (a ≥ N) every request waits, so it is 1.
pub fn erlang_c(a: f64, n: u32) -> f64 {
    if !(a > 0.0) {
        return 0.0;
    }
    if a >= f64::from(n) {
        return 1.0;
    }
    erlang_c_given(a, n, erlang_b(a, n))
}

/// Erlang C given Erlang B for the same load and servers, `b` = B(a, N).
fn erlang_c_given(a: f64, n: u32, b: f64) -> f64 {
    if !(a > 0.0) {
        return 0.0;
    }
    let nf = f64::from(n);
    if a >= nf {
        return 1.0;
    }
    let c = b / (1.0 - (a / nf) * (1.0 - b));
    c.clamp(0.0, 1.0)
}

/// Erlang B for N servers from B(a, N − 1): the recursion's last step (for a > 0 and N ≥ 1).
fn erlang_b_next(a: f64, n: u32, previous: f64) -> f64 {
    let ab = a * previous;
    ab / (f64::from(n) + ab)
}

/// Erlang C from Erlang B for one server fewer: C(a, N) = a·B(a, N−1) / (N − a + a·B(a, N−1))
/// for 0 < a < N (B(a, N) = a·B(a, N−1) / (N + a·B(a, N−1)) put into C's formula).
fn erlang_c_from_previous(a: f64, n: u32, previous: f64) -> f64 {
    let nf = f64::from(n);
    if !(a > 0.0) {
        return 0.0;
    }
    if a >= nf {
        return 1.0;
    }
    let ab = a * previous;
    (ab / (nf - a + ab)).clamp(0.0, 1.0)
}

pub const ERLANG_C: Relation = Relation {
    id: RelationId::ErlangC,
    symbols: &["C"],
    citations: &[ERLANG_1917, KLEINROCK_1975, HARCHOL_BALTER_2013],
    assumption: false,
};

/// Rate at which the waiting queue drains, θ = N/S − λ (per second); positive below
/// saturation.
pub fn drain_rate(n: u32, service_s: f64, lambda: f64) -> f64 {
    f64::from(n) / service_s - lambda
}

/// P(W > t) = C·e^(−θt): probability of waiting longer than `t` seconds.
pub fn waiting_tail(c: f64, theta: f64, t: f64) -> f64 {
    if theta <= 0.0 {
        return c;
    }
    c * libm::exp(-theta * t)
}

pub const WAITING_TAIL: Relation = Relation {
    id: RelationId::WaitingTail,
    symbols: &["W", "t"],
    citations: &[KLEINROCK_1975, HARCHOL_BALTER_2013],
    assumption: false,
};

/// Mean time in the system, in mean service times, of least request with two choices over
/// many single-worker instances each loaded ρ < 1 (the supermarket model): the share of
/// instances holding at least i requests tends to s_i = ρ^(2^i − 1) as the instances grow in
/// number, so E[T] = Σ_{i≥1} s_i / ρ = Σ_{i≥1} ρ^(2^i − 2). Infinite at ρ ≥ 1.
pub fn supermarket_mean_sojourn(rho: f64) -> f64 {
    if !(rho < 1.0) {
        return f64::INFINITY;
    }
    let rho = rho.max(0.0);
    let mut sum = 0.0;
    let mut exponent = 0.0f64;
    // The exponents double: after 64 terms the exponent is near 2^65, where ρ^x is 0 for
    // every ρ < 1 a double holds (1 − ρ ≥ 1.1e-16).
    for _ in 0..64 {
        let term = libm::pow(rho, exponent);
        sum += term;
        if term < 1e-17 {
            break;
        }
        exponent = 2.0 * exponent + 2.0;
    }
    sum
}

pub const SUPERMARKET: Relation = Relation {
    id: RelationId::Supermarket,
    symbols: &["s_i", "ρ", "E[T]"],
    citations: &[MITZENMACHER_2001],
    assumption: false,
};

/// Timeouts as abandonment: the queue is M/M/N+D, every request giving up after waiting
/// the request timeout (see [`SojournTail`]).
pub const ABANDONMENT: Relation = Relation {
    id: RelationId::Abandonment,
    symbols: &["τ", "δ", "π", "V"],
    citations: &[BACCELLI_HEBUTERNE_1981, ZELTYN_MANDELBAUM_2005],
    assumption: false,
};

/// Share of a failed-over user's requests that time out, for a cross-region penalty of
/// `penalty_s` and a timeout τ = `timeout_s`: such a request reaches the far region's queue
/// Δ after it was sent, so it has τ − Δ left to reach a worker, and it times out when its
/// wait V there is longer: P(V > τ − Δ) from the M/M/N+D waiting time of [`ABANDONMENT`]
/// (abandoners included). Every request when Δ > τ; with Δ = 0 exactly the queue's own
/// timeout share. The relation's text is the failover's
/// ([`crate::regions::failover::PROPAGATION`]).
pub fn failed_over_timeout_share(tail: &SojournTail, timeout_s: f64, penalty_s: f64) -> f64 {
    if !(penalty_s > 0.0) {
        return tail.abandon_share();
    }
    let left = timeout_s - penalty_s;
    if left < 0.0 {
        return 1.0;
    }
    tail.wait_over(left)
}

/// P(T > t) for the M/M/N sojourn time T = W + service: with probability 1 − C no wait, so
/// T is Exp(μ); otherwise T is the sum of Exp(θ) and Exp(μ) (hypoexponential).
pub fn sojourn_tail(c: f64, mu: f64, theta: f64, t: f64) -> f64 {
    sojourn_tail_and_density(c, mu, theta, t).0
}

/// P(T > t) and the density of T at t, sharing their exponentials.
fn sojourn_tail_and_density(c: f64, mu: f64, theta: f64, t: f64) -> (f64, f64) {
    let service = libm::exp(-mu * t);
    let (waited_tail, waited_density) = if (theta - mu).abs() <= 1e-9 * mu {
        ((1.0 + mu * t) * service, mu * mu * t * service)
    } else {
        let drained = libm::exp(-theta * t);
        (
            (theta * service - mu * drained) / (theta - mu),
            theta * mu * (service - drained) / (theta - mu),
        )
    };
    (
        (1.0 - c) * service + c * waited_tail,
        (1.0 - c) * mu * service + c * waited_density,
    )
}

/// Exact p99 of the M/M/N sojourn time in seconds: the t with P(T > t) = 0.01, found by
/// Newton's method kept inside a bisection bracket. Returns `None` at or beyond saturation
/// (there is no steady state).
pub fn sojourn_p99_exact(c: f64, service_s: f64, n: u32, lambda: f64) -> Option<f64> {
    sojourn_quantile(c, service_s, n, lambda, 0.01)
}

/// Exact tail quantile: the t with P(T > t) = `tail`.
pub fn sojourn_quantile(c: f64, service_s: f64, n: u32, lambda: f64, tail: f64) -> Option<f64> {
    let theta = drain_rate(n, service_s, lambda);
    sojourn_quantile_at(c, service_s, theta, tail)
}

/// [`sojourn_quantile`] for a known drain rate θ = N/S − λ.
pub fn sojourn_quantile_at(c: f64, service_s: f64, theta: f64, tail: f64) -> Option<f64> {
    if !(theta > 0.0) || !(service_s > 0.0) {
        return None;
    }
    let mu = 1.0 / service_s;
    // T ≥ service time, so the service time's own quantile is a lower bound: start there.
    let lo = libm::log(1.0 / tail) / mu;
    let t = newton_in_bracket(lo, f64::INFINITY, |t| {
        let (p, density) = sojourn_tail_and_density(c, mu, theta, t);
        (p - tail, density)
    });
    (t <= 1e9).then_some(t)
}

/// The root of a decreasing function between `lo` and `hi` (`hi` may be infinite), where
/// `f(t)` gives the value and minus its slope (a density). Newton's steps start from `lo`;
/// beyond a tail's mode the tail is convex, so they approach the root without passing it,
/// and the bracket guards the cases where they would. Gives up past 10⁹.
pub(crate) fn newton_in_bracket(lo: f64, hi: f64, f: impl Fn(f64) -> (f64, f64)) -> f64 {
    let (mut lo, mut hi) = (lo, hi);
    let mut t = lo;
    for _ in 0..200 {
        let (value, density) = f(t);
        if value > 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        if value == 0.0 {
            return t;
        }
        let newton = if density > 0.0 {
            t + value / density
        } else {
            f64::NAN
        };
        let next = if newton > lo && newton < hi {
            newton
        } else if hi.is_finite() {
            0.5 * (lo + hi)
        } else {
            2.0 * lo
        };
        if next > 1e9 || (next - t).abs() <= 1e-12 * t.max(1e-9) {
            return next;
        }
        t = next;
    }
    t
}

pub const SOJOURN_P99_EXACT: Relation = Relation {
    id: RelationId::SojournP99Exact,
    symbols: &["T", "μ", "θ"],
    citations: &[KLEINROCK_1975, HARCHOL_BALTER_2013],
    assumption: false,
};

/// The source's approximation: the 99th percentiles of service and waiting added,
/// p99 ≈ S·ln 100 + ln(C/0.01)/(N/S − λ). The waiting term is 0 when C ≤ 1 %, since the
/// waiting time's p99 is then 0. `None` at or beyond saturation.
pub fn sojourn_p99_approx(c: f64, service_s: f64, n: u32, lambda: f64) -> Option<f64> {
    let theta = drain_rate(n, service_s, lambda);
    if !(theta > 0.0) || !(service_s > 0.0) {
        return None;
    }
    let waiting = if c > 0.01 {
        libm::log(c / 0.01) / theta
    } else {
        0.0
    };
    Some(service_s * libm::log(100.0) + waiting)
}

pub const SOJOURN_P99_APPROX: Relation = Relation {
    id: RelationId::SojournP99Approx,
    symbols: &[],
    citations: &[THIS_MODEL, KLEINROCK_1975],
    assumption: true,
};

/// Little's law: busy workers L = λ·S, so utilization = λ·S / N.
pub fn utilization(lambda: f64, service_s: f64, n: u32) -> f64 {
    if n == 0 {
        return if lambda > 0.0 { 1.0 } else { 0.0 };
    }
    lambda * service_s / f64::from(n)
}

pub const UTILIZATION: Relation = Relation {
    id: RelationId::Utilization,
    symbols: &["L"],
    citations: &[LITTLE_1961],
    assumption: false,
};

/// Quantile of a mixture of steps: the t at which the share of all the served requests slower
/// than t equals `tail`, each step weighted by its length times its served share. This is the
/// latency quantile of the requests a minute served when its seconds saw different fleets.
/// With one step it returns that step's quantile unchanged.
pub fn mixture_quantile(steps: &[(f64, SojournTail)], tail: f64) -> f64 {
    // Steps with the same distribution merge (usually the whole minute is one).
    let mut merged: Vec<(f64, SojournTail)> = Vec::with_capacity(steps.len());
    for &(w, s) in steps {
        match merged.iter_mut().find(|(_, m)| *m == s) {
            Some((mw, _)) => *mw += w,
            None => merged.push((w, s)),
        }
    }
    if let [(_, only)] = merged[..] {
        return only.quantile(tail);
    }
    // Steps that served nothing take no part.
    let mut weighted: Vec<(f64, SojournTail)> = merged
        .into_iter()
        .map(|(w, s)| (w * s.served_share(), s))
        .filter(|(w, _)| *w > 0.0)
        .collect();
    let total: f64 = weighted.iter().map(|(w, _)| w).sum();
    // Each step's own quantile (a root search) once, for both ends.
    let (lo, hi) = weighted
        .iter()
        .map(|(_, s)| s.quantile(tail))
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), q| {
            (lo.min(q), hi.max(q))
        });
    if !(total > 0.0) {
        return steps.first().map_or(0.0, |(_, s)| s.timeout_s);
    }
    if weighted.len() == 1 || hi - lo <= 0.0 {
        return hi;
    }
    // The mixture's quantile lies between the smallest and the largest of the steps'; each
    // step's served mass counts with its share of the minute's served requests.
    for (w, s) in &mut weighted {
        *w = *w / total / s.served_mass();
    }
    tail_root(&weighted, tail, (lo, hi))
}

/// The t within `bracket` at which the steps' scaled masses of served requests slower than
/// t, each times its factor, add up to `tail`, by Newton's method: the mass falls with the
/// density of the time in the system, the steps' densities scaled alike.
fn tail_root(steps: &[(f64, SojournTail)], tail: f64, bracket: (f64, f64)) -> f64 {
    newton_in_bracket(bracket.0, bracket.1, |t| {
        let (mut over, mut density) = (0.0, 0.0);
        for (factor, s) in steps {
            let (o, d) = s.served_over(t);
            over += factor * o;
            density += factor * d;
        }
        (over - tail, density)
    })
}

pub const MINUTE_QUANTILE: Relation = Relation {
    id: RelationId::MinuteQuantile,
    symbols: &["wₖ"],
    citations: &[KLEINROCK_1975],
    assumption: false,
};

/// Blocking probability of an M/M/N/K queue: N servers and `room` waiting places (K = N +
/// room); the share of arrivals that find every place taken and are rejected.
/// P_K = ρ^R / (1/B + Σ_{j=1..R} ρ^j), ρ = a/N, B = Erlang B(a, N), R = room; evaluated
/// divided through by ρ^R when ρ > 1 so that nothing overflows.
pub fn mmnk_blocking(a: f64, n: u32, room: u32) -> f64 {
    if !(a > 0.0) {
        return 0.0;
    }
    if n == 0 {
        // Nobody serves: once the room has filled, every arrival is rejected.
        return 1.0;
    }
    mmnk_blocking_given(a, n, room, erlang_b(a, n))
}

/// [`mmnk_blocking`] given Erlang B for the same load and servers, `b` = B(a, N), N ≥ 1.
fn mmnk_blocking_given(a: f64, n: u32, room: u32, b: f64) -> f64 {
    if !(a > 0.0) {
        return 0.0;
    }
    if room == 0 {
        return b;
    }
    let rho = a / f64::from(n);
    let r = f64::from(room);
    if rho <= 1.0 {
        // Σ_{j=1..R} ρ^j = ρ(1 − ρ^R)/(1 − ρ), or R when ρ = 1.
        let rho_r = libm::pow(rho, r);
        let sum = if (1.0 - rho).abs() < 1e-12 {
            r
        } else {
            rho * (1.0 - rho_r) / (1.0 - rho)
        };
        rho_r / (1.0 / b + sum)
    } else {
        // Divide by ρ^R: 1 / (ρ^−R/B + Σ_{i=0..R−1} ρ^−i).
        let inv = 1.0 / rho;
        let inv_r = libm::pow(inv, r);
        let sum = (1.0 - inv_r) / (1.0 - inv);
        1.0 / (inv_r / b + sum)
    }
}

pub const ENVOY_OVERFLOW: Relation = Relation {
    id: RelationId::EnvoyOverflow,
    symbols: &["K", "ρ", "B"],
    citations: &[ENVOY_CIRCUIT_BREAKING, KLEINROCK_1975],
    assumption: true,
};

/// The queue of one step when the balancer holds at most `room` waiting requests: the
/// outcome for the admitted requests and the share rejected. With a room that drains within
/// the timeout the room, not the timeout, bounds the wait: the rejected share is M/M/N/K's,
/// and the admitted requests' waits are those of an M/M/N+D queue whose patience is the time
/// to serve a full room.
pub fn solve_bounded(
    lambda: f64,
    service_s: f64,
    n: u32,
    room: u32,
    timeout_s: f64,
) -> (QueueOutcome, f64) {
    let room_drain_s = if n > 0 {
        f64::from(room) * service_s / f64::from(n)
    } else {
        f64::INFINITY
    };
    if n == 0 || !(room_drain_s < timeout_s) {
        return (solve(lambda, service_s, n, timeout_s), 0.0);
    }
    let a = lambda * service_s;
    // (The console's first download keeps the three recursions: it runs few solves.)
    let (rejected, tail, c) = if cfg!(feature = "extended") && a > 0.0 {
        // One Erlang B recursion serves all three: B(a, N − 1) for the waits, its last
        // step B(a, N) for the blocking and Erlang C.
        let previous = erlang_b(a, n - 1);
        let b = erlang_b_next(a, n, previous);
        (
            mmnk_blocking_given(a, n, room, b),
            SojournTail::with_blocking(lambda, service_s, n, room_drain_s, previous),
            erlang_c_given(a, n, b),
        )
    } else {
        (
            mmnk_blocking(a, n, room),
            SojournTail::new(lambda, service_s, n, room_drain_s),
            erlang_c(a, n),
        )
    };
    let tail = tail.served_only();
    let approx = sojourn_p99_approx(c, service_s, n, lambda).unwrap_or(timeout_s);
    let q = QueueOutcome {
        offered_load: a,
        erlang_c: c,
        p_wait: tail.p_wait(),
        utilization: (a * (1.0 - rejected) / f64::from(n)).min(1.0),
        timeout_share: 0.0,
        p99_s: tail.quantile(0.01),
        p99_approx_s: approx.min(timeout_s),
        mean_wait_s: tail.mean_wait_served(),
        mean_wait_all_s: tail.mean_wait_all(),
        tail,
    };
    (q, rejected)
}

/// The queue of one step in which no instance serves yet and requests are held for the
/// first one, which serves `ready_in_s` after the step starts (see
/// [`SojournTail::cold_start`]).
pub fn solve_cold_start(
    lambda: f64,
    service_s: f64,
    ready_in_s: f64,
    patience_s: f64,
    step_s: f64,
) -> QueueOutcome {
    let tail = SojournTail::cold_start(service_s, ready_in_s, patience_s, step_s);
    // The tail is exact here: its p99 is also the approximation's.
    let p99_s = tail.quantile(0.01);
    QueueOutcome {
        offered_load: lambda * service_s,
        erlang_c: erlang_c(lambda * service_s, 0),
        p_wait: tail.p_wait(),
        utilization: utilization(lambda, service_s, 0),
        timeout_share: tail.abandon_share(),
        p99_s,
        p99_approx_s: p99_s,
        mean_wait_s: tail.mean_wait_served(),
        mean_wait_all_s: tail.mean_wait_all(),
        tail,
    }
}

/// Everything the queue gives for one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueOutcome {
    pub offered_load: f64,
    /// Erlang C: the probability of waiting if nobody gave up (the source's p99
    /// approximation uses it).
    pub erlang_c: f64,
    /// Probability that an arriving request waits (M/M/N+D).
    pub p_wait: f64,
    /// Utilization as measured on the fleet (at most 1): requests that give up never take a
    /// worker.
    pub utilization: f64,
    /// Share of requests that give up at the timeout.
    pub timeout_share: f64,
    /// p99 of the time in the system of the served requests, seconds.
    pub p99_s: f64,
    /// The source's approximation, capped at the timeout.
    pub p99_approx_s: f64,
    /// Mean wait of the served requests, seconds.
    pub mean_wait_s: f64,
    /// Mean time an arriving request waits, those that give up included, seconds (by
    /// Little's law, λ times this many requests are waiting).
    pub mean_wait_all_s: f64,
    /// The queue's distribution, for other quantiles and thresholds.
    pub tail: SojournTail,
}

/// Solves the queue for λ requests/s, mean service time S and N workers, every request
/// giving up after waiting the timeout (M/M/N+D).
pub fn solve(lambda: f64, service_s: f64, n: u32, timeout_s: f64) -> QueueOutcome {
    let a = lambda * service_s;
    // One recursion gives both: B(a, N − 1) for the patience queue, and Erlang C from it.
    let previous = erlang_b(a, n.saturating_sub(1));
    let c = erlang_c_from_previous(a, n, previous);
    let tail = SojournTail::with_blocking(lambda, service_s, n, timeout_s, previous);
    let approx = sojourn_p99_approx(c, service_s, n, lambda).unwrap_or(timeout_s);
    let served_load = a * tail.served_share();
    QueueOutcome {
        offered_load: a,
        erlang_c: c,
        p_wait: tail.p_wait(),
        utilization: if n == 0 {
            utilization(lambda, service_s, 0)
        } else {
            (served_load / f64::from(n)).min(1.0)
        },
        timeout_share: tail.abandon_share(),
        p99_s: tail.quantile(0.01),
        p99_approx_s: approx.min(timeout_s),
        mean_wait_s: tail.mean_wait_served(),
        mean_wait_all_s: tail.mean_wait_all(),
        tail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mmnk_blocking_matches_the_mm1k_closed_form() {
        // M/M/1/K: P_K = (1 − ρ)ρ^K / (1 − ρ^(K+1)), here with K = 1 + room.
        for (rho, room) in [(0.5f64, 3u32), (0.9, 10), (1.5, 4), (3.0, 20)] {
            let k = f64::from(room + 1);
            let exact = (1.0 - rho) * libm::pow(rho, k) / (1.0 - libm::pow(rho, k + 1.0));
            let got = mmnk_blocking(rho, 1, room);
            assert!(
                (got - exact).abs() < 1e-12,
                "ρ={rho} R={room}: {got} vs {exact}"
            );
        }
        // No room: Erlang B.
        assert_eq!(mmnk_blocking(8.0, 10, 0), erlang_b(8.0, 10));
        // Heavy overload with a large room: close to 1 − N/a.
        assert!((mmnk_blocking(200.0, 100, 5000) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn bounded_room_rejects_instead_of_timing_out() {
        // 10 workers of 50 ms (200/s), 300/s offered, 20 waiting places: 20 drain in 0.1 s,
        // well inside the 2 s timeout, so the excess is rejected, not timed out.
        let (q, rejected) = solve_bounded(300.0, 0.05, 10, 20, 2.0);
        assert_eq!(q.timeout_share, 0.0);
        assert!(rejected > 0.3 && rejected < 0.4, "{rejected}");
        assert!(q.p99_s <= 20.0 * 0.05 / 10.0 + 0.05 * libm::log(100.0) + 1e-12);
        // A room larger than what drains in the timeout: the ordinary M/M/N with timeouts.
        let (q, rejected) = solve_bounded(300.0, 0.05, 10, 5000, 2.0);
        assert_eq!(rejected, 0.0);
        assert_eq!(q, solve(300.0, 0.05, 10, 2.0));
    }

    #[test]
    fn minute_quantile_of_ticks() {
        let calm = solve(100.0, 0.05, 10, 2.0);
        let busy = solve(190.0, 0.05, 10, 2.0);
        // One step: exactly its own p99.
        assert_eq!(mixture_quantile(&[(60.0, calm.tail)], 0.01), calm.p99_s);
        let mixed = mixture_quantile(&[(30.0, calm.tail), (30.0, busy.tail)], 0.01);
        assert!(mixed > calm.p99_s && mixed < busy.p99_s);
        // At the mixture's p99, 1 % of all requests are slower.
        let over = 0.5 * calm.tail.share_over(mixed) + 0.5 * busy.tail.share_over(mixed);
        assert!((over - 0.01).abs() < 1e-9, "{over}");
        // The tail's quantile agrees with the p99 of the solve.
        assert!((busy.tail.quantile(0.01) - busy.p99_s).abs() < 1e-12);
    }

    #[test]
    fn erlang_b_by_its_reciprocal_is_the_textbook_recursion() {
        // B(k) = a·B(k−1) / (k + a·B(k−1)), step by step, against the reciprocal's recursion.
        for (a, n) in [
            (0.5, 1u32),
            (2.0, 3),
            (8.0, 10),
            (99.5, 166),
            (150.0, 160),
            (899.0, 900),
            (1e-3, 500),
            (40.0, 2000),
        ] {
            let mut b = 1.0f64;
            for k in 1..=n {
                b = erlang_b_next(a, k, b);
            }
            let got = erlang_b(a, n);
            assert!(
                (got - b).abs() <= 1e-12 * b || (b < 1e-300 && got < 1e-300),
                "B({a}, {n}): {got} vs {b}"
            );
        }
        // M/M/1/1: B = a/(1 + a); no servers block everything; far more servers than load
        // block nothing.
        assert!((erlang_b(3.0, 1) - 0.75).abs() < 1e-15);
        assert_eq!(erlang_b(3.0, 0), 1.0);
        assert_eq!(erlang_b(1e-3, 500), 0.0);
        assert_eq!(erlang_b(0.0, 4), 0.0);
    }

    #[test]
    fn erlang_c_from_one_server_fewer_is_erlang_c() {
        for (a, n) in [
            (2.0, 3u32),
            (8.0, 10),
            (0.7, 1),
            (150.0, 160),
            (1e-3, 500),
            (899.0, 900),
        ] {
            let direct = erlang_c(a, n);
            let derived = erlang_c_from_previous(a, n, erlang_b(a, n - 1));
            assert!((direct - derived).abs() <= 1e-14 * direct, "{a}, {n}");
        }
        assert_eq!(erlang_c_from_previous(12.0, 10, 0.5), 1.0);
        assert_eq!(erlang_c_from_previous(0.0, 10, 0.0), 0.0);
    }

    #[test]
    fn supermarket_sum() {
        // ρ = 0.5: 1 + 0.5² + 0.5⁶ + 0.5¹⁴ + 0.5³⁰ + …
        let want = 1.0 + 0.25 + 0.015_625 + libm::pow(0.5, 14.0) + libm::pow(0.5, 30.0);
        assert!((supermarket_mean_sojourn(0.5) - want).abs() < 1e-12);
        assert_eq!(supermarket_mean_sojourn(0.0), 1.0);
        assert_eq!(supermarket_mean_sojourn(1.0), f64::INFINITY);
        // Two choices beat one: below M/M/1's 1/(1 − ρ).
        for rho in [0.3, 0.9, 0.99] {
            assert!(supermarket_mean_sojourn(rho) < 1.0 / (1.0 - rho));
        }
    }

    #[test]
    fn saturated_fleet_with_no_workers_fails_everything() {
        let q = solve(10.0, 0.05, 0, 2.0);
        assert_eq!(q.timeout_share, 1.0);
        assert_eq!(q.p99_s, 2.0);
    }
}
