//! Routing: which instance takes a request (or a hedge), among the instances that take new
//! requests, by Envoy's policies.
//!
//! The hash policies build their table over the instances that take requests, each hashed
//! by its name ([`crate::balance::host_name`] of its index), so an instance that leaves moves
//! only the keys the table moves, and rebuild it whenever that set changes. A hedge goes to
//! another instance chosen by the same policy: round robin takes the next in turn, random and
//! least request draw among the instances not yet used by the request, ring hash walks on
//! along the ring to the next point of an unused instance, Maglev looks the key up again
//! rehashed with the attempt number (as Envoy's hash policies do when a retry must avoid the
//! hosts already tried).

use super::health::{Edf, Health, HostCounts, HostEvent, HostSelection};
use super::{draw_index, Routing, DEFAULT_CHOICE_COUNT, MAX_CHOICE_COUNT};
use crate::balance::{self, maglev::Maglev, ring::Ring, HashBalancer};
use crate::rng::Mulberry32;

/// How many draws among the unused instances random and least request make before they
/// take the first unused one in order.
const OTHER_TRIES: u32 = 16;

/// A table of a hash policy over the instances that take requests.
#[derive(Clone, Debug)]
enum Table {
    None,
    Ring(Ring),
    Maglev(Maglev),
}

pub(crate) struct Router {
    routing: Routing,
    /// When set, the hash policies take a key's number instead of its hash: each key's hash,
    /// and each key's position in `active` under the current table (rebuilt with it).
    keyed: Option<(Vec<u64>, Vec<u32>)>,
    /// Instances taking new requests, ascending.
    active: Vec<u32>,
    next_turn: usize,
    table: Table,
    /// Least request's number of choices d (Envoy's `choice_count`), 2 to
    /// [`MAX_CHOICE_COUNT`].
    choices: u32,
    /// Host selection around health ([`super::health`]); `None`: every instance in the
    /// cluster is routed to at its full weight, and `active` is the cluster.
    health: Option<Box<Health>>,
    /// With `health`: the instances in the cluster (taking new requests), ascending; `active`
    /// is those routed to (the ones not ejected, or all of them in panic).
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
            keyed: None,
            active,
            next_turn: 0,
            table: Table::None,
            choices: DEFAULT_CHOICE_COUNT,
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
        self.keyed = Some((hashes, Vec::new()));
        self.rebuild();
    }

    /// The hash of `key`: the key's hash when keys go by number, else `key` itself.
    fn hash_of(&self, key: u64) -> u64 {
        match &self.keyed {
            Some((hashes, _)) => hashes[key as usize],
            None => key,
        }
    }

    /// Least request draws `d` instances from now on (clamped to 2 ..= [`MAX_CHOICE_COUNT`]).
    pub(crate) fn set_choices(&mut self, d: u32) {
        self.choices = d.clamp(DEFAULT_CHOICE_COUNT, MAX_CHOICE_COUNT);
    }

    pub(crate) fn uses_keys(routing: Routing) -> bool {
        matches!(routing, Routing::RingHash | Routing::Maglev)
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
        if let Err(at) = self.active.binary_search(&instance) {
            self.active.insert(at, instance);
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
        if let Ok(at) = self.active.binary_search(&instance) {
            self.active.remove(at);
            if self.next_turn > at {
                self.next_turn -= 1;
            }
            self.rebuild();
        }
    }

    /// Host selection from `now` on. Turned on, it takes the instances taking requests as the
    /// cluster, there since before the run (out of their slow-start window).
    pub(crate) fn set_host_selection(&mut self, cfg: HostSelection, now: f64) {
        if cfg.is_off() {
            if self.health.take().is_some() {
                self.active = std::mem::take(&mut self.members);
                self.next_turn = 0;
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
                for &i in &self.active {
                    health.join(i as usize, now, true);
                }
                self.members = self.active.clone();
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
            if self.active.binary_search(&i).is_err() {
                health.leave(i as usize);
            }
        }
        for &i in &self.active {
            health.join(i as usize, now, old.is_empty());
        }
        self.members = self.active.clone();
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
        let edf = matches!(self.routing, Routing::RoundRobin | Routing::LeastRequest)
            && health.any_in_slow_start(now);
        if routed != self.active {
            // Round robin goes on from the instance that was next in turn.
            let next = self.active.get(self.next_turn).copied();
            self.active = routed;
            self.next_turn = next.map_or(0, |n| self.active.partition_point(|&i| i < n));
            self.rebuild();
        }
        self.edf = None;
        self.edf_due = edf;
    }

    /// The EDF's pick at the router's clock among the instances routed to (built first if due).
    fn edf_pick(&mut self, held: &mut impl FnMut(usize) -> usize) -> Option<usize> {
        let now = self.clock;
        let health = self.health.as_deref()?;
        let least_request = self.routing == Routing::LeastRequest;
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
            for &i in &self.active {
                edf.add(i, weight(i));
            }
            self.edf = Some(edf);
        }
        let edf = self.edf.as_mut()?;
        edf.pick_and_add(weight).map(|i| i as usize)
    }

    fn rebuild(&mut self) {
        if self.next_turn >= self.active.len() {
            self.next_turn = 0;
        }
        let names: Vec<String> = self
            .active
            .iter()
            .map(|&i| balance::host_name(i as usize))
            .collect();
        self.table = match self.routing {
            _ if self.active.is_empty() => Table::None,
            Routing::RingHash => Ring::new(&names, balance::ring::DEFAULT_MIN_RING_SIZE)
                .map_or(Table::None, Table::Ring),
            Routing::Maglev => Maglev::new(&names, balance::maglev::DEFAULT_TABLE_SIZE)
                .map_or(Table::None, Table::Maglev),
            _ => Table::None,
        };
        if let Some((hashes, positions)) = &mut self.keyed {
            positions.clear();
            if !matches!(self.table, Table::None) {
                let table = &self.table;
                positions.extend(hashes.iter().map(|&h| match table {
                    Table::Ring(ring) => ring.host_of(h) as u32,
                    Table::Maglev(m) => m.host_of(h) as u32,
                    Table::None => 0,
                }));
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
        let n = self.active.len();
        let position = match self.routing {
            _ if n <= 1 => 0,
            Routing::RoundRobin => {
                let t = self.next_turn;
                self.next_turn = if t + 1 == n { 0 } else { t + 1 };
                t
            }
            Routing::Random => draw_index(rng, n as u32),
            Routing::LeastRequest => return Some(self.least_of_choices(rng, &mut held)),
            Routing::RingHash | Routing::Maglev => return self.hashed(key_hash),
        };
        self.active.get(position).map(|&i| i as usize)
    }

    /// Least request among `n ≥ 2` instances as Envoy draws it (`least_request_lb.cc`,
    /// `unweightedHostPickNChoices`): d positions each drawn uniformly from all n, with
    /// replacement (two draws can be the same instance), and the instance holding the fewest
    /// requests among them; a tie goes to the first drawn.
    fn least_of_choices(
        &self,
        rng: &mut Mulberry32,
        held: &mut impl FnMut(usize) -> usize,
    ) -> usize {
        let n = self.active.len() as u32;
        let mut best = self.active[draw_index(rng, n)] as usize;
        let mut best_held = held(best);
        for _ in 1..self.choices {
            let candidate = self.active[draw_index(rng, n)] as usize;
            let candidate_held = held(candidate);
            if candidate_held < best_held {
                best = candidate;
                best_held = candidate_held;
            }
        }
        best
    }

    fn hashed(&self, key_hash: u64) -> Option<usize> {
        if let Some((_, positions)) = &self.keyed {
            let position = positions.get(key_hash as usize).copied().unwrap_or(0);
            return self.active.get(position as usize).map(|&i| i as usize);
        }
        let position = match &self.table {
            Table::Ring(ring) => ring.host_of(key_hash),
            Table::Maglev(table) => table.host_of(key_hash),
            Table::None => 0,
        };
        self.active.get(position).map(|&i| i as usize)
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
        let n = self.active.len();
        let unused = |i: u32| !used.contains(&i);
        if !self.active.iter().any(|&i| unused(i)) {
            return self.choose(rng, key_hash, held);
        }
        let key_hash = self.hash_of(key_hash);
        match self.routing {
            Routing::RoundRobin => {
                for _ in 0..n {
                    let t = self.next_turn;
                    self.next_turn = if t + 1 == n { 0 } else { t + 1 };
                    if unused(self.active[t]) {
                        return Some(self.active[t] as usize);
                    }
                }
                None
            }
            Routing::Random => Some(self.draw_unused(rng, used)),
            Routing::LeastRequest => {
                // d distinct unused instances (fewer when fewer are left), each drawn by
                // rejection or, after OTHER_TRIES draws, the first left in order.
                let a = self.draw_unused(rng, used);
                let mut chosen = [0u32; MAX_CHOICE_COUNT as usize];
                chosen[0] = a as u32;
                let (mut best, mut best_held) = (a, held(a));
                for k in 1..self.choices as usize {
                    let fresh = |i: u32| unused(i) && !chosen[..k].contains(&i);
                    if !self.active.iter().any(|&i| fresh(i)) {
                        break;
                    }
                    let drawn = (0..OTHER_TRIES)
                        .map(|_| self.active[draw_index(rng, n as u32)])
                        .find(|&i| fresh(i));
                    let Some(b) = drawn.or_else(|| self.active.iter().copied().find(|&i| fresh(i)))
                    else {
                        break;
                    };
                    chosen[k] = b;
                    let b_held = held(b as usize);
                    if b_held < best_held {
                        best = b as usize;
                        best_held = b_held;
                    }
                }
                Some(best)
            }
            Routing::RingHash => {
                let Table::Ring(ring) = &self.table else {
                    return self.hashed(key_hash);
                };
                let points = ring.points();
                let start = points.partition_point(|&(p, _)| p < key_hash);
                (0..points.len())
                    .map(|k| points[(start + k) % points.len()].1)
                    .map(|position| self.active[position as usize])
                    .find(|&i| unused(i))
                    .map(|i| i as usize)
            }
            Routing::Maglev => {
                let Table::Maglev(table) = &self.table else {
                    return self.hashed(key_hash);
                };
                for attempt in 1..=u64::from(OTHER_TRIES) {
                    let h = balance::hash::xxh64(&key_hash.to_le_bytes(), attempt);
                    let i = self.active[table.host_of(h)];
                    if unused(i) {
                        return Some(i as usize);
                    }
                }
                self.active
                    .iter()
                    .find(|&&i| unused(i))
                    .map(|&i| i as usize)
            }
        }
    }

    /// An instance not in `used` (one exists), drawn uniformly by rejection, or the first
    /// unused one after [`OTHER_TRIES`] draws.
    fn draw_unused(&self, rng: &mut Mulberry32, used: &[u32]) -> usize {
        let n = self.active.len() as u32;
        for _ in 0..OTHER_TRIES {
            let i = self.active[draw_index(rng, n)];
            if !used.contains(&i) {
                return i as usize;
            }
        }
        self.active
            .iter()
            .find(|i| !used.contains(i))
            .map_or(0, |&i| i as usize)
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
