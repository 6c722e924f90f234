//! M/M/N+D: the queue at the load balancer when every request gives up after waiting the
//! request timeout.
//!
//! Poisson arrivals at rate λ, N workers with exponential service of mean S (μ = 1/S), and a
//! deterministic patience τ, the timeout: a request that has not reached a worker within τ
//! leaves, never takes a worker, and counts as an error. A request that reaches a worker in
//! time is served to the end.
//!
//! The results come from the virtual waiting time V, the wait a request with unlimited
//! patience would have (Baccelli & Hébuterne 1981; Zeltyn & Mandelbaum 2005, the M/M/n+G
//! queue with H(x) = min(x, τ) for a constant patience). With δ = Nμ − λ and π the probability
//! that exactly N − 1 workers are busy:
//!
//! - P(V = 0) = π / B(a, N − 1), B being Erlang B;
//! - the density of V is v(x) = λπ·e^(−δx) for 0 < x ≤ τ, and v(τ)·e^(−Nμ(x − τ)) beyond;
//! - a request with V < τ is served after waiting V; one with V ≥ τ abandons, so
//!   P(abandon) = v(τ)/(Nμ).
//!
//! Every quantity stays finite for every load, ρ ≥ 1 included: past saturation the
//! abandonments keep the queue stable. To stay within floating point for thousands of workers
//! and any load, the masses are kept scaled by B(a, N − 1)·e^(δ·x*)/π, with x* the end of
//! [0, τ] where the waiting density peaks (0 when δ ≥ 0, τ when δ < 0), so that no exponent
//! is ever positive.

use super::erlang_b;

/// The steady state of one M/M/N+D queue: how many requests wait, abandon or are served,
/// and the distribution of the time in the system of the served ones.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SojournTail {
    /// Service rate of one worker μ = 1/S (0 when nobody serves).
    mu: f64,
    /// The patience τ: the request timeout, s.
    pub timeout_s: f64,
    /// δ = Nμ − λ; negative past saturation.
    drain: f64,
    /// Where the waiting density peaks: 0 when δ ≥ 0, τ otherwise.
    anchor: f64,
    /// Shortest wait of a request that waits: 0 in M/M/N+D; later while the first instance
    /// starts (see [`SojournTail::cold_start`]).
    lo: f64,
    /// Scaled mass of requests served without waiting.
    no_wait: f64,
    /// Scaled waiting density at the anchor (λ·B(a, N − 1)).
    density: f64,
    /// Scaled mass of requests served after a wait in (0, τ).
    waited: f64,
    /// Scaled mass of requests that abandon at τ.
    abandon: f64,
}

/// ∫₀^len exp(e₀ + (e₁ − e₀)·x/len) dx for exponents e₀, e₁ ≤ 0, without overflow or
/// cancellation.
fn exp_integral(e0: f64, e1: f64, len: f64) -> f64 {
    if !(len > 0.0) {
        return 0.0;
    }
    let top = e0.max(e1);
    let d = (e1 - e0).abs();
    let shape = if d > 0.0 { -libm::expm1(-d) / d } else { 1.0 };
    len * libm::exp(top) * shape
}

/// (1 − e^(−u)(1 + u)) / u², for u ≥ 0: ∫₀^1 y·e^(−u·y) dy, by its series near 0.
fn first_moment_shape(u: f64) -> f64 {
    if u < 0.01 {
        0.5 - u / 3.0 + u * u / 8.0 - u * u * u / 30.0 + u * u * u * u / 144.0
    } else {
        (-libm::expm1(-u) - u * libm::exp(-u)) / (u * u)
    }
}

impl SojournTail {
    /// Solves M/M/N+D for λ requests/s, mean service time S, N workers and patience τ.
    pub fn new(lambda: f64, service_s: f64, n: u32, timeout_s: f64) -> Self {
        let previous = erlang_b(lambda.max(0.0) * service_s, n.saturating_sub(1));
        Self::with_blocking(lambda, service_s, n, timeout_s, previous)
    }

    /// [`SojournTail::new`] given Erlang B for N − 1 workers, B(a, N − 1).
    pub(crate) fn with_blocking(
        lambda: f64,
        service_s: f64,
        n: u32,
        timeout_s: f64,
        previous: f64,
    ) -> Self {
        let timeout_s = timeout_s.max(0.0);
        if n == 0 || !(service_s > 0.0) {
            // Nobody serves: every request waits the whole timeout and gives up.
            return SojournTail {
                timeout_s,
                abandon: 1.0,
                ..SojournTail::default()
            };
        }
        let lambda = lambda.max(0.0);
        let mu = 1.0 / service_s;
        let all = f64::from(n) * mu;
        let drain = all - lambda;
        let anchor = if drain >= 0.0 { 0.0 } else { timeout_s };
        let density = lambda * previous;
        let at_zero = drain * anchor;
        let at_timeout = -drain * (timeout_s - anchor);
        SojournTail {
            mu,
            timeout_s,
            drain,
            anchor,
            lo: 0.0,
            no_wait: libm::exp(at_zero),
            density,
            waited: density * exp_integral(at_zero, at_timeout, timeout_s),
            abandon: density * libm::exp(at_timeout) / all,
        }
    }

    /// No instance serves yet; the first one serves `ready_in_s` after the start of a step of
    /// `step_s` seconds, and the requests arriving meanwhile are held for it (Cloud Run's
    /// pending queue, Knative's activator) for at most `patience_s`. A request arriving at
    /// u waits ready − u: arrivals are spread evenly over the step, so the waits are spread
    /// evenly too; those that would wait past the patience fail when it ends, and the
    /// others are served after their wait by the new instance.
    pub fn cold_start(service_s: f64, ready_in_s: f64, patience_s: f64, step_s: f64) -> Self {
        let ready = ready_in_s.max(0.0);
        let step = step_s.max(f64::MIN_POSITIVE);
        let patience = patience_s.max(0.0);
        // Waits run from ready − step (the step's last arrival) to ready (its first); the
        // served ones up to the patience.
        let hi = ready.min(patience);
        let lo = (ready - step).max(0.0).min(hi);
        let density = 1.0 / step;
        SojournTail {
            mu: if service_s > 0.0 {
                1.0 / service_s
            } else {
                0.0
            },
            timeout_s: hi,
            drain: 0.0,
            anchor: 0.0,
            lo,
            no_wait: (step - ready).max(0.0) * density,
            density,
            waited: (hi - lo) * density,
            abandon: (ready - hi).min(step) * density,
        }
    }

    /// The same queue seen by the requests it serves only: those that would give up are
    /// turned away before they queue (a bounded room rejects them), so they leave no trace.
    pub fn served_only(mut self) -> Self {
        self.abandon = 0.0;
        self
    }

    fn total(&self) -> f64 {
        self.no_wait + self.waited + self.abandon
    }

    pub(super) fn served_mass(&self) -> f64 {
        self.no_wait + self.waited
    }

    /// Share of arrivals that give up at the timeout.
    pub fn abandon_share(&self) -> f64 {
        self.abandon / self.total()
    }

    /// Share of arrivals that reach a worker.
    pub fn served_share(&self) -> f64 {
        self.served_mass() / self.total()
    }

    /// Probability that an arriving request finds every worker busy and waits.
    pub fn p_wait(&self) -> f64 {
        (self.waited + self.abandon) / self.total()
    }

    /// ∫₀^τ x·e^(−δ(x − x*)) dx, the waiting time's first moment before scaling.
    fn wait_moment(&self) -> f64 {
        let tau = self.timeout_s;
        if self.lo > 0.0 {
            // Only a cold start waits from a later time, with an even density.
            return (tau * tau - self.lo * self.lo) / 2.0;
        }
        let u = self.drain.abs() * tau;
        if self.drain >= 0.0 {
            tau * tau * first_moment_shape(u)
        } else {
            // Measured back from τ, where the density peaks: τ·∫ − ∫ (τ − x)·….
            let mass = exp_integral(-u, 0.0, tau);
            tau * mass - tau * tau * first_moment_shape(u)
        }
    }

    /// Mean wait of the requests that are served, s.
    pub fn mean_wait_served(&self) -> f64 {
        let served = self.served_mass();
        if !(served > 0.0) {
            return 0.0;
        }
        self.density * self.wait_moment() / served
    }

    /// Mean time an arriving request spends waiting, abandoners (who wait τ) included, s:
    /// by Little's law, the queue holds λ times this.
    pub fn mean_wait_all(&self) -> f64 {
        (self.density * self.wait_moment() + self.abandon * self.timeout_s) / self.total()
    }

    /// Share of arrivals that wait longer than `t` seconds (abandoners wait exactly τ).
    pub fn wait_over(&self, t: f64) -> f64 {
        if t >= self.timeout_s {
            return 0.0;
        }
        let t = t.max(self.lo);
        let e = |x: f64| -self.drain * (x - self.anchor);
        let later = self.density * exp_integral(e(t), e(self.timeout_s), self.timeout_s - t);
        (later + self.abandon) / self.total()
    }

    /// For served requests: the scaled mass with time in the system above `t`, and the
    /// scaled density there (numerator of P(T > t | served) and of its density).
    pub(super) fn served_over(&self, t: f64) -> (f64, f64) {
        let t = t.max(0.0);
        let tau = self.timeout_s;
        let lo = self.lo;
        let m = t.min(tau).max(lo);
        let mu = self.mu;
        let e = |x: f64| -self.drain * (x - self.anchor);
        let direct = self.no_wait * libm::exp(-mu * t);
        // Waited x ≤ m and still in service at t.
        let in_service = if t > lo {
            self.density * exp_integral(e(lo) - mu * (t - lo), e(m) - mu * (t - m), m - lo)
        } else {
            0.0
        };
        // Still waiting at t (only when t < τ).
        let waiting = self.density * exp_integral(e(m), e(tau), tau - m);
        (direct + in_service + waiting, mu * (direct + in_service))
    }

    /// Share of all arrivals whose time in the system exceeds `t` seconds: the served ones
    /// that took longer, and the abandoners (who spent τ) when t < τ.
    pub fn share_over(&self, t: f64) -> f64 {
        let gave_up = if t < self.timeout_s {
            self.abandon
        } else {
            0.0
        };
        ((self.served_over(t).0 + gave_up) / self.total()).clamp(0.0, 1.0)
    }

    /// The t with P(T > t | served) = `tail`: a quantile of the time in the system of the
    /// requests that are served. The timeout when none is served.
    pub fn quantile(&self, tail: f64) -> f64 {
        let served = self.served_mass();
        if !(served > 0.0 && self.mu > 0.0 && tail > 0.0 && tail < 1.0) {
            return self.timeout_s;
        }
        let service_q = libm::log(1.0 / tail) / self.mu;
        // T is at least the service time and at most τ plus it.
        super::tail_root(
            &[(1.0 / served, *self)],
            tail,
            (service_q, self.timeout_s + service_q),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrals_are_exact_where_they_are_simple() {
        assert!((exp_integral(0.0, 0.0, 2.0) - 2.0).abs() < 1e-15);
        // ∫₀^1 e^(−x) dx = 1 − e^(−1).
        let want = 1.0 - (-1.0f64).exp();
        assert!((exp_integral(0.0, -1.0, 1.0) - want).abs() < 1e-15);
        assert!((exp_integral(-1.0, 0.0, 1.0) - want).abs() < 1e-15);
        // ∫₀^1 y e^(−u y) dy both sides of the series' switch.
        for u in [0.0099999f64, 0.0100001, 0.5, 3.0] {
            let closed = (1.0 - (-u).exp() * (1.0 + u)) / (u * u);
            assert!((first_moment_shape(u) - closed).abs() < 1e-9, "{u}");
        }
        assert_eq!(first_moment_shape(0.0), 0.5);
    }
}
