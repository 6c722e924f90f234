//! The request-level engine: a discrete-event simulation of single requests, beside the
//! minute model's formulas.
//!
//! Requests arrive as a Poisson process; a routing policy sends each to one of the
//! instances; each instance has its worker slots and its own FIFO queue; service times are
//! exponential. The timeout is a deadline on the whole call, as Envoy's route timeout is: a
//! request that has not reached a worker by then gives up without taking one, and one still
//! in service then is cut, its worker freed. Both count as timeouts. ([`TimeoutScope::Queue`]
//! bounds only the wait, as the patience of M/M/N+D does.)
//!
//! The engine needs no global event heap. Each instance is FIFO, so a request's start is
//! known at its arrival: it takes the worker that frees first, at max(arrival, that worker's
//! free time) (the virtual waiting time of the instance). A request whose wait would exceed
//! the patience leaves at arrival + patience without changing any free time: everybody behind
//! it has the same patience and arrived later, so it blocks nobody. Least request needs the
//! number of requests an instance holds at the arrival; each instance keeps the leave times of
//! the requests it holds in a second heap and drops those already past.
//!
//! Nothing is allocated per request: the heaps and the list of times in the system are sized
//! before the run and reused. Every draw comes from mulberry32 streams of the run's seed, one
//! stream each for arrivals, service times, routing and keys (disjoint stretches of the
//! generator's cycle), so a run is fixed by its seed.
//!
//! [`run_with`] adds, through [`Options`]: a key per request from a Zipf popularity (which the
//! hash policies route by), lognormal service times, per-node limits (the excess rejected with
//! 503), instances that start, drain and stop at given times, one instance slowed by a factor
//! for a while, and hedged requests. Everything but hedging keeps the arrival-time approach:
//! the limits need the number of requests an instance holds (its heap of leave times), and
//! since the changes of instances are known before the run, a request's fate on an instance
//! that stops is known at its arrival. Hedging needs an event list (a copy is sent later, and
//! a queued copy leaves its queue when another copy wins): [`events`] runs it.
//!
//! [`Options::host_selection`] adds Envoy's host selection around health ([`health`]):
//! outlier detection ejects an instance after consecutive failed responses, the panic
//! threshold routes across every instance when too few are healthy, and slow start ramps a
//! new instance's weight. Outlier detection must not see a response before its time: by
//! arrival times a request's response (its end, or its deadline) is known at its arrival, so
//! it waits in a small heap and counts only once an arrival or a change reaches its time; on
//! the event list it counts at its event. Both give the same fates.

pub(crate) mod arrivals;
pub(crate) mod events;
pub mod health;
mod heap;
pub mod hedging;
pub mod keys;
pub(crate) mod route;
pub(crate) mod streams;
pub(crate) mod tally;

use crate::outlier::ENVOY_OUTLIER_DETECTION;
use crate::relations::{
    Relation, RelationId, BACCELLI_HEBUTERNE_1981, ENVOY_HOST_SELECTION_SOURCE,
    ENVOY_LOAD_BALANCERS, KIEFER_WOLFOWITZ_1955, MITZENMACHER_2001,
};
use crate::rng::Mulberry32;
use arrivals::ArrivalFleet;
pub use health::{HostCounts, HostEvent, HostSelection, SlowStart};
pub use hedging::{HedgeError, Hedging, TokenBucket};
pub use keys::{KeySpace, ServiceShape, ZipfKeys};
use route::Router;
use streams::Streams;
use tally::{utilization, Tally};

/// How the engine turns arrivals into starts, departures and timeouts, and how each policy
/// routes.
pub const REQUEST_ENGINE: Relation = Relation {
    id: RelationId::RequestEngine,
    symbols: &["τ", "λ", "S"],
    citations: &[
        KIEFER_WOLFOWITZ_1955,
        BACCELLI_HEBUTERNE_1981,
        ENVOY_LOAD_BALANCERS,
        MITZENMACHER_2001,
        ENVOY_OUTLIER_DETECTION,
        ENVOY_HOST_SELECTION_SOURCE,
    ],
    assumption: false,
};

pub use crate::balance::least_request::{DEFAULT_CHOICE_COUNT, MAX_CHOICE_COUNT};
/// How a request chooses its instance: the load-balancing policies' id ([`crate::balance`]).
pub use crate::balance::Routing;

/// Envoy's default `active_request_bias`: a weighted host's effective weight is
/// `load_balancing_weight / (active_requests + 1)^active_request_bias`. It acts only when the
/// hosts' weights differ; the simulated instances all have the same weight (Envoy's
/// default of 1: the model has no weights, and a slow instance is a fault the balancer does
/// not know of), so Envoy picks by `choice_count` alone and the bias changes nothing here.
pub const DEFAULT_ACTIVE_REQUEST_BIAS: f64 = 1.0;

/// Largest `active_request_bias` accepted (Envoy asks only for a value of 0 or more; the upper
/// limit is the simulator's).
pub const MAX_ACTIVE_REQUEST_BIAS: f64 = 10.0;

/// What one run simulates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunConfig {
    /// Number of instances behind the policy.
    pub instances: u32,
    /// Worker slots of each instance.
    pub workers_per_instance: u32,
    /// Poisson arrival rate λ, requests per second.
    pub arrival_rate: f64,
    /// Mean of the exponential service time S, seconds.
    pub service_s: f64,
    /// Requests whose outcome is counted.
    pub customers: u64,
    /// Requests simulated first and left out of every figure (the queues start empty).
    pub warmup: u64,
    pub routing: Routing,
    /// The request timeout, seconds: by default a deadline on the whole call (a request
    /// without its response by then fails, its work cancelled); with
    /// [`TimeoutScope::Queue`], the patience of a request waiting for a worker. `None`:
    /// every request waits as long as it takes.
    pub timeout_s: Option<f64>,
    pub seed: u32,
}

/// A setting the engine cannot run with: the field, by its name in [`RunConfig`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub field: &'static str,
}

impl RunConfig {
    /// Largest number of counted requests: the time in the system of each served one is kept
    /// (8 bytes each) for exact percentiles.
    pub const MAX_CUSTOMERS: u64 = 20_000_000;

    /// The patience of every request, s (∞ without a timeout).
    fn patience(&self) -> f64 {
        self.timeout_s.unwrap_or(f64::INFINITY)
    }

    fn check(&self) -> Result<(), ConfigError> {
        let bad = |field| Err(ConfigError { field });
        if self.instances == 0 {
            return bad("instances");
        }
        if self.workers_per_instance == 0 {
            return bad("workers_per_instance");
        }
        if !(self.arrival_rate > 0.0 && self.arrival_rate.is_finite()) {
            return bad("arrival_rate");
        }
        if !(self.service_s > 0.0 && self.service_s.is_finite()) {
            return bad("service_s");
        }
        if self.customers == 0 || self.customers > Self::MAX_CUSTOMERS {
            return bad("customers");
        }
        if self.warmup > Self::MAX_CUSTOMERS {
            return bad("warmup");
        }
        if let Some(t) = self.timeout_s {
            if !(t >= 0.0 && t.is_finite()) {
                return bad("timeout_s");
            }
        }
        Ok(())
    }
}

/// When an instance starts, drains or stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// Starts taking requests (an instance that was not running).
    Start,
    /// Takes no new requests and finishes what it holds.
    Drain,
    /// Stops at once: the requests it holds, waiting or in service, fail (reset, a 503).
    Stop,
}

/// A change of one instance in the middle of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InstanceChange {
    /// When, seconds from the start of the run.
    pub at_s: f64,
    /// Which instance (0-based; an index at or past [`RunConfig::instances`] names an
    /// instance that is not running at the start).
    pub instance: u32,
    pub kind: ChangeKind,
}

impl InstanceChange {
    /// Tells the router: a starting instance joins it, a draining or stopping one leaves it
    /// (the responses due before the change count before it).
    fn route(&self, router: &mut Router) {
        router.settle(self.at_s);
        match self.kind {
            ChangeKind::Start => router.add(self.instance, self.at_s),
            ChangeKind::Drain | ChangeKind::Stop => router.remove(self.instance, self.at_s),
        }
    }
}

/// One instance's service time multiplied by a factor for a while: a request whose service
/// starts on it within [from, to) takes factor times its drawn service time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlowInstance {
    pub instance: u32,
    pub factor: f64,
    pub from_s: f64,
    pub to_s: f64,
}

impl SlowInstance {
    /// The factor on `instance` for a service starting at `start` (1 outside the fault).
    fn factor_at(slow: Option<&SlowInstance>, instance: usize, start: f64) -> f64 {
        match slow {
            Some(s) if s.instance as usize == instance && start >= s.from_s && start < s.to_s => {
                s.factor
            }
            _ => 1.0,
        }
    }
}

/// Per-node limits as the elastic scaler's Envoy applies them (the minute model's reading):
/// a node runs at most min(workers, max requests) requests at once and holds at most
/// max requests + max pending (its own queue and its part of the balancer's pending queue);
/// a request that finds it full is rejected with a 503.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeLimits {
    /// `None`: the node's workers.
    pub max_requests: Option<u32>,
    /// `None`: no limit on the requests a node holds.
    pub max_pending: Option<u32>,
}

/// What a request's timeout ([`RunConfig::timeout_s`]) bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeoutScope {
    /// The whole call, from the arrival to the response (queue and service): Envoy's route
    /// timeout, and seed 002's request timeout of each attempt. A request still in service
    /// at its deadline fails there and its instance stops working on it.
    #[default]
    Call,
    /// Only the wait for a worker: a request that reaches one within the timeout is served
    /// to the end. The patience of M/M/N+D (the minute model's timeouts), kept to hold the
    /// engine against those formulas.
    Queue,
}

impl TimeoutScope {
    /// When a call sent at `sent` with `patience` is cut if still in service: at its
    /// deadline when the timeout bounds the whole call, never when it bounds only the wait.
    #[inline]
    pub(crate) fn deadline(self, sent: f64, patience: f64) -> f64 {
        match self {
            TimeoutScope::Call => sent + patience,
            TimeoutScope::Queue => f64::INFINITY,
        }
    }
}

/// What [`run_with`] adds to a [`RunConfig`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// The keys requests carry (only the hash policies read them).
    pub keys: KeySpace,
    pub service: ServiceShape,
    pub limits: NodeLimits,
    /// Instances that start, drain and stop during the run.
    pub changes: Vec<InstanceChange>,
    pub slow: Option<SlowInstance>,
    /// `None`: no hedging.
    pub hedging: Option<Hedging>,
    /// Whether requests carry ordering keys (hedging then cannot run).
    pub ordering_keys: bool,
    /// Least request's number of choices (Envoy's `choice_count`); 0 is the default,
    /// [`DEFAULT_CHOICE_COUNT`].
    pub choice_count: u32,
    /// What the timeout bounds (by default the whole call).
    pub timeout_scope: TimeoutScope,
    /// Outlier detection, the panic threshold and slow start (by default off).
    pub host_selection: HostSelection,
}

/// Why [`run_with`] cannot run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RunError {
    Config(ConfigError),
    Hedge(HedgeError),
    /// The event list reached its cap ([`event_cap`]) before the last request ended: the
    /// run stopped there, its figures incomplete.
    EventCap {
        cap: u64,
    },
}

/// Events the event list handles at most for each request simulated (warm-up included),
/// beyond [`EVENT_CAP_BASE`]. A request costs its arrival, its first hedge timer, its total
/// timeout, and one event per copy (its end of service or its giving up); each hedge sent
/// adds its copy and the next timer, and a token handed to a request that waited for one
/// adds one. With at most the bucket's b₀ + r · requests hedges (r ≤ 0.2), that is under 7
/// per request plus 750: the cap is a bound the engine keeps, not one a run is expected to
/// meet.
pub const EVENTS_PER_REQUEST: u64 = 16;

/// Events the event list handles at most beyond [`EVENTS_PER_REQUEST`] per request.
pub const EVENT_CAP_BASE: u64 = 10_000;

/// The most events a run of `requests` requests (warm-up included) handles through the
/// event list.
pub fn event_cap(requests: u64) -> u64 {
    requests
        .saturating_mul(EVENTS_PER_REQUEST)
        .saturating_add(EVENT_CAP_BASE)
}

/// Largest factor a slow instance's service times are multiplied by (the simulator's limit:
/// the scenario's slow instance is 8 to 20 times slower; a factor without a bound would let a
/// service time, and the sums of them, overflow).
pub const MAX_SLOW_FACTOR: f64 = 1000.0;

/// Largest number of instances (the running ones and those that start later).
pub const MAX_INSTANCES: u32 = 100_000;

/// What both ways of running need, checked and computed once.
struct Plan {
    /// Instances in all, those that start later included.
    instances: usize,
    /// Worker slots of each instance: min(workers, max requests).
    slots: usize,
    /// Requests an instance holds at most (`None`: no limit).
    cap: Option<usize>,
    /// The changes in time order (a stable sort: simultaneous ones keep their order).
    changes: Vec<InstanceChange>,
    /// Each instance's start and stop times (0 and ∞ for one that runs throughout).
    alive: Vec<(f64, f64)>,
    /// The key sampler and each key's hash, when the policy reads keys.
    keys: Option<(ZipfKeys, Vec<u64>)>,
}

fn bad(field: &'static str) -> RunError {
    RunError::Config(ConfigError { field })
}

/// The options' keys, service shape, limits and host selection, each in its range.
fn check_settings(options: &Options) -> Result<(), RunError> {
    if !options.keys.is_valid() {
        return Err(bad("keys"));
    }
    if !options.service.is_valid() {
        return Err(bad("service"));
    }
    if options.limits.max_requests == Some(0) {
        return Err(bad("max_requests"));
    }
    if !options.host_selection.is_valid() {
        return Err(bad("host_selection"));
    }
    Ok(())
}

/// Each instance's start and stop times (0 and ∞ for one that runs throughout), for the
/// `running` instances at the start and those the `changes` (in time order) name: each
/// instance goes not yet started → running → draining → stopped, in that order.
fn lifetimes(running: u32, changes: &[InstanceChange]) -> Result<Vec<(f64, f64)>, RunError> {
    let instances = changes
        .iter()
        .map(|c| c.instance.saturating_add(1))
        .fold(running, u32::max);
    if instances > MAX_INSTANCES {
        return Err(bad("changes"));
    }
    let instances = instances as usize;
    let mut state: Vec<u8> = (0..instances)
        .map(|i| u8::from(i < running as usize))
        .collect();
    let mut alive: Vec<(f64, f64)> = state
        .iter()
        .map(|&s| {
            if s == 1 {
                (0.0, f64::INFINITY)
            } else {
                (f64::INFINITY, f64::INFINITY)
            }
        })
        .collect();
    for c in changes {
        if !(c.at_s >= 0.0 && c.at_s.is_finite()) {
            return Err(bad("changes"));
        }
        let i = c.instance as usize;
        let next = match (state[i], c.kind) {
            (0, ChangeKind::Start) => 1,
            (1, ChangeKind::Drain) => 2,
            (1 | 2, ChangeKind::Stop) => 3,
            _ => return Err(bad("changes")),
        };
        match c.kind {
            ChangeKind::Start => alive[i].0 = c.at_s,
            ChangeKind::Stop => alive[i].1 = c.at_s,
            ChangeKind::Drain => {}
        }
        state[i] = next;
    }
    Ok(alive)
}

impl Plan {
    fn new(config: &RunConfig, options: &Options) -> Result<Self, RunError> {
        config.check().map_err(RunError::Config)?;
        if config.instances > MAX_INSTANCES {
            return Err(bad("instances"));
        }
        check_settings(options)?;
        let mut changes = options.changes.clone();
        changes.sort_by(|a, b| a.at_s.total_cmp(&b.at_s));
        let alive = lifetimes(config.instances, &changes)?;
        let instances = alive.len();
        if let Some(s) = &options.slow {
            let ok = (s.instance as usize) < instances
                && s.factor > 0.0
                && s.factor <= MAX_SLOW_FACTOR
                && s.from_s >= 0.0
                && s.to_s >= s.from_s;
            if !ok {
                return Err(bad("slow"));
            }
        }
        if let Some(h) = &options.hedging {
            h.check(config.timeout_s, options.ordering_keys)
                .map_err(RunError::Hedge)?;
        }
        let workers = config.workers_per_instance;
        let limit = options.limits.max_requests.unwrap_or(workers);
        let keys = Router::uses_keys(config.routing).then(|| {
            let sampler = ZipfKeys::new(options.keys);
            let hashes = (0..u64::from(options.keys.keys))
                .map(crate::balance::key_hash)
                .collect();
            (sampler, hashes)
        });
        Ok(Plan {
            instances,
            slots: workers.min(limit) as usize,
            cap: options
                .limits
                .max_pending
                .map(|p| (u64::from(limit) + u64::from(p)) as usize),
            changes,
            alive,
            keys,
        })
    }

    /// The instances running at the start.
    fn initially_active(&self) -> Vec<u32> {
        (0..self.instances as u32)
            .filter(|&i| self.alive[i as usize].0 == 0.0)
            .collect()
    }

    /// The router of a run: the policy over the instances running at the start, with the
    /// options' choices and host selection.
    fn router(&self, config: &RunConfig, options: &Options) -> Router {
        let mut router = Router::new(config.routing, self.initially_active());
        router.set_choices(options.choice_count);
        router.set_host_selection(options.host_selection, 0.0);
        router
    }

    /// Worker time available over [from, to): each instance's slots over the part of the
    /// window it runs.
    fn capacity(&self, from: f64, to: f64) -> f64 {
        self.alive
            .iter()
            .map(|&(up, down)| (to.min(down) - from.max(up)).max(0.0))
            .sum::<f64>()
            * self.slots as f64
    }

    /// The instances of a run by arrival times, with every worker free at the start.
    fn arrival_fleet(&self, config: &RunConfig, options: &Options) -> ArrivalFleet {
        let track_held = (config.routing.reads_held() && self.instances > 1) || self.cap.is_some();
        let mut fleet = ArrivalFleet::new(self.instances, self.slots, self.cap, track_held, |i| {
            self.alive[i].1
        });
        fleet.patience = config.patience();
        fleet.scope = options.timeout_scope;
        fleet.slow = options.slow;
        fleet
    }

    /// The hash of the next request's key (0 when the policy reads no key).
    fn key_hash(&self, rng: &mut Mulberry32) -> u64 {
        match &self.keys {
            Some((sampler, hashes)) => hashes[sampler.draw(rng) as usize],
            None => 0,
        }
    }
}

/// What a run measured over its counted requests.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutcome {
    /// Share of requests that found every worker of their instance busy (those that then gave
    /// up included).
    pub p_wait: f64,
    /// Mean wait in a queue of the served requests, s (with hedging: the wait of the copy
    /// that won, from its sending to its start).
    pub mean_wait_s: f64,
    /// With hedging, the mean time from a served request's arrival to the sending of the copy
    /// that won, s: 0 when the first copy won, the hedge delays (and any wait for a token)
    /// before the winning hedge otherwise. 0 without hedging. The time in the system is this,
    /// plus the wait in a queue, plus the winning copy's service.
    pub mean_hedge_wait_s: f64,
    /// Mean time in the system (wait + service) of the served requests, s.
    pub mean_sojourn_s: f64,
    /// Percentiles of the time in the system of the served requests (nearest rank on the
    /// exact sorted times), s; 0 when none was served.
    pub p50_s: f64,
    pub p95_s: f64,
    pub p99_s: f64,
    pub p999_s: f64,
    /// Share of requests that failed at the timeout (gave up waiting, or, when the timeout
    /// bounds the whole call, were cut in service).
    pub timeout_share: f64,
    /// Share of requests rejected with 503: their node was at its limits, or no instance took
    /// requests.
    pub rejected_share: f64,
    /// Share of requests cut by their instance's stop (waiting or in service when it stopped).
    pub reset_share: f64,
    /// Busy worker time over worker time, from the first counted arrival to the last arrival.
    pub utilization: f64,
    /// Requests served by each instance (with hedging: every copy served, duplicates
    /// included).
    pub per_instance_served: Vec<u64>,
    /// Hedges sent for the counted requests.
    pub hedges_sent: u64,
    /// Counted requests whose first success was a hedge.
    pub hedges_won: u64,
    /// Copies taken out of their queue because another copy of their request had won (or its
    /// total timeout had expired).
    pub hedges_cancelled: u64,
    /// Copies served to the end after their request had already succeeded: the extra answers
    /// that best-effort cancellation could not stop. Copies that finish after their request
    /// failed (its total timeout, a reset) are not counted.
    pub duplicates: u64,
    /// Tokens left in the bucket at the end (`None` without hedging).
    pub tokens_left: Option<f64>,
    /// Host selection at the last arrival: the ejections of the whole run (warm-up
    /// included), the hosts ejected, panic, the hosts in their slow-start window.
    pub hosts: HostCounts,
    /// Each ejection and return of a host, in time order (the first
    /// [`health::MAX_HOST_EVENTS`]).
    pub host_events: Vec<HostEvent>,
    /// Requests counted.
    pub customers: u64,
    /// Events simulated, warm-up included: each request's arrival and its departure or
    /// abandonment (with hedging: every event of the event list, arrivals included).
    pub events: u64,
}

/// Runs the engine.
pub fn run(config: &RunConfig) -> Result<RunOutcome, ConfigError> {
    run_with(config, &Options::default()).map_err(|e| match e {
        RunError::Config(e) => e,
        // Without options nothing is hedged.
        RunError::Hedge(_) => ConfigError { field: "hedging" },
        // Only the event list has a cap, and without options it is not used.
        RunError::EventCap { .. } => ConfigError { field: "events" },
    })
}

/// Runs the engine with the options: through the event list when hedging, by arrival times
/// otherwise.
pub fn run_with(config: &RunConfig, options: &Options) -> Result<RunOutcome, RunError> {
    let plan = Plan::new(config, options)?;
    if options.hedging.is_some() {
        return events::run(config, options, &plan, event_cap(plan_requests(config)));
    }
    Ok(run_by_arrivals(config, options, &plan))
}

/// Runs the engine through the event list even without hedging: the same model as
/// [`run_with`] by a second implementation, which the tests hold against the first.
pub fn run_with_events(config: &RunConfig, options: &Options) -> Result<RunOutcome, RunError> {
    let plan = Plan::new(config, options)?;
    events::run(config, options, &plan, event_cap(plan_requests(config)))
}

/// Requests a run simulates, the warm-up included.
fn plan_requests(config: &RunConfig) -> u64 {
    config.warmup.saturating_add(config.customers)
}

/// Runs the engine by arrival times: each request's fate is known at its arrival.
fn run_by_arrivals(config: &RunConfig, options: &Options, plan: &Plan) -> RunOutcome {
    let mut router = plan.router(config, options);
    let mut fleet = plan.arrival_fleet(config, options);
    fleet.report = router.detects_outliers();
    let mut streams = Streams::of(config.seed);
    let mean_gap = 1.0 / config.arrival_rate;
    let total = config.warmup + config.customers;

    let mut tally = Tally::new(config.customers, plan.instances);
    let mut busy = 0.0;
    let mut first_counted = 0.0;
    let mut now = 0.0;
    let mut next_change = 0;
    for k in 0..total {
        now = streams.next_arrival(now, mean_gap);
        let service = options
            .service
            .draw(&mut streams.services, config.service_s);
        let key_hash = plan.key_hash(&mut streams.keys);
        while let Some(change) = plan.changes.get(next_change).filter(|c| c.at_s <= now) {
            change.route(&mut router);
            next_change += 1;
        }
        if k == config.warmup {
            first_counted = now;
        }
        let fate = fleet.serve(&mut router, &mut streams.routing, now, service, key_hash);
        if k < config.warmup {
            continue;
        }
        if let Some((_, start, end)) = fate.worker() {
            // Work before the first counted arrival is not in the window.
            busy += end - start.max(first_counted);
        }
        tally.count_fate(&fate);
    }

    // Busy time after the last arrival is outside the window.
    let capacity = plan.capacity(first_counted, now);
    let utilization = utilization(busy - fleet.overhang(now), capacity);
    let hosts = router.host_counts(now);
    tally.finish(
        utilization,
        None,
        2 * total,
        hosts,
        router.host_events().to_vec(),
    )
}

/// Nearest-rank percentiles of `values` (the smallest value with at least a share q of the
/// values at or below it), for ascending shares, by selection rather than a full sort. The
/// slice is reordered. All 0 when it is empty.
pub(crate) fn percentiles<const K: usize>(values: &mut [f64], shares: [f64; K]) -> [f64; K] {
    let mut out = [0.0; K];
    let n = values.len();
    if n == 0 {
        return out;
    }
    let mut from = 0;
    for (slot, q) in out.iter_mut().zip(shares) {
        let rank = libm::ceil(q * n as f64) as usize;
        let index = rank.clamp(1, n) - 1;
        let index = index.max(from);
        let (_, value, _) = values[from..].select_nth_unstable_by(index - from, f64::total_cmp);
        *slot = *value;
        from = index;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut v: Vec<f64> = (1..=1000).rev().map(f64::from).collect();
        assert_eq!(
            percentiles(&mut v, [0.5, 0.95, 0.99, 0.999]),
            [500.0, 950.0, 990.0, 999.0]
        );
        let mut one = [7.0];
        assert_eq!(percentiles(&mut one, [0.5, 0.999]), [7.0, 7.0]);
        assert_eq!(percentiles(&mut [], [0.5]), [0.0]);
    }

    #[test]
    fn refuses_what_it_cannot_run() {
        let good = RunConfig {
            instances: 2,
            workers_per_instance: 3,
            arrival_rate: 4.0,
            service_s: 1.0,
            customers: 1000,
            warmup: 0,
            routing: Routing::LeastRequest,
            timeout_s: Some(1.0),
            seed: 1,
        };
        assert!(run(&good).is_ok());
        let cases = [
            (
                "instances",
                RunConfig {
                    instances: 0,
                    ..good
                },
            ),
            (
                "workers_per_instance",
                RunConfig {
                    workers_per_instance: 0,
                    ..good
                },
            ),
            (
                "arrival_rate",
                RunConfig {
                    arrival_rate: 0.0,
                    ..good
                },
            ),
            (
                "arrival_rate",
                RunConfig {
                    arrival_rate: f64::NAN,
                    ..good
                },
            ),
            (
                "service_s",
                RunConfig {
                    service_s: f64::INFINITY,
                    ..good
                },
            ),
            (
                "customers",
                RunConfig {
                    customers: 0,
                    ..good
                },
            ),
            (
                "timeout_s",
                RunConfig {
                    timeout_s: Some(-1.0),
                    ..good
                },
            ),
        ];
        for (field, config) in cases {
            assert_eq!(run(&config), Err(ConfigError { field }));
        }
    }

    #[test]
    fn every_request_is_served_or_times_out() {
        for routing in Routing::ALL {
            for scope in [TimeoutScope::Call, TimeoutScope::Queue] {
                let config = RunConfig {
                    instances: 5,
                    workers_per_instance: 2,
                    arrival_rate: 11.0,
                    service_s: 1.0,
                    customers: 20_000,
                    warmup: 100,
                    routing: *routing,
                    timeout_s: Some(0.5),
                    seed: 9,
                };
                let options = Options {
                    timeout_scope: scope,
                    ..Options::default()
                };
                let out = run_with(&config, &options).unwrap();
                let served: u64 = out.per_instance_served.iter().sum();
                let timed_out = libm::round(out.timeout_share * 20_000.0) as u64;
                assert_eq!(served + timed_out, 20_000, "{routing} {scope:?}");
                assert!(out.p50_s <= out.p95_s && out.p95_s <= out.p99_s);
                assert!(out.p99_s <= out.p999_s);
                match scope {
                    // Most calls outlive a deadline of half the mean service time; none
                    // served takes longer.
                    TimeoutScope::Call => {
                        assert!(out.timeout_share > 0.5 && out.p999_s <= 0.5, "{out:?}")
                    }
                    // Only the wait is bounded: the workers stay busy, and the served take
                    // as long as their service.
                    TimeoutScope::Queue => {
                        assert!(out.timeout_share > 0.0 && out.utilization > 0.7, "{out:?}");
                        assert!(out.p999_s > 2.0, "{out:?}");
                    }
                }
            }
        }
    }
}
