//! The second-by-second walk of a regional minute: probes, arrivals at the consumer and
//! outlier sweeps, from event to event, and what it gives each region's minute.

use super::regional::GREY_ERROR_SHARE;
use super::Simulation;
use crate::event::EventKind;
use crate::health::{ProbeConfig, Resource, SourceKind};
use crate::message::{Message, MessageId};
use crate::outlier::{ejection_s, ejects, may_eject, Ejection, OutlierConfig};
use crate::regions::failover::{out_of_routing, route};
use crate::regions::{code, MAX_REGIONS};

/// The moments of a minute's walk.
struct WalkPlan {
    /// The moments to walk, in order; empty for the usual minute, one stretch from its start.
    times: Vec<u32>,
    only_start: [u32; 1],
    /// Probes may change something.
    probing: bool,
    /// Some region runs outlier detection.
    any_outlier: bool,
}

impl WalkPlan {
    fn times(&self) -> &[u32] {
        if self.times.is_empty() {
            &self.only_start
        } else {
            &self.times
        }
    }
}

/// What the second-by-second walk gives each region for the minute.
#[derive(Clone, Debug, Default)]
pub(super) struct Walk {
    /// Share of the minute region h's users were sent to region d: `to[h][d]`.
    pub(super) to: [[f64; MAX_REGIONS]; MAX_REGIONS],
    /// Share of a region's requests sent to crashed instances still marked healthy.
    pub(super) blackhole: [f64; MAX_REGIONS],
    /// Share of a region's requests served by its bad build.
    pub(super) grey: [f64; MAX_REGIONS],
}

impl Simulation {
    /// One sweep of outlier detection at second `t`, with the requests per second each
    /// region receives now.
    #[allow(clippy::needless_range_loop)]
    fn outlier_sweep(&mut self, t: u32, rate: &[f64; MAX_REGIONS], cfg: &OutlierConfig) {
        for r in 0..self.regions.len() {
            if !self.regions[r].outlier.on {
                continue;
            }
            self.visit(r);
            let back: Vec<u32> = self.regions[r]
                .outlier
                .ejected
                .iter()
                .filter(|e| e.until_s <= t)
                .map(|e| e.instance)
                .collect();
            self.regions[r].outlier.ejected.retain(|e| e.until_s > t);
            for &instance in &back {
                self.emit(EventKind::Unejected { instance });
            }
            let ids = self.service.fleet.serving_ids();
            let hosts = ids.len() as u32;
            let in_service = ids
                .iter()
                .filter(|id| !self.regions[r].outlier.is_ejected(**id))
                .count()
                .max(1);
            let per_host = rate[r] / in_service as f64 * f64::from(cfg.interval_s);
            for id in ids {
                let region = &self.regions[r];
                // A host back from ejection served nothing since the last sweep: the next
                // sweep judges it.
                if region.outlier.is_ejected(id) || back.contains(&id) {
                    continue;
                }
                let e = if region.grey.contains(&id) {
                    GREY_ERROR_SHARE
                } else {
                    region.last_error_rate
                };
                let ejected = region.outlier.ejected.len() as u32;
                if ejects(per_host, e, cfg) && may_eject(ejected, hosts, cfg) {
                    let times = self.regions[r].outlier.count(id);
                    let seconds = ejection_s(times, cfg);
                    self.regions[r].outlier.ejected.push(Ejection {
                        instance: id,
                        until_s: t + seconds,
                    });
                    self.emit(EventKind::Ejected {
                        instance: id,
                        seconds,
                    });
                }
            }
        }
    }

    /// Walks the minute from event to event (probes, arrivals at the consumer, outlier
    /// sweeps): between two events nothing changes, so each stretch counts for its length.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn walk_minute(&mut self, users: &[f64; MAX_REGIONS]) -> Walk {
        let n = self.regions.len();
        let probes = ProbeConfig::default();
        let outlier = OutlierConfig::default();
        let mut walk = Walk::default();
        self.sync_endpoints();
        let start = self.minute * 60;
        let end = start + 60;
        let plan = self.walk_plan(start, &probes, &outlier);
        let times = plan.times();
        let mut routed = [0usize; MAX_REGIONS];
        for (h, d) in routed.iter_mut().enumerate().take(n) {
            *d = self.regions[h].routed_to;
        }
        for (k, &t) in times.iter().enumerate() {
            let j = t - start;
            self.tick_second = Some(j);
            if plan.probing && t.is_multiple_of(probes.interval_s) {
                self.probe_all(t, &probes);
            }
            self.consumer_learns(t);
            self.follow_routing(&mut routed);
            if plan.any_outlier && j > 0 && t.is_multiple_of(outlier.interval_s) {
                let mut rate = [0.0; MAX_REGIONS];
                for h in 0..n {
                    rate[routed[h]] += users[h];
                }
                self.outlier_sweep(t, &rate, &outlier);
            }
            let until = times.get(k + 1).copied().unwrap_or(end);
            let w = f64::from(until - t) / 60.0;
            for h in 0..n {
                walk.to[h][routed[h]] += w;
            }
            self.weigh_bad_endpoints(&mut walk, w);
        }
        self.tick_second = None;
        for h in 0..n {
            self.regions[h].routed_to = routed[h];
        }
        walk
    }

    /// The moments of the minute starting at second `start` where something may change, in
    /// order. While every region is quiet a round of probes changes nothing, so none is
    /// walked.
    fn walk_plan(&self, start: u32, probes: &ProbeConfig, outlier: &OutlierConfig) -> WalkPlan {
        let n = self.regions.len();
        let end = start + 60;
        let any_outlier = self.regions.iter().any(|r| r.outlier.on);
        let probing = (0..n).any(|r| !self.quiet(r, probes));
        let arrivals_due = self.regions.iter().any(|r| {
            r.health
                .propagation
                .in_flight
                .iter()
                .any(|(t, _)| (start..end).contains(t))
        });
        // The usual minute: one stretch from its start, nothing to list.
        let mut times: Vec<u32> = Vec::new();
        if probing || any_outlier || arrivals_due {
            times.extend((start..end).filter(|t| {
                (probing && t.is_multiple_of(probes.interval_s))
                    || (any_outlier && *t > start && t.is_multiple_of(outlier.interval_s))
            }));
            for r in &self.regions {
                times.extend(
                    r.health
                        .propagation
                        .in_flight
                        .iter()
                        .map(|(t, _)| *t)
                        .filter(|t| (start..end).contains(t)),
                );
            }
            times.push(start);
            times.sort_unstable();
            times.dedup();
        }
        WalkPlan {
            times,
            only_start: [start],
            probing,
            any_outlier,
        }
    }

    /// The consumer's load balancer learns the composite states whose propagation ends at
    /// second `t`.
    fn consumer_learns(&mut self, t: u32) {
        for r in 0..self.regions.len() {
            for (from, to) in self.regions[r].health.propagation.arrive(t) {
                self.health_event(
                    r,
                    Resource::ConsumerRouting,
                    from,
                    to,
                    Message::new(MessageId::HealthReasonPropagated)
                        .int("delay", self.params.propagation_delay_s),
                );
            }
        }
    }

    /// Routing changes with what the consumer learns, and with a drain by hand: `routed[h]`
    /// is where region h's users go.
    #[allow(clippy::needless_range_loop)]
    fn follow_routing(&mut self, routed: &mut [usize; MAX_REGIONS]) {
        for h in 0..self.regions.len() {
            let now = self.route_of(h);
            if now != routed[h] {
                self.journal.region = None;
                self.emit(EventKind::Rerouted {
                    users: code(h),
                    from: code(routed[h]),
                    to: code(now),
                });
                routed[h] = now;
            }
        }
    }

    /// Adds a stretch of `w` minutes to each region's share of requests sent to crashed
    /// instances still marked healthy and to its bad build (ejected instances take none).
    fn weigh_bad_endpoints(&self, walk: &mut Walk, w: f64) {
        for (r, region) in self.regions.iter().enumerate() {
            if region.crashed.is_empty() && region.grey.is_empty() {
                continue;
            }
            let (mut marked, mut dead, mut grey) = (0u32, 0u32, 0u32);
            for (id, e) in region.health.endpoints(SourceKind::AppFleet) {
                if e.healthy && !region.outlier.is_ejected(*id) {
                    marked += 1;
                    dead += u32::from(region.crashed.contains(id));
                    grey += u32::from(region.grey.contains(id));
                }
            }
            if marked > 0 {
                walk.blackhole[r] += f64::from(dead) / f64::from(marked) * w;
                walk.grey[r] += f64::from(grey) / f64::from(marked) * w;
            }
        }
    }

    /// Where the consumer sends region `h`'s users now.
    pub(super) fn route_of(&self, h: usize) -> usize {
        let mut out = [false; MAX_REGIONS];
        for (o, r) in out.iter_mut().zip(&self.regions) {
            *o = out_of_routing(r.health.propagation.view, self.failover_on, r.drained);
        }
        route(h, &out[..self.regions.len()])
    }
}
