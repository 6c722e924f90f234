//! The request-level engine: a discrete-event simulation of single requests, beside the
//! minute model's formulas.
//!
//! Requests arrive as a Poisson process; a routing policy sends each to one of the
//! instances; each instance has its worker slots and its own FIFO queue; service times are
//! exponential. A request that has not reached a worker within the timeout (a fixed
//! patience) gives up and counts as a timeout; it never takes a worker.
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
//! stream each for arrivals, service times and routing (disjoint stretches of the generator's
//! cycle), so a run is fixed by its seed.

mod heap;

use crate::ids::ids;
use crate::relations::{
    Relation, RelationId, BACCELLI_HEBUTERNE_1981, ENVOY_LOAD_BALANCERS, KIEFER_WOLFOWITZ_1955,
    MITZENMACHER_2001,
};
use crate::Mulberry32;
use heap::TimeHeap;

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
    ],
    assumption: false,
};

ids! {
    /// How a request chooses its instance (Envoy's load-balancing policies, spelled as the
    /// command line and links write them).
    Routing, "lb" {
        /// Envoy `ROUND_ROBIN`: the instances in turn.
        RoundRobin = "round-robin",
        /// Envoy `RANDOM`: an instance drawn uniformly.
        Random = "random",
        /// Envoy `LEAST_REQUEST` with `choice_count` 2 and equal weights: two distinct
        /// instances drawn at random, the request goes to the one holding fewer requests (in
        /// service and queued); a tie goes to the first drawn.
        LeastRequest = "least-request",
    }
}

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
    /// The patience: a request that has not reached a worker within it gives up, seconds.
    /// `None`: every request waits as long as it takes.
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

/// What a run measured over its counted requests.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutcome {
    /// Share of requests that found every worker of their instance busy (those that then gave
    /// up included).
    pub p_wait: f64,
    /// Mean wait of the served requests, s.
    pub mean_wait_s: f64,
    /// Mean time in the system (wait + service) of the served requests, s.
    pub mean_sojourn_s: f64,
    /// Percentiles of the time in the system of the served requests (nearest rank on the
    /// exact sorted times), s; 0 when none was served.
    pub p50_s: f64,
    pub p95_s: f64,
    pub p99_s: f64,
    pub p999_s: f64,
    /// Share of requests that gave up at the timeout.
    pub timeout_share: f64,
    /// Busy worker time over worker time, from the first counted arrival to the last arrival.
    pub utilization: f64,
    /// Requests served by each instance.
    pub per_instance_served: Vec<u64>,
    /// Requests counted.
    pub customers: u64,
    /// Events simulated, warm-up included: each request's arrival and its departure or
    /// abandonment.
    pub events: u64,
}

/// Each kind of draw has its own stream of the seed ([`Mulberry32::stream`]): disjoint for
/// 2^30 draws, and a run draws at most two per request for any of them.
const ARRIVAL_STREAM: u32 = 0;
const SERVICE_STREAM: u32 = 1;
const ROUTING_STREAM: u32 = 2;

/// An index drawn uniformly from 0..n (n ≥ 1), by the multiply-shift of a 32-bit draw.
fn draw_index(rng: &mut Mulberry32, n: u32) -> usize {
    use rand_core::RngCore;
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as usize
}

/// One instance: when each worker frees, and (for least request) when each request it
/// holds leaves.
struct Instance {
    free: TimeHeap,
    held: TimeHeap,
}

/// Runs the engine.
pub fn run(config: &RunConfig) -> Result<RunOutcome, ConfigError> {
    config.check()?;
    let n_inst = config.instances as usize;
    let workers = config.workers_per_instance as usize;
    let track_held = config.routing == Routing::LeastRequest && n_inst > 1;
    let mut instances: Vec<Instance> = (0..n_inst)
        .map(|_| Instance {
            free: TimeHeap::filled(workers, 0.0),
            held: TimeHeap::default(),
        })
        .collect();
    let mut arrivals = Mulberry32::stream(config.seed, ARRIVAL_STREAM);
    let mut services = Mulberry32::stream(config.seed, SERVICE_STREAM);
    let mut routing = Mulberry32::stream(config.seed, ROUTING_STREAM);
    let mean_gap = 1.0 / config.arrival_rate;
    let patience = config.timeout_s.unwrap_or(f64::INFINITY);
    let total = config.warmup + config.customers;

    let capacity = usize::try_from(config.customers).unwrap_or(usize::MAX);
    let mut sojourns: Vec<f64> = Vec::with_capacity(capacity);
    let mut served_by = vec![0u64; n_inst];
    let mut waited = 0u64;
    let mut gave_up = 0u64;
    let mut wait_sum = 0.0;
    let mut busy = 0.0;
    let mut first_counted = 0.0;
    let mut now = 0.0;
    let mut next_turn = 0usize;

    for k in 0..total {
        now += arrivals.exponential(mean_gap);
        let service = services.exponential(config.service_s);
        let counted = k >= config.warmup;
        if k == config.warmup {
            first_counted = now;
        }
        let target = match config.routing {
            _ if n_inst == 1 => 0,
            Routing::RoundRobin => {
                let t = next_turn;
                next_turn = if t + 1 == n_inst { 0 } else { t + 1 };
                t
            }
            Routing::Random => draw_index(&mut routing, config.instances),
            Routing::LeastRequest => {
                let first = draw_index(&mut routing, config.instances);
                let mut second = draw_index(&mut routing, config.instances - 1);
                if second >= first {
                    second += 1;
                }
                instances[first].held.drop_until(now);
                instances[second].held.drop_until(now);
                if instances[second].held.len() < instances[first].held.len() {
                    second
                } else {
                    first
                }
            }
        };
        let inst = &mut instances[target];
        let free_at = inst.free.min().unwrap_or(0.0);
        let wait = (free_at - now).max(0.0);
        let leave = if wait > patience {
            if counted {
                waited += 1;
                gave_up += 1;
            }
            now + patience
        } else {
            let start = now + wait;
            let done = start + service;
            inst.free.replace_min(done);
            if counted {
                if wait > 0.0 {
                    waited += 1;
                }
                wait_sum += wait;
                sojourns.push(wait + service);
                served_by[target] += 1;
                // Work before the first counted arrival is not in the window.
                busy += done - start.max(first_counted);
            }
            done
        };
        if track_held {
            inst.held.push(leave);
        }
    }

    // Busy time after the last arrival is outside the window: after it, a worker whose free
    // time lies later is busy without a gap until then.
    let overhang: f64 = instances
        .iter()
        .flat_map(|i| i.free.iter())
        .map(|f| (f - now).max(0.0))
        .sum();
    let window = now - first_counted;
    let worker_count = f64::from(config.instances) * f64::from(config.workers_per_instance);
    let utilization = if window > 0.0 {
        ((busy - overhang) / (window * worker_count)).clamp(0.0, 1.0)
    } else {
        0.0
    };

    let customers = config.customers as f64;
    let served = sojourns.len();
    let mean_sojourn_s = if served > 0 {
        sojourns.iter().sum::<f64>() / served as f64
    } else {
        0.0
    };
    let [p50_s, p95_s, p99_s, p999_s] = percentiles(&mut sojourns, [0.5, 0.95, 0.99, 0.999]);
    Ok(RunOutcome {
        p_wait: waited as f64 / customers,
        mean_wait_s: if served > 0 {
            wait_sum / served as f64
        } else {
            0.0
        },
        mean_sojourn_s,
        p50_s,
        p95_s,
        p99_s,
        p999_s,
        timeout_share: gave_up as f64 / customers,
        utilization,
        per_instance_served: served_by,
        customers: config.customers,
        events: 2 * total,
    })
}

/// Nearest-rank percentiles of `values` (the smallest value with at least a share q of the
/// values at or below it), for ascending shares, by selection rather than a full sort. The
/// slice is reordered. All 0 when it is empty.
fn percentiles<const K: usize>(values: &mut [f64], shares: [f64; K]) -> [f64; K] {
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
    fn every_request_is_served_or_gives_up() {
        for routing in Routing::ALL {
            let out = run(&RunConfig {
                instances: 5,
                workers_per_instance: 2,
                arrival_rate: 11.0,
                service_s: 1.0,
                customers: 20_000,
                warmup: 100,
                routing: *routing,
                timeout_s: Some(0.5),
                seed: 9,
            })
            .unwrap();
            let served: u64 = out.per_instance_served.iter().sum();
            let gave_up = libm::round(out.timeout_share * 20_000.0) as u64;
            assert_eq!(served + gave_up, 20_000, "{routing}");
            assert!(out.timeout_share > 0.0 && out.utilization > 0.7, "{out:?}");
            assert!(out.p50_s <= out.p95_s && out.p95_s <= out.p99_s && out.p99_s <= out.p999_s);
        }
    }
}
