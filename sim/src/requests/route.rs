//! Routing: which instance takes a request (or a hedge), among the instances that take new
//! requests, by Envoy's policies.
//!
//! Each policy picks through its file in [`crate::balance`] (the registry's `Picker`); the
//! router keeps what they share: the instances taking requests, the turn, host selection
//! around health. A hash policy's table is built over the instances that take requests, each
//! hashed by its name ([`crate::balance::host_name`] of its index), so an instance that
//! leaves moves only the keys the table moves, and rebuilt whenever that set changes. A hedge
//! goes to another instance chosen by the same policy.

use super::health::{Edf, Health, HostCounts, HostEvent, HostSelection};
use super::{Routing, DEFAULT_CHOICE_COUNT, MAX_CHOICE_COUNT};
use crate::balance::{Hosts, Picker};
use crate::rng::Mulberry32;

pub(crate) struct Router {
    routing: Routing,
    /// The instances routed to, the turn, the number of choices and the keys by number.
    hosts: Hosts,
    /// The policy's state over `hosts.active` (a hash policy's table), rebuilt with it.
    picker: Picker,
    /// Host selection around health ([`super::health`]); `None`: every instance in the
    /// cluster is routed to at its full weight, and `hosts.active` is the cluster.
    health: Option<Box<Health>>,
    /// With `health`: the instances in the cluster (taking new requests), ascending;
    /// `hosts.active` is those routed to (the ones not ejected, or all of them in panic).
    members: Vec<u32>,
    /// The EDF scheduler of slow start, when the last refresh found a host in its window
    /// (`edf_due`: to be built at the next pick, which knows the requests each host holds).
    edf: Option<Edf>,
    edf_due: bool,
    /// The time of the last change or settling (slow start's weights read it).
    clock: f64,
    /// Whether the balancer is in panic, and then fails every request.
    panic: bool,
    fail: bool,
}

impl Router {
    pub(crate) fn new(routing: Routing, active: Vec<u32>) -> Self {
        let mut router = Router {
            routing,
            picker: Picker::build(routing, &[]),
            hosts: Hosts {
                active,
                next_turn: 0,
                choices: DEFAULT_CHOICE_COUNT,
                keyed: None,
            },
            health: None,
            members: Vec::new(),
            edf: None,
            edf_due: false,
            clock: 0.0,
            panic: false,
            fail: false,
        };
        router.rebuild();
        router
    }

    /// The hash policies read keys by number from now on, over keys with these hashes (a
    /// table lookup per request instead of a search of the ring or a division).
    pub(crate) fn index_keys(&mut self, hashes: Vec<u64>) {
        self.hosts.keyed = Some((hashes, Vec::new()));
        self.rebuild();
    }

    /// The hash of `key`: the key's hash when keys go by number, else `key` itself.
    fn hash_of(&self, key: u64) -> u64 {
        match &self.hosts.keyed {
            Some((hashes, _)) => hashes[key as usize],
            None => key,
        }
    }

    /// Least request draws `d` instances from now on (clamped to 2 ..= [`MAX_CHOICE_COUNT`]).
    pub(crate) fn set_choices(&mut self, d: u32) {
        self.hosts.choices = d.clamp(DEFAULT_CHOICE_COUNT, MAX_CHOICE_COUNT);
    }

    pub(crate) fn uses_keys(routing: Routing) -> bool {
        routing.hashes_keys()
    }

    /// `instance` takes new requests from now on (it joins the cluster at `now`).
    pub(crate) fn add(&mut self, instance: u32, now: f64) {
        if let Some(health) = &mut self.health {
            if let Err(at) = self.members.binary_search(&instance) {
                self.members.insert(at, instance);
                health.join(instance as usize, now, false);
                self.refresh(now);
            }
            return;
        }
        if let Err(at) = self.hosts.active.binary_search(&instance) {
            self.hosts.active.insert(at, instance);
            self.rebuild();
        }
    }

    /// `instance` takes no new requests from now on (it leaves the cluster at `now`).
    pub(crate) fn remove(&mut self, instance: u32, now: f64) {
        if let Some(health) = &mut self.health {
            if let Ok(at) = self.members.binary_search(&instance) {
                self.members.remove(at);
                health.leave(instance as usize);
                self.refresh(now);
            }
            return;
        }
        if let Ok(at) = self.hosts.active.binary_search(&instance) {
            self.hosts.active.remove(at);
            if self.hosts.next_turn > at {
                self.hosts.next_turn -= 1;
            }
            self.rebuild();
        }
    }

    /// Host selection from `now` on. Turned on, it takes the instances taking requests as the
    /// cluster, there since before the run (out of their slow-start window).
    pub(crate) fn set_host_selection(&mut self, cfg: HostSelection, now: f64) {
        if cfg.is_off() {
            if self.health.take().is_some() {
                self.hosts.active = std::mem::take(&mut self.members);
                self.hosts.next_turn = 0;
                self.edf = None;
                self.edf_due = false;
                self.panic = false;
                self.fail = false;
                self.rebuild();
            }
            return;
        }
        match &mut self.health {
            Some(health) => {
                if health.cfg != cfg {
                    health.set_config(cfg, now);
                    self.refresh(now);
                }
            }
            None => {
                let mut health = Health::new(cfg, now);
                for &i in &self.hosts.active {
                    health.join(i as usize, now, true);
                }
                self.members = self.hosts.active.clone();
                self.health = Some(Box::new(health));
                self.refresh(now);
            }
        }
    }

    /// Takes the health state out (to carry it to a new router).
    pub(crate) fn take_health(&mut self) -> Option<Box<Health>> {
        self.health.take()
    }

    /// Carries `health` (from the router this one replaces) over to the instances this one
    /// routes to: those no longer in the cluster leave it, the new ones join at `now`.
    pub(crate) fn adopt_health(&mut self, health: Option<Box<Health>>, now: f64) {
        let Some(mut health) = health else {
            return;
        };
        let old: Vec<u32> = health.members().collect();
        for &i in &old {
            if self.hosts.active.binary_search(&i).is_err() {
                health.leave(i as usize);
            }
        }
        for &i in &self.hosts.active {
            health.join(i as usize, now, old.is_empty());
        }
        self.members = self.hosts.active.clone();
        self.health = Some(health);
        self.refresh(now);
    }

    /// Brings outlier detection up to `now` (the responses due by then, the sweeps).
    pub(crate) fn settle(&mut self, now: f64) {
        self.clock = self.clock.max(now);
        if let Some(health) = &mut self.health {
            if health.settle(now) {
                self.refresh(now);
            }
        }
    }

    /// A response of `instance` that comes at `time`, known before its time: it counts when
    /// [`Router::settle`] reaches it.
    ///
    /// Callers settle the router at each arrival's time before they choose, so that the
    /// choice sees the health and the slow-start weights of that moment.
    pub(crate) fn observe(&mut self, instance: usize, time: f64, ok: bool) {
        if let Some(health) = &mut self.health {
            health.observe(instance, time, ok);
        }
    }

    /// A response of `instance` at `now`.
    pub(crate) fn record(&mut self, instance: usize, now: f64, ok: bool) {
        self.clock = self.clock.max(now);
        if let Some(health) = &mut self.health {
            if health.record(instance, now, ok) {
                self.refresh(now);
            }
        }
    }

    /// Whether host selection is on.
    pub(crate) fn host_selection_on(&self) -> bool {
        self.health.is_some()
    }

    /// Whether outlier detection is on (the responses are to be reported).
    pub(crate) fn detects_outliers(&self) -> bool {
        self.health
            .as_ref()
            .is_some_and(|h| h.cfg.outlier.is_some())
    }

    /// What host selection did so far and how things stand at `now`.
    pub(crate) fn host_counts(&self, now: f64) -> HostCounts {
        self.health.as_ref().map_or_else(HostCounts::default, |h| {
            let mut counts = h.counts(now);
            counts.panic = self.panic && h.cfg.outlier.is_some();
            counts
        })
    }

    /// The ejections and returns so far.
    pub(crate) fn host_events(&self) -> &[HostEvent] {
        self.health.as_ref().map_or(&[], |h| &h.events)
    }

    /// After a change of the cluster or of a host's health (Envoy's refresh of the host set):
    /// the instances routed to, panic, and whether slow start schedules by EDF.
    fn refresh(&mut self, now: f64) {
        self.clock = self.clock.max(now);
        let Some(health) = &self.health else {
            return;
        };
        self.panic = health.panic();
        self.fail = self.panic && health.cfg.fail_traffic_on_panic;
        let routed: Vec<u32> = if self.panic {
            self.members.clone()
        } else {
            self.members
                .iter()
                .copied()
                .filter(|&i| !health.is_ejected(i as usize))
                .collect()
        };
        let edf = self.routing.weighted() && health.any_in_slow_start(now);
        if routed != self.hosts.active {
            // Round robin goes on from the instance that was next in turn.
            let next = self.hosts.active.get(self.hosts.next_turn).copied();
            self.hosts.active = routed;
            self.hosts.next_turn =
                next.map_or(0, |n| self.hosts.active.partition_point(|&i| i < n));
            self.rebuild();
        }
        self.edf = None;
        self.edf_due = edf;
    }

    /// The EDF's pick at the router's clock among the instances routed to (built first if due).
    fn edf_pick(&mut self, held: &mut impl FnMut(usize) -> usize) -> Option<usize> {
        let now = self.clock;
        let health = self.health.as_deref()?;
        let least_request = self.routing.reads_held();
        let bias = health.cfg.active_request_bias;
        let mut weight = |i: u32| {
            let base = if least_request && bias != 0.0 {
                let load = held(i as usize) as f64 + 1.0;
                if bias == 1.0 {
                    1.0 / load
                } else {
                    1.0 / libm::pow(load, bias)
                }
            } else {
                1.0
            };
            base * health.slow_factor(i as usize, now)
        };
        if self.edf_due {
            self.edf_due = false;
            let mut edf = Edf::default();
            for &i in &self.hosts.active {
                edf.add(i, weight(i));
            }
            self.edf = Some(edf);
        }
        let edf = self.edf.as_mut()?;
        edf.pick_and_add(weight).map(|i| i as usize)
    }

    fn rebuild(&mut self) {
        if self.hosts.next_turn >= self.hosts.active.len() {
            self.hosts.next_turn = 0;
        }
        self.picker = Picker::build(self.routing, &self.hosts.active);
        if let Some((hashes, positions)) = &mut self.hosts.keyed {
            positions.clear();
            if let Some(table) = self.picker.table() {
                positions.extend(hashes.iter().map(|&h| table.host_of(h) as u32));
            }
        }
    }

    /// The instance of a new request with key hash `key_hash` (ignored by the policies that
    /// do not hash); `held(i)` counts the requests instance i holds. `None` when no instance
    /// takes requests.
    pub(crate) fn choose(
        &mut self,
        rng: &mut Mulberry32,
        key_hash: u64,
        mut held: impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        if self.health.is_some() {
            if self.fail {
                return None;
            }
            if self.edf_due || self.edf.is_some() {
                return self.edf_pick(&mut held);
            }
        }
        if self.hosts.active.len() <= 1 {
            return self.hosts.at(0);
        }
        self.picker.pick(&mut self.hosts, rng, key_hash, &mut held)
    }

    /// The instance of a hedge of a request with key hash `key_hash` that already went to the
    /// instances in `used`: another one by the same policy, or, when every instance taking
    /// requests is used, the one the policy would choose for a new request.
    pub(crate) fn choose_other(
        &mut self,
        rng: &mut Mulberry32,
        key_hash: u64,
        used: &[u32],
        mut held: impl FnMut(usize) -> usize,
    ) -> Option<usize> {
        if self.fail {
            // In panic with fail_traffic_on_panic no host is chosen, for a hedge either.
            return None;
        }
        if !self.hosts.active.iter().any(|i| !used.contains(i)) {
            return self.choose(rng, key_hash, held);
        }
        let key_hash = self.hash_of(key_hash);
        self.picker
            .pick_other(&mut self.hosts, rng, key_hash, used, &mut held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two instances, the first holding 5 requests and the second none: Envoy's two choices,
    /// drawn with replacement, both land on the first a quarter of the time, and then it gets
    /// the request (distinct draws would always find the idle one).
    #[test]
    fn least_request_draws_its_choices_with_replacement() {
        let mut router = Router::new(Routing::LeastRequest, vec![0, 1]);
        let mut rng = Mulberry32::new(7);
        let draws = 40_000;
        let busy_chosen = (0..draws)
            .filter(|_| router.choose(&mut rng, 0, |i| if i == 0 { 5 } else { 0 }) == Some(0))
            .count();
        let share = busy_chosen as f64 / f64::from(draws);
        assert!((share - 0.25).abs() < 0.01, "{share}");
        // Three choices: all three on the busy one, an eighth of the time.
        router.set_choices(3);
        let busy_chosen = (0..draws)
            .filter(|_| router.choose(&mut rng, 0, |i| if i == 0 { 5 } else { 0 }) == Some(0))
            .count();
        let share = busy_chosen as f64 / f64::from(draws);
        assert!((share - 0.125).abs() < 0.01, "{share}");
        // A tie goes to the first drawn: equal loads split evenly.
        let first = (0..draws)
            .filter(|_| router.choose(&mut rng, 0, |_| 1) == Some(0))
            .count();
        let share = first as f64 / f64::from(draws);
        assert!((share - 0.5).abs() < 0.01, "{share}");
    }
}
