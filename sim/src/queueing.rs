//! M/M/N queueing at the load balancer: Erlang B and C, the waiting tail, timeouts, the
//! sojourn-time p99 (exact and the source's approximation) and utilization.
//!
//! Within a step the queue is treated as being in steady state: requests take milliseconds,
//! a step lasts seconds to a minute.

use crate::relations::{
    Relation, ERLANG_1917, HARCHOL_BALTER_2013, KLEINROCK_1975, LITTLE_1961, THIS_MODEL,
};

pub const OFFERED_LOAD: Relation = Relation {
    id: "offered_load",
    name: "Servers and offered load",
    formula: "N = instances × workers per instance;  a = λ·S",
    symbols: &[
        ("N", "worker slots serving requests"),
        ("λ", "arrival rate admitted by the load balancer (req/s)"),
        ("S", "mean service time (s)"),
        ("a", "offered load in Erlangs"),
    ],
    note: "16 workers per instance is an example calibration.",
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
    id: "erlang_b",
    name: "Erlang B",
    formula: "B(a, 0) = 1;  B(a, k) = a·B(a, k−1) / (k + a·B(a, k−1))",
    symbols: &[(
        "B",
        "probability that all N servers are busy in a loss system",
    )],
    note: "Computed by the recursion, which never overflows.",
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
    id: "erlang_c",
    name: "Erlang C (probability of waiting)",
    formula: "C(a, N) = B / (1 − (a/N)(1 − B)),  B = Erlang B(a, N)",
    symbols: &[("C", "probability that a request waits for a worker")],
    note: "C = 1 when a ≥ N.",
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
    id: "waiting_tail",
    name: "Waiting-time tail and timeouts",
    formula: "P(W > t) = C·e^(−(N/S − λ)·t);  timeout share = P(W > 2 s)",
    symbols: &[
        ("W", "time waiting for a worker"),
        ("t", "threshold (the 2 s request timeout)"),
    ],
    note: "A request that waits longer than the timeout fails; it counts as an error.",
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
    id: "saturated_failures",
    name: "Failed share at saturation",
    formula: "a ≥ N  ⇒  failed share = 1 − N/a",
    symbols: &[],
    note: "Workers complete at most N/S requests per second; the rest of the arrivals time out.",
    citations: &[KLEINROCK_1975],
    assumption: false,
};

/// P(T > t) for the M/M/N sojourn time T = W + service: with probability 1 − C no wait, so
/// T is Exp(μ); otherwise T is the sum of Exp(θ) and Exp(μ) (hypoexponential).
pub fn sojourn_tail(c: f64, mu: f64, theta: f64, t: f64) -> f64 {
    let service = libm::exp(-mu * t);
    let waited = if (theta - mu).abs() <= 1e-9 * mu {
        (1.0 + mu * t) * service
    } else {
        (theta * service - mu * libm::exp(-theta * t)) / (theta - mu)
    };
    (1.0 - c) * service + c * waited
}

/// Probability density of the sojourn time at `t` (the derivative of −P(T > t)).
fn sojourn_density(c: f64, mu: f64, theta: f64, t: f64) -> f64 {
    let service = libm::exp(-mu * t);
    let waited = if (theta - mu).abs() <= 1e-9 * mu {
        mu * mu * t * service
    } else {
        theta * mu * (service - libm::exp(-theta * t)) / (theta - mu)
    };
    (1.0 - c) * mu * service + c * waited
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
    if !(theta > 0.0) || !(service_s > 0.0) {
        return None;
    }
    let mu = 1.0 / service_s;
    let f = |t: f64| sojourn_tail(c, mu, theta, t) - tail;
    let mut lo = 0.0;
    // The quantile of the service time alone is a lower bound; grow until bracketed.
    let mut hi = libm::log(1.0 / tail) / mu;
    while f(hi) > 0.0 {
        lo = hi;
        hi *= 2.0;
        if hi > 1e9 {
            return None;
        }
    }
    let mut t = 0.5 * (lo + hi);
    for _ in 0..100 {
        let value = f(t);
        if value > 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let density = sojourn_density(c, mu, theta, t);
        let newton = if density > 0.0 {
            t + value / density
        } else {
            f64::NAN
        };
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - t).abs() <= 1e-12 * t.max(1e-9) {
            return Some(next);
        }
        t = next;
    }
    Some(t)
}

pub const SOJOURN_P99_EXACT: Relation = Relation {
    id: "sojourn_p99_exact",
    name: "Latency p99 (exact, M/M/N)",
    formula: "P(T > t) = (1 − C)·e^(−μt) + C·(θ·e^(−μt) − μ·e^(−θt)) / (θ − μ);  p99: P(T > t) = 0.01, solved numerically",
    symbols: &[
        ("T", "time in the system: waiting plus service"),
        ("μ", "1/S, service rate of one worker"),
        ("θ", "N/S − λ, rate at which the queue drains"),
    ],
    note: "Exponential service times; the waiting time of a delayed request is Exp(θ), so T is a mixture of Exp(μ) and a hypoexponential. Shown capped at the 2 s timeout.",
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
    id: "sojourn_p99_approx",
    name: "Latency p99 (the source's approximation)",
    formula: "p99 ≈ S·ln 100 + ln(C/0.01) / (N/S − λ)",
    symbols: &[],
    note: "Adds the p99 of service and of waiting; the quantile of a sum is not the sum of quantiles, so this is only an approximation (it overestimates here). Kept beside the exact value for comparison.",
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
    id: "utilization",
    name: "Utilization (Little's law)",
    formula: "L = λ·S busy workers;  utilization = λ·S / N",
    symbols: &[("L", "mean number of busy workers")],
    note: "Measured utilization cannot exceed 100 %: beyond it the excess is failing, not served.",
    citations: &[LITTLE_1961],
    assumption: false,
};

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
}

/// Solves the queue for λ requests/s, mean service time S and N workers, with a timeout.
pub fn solve(lambda: f64, service_s: f64, n: u32, timeout_s: f64) -> QueueOutcome {
    let a = lambda * service_s;
    let c = erlang_c(a, n);
    let nf = f64::from(n);
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturated_fleet_with_no_workers_fails_everything() {
        let q = solve(10.0, 0.05, 0, 2.0);
        assert_eq!(q.timeout_share, 1.0);
        assert_eq!(q.p99_s, 2.0);
    }
}
