//! The arrival-time path, shared by the batch runner and the minute model's request engine:
//! each instance is FIFO, so a request's fate is known at its arrival. It takes the worker
//! that frees first, at max(arrival, that worker's free time) (the virtual waiting time of the
//! instance); a request whose wait would exceed the patience leaves at arrival + patience
//! without changing any free time (everybody behind it has the same patience and arrived
//! later, so it blocks nobody). When the timeout bounds the whole call (Envoy's route
//! timeout), a request that reaches a worker but would still be in service at arrival +
//! patience is cut there: its worker frees at that deadline, which is also known at the
//! arrival. Least request and the per-node limits read the number of
//! requests an instance holds, counted without a heap of leave times: each worker whose free
//! time is still ahead is serving one request (a worker whose queued request starts later has
//! been busy since that request's arrival), the requests queued behind them are those whose
//! start is still ahead (starts are non-decreasing on a FIFO instance, so a queue of them
//! drops its past from the front), and the few that leave without a worker (gave up, or cut
//! by a stop while waiting) keep their leave times in a small heap.
//!
//! Arrivals come in time order, so a worker found free stays free for every later arrival
//! until it is given a request, and when it became free no longer matters: such workers are
//! only counted (`idle`), and a heap keeps the free times of the others. Counting the
//! requests held is then the heap's length, not a pass over every worker.

use super::heap::TimeHeap;
use super::route::Router;
use super::tally::Outcome;
use super::{SlowInstance, TimeoutScope};
use crate::rng::Mulberry32;
use std::collections::VecDeque;

/// One instance: when each worker frees, when the requests queued for a worker start and
/// when those that leave without one leave (both kept for least request and the limits), and
/// when it stops (∞ for one that runs on).
#[derive(Clone, Debug)]
pub(crate) struct Instance {
    /// Free times of the workers not yet seen free (some may be past: they are moved to
    /// `idle` when the instance's held requests are counted).
    pub(crate) busy: TimeHeap,
    /// Workers seen free at an earlier arrival and not given a request since.
    idle: usize,
    /// Start times of the requests given a worker, non-decreasing; those past are dropped.
    starts: VecDeque<f64>,
    /// Leave times of the requests that leave without a worker.
    leaving: TimeHeap,
    pub(crate) stop_at: f64,
}

impl Instance {
    /// `slots` workers, free from the instance's start (no arrival comes before it).
    fn new(slots: usize, stop_at: f64) -> Self {
        Self {
            busy: TimeHeap::default(),
            idle: slots,
            starts: VecDeque::new(),
            leaving: TimeHeap::default(),
            stop_at,
        }
    }

    /// Requests held at `now` (in service, queued, or waiting to give up), of those recorded.
    fn held(&mut self, now: f64) -> usize {
        while self.starts.front().is_some_and(|&s| s <= now) {
            self.starts.pop_front();
        }
        if self.leaving.min().is_some_and(|t| t <= now) {
            self.leaving.drop_until(now);
        }
        if self.busy.min().is_some_and(|t| t <= now) {
            self.idle += self.busy.drop_until(now);
        }
        self.busy.len() + self.starts.len() + self.leaving.len()
    }

    /// When the worker that frees first is free (`now` if one is idle).
    fn first_free(&self, now: f64) -> f64 {
        if self.idle > 0 {
            now
        } else {
            self.busy.min().unwrap_or(now)
        }
    }

    /// Keeps how an accepted request arriving at `now` is held, for the count of held ones.
    #[inline]
    fn hold(&mut self, held_by: Held, now: f64) {
        match held_by {
            Held::Starts(start) => {
                debug_assert!(self.starts.back().is_none_or(|&s| s <= start));
                if start > now {
                    self.starts.push_back(start);
                }
            }
            Held::Leaves(leave) => self.leaving.push(leave),
        }
    }

    /// The worker that frees first takes a request and is busy until `end`.
    fn take_worker(&mut self, end: f64) {
        if self.idle > 0 {
            self.idle -= 1;
            self.busy.push(end);
        } else {
            self.busy.replace_min(end);
        }
    }
}

/// What became of one arrival.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fate {
    /// No instance takes requests, or the chosen one holds its limit: a 503.
    Rejected,
    /// Waited its patience on `instance` and gave up (it found every worker busy).
    GaveUp { instance: usize },
    /// Still waiting on `instance` when it stopped.
    ResetWaiting { instance: usize, waited: bool },
    /// Cut in service by its instance's stop: a worker was busy over [start, end).
    ResetInService {
        instance: usize,
        waited: bool,
        start: f64,
        end: f64,
    },
    /// Reached a worker but was still in service at its deadline (arrival + patience, when
    /// the timeout bounds the whole call): cut there, its worker busy over [start, end).
    TimedOutInService {
        instance: usize,
        waited: bool,
        start: f64,
        end: f64,
    },
    /// Served on `instance`: waited `wait`, then served for `service` over [start, end).
    Served {
        instance: usize,
        wait: f64,
        service: f64,
        start: f64,
        end: f64,
    },
}

impl Fate {
    /// The response outlier detection sees, for a request that arrived at `now` with
    /// `patience`: (instance, when, success). A timeout, waiting or in service, is a failure
    /// at its deadline; a request served is a success at its end. Resets (an instance's stop,
    /// which takes it out of the cluster) and rejections (the balancer's own 503s) are not
    /// charged to a host.
    pub(crate) fn response(&self, now: f64, patience: f64) -> Option<(usize, f64, bool)> {
        match *self {
            Fate::GaveUp { instance } => Some((instance, now + patience, false)),
            Fate::TimedOutInService { instance, end, .. } => Some((instance, end, false)),
            Fate::Served { instance, end, .. } => Some((instance, end, true)),
            Fate::Rejected | Fate::ResetWaiting { .. } | Fate::ResetInService { .. } => None,
        }
    }

    /// How the request ended, as the counts see it.
    #[inline]
    pub(crate) fn outcome(&self) -> Outcome {
        match *self {
            Fate::Rejected => Outcome::Rejected,
            Fate::GaveUp { .. } | Fate::TimedOutInService { .. } => Outcome::TimedOut,
            Fate::ResetWaiting { .. } | Fate::ResetInService { .. } => Outcome::Reset,
            Fate::Served { wait, service, .. } => Outcome::Served {
                wait,
                sojourn: wait + service,
            },
        }
    }

    /// Whether it found every worker of its instance busy.
    #[inline]
    pub(crate) fn waited(&self) -> bool {
        match *self {
            Fate::Rejected => false,
            Fate::GaveUp { .. } => true,
            Fate::ResetWaiting { waited, .. }
            | Fate::ResetInService { waited, .. }
            | Fate::TimedOutInService { waited, .. } => waited,
            Fate::Served { wait, .. } => wait > 0.0,
        }
    }

    /// The worker it held: (instance, start, end), the worker busy over [start, end).
    #[inline]
    pub(crate) fn worker(&self) -> Option<(usize, f64, f64)> {
        match *self {
            Fate::ResetInService {
                instance,
                start,
                end,
                ..
            }
            | Fate::TimedOutInService {
                instance,
                start,
                end,
                ..
            }
            | Fate::Served {
                instance,
                start,
                end,
                ..
            } => Some((instance, start, end)),
            Fate::Rejected | Fate::GaveUp { .. } | Fate::ResetWaiting { .. } => None,
        }
    }

    /// Until when it waited in its instance's queue, for a request that arrived at `now`
    /// with `patience`: (instance, when it started or gave up). `None` for one rejected or
    /// cut by a stop while waiting.
    #[inline]
    pub(crate) fn queued_until(&self, now: f64, patience: f64) -> Option<(usize, f64)> {
        match *self {
            Fate::GaveUp { instance } => Some((instance, now + patience)),
            _ => self.worker().map(|(instance, start, _)| (instance, start)),
        }
    }
}

/// Every instance's workers and held requests, and the rules they serve by.
#[derive(Clone, Debug)]
pub(crate) struct ArrivalFleet {
    pub(crate) instances: Vec<Instance>,
    /// Worker slots of each instance.
    pub(crate) slots: usize,
    /// Requests an instance holds at most (`None`: no limit).
    pub(crate) cap: Option<usize>,
    /// Whether the leave times of held requests are kept.
    pub(crate) track_held: bool,
    /// The timeout from a request's arrival, s (on the wait for a worker, or on the whole
    /// call, as [`ArrivalFleet::scope`] says).
    pub(crate) patience: f64,
    /// What the patience bounds: the whole call (a request still in service at its deadline
    /// is cut there and its worker freed) or only the wait for a worker.
    pub(crate) scope: TimeoutScope,
    pub(crate) slow: Option<SlowInstance>,
    /// Whether the instances' responses are reported to outlier detection.
    pub(crate) report: bool,
}

impl ArrivalFleet {
    /// `count` instances with every worker free at time 0; `stop_at(i)` is when instance i
    /// stops.
    pub(crate) fn new(
        count: usize,
        slots: usize,
        cap: Option<usize>,
        track_held: bool,
        stop_at: impl Fn(usize) -> f64,
    ) -> Self {
        let instances = (0..count)
            .map(|i| Instance::new(slots, stop_at(i)))
            .collect();
        Self {
            instances,
            slots,
            cap,
            track_held,
            patience: f64::INFINITY,
            scope: TimeoutScope::default(),
            slow: None,
            report: false,
        }
    }

    /// One more instance that runs on, its workers free from now on.
    pub(crate) fn add_instance(&mut self) {
        self.instances
            .push(Instance::new(self.slots, f64::INFINITY));
    }

    /// Busy worker time past `now` that is already committed: a worker whose free time
    /// lies later is busy without a gap until then.
    pub(crate) fn overhang(&self, now: f64) -> f64 {
        self.instances
            .iter()
            .flat_map(|i| i.busy.iter())
            .map(|f| (f - now).max(0.0))
            .sum()
    }

    /// One arrival at `now`, with drawn service time `service` and key hash `key_hash`:
    /// host selection as it stands then, the request routed and served, and its response
    /// reported to outlier detection (which counts it once its time comes).
    #[inline]
    pub(crate) fn serve(
        &mut self,
        router: &mut Router,
        routing: &mut Mulberry32,
        now: f64,
        service: f64,
        key_hash: u64,
    ) -> Fate {
        // Outlier detection sees the responses whose time has come, never a later one.
        router.settle(now);
        let fate = match self.route(router, routing, now, key_hash) {
            Some(target) => self.accept(target, now, service),
            None => Fate::Rejected,
        };
        if self.report {
            if let Some((instance, at, ok)) = fate.response(now, self.patience) {
                router.observe(instance, at, ok);
            }
        }
        fate
    }

    /// The instance the policy sends a request arriving at `now` to; `None` when no
    /// instance takes requests or the chosen one holds its limit (a 503).
    #[inline]
    fn route(
        &mut self,
        router: &mut Router,
        routing: &mut Mulberry32,
        now: f64,
        key_hash: u64,
    ) -> Option<usize> {
        let target = router.choose(routing, key_hash, |i| self.instances[i].held(now))?;
        let full = self
            .cap
            .is_some_and(|cap| self.instances[target].held(now) >= cap);
        (!full).then_some(target)
    }

    /// Instance `target` takes a request arriving at `now` with drawn service time
    /// `service`: it waits for the worker that frees first, unless its patience runs out
    /// first or its instance stops before.
    #[inline]
    fn accept(&mut self, target: usize, now: f64, service: f64) -> Fate {
        let patience = self.patience;
        let deadline = self.scope.deadline(now, patience);
        let slow = self.slow.as_ref();
        let inst = &mut self.instances[target];
        let wait = (inst.first_free(now) - now).max(0.0);
        let start = now + wait;
        // Where the request is held until it leaves: by a worker from `start`, or in the
        // queue until `leave`.
        let (held_by, fate) = if wait > patience && now + patience <= inst.stop_at {
            (
                Held::Leaves(now + patience),
                Fate::GaveUp { instance: target },
            )
        } else if start >= inst.stop_at {
            let waited = wait > 0.0;
            let fate = Fate::ResetWaiting {
                instance: target,
                waited,
            };
            (Held::Leaves(inst.stop_at), fate)
        } else {
            let service = service * SlowInstance::factor_at(slow, target, start);
            let (fate, end) = in_service(target, wait, service, start, deadline, inst.stop_at);
            inst.take_worker(end);
            (Held::Starts(start), fate)
        };
        if self.track_held {
            inst.hold(held_by, now);
        }
        fate
    }
}

/// The fate of a request on `instance` that waited `wait` and is served from `start` for
/// `service`, and when its worker frees: at the end of the service, at its `deadline`, or
/// at its instance's stop (`stop_at`), whichever comes first.
#[inline]
fn in_service(
    instance: usize,
    wait: f64,
    service: f64,
    start: f64,
    deadline: f64,
    stop_at: f64,
) -> (Fate, f64) {
    let waited = wait > 0.0;
    let done = start + service;
    let end = done.min(deadline).min(stop_at);
    let fate = if done > stop_at && deadline > stop_at {
        Fate::ResetInService {
            instance,
            waited,
            start,
            end,
        }
    } else if done > deadline {
        Fate::TimedOutInService {
            instance,
            waited,
            start,
            end,
        }
    } else {
        Fate::Served {
            instance,
            wait,
            service,
            start,
            end,
        }
    };
    (fate, end)
}

/// How an accepted request is held: by a worker from its start, or in the queue until it
/// leaves without one.
enum Held {
    Starts(f64),
    Leaves(f64),
}
