//! Envoy's host selection around health: outlier detection per host, the panic threshold,
//! and slow start, as the request engine's router applies them.
//!
//! **Outlier detection** (Envoy `source/common/upstream/outlier_detection_impl.cc`, the
//! consecutive-5xx detector with the minute model's [`OutlierConfig`] and its citation
//! [`crate::outlier::ENVOY_OUTLIER_DETECTION`]). Each response a host gives is an outcome: a success resets its
//! count of consecutive failures; a failure adds one, and the failure that brings the count to
//! `consecutive_5xx` ejects the host at once (`putHttpResponseCode`, `onConsecutiveErrorWorker`:
//! the count is reset whether or not the ejection was allowed; a host already ejected is left
//! alone). The failures are the requests that time out on the host, waiting or in service: in
//! Envoy's default mode (`split_external_local_origin_errors` off) a timeout is reported as a
//! 504 (`putResultNoLocalExternalSplit`, `resultToHttpCode`), a 5xx. Resets would count too
//! (a 503), but the only resets of this model come from an instance's stop, which removes the
//! host from the cluster at that moment, and Envoy drops a removed host's monitor. The 503s of
//! the per-node limits do not count: they are the balancer's circuit breakers overflowing,
//! answered locally before any host is reached, which Envoy does not charge to a host.
//!
//! An ejection is allowed while 100 × (ejected + 1) / hosts ≤ `max_ejection_percent`
//! (`ejectHost`); with `always_eject_one_host` (Envoy's default: off) one host can be ejected
//! whatever the share. A sweep every `interval` from the detector's start (`onIntervalTimer`)
//! brings back each host ejected for at least min(`base_ejection_time` × backoff,
//! `max_ejection_time`) (`checkHostForUneject`), its counts reset; the backoff grows by one at
//! each ejection (while backoff × base < max + base) and shrinks by one at each sweep that
//! finds the host back for at least an interval. A host ejected again soon after its return is
//! thus ejected twice as long. Not modelled: the success-rate and failure-percentage detectors
//! (on by default in Envoy, they need 100 requests per host per interval and 5 hosts), the
//! ejection jitter (0 by default), and the cross-thread post that delays an ejection slightly.
//!
//! **Panic threshold** (`load_balancer_impl.cc`, `isHostSetInPanic`): when the share of hosts
//! not ejected falls below `healthy_panic_threshold`, the balancer routes across all the hosts
//! of the cluster, ejected ones too; with `fail_traffic_on_panic` it fails the request (503)
//! instead. Without ejections every host is healthy, so the threshold acts only with outlier
//! detection on.
//!
//! **Slow start** (`EdfLoadBalancerBase`: `refresh`, `applySlowStartFactor`,
//! `noHostsAreInSlowStart`), for round robin and least request: a host that joined at t0 has
//! its weight multiplied by max(min_weight, (max(1 ms, t − t0) / window)^(1/aggression)) until
//! the window has passed. Envoy decides at each refresh of the host set (a host added,
//! removed, ejected or back) whether to schedule by EDF: when some host joined within the
//! window. The EDF then stays until the next refresh. Each pick takes the host with the
//! earliest deadline and puts it back at that deadline plus 1 / its weight at that moment
//! (`EdfScheduler::pickAndAdd`); round robin's weight is the slow-start factor, least
//! request's is 1 / (active requests + 1)^active_request_bias times it (`hostWeight`), so
//! least request leaves its power of two choices for the EDF while the scheduler is on.
//! Simplifications: the instances of the run's start are taken as in the cluster for longer
//! than the window (Envoy starts its window for hosts present at start-up too); the EDF starts
//! without Envoy's random number of initial picks (`seed_ % hosts`), so it is deterministic;
//! hedges keep the policy's unweighted choice of another host.

use super::heap::Earliest;
use crate::outlier::OutlierConfig;
use std::collections::BinaryHeap;

/// Envoy's default `healthy_panic_threshold`, percent.
pub const DEFAULT_PANIC_THRESHOLD_PERCENT: f64 = 50.0;

/// Envoy's default slow-start `aggression`.
pub const DEFAULT_AGGRESSION: f64 = 1.0;

/// Envoy's default slow-start `min_weight_percent`.
pub const DEFAULT_MIN_WEIGHT_PERCENT: f64 = 10.0;

/// Envoy's `SlowStartConfig`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlowStart {
    /// `slow_start_window`, s (Envoy's default 0: off).
    pub window_s: f64,
    /// `aggression` (1: linear).
    pub aggression: f64,
    /// `min_weight_percent`: the factor never goes below this share.
    pub min_weight_percent: f64,
}

impl SlowStart {
    /// A window of `window_s` with Envoy's default aggression and minimum weight.
    pub fn window(window_s: f64) -> Self {
        Self {
            window_s,
            aggression: DEFAULT_AGGRESSION,
            min_weight_percent: DEFAULT_MIN_WEIGHT_PERCENT,
        }
    }

    /// The weight factor of a host `age` seconds after it joined (1 once the window has
    /// passed): `applySlowStartFactor`.
    pub fn factor(&self, age: f64) -> f64 {
        if !(age < self.window_s) {
            return 1.0;
        }
        let time_factor = age.max(0.001) / self.window_s;
        let ramp = if self.aggression == 1.0 {
            time_factor
        } else {
            libm::pow(time_factor, 1.0 / self.aggression)
        };
        ramp.max(self.min_weight_percent / 100.0)
    }

    fn is_valid(&self) -> bool {
        self.window_s > 0.0
            && self.window_s.is_finite()
            && self.aggression > 0.0
            && self.aggression.is_finite()
            && (0.0..=100.0).contains(&self.min_weight_percent)
    }
}

/// How the balancer selects hosts around their health: outlier detection, the panic threshold
/// and slow start. The default leaves every host always selectable at its full weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostSelection {
    /// Outlier detection by consecutive failures (`None`: off).
    pub outlier: Option<OutlierConfig>,
    /// Envoy's `always_eject_one_host` (default off): one host may be ejected even when that
    /// exceeds `max_ejection_percent`.
    pub always_eject_one_host: bool,
    /// `healthy_panic_threshold`, percent (0 turns panic off).
    pub panic_threshold_percent: f64,
    /// `fail_traffic_on_panic`: in panic, fail requests (503) instead of routing across all
    /// hosts.
    pub fail_traffic_on_panic: bool,
    /// Slow start (`None`: off), for round robin and least request.
    pub slow_start: Option<SlowStart>,
    /// Least request's `active_request_bias`, which its weighted (EDF) choice reads.
    pub active_request_bias: f64,
}

impl Default for HostSelection {
    fn default() -> Self {
        Self {
            outlier: None,
            always_eject_one_host: false,
            panic_threshold_percent: DEFAULT_PANIC_THRESHOLD_PERCENT,
            fail_traffic_on_panic: false,
            slow_start: None,
            active_request_bias: super::DEFAULT_ACTIVE_REQUEST_BIAS,
        }
    }
}

impl HostSelection {
    /// Whether nothing of it acts (no outlier detection, no slow start).
    pub fn is_off(&self) -> bool {
        self.outlier.is_none() && self.slow_start.is_none()
    }

    pub(crate) fn is_valid(&self) -> bool {
        let outlier_ok = self.outlier.is_none_or(|o| {
            o.consecutive_5xx >= 1
                && o.interval_s >= 1
                && o.base_ejection_s >= 1
                && o.max_ejection_percent <= 100
                && o.max_ejection_s >= o.base_ejection_s
        });
        outlier_ok
            && (0.0..=100.0).contains(&self.panic_threshold_percent)
            && self.slow_start.is_none_or(|s| s.is_valid())
            && (0.0..=super::MAX_ACTIVE_REQUEST_BIAS).contains(&self.active_request_bias)
    }
}

/// What host selection did, for the outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HostCounts {
    /// Ejections so far.
    pub ejections: u64,
    /// Hosts ejected now.
    pub ejected: u32,
    /// Whether the balancer is in panic now.
    pub panic: bool,
    /// Hosts in their slow-start window now.
    pub slow_start: u32,
}

/// A host ejected or back, at a time of the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostEvent {
    pub at_s: f64,
    pub instance: u32,
    /// Ejected (`true`) or back (`false`).
    pub ejected: bool,
}

/// Host events kept at most (the first ones; a run ejects a host at most once per base
/// ejection time, so this is hours of a flapping fleet).
pub const MAX_HOST_EVENTS: usize = 10_000;

#[derive(Clone, Copy, Debug)]
struct HostState {
    member: bool,
    consecutive: u32,
    ejected: bool,
    ejected_at: f64,
    backoff: u32,
    unejected_at: Option<f64>,
    joined_at: f64,
}

impl Default for HostState {
    fn default() -> Self {
        Self {
            member: false,
            consecutive: 0,
            ejected: false,
            ejected_at: 0.0,
            backoff: 0,
            unejected_at: None,
            joined_at: f64::NEG_INFINITY,
        }
    }
}

/// An outcome known before its time (the arrival-time path): host `.0`'s response at
/// `time`, a success when `.1`.
type Pending = Earliest<(u32, bool)>;

/// The health of every host the balancer knows, by instance index.
#[derive(Clone, Debug)]
pub(crate) struct Health {
    pub(crate) cfg: HostSelection,
    hosts: Vec<HostState>,
    next_sweep: f64,
    pending: BinaryHeap<Pending>,
    seq: u64,
    members: u32,
    ejected: u32,
    pub(crate) ejections: u64,
    latest_join: f64,
    /// The ejections and returns so far (at most [`MAX_HOST_EVENTS`]).
    pub(crate) events: Vec<HostEvent>,
}

impl Health {
    /// A detector started at `now`: its sweeps come every interval from then.
    pub(crate) fn new(cfg: HostSelection, now: f64) -> Self {
        Self {
            cfg,
            hosts: Vec::new(),
            next_sweep: cfg
                .outlier
                .map_or(f64::INFINITY, |o| now + f64::from(o.interval_s)),
            pending: BinaryHeap::new(),
            seq: 0,
            members: 0,
            ejected: 0,
            ejections: 0,
            latest_join: f64::NEG_INFINITY,
            events: Vec::new(),
        }
    }

    /// New settings from now on (the state is kept; the sweeps keep their phase).
    pub(crate) fn set_config(&mut self, cfg: HostSelection, now: f64) {
        let interval = |c: &HostSelection| c.outlier.map(|o| o.interval_s);
        if interval(&cfg) != interval(&self.cfg) {
            self.next_sweep = cfg.outlier.map_or(f64::INFINITY, |o| {
                let i = f64::from(o.interval_s);
                (libm::floor(now / i) + 1.0) * i
            });
        }
        if cfg.outlier.is_none() {
            self.pending.clear();
            for h in &mut self.hosts {
                *h = HostState {
                    member: h.member,
                    joined_at: h.joined_at,
                    ..HostState::default()
                };
            }
            self.ejected = 0;
        }
        self.cfg = cfg;
    }

    fn host(&mut self, i: usize) -> &mut HostState {
        if self.hosts.len() <= i {
            self.hosts.resize(i + 1, HostState::default());
        }
        &mut self.hosts[i]
    }

    /// Host `i` joins the cluster at `now` (`initial`: it was there before the run, out of
    /// its slow-start window).
    pub(crate) fn join(&mut self, i: usize, now: f64, initial: bool) {
        let h = self.host(i);
        if h.member {
            return;
        }
        *h = HostState {
            member: true,
            joined_at: if initial { f64::NEG_INFINITY } else { now },
            ..HostState::default()
        };
        self.members += 1;
        if !initial {
            self.latest_join = self.latest_join.max(now);
        }
    }

    /// Host `i` leaves the cluster: its monitor goes with it.
    pub(crate) fn leave(&mut self, i: usize) {
        let h = self.host(i);
        if !h.member {
            return;
        }
        let was_ejected = h.ejected;
        *h = HostState::default();
        self.members -= 1;
        if was_ejected {
            self.ejected -= 1;
        }
    }

    /// The hosts in the cluster.
    pub(crate) fn members(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.hosts.len() as u32).filter(|&i| self.hosts[i as usize].member)
    }

    pub(crate) fn is_member(&self, i: usize) -> bool {
        self.hosts.get(i).is_some_and(|h| h.member)
    }

    pub(crate) fn is_ejected(&self, i: usize) -> bool {
        self.hosts.get(i).is_some_and(|h| h.ejected)
    }

    /// Whether the share of hosts not ejected is below the panic threshold.
    pub(crate) fn panic(&self) -> bool {
        let healthy = if self.members == 0 {
            0.0
        } else {
            100.0 * f64::from(self.members - self.ejected) / f64::from(self.members)
        };
        healthy < self.cfg.panic_threshold_percent
    }

    /// Whether some host joined within the slow-start window (`noHostsAreInSlowStart`).
    pub(crate) fn any_in_slow_start(&self, now: f64) -> bool {
        self.cfg
            .slow_start
            .is_some_and(|s| now - self.latest_join <= s.window_s)
    }

    /// Host `i`'s slow-start factor at `now` (1 without slow start or past the window).
    pub(crate) fn slow_factor(&self, i: usize, now: f64) -> f64 {
        match (self.cfg.slow_start, self.hosts.get(i)) {
            (Some(s), Some(h)) if h.member => s.factor(now - h.joined_at),
            _ => 1.0,
        }
    }

    pub(crate) fn counts(&self, now: f64) -> HostCounts {
        let slow_start = match self.cfg.slow_start {
            Some(s) => self
                .hosts
                .iter()
                .filter(|h| h.member && now - h.joined_at < s.window_s)
                .count() as u32,
            None => 0,
        };
        HostCounts {
            ejections: self.ejections,
            ejected: self.ejected,
            panic: self.members > 0 && self.cfg.outlier.is_some() && self.panic(),
            slow_start,
        }
    }

    /// A response of host `i` that will come at `time` (known before its time): it counts
    /// once [`Health::settle`] reaches it.
    pub(crate) fn observe(&mut self, i: usize, time: f64, ok: bool) {
        if self.cfg.outlier.is_none() {
            return;
        }
        self.seq += 1;
        self.pending.push(Pending {
            time,
            seq: self.seq,
            item: (i as u32, ok),
        });
    }

    /// Brings the detector up to `now`: the outcomes and sweeps due by then, in time order (a
    /// sweep before an outcome at the same time). Whether the set of ejected hosts changed.
    pub(crate) fn settle(&mut self, now: f64) -> bool {
        let mut changed = false;
        loop {
            let outcome = self.pending.peek().map_or(f64::INFINITY, |p| p.time);
            if self.next_sweep <= now && self.next_sweep <= outcome {
                changed |= self.sweep();
            } else if outcome <= now {
                let Some(p) = self.pending.pop() else {
                    break;
                };
                let (host, ok) = p.item;
                changed |= self.apply(host as usize, p.time, ok);
            } else {
                break;
            }
        }
        changed
    }

    /// A response of host `i` at `now`, counted at once (the event list). Whether the set of
    /// ejected hosts changed.
    pub(crate) fn record(&mut self, i: usize, now: f64, ok: bool) -> bool {
        if self.cfg.outlier.is_none() {
            return false;
        }
        let swept = self.settle(now);
        self.apply(i, now, ok) || swept
    }

    fn apply(&mut self, i: usize, now: f64, ok: bool) -> bool {
        let Some(o) = self.cfg.outlier else {
            return false;
        };
        if !self.is_member(i) {
            return false;
        }
        let h = &mut self.hosts[i];
        if ok {
            h.consecutive = 0;
            return false;
        }
        h.consecutive += 1;
        if h.consecutive != o.consecutive_5xx || h.ejected {
            return false;
        }
        h.consecutive = 0;
        let share = 100.0 * f64::from(self.ejected + 1) / f64::from(self.members);
        let allowed = share <= f64::from(o.max_ejection_percent.min(100))
            || (self.cfg.always_eject_one_host && self.ejected == 0);
        if !allowed {
            return false;
        }
        let h = &mut self.hosts[i];
        h.ejected = true;
        h.ejected_at = now;
        if u64::from(h.backoff) * u64::from(o.base_ejection_s)
            < u64::from(o.max_ejection_s) + u64::from(o.base_ejection_s)
        {
            h.backoff += 1;
        }
        self.ejected += 1;
        self.ejections += 1;
        self.log(now, i, true);
        true
    }

    fn log(&mut self, at_s: f64, i: usize, ejected: bool) {
        if self.events.len() < MAX_HOST_EVENTS {
            self.events.push(HostEvent {
                at_s,
                instance: i as u32,
                ejected,
            });
        }
    }

    /// The sweep at `next_sweep`: hosts whose ejection has run its time come back; the others'
    /// backoff shrinks.
    fn sweep(&mut self) -> bool {
        let Some(o) = self.cfg.outlier else {
            self.next_sweep = f64::INFINITY;
            return false;
        };
        let now = self.next_sweep;
        let interval = f64::from(o.interval_s);
        let mut changed = false;
        for i in 0..self.hosts.len() {
            let h = &mut self.hosts[i];
            if h.member && h.ejected {
                let lasts = (u64::from(o.base_ejection_s) * u64::from(h.backoff))
                    .min(u64::from(o.max_ejection_s)) as f64;
                if lasts <= now - h.ejected_at {
                    h.ejected = false;
                    h.consecutive = 0;
                    h.unejected_at = Some(now);
                    self.ejected -= 1;
                    changed = true;
                    self.log(now, i, false);
                }
            }
        }
        for h in self.hosts.iter_mut().filter(|h| h.member && !h.ejected) {
            if h.unejected_at.is_some_and(|u| now - u >= interval) && h.backoff > 0 {
                h.backoff -= 1;
            }
        }
        self.next_sweep += interval;
        changed
    }
}

/// Envoy's earliest-deadline-first scheduler (`EdfScheduler`): each host has a deadline; a
/// pick takes the earliest (a tie to the first added), moves the clock there and puts the host
/// back 1 / weight later.
#[derive(Clone, Debug, Default)]
pub(crate) struct Edf {
    current: f64,
    order: u64,
    queue: BinaryHeap<EdfEntry>,
}

/// A host's next deadline in the scheduler.
type EdfEntry = Earliest<u32>;

impl Edf {
    pub(crate) fn add(&mut self, host: u32, weight: f64) {
        let weight = if weight > 0.0 {
            weight
        } else {
            f64::MIN_POSITIVE
        };
        self.order += 1;
        self.queue.push(EdfEntry {
            time: self.current + 1.0 / weight,
            seq: self.order,
            item: host,
        });
    }

    /// The next host, put back with its weight as `weight` gives it now.
    pub(crate) fn pick_and_add(&mut self, mut weight: impl FnMut(u32) -> f64) -> Option<u32> {
        let entry = self.queue.pop()?;
        self.current = entry.time;
        let w = weight(entry.item);
        self.add(entry.item, w);
        Some(entry.item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_factor_is_envoys() {
        let s = SlowStart::window(60.0);
        assert_eq!(s.factor(0.0), 0.1);
        assert_eq!(s.factor(30.0), 0.5);
        assert_eq!(s.factor(60.0), 1.0);
        let a = SlowStart {
            aggression: 2.0,
            ..s
        };
        assert!((a.factor(15.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn edf_serves_in_proportion_to_weight() {
        let mut edf = Edf::default();
        edf.add(0, 1.0);
        edf.add(1, 3.0);
        let mut counts = [0; 2];
        for _ in 0..4000 {
            let h = edf
                .pick_and_add(|h| if h == 0 { 1.0 } else { 3.0 })
                .unwrap();
            counts[h as usize] += 1;
        }
        assert_eq!(counts, [1000, 3000]);
    }

    #[test]
    fn ejection_cap_is_envoys() {
        let cfg = HostSelection {
            outlier: Some(OutlierConfig::default()),
            ..HostSelection::default()
        };
        // 15 hosts at 10 %: (0 + 1) / 15 = 6.7 % ≤ 10 %, (1 + 1) / 15 = 13 % is not.
        let mut h = Health::new(cfg, 0.0);
        for i in 0..15 {
            h.join(i, 0.0, true);
        }
        for i in 0..3 {
            for _ in 0..5 {
                h.record(i, 1.0, false);
            }
        }
        assert_eq!(h.counts(1.0).ejected, 1);
        // 5 hosts: not even one, unless always_eject_one_host.
        for always in [false, true] {
            let mut h = Health::new(
                HostSelection {
                    always_eject_one_host: always,
                    ..cfg
                },
                0.0,
            );
            for i in 0..5 {
                h.join(i, 0.0, true);
            }
            for i in 0..2 {
                for _ in 0..5 {
                    h.record(i, 1.0, false);
                }
            }
            assert_eq!(h.counts(1.0).ejected, u32::from(always));
        }
    }
}
