//! The arrival-time path, shared by the batch runner and the minute model's request engine:
//! each instance is FIFO, so a request's fate is known at its arrival. It takes the worker
//! that frees first, at max(arrival, that worker's free time) (the virtual waiting time of the
//! instance); a request whose wait would exceed the patience leaves at arrival + patience
//! without changing any free time (everybody behind it has the same patience and arrived
//! later, so it blocks nobody). Least request and the per-node limits read the number of
//! requests an instance holds: each instance keeps the leave times of the requests it holds
//! in a second heap and drops those already past.

use super::heap::TimeHeap;
use super::route::Router;
use super::SlowInstance;
use crate::Mulberry32;

/// One instance: when each worker frees, when each request it holds leaves (kept for least
/// request and the limits), and when it stops (∞ for one that runs on).
#[derive(Clone, Debug)]
pub(crate) struct Instance {
    pub(crate) free: TimeHeap,
    pub(crate) held: TimeHeap,
    pub(crate) stop_at: f64,
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
    /// Served on `instance`: waited `wait`, then served for `service` over [start, end).
    Served {
        instance: usize,
        wait: f64,
        service: f64,
        start: f64,
        end: f64,
    },
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
            .map(|i| Instance {
                free: TimeHeap::filled(slots, 0.0),
                held: TimeHeap::default(),
                stop_at: stop_at(i),
            })
            .collect();
        Self {
            instances,
            slots,
            cap,
            track_held,
        }
    }

    /// One more instance that runs on, its workers free from `now`.
    pub(crate) fn add_instance(&mut self, now: f64) {
        self.instances.push(Instance {
            free: TimeHeap::filled(self.slots, now),
            held: TimeHeap::default(),
            stop_at: f64::INFINITY,
        });
    }

    /// Routes and serves a request arriving at `now` with drawn service time `service` and
    /// key hash `key_hash`; `patience` is the longest it waits for a worker.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn offer(
        &mut self,
        router: &mut Router,
        routing: &mut Mulberry32,
        now: f64,
        service: f64,
        key_hash: u64,
        patience: f64,
        slow: Option<&SlowInstance>,
    ) -> Fate {
        let target = router.choose(routing, key_hash, |i| {
            let held = &mut self.instances[i].held;
            held.drop_until(now);
            held.len()
        });
        let Some(target) = target else {
            return Fate::Rejected;
        };
        let inst = &mut self.instances[target];
        if let Some(cap) = self.cap {
            inst.held.drop_until(now);
            if inst.held.len() >= cap {
                return Fate::Rejected;
            }
        }
        let free_at = inst.free.min().unwrap_or(0.0);
        let wait = (free_at - now).max(0.0);
        let (leave, fate) = if wait > patience && now + patience <= inst.stop_at {
            (now + patience, Fate::GaveUp { instance: target })
        } else {
            let start = now + wait;
            let waited = wait > 0.0;
            if start >= inst.stop_at {
                (
                    inst.stop_at,
                    Fate::ResetWaiting {
                        instance: target,
                        waited,
                    },
                )
            } else {
                let service = service * SlowInstance::factor_at(slow, target, start);
                let done = start + service;
                let end = done.min(inst.stop_at);
                inst.free.replace_min(end);
                let fate = if done > inst.stop_at {
                    Fate::ResetInService {
                        instance: target,
                        waited,
                        start,
                        end,
                    }
                } else {
                    Fate::Served {
                        instance: target,
                        wait,
                        service,
                        start,
                        end,
                    }
                };
                (end, fate)
            }
        };
        if self.track_held {
            inst.held.push(leave);
        }
        fate
    }
}
