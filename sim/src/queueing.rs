//! M/M/N queueing at the load balancer: Erlang B and C, the waiting tail, timeouts, the
//! sojourn-time p99 (exact and the source's approximation) and utilization.
//!
//! Within a step the queue is treated as being in steady state: requests take milliseconds,
//! a step lasts seconds to a minute.

use crate::relations::{
    Relation, RelationId, ENVOY_CIRCUIT_BREAKING, ERLANG_1917, HARCHOL_BALTER_2013, KLEINROCK_1975,
    LITTLE_1961, THIS_MODEL,
};

pub const OFFERED_LOAD: Relation = Relation {
    id: RelationId::OfferedLoad,
    symbols: &["N", "λ", "S", "a"],
    citations: &[KLEINROCK_1975],
    assumption: false,
};

/// Erlang B blocking probability for `a` Erlangs offered to `n` servers, by the stable
/// recursion B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)).
pub fn erlang_b(a: f64, n: u32) -> f64 {
    if !(a > 0.0) {
        return if n == 0 { 1.0 } else { 0.0 };
    }
    let mut b = 1.0;
    for k in 1..=n {
        let ab = a * b;
        b = ab / (f64::from(k) + ab);
    }
    b
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
    let nf = f64::from(n);
    if a >= nf {
        return 1.0;
    }
    let b = erlang_b(a, n);
    let c = b / (1.0 - (a / nf) * (1.0 - b));
    c.clamp(0.0, 1.0)
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

/// Share of requests that cannot be served at all when the offered load reaches the
/// servers: 1 − N/a for a ≥ N, otherwise 0.
pub fn saturated_failed_share(a: f64, n: u32) -> f64 {
    let nf = f64::from(n);
    if a > 0.0 && a >= nf {
        1.0 - nf / a
    } else {
        0.0
    }
}

pub const SATURATED_FAILURES: Relation = Relation {
    id: RelationId::SaturatedFailures,
    symbols: &[],
    citations: &[KLEINROCK_1975],
    assumption: false,
};

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
    // Beyond its mode the tail is convex and decreasing, so Newton steps from the left
    // approach the root without passing it; the bracket guards the cases where they would.
    let mut lo = libm::log(1.0 / tail) / mu;
    let mut hi = f64::INFINITY;
    let mut t = lo;
    for _ in 0..200 {
        let (p, density) = sojourn_tail_and_density(c, mu, theta, t);
        let value = p - tail;
        if value > 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        if value == 0.0 {
            return Some(t);
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
        if next > 1e9 {
            return None;
        }
        if (next - t).abs() <= 1e-12 * t.max(1e-9) {
            return Some(next);
        }
        t = next;
    }
    Some(t)
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

/// The distribution of the time in the system for one step, enough to ask what share of
/// requests took longer than any threshold.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SojournTail {
    /// Probability of waiting (Erlang C).
    pub erlang_c: f64,
    /// Mean service time S, s.
    pub service_s: f64,
    /// N/S − λ; not positive at saturation.
    pub theta: f64,
    /// No steady state: every completed request waited close to the timeout.
    pub saturated: bool,
    pub timeout_s: f64,
}

impl SojournTail {
    /// Share of requests whose time in the system exceeds `t` seconds (requests cut off by
    /// the timeout count as exceeding every `t` below it).
    pub fn share_over(&self, t: f64) -> f64 {
        if t >= self.timeout_s {
            return 0.0;
        }
        if !(self.service_s > 0.0) {
            return 0.0;
        }
        if self.saturated || !(self.theta > 0.0) {
            return 1.0;
        }
        let mu = 1.0 / self.service_s;
        sojourn_tail(self.erlang_c, mu, self.theta, t.max(0.0)).clamp(0.0, 1.0)
    }

    /// The t with P(T > t) = `tail`, capped at the timeout.
    pub fn quantile(&self, tail: f64) -> f64 {
        if self.saturated {
            return self.timeout_s;
        }
        sojourn_quantile_at(self.erlang_c, self.service_s, self.theta, tail)
            .map_or(self.timeout_s, |t| t.min(self.timeout_s))
    }
}

/// Quantile of a mixture of steps: the t at which the weighted mean of the steps' tails equals
/// `tail`. This is the latency quantile of all the requests of a minute whose seconds saw
/// different fleets. With one step it returns that step's quantile unchanged.
pub fn mixture_quantile(steps: &[(f64, SojournTail)], tail: f64) -> f64 {
    // Steps with the same distribution merge (usually the whole minute is one).
    let mut merged: Vec<(f64, SojournTail)> = Vec::with_capacity(steps.len());
    for &(w, s) in steps {
        match merged.iter_mut().find(|(_, m)| *m == s) {
            Some((mw, _)) => *mw += w,
            None => merged.push((w, s)),
        }
    }
    let steps = &merged[..];
    let quantiles: Vec<f64> = steps.iter().map(|(_, s)| s.quantile(tail)).collect();
    let lo = quantiles.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = quantiles.iter().copied().fold(0.0, f64::max);
    if quantiles.len() <= 1 || hi - lo <= 0.0 {
        return quantiles.first().copied().unwrap_or(0.0);
    }
    let total: f64 = steps.iter().map(|(w, _)| w).sum();
    if !(total > 0.0) {
        return hi;
    }
    let over = |t: f64| steps.iter().map(|(w, s)| w * s.share_over(t)).sum::<f64>() / total;
    // The mixture's quantile lies between the smallest and the largest of the steps'.
    let (mut lo, mut hi) = (lo, hi);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if over(mid) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
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
    let b = erlang_b(a, n);
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
/// the timeout the room, not the timeout, bounds the wait.
pub fn solve_bounded(
    lambda: f64,
    service_s: f64,
    n: u32,
    room: u32,
    timeout_s: f64,
) -> (QueueOutcome, f64) {
    let drains_in_timeout = if service_s > 0.0 {
        f64::from(n) / service_s * timeout_s
    } else {
        f64::INFINITY
    };
    if n == 0 || f64::from(room) >= drains_in_timeout {
        return (solve(lambda, service_s, n, timeout_s), 0.0);
    }
    let rejected = mmnk_blocking(lambda * service_s, n, room);
    let admitted = lambda * (1.0 - rejected);
    let mut q = solve(admitted, service_s, n, timeout_s);
    // Waiting is bounded by the time to serve a full room.
    let longest = f64::from(room) * service_s / f64::from(n) + service_s * libm::log(100.0);
    q.timeout_share = 0.0;
    q.p99_s = q.p99_s.min(longest);
    q.p99_approx_s = q.p99_approx_s.min(longest);
    q.mean_wait_s = q
        .mean_wait_s
        .min(f64::from(room) * service_s / f64::from(n));
    q.tail.saturated = false;
    q.tail.timeout_s = q.tail.timeout_s.min(longest);
    (q, rejected)
}

/// Everything the queue gives for one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueOutcome {
    pub offered_load: f64,
    pub erlang_c: f64,
    /// Utilization as measured on the fleet (at most 1).
    pub utilization: f64,
    /// Share of requests that time out waiting (or cannot be served at saturation).
    pub timeout_share: f64,
    /// p99 of the time in the system of completed requests, seconds, capped at the timeout.
    pub p99_s: f64,
    /// The source's approximation, capped the same way.
    pub p99_approx_s: f64,
    pub mean_wait_s: f64,
    /// The sojourn-time distribution, for other quantiles and thresholds.
    pub tail: SojournTail,
}

/// Solves the queue for λ requests/s, mean service time S and N workers, with a timeout.
pub fn solve(lambda: f64, service_s: f64, n: u32, timeout_s: f64) -> QueueOutcome {
    let a = lambda * service_s;
    let c = erlang_c(a, n);
    let nf = f64::from(n);
    let tail = SojournTail {
        erlang_c: c,
        service_s,
        theta: drain_rate(n, service_s, lambda),
        saturated: a > 0.0 && a >= nf,
        timeout_s,
    };
    if a > 0.0 && a >= nf {
        return QueueOutcome {
            offered_load: a,
            erlang_c: 1.0,
            utilization: 1.0,
            timeout_share: if n == 0 {
                1.0
            } else {
                saturated_failed_share(a, n)
            },
            p99_s: timeout_s,
            p99_approx_s: timeout_s,
            mean_wait_s: timeout_s,
            tail,
        };
    }
    let theta = drain_rate(n, service_s, lambda);
    let p99 = sojourn_p99_exact(c, service_s, n, lambda).unwrap_or(timeout_s);
    let approx = sojourn_p99_approx(c, service_s, n, lambda).unwrap_or(timeout_s);
    QueueOutcome {
        offered_load: a,
        erlang_c: c,
        utilization: utilization(lambda, service_s, n).min(1.0),
        timeout_share: waiting_tail(c, theta, timeout_s),
        p99_s: p99.min(timeout_s),
        p99_approx_s: approx.min(timeout_s),
        mean_wait_s: if theta > 0.0 { c / theta } else { 0.0 },
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
    fn saturated_fleet_with_no_workers_fails_everything() {
        let q = solve(10.0, 0.05, 0, 2.0);
        assert_eq!(q.timeout_share, 1.0);
        assert_eq!(q.p99_s, 2.0);
    }
}
