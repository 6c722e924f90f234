//! Routing in the minute model: what the load-balancing policy does to the queue, by formula
//! where one exists.
//!
//! The fleet is I instances of c workers each, every instance with its own FIFO queue;
//! requests arrive as one Poisson stream of rate λ, their service times are exponential with
//! mean S, and a request that has not reached a worker within the timeout τ gives up (the
//! patience of [`super::solve`]). The policy decides which instance's queue a request joins:
//!
//! - **random**: a Poisson stream split at random is independent Poisson streams, so every
//!   instance is exactly M/M/c+D at λ/I ([`split_poisson`]);
//! - **ring hash and Maglev**: each key's requests are a random thinning of the Poisson
//!   stream, and a host's requests the sum of its keys' streams, so each instance is again
//!   exactly M/M/c+D, at λ times its arrival share: the popularity of the keys the table
//!   sends to it ([`hash_shares`]);
//! - **round robin**: instance i takes every I-th request, so its interarrival times are
//!   sums of I exponential gaps: Erlang-I renewal arrivals, not Poisson. Each instance is
//!   E_I/M/c ([`erlang_arrivals_queue`]), exact without timeouts; the timeouts cut its wait
//!   law as M/M/c+D's exact solution cuts M/M/c's (an approximation for these arrivals);
//! - **least request** (power of d choices): the supermarket model's fixed point, in the
//!   limit of many instances ([`Supermarket`] for one worker per instance, in closed form;
//!   [`SupermarketWithWorkers`] for c workers, solved numerically); the timeouts cut the
//!   same way; past saturation, where the model has no fixed point, the pooled queue
//!   M/M/(I·c)+D stands in as an optimistic figure, to be replaced by the request engine's.
//!
//! The fleet's p99 and timeout share are those of the mixture of the instances, weighted by
//! their arrival shares ([`routed`]). Every function here is pure: it depends on no run.

use super::{mixture_quantile, solve, QueueOutcome, SojournTail};
use crate::balance::{self, HashBalancer, Picker, QueueModel};
use crate::relations::{
    Relation, RelationId, ENVOY_LEAST_REQUEST_SOURCE, ENVOY_LOAD_BALANCERS,
    GRASSMANN_TAKSAR_HEYMAN_1985, GROSS_HARRIS_2008, KLEINROCK_1975, KLEINROCK_1975_GM,
    MITZENMACHER_2001, NEUTS_1981, ZIPF_1949,
};
use crate::requests::{KeySpace, Routing};

/// Envoy's default `choice_count` of least request.
pub const DEFAULT_CHOICES: u32 = crate::requests::DEFAULT_CHOICE_COUNT;

/// What an infinite timeout is read as, seconds: beyond every wait a queue below saturation
/// has any chance of reaching.
const NO_TIMEOUT_S: f64 = 1e12;

/// The fleet behind the policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoutedFleet {
    /// Instances I.
    pub instances: u32,
    /// Workers c of each instance.
    pub workers_per_instance: u32,
    /// The keys requests carry (only ring hash and Maglev read them).
    pub keys: KeySpace,
    /// Least request's number of choices d (Envoy's `choice_count`); 1 is random routing.
    pub choices: u32,
}

impl RoutedFleet {
    /// I instances of c workers, the default key space and two choices.
    pub fn new(instances: u32, workers_per_instance: u32) -> Self {
        RoutedFleet {
            instances,
            workers_per_instance,
            keys: KeySpace::default(),
            choices: DEFAULT_CHOICES,
        }
    }
}

/// How far a [`RoutedOutcome`] can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// The formula is the model's exact steady state.
    Exact,
    /// A formula under an approximation the relation states (round robin with timeouts,
    /// the supermarket model's limit of many instances).
    Approximation,
    /// No formula fits (least request past saturation): the figures are the pooled queue's,
    /// an optimistic stand-in (one shared queue never leaves a worker idle while a request
    /// waits); the request engine gives the real figures.
    Bound,
}

/// The queue of a routed fleet in steady state: the fields the minute model takes from
/// [`QueueOutcome`], and each instance's arrival share and utilization.
#[derive(Clone, Debug, PartialEq)]
pub struct RoutedOutcome {
    /// Busy worker time over worker time, over the fleet.
    pub utilization: f64,
    /// Share of requests that find every worker of their instance busy.
    pub p_wait: f64,
    /// Share of requests that give up at the timeout.
    pub timeout_share: f64,
    /// p99 of the time in the system of the served requests, seconds.
    pub p99_s: f64,
    /// Mean wait of the served requests, seconds.
    pub mean_wait_s: f64,
    /// Mean time in the system of the served requests, seconds.
    pub mean_sojourn_s: f64,
    /// Each instance's share of the arrivals.
    pub shares: Vec<f64>,
    /// Each instance's utilization.
    pub per_instance_utilization: Vec<f64>,
    pub basis: Basis,
}

/// The queue of `fleet` behind `policy` for λ = `lambda` requests/s, mean service time
/// `service_s` and timeout `timeout_s` (`f64::INFINITY`: none).
pub fn routed(
    policy: Routing,
    fleet: &RoutedFleet,
    lambda: f64,
    service_s: f64,
    timeout_s: f64,
) -> RoutedOutcome {
    let shares = arrival_shares(policy, fleet);
    routed_with_shares(policy, fleet, &shares, lambda, service_s, timeout_s)
}

/// [`routed`] with the arrival shares already known ([`arrival_shares`] of the same policy
/// and fleet): the hash policies' shares change only when the instances do, and building
/// their table is the costly part. Shares of another length than the fleet's instances are
/// computed anew. The shares are borrowed: a caller that keeps them (the minute model,
/// tick after tick) copies them only where the outcome's own list needs them.
pub fn routed_with_shares(
    policy: Routing,
    fleet: &RoutedFleet,
    shares: &[f64],
    lambda: f64,
    service_s: f64,
    timeout_s: f64,
) -> RoutedOutcome {
    let tau = if timeout_s.is_finite() {
        timeout_s.max(0.0)
    } else {
        NO_TIMEOUT_S
    };
    let lambda = lambda.max(0.0);
    let (i, c) = (fleet.instances, fleet.workers_per_instance);
    if i == 0 || c == 0 || !(service_s > 0.0) {
        // Nobody serves: every request waits the timeout and gives up.
        let q = solve(lambda, service_s, 0, tau);
        return RoutedOutcome {
            utilization: 0.0,
            p_wait: q.p_wait,
            timeout_share: q.timeout_share,
            p99_s: q.p99_s,
            mean_wait_s: q.mean_wait_s,
            mean_sojourn_s: q.mean_wait_s,
            shares: vec![1.0 / f64::from(i.max(1)); i as usize],
            per_instance_utilization: vec![0.0; i as usize],
            basis: Basis::Exact,
        };
    }
    let computed;
    let shares = if shares.len() == i as usize {
        shares
    } else {
        computed = arrival_shares(policy, fleet);
        &computed
    };
    let rho = lambda * service_s / (f64::from(i) * f64::from(c));
    match policy.queue_model() {
        QueueModel::PoissonSplit => split_poisson(shares, c, lambda, service_s, tau),
        QueueModel::PowerOfChoices if fleet.choices <= 1 => {
            split_poisson(shares, c, lambda, service_s, tau)
        }
        _ if i == 1 => split_poisson(shares, c, lambda, service_s, tau),
        QueueModel::InTurn => {
            let lambda_i = lambda / f64::from(i);
            match gap_root(i, lambda_i, service_s, c) {
                Some(x) => {
                    let free = erlang_arrivals_free_wait(i, lambda_i, service_s, c, x);
                    // A*(cμ) of the Erlang-I gap of rate λ/I, whose phases have rate λ.
                    let all = f64::from(c) / service_s;
                    let a = libm::pow(lambda / (lambda + all), f64::from(i));
                    let wait = ExponentialWait {
                        overshoot: Some((free.last_free, a / (1.0 - a))),
                        ..ExponentialWait::new(
                            free.no_wait,
                            free.density,
                            free.theta,
                            1.0 / service_s,
                            tau,
                        )
                    };
                    // Without timeouts below saturation E_I/M/c is the exact steady state.
                    let basis = if timeout_s.is_finite() || x < 0.0 {
                        Basis::Approximation
                    } else {
                        Basis::Exact
                    };
                    identical(&wait, shares, lambda, service_s, tau, c, basis)
                }
                // No arrivals: nothing waits.
                None if lambda_i == 0.0 => split_poisson(shares, c, lambda, service_s, tau),
                // Exactly at saturation: the instances as M/M/c+D, as if their arrivals were
                // Poisson.
                None => {
                    let mut out = split_poisson(shares, c, lambda, service_s, tau);
                    out.basis = Basis::Approximation;
                    out
                }
            }
        }
        QueueModel::PowerOfChoices if c == 1 && rho < 1.0 => {
            let model = Supermarket::new(rho, fleet.choices, service_s);
            identical(
                &model,
                shares,
                lambda,
                service_s,
                tau,
                1,
                Basis::Approximation,
            )
        }
        QueueModel::PowerOfChoices if rho < 1.0 => {
            let model = SupermarketWithWorkers::new(rho, fleet.choices, c, service_s);
            identical(
                &model,
                shares,
                lambda,
                service_s,
                tau,
                c,
                Basis::Approximation,
            )
        }
        QueueModel::PowerOfChoices => pooled_bound(shares, i, c, lambda, service_s, tau),
    }
}

/// Every instance's share of the arrivals: 1/I for round robin, random and least request
/// (by symmetry), the popularity of the keys each host's table slots or ring arcs take for
/// ring hash and Maglev (their table as the request engine builds it).
pub fn arrival_shares(policy: Routing, fleet: &RoutedFleet) -> Vec<f64> {
    let n = fleet.instances as usize;
    let equal = vec![1.0 / n.max(1) as f64; n];
    if n <= 1 || !fleet.keys.is_valid() || !policy.hashes_keys() {
        return equal;
    }
    let hosts: Vec<u32> = (0..fleet.instances).collect();
    // More hosts than Maglev's slots cannot be tabled; equal shares stand in.
    Picker::build(policy, &hosts)
        .table()
        .map_or(equal, |table| hash_shares(table, fleet.keys))
}

/// A hash policy's arrival shares: host h takes Σ P(key) over the keys its table sends to
/// it, P the Zipf popularity and key k hashed as the engine hashes it
/// ([`balance::key_hash`]).
pub fn hash_shares(table: &dyn HashBalancer, keys: KeySpace) -> Vec<f64> {
    let mut shares = vec![0.0; table.hosts()];
    for (key, p) in keys.probabilities().into_iter().enumerate() {
        shares[table.host_of(balance::key_hash(key as u64))] += p;
    }
    shares
}

/// Arrival shares and the Poisson split, for the sources panel.
pub const ROUTED_SHARES: Relation = Relation {
    id: RelationId::RoutedShares,
    symbols: &["wᵢ", "λᵢ"],
    citations: &[KLEINROCK_1975, ENVOY_LOAD_BALANCERS, ZIPF_1949],
    assumption: false,
};

/// A Poisson stream split into instances with the given shares: instance i is M/M/c+D at
/// λ·wᵢ ([`solve`]), exact, and the fleet is their mixture ([`mix`]).
pub fn split_poisson(
    shares: &[f64],
    c: u32,
    lambda: f64,
    service_s: f64,
    tau: f64,
) -> RoutedOutcome {
    let mut solved: Vec<(f64, QueueOutcome)> = Vec::with_capacity(shares.len());
    for &w in shares {
        // Equal shares (random routing) solve once.
        let q = match solved.last() {
            Some(&(last, q)) if last == w => q,
            _ => solve(lambda * w, service_s, c, tau),
        };
        solved.push((w, q));
    }
    mix(&solved, service_s)
}

/// The mixture over the instances: arrival-weighted p(wait) and timeout share, the served
/// requests' mean wait weighted by what each instance serves, and the p99 of the mixture of
/// the instances' sojourn distributions ([`mixture_quantile`]).
pub fn mix(instances: &[(f64, QueueOutcome)], service_s: f64) -> RoutedOutcome {
    let total: f64 = instances.iter().map(|(w, _)| w).sum();
    let total = if total > 0.0 { total } else { 1.0 };
    let by_share = |f: &dyn Fn(&QueueOutcome) -> f64| {
        instances.iter().map(|(w, q)| w * f(q)).sum::<f64>() / total
    };
    let served: f64 = by_share(&|q| 1.0 - q.timeout_share);
    let mean_wait_s = if served > 0.0 {
        by_share(&|q| (1.0 - q.timeout_share) * q.mean_wait_s) / served
    } else {
        0.0
    };
    let tails: Vec<(f64, SojournTail)> = instances.iter().map(|(w, q)| (*w, q.tail)).collect();
    let per_instance_utilization: Vec<f64> = instances.iter().map(|(_, q)| q.utilization).collect();
    RoutedOutcome {
        utilization: per_instance_utilization.iter().sum::<f64>()
            / per_instance_utilization.len().max(1) as f64,
        p_wait: by_share(&|q| q.p_wait),
        timeout_share: by_share(&|q| q.timeout_share),
        p99_s: mixture_quantile(&tails, 0.01),
        mean_wait_s,
        mean_sojourn_s: mean_wait_s + service_s,
        shares: instances.iter().map(|(w, _)| *w).collect(),
        per_instance_utilization,
        basis: Basis::Exact,
    }
}

/// The mixture over the instances, for the sources panel.
pub const ROUTED_MIXTURE: Relation = Relation {
    id: RelationId::RoutedMixture,
    symbols: &["wᵢ", "Tᵢ"],
    citations: &[KLEINROCK_1975],
    assumption: false,
};

/// The wait W an arriving request would have at its instance if nobody gave up: an atom at 0
/// and a density beyond, with the service after it exponential of rate μ.
trait FreeWait {
    /// The mass of requests that find a free worker (the law need not be normalized: only
    /// ratios of masses are read).
    fn no_wait(&self) -> f64;
    /// The mass of requests that wait some time in (0, τ].
    fn waited_within(&self, tau: f64) -> f64;
    /// The density of the wait at x > 0.
    fn wait_density(&self, x: f64) -> f64;
    /// ∫ w over the waits in (0, τ].
    fn wait_moment(&self, tau: f64) -> f64;
    /// The mass with wait ≤ τ and wait + service > t.
    fn sojourn_over(&self, t: f64, tau: f64) -> f64;
    /// The mass of the requests that give up, when the law below τ keeps its free shape and
    /// `all` = cμ: for Poisson arrivals v(τ)/(cμ) (see [`Patience`]).
    fn abandon_mass(&self, tau: f64, all: f64) -> f64 {
        self.wait_density(tau) / all
    }
}

/// A [`FreeWait`] with the patience τ: the requests whose wait would pass τ give up, and
/// their leaving shortens the waits of those behind them. M/M/c+D's exact solution
/// ([`super::patience`]) is the free law of M/M/c cut at τ, with the mass beyond τ replaced
/// by v(τ)/(cμ), v the free density: past τ the virtual wait only drains, and it jumps over τ
/// by a service spacing Exp(cμ), memoryless (for renewal arrivals see
/// [`FreeWait::abandon_mass`] of [`ExponentialWait`]). The same cut is taken for the other
/// arrival laws (Erlang arrivals, the supermarket model): exact for Poisson arrivals, an
/// approximation otherwise (the shape of the waits below τ is taken as unchanged by those
/// who give up), whose error the tests measure against the request engine.
struct Patience<'a> {
    free: &'a dyn FreeWait,
    tau: f64,
    /// cμ: the rate at which the workers of one instance finish requests.
    all: f64,
}

impl Patience<'_> {
    /// The mass of those who give up.
    fn abandon_mass(&self) -> f64 {
        self.free.abandon_mass(self.tau, self.all)
    }

    /// The mass of those who are served (wait ≤ τ).
    fn served_mass(&self) -> f64 {
        self.free.no_wait() + self.free.waited_within(self.tau)
    }

    fn total(&self) -> f64 {
        self.served_mass() + self.abandon_mass()
    }

    fn p_wait(&self) -> f64 {
        (self.free.waited_within(self.tau) + self.abandon_mass()) / self.total()
    }

    fn gives_up(&self) -> f64 {
        self.abandon_mass() / self.total()
    }

    fn mean_wait_served(&self) -> f64 {
        self.free.wait_moment(self.tau) / self.served_mass()
    }

    fn served_tail(&self, t: f64) -> f64 {
        (self.free.sojourn_over(t, self.tau) / self.served_mass()).clamp(0.0, 1.0)
    }

    /// The p-quantile of the served requests' sojourn, by bisection from 0 to where the
    /// tail has fallen below `tail`.
    fn served_quantile(&self, service_s: f64, tail: f64) -> f64 {
        let mut lo = 0.0;
        let mut hi = service_s * libm::log(1.0 / tail);
        while self.served_tail(hi) > tail && hi < 1e9 {
            lo = hi;
            hi *= 2.0;
        }
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if self.served_tail(mid) > tail {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    }
}

/// I identical instances of c workers whose free wait is `free`.
fn identical(
    free: &dyn FreeWait,
    shares: &[f64],
    lambda: f64,
    service_s: f64,
    tau: f64,
    c: u32,
    basis: Basis,
) -> RoutedOutcome {
    let law = Patience {
        free,
        tau,
        all: f64::from(c.max(1)) / service_s,
    };
    let timeout_share = law.gives_up();
    let n = shares.len().max(1) as f64;
    let utilization =
        (lambda / n * service_s * (1.0 - timeout_share) / f64::from(c.max(1))).min(1.0);
    let mean_wait_s = law.mean_wait_served();
    RoutedOutcome {
        utilization,
        p_wait: law.p_wait(),
        timeout_share,
        p99_s: law.served_quantile(service_s, 0.01),
        mean_wait_s,
        mean_sojourn_s: mean_wait_s + service_s,
        per_instance_utilization: vec![utilization; shares.len()],
        shares: shares.to_vec(),
        basis,
    }
}

/// Least request at or past saturation: the pooled queue M/M/(I·c)+D, an optimistic
/// stand-in: a central queue never leaves a worker idle while a request waits, which no
/// dispatching to per-instance queues can promise (without timeouts it holds no more
/// requests, so by Little's law its mean wait is a lower bound). Not a bound on every
/// quantile.
fn pooled_bound(
    shares: &[f64],
    i: u32,
    c: u32,
    lambda: f64,
    service_s: f64,
    tau: f64,
) -> RoutedOutcome {
    let q = solve(lambda, service_s, i.saturating_mul(c), tau);
    RoutedOutcome {
        utilization: q.utilization,
        p_wait: q.p_wait,
        timeout_share: q.timeout_share,
        p99_s: q.p99_s,
        mean_wait_s: q.mean_wait_s,
        mean_sojourn_s: q.mean_wait_s + service_s,
        per_instance_utilization: vec![q.utilization; shares.len()],
        shares: shares.to_vec(),
        basis: Basis::Bound,
    }
}

/// σ of an instance with Erlang-k arrivals of rate λ (k phases of rate kλ each, the gaps of
/// round robin over k instances) and c exponential workers of mean S, returned as the gap
/// 1 − σ: the root in (0, 1) of σ = A*(cμ(1 − σ)), with A*(s) = (kλ/(kλ + s))^k the
/// Laplace–Stieltjes transform of the gap (Kleinrock 1975, ch. 6, the queue G/M/m; Gross,
/// Shortle, Thompson & Harris 2008, ch. 6, G/M/c). `None` at or past saturation (λS ≥ c),
/// where only σ = 1 solves it in (0, 1].
pub fn erlang_arrivals_gap(phases: u32, lambda: f64, service_s: f64, c: u32) -> Option<f64> {
    gap_root(phases, lambda, service_s, c).filter(|&x| x > 0.0)
}

/// The root x ≠ 0 of 1 − (1 + cμx/(kλ))^(−k) = x, found by bisection: in (0, 1) below
/// saturation, in (−kλ/(cμ), 0) past it (σ > 1, the continuation that [`Patience`] reads
/// below τ).
fn gap_root(phases: u32, lambda: f64, service_s: f64, c: u32) -> Option<f64> {
    let k = f64::from(phases.max(1));
    let cmu = f64::from(c) / service_s;
    let usable = lambda > 0.0 && lambda.is_finite() && service_s > 0.0 && c > 0;
    if !usable || lambda == cmu {
        return None;
    }
    let nu = k * lambda;
    let f = |x: f64| -libm::expm1(-k * libm::log1p(cmu * x / nu)) - x;
    // Below saturation f > 0 on (0, root) and f < 0 on (root, 1); past it f < 0 on
    // (−kλ/(cμ), root) and f > 0 on (root, 0).
    let below = lambda < cmu;
    let (mut lo, mut hi) = if below {
        (0.0f64, 1.0f64)
    } else {
        (-nu / cmu, 0.0f64)
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if (f(mid) > 0.0) == below {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-15 * hi.abs().max(lo.abs()) {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// One instance under round robin: E_k/M/c.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErlangArrivals {
    /// σ, the ratio of the geometric number an arrival finds beyond c − 1.
    pub sigma: f64,
    /// Share of arrivals that find every worker busy.
    pub p_wait: f64,
    /// The rate of the exponential wait of those that wait: θ = cμ(1 − σ), per second.
    pub drain_rate: f64,
    /// Time-average number of busy workers (λS by Little's law: a check of the solution).
    pub busy_workers: f64,
    /// Time-average share of time in each arrival phase that is the last (1/k: a check).
    pub last_phase_share: f64,
}

/// E_k/M/c in steady state, exactly: the Markov chain of (requests held n, arrival phase j)
/// is a quasi-birth-and-death process whose levels n ≥ c repeat, so π_(n+1) = π_n·R
/// (Neuts 1981, ch. 1, matrix-geometric solutions). Only the last phase moves up a level,
/// so R and the boundary's matrices have a single non-zero row: π_n = π_(n−1)(k−1)·ρₙ for
/// vectors ρₙ found level by level from the top, ρ_c = R's row, (R's row)ⱼ =
/// (kλ/(kλ + cμ(1 − σ)))^(j+1); each ρₙ (n < c) is linear in its own last entry, which one
/// division fixes, written without subtraction so that no level loses digits however many
/// workers (Grassmann, Taksar & Heyman 1985). Arrivals leave the last phase, so the number
/// an arrival finds is π_n(k−1) normalized: geometric of ratio σ beyond c − 1, and P(wait) = Σ_(n≥c) of it. A
/// request that waits waits Exp(cμ(1 − σ)) (Kleinrock 1975, ch. 6; Gross et al. 2008,
/// ch. 6). O(c·k) operations; `None` at or past saturation.
pub fn erlang_arrivals_queue(
    phases: u32,
    lambda: f64,
    service_s: f64,
    c: u32,
) -> Option<ErlangArrivals> {
    let x = erlang_arrivals_gap(phases, lambda, service_s, c)?;
    let free = erlang_arrivals_free_wait(phases, lambda, service_s, c, x);
    let waiting = free.density / free.theta;
    Some(ErlangArrivals {
        sigma: 1.0 - x,
        p_wait: waiting / (free.no_wait + waiting),
        drain_rate: free.theta,
        busy_workers: free.busy_workers,
        last_phase_share: free.last_phase_share,
    })
}

/// The free wait of E_k/M/c (see [`erlang_arrivals_queue`]) for the gap x = 1 − σ, with the
/// checks: the masses are those of the arrivals, scaled, so that an arrival finds a free
/// worker with mass Σ_(n<c) π_n(k−1) and waits with density π_(c−1)(k−1)·σ·cμ·e^(−θx) (the
/// geometric sum of Erlang(m + 1, cμ) waits). Past saturation (x < 0) the levels below c
/// are still a finite, positive solution of their balance equations; the levels above are
/// not summable, and only the part of the law below the patience is used.
struct ErlangFreeWait {
    no_wait: f64,
    density: f64,
    /// The mass of arrivals that find exactly c − 1 busy workers.
    last_free: f64,
    theta: f64,
    busy_workers: f64,
    last_phase_share: f64,
}

fn erlang_arrivals_free_wait(
    phases: u32,
    lambda: f64,
    service_s: f64,
    c: u32,
    x: f64,
) -> ErlangFreeWait {
    let k = phases.max(1) as usize;
    let nu = k as f64 * lambda;
    let mu = 1.0 / service_s;
    let cf = f64::from(c);
    let ratio = nu / (nu + cf * mu * x);
    // ρ of the level above, starting from R's row.
    let mut above: Vec<f64> = Vec::with_capacity(k);
    let mut r = 1.0;
    for _ in 0..k {
        r *= ratio;
        above.push(r);
    }
    let r_sum: f64 = above.iter().sum();
    // ln of ρₙ(k−1) and of Σⱼ ρₙ(j), for n = 1..c−1.
    let c_us = c as usize;
    let mut ln_last = vec![0.0; c_us];
    let mut ln_sum = vec![0.0; c_us];
    // Level n, from the top down: π_n = π_(n−1)(k−1)·ν·x, x solving x·(−L_n) = e₀, L_n
    // the generator of level n with the trips above it folded in: a trip that leaves
    // (n, k−1) upwards comes back to (n, j) with probability p_j = d·ρ_(n+1)(j)/ν, d the
    // down rate of level n + 1 (the p_j add up to 1: the rows of the folded generator keep
    // summing to −nμ). Its diagonal is written without subtraction (Grassmann, Taksar &
    // Heyman 1985): the last phase leaves at nμ + ν·Σ_(j<k−1) p_j·(1 − q^(k−1−j)),
    // q = ν/(ν + nμ), the chance that a return to phase j moves on before going down.
    let mut p = vec![0.0; k];
    for n in (1..c_us).rev() {
        let nmu = n as f64 * mu;
        let out = nu + nmu;
        let q = nu / out;
        let down = (n + 1) as f64 * mu;
        for j in 0..k {
            p[j] = down * above[j] / nu;
        }
        let ln_q = libm::log(q);
        let leave: f64 = (0..k - 1)
            .map(|j| p[j] * -libm::expm1((k - 1 - j) as f64 * ln_q))
            .sum();
        // x_(k−1), then x_j = q^j/(ν + nμ) + x_(k−1)·β_j with β_j = q·(β_(j−1) + p_j).
        let last = libm::pow(q, (k - 1) as f64) / (nmu + nu * leave);
        let (mut alpha, mut beta) = (1.0 / out, q * p[0]);
        for j in 0..k - 1 {
            above[j] = nu * (alpha + last * beta);
            alpha *= q;
            beta = q * (beta + p[j + 1]);
        }
        above[k - 1] = nu * last;
        ln_last[n] = libm::log(above[k - 1]);
        ln_sum[n] = libm::log(above.iter().sum::<f64>());
    }
    // Level 0, scaled so that its last phase is 1: π₀(j) = π₀(j−1) + μ·ρ₁(j)/ν.
    let mut level0 = 0.0;
    let mut acc = 0.0;
    for &rho1 in &above {
        acc += mu * rho1 / nu;
        level0 += acc;
    }
    // ln S_n = ln π_n(k−1), n = 0..c−1, with S₀ = 1, and ln of each level's mass.
    let mut ln_s = vec![0.0; c_us];
    let mut ln_mass = vec![libm::log(level0); c_us];
    for n in 1..c_us {
        ln_s[n] = ln_s[n - 1] + ln_last[n];
        ln_mass[n] = ln_s[n - 1] + ln_sum[n];
    }
    let sigma = 1.0 - x;
    let top = ln_s[c_us - 1];
    let scale = ln_s.iter().chain(&ln_mass).copied().fold(top, f64::max);
    let e = |v: f64| libm::exp(v - scale);
    let no_wait: f64 = ln_s.iter().map(|&v| e(v)).sum();
    let density = e(top) * sigma * cf * mu;
    // Levels c and up (below saturation): π_(c+m) = S_(c−1)·σ^m·r, so their arrivals' mass
    // is S_(c−1)·σ/x and their whole mass S_(c−1)·Σr/x; all keep c workers busy.
    let mass_low: f64 = ln_mass.iter().map(|&v| e(v)).sum();
    let mass_high = e(top) * r_sum / x;
    let busy_low: f64 = ln_mass
        .iter()
        .enumerate()
        .map(|(n, &v)| n as f64 * e(v))
        .sum();
    let total = mass_low + mass_high;
    ErlangFreeWait {
        no_wait,
        density,
        last_free: e(top),
        theta: cf * mu * x,
        busy_workers: (busy_low + cf * mass_high) / total,
        last_phase_share: (no_wait + e(top) * sigma / x) / total,
    }
}

/// Round robin's instances as E_I/M/c, for the sources panel.
pub const ROUND_ROBIN_QUEUE: Relation = Relation {
    id: RelationId::RoundRobinQueue,
    symbols: &["σ", "A*", "θ"],
    citations: &[
        KLEINROCK_1975_GM,
        GROSS_HARRIS_2008,
        NEUTS_1981,
        GRASSMANN_TAKSAR_HEYMAN_1985,
    ],
    assumption: false,
};

/// ∫₀^len exp(e₀ + (e₁ − e₀)·x/len) dx: an exponential between the exponents e₀ and e₁,
/// computed from the larger one so that nothing overflows when both are ≤ 0.
fn exp_span(e0: f64, e1: f64, len: f64) -> f64 {
    if !(len > 0.0) {
        return 0.0;
    }
    let d = (e1 - e0).abs();
    let shape = if d < 1e-12 { 1.0 } else { -libm::expm1(-d) / d };
    libm::exp(e0.max(e1)) * len * shape
}

/// (1 − e^(−u)(1 + u))/u² = ∫₀^1 y·e^(−u·y) dy for u ≥ 0, by its series near 0.
fn first_moment_shape(u: f64) -> f64 {
    if u < 1e-3 {
        0.5 - u / 3.0 + u * u / 8.0 - u * u * u / 30.0
    } else {
        (-libm::expm1(-u) - u * libm::exp(-u)) / (u * u)
    }
}

/// A free wait with an atom at 0 and the density D·e^(−θx) beyond: M/M/c's, and E_k/M/c's
/// with θ = cμ(1 − σ). Past saturation θ < 0: the law is not a distribution any more, but
/// its part below τ, which is all [`Patience`] reads, still is. Every mass is kept
/// multiplied by e^(θ·x*), x* = τ when θ < 0 (where the density peaks) and 0 otherwise, so
/// that no exponential exceeds 1 (the scale cancels in [`Patience`]'s ratios).
struct ExponentialWait {
    no_wait: f64,
    /// D: the density at 0+.
    density: f64,
    theta: f64,
    mu: f64,
    /// x*: τ past saturation, 0 below.
    anchor: f64,
    /// For renewal arrivals: the mass of arrivals that take the last free worker, and
    /// A*(cμ)/(1 − A*(cμ)) ([`FreeWait::abandon_mass`]); `None` for Poisson arrivals.
    overshoot: Option<(f64, f64)>,
}

impl ExponentialWait {
    /// The law with the atom `no_wait`, the density `density`·e^(−θx), the service rate μ,
    /// to be read up to the timeout `tau`.
    fn new(no_wait: f64, density: f64, theta: f64, mu: f64, tau: f64) -> Self {
        ExponentialWait {
            no_wait,
            density,
            theta,
            mu,
            anchor: if theta < 0.0 { tau } else { 0.0 },
            overshoot: None,
        }
    }

    /// The exponent of the scaled density at x: −θ(x − x*).
    fn at(&self, x: f64) -> f64 {
        -self.theta * (x - self.anchor)
    }

    /// The scale e^(θ·x*) of the masses that carry no exponential of θ.
    fn scale(&self) -> f64 {
        libm::exp(self.theta * self.anchor)
    }
}

impl FreeWait for ExponentialWait {
    fn no_wait(&self) -> f64 {
        self.no_wait * self.scale()
    }

    fn waited_within(&self, tau: f64) -> f64 {
        self.density * exp_span(self.at(0.0), self.at(tau), tau)
    }

    fn wait_density(&self, x: f64) -> f64 {
        self.density * libm::exp(self.at(x))
    }

    fn wait_moment(&self, tau: f64) -> f64 {
        // D·∫₀^τ x·e^(−θ(x − x*)) dx: from 0 when θ ≥ 0, measured back from τ otherwise.
        let u = self.theta.abs() * tau;
        let moment = if self.theta >= 0.0 {
            tau * tau * first_moment_shape(u)
        } else {
            tau * exp_span(-u, 0.0, tau) - tau * tau * first_moment_shape(u)
        };
        self.density * moment
    }

    fn sojourn_over(&self, t: f64, tau: f64) -> f64 {
        // No wait and service past t; a wait w ≤ min(t, τ) and service past t − w; or a
        // wait in (t, τ].
        let m = t.min(tau);
        let mu = self.mu;
        let waited_in_service =
            self.density * exp_span(self.at(0.0) - mu * t, self.at(m) - mu * (t - m), m);
        let still_waiting = if t < tau {
            self.density * exp_span(self.at(t), self.at(tau), tau - t)
        } else {
            0.0
        };
        self.no_wait() * libm::exp(-mu * t) + waited_in_service + still_waiting
    }

    /// With renewal arrivals of transform A*, an admitted request that lifts the virtual
    /// wait past τ does so by a memoryless overshoot O ~ Exp(cμ) (a service spacing of c
    /// busy workers); the arrivals that follow before O has drained all give up, on average
    /// Σ_(m≥1) E[e^(−cμ·(G₁ + … + G_m))] = A*(cμ)/(1 − A*(cμ)) of them (G the gaps). The
    /// crossings are the arrivals below τ whose jump passes it: ∫₀^τ D·e^(−θy)·e^(−cμ(τ−y))
    /// dy, plus those that take the last free worker, times e^(−cμτ). For Poisson arrivals
    /// this is v(τ)/(cμ) again, exactly.
    fn abandon_mass(&self, tau: f64, all: f64) -> f64 {
        let Some((last_free, renewals)) = self.overshoot else {
            return self.wait_density(tau) / all;
        };
        // ∫₀^τ D·e^(−θy − cμ(τ − y)) dy, its exponents −cμτ at y = 0 and −θτ at y = τ
        // (shifted by the scale).
        let shift = self.theta * self.anchor;
        let waited = self.density * exp_span(shift - all * tau, self.at(tau), tau);
        let crossings = waited + last_free * libm::exp(shift - all * tau);
        crossings * renewals
    }
}

/// Share of single-worker instances holding at least `i` requests in the supermarket model
/// with `d` choices at load ρ < 1, in the limit of many instances:
/// sᵢ = ρ^((d^i − 1)/(d − 1)) (Mitzenmacher 2001, Theorem 3.2 for d = 2 and its
/// generalization to d choices; d = 1 gives M/M/1's ρ^i).
pub fn supermarket_share(rho: f64, d: u32, i: u32) -> f64 {
    let d = f64::from(d.max(1));
    let exponent = if d == 1.0 {
        f64::from(i)
    } else {
        (libm::pow(d, f64::from(i)) - 1.0) / (d - 1.0)
    };
    libm::pow(rho.clamp(0.0, 1.0), exponent)
}

/// The supermarket model's requests one by one: a request samples d instances, each uniformly
/// and independently (with replacement, as Envoy draws them), and joins the one holding the
/// fewest, so it finds at least k requests ahead with probability sₖ^d (for draws with
/// replacement this holds for any number of instances given the shares; without
/// replacement it would be the hypergeometric product, below sₖ^d); the sₖ themselves are the
/// fixed point of the N → ∞ mean-field limit, and in
/// the limit of many instances the instances are independent (Mitzenmacher 2001), so with
/// k ahead at a single FIFO worker its wait is Erlang(k, μ) and its time in the system
/// Erlang(k + 1, μ). Summed over k:
///
/// - P(T > t) = Σ_(m≥0) Pois(m; μt)·s_m^d, and P(W > τ) = Σ_(m≥0) Pois(m; μτ)·s_(m+1)^d;
/// - E\[T\] = S·Σ_(k≥0) s_k^d = S·Σ_(i≥1) sᵢ/ρ (Little's law on the sᵢ: the same mean).
///
/// [`routed`] takes the timeouts by cutting this law at τ, as M/M/c+D's exact solution cuts
/// M/M/c's (an approximation here: arrivals at an instance depend on its queue).
#[derive(Clone, Debug, PartialEq)]
pub struct Supermarket {
    /// s_k^d for k = 0, 1, … while it exceeds 10⁻¹⁸: the share of arrivals that find at
    /// least k requests at their instance.
    at_least: Vec<f64>,
    mu: f64,
}

impl Supermarket {
    /// Load ρ < 1 per single-worker instance, d choices, mean service time S.
    pub fn new(rho: f64, d: u32, service_s: f64) -> Self {
        let mut at_least = vec![1.0];
        for k in 1..10_000 {
            let s = libm::pow(supermarket_share(rho, d, k), f64::from(d.max(1)));
            if !(s > 1e-18) {
                break;
            }
            at_least.push(s);
        }
        Supermarket {
            at_least,
            mu: 1.0 / service_s,
        }
    }

    /// Share of arrivals finding exactly k requests ahead.
    fn finds(&self, k: usize) -> f64 {
        self.at_least[k] - self.at_least.get(k + 1).copied().unwrap_or(0.0)
    }

    /// Mean time in the system in mean service times, without timeouts: Σ_(k≥0) s_k^d.
    pub fn mean_sojourn_in_services(&self) -> f64 {
        self.at_least.iter().sum()
    }

    /// P(T > t) without timeouts.
    pub fn sojourn_tail(&self, t: f64) -> f64 {
        let y = self.mu * t;
        self.at_least
            .iter()
            .enumerate()
            .map(|(m, a)| poisson(m, y) * a)
            .sum::<f64>()
            .min(1.0)
    }
}

/// Pois(m; y) = e^(−y)·y^m/m!, in logarithms so that large y and m neither overflow nor
/// underflow early.
fn poisson(m: usize, y: f64) -> f64 {
    if y <= 0.0 {
        return if m == 0 { 1.0 } else { 0.0 };
    }
    let m = m as f64;
    libm::exp(-y + m * libm::log(y) - libm::lgamma(m + 1.0))
}

impl Supermarket {
    /// P(W > x).
    fn wait_over(&self, x: f64) -> f64 {
        // With k ahead the wait is Erlang(k, μ): P(W > x) = Σ_(m≥0) Pois(m; μx)·s_(m+1)^d.
        let y = self.mu * x;
        self.at_least
            .iter()
            .skip(1)
            .enumerate()
            .map(|(m, a)| poisson(m, y) * a)
            .sum::<f64>()
            .min(1.0)
    }
}

impl FreeWait for Supermarket {
    fn no_wait(&self) -> f64 {
        self.finds(0)
    }

    fn waited_within(&self, tau: f64) -> f64 {
        (self.at_least.get(1).copied().unwrap_or(0.0) - self.wait_over(tau)).max(0.0)
    }

    fn wait_density(&self, x: f64) -> f64 {
        // Σ_(k≥1) P(k ahead)·μ·Pois(k − 1; μx).
        let y = self.mu * x;
        (1..self.at_least.len())
            .map(|k| self.finds(k) * self.mu * poisson(k - 1, y))
            .sum()
    }

    fn wait_moment(&self, tau: f64) -> f64 {
        // E[Erlang(k); ≤ τ] = (k/μ)·P(Erlang(k + 1) ≤ τ), and P(Erlang(n) ≤ τ) =
        // 1 − Σ_(m<n) Pois(m; μτ).
        let y = self.mu * tau;
        let mut below = 0.0;
        let mut within = 0.0;
        for k in 0..self.at_least.len() {
            below += poisson(k, y);
            within += self.finds(k) * k as f64 / self.mu * (1.0 - below).max(0.0);
        }
        within
    }

    fn sojourn_over(&self, t: f64, tau: f64) -> f64 {
        // For t ≤ τ: P(T > t) − P(W > τ). Past τ, a request with k ahead served within τ is
        // still there at t with probability e^(−μ(t − τ))·Pois(k; μτ): the wait's density
        // from τ to t, ∫ μ^k w^(k−1)/(k − 1)! e^(−μt) dw, plus the service beyond t.
        if t <= tau {
            (self.sojourn_tail(t) - self.wait_over(tau)).max(0.0)
        } else {
            let y = self.mu * tau;
            libm::exp(-self.mu * (t - tau))
                * (0..self.at_least.len())
                    .map(|k| self.finds(k) * poisson(k, y))
                    .sum::<f64>()
        }
    }
}

/// The supermarket model's shares for c workers per instance, s_0 = 1, s_1, …: the share of
/// instances holding at least i requests at the fixed point of the model's differential
/// equations (Mitzenmacher 2001, §3, with the departure rate of an instance holding i
/// requests min(i, c)·μ instead of μ). Balancing the flow across each level, for load ρ per
/// worker: cρ·s_(i−1)^d = i·s_i + Σ_(j=i+1..c) s_j for 1 ≤ i ≤ c, and s_i = ρ·s_(i−1)^d
/// beyond c. Solved from s_(c−1) down, each step a sum (no subtraction), with s_(c−1)
/// found by bisection so that s_0 = 1. With d = 1 it gives M/M/c's P(N ≥ i). Up to the
/// first share below 10⁻¹⁸ (at least to s_c).
pub fn supermarket_shares_with_workers(rho: f64, d: u32, c: u32) -> Vec<f64> {
    let (c, df) = (c.max(1) as usize, f64::from(d.max(1)));
    let rho = rho.clamp(0.0, 1.0);
    if rho == 0.0 {
        let mut s = vec![0.0; c + 1];
        s[0] = 1.0;
        return s;
    }
    let down = |top: f64| -> Vec<f64> {
        let mut s = vec![0.0; c + 1];
        s[c] = rho * libm::pow(top, df);
        s[c - 1] = top;
        let mut above = s[c];
        for i in (1..c).rev() {
            let v = (i as f64 * s[i] + above) / (c as f64 * rho);
            s[i - 1] = libm::pow(v, 1.0 / df);
            above += s[i];
        }
        s
    };
    let mut shares = if c == 1 {
        vec![1.0, rho]
    } else {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if down(mid)[0] > 1.0 {
                hi = mid;
            } else {
                lo = mid;
            }
            if hi - lo <= 1e-16 * hi {
                break;
            }
        }
        let mut s = down(0.5 * (lo + hi));
        s[0] = 1.0;
        s
    };
    while let Some(&last) = shares.last() {
        let next = rho * libm::pow(last, df);
        if !(next > 1e-18) || shares.len() > 100_000 {
            break;
        }
        shares.push(next);
    }
    shares
}

/// P(Pois(y) ≥ n), which is P(Erlang(n, r) ≤ y/r): the lower sum's complement where the
/// mass lies above n, the upper sum itself otherwise, so that neither loses digits.
fn poisson_at_least(n: usize, y: f64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    if y > n as f64 {
        (1.0 - (0..n).map(|j| poisson(j, y)).sum::<f64>()).max(0.0)
    } else {
        let mut sum = 0.0;
        let mut j = n;
        loop {
            let term = poisson(j, y);
            sum += term;
            if term <= 1e-17 * sum || j > n + 10_000 {
                break;
            }
            j += 1;
        }
        sum
    }
}

/// The supermarket model with c ≥ 2 workers per instance: a request that finds k requests
/// at its instance (probability s_k^d − s_(k+1)^d) starts at once when k < c, and otherwise
/// waits Erlang(k − c + 1, cμ) (each of the c workers frees at rate μ); its service is
/// Exp(μ) after. In the limit of many instances, as [`Supermarket`].
#[derive(Clone, Debug, PartialEq)]
pub struct SupermarketWithWorkers {
    /// s_k^d: the share of arrivals that find at least k requests at their instance.
    at_least: Vec<f64>,
    workers: usize,
    mu: f64,
}

impl SupermarketWithWorkers {
    /// Load ρ < 1 per worker, d choices, c ≥ 2 workers per instance, mean service time S.
    pub fn new(rho: f64, d: u32, c: u32, service_s: f64) -> Self {
        let df = f64::from(d.max(1));
        SupermarketWithWorkers {
            at_least: supermarket_shares_with_workers(rho, d, c.max(2))
                .into_iter()
                .map(|s| libm::pow(s, df))
                .collect(),
            workers: c.max(2) as usize,
            mu: 1.0 / service_s,
        }
    }

    fn at(&self, k: usize) -> f64 {
        self.at_least.get(k).copied().unwrap_or(0.0)
    }

    /// P(W > x) = Σ_(m≥0) Pois(m; cμx)·s_(c+m)^d.
    fn wait_over(&self, x: f64) -> f64 {
        let y = self.workers as f64 * self.mu * x;
        (self.workers..self.at_least.len())
            .map(|k| poisson(k - self.workers, y) * self.at(k))
            .sum::<f64>()
            .min(1.0)
    }

    /// For each k ≥ c: the share of arrivals finding exactly k requests, and the number of
    /// phases n = k − c + 1 of its wait.
    fn waiting(&self) -> impl Iterator<Item = (f64, usize)> + '_ {
        (self.workers..self.at_least.len())
            .map(|k| (self.at(k) - self.at(k + 1), k - self.workers + 1))
    }
}

impl FreeWait for SupermarketWithWorkers {
    fn no_wait(&self) -> f64 {
        1.0 - self.at(self.workers)
    }

    fn waited_within(&self, tau: f64) -> f64 {
        (self.at(self.workers) - self.wait_over(tau)).max(0.0)
    }

    fn wait_density(&self, x: f64) -> f64 {
        let rate = self.workers as f64 * self.mu;
        self.waiting()
            .map(|(p, n)| p * rate * poisson(n - 1, rate * x))
            .sum()
    }

    fn wait_moment(&self, tau: f64) -> f64 {
        // E[Erlang(n, r); ≤ τ] = (n/r)·P(Erlang(n + 1, r) ≤ τ).
        let rate = self.workers as f64 * self.mu;
        self.waiting()
            .map(|(p, n)| p * n as f64 / rate * poisson_at_least(n + 1, rate * tau))
            .sum()
    }

    fn sojourn_over(&self, t: f64, tau: f64) -> f64 {
        // No wait and service past t; a wait w ≤ m = min(t, τ) of Erlang(n, cμ) and service
        // past t − w: ∫₀^m (cμ)^n w^(n−1)/(n − 1)! e^(−cμw) e^(−μ(t−w)) dw =
        // e^(−μt)·(c/(c − 1))^n·P(Erlang(n, (c − 1)μ) ≤ m); or a wait in (t, τ].
        let (mu, c) = (self.mu, self.workers as f64);
        let m = t.min(tau);
        let ratio = c / (c - 1.0);
        let in_service: f64 = self
            .waiting()
            .map(|(p, n)| p * libm::pow(ratio, n as f64) * poisson_at_least(n, (c - 1.0) * mu * m))
            .sum::<f64>()
            * libm::exp(-mu * t);
        let still_waiting = if t < tau {
            (self.wait_over(t) - self.wait_over(tau)).max(0.0)
        } else {
            0.0
        };
        self.no_wait() * libm::exp(-mu * t) + in_service + still_waiting
    }
}

/// Least request's latency and timeouts from the supermarket model, for the sources panel.
pub const SUPERMARKET_LATENCY: Relation = Relation {
    id: RelationId::SupermarketLatency,
    symbols: &["d", "s_k", "T", "W"],
    citations: &[
        MITZENMACHER_2001,
        ENVOY_LOAD_BALANCERS,
        ENVOY_LEAST_REQUEST_SOURCE,
    ],
    assumption: false,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::maglev::Maglev;
    use crate::queueing::{drain_rate, erlang_c, sojourn_tail};

    #[test]
    fn poisson_arrivals_make_erlang_arrivals_erlang_c() {
        // k = 1: the arrivals are Poisson, so σ = λ/(cμ), the wait's rate cμ − λ, and the
        // share that waits Erlang C.
        for (lambda, c) in [
            (0.5f64, 1u32),
            (4.5, 5),
            (10.0, 14),
            (19.0, 20),
            (90.0, 100),
        ] {
            let q = erlang_arrivals_queue(1, lambda, 1.0, c).unwrap();
            let want = erlang_c(lambda, c);
            assert!((q.p_wait - want).abs() < 1e-9 * want, "{lambda} {c}");
            assert!((q.sigma - lambda / f64::from(c)).abs() < 1e-12);
            assert!((q.drain_rate - drain_rate(c, 1.0, lambda)).abs() < 1e-9);
        }
    }

    #[test]
    fn the_boundary_solution_keeps_little_and_the_phases() {
        for (k, lambda, c) in [
            (10u32, 0.9f64, 1u32),
            (4, 7.0, 8),
            (100, 15.84, 16),
            (3, 0.5, 2),
        ] {
            let q = erlang_arrivals_queue(k, lambda, 1.0, c).unwrap();
            assert!((q.busy_workers - lambda).abs() < 1e-9 * lambda, "{k} {c}");
            assert!(
                (q.last_phase_share - 1.0 / f64::from(k)).abs() < 1e-9,
                "{k} {c}"
            );
        }
    }

    #[test]
    fn one_worker_with_erlang_arrivals_waits_with_probability_sigma() {
        // E₂/M/1 with λ = 1, S = 0.8 (μ = 1.25): σ = (2/(2 + 1.25(1 − σ)))², i.e.
        // σ(3.25 − 1.25σ)² = 4. Dividing out the root σ = 1 leaves 25σ² − 105σ + 64 = 0,
        // whose root in (0, 1) is σ = (105 − √4625)/50 = 0.739853….
        let want = (105.0 - libm::sqrt(4625.0)) / 50.0;
        let q = erlang_arrivals_queue(2, 1.0, 0.8, 1).unwrap();
        assert!((q.sigma - want).abs() < 1e-12, "{} vs {want}", q.sigma);
        // GI/M/1: an arrival finds n with probability (1 − σ)σ^n, so it waits with σ.
        assert!((q.p_wait - want).abs() < 1e-12);
        assert!((q.drain_rate - 1.25 * (1.0 - want)).abs() < 1e-12);
        assert!(erlang_arrivals_queue(2, 1.25, 0.8, 1).is_none());
    }

    #[test]
    fn supermarket_by_hand() {
        // d = 2, ρ = 0.9: Σ_(i≥1) 0.9^(2^i − 2) = 1 + 0.9² + 0.9⁶ + 0.9¹⁴ + 0.9³⁰ + 0.9⁶² +
        // 0.9¹²⁶ + … = 1 + 0.81 + 0.531441 + 0.228767924549 + 0.042391158276 +
        // 0.001455578343 + 0.000001716154 = 2.614057…
        let want = 1.0
            + 0.81
            + 0.531_441
            + 0.228_767_924_549
            + 0.042_391_158_276
            + 0.001_455_578_343
            + 0.000_001_716_154;
        let m = Supermarket::new(0.9, 2, 1.0);
        assert!(
            (m.mean_sojourn_in_services() - want).abs() < 1e-9,
            "{}",
            m.mean_sojourn_in_services()
        );
        assert!((super::super::supermarket_mean_sojourn(0.9) - want).abs() < 1e-9);
        // d = 1 is M/M/1: mean 1/(1 − ρ), and the tail e^(−(1 − ρ)t).
        let mm1 = Supermarket::new(0.5, 1, 1.0);
        assert!((mm1.mean_sojourn_in_services() - 2.0).abs() < 1e-12);
        for t in [0.5, 2.0, 7.0] {
            assert!((mm1.sojourn_tail(t) - libm::exp(-0.5 * t)).abs() < 1e-12);
        }
        // d = 3, ρ = 0.9: shares ρ^((3^i − 1)/2): 0.9, 0.9⁴, 0.9¹³, 0.9⁴⁰ …
        assert!((supermarket_share(0.9, 3, 2) - 0.6561).abs() < 1e-12);
        assert!((supermarket_share(0.9, 2, 3) - libm::pow(0.9, 7.0)).abs() < 1e-15);
    }

    #[test]
    fn exponential_wait_without_timeouts_is_the_mmc_tail() {
        let (c, lambda) = (10u32, 9.0);
        let pw = erlang_c(lambda, c);
        let theta = drain_rate(c, 1.0, lambda);
        let free = ExponentialWait::new(1.0 - pw, pw * theta, theta, 1.0, NO_TIMEOUT_S);
        let law = Patience {
            free: &free,
            tau: NO_TIMEOUT_S,
            all: 10.0,
        };
        for t in [0.1, 1.0, 3.0, 10.0] {
            assert!((law.served_tail(t) - sojourn_tail(pw, 1.0, theta, t)).abs() < 1e-12);
        }
        assert!((law.mean_wait_served() - pw / theta).abs() < 1e-12);
        assert_eq!(law.gives_up(), 0.0);
    }

    #[test]
    fn the_cut_free_law_of_m_m_c_is_m_m_c_plus_d() {
        // Poisson arrivals: the patience cut of the M/M/c law must be M/M/c+D's exact
        // solution, below and past saturation.
        for (c, lambda, tau) in [
            (10u32, 9.0f64, 0.5f64),
            (4, 3.96, 20.0),
            (10, 10.5, 0.5),
            (1, 0.9, 3.0),
        ] {
            let exact = solve(lambda, 1.0, c, tau);
            // M/M/c's free law on M/M/c+D's scale: the atom 1, the density λ·B(a, c − 1) at
            // 0+ (past saturation θ < 0 and it is no distribution, but its part below τ is).
            let b = crate::queueing::erlang_b(lambda, c - 1);
            let free = ExponentialWait::new(1.0, lambda * b, drain_rate(c, 1.0, lambda), 1.0, tau);
            let law = Patience {
                free: &free,
                tau,
                all: f64::from(c),
            };
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1e-300);
            assert!(
                close(law.p_wait(), exact.p_wait),
                "{c} {lambda}: {} vs {}",
                law.p_wait(),
                exact.p_wait
            );
            assert!(close(law.gives_up(), exact.timeout_share), "{c} {lambda}");
            assert!(
                close(law.mean_wait_served(), exact.mean_wait_s),
                "{c} {lambda}"
            );
            assert!(
                (law.served_quantile(1.0, 0.01) - exact.p99_s).abs() < 1e-9 * exact.p99_s,
                "{c} {lambda}: {} vs {}",
                law.served_quantile(1.0, 0.01),
                exact.p99_s
            );
        }
    }

    #[test]
    fn poisson_arrivals_through_the_boundary_solution_are_m_m_c_plus_d() {
        // k = 1 through the level-by-level solution, below and past saturation (σ > 1).
        for (c, lambda, tau) in [
            (10u32, 9.0f64, 0.5f64),
            (10, 10.5, 0.5),
            (4, 5.0, 2.0),
            (1, 1.2, 3.0),
        ] {
            let x = gap_root(1, lambda, 1.0, c).unwrap();
            assert!((x - (1.0 - lambda / f64::from(c))).abs() < 1e-12);
            let e = erlang_arrivals_free_wait(1, lambda, 1.0, c, x);
            // The renewal form of the overshoot with A*(cμ) = λ/(λ + cμ).
            let a = lambda / (lambda + f64::from(c));
            let free = ExponentialWait {
                overshoot: Some((e.last_free, a / (1.0 - a))),
                ..ExponentialWait::new(e.no_wait, e.density, e.theta, 1.0, tau)
            };
            let law = Patience {
                free: &free,
                tau,
                all: f64::from(c),
            };
            let exact = solve(lambda, 1.0, c, tau);
            assert!((law.p_wait() - exact.p_wait).abs() < 1e-9, "{c} {lambda}");
            assert!(
                (law.gives_up() - exact.timeout_share).abs() < 1e-9,
                "{c} {lambda}"
            );
            assert!(
                (law.mean_wait_served() - exact.mean_wait_s).abs() < 1e-9,
                "{c} {lambda}"
            );
        }
    }

    #[test]
    fn random_and_one_instance_are_the_patience_queue() {
        let fleet = RoutedFleet::new(5, 4);
        let out = routed(Routing::Random, &fleet, 15.0, 1.0, 3.0);
        let q = solve(3.0, 1.0, 4, 3.0);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b;
        assert!(close(out.p_wait, q.p_wait));
        assert!(close(out.timeout_share, q.timeout_share));
        assert!(close(out.mean_wait_s, q.mean_wait_s));
        assert_eq!(out.p99_s, q.p99_s);
        assert_eq!(out.basis, Basis::Exact);
        assert_eq!(out.shares, vec![0.2; 5]);
        let one = routed(Routing::RoundRobin, &RoutedFleet::new(1, 4), 3.0, 1.0, 3.0);
        assert_eq!(one.p99_s, q.p99_s);
    }

    #[test]
    fn hash_shares_follow_the_keys() {
        // One key: all the load on the host of key 0.
        let mut fleet = RoutedFleet::new(4, 2);
        fleet.keys = KeySpace {
            keys: 1,
            exponent: 1.0,
        };
        for policy in [Routing::RingHash, Routing::Maglev] {
            let shares = arrival_shares(policy, &fleet);
            assert_eq!(shares.iter().filter(|&&s| s == 1.0).count(), 1);
            assert_eq!(shares.iter().filter(|&&s| s == 0.0).count(), 3);
        }
        // Many equally popular keys: close to the table's shares.
        fleet.keys = KeySpace {
            keys: 200_000,
            exponent: 0.0,
        };
        let names: Vec<String> = (0..4).map(balance::host_name).collect();
        let table = Maglev::new(&names, balance::maglev::DEFAULT_TABLE_SIZE).unwrap();
        for (got, want) in arrival_shares(Routing::Maglev, &fleet)
            .iter()
            .zip(table.shares())
        {
            assert!((got - want).abs() < 0.005, "{got} vs {want}");
        }
        let total: f64 = arrival_shares(Routing::RingHash, &RoutedFleet::new(7, 1))
            .iter()
            .sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn round_robin_is_sound_over_a_grid() {
        for k in [2u32, 10, 100, 1000] {
            for c in [1u32, 4, 16, 64] {
                for rho in [0.3, 0.9, 0.999, 1.001, 1.05, 1.5, 3.0] {
                    let lambda = rho * f64::from(k * c);
                    let out = routed(
                        Routing::RoundRobin,
                        &RoutedFleet::new(k, c),
                        lambda,
                        1.0,
                        20.0,
                    );
                    let label = format!("k={k} c={c} ρ={rho}: {out:?}");
                    for share in [out.p_wait, out.timeout_share, out.utilization] {
                        assert!((0.0..=1.0).contains(&share), "{label}");
                    }
                    assert!(
                        out.p99_s.is_finite() && out.p99_s >= 1.0 && out.p99_s <= 20.0 + 5.0,
                        "{label}"
                    );
                    assert!(out.mean_wait_s >= 0.0 && out.mean_wait_s <= 20.0, "{label}");
                    // Past saturation the served ones are at most what c workers serve.
                    assert!(1.0 - out.timeout_share <= 1.0 / rho + 0.02, "{label}");
                    if rho < 1.0 {
                        let q = erlang_arrivals_queue(k, lambda / f64::from(k), 1.0, c).unwrap();
                        let busy = lambda / f64::from(k);
                        assert!((q.busy_workers - busy).abs() < 1e-6 * busy, "{label}");
                        assert!(
                            (q.last_phase_share - 1.0 / f64::from(k)).abs() < 1e-6 / f64::from(k),
                            "{label}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn least_request_is_sound_over_a_grid() {
        for instances in [2u32, 50] {
            for c in [1u32, 2, 16, 64] {
                for rho in [0.1, 0.9, 0.999, 1.0, 1.2] {
                    for tau in [0.5, 40.0, f64::INFINITY] {
                        let lambda = rho * f64::from(instances * c);
                        let fleet = RoutedFleet::new(instances, c);
                        let out = routed(Routing::LeastRequest, &fleet, lambda, 1.0, tau);
                        let label = format!("I={instances} c={c} ρ={rho} τ={tau}: {out:?}");
                        for share in [out.p_wait, out.timeout_share, out.utilization] {
                            assert!((0.0..=1.0).contains(&share), "{label}");
                        }
                        assert!(out.p99_s.is_finite() && out.p99_s >= 1.0, "{label}");
                        assert!(
                            out.mean_wait_s >= 0.0 && out.mean_wait_s.is_finite(),
                            "{label}"
                        );
                        if tau.is_finite() {
                            assert!(out.p99_s <= tau + 5.0 && out.mean_wait_s <= tau, "{label}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn known_shares_give_the_same_outcome() {
        let fleet = RoutedFleet::new(6, 3);
        for policy in Routing::ALL {
            let shares = arrival_shares(*policy, &fleet);
            let direct = routed(*policy, &fleet, 14.0, 1.0, 4.0);
            assert_eq!(
                routed_with_shares(*policy, &fleet, &shares, 14.0, 1.0, 4.0),
                direct
            );
            // Shares of another fleet are not used.
            assert_eq!(
                routed_with_shares(*policy, &fleet, &[1.0], 14.0, 1.0, 4.0),
                direct
            );
        }
    }

    #[test]
    fn one_choice_with_workers_is_m_m_c() {
        // d = 1 is random routing: the shares are M/M/c's P(N ≥ i), so s_c is Erlang C
        // and the law of the wait M/M/c's.
        for (c, rho) in [(2u32, 0.5f64), (4, 0.9), (16, 0.95)] {
            let a = rho * f64::from(c);
            let s = supermarket_shares_with_workers(rho, 1, c);
            let want = erlang_c(a, c);
            assert!(
                (s[c as usize] - want).abs() < 1e-9 * want,
                "{c} {rho}: {} vs {want}",
                s[c as usize]
            );
            let model = SupermarketWithWorkers::new(rho, 1, c, 1.0);
            let theta = drain_rate(c, 1.0, a);
            let law = Patience {
                free: &model,
                tau: NO_TIMEOUT_S,
                all: f64::from(c),
            };
            for t in [0.5, 2.0, 6.0] {
                let exact = sojourn_tail(want, 1.0, theta, t);
                assert!((law.served_tail(t) - exact).abs() < 1e-9, "{c} {rho} {t}");
            }
            assert!((law.mean_wait_served() - want / theta).abs() < 1e-9);
            // With a timeout, the cut of M/M/c's law is M/M/c+D.
            let exact = solve(a, 1.0, c, 3.0);
            let law = Patience {
                free: &model,
                tau: 3.0,
                all: f64::from(c),
            };
            assert!(
                (law.gives_up() - exact.timeout_share).abs()
                    < 1e-9 * exact.timeout_share.max(1e-12)
            );
            assert!((law.served_quantile(1.0, 0.01) - exact.p99_s).abs() < 1e-6 * exact.p99_s);
        }
        // Two choices with one worker: the closed form ρ^(2^i − 1).
        let s = supermarket_shares_with_workers(0.9, 2, 1);
        for (i, share) in s.iter().enumerate().take(6) {
            assert!((share - supermarket_share(0.9, 2, i as u32)).abs() < 1e-12);
        }
        // Two choices with several workers: the flow balance holds, and the busy workers
        // are cρ (Little's law).
        let (c, rho) = (4usize, 0.9f64);
        let s = supermarket_shares_with_workers(rho, 2, c as u32);
        let busy: f64 = s[1..=c].iter().sum();
        assert!((busy - c as f64 * rho).abs() < 1e-9, "{busy}");
        for i in 1..=c {
            let rhs = i as f64 * s[i] + s[i + 1..=c].iter().sum::<f64>();
            assert!((c as f64 * rho * s[i - 1] * s[i - 1] - rhs).abs() < 1e-9);
        }
    }

    #[test]
    fn least_request_past_saturation_is_a_bound() {
        let out = routed(
            Routing::LeastRequest,
            &RoutedFleet::new(10, 4),
            42.0,
            1.0,
            5.0,
        );
        assert_eq!(out.basis, Basis::Bound);
        assert_eq!(out.p_wait, solve(42.0, 1.0, 40, 5.0).p_wait);
    }

    #[test]
    fn no_arrivals_no_wait() {
        for policy in Routing::ALL {
            let out = routed(*policy, &RoutedFleet::new(4, 2), 0.0, 1.0, 2.0);
            assert_eq!(
                (out.p_wait, out.timeout_share, out.utilization),
                (0.0, 0.0, 0.0)
            );
            assert!(
                (out.p99_s - libm::log(100.0)).abs() < 1e-9,
                "{policy}: {}",
                out.p99_s
            );
        }
    }

    #[test]
    fn nobody_serving_times_everything_out() {
        let out = routed(Routing::RoundRobin, &RoutedFleet::new(0, 4), 3.0, 1.0, 2.0);
        assert_eq!(out.timeout_share, 1.0);
        assert_eq!(out.utilization, 0.0);
    }
}
