//! The engine through an event list, for hedged requests.
//!
//! A hedge is sent after the hedge delay, so it joins its instance's queue later than
//! requests that arrive meanwhile, and when a copy wins, the copies still waiting leave their
//! queues: neither fits the arrival-time approach. Here each instance keeps its FIFO queue of
//! copies and its busy workers; the events (a service ends, a hedge timer fires, a total
//! timeout expires) sit in a binary heap, merged in time order with the Poisson arrivals and
//! the instances' changes. A copy waiting longer than the patience has given up: as every copy
//! has the same patience, those are always at the front of their queue, and they are taken
//! off there whenever the queue is read.
//!
//! Requests and copies live in two slabs whose slots are reused, so memory grows with the
//! requests in the system at once, not with the run. Draws come from the same streams as the
//! arrival-time engine, in the same order for everything but the hedges: without hedging both
//! give the same requests the same fates.

use super::arrivals::ArrivalFleet;
use super::heap::Earliest;
use super::hedging::{Hedging, TokenBucket};
use super::keys::ServiceShape;
use super::route::Router;
use super::streams::Streams;
use super::tally::{utilization, Outcome, Tally};
use super::{
    ChangeKind, InstanceChange, Options, Plan, RunConfig, RunError, RunOutcome, SlowInstance,
    TimeoutScope,
};
use std::collections::{BinaryHeap, VecDeque};

/// No copy.
const NONE: u32 = u32::MAX;
/// Instances a request remembers having used, so its hedges go elsewhere.
const USED: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// In its instance's queue.
    Waiting,
    /// A worker serves it.
    Serving,
    /// Taken out of the game while still in a queue: the slot leaves the queue when read.
    Cancelled,
    /// Done, given up, rejected or cut; out of every queue.
    Finished,
}

#[derive(Clone, Copy, Debug)]
struct CopyOf {
    request: u32,
    request_generation: u32,
    instance: u32,
    /// The next copy of the same request.
    next: u32,
    sent: f64,
    start: f64,
    /// The drawn service time; once in service, times the slow factor.
    service: f64,
    state: State,
    hedge: bool,
}

#[derive(Clone, Copy, Debug)]
struct Request {
    arrival: f64,
    key_hash: u64,
    first: u32,
    generation: u32,
    /// Copies waiting or in service.
    live: u32,
    resolved: bool,
    /// Whether it was resolved by a copy served to the end (not by a timeout, a reset or a
    /// rejection).
    succeeded: bool,
    counted: bool,
    /// Whether its total timeout is already on the list of deadlines.
    deadline_set: bool,
    used: [u32; USED],
    n_used: usize,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    pub(crate) busy: usize,
    /// Copies in the queue that are still waiting (the cancelled ones not counted).
    pub(crate) waiting: usize,
    queue: VecDeque<u32>,
    stopped: bool,
    /// Worker time spent busy up to `since`, s.
    pub(crate) busy_time: f64,
    since: f64,
    /// Workers held by work committed before the event list took over (no request of its
    /// own; see [`Engine::add_phantom`]).
    phantoms: usize,
}

impl Node {
    /// The busy count changes by `delta` at `now`.
    fn busy_by(&mut self, delta: isize, now: f64) {
        debug_assert!(now >= self.since, "busy_by at {now} before {}", self.since);
        self.busy_time += self.busy as f64 * (now - self.since);
        self.since = now;
        self.busy = self.busy.saturating_add_signed(delta);
    }

    /// Brings the busy time up to `now`.
    pub(crate) fn busy_until(&mut self, now: f64) {
        self.busy_by(0, now);
    }
}

/// A service ends: a copy's (served to the end, or cut at its deadline), or a phantom's on an
/// instance.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Done(u32),
    /// A copy still in service at its deadline (its sending + the request timeout, when the
    /// timeout bounds the whole call): cut, its worker freed.
    Expire(u32),
    Phantom(u32),
    /// A copy sent at `sent` reaches its patience while still waiting (scheduled only when
    /// outlier detection is on, which charges the timeout to its instance then).
    GiveUp {
        copy: u32,
        sent: f64,
    },
}

/// A pending event of the list: a service's end (or cut), a give-up, a phantom's end.
type Event = Earliest<Kind>;

/// A hedge timer or a total timeout of a request (of the given generation). Both are set at
/// the current time plus a fixed delay, so each list is in time order as it is filled; a
/// delay changed between ticks may break the order, and the timer is then put in its place.
#[derive(Clone, Copy, Debug)]
struct Timer {
    time: f64,
    request: u32,
    generation: u32,
}

/// The earlier of two times (neither is NaN): a plain comparison, which the hot loops need
/// (`f64::min` may become a library call for its NaN rule).
#[inline]
pub(crate) fn earlier(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// Adds `timer` to a list in time order.
fn schedule(list: &mut VecDeque<Timer>, timer: Timer) {
    if list.back().is_none_or(|last| last.time <= timer.time) {
        list.push_back(timer);
    } else {
        let at = list.partition_point(|t| t.time <= timer.time);
        list.insert(at, timer);
    }
}

/// How a request ends.
#[derive(Clone, Copy, Debug)]
enum End {
    Success(u32),
    Timeout,
    Reset,
    Rejected,
}

/// What happened to a copy offered to an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Admit {
    Started,
    Queued,
    Rejected,
}

/// The state of the event list: the requests in the system, each instance's queue and busy
/// workers, the pending events and the bucket. It carries over from one call to the next.
pub(crate) struct Engine {
    /// Worker slots of each instance.
    pub(crate) slots: usize,
    /// Requests an instance holds at most (`None`: no limit).
    pub(crate) cap: Option<usize>,
    pub(crate) slow: Option<SlowInstance>,
    pub(crate) service: ServiceShape,
    /// Mean service time, s.
    pub(crate) service_mean: f64,
    pub(crate) hedging: Option<Hedging>,
    copies: Vec<CopyOf>,
    free_copies: Vec<u32>,
    requests: Vec<Request>,
    free_requests: Vec<u32>,
    pub(crate) nodes: Vec<Node>,
    heap: BinaryHeap<Event>,
    hedge_timers: VecDeque<Timer>,
    deadlines: VecDeque<Timer>,
    /// Requests whose hedge fell due while the bucket was empty, first come first served:
    /// they wait for a token instead of looking again every delay (`time`: when they began
    /// to wait). Entries of requests that ended meanwhile are skipped when reached.
    awaiting_token: VecDeque<Timer>,
    /// When the first of [`Engine::awaiting_token`] takes the token a success brought
    /// (`None`: no token to hand out, or no request waiting).
    token_wake: Option<f64>,
    seq: u64,
    pub(crate) tally: Tally,
    pub(crate) bucket: Option<TokenBucket>,
    pub(crate) patience: f64,
    /// What the patience bounds: each copy's whole call (from its sending) or its wait.
    pub(crate) scope: TimeoutScope,
    total_timeout: f64,
    pub(crate) busy_total: usize,
    pub(crate) capacity_now: usize,
    pub(crate) events: u64,
    /// Whether the instances' responses are reported to outlier detection (a waiting copy's
    /// timeout then has its own event).
    pub(crate) report: bool,
}

impl Engine {
    /// An empty system of `instances` instances.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        instances: usize,
        slots: usize,
        cap: Option<usize>,
        service: ServiceShape,
        service_mean: f64,
        patience: f64,
        hedging: Option<Hedging>,
        tally: Tally,
    ) -> Self {
        Engine {
            slots,
            cap,
            slow: None,
            service,
            service_mean,
            hedging,
            copies: Vec::new(),
            free_copies: Vec::new(),
            requests: Vec::new(),
            free_requests: Vec::new(),
            nodes: (0..instances).map(|_| Node::default()).collect(),
            heap: BinaryHeap::new(),
            hedge_timers: VecDeque::new(),
            deadlines: VecDeque::new(),
            awaiting_token: VecDeque::new(),
            token_wake: None,
            seq: 0,
            tally,
            bucket: hedging.as_ref().map(TokenBucket::of),
            patience,
            scope: TimeoutScope::default(),
            total_timeout: hedging.map_or(f64::INFINITY, |h| h.total_timeout()),
            busy_total: 0,
            capacity_now: 0,
            events: 0,
            report: false,
        }
    }

    /// The event list that takes over from the arrival-time `fleet` at `now`, without
    /// hedging yet: each worker's committed work stays as a busy worker until its free time.
    pub(crate) fn take_over(
        fleet: &ArrivalFleet,
        now: f64,
        service: ServiceShape,
        service_mean: f64,
        patience: f64,
    ) -> Self {
        let tally = Tally::new(1, 0);
        let mut engine = Engine::new(
            0,
            fleet.slots,
            fleet.cap,
            service,
            service_mean,
            patience,
            None,
            tally,
        );
        for (i, inst) in fleet.instances.iter().enumerate() {
            engine.add_node(now);
            for free in inst.busy.iter().filter(|&f| f > now) {
                engine.add_phantom(i, now, free);
            }
        }
        engine
    }

    /// Hedging from now on (`None`: off). The bucket is kept while hedging stays on, and
    /// starts as the configuration says when it is turned on.
    pub(crate) fn set_hedging(&mut self, hedging: Option<Hedging>) {
        match (self.hedging, hedging) {
            (None, Some(h)) => self.bucket = Some(TokenBucket::of(&h)),
            (Some(old), Some(h))
                if old.max_tokens != h.max_tokens || old.refill_ratio != h.refill_ratio =>
            {
                let tokens = self.bucket.map_or(h.initial(), |b| b.tokens());
                self.bucket = Some(TokenBucket::new(h.max_tokens, h.refill_ratio, tokens));
            }
            (_, None) => {
                self.bucket = None;
                self.awaiting_token.clear();
                self.token_wake = None;
            }
            _ => {}
        }
        self.hedging = hedging;
        self.total_timeout = hedging.map_or(f64::INFINITY, |h| h.total_timeout());
    }

    /// One more instance, with every worker free.
    pub(crate) fn add_node(&mut self, now: f64) {
        self.tally.served_by.push(0);
        self.nodes.push(Node {
            since: now,
            ..Node::default()
        });
    }

    /// A worker of instance `i` busy until `until` with work committed before the event list
    /// took over (its request's fate was counted then).
    pub(crate) fn add_phantom(&mut self, i: usize, now: f64, until: f64) {
        self.nodes[i].busy_by(1, now);
        self.nodes[i].phantoms += 1;
        self.busy_total += 1;
        self.push(until, Kind::Phantom(i as u32));
    }

    /// Copies waiting in instance `i`'s queue at `now`.
    pub(crate) fn queued(&mut self, i: usize, now: f64) -> usize {
        self.purge(i, now);
        self.nodes[i].waiting
    }

    /// The times of the next pending event of each kind (∞: none): a service's end (or a
    /// cut, a give-up, a phantom's end), a hedge timer, a total timeout, a token's wake.
    #[inline]
    fn heads(&self) -> [f64; 4] {
        let done = self.heap.peek().map_or(f64::INFINITY, |e| e.time);
        let hedge = self.hedge_timers.front().map_or(f64::INFINITY, |t| t.time);
        let deadline = self.deadlines.front().map_or(f64::INFINITY, |t| t.time);
        let wake = self.token_wake.unwrap_or(f64::INFINITY);
        [done, hedge, deadline, wake]
    }

    /// The time of the next event, ∞ when none is pending.
    pub(crate) fn next_time(&self) -> f64 {
        let [done, hedge, deadline, wake] = self.heads();
        earlier(earlier(earlier(done, hedge), deadline), wake)
    }

    fn push(&mut self, time: f64, kind: Kind) {
        self.seq += 1;
        self.heap.push(Event {
            time,
            seq: self.seq,
            item: kind,
        });
    }

    fn new_request(&mut self, arrival: f64, key_hash: u64, counted: bool) -> u32 {
        let fresh = Request {
            arrival,
            key_hash,
            first: NONE,
            generation: 0,
            live: 0,
            resolved: false,
            succeeded: false,
            counted,
            deadline_set: false,
            used: [NONE; USED],
            n_used: 0,
        };
        match self.free_requests.pop() {
            Some(r) => {
                let generation = self.requests[r as usize].generation;
                self.requests[r as usize] = Request {
                    generation,
                    ..fresh
                };
                r
            }
            None => {
                self.requests.push(fresh);
                (self.requests.len() - 1) as u32
            }
        }
    }

    fn new_copy(&mut self, r: u32, instance: usize, sent: f64, service: f64, hedge: bool) -> u32 {
        let req = &mut self.requests[r as usize];
        let copy = CopyOf {
            request: r,
            request_generation: req.generation,
            instance: instance as u32,
            next: req.first,
            sent,
            start: sent,
            service,
            state: State::Finished,
            hedge,
        };
        req.live += 1;
        if req.n_used < USED {
            req.used[req.n_used] = instance as u32;
            req.n_used += 1;
        }
        let c = match self.free_copies.pop() {
            Some(c) => {
                self.copies[c as usize] = copy;
                c
            }
            None => {
                self.copies.push(copy);
                (self.copies.len() - 1) as u32
            }
        };
        self.requests[r as usize].first = c;
        c
    }

    /// A copy out of every queue and done with: its slot is reused once its request is gone
    /// (until then the request's list of copies still passes through it).
    fn release_copy(&mut self, c: u32) {
        let copy = &mut self.copies[c as usize];
        copy.state = State::Finished;
        if self.requests[copy.request as usize].generation != copy.request_generation {
            self.free_copies.push(c);
        }
    }

    /// Frees a resolved request without live copies, and those of its copies that are out of
    /// every queue.
    fn maybe_free_request(&mut self, r: u32) {
        let req = self.requests[r as usize];
        if !req.resolved || req.live > 0 {
            return;
        }
        let mut c = req.first;
        while c != NONE {
            let copy = self.copies[c as usize];
            if copy.state == State::Finished {
                self.free_copies.push(c);
            }
            c = copy.next;
        }
        self.requests[r as usize].generation = req.generation.wrapping_add(1);
        self.free_requests.push(r);
    }

    /// Takes the copies that have given up or were cancelled off the front of a queue.
    fn purge(&mut self, i: usize, now: f64) {
        while let Some(&c) = self.nodes[i].queue.front() {
            let copy = self.copies[c as usize];
            match copy.state {
                State::Cancelled => {
                    self.nodes[i].queue.pop_front();
                    self.release_copy(c);
                }
                State::Waiting if now - copy.sent > self.patience => {
                    self.nodes[i].queue.pop_front();
                    self.nodes[i].waiting -= 1;
                    self.events += 1;
                    self.drop_copy(c);
                    self.after_copy(copy.request, End::Timeout, now);
                }
                _ => break,
            }
        }
    }

    /// Requests instance `i` holds at `now`, in service and waiting.
    fn held(&mut self, i: usize, now: f64) -> usize {
        self.purge(i, now);
        self.nodes[i].busy + self.nodes[i].waiting
    }

    fn admit(&mut self, c: u32, i: usize, now: f64) -> Admit {
        let held = self.held(i, now);
        if self.cap.is_some_and(|cap| held >= cap) {
            return Admit::Rejected;
        }
        if self.nodes[i].busy < self.slots {
            self.start(c, now);
            Admit::Started
        } else {
            self.copies[c as usize].state = State::Waiting;
            self.nodes[i].queue.push_back(c);
            self.nodes[i].waiting += 1;
            if self.report && self.patience.is_finite() {
                let sent = self.copies[c as usize].sent;
                self.push(sent + self.patience, Kind::GiveUp { copy: c, sent });
            }
            Admit::Queued
        }
    }

    fn start(&mut self, c: u32, now: f64) {
        let copy = &mut self.copies[c as usize];
        let i = copy.instance as usize;
        copy.state = State::Serving;
        copy.start = now;
        copy.service *= SlowInstance::factor_at(self.slow.as_ref(), i, now);
        let done = now + copy.service;
        let deadline = self.scope.deadline(copy.sent, self.patience);
        self.nodes[i].busy_by(1, now);
        self.busy_total += 1;
        if done > deadline {
            self.push(deadline, Kind::Expire(c));
        } else {
            self.push(done, Kind::Done(c));
        }
    }

    /// Copy `c` leaves service at `now`: served to the end (`served`), or cut at its
    /// deadline (the attempt fails and its worker is freed). The request ends with it when
    /// no other copy is left: answered, timed out, or reset when its instance stopped
    /// meanwhile (its worker was given back then).
    fn on_service_end(&mut self, c: u32, now: f64, served: bool) {
        let copy = self.copies[c as usize];
        let i = copy.instance as usize;
        let r = copy.request;
        self.requests[r as usize].live -= 1;
        if self.nodes[i].stopped {
            self.release_copy(c);
            self.after_copy(r, End::Reset, now);
            return;
        }
        self.nodes[i].busy_by(-1, now);
        self.busy_total -= 1;
        if served {
            self.on_served(c, r, i, now);
            self.release_copy(c);
            self.maybe_free_request(r);
        } else {
            self.release_copy(c);
            self.after_copy(r, End::Timeout, now);
        }
        self.next_in_queue(i, now);
    }

    /// Copy `c` of request `r` was served to the end on instance `i`: the answer, or a
    /// duplicate of one.
    fn on_served(&mut self, c: u32, r: u32, i: usize, now: f64) {
        let req = self.requests[r as usize];
        if req.counted {
            self.tally.served_by[i] += 1;
        }
        if req.resolved {
            // Served after its request's answer: a duplicate. After a failure (its total
            // timeout, a reset) it is wasted work but duplicates no answer.
            if req.counted && req.succeeded {
                self.tally.duplicates += 1;
            }
        } else {
            self.resolve(r, End::Success(c), now);
        }
    }

    /// A worker of instance `i` came free at `now`: the first copy still waiting takes it.
    fn next_in_queue(&mut self, i: usize, now: f64) {
        self.purge(i, now);
        if let Some(next) = self.nodes[i].queue.pop_front() {
            self.nodes[i].waiting -= 1;
            self.start(next, now);
        }
    }

    /// A copy that was refused, could not be placed, gave up or was cut while waiting.
    fn drop_copy(&mut self, c: u32) {
        let r = self.copies[c as usize].request;
        self.requests[r as usize].live -= 1;
        self.release_copy(c);
    }

    /// A copy of request `r` is gone: the request ends with `end` when it was its last,
    /// and is freed once done with.
    fn after_copy(&mut self, r: u32, end: End, now: f64) {
        let req = self.requests[r as usize];
        if !req.resolved && req.live == 0 {
            self.resolve(r, end, now);
        }
        self.maybe_free_request(r);
    }

    /// Request `r` ends with `end` now, whatever its copies still do.
    fn end_request(&mut self, r: u32, end: End, now: f64) {
        self.resolve(r, end, now);
        self.maybe_free_request(r);
    }

    fn resolve(&mut self, r: u32, end: End, now: f64) {
        let req = self.requests[r as usize];
        self.requests[r as usize].resolved = true;
        let counted = req.counted;
        let outcome = match end {
            End::Success(c) => {
                self.requests[r as usize].succeeded = true;
                self.on_success(now);
                let copy = self.copies[c as usize];
                if counted {
                    // Before the winning copy's wait in its queue, the time until it was sent
                    // (0 for the first copy, sent at the arrival).
                    self.tally.hedge_wait_sum += copy.sent - req.arrival;
                    self.tally.hedges_won += u64::from(copy.hedge);
                }
                Outcome::Served {
                    wait: copy.start - copy.sent,
                    sojourn: copy.start - req.arrival + copy.service,
                }
            }
            End::Timeout => Outcome::TimedOut,
            End::Reset => Outcome::Reset,
            End::Rejected => Outcome::Rejected,
        };
        if counted {
            self.tally.count(outcome);
        }
        // Best-effort cancellation: the copies still waiting leave their queues; those in
        // service run on. A copy past its patience had given up already.
        let mut c = req.first;
        while c != NONE {
            let copy = self.copies[c as usize];
            if copy.state == State::Waiting {
                self.copies[c as usize].state = State::Cancelled;
                self.nodes[copy.instance as usize].waiting -= 1;
                self.requests[r as usize].live -= 1;
                if counted && now - copy.sent <= self.patience {
                    self.tally.hedges_cancelled += 1;
                }
            }
            c = copy.next;
        }
    }

    /// A request succeeded: the bucket gains its refill, and a request waiting for a token
    /// is woken when a whole one is there.
    fn on_success(&mut self, now: f64) {
        if let Some(bucket) = &mut self.bucket {
            bucket.on_success();
            if bucket.tokens() >= 1.0
                && !self.awaiting_token.is_empty()
                && self.token_wake.is_none()
            {
                self.token_wake = Some(now);
            }
        }
    }

    /// Whether some copy of the request may still succeed at `now`.
    fn alive(&self, r: u32, now: f64) -> bool {
        let mut c = self.requests[r as usize].first;
        while c != NONE {
            let copy = self.copies[c as usize];
            match copy.state {
                State::Serving => return true,
                State::Waiting if now - copy.sent <= self.patience => return true,
                _ => {}
            }
            c = copy.next;
        }
        false
    }

    fn stop(&mut self, i: usize, now: f64) {
        self.purge(i, now);
        while let Some(c) = self.nodes[i].queue.pop_front() {
            if self.copies[c as usize].state == State::Waiting {
                self.nodes[i].waiting -= 1;
                let r = self.copies[c as usize].request;
                self.drop_copy(c);
                self.after_copy(r, End::Reset, now);
            } else {
                self.release_copy(c);
            }
        }
        self.busy_total -= self.nodes[i].busy;
        let busy = self.nodes[i].busy as isize;
        self.nodes[i].busy_by(-busy, now);
        self.nodes[i].stopped = true;
        self.capacity_now -= self.slots;
    }

    /// Handles the next pending event (its time is `now`, from [`Engine::next_time`]).
    pub(crate) fn step(&mut self, now: f64, router: &mut Router, streams: &mut Streams) {
        let [done, hedge, deadline, wake] = self.heads();
        self.events += 1;
        if done <= hedge && done <= deadline && done <= wake {
            if let Some(event) = self.heap.pop() {
                self.on_event(event.item, now, router);
            }
        } else if hedge <= deadline && hedge <= wake {
            if let Some(t) = self.hedge_timers.pop_front() {
                self.on_hedge(t, now, false, router, streams);
            }
        } else if deadline <= wake {
            let Some(t) = self.deadlines.pop_front() else {
                return;
            };
            let req = self.requests[t.request as usize];
            if req.generation == t.generation && !req.resolved {
                self.end_request(t.request, End::Timeout, now);
            }
        } else {
            self.on_token(now, router, streams);
        }
    }

    /// A service ends or is cut, a waiting copy reaches its patience, or a phantom's work
    /// ends; the instance's response goes to outlier detection.
    fn on_event(&mut self, kind: Kind, now: f64, router: &mut Router) {
        match kind {
            Kind::Done(c) | Kind::Expire(c) => {
                let served = matches!(kind, Kind::Done(_));
                let i = self.copies[c as usize].instance as usize;
                self.on_service_end(c, now, served);
                router.record(i, now, served);
            }
            Kind::Phantom(i) => self.on_phantom_done(i as usize, now),
            Kind::GiveUp { copy, sent } => {
                let c = self.copies[copy as usize];
                if c.state == State::Waiting && c.sent == sent {
                    router.record(c.instance as usize, now, false);
                }
            }
        }
    }

    /// A success brought a token: the first request still waiting for one takes it, and the
    /// next is woken while tokens last.
    fn on_token(&mut self, now: f64, router: &mut Router, streams: &mut Streams) {
        self.token_wake = None;
        while let Some(t) = self.awaiting_token.pop_front() {
            let req = self.requests[t.request as usize];
            if req.generation == t.generation && !req.resolved {
                self.on_hedge(t, now, true, router, streams);
                break;
            }
        }
        if self.bucket.is_some_and(|b| b.tokens() >= 1.0) && !self.awaiting_token.is_empty() {
            self.token_wake = Some(now);
        }
    }

    fn on_phantom_done(&mut self, i: usize, now: f64) {
        if self.nodes[i].stopped || self.nodes[i].phantoms == 0 {
            return;
        }
        self.nodes[i].phantoms -= 1;
        self.nodes[i].busy_by(-1, now);
        self.busy_total -= 1;
        self.next_in_queue(i, now);
    }

    /// Request `t.request`'s hedge falls due (`woken`: it was waiting for a token and one
    /// came): with a token it is sent, and the next one set.
    fn on_hedge(
        &mut self,
        t: Timer,
        now: f64,
        woken: bool,
        router: &mut Router,
        streams: &mut Streams,
    ) {
        let Some((h, deadline)) = self.hedge_due(t, now) else {
            return;
        };
        if !self.bucket.as_mut().is_some_and(TokenBucket::try_take) {
            self.await_token(t, now, woken, deadline);
            return;
        }
        self.send_hedge(t.request, now, router, streams);
        let next = now + h.delay_s;
        self.follow_up(
            t.request,
            t.generation,
            (next < deadline).then_some(next),
            deadline,
        );
    }

    /// Whether the request of a hedge due at `now` may still be hedged: open, hedging on,
    /// some copy of it still able to succeed, its total timeout not passed (else it fails
    /// there). Hedging's settings and the total timeout's time.
    fn hedge_due(&mut self, t: Timer, now: f64) -> Option<(Hedging, f64)> {
        let r = t.request;
        let req = self.requests[r as usize];
        if req.generation != t.generation || req.resolved {
            return None;
        }
        if !self.alive(r, now) {
            self.end_request(r, End::Timeout, now);
            return None;
        }
        let h = self.hedging?;
        let deadline = req.arrival + self.total_timeout;
        if now >= deadline {
            // The total timeout changed under it and has passed.
            self.end_request(r, End::Timeout, now);
            return None;
        }
        Some((h, deadline))
    }

    /// No token: the hedge waits for the next one a success brings, instead of looking
    /// again every delay (which, behind a copy that never ends, would cost an event every
    /// delay for ever). Meanwhile the request ends with its answer, its copies' patience, or
    /// its total timeout (at `deadline`).
    fn await_token(&mut self, t: Timer, now: f64, woken: bool, deadline: f64) {
        let waiting = Timer { time: now, ..t };
        if woken {
            self.awaiting_token.push_front(waiting);
        } else {
            self.awaiting_token.push_back(waiting);
        }
        if deadline.is_finite() {
            self.arm_deadline(t.request, deadline, t.generation);
        }
    }

    /// Sends a copy of request `r` to an instance it has not used yet, when the policy finds
    /// one.
    fn send_hedge(&mut self, r: u32, now: f64, router: &mut Router, streams: &mut Streams) {
        let req = self.requests[r as usize];
        router.settle(now);
        let used = &req.used[..req.n_used];
        let target = router.choose_other(&mut streams.routing, req.key_hash, used, |i| {
            self.held(i, now)
        });
        let Some(target) = target else {
            return;
        };
        let service = self.service.draw(&mut streams.services, self.service_mean);
        let c = self.new_copy(r, target, now, service, true);
        if req.counted {
            self.tally.hedges_sent += 1;
        }
        if self.admit(c, target, now) == Admit::Rejected {
            self.drop_copy(c);
        }
    }

    /// What follows a copy of request `r` sent now: its next hedge at `next_hedge`, or else
    /// (after the last hedge, or without any) its total timeout at `deadline`, from which on
    /// only that can end it.
    fn follow_up(&mut self, r: u32, generation: u32, next_hedge: Option<f64>, deadline: f64) {
        match next_hedge {
            Some(time) => schedule(
                &mut self.hedge_timers,
                Timer {
                    time,
                    request: r,
                    generation,
                },
            ),
            None if deadline.is_finite() => self.arm_deadline(r, deadline, generation),
            None => {}
        }
    }

    /// Sets request `r`'s total timeout, once.
    fn arm_deadline(&mut self, r: u32, deadline: f64, generation: u32) {
        let req = &mut self.requests[r as usize];
        if !req.deadline_set {
            req.deadline_set = true;
            schedule(
                &mut self.deadlines,
                Timer {
                    time: deadline,
                    request: r,
                    generation,
                },
            );
        }
    }

    /// A request arriving at `now` with key hash `key_hash`: its service time drawn, then
    /// routed and served (`counted`: its outcome counts).
    pub(crate) fn arrive(
        &mut self,
        now: f64,
        key_hash: u64,
        counted: bool,
        router: &mut Router,
        streams: &mut Streams,
    ) {
        let service = self.service.draw(&mut streams.services, self.service_mean);
        self.events += 1;
        // Outlier detection and slow start as they stand at the arrival.
        router.settle(now);
        let r = self.new_request(now, key_hash, counted);
        let target = router.choose(&mut streams.routing, key_hash, |i| self.held(i, now));
        let admitted = match target {
            None => Admit::Rejected,
            Some(target) => {
                let c = self.new_copy(r, target, now, service, false);
                let admitted = self.admit(c, target, now);
                if admitted == Admit::Rejected {
                    self.drop_copy(c);
                }
                admitted
            }
        };
        if admitted == Admit::Rejected {
            self.resolve(r, End::Rejected, now);
        } else {
            if counted && admitted == Admit::Queued {
                self.tally.waited += 1;
            }
            let generation = self.requests[r as usize].generation;
            // The total timeout is set by the last hedge timer of the chain (few requests
            // live that long); without a chain, here.
            let chain = self.hedging.filter(|h| h.delay_s < self.total_timeout);
            let next_hedge = chain.map(|h| now + h.delay_s);
            self.follow_up(r, generation, next_hedge, now + self.total_timeout);
        }
        self.maybe_free_request(r);
    }

    /// The event list of a whole run: its instances, the running ones' workers available.
    fn for_run(config: &RunConfig, options: &Options, plan: &Plan) -> Self {
        let mut engine = Engine::new(
            plan.instances,
            plan.slots,
            plan.cap,
            options.service,
            config.service_s,
            config.patience(),
            options.hedging,
            Tally::new(config.customers, plan.instances),
        );
        engine.slow = options.slow;
        engine.scope = options.timeout_scope;
        engine.capacity_now = plan.initially_active().len() * plan.slots;
        engine
    }

    /// An instance starts, drains or stops at its time: the router told, the workers
    /// available counted, a stopped instance's requests cut.
    fn change(&mut self, change: &InstanceChange, router: &mut Router) {
        change.route(router);
        match change.kind {
            ChangeKind::Start => self.capacity_now += self.slots,
            ChangeKind::Drain => {}
            ChangeKind::Stop => self.stop(change.instance as usize, change.at_s),
        }
    }
}

/// The window a run's utilization is measured over: busy and available worker time since
/// the first counted arrival, and both as they stood at the last arrival.
struct Window {
    first_counted: f64,
    last_t: f64,
    busy: f64,
    capacity: f64,
    busy_at_last: f64,
    capacity_at_last: f64,
    last_arrival: f64,
}

impl Window {
    fn new() -> Self {
        Window {
            first_counted: f64::INFINITY,
            last_t: 0.0,
            busy: 0.0,
            capacity: 0.0,
            busy_at_last: 0.0,
            capacity_at_last: 0.0,
            last_arrival: 0.0,
        }
    }

    /// Time runs on to `now`, the engine's workers as they were since the last call.
    fn advance(&mut self, now: f64, engine: &Engine) {
        if now > self.first_counted {
            let dt = now - self.last_t.max(self.first_counted);
            self.busy += engine.busy_total as f64 * dt;
            self.capacity += engine.capacity_now as f64 * dt;
        }
        self.last_t = now;
    }

    /// A request arrived at `now`.
    fn arrival(&mut self, now: f64) {
        self.last_arrival = now;
        self.busy_at_last = self.busy;
        self.capacity_at_last = self.capacity;
    }
}

/// Runs the event list; it stops with [`RunError::EventCap`] once it has handled more than
/// `cap` events.
pub(super) fn run(
    config: &RunConfig,
    options: &Options,
    plan: &Plan,
    cap: u64,
) -> Result<RunOutcome, RunError> {
    let mut router = plan.router(config, options);
    let mut engine = Engine::for_run(config, options, plan);
    engine.report = router.detects_outliers();
    let mut streams = Streams::of(config.seed);
    let mean_gap = 1.0 / config.arrival_rate;
    let total = config.warmup + config.customers;
    let mut arrived = 0u64;
    let mut next_arrival = streams.arrivals.exponential(mean_gap);
    let mut next_change = 0usize;
    let mut window = Window::new();
    loop {
        let t_arrival = if arrived < total {
            next_arrival
        } else {
            f64::INFINITY
        };
        let t_event = engine.next_time();
        let t_change = plan
            .changes
            .get(next_change)
            .map_or(f64::INFINITY, |c| c.at_s);
        let now = earlier(earlier(t_arrival, t_event), t_change);
        if now == f64::INFINITY {
            break;
        }
        if engine.events > cap {
            return Err(RunError::EventCap { cap });
        }
        window.advance(now, &engine);
        if t_change <= t_arrival && t_change <= t_event {
            engine.change(&plan.changes[next_change], &mut router);
            next_change += 1;
        } else if t_event <= t_arrival {
            engine.step(now, &mut router, &mut streams);
        } else {
            if arrived == config.warmup {
                window.first_counted = now;
            }
            let key_hash = plan.key_hash(&mut streams.keys);
            let counted = arrived >= config.warmup;
            engine.arrive(now, key_hash, counted, &mut router, &mut streams);
            arrived += 1;
            next_arrival = streams.next_arrival(now, mean_gap);
            window.arrival(now);
        }
    }
    let utilization = utilization(window.busy_at_last, window.capacity_at_last);
    let tokens_left = engine.bucket.map(|b| b.tokens());
    let hosts = router.host_counts(window.last_arrival);
    let host_events = router.host_events().to_vec();
    Ok(engine
        .tally
        .finish(utilization, tokens_left, engine.events, hosts, host_events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::requests::hedging::Hedging;
    use crate::requests::{Routing, SlowInstance};

    #[test]
    fn a_run_stops_at_its_cap_of_events() {
        let config = RunConfig {
            instances: 2,
            workers_per_instance: 1,
            arrival_rate: 3.0,
            service_s: 1.0,
            customers: 500,
            warmup: 0,
            routing: Routing::RoundRobin,
            timeout_s: None,
            seed: 1,
        };
        let options = Options {
            hedging: Some(Hedging::default()),
            slow: Some(SlowInstance {
                instance: 0,
                factor: 10.0,
                from_s: 0.0,
                to_s: 1e9,
            }),
            ..Options::default()
        };
        let plan = Plan::new(&config, &options).unwrap();
        let full = run(&config, &options, &plan, u64::MAX).unwrap();
        assert!(full.events > 1000, "{}", full.events);
        assert!(full.events <= crate::requests::event_cap(config.customers));
        assert_eq!(
            run(&config, &options, &plan, 1000),
            Err(RunError::EventCap { cap: 1000 })
        );
        // Exactly at its cap a run still ends.
        assert_eq!(run(&config, &options, &plan, full.events), Ok(full));
    }
}
