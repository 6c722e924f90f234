//! The service stage from single requests: the request-level engine of [`crate::requests`]
//! run tick by tick, its state carried from one tick to the next (each instance's workers and
//! held requests, the requests still in the system, the token bucket), so queues persist from
//! minute to minute.
//!
//! Each tick draws Poisson arrivals at the tick's λ over the tick's length (the arrival
//! process is memoryless, so each tick starts its own from the tick's start). The serving
//! instances are the first `serving` by index: an instance that stops serving between ticks
//! takes no new requests and finishes what it holds (it drains); one that comes back, or a new
//! one, takes requests again from the tick's start. Requests are routed by the run's
//! load-balancing policy, keys drawn from a Zipf key space (and a hot key's share, when a
//! scenario makes one surge) for the hash policies; per-node limits come from the tick's
//! admission; one instance may be slow. Host selection around health
//! ([`RequestConditions::host_selection`]: outlier detection, the panic threshold, slow start)
//! carries its state from tick to tick; an instance that starts serving joins the cluster
//! then, one that stops serving leaves it, and [`RequestMinute::hosts`] reports it.
//!
//! Without hedging the engine runs by arrival times ([`crate::requests::arrivals`]): a
//! request's fate is known at its arrival and is counted in the tick it arrives. Hedging needs
//! the event list ([`crate::requests::events`]); the first tick with hedging on moves the
//! state there (each worker's committed work stays as a busy worker until its free time) and
//! the engine stays on the event list for the rest of the run, hedging or not: both give the
//! same fates without hedging (the tests of the batch runner hold them to it). On the event
//! list a request is counted in the tick it ends.
//!
//! Each tick reports the same [`TickOutcome`] as the formulas, from what the requests did:
//! utilization, the share of requests that waited, mean wait, the timeout and rejected shares,
//! the p99 (and p95) of the time in the system of the served requests, nearest rank on the
//! exact times. The analytic [`crate::queueing::SojournTail`] of the outcome and the offered
//! load, Erlang C and the source's p99 approximation stay the formulas' own (computed beside
//! the engine each tick); the minute's p99 is the measured p99 of all its served requests
//! ([`ServiceModel::close_minute`]), not a mixture of tails. A tick in which no instance serves
//! is left to the formulas (they model the requests held for the first instance).

use super::formulas::QueueFormulas;
use super::{FailedOver, ServiceModel, TickInput, TickOutcome};
use crate::queueing::{self, SojournTail};
use crate::requests::arrivals::{ArrivalFleet, Fate};
use crate::requests::events::{earlier, Engine};
use crate::requests::hedging::Hedging;
use crate::requests::keys::{AliasKeys, KeySpace, ServiceShape};
use crate::requests::route::Router;
use crate::requests::streams::{Streams, KEY_STREAM};
use crate::requests::tally::{utilization, Outcome, Tally};
use crate::requests::{HostSelection, Routing, SlowInstance};
use crate::rng::Mulberry32;

/// What the request engine reads of a tick beyond what the formulas read (the routed
/// formulas read the policy, its choices and the key space too).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestConditions {
    /// Length of the tick, s.
    pub tick_s: f64,
    /// The load-balancing policy in force.
    pub routing: Routing,
    /// Hedging in force (`None`: off).
    pub hedging: Option<Hedging>,
    /// One instance slowed by a factor during the tick.
    pub slow: Option<SlowFault>,
    /// Share of requests that carry the hot key (0: none).
    pub hot_key_share: f64,
    /// The keys requests carry (the run's `keys` and `zipf`): the hash policies route by
    /// them, and their arrival shares in the formulas follow the keys' popularity.
    pub keys: KeySpace,
    /// Least request's number of choices (the run's `choice_count`).
    pub choices: u32,
    /// Outlier detection, the panic threshold and slow start (by default off). The instances
    /// serving at the first tick are taken as in the cluster since before the run; one that
    /// starts serving later (a scale-out, or one back after a drain) joins then and goes
    /// through the slow-start window.
    pub host_selection: HostSelection,
}

impl Default for RequestConditions {
    fn default() -> Self {
        Self {
            tick_s: 0.0,
            routing: Routing::default(),
            hedging: None,
            slow: None,
            hot_key_share: 0.0,
            keys: KeySpace::default(),
            choices: crate::requests::DEFAULT_CHOICE_COUNT,
            host_selection: HostSelection::default(),
        }
    }
}

/// One instance's service times multiplied by `factor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlowFault {
    /// Index of the instance among the serving ones (taken modulo their number, so a
    /// scale-in never hides the fault).
    pub instance: u32,
    pub factor: f64,
}

/// Bins of the latency histogram per doubling of the time.
pub const BINS_PER_OCTAVE: i32 = 4;
/// The first bin's lower edge is 2^FLOOR_OCTAVE s (about 1 ms).
pub const FLOOR_OCTAVE: i32 = -10;
/// Bins of the latency histogram: 2⁻¹⁰ s (≈ 1 ms) to 2¹⁰ s (≈ 17 min), four a doubling.
pub const LATENCY_BINS: usize = 80;

/// The lower edge of bin `k` (0 ≤ k ≤ [`LATENCY_BINS`]), 2^(−10 + k/4) s: bin k holds the
/// times in [edge(k), edge(k + 1)); times below the first edge count in bin 0, times past
/// the last in the last bin.
pub fn latency_bin_edge(k: usize) -> f64 {
    libm::exp2(f64::from(FLOOR_OCTAVE) + k as f64 / f64::from(BINS_PER_OCTAVE))
}

/// Requests served in each latency bin (time in the system, log-spaced bins).
#[derive(Clone, Debug, PartialEq)]
pub struct LatencyHistogram {
    pub counts: [u64; LATENCY_BINS],
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        Self {
            counts: [0; LATENCY_BINS],
        }
    }
}

/// The bin of a time: its octave from the exponent of the float, the quarter within it by
/// comparing the mantissa with 2^(1/4), 2^(1/2) and 2^(3/4) (no logarithm per request).
#[derive(Clone, Debug)]
struct Edges([f64; 3]);

impl Edges {
    fn new() -> Self {
        Self([libm::exp2(0.25), libm::exp2(0.5), libm::exp2(0.75)])
    }

    fn bin(&self, x: f64) -> usize {
        if !(x > 0.0) || !x.is_normal() {
            return 0;
        }
        let bits = x.to_bits();
        let octave = ((bits >> 52) & 0x7ff) as i32 - 1023;
        let mantissa = f64::from_bits((bits & ((1u64 << 52) - 1)) | 1.0f64.to_bits());
        let quarter = self.0.iter().filter(|&&e| mantissa >= e).count() as i32;
        let k = (octave - FLOOR_OCTAVE) * BINS_PER_OCTAVE + quarter;
        k.clamp(0, LATENCY_BINS as i32 - 1) as usize
    }

    /// The times bin `k` holds, [low, high): the octave's power of two times the quarter's
    /// edge is exact, so these are the bounds [`Edges::bin`] draws (the first bin reaches
    /// down to −∞, the last up to ∞).
    fn bounds(&self, k: usize) -> (f64, f64) {
        let low = |k: usize| {
            let octave = FLOOR_OCTAVE + (k as i32) / BINS_PER_OCTAVE;
            let quarter = (k as i32 % BINS_PER_OCTAVE) as usize;
            let power = f64::from_bits(((octave + 1023) as u64) << 52);
            power * quarter.checked_sub(1).map_or(1.0, |q| self.0[q])
        };
        let low_k = if k == 0 { f64::NEG_INFINITY } else { low(k) };
        let high_k = if k + 1 >= LATENCY_BINS {
            f64::INFINITY
        } else {
            low(k + 1)
        };
        (low_k, high_k)
    }

    /// Nearest-rank percentiles of `values` for ascending shares, as
    /// [`crate::requests::percentiles`] gives them, from their counts by latency bin
    /// (`histogram`, exactly the bins of `values`): the bin that holds each rank is read
    /// from the counts, and only that bin's values are gathered and selected among (one
    /// pass over the values instead of selections over all of them). `room` is reused.
    fn percentiles<const K: usize>(
        &self,
        values: &[f64],
        histogram: &LatencyHistogram,
        shares: [f64; K],
        room: &mut Vec<f64>,
    ) -> [f64; K] {
        let mut out = [0.0; K];
        let n = values.len();
        debug_assert_eq!(histogram.counts.iter().sum::<u64>(), n as u64);
        if n == 0 {
            return out;
        }
        for (slot, q) in out.iter_mut().zip(shares) {
            let rank = (libm::ceil(q * n as f64) as u64).clamp(1, n as u64);
            let mut below = 0;
            let mut bin = LATENCY_BINS - 1;
            for (k, &count) in histogram.counts.iter().enumerate() {
                if below + count >= rank {
                    bin = k;
                    break;
                }
                below += count;
            }
            let (low, high) = self.bounds(bin);
            room.clear();
            room.extend(values.iter().copied().filter(|&v| low <= v && v < high));
            // The rank's place among its bin's values (at least 1 by the choice of bin).
            let index = rank.saturating_sub(below + 1) as usize;
            if index < room.len() {
                *slot = *room.select_nth_unstable_by(index, f64::total_cmp).1;
            }
        }
        out
    }
}

/// One instance over the minute.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InstanceLoad {
    /// Requests it served (with hedging: copies, duplicates included).
    pub served: u64,
    /// Requests waiting in its queue at the minute's end.
    pub queue: u32,
    /// Busy worker time over its worker time in the minute.
    pub utilization: f64,
    /// Whether it took new requests at the minute's end.
    pub serving: bool,
}

/// The figures both the formulas and the requests give, for one minute.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Mean over the ticks.
    pub utilization: f64,
    /// Mean over the ticks.
    pub timeout_share: f64,
    /// Mean over the ticks.
    pub p_wait: f64,
    /// Mean over the ticks.
    pub rejected_share: f64,
    /// p99 of the time in the system of the minute's served requests, s (the formulas: the
    /// mixture of the ticks' distributions).
    pub p99_s: f64,
}

impl Figures {
    /// Adds one tick's figures (the minute's means are taken at its close).
    fn add(&mut self, utilization: f64, timeout_share: f64, p_wait: f64, rejected_share: f64) {
        self.utilization += utilization;
        self.timeout_share += timeout_share;
        self.p_wait += p_wait;
        self.rejected_share += rejected_share;
    }

    /// Adds the formulas' figures of one tick.
    fn add_formulas(&mut self, formula: &TickOutcome) {
        let q = &formula.queue;
        self.add(q.utilization, q.timeout_share, q.p_wait, formula.rejected);
    }
}

/// Hedges over the minute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HedgeCounts {
    pub sent: u64,
    /// Requests whose first success was a hedge.
    pub won: u64,
    /// Copies taken out of their queue because another copy had won.
    pub cancelled: u64,
    /// Copies served after their request had already succeeded (or failed).
    pub duplicates: u64,
}

impl HedgeCounts {
    /// Adds the hedges `tally` counted, and clears them there.
    fn take_from(&mut self, tally: &mut Tally) {
        self.sent += std::mem::take(&mut tally.hedges_sent);
        self.won += std::mem::take(&mut tally.hedges_won);
        self.cancelled += std::mem::take(&mut tally.hedges_cancelled);
        self.duplicates += std::mem::take(&mut tally.duplicates);
    }
}

/// What the requests did in one simulated minute, for the request-level panel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RequestMinute {
    /// The minute (0-based) of the run.
    pub minute: u32,
    /// Every instance the engine knows, by index (the first ones serve).
    pub instances: Vec<InstanceLoad>,
    pub latency: LatencyHistogram,
    /// Measured p50 and p99 of the served requests' time in the system, s.
    pub p50_s: f64,
    pub p99_s: f64,
    /// Requests that arrived, were served, gave up at the timeout, were rejected (503). By
    /// arrival times a request is counted in the minute it arrives; on the event list (once
    /// hedging has been on) in the minute it ends, so the four need not add up there.
    pub arrivals: u64,
    pub served: u64,
    pub timeouts: u64,
    pub rejected: u64,
    pub hedges: HedgeCounts,
    /// The work the engine did in the minute: on the event list every event it handled (an
    /// arrival, a service's end, a hedge timer, a total timeout), by arrival times one per
    /// arrival. It only counts; nothing reads it to decide.
    pub events: u64,
    /// Tokens in the bucket at the minute's end (`None`: hedging off).
    pub tokens_left: Option<f64>,
    /// Host selection: the ejections in the minute, and at its end the hosts ejected, panic,
    /// the hosts in their slow-start window (all 0 while host selection is off).
    pub hosts: crate::requests::HostCounts,
    pub routing: Routing,
    pub hedging: bool,
    /// The engine's figures and the formulas' beside them.
    pub measured: Figures,
    pub formula: Figures,
    /// The incident's faults in force during the minute, which the formulas beside the
    /// requests leave out (they pool a healthy fleet, every instance at the mean service
    /// time, the load spread evenly): the slow instance (its index among all the instances,
    /// as the engine resolves it), and the hot key's largest share of the requests when a
    /// hash policy routes (0 otherwise: other policies do not send a key to one instance).
    pub slow: Option<SlowFault>,
    pub hot_key_share: f64,
}

/// How the state is kept: by arrival times until hedging first comes on, then as an event
/// list.
enum Path {
    Arrivals(ArrivalFleet),
    Events(Box<Engine>),
}

/// The counts of one tick.
#[derive(Clone, Copy, Debug, Default)]
struct TickCounts {
    arrivals: u64,
    served: u64,
    waited: u64,
    gave_up: u64,
    rejected: u64,
    wait_sum: f64,
    busy: f64,
}

impl TickCounts {
    /// Counts how a request ended (`waited`: it found its instance's workers all busy); a
    /// timeout adds the whole timeout `timeout_s` to the waits, a reset counts as a 503.
    #[inline]
    fn count(&mut self, outcome: Outcome, waited: bool, timeout_s: f64) {
        self.waited += u64::from(waited);
        match outcome {
            Outcome::Rejected | Outcome::Reset => self.rejected += 1,
            Outcome::TimedOut => {
                self.gave_up += 1;
                self.wait_sum += timeout_s;
            }
            Outcome::Served { wait, .. } => {
                self.served += 1;
                self.wait_sum += wait;
            }
        }
    }

    /// The counts the event list's `tally` gathered (its served ones from `sojourns_before`
    /// on), cleared there; each timeout adds the whole timeout `timeout_s` to the waits.
    fn taken_from(tally: &mut Tally, sojourns_before: usize, timeout_s: f64) -> Self {
        let served = (tally.sojourns.len() - sojourns_before) as u64;
        let waited = std::mem::take(&mut tally.waited);
        let gave_up = std::mem::take(&mut tally.gave_up);
        let rejected = std::mem::take(&mut tally.rejected) + std::mem::take(&mut tally.reset);
        let wait_sum = std::mem::take(&mut tally.wait_sum) + gave_up as f64 * timeout_s;
        TickCounts {
            served,
            waited,
            gave_up,
            rejected,
            wait_sum,
            ..TickCounts::default()
        }
    }

    /// Mean wait of the served requests, s (the timeouts' whole timeouts `timeout_s` taken
    /// back out of the waits).
    fn mean_wait_s(&self, timeout_s: f64) -> f64 {
        if self.served > 0 {
            (self.wait_sum - self.gave_up as f64 * timeout_s) / self.served as f64
        } else {
            0.0
        }
    }

    /// Mean wait of the served and the timed-out requests, s.
    fn mean_wait_all_s(&self) -> f64 {
        let counted = (self.served + self.gave_up) as f64;
        if counted > 0.0 {
            self.wait_sum / counted
        } else {
            0.0
        }
    }
}

/// Failed-over requests owed to the arrivals so far: each arrival adds the tick's
/// failed-over share, and an arrival that brings it to 1 is one (an even thinning that draws
/// no random number).
#[derive(Clone, Copy, Debug, Default)]
struct FailedOverCredit(f64);

impl FailedOverCredit {
    /// Whether the next arrival is a failed-over one.
    #[inline]
    fn due(&mut self, far: &FailedOver) -> bool {
        far.applies() && {
            self.0 += far.share;
            let due = self.0 >= 1.0;
            if due {
                self.0 -= 1.0;
            }
            due
        }
    }
}

/// The request-level engine as a [`ServiceModel`].
pub struct RequestEngine {
    keys: KeySpace,
    service: ServiceShape,
    /// The key sampler and each key's hash, built the first time a hash policy routes.
    zipf: Option<AliasKeys>,
    key_hashes: Vec<u64>,
    /// The key that surges when a scenario makes one hot (drawn from the seed).
    hot_key: u32,
    clock: f64,
    streams: Streams,
    router: Router,
    routing: Routing,
    serving: u32,
    slots: usize,
    path: Path,
    formulas: QueueFormulas,
    edges: Edges,
    /// Busy time of each instance as it stood at the tick's start (event list).
    busy_mark: Vec<f64>,
    /// Requests (by instance) waiting past the end of the tick that routed them, and until
    /// when they wait (arrival-time path).
    waiting_past: Vec<(u32, f64)>,
    /// The served requests' times in the system this minute (the tick's are the last).
    sojourns: Vec<f64>,
    /// The tick's served requests by latency bin (added to the minute's at the tick's end).
    tick_latency: LatencyHistogram,
    /// Room for the sojourns of one latency bin (percentiles by bin).
    in_bin: Vec<f64>,
    formula_tails: Vec<(f64, SojournTail)>,
    /// The formulas' p99 of the last tick, s.
    formula_p99_s: f64,
    current: RequestMinute,
    minute_busy: Vec<f64>,
    minute_time_s: f64,
    ticks: u32,
    minute: u32,
    last: Option<RequestMinute>,
    failed_over: FailedOverCredit,
    /// The router's ejections before the current minute.
    ejections_mark: u64,
}

/// The next request's key, by number (the router knows each key's hash): the hot key with
/// probability `hot`, else a Zipf draw (one uniform draw either way); 0 when the policy
/// reads no key.
fn draw_key(zipf: Option<&AliasKeys>, rng: &mut Mulberry32, hot: f64, hot_key: u32) -> u64 {
    let Some(zipf) = zipf else {
        return 0;
    };
    let u = rng.uniform();
    let key = if u < hot {
        hot_key
    } else {
        zipf.key_of((u - hot) / (1.0 - hot))
    };
    u64::from(key)
}

/// Where the hot key is drawn: the key stream of a fourth region slot ([`region_seed`]),
/// which no run has (at most [`crate::region_codes::MAX_REGIONS`] regions), so its draw is none
/// of any region's streams' within 2^28 draws. (A seed has four streams only, and
/// [`Mulberry32::stream`] masks the index: a fifth, index 4, was the arrival stream, so the
/// hot key was the first arrival's draw.)
const HOT_KEY_SLOT: usize = 3;
const _: () = assert!(crate::region_codes::MAX_REGIONS <= HOT_KEY_SLOT);

/// The seed of region `region`'s random streams in a run with `seed`: region a's is the run's
/// own, and region r enters each of the seed's four streams ([`Mulberry32::stream`])
/// r·2^28 draws later. mulberry32's state is a Weyl sequence (state_n = seed + n·γ), so
/// starting r·2^28 draws ahead is adding r·2^28·γ to the seed; with at most four regions
/// their stretches of a stream never overlap within 2^28 draws each.
pub fn region_seed(seed: u32, region: usize) -> u32 {
    const GAMMA: u32 = 0x6D2B_79F5;
    seed.wrapping_add(((region as u32) & 3).wrapping_mul(GAMMA) << 28)
}

impl RequestEngine {
    /// An engine for a run with `seed`; keys from `keys`, service times of `service`'s shape.
    pub fn new(seed: u32, keys: KeySpace, service: ServiceShape) -> Self {
        Self::for_region(seed, 0, keys, service)
    }

    /// The engine of region `region` in a run with `seed`: its own random streams
    /// ([`region_seed`]; region a's are those of [`RequestEngine::new`]), and the run's hot
    /// key (the same in every region; the hot-key scenario's surge is region a's, see
    /// `Simulation::request_conditions`).
    pub fn for_region(seed: u32, region: usize, keys: KeySpace, service: ServiceShape) -> Self {
        let hot_key = {
            let mut rng = Mulberry32::stream(region_seed(seed, HOT_KEY_SLOT), KEY_STREAM);
            // A key from the popular end, but not the most popular one: ranks 10 to 99.
            let span = keys.keys.clamp(1, 100);
            let lo = 10.min(span - 1);
            lo + (libm::floor(rng.uniform() * f64::from(span - lo)) as u32).min(span - lo - 1)
        };
        Self {
            keys,
            service,
            zipf: None,
            key_hashes: Vec::new(),
            hot_key,
            clock: 0.0,
            streams: Streams::of(region_seed(seed, region)),
            router: Router::new(Routing::default(), Vec::new()),
            routing: Routing::default(),
            serving: 0,
            slots: 0,
            path: Path::Arrivals(ArrivalFleet::new(0, 0, None, true, |_| f64::INFINITY)),
            formulas: QueueFormulas::default(),
            edges: Edges::new(),
            busy_mark: Vec::new(),
            waiting_past: Vec::new(),
            sojourns: Vec::new(),
            tick_latency: LatencyHistogram::default(),
            in_bin: Vec::new(),
            formula_tails: Vec::new(),
            formula_p99_s: 0.0,
            current: RequestMinute::default(),
            minute_busy: Vec::new(),
            minute_time_s: 0.0,
            ticks: 0,
            minute: 0,
            last: None,
            failed_over: FailedOverCredit::default(),
            ejections_mark: 0,
        }
    }

    /// The key hot in this run (0-based rank).
    pub fn hot_key(&self) -> u32 {
        self.hot_key
    }

    /// Brings the instances, the router and the state's shape up to the tick that ends at
    /// `t1`.
    fn prepare(&mut self, input: &TickInput, t1: f64) {
        let t0 = self.clock;
        let c = &input.requests;
        let (slots, cap) = node_limits(input);
        if self.slots == 0 {
            self.slots = slots;
            self.path = Path::Arrivals(ArrivalFleet::new(0, slots, cap, true, |_| f64::INFINITY));
        }
        if Router::uses_keys(c.routing) && self.zipf.is_none() {
            self.key_hashes = (0..u64::from(self.keys.keys))
                .map(crate::balance::key_hash)
                .collect();
            self.zipf = Some(AliasKeys::new(self.keys));
        }
        if c.hedging.is_some() {
            if let Path::Arrivals(fleet) = &self.path {
                let engine =
                    Engine::take_over(fleet, t0, self.service, input.service_s, input.timeout_s);
                self.path = Path::Events(Box::new(engine));
            }
        }
        let known = self.fit_path(input, cap, slow_in_tick(input, t0, t1));
        self.busy_mark.resize(known, 0.0);
        self.minute_busy.resize(known, 0.0);
        self.current
            .instances
            .resize(known, InstanceLoad::default());
        self.fit_router(input);
    }

    /// The state's rules for this tick (its limit `cap` on the requests an instance holds,
    /// the timeout, the slow instance), and an instance for each serving one; how many
    /// instances it knows.
    fn fit_path(
        &mut self,
        input: &TickInput,
        cap: Option<usize>,
        slow: Option<SlowInstance>,
    ) -> usize {
        let t0 = self.clock;
        let c = &input.requests;
        let serving = input.serving as usize;
        match &mut self.path {
            Path::Arrivals(fleet) => {
                fleet.cap = cap;
                fleet.patience = input.timeout_s;
                fleet.slow = slow;
                // Least request and the limits read the requests an instance holds. (A
                // switch to least request counts only the requests routed from then on.)
                fleet.track_held = c.routing.reads_held() || cap.is_some();
                while fleet.instances.len() < serving {
                    fleet.add_instance();
                }
                fleet.instances.len()
            }
            Path::Events(engine) => {
                engine.cap = cap;
                engine.slow = slow;
                engine.service_mean = input.service_s;
                engine.patience = input.timeout_s;
                engine.set_hedging(c.hedging);
                while engine.nodes.len() < serving {
                    engine.add_node(t0);
                }
                engine.nodes.len()
            }
        }
    }

    /// The router over this tick's serving instances by its policy, host selection carried
    /// over from the last.
    fn fit_router(&mut self, input: &TickInput) {
        let t0 = self.clock;
        let c = &input.requests;
        if input.serving != self.serving || c.routing != self.routing {
            let health = self.router.take_health();
            self.router = Router::new(c.routing, (0..input.serving).collect());
            if Router::uses_keys(c.routing) {
                self.router.index_keys(self.key_hashes.clone());
            }
            // The instances that left the cluster leave the detector, the new ones join it
            // now (the first tick's are there from before).
            self.router.adopt_health(health, t0);
            self.serving = input.serving;
            self.routing = c.routing;
        }
        self.router.set_choices(c.choices);
        self.router.set_host_selection(c.host_selection, t0);
        let report = self.router.detects_outliers();
        match &mut self.path {
            Path::Arrivals(fleet) => fleet.report = report,
            Path::Events(engine) => engine.report = report,
        }
    }

    /// The next request's key hash: the hot key's with probability `hot`, else a Zipf
    /// draw's (0 when the policy reads no key).
    #[inline]
    fn next_key(&mut self, hot: f64) -> u64 {
        let zipf = self
            .zipf
            .as_ref()
            .filter(|_| Router::uses_keys(self.routing));
        draw_key(zipf, &mut self.streams.keys, hot, self.hot_key)
    }

    /// Serves the tick by arrival times.
    #[inline(never)]
    fn tick_by_arrivals(&mut self, input: &TickInput, t1: f64) -> TickCounts {
        let t0 = self.clock;
        let Path::Arrivals(fleet) = &mut self.path else {
            return TickCounts::default();
        };
        // The fleet leaves the state for the tick (an empty one holds nothing).
        let empty = ArrivalFleet::new(0, 0, None, false, |_| f64::INFINITY);
        let mut fleet = std::mem::replace(fleet, empty);
        let mut n = self.carried_in(&fleet, t0, t1);
        let mean_gap = 1.0 / input.lambda;
        let mut now = self.streams.next_arrival(t0, mean_gap);
        while now < t1 {
            let service = self
                .service
                .draw(&mut self.streams.services, input.service_s);
            let key_hash = self.next_key(input.requests.hot_key_share);
            n.arrivals += 1;
            let failed_over = self.failed_over.due(&input.failed_over);
            let routing = &mut self.streams.routing;
            let fate = fleet.serve(&mut self.router, routing, now, service, key_hash);
            self.count_arrival(&mut n, fate, now, failed_over, input, t1);
            now = self.streams.next_arrival(now, mean_gap);
        }
        self.path = Path::Arrivals(fleet);
        self.current.events += n.arrivals;
        self.queues_past(t1);
        n
    }

    /// The work committed before the tick that runs into it, as the tick's first counts.
    fn carried_in(&mut self, fleet: &ArrivalFleet, t0: f64, t1: f64) -> TickCounts {
        let mut n = TickCounts::default();
        for (i, inst) in fleet.instances.iter().enumerate() {
            let carry: f64 = inst.busy.iter().map(|f| (f.min(t1) - t0).max(0.0)).sum();
            self.minute_busy[i] += carry;
            if i < self.serving as usize {
                n.busy += carry;
            }
        }
        n
    }

    /// Counts the fate of a request that arrived at `now` in a tick ending at `t1`: the
    /// worker time it takes within the tick, its wait past the tick's end, how it ended (a
    /// failed-over one answered after its client's deadline as a timeout).
    #[inline]
    fn count_arrival(
        &mut self,
        n: &mut TickCounts,
        fate: Fate,
        now: f64,
        failed_over: bool,
        input: &TickInput,
        t1: f64,
    ) {
        if let Some((instance, until)) = fate.queued_until(now, input.timeout_s) {
            if until > t1 {
                self.waiting_past.push((instance as u32, until));
            }
        }
        if let Some((instance, start, end)) = fate.worker() {
            let busy = (end.min(t1) - start).max(0.0);
            self.minute_busy[instance] += busy;
            if instance < self.serving as usize {
                n.busy += busy;
            }
        }
        if let Fate::Served { instance, .. } = fate {
            self.current.instances[instance].served += 1;
        }
        let (mut outcome, mut waited) = (fate.outcome(), fate.waited());
        if let Outcome::Served { sojourn, .. } = outcome {
            // A failed-over request reaches this region Δ after it was sent: its client's
            // deadline falls τ − Δ after its arrival here (already past when Δ > τ).
            if failed_over && sojourn > input.timeout_s - input.failed_over.penalty_s {
                // Its client's deadline passed before the answer came; the instance, which
                // cannot know, serves it all the same.
                (outcome, waited) = (Outcome::TimedOut, true);
            } else {
                self.sojourns.push(sojourn);
                self.tick_latency.counts[self.edges.bin(sojourn)] += 1;
            }
        }
        n.count(outcome, waited, input.timeout_s);
    }

    /// The requests still waiting at the tick's end, by instance: those whose wait runs
    /// past it.
    fn queues_past(&mut self, t1: f64) {
        self.waiting_past.retain(|&(_, until)| until > t1);
        for load in &mut self.current.instances {
            load.queue = 0;
        }
        for &(i, _) in &self.waiting_past {
            self.current.instances[i as usize].queue += 1;
        }
    }

    /// Serves the tick through the event list.
    #[inline(never)]
    fn tick_by_events(&mut self, input: &TickInput, t1: f64) -> TickCounts {
        let t0 = self.clock;
        let Path::Events(engine) = &mut self.path else {
            return TickCounts::default();
        };
        for (i, node) in engine.nodes.iter_mut().enumerate() {
            node.busy_until(t0);
            self.busy_mark[i] = node.busy_time;
        }
        let mark = (engine.tally.sojourns.len(), engine.events);
        let arrivals = self.run_events(input, t0, t1);
        TickCounts {
            arrivals,
            ..self.events_counted(input, t1, mark)
        }
    }

    /// Runs the event list over [t0, t1) with the tick's arrivals; how many arrived.
    fn run_events(&mut self, input: &TickInput, t0: f64, t1: f64) -> u64 {
        let Path::Events(engine) = &mut self.path else {
            return 0;
        };
        let mean_gap = 1.0 / input.lambda;
        let hot = input.requests.hot_key_share;
        let zipf = self
            .zipf
            .as_ref()
            .filter(|_| Router::uses_keys(self.routing));
        let mut next_arrival = self.streams.next_arrival(t0, mean_gap);
        let mut arrivals = 0;
        loop {
            let t_event = engine.next_time();
            // Events that fell due while the region served nothing (a zone down: no tick ran
            // the list) are handled at the start of this tick; time never runs backwards.
            let now = earlier(t_event, next_arrival).max(t0);
            if now >= t1 {
                break;
            }
            if t_event <= next_arrival {
                engine.step(now, &mut self.router, &mut self.streams);
            } else {
                let key_hash = draw_key(zipf, &mut self.streams.keys, hot, self.hot_key);
                arrivals += 1;
                engine.arrive(now, key_hash, true, &mut self.router, &mut self.streams);
                next_arrival = self.streams.next_arrival(now, mean_gap);
            }
        }
        arrivals
    }

    /// What the event list counted in the tick (its requests that ended in it; `mark`: the
    /// times in the system and the events as they stood at its start), its busy time and
    /// its queues at the end; the hedges and what each instance served go to the minute.
    fn events_counted(&mut self, input: &TickInput, t1: f64, mark: (usize, u64)) -> TickCounts {
        let (sojourns_before, events_before) = mark;
        let Path::Events(engine) = &mut self.path else {
            return TickCounts::default();
        };
        self.current.events += engine.events - events_before;
        let tally = &mut engine.tally;
        let mut n = TickCounts::taken_from(tally, sojourns_before, input.timeout_s);
        self.current.hedges.take_from(tally);
        for (i, served) in tally.served_by.iter_mut().enumerate() {
            self.current.instances[i].served += std::mem::take(served);
        }
        for &s in &tally.sojourns[sojourns_before..] {
            self.tick_latency.counts[self.edges.bin(s)] += 1;
        }
        self.sojourns
            .extend_from_slice(&tally.sojourns[sojourns_before..]);
        tally.sojourns.clear();
        for i in 0..engine.nodes.len() {
            engine.nodes[i].busy_until(t1);
            let busy = engine.nodes[i].busy_time - self.busy_mark[i];
            self.minute_busy[i] += busy;
            if i < self.serving as usize {
                n.busy += busy;
            }
            self.current.instances[i].queue = engine.queued(i, t1) as u32;
        }
        self.current.tokens_left = engine.bucket.map(|b| b.tokens());
        n
    }

    /// Notes the tick's conditions and the formulas' figures for the minute.
    fn note_conditions(&mut self, input: &TickInput, formula: &TickOutcome) {
        let tick_s = input.requests.tick_s;
        self.ticks += 1;
        self.minute_time_s += tick_s;
        self.formula_tails.push((tick_s, formula.queue.tail));
        self.formula_p99_s = formula.queue.p99_s;
        self.current.formula.add_formulas(formula);
        self.current.routing = input.requests.routing;
        self.current.hedging = input.requests.hedging.is_some();
        if let Some(fault) = input.requests.slow.filter(|_| input.serving > 0) {
            self.current.slow = Some(SlowFault {
                instance: fault.instance % input.serving,
                ..fault
            });
        }
        if Router::uses_keys(input.requests.routing) {
            let share = &mut self.current.hot_key_share;
            *share = share.max(input.requests.hot_key_share);
        }
    }

    /// Host selection as it stands at `t1`, the ejections counted from the minute's start.
    fn note_hosts(&mut self, t1: f64) {
        if self.router.host_selection_on() {
            self.router.settle(t1);
            let counts = self.router.host_counts(t1);
            self.current.hosts = crate::requests::HostCounts {
                ejections: counts.ejections.saturating_sub(self.ejections_mark),
                ..counts
            };
        }
    }

    /// The tick's p95 (when asked for; 0 otherwise) and p99 of the time in the system of
    /// its served requests (those from `tick_start` on); its latency bins join the minute's.
    fn tick_percentiles(&mut self, tick_start: usize, want_p95: bool) -> [f64; 2] {
        let tick = &self.sojourns[tick_start..];
        let out = if want_p95 {
            self.edges
                .percentiles(tick, &self.tick_latency, [0.95, 0.99], &mut self.in_bin)
        } else {
            let [p99_s] =
                self.edges
                    .percentiles(tick, &self.tick_latency, [0.99], &mut self.in_bin);
            [0.0, p99_s]
        };
        for (minute, tick) in self
            .current
            .latency
            .counts
            .iter_mut()
            .zip(&mut self.tick_latency.counts)
        {
            *minute += std::mem::take(tick);
        }
        out
    }

    /// The tick's outcome from what its requests did, the formulas' analytic figures kept
    /// beside; its figures and counts join the minute's.
    fn measure(
        &mut self,
        input: &TickInput,
        formula: &TickOutcome,
        n: &TickCounts,
        far_timeouts: f64,
        tick_start: usize,
    ) -> TickOutcome {
        let arrivals = n.arrivals.max(1) as f64;
        let capacity = self.serving as f64 * self.slots as f64 * input.requests.tick_s;
        let utilization = utilization(n.busy, capacity);
        let timeout_share = (n.gave_up as f64 / arrivals + far_timeouts).min(1.0);
        let p_wait = n.waited as f64 / arrivals;
        let rejected = n.rejected as f64 / arrivals;
        let [p95_s, p99_s] = self.tick_percentiles(tick_start, input.want_p95);
        self.current
            .measured
            .add(utilization, timeout_share, p_wait, rejected);
        self.current.arrivals += n.arrivals;
        self.current.served += n.served;
        self.current.timeouts += n.gave_up;
        self.current.rejected += n.rejected;
        let queue = queueing::QueueOutcome {
            p_wait,
            utilization,
            timeout_share,
            p99_s,
            mean_wait_s: n.mean_wait_s(input.timeout_s),
            mean_wait_all_s: n.mean_wait_all_s(),
            ..formula.queue
        };
        TickOutcome {
            queue,
            rejected,
            p95_s: if input.want_p95 { p95_s } else { 0.0 },
            workers: formula.workers,
        }
    }
}

/// The tick's worker slots of each instance (its workers, at most the admission's requests
/// per node, at least 1) and the requests an instance holds at most: its own and its part of
/// the balancer's pending queue (`None`: no limit).
fn node_limits(input: &TickInput) -> (usize, Option<usize>) {
    let per_node = input
        .admission
        .map_or(input.workers_per_instance, |a| a.per_node_requests);
    let slots = input.workers_per_instance.min(per_node).max(1) as usize;
    let cap = input
        .admission
        .map(|a| per_node.max(slots as u32) as usize + (a.pending / input.serving.max(1)) as usize);
    (slots, cap)
}

/// The tick's slow instance over [t0, t1). The engine knows instances by index only: a slow
/// index past the serving ones (after a scale-in) names one of them.
fn slow_in_tick(input: &TickInput, t0: f64, t1: f64) -> Option<SlowInstance> {
    input.requests.slow.map(|s| SlowInstance {
        instance: s.instance % input.serving,
        factor: s.factor,
        from_s: t0,
        to_s: t1,
    })
}

impl ServiceModel for RequestEngine {
    fn tick(&mut self, input: &TickInput) -> TickOutcome {
        let formula = self.formulas.tick(input);
        self.note_conditions(input, &formula);
        let tick_s = input.requests.tick_s;
        let t0 = self.clock;
        let t1 = t0 + tick_s;
        if input.serving == 0 || !(input.lambda > 0.0) || !(tick_s > 0.0) {
            // Nothing to route: the formulas' reading (requests held for the first
            // instance, or none at all).
            self.clock = t1;
            self.current.measured.add_formulas(&formula);
            return formula;
        }
        self.prepare(input, t1);
        let tick_start = self.sojourns.len();
        // On the event list the failed-over requests' timeouts are the formulas' share (the
        // event list keeps one patience for every request).
        let (n, far_timeouts) = match self.path {
            Path::Arrivals(_) => (self.tick_by_arrivals(input, t1), 0.0),
            Path::Events(_) => (
                self.tick_by_events(input, t1),
                input
                    .failed_over
                    .extra_timeouts(&formula.queue.tail, input.timeout_s),
            ),
        };
        self.clock = t1;
        self.note_hosts(t1);
        self.measure(input, &formula, &n, far_timeouts, tick_start)
    }

    fn close_minute(&mut self) -> Option<f64> {
        let ticks = f64::from(self.ticks.max(1));
        let mut minute = std::mem::take(&mut self.current);
        for figures in [&mut minute.measured, &mut minute.formula] {
            figures.utilization /= ticks;
            figures.timeout_share /= ticks;
            figures.p_wait /= ticks;
            figures.rejected_share /= ticks;
        }
        let [p50_s, p99_s] = self.edges.percentiles(
            &self.sojourns,
            &minute.latency,
            [0.5, 0.99],
            &mut self.in_bin,
        );
        minute.minute = self.minute;
        minute.p50_s = p50_s;
        minute.p99_s = p99_s;
        minute.measured.p99_s = p99_s;
        minute.formula.p99_s = match self.formula_tails.as_slice() {
            [] => 0.0,
            // One tick: its p99, as the minute model reports it.
            [_] => self.formula_p99_s,
            tails => queueing::mixture_quantile(tails, 0.01),
        };
        let worker_time = self.slots as f64 * self.minute_time_s;
        for (i, load) in minute.instances.iter_mut().enumerate() {
            load.utilization = if worker_time > 0.0 {
                (self.minute_busy[i] / worker_time).min(1.0)
            } else {
                0.0
            };
            load.serving = i < self.serving as usize;
        }
        // Keep the buffers' room for the next minute.
        let mut next = self.last.take().unwrap_or_default();
        next.instances.clear();
        next.instances
            .resize(minute.instances.len(), InstanceLoad::default());
        next.latency = LatencyHistogram::default();
        self.current = RequestMinute {
            instances: std::mem::take(&mut next.instances),
            ..RequestMinute::default()
        };
        self.current.tokens_left = minute.tokens_left;
        self.ejections_mark = self.router.host_counts(self.clock).ejections;
        self.sojourns.clear();
        self.formula_tails.clear();
        self.minute_busy.iter_mut().for_each(|b| *b = 0.0);
        self.minute_time_s = 0.0;
        self.ticks = 0;
        self.minute += 1;
        let measured = (minute.served > 0).then_some(p99_s);
        self.last = Some(minute);
        measured.or(Some(self.last.as_ref().map_or(0.0, |m| m.formula.p99_s)))
    }

    fn requests(&self) -> Option<&RequestMinute> {
        self.last.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::requests::percentiles;
    use crate::requests::streams::ARRIVAL_STREAM;

    /// The hot key comes from a stream of its own, not from the arrivals' first draw (a
    /// fifth stream of a seed is the first one again), and every region's engine has the
    /// same.
    #[test]
    fn the_hot_key_is_drawn_from_its_own_stream() {
        let keys = KeySpace::default();
        let rank = |u: f64| 10 + (libm::floor(u * 90.0) as u32).min(89);
        let mut same_as_first_arrival = 0;
        for seed in 0..1000u32 {
            assert_eq!(
                Mulberry32::stream(seed, 4).uniform(),
                Mulberry32::stream(seed, ARRIVAL_STREAM).uniform()
            );
            let engine = RequestEngine::new(seed, keys, ServiceShape::Exponential);
            let own = Mulberry32::stream(region_seed(seed, HOT_KEY_SLOT), KEY_STREAM).uniform();
            assert_eq!(engine.hot_key(), rank(own), "{seed}");
            for r in 1..crate::region_codes::MAX_REGIONS {
                let other = RequestEngine::for_region(seed, r, keys, ServiceShape::Exponential);
                assert_eq!(other.hot_key(), engine.hot_key());
            }
            let first_arrival = Mulberry32::stream(seed, ARRIVAL_STREAM).uniform();
            same_as_first_arrival += u32::from(engine.hot_key() == rank(first_arrival));
        }
        // One seed in 90 by chance.
        assert!(same_as_first_arrival < 30, "{same_as_first_arrival}");
    }

    /// The percentiles read through the latency bins are those of a selection among all the
    /// values: on exponential times around the bins' middle, on times below the first bin
    /// and past the last (which the end bins hold), on many equal times, and on one time.
    #[test]
    fn percentiles_by_bin_are_those_of_all_values() {
        let edges = Edges::new();
        let mut rng = Mulberry32::new(21);
        let spread: Vec<f64> = (0..20_000).map(|_| rng.exponential(0.08)).collect();
        let mut extremes: Vec<f64> = (0..3_000).map(|_| rng.exponential(0.0004)).collect();
        extremes.extend((0..40).map(|i| 1500.0 + f64::from(i)));
        extremes.extend([0.0, 0.0, 2e-300]);
        let cases = [spread, extremes, vec![0.25; 500], vec![3.0]];
        for values in cases {
            let mut histogram = LatencyHistogram::default();
            for &v in &values {
                histogram.counts[edges.bin(v)] += 1;
            }
            let shares = [0.5, 0.95, 0.99, 0.999];
            let mut room = Vec::new();
            let by_bin = edges.percentiles(&values, &histogram, shares, &mut room);
            let mut all = values.clone();
            assert_eq!(
                by_bin,
                percentiles(&mut all, shares),
                "{} values",
                values.len()
            );
        }
        // Each bin's bounds are the times it holds: at, just below and just above every edge.
        for k in 1..LATENCY_BINS {
            let (low, _) = edges.bounds(k);
            let below = f64::from_bits(low.to_bits() - 1);
            assert_eq!(edges.bin(low), k);
            assert_eq!(edges.bin(below), k - 1);
            assert_eq!(edges.bounds(k - 1).1, low);
        }
        assert_eq!(edges.bounds(0).0, f64::NEG_INFINITY);
        assert_eq!(edges.bounds(LATENCY_BINS - 1).1, f64::INFINITY);
        let empty = edges.percentiles(&[], &LatencyHistogram::default(), [0.5], &mut Vec::new());
        assert_eq!(empty, [0.0]);
    }
}
