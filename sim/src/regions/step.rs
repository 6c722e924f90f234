//! The minute of a run with regions: the stages of [`Simulation::step`] region by region,
//! with the health checks, outlier detection and the consumer's routing walked second by
//! second before the regions serve (see the module [`crate::regions`]).

use super::failover::{out_of_routing, route};
use super::{
    code, demand_shares, policy_of, Region, RegionAction, RegionHealth, RegionMinute, SourceView,
    MAX_REGIONS, UTC_OFFSETS_MIN,
};
use crate::action::ActionKind;
use crate::autoscale::target_tracking::TargetTracking;
use crate::autoscale::Autoscaler;
use crate::engine::FailedOver;
use crate::event::{EventKind, FleetReason};
use crate::fleet::{Fleet, InstanceState};
use crate::health::{
    composite_state, probe_passes, probe_step, source_state, EndpointHealth, HealthState,
    ProbeConfig, Resource, SourceKind,
};
use crate::message::{Message, MessageId};
use crate::outlier::{ejection_s, ejects, may_eject, Ejection, OutlierConfig};
use crate::params::ModelParams;
use crate::record::MinuteRecord;
use crate::scenario::{Scenario, Scripted};
use crate::sim::{Backend, MinuteService, Simulation, Traffic, Users};
use crate::time::secs;
use crate::world::deploys::OPENING_BUILD;
use crate::world::service::{CacheState, ServiceUnit};
use crate::{cache, traffic};

/// Share of its real requests an instance on a region's bad build fails: all of them (its
/// health endpoint still answers; this is the grey failure).
pub const GREY_ERROR_SHARE: f64 = 1.0;

/// The regions of a new run of `scenario`: as many as `params.regions` (at least the
/// scenario's own), each with its share of the opening fleet. `fleet` is region a's.
/// Each region's service stage is the run's engine: the formulas, or a request engine of
/// its own whose random streams derive from `seed` and the region's index.
pub fn regions_of(
    scenario: &Scenario,
    params: &ModelParams,
    seed: u32,
    fleet: &mut Fleet,
) -> Vec<Region> {
    let n = (params.regions.max(scenario.regions) as usize).clamp(1, MAX_REGIONS);
    let shares = demand_shares(n);
    let opening = |share: f64| {
        if n == 1 {
            scenario.instances
        } else {
            (libm::ceil(f64::from(scenario.instances) * share) as u32).max(1)
        }
    };
    if n > 1 {
        *fleet = Fleet::default();
        fleet.start(opening(shares[0]), 0, 0, OPENING_BUILD, false);
    }
    (0..n)
        .map(|r| {
            let unit = (r > 0).then(|| {
                let mut f = Fleet::default();
                f.region = r as u8;
                f.start(opening(shares[r]), 0, 0, OPENING_BUILD, false);
                ServiceUnit {
                    fleet: f,
                    autoscaler: Box::new(TargetTracking::new(
                        params.scale_in_quiet_minutes,
                        params.scale_in_max_share,
                    )),
                    model: crate::sim::service_model(scenario, params, seed, r),
                    cache: CacheState::default(),
                    active_driver: None,
                }
            });
            let mut foreign_warm = [0.0; MAX_REGIONS];
            foreign_warm[r] = 1.0;
            Region {
                index: r,
                unit,
                share: shares[r],
                utc_offset_min: UTC_OFFSETS_MIN[r],
                min_instances: None,
                db_capacity_qps: params.db_capacity_qps,
                db_failed: false,
                foreign_warm,
                crashed: Vec::new(),
                restoring: Vec::new(),
                recovery_floor: None,
                grey: Vec::new(),
                health: RegionHealth::new(params.db_replicas),
                outlier: Default::default(),
                drained: false,
                routed_to: r,
                capacity_cap: None,
                last_timeout_share: 0.0,
                last_error_rate: 0.0,
            }
        })
        .collect()
}

/// What the second-by-second walk gives each region for the minute.
#[derive(Clone, Debug, Default)]
struct Walk {
    /// Share of the minute region h's users were sent to region d: `to[h][d]`.
    to: [[f64; MAX_REGIONS]; MAX_REGIONS],
    /// Share of a region's requests sent to crashed instances still marked healthy.
    blackhole: [f64; MAX_REGIONS],
    /// Share of a region's requests served by its bad build.
    grey: [f64; MAX_REGIONS],
}

impl Simulation {
    /// Makes region `r`'s unit the current one.
    pub(crate) fn visit(&mut self, r: usize) {
        self.ejected_now = self.regions[r].outlier.ejected.len() as u32;
        self.journal.region = (self.regions.len() > 1).then(|| code(r));
        let region = &self.regions[r];
        self.settings.min_instances = region
            .min_instances
            .unwrap_or(self.shared_min)
            .max(region.recovery_floor.unwrap_or(0));
        self.params.max_instances = self.regions[r].capacity_cap.unwrap_or(self.shared_max);
        if r == self.at {
            return;
        }
        {
            let unit = self.regions[r]
                .unit
                .take()
                .expect("a region other than the current one keeps its unit");
            let old = core::mem::replace(&mut self.service, unit);
            self.regions[self.at].unit = Some(old);
            self.at = r;
        }
    }

    /// Applies a user's action in a run with regions: a shared control to every region, a
    /// regional one to its region.
    pub(crate) fn apply_regional(&mut self, kind: &ActionKind) {
        match kind {
            ActionKind::Region(a) => self.apply_region_action(a),
            ActionKind::MinInstances(n) => {
                self.shared_min = *n;
                for r in &mut self.regions {
                    r.min_instances = None;
                }
                self.each_region(|sim| sim.apply_effect(kind.clone()));
            }
            ActionKind::Autoscaling(_) => {
                self.each_region(|sim| sim.apply_effect(kind.clone()));
            }
            // They act on every region's cache or fleet themselves, with one event.
            ActionKind::WarmCache | ActionKind::Rollback => self.apply_effect(kind.clone()),
            other => self.apply_effect(other.clone()),
        }
        self.visit(0);
    }

    fn each_region(&mut self, mut f: impl FnMut(&mut Self)) {
        for r in 0..self.regions.len() {
            self.visit(r);
            f(self);
        }
    }

    /// A regional control or an injected failure.
    pub(crate) fn apply_region_action(&mut self, a: &RegionAction) {
        let now_ms = secs(self.minute * 60);
        if let Some(r) = a.region() {
            if r >= self.regions.len() {
                return;
            }
            self.visit(r);
        }
        self.start_health();
        match *a {
            RegionAction::ZoneOutage { share, .. } => {
                let r = self.at;
                if share > 0.0 {
                    let ids = self.service.fleet.serving_ids();
                    let k = libm::round(share * ids.len() as f64) as usize;
                    let crashed: Vec<u32> = ids.into_iter().take(k).collect();
                    self.service
                        .fleet
                        .instances
                        .retain(|i| !crashed.contains(&i.id));
                    self.regions[r].grey.retain(|g| !crashed.contains(g));
                    self.regions[r].crashed.extend(crashed.iter().copied());
                    let left = self.service.fleet.live().max(1);
                    self.regions[r].capacity_cap = Some(left);
                    self.params.max_instances = left;
                    if !crashed.is_empty() {
                        self.emit(EventKind::InstancesCrashed {
                            count: crashed.len() as u32,
                        });
                    }
                } else {
                    // The zone is back: the instance group boots the instances it lost
                    // again, through the boot delay. Their endpoints stay in the backend
                    // and fail their probes until they serve, so the region turns healthy
                    // (and its users come back) only once they do; until then its
                    // autoscaler keeps them.
                    let ids = core::mem::take(&mut self.regions[r].crashed);
                    self.regions[r].capacity_cap = None;
                    self.params.max_instances = self.shared_max;
                    if !ids.is_empty() {
                        let boot_ms = secs(self.scenario.boot_minutes * 60);
                        let build = self.deploys.live_build;
                        self.service.fleet.restart(&ids, now_ms, boot_ms, build);
                        self.emit(EventKind::InstancesStarted {
                            count: ids.len() as u32,
                            reason: FleetReason::ZoneBack,
                        });
                        let live = self.service.fleet.live();
                        let region = &mut self.regions[r];
                        region.restoring.extend(ids);
                        region.recovery_floor = Some(live);
                        self.settings.min_instances = self.settings.min_instances.max(live);
                    }
                }
            }
            RegionAction::DbFailure { on, .. } => self.regions[self.at].db_failed = on,
            RegionAction::BadBuild { share, .. } => {
                let ids = self.service.fleet.serving_ids();
                let k = libm::round(share * ids.len() as f64) as usize;
                self.regions[self.at].grey = ids.into_iter().take(k).collect();
            }
            RegionAction::DrainRegion { on, .. } => self.regions[self.at].drained = on,
            RegionAction::RegionMinInstances { min, .. } => {
                let r = self.at;
                self.regions[r].min_instances = Some(min);
                // A zone's instances coming back stay (see `Region::recovery_floor`).
                let min = min.max(self.regions[r].recovery_floor.unwrap_or(0));
                self.settings.min_instances = min;
                let live = self.service.fleet.live();
                if live < min || (!self.settings.autoscaling && live > min) {
                    self.resize(min, now_ms, FleetReason::MinimumInstances);
                }
            }
            RegionAction::OutlierDetection { on, .. } => {
                let r = self.at;
                self.regions[r].outlier.on = on;
                if !on {
                    self.regions[r].outlier.ejected.clear();
                }
            }
            RegionAction::Failover(on) => self.failover_on = on,
            RegionAction::HealthyPercent(p) => {
                self.params.healthy_percent = p;
                self.reconfigured();
            }
            RegionAction::MinHealthy(n) => {
                self.params.min_healthy = n;
                self.reconfigured();
            }
        }
    }

    /// Whether a regional action or failure applies this minute (a one-region run then
    /// takes the regional path from this minute on).
    pub(crate) fn regional_action_due(&self) -> bool {
        let m = self.minute;
        self.journal
            .pending
            .iter()
            .take_while(|a| a.minute <= m)
            .any(|a| matches!(a.kind, ActionKind::Region(_)))
            || self
                .script
                .iter()
                .any(|s| matches!(s, Scripted::RegionFailure { minute, .. } if *minute == m))
    }

    /// Health checks start (the first failure or health control of a one-region run).
    fn start_health(&mut self) {
        if !self.health_on {
            self.health_on = true;
            let replicas = self.params.db_replicas;
            for r in &mut self.regions {
                r.health = RegionHealth::new(replicas);
            }
            self.shared_min = self.settings.min_instances;
        }
    }

    /// A changed aggregation policy takes effect at once: the sources and the composite
    /// checks go back to UNKNOWN until their next evaluation.
    fn reconfigured(&mut self) {
        let second = self.tick_second;
        self.tick_second = Some(0);
        for r in 0..self.regions.len() {
            let h = &mut self.regions[r].health;
            let changes = [
                (
                    Resource::Source {
                        source: SourceKind::AppFleet,
                    },
                    h.app_state,
                ),
                (
                    Resource::Source {
                        source: SourceKind::Database,
                    },
                    h.db_state,
                ),
                (Resource::Composite, h.composite),
            ];
            h.app_state = HealthState::Unknown;
            h.db_state = HealthState::Unknown;
            h.composite = HealthState::Unknown;
            let at_s = self.minute * 60;
            h.propagation
                .send(at_s, HealthState::Unknown, self.params.propagation_delay_s);
            for (resource, from) in changes {
                if from != HealthState::Unknown {
                    self.health_event(
                        r,
                        resource,
                        from,
                        HealthState::Unknown,
                        Message::new(MessageId::HealthReasonReconfigured),
                    );
                }
            }
        }
        self.tick_second = second;
    }

    fn health_event(
        &mut self,
        r: usize,
        resource: Resource,
        from: HealthState,
        to: HealthState,
        reason: Message,
    ) {
        self.journal.region = Some(code(r));
        self.emit(EventKind::HealthTransition {
            resource,
            from,
            to,
            reason,
        });
        self.journal.region = (self.regions.len() > 1).then(|| code(self.at));
    }

    /// The endpoints of each region's app source: its serving instances, its crashed ones
    /// and those of a zone that came back still booting (a new endpoint enters healthy: an
    /// instance's boot ends when it passes its readiness checks; a returning one stays
    /// unhealthy until its probes pass).
    fn sync_endpoints(&mut self) {
        for r in 0..self.regions.len() {
            if !self.regions[r].restoring.is_empty() {
                // A returning instance that serves now is an endpoint like the others (one
                // stopped meanwhile leaves the backend).
                let Some(fleet) = self.region_fleet(r) else {
                    continue;
                };
                let booting: Vec<u32> = self.regions[r]
                    .restoring
                    .iter()
                    .copied()
                    .filter(|id| {
                        fleet.instances.iter().any(|i| {
                            i.id == *id && !i.rollback && i.state != InstanceState::Serving
                        })
                    })
                    .collect();
                self.regions[r].restoring = booting;
            }
            let Some(fleet) = self.region_fleet(r) else {
                continue;
            };
            let region = &self.regions[r];
            // Unchanged since the last minute (the usual case): nothing to do.
            let mut serving = fleet
                .instances
                .iter()
                .filter(|i| !i.rollback && i.state == InstanceState::Serving)
                .map(|i| i.id)
                .chain(region.crashed.iter().copied())
                .chain(region.restoring.iter().copied());
            let app = &region.health.app;
            let same =
                app.iter().all(|(id, _)| serving.next() == Some(*id)) && serving.next().is_none();
            if same {
                continue;
            }
            let mut ids = fleet.serving_ids();
            ids.extend(self.regions[r].crashed.iter().copied());
            ids.extend(self.regions[r].restoring.iter().copied());
            let old = core::mem::take(&mut self.regions[r].health.app);
            self.regions[r].health.app = ids
                .into_iter()
                .map(|id| {
                    let e = old
                        .iter()
                        .find(|(i, _)| *i == id)
                        .map_or(EndpointHealth::READY, |(_, e)| *e);
                    (id, e)
                })
                .collect();
        }
    }

    /// One round of probes in every region at second `t` of the run.
    fn probe_all(&mut self, t: u32, cfg: &ProbeConfig) {
        let policy = policy_of(&self.params);
        let delay = self.params.propagation_delay_s;
        let (request_timeout, probe_timeout) = (self.params.timeout_s, f64::from(cfg.timeout_s));
        for r in 0..self.regions.len() {
            let timeout_share = self.regions[r].last_timeout_share;
            let mut changes = Vec::new();
            let region = &mut self.regions[r];
            for (id, e) in region.health.app.iter_mut() {
                let crashed = region.crashed.contains(id) || region.restoring.contains(id);
                let next = probe_step(
                    *e,
                    probe_passes(!crashed, timeout_share, request_timeout, probe_timeout),
                    cfg,
                );
                if next.healthy != e.healthy {
                    changes.push((Resource::Endpoint { instance: *id }, e.healthy, crashed));
                }
                *e = next;
            }
            let db_down = region.db_failed;
            for (k, e) in region.health.db.iter_mut().enumerate() {
                let next = probe_step(*e, !db_down, cfg);
                if next.healthy != e.healthy {
                    changes.push((Resource::Replica { replica: k as u32 }, e.healthy, db_down));
                }
                *e = next;
            }
            for (resource, was, down) in changes {
                let (from, to) = if was {
                    (HealthState::Healthy, HealthState::Unhealthy)
                } else {
                    (HealthState::Unhealthy, HealthState::Healthy)
                };
                let reason = match (to, down) {
                    (HealthState::Healthy, _) => MessageId::HealthReasonProbesPassed,
                    (_, true) => MessageId::HealthReasonDown,
                    _ => MessageId::HealthReasonProbeTimeout,
                };
                let threshold = if to == HealthState::Healthy {
                    cfg.healthy_threshold
                } else {
                    cfg.unhealthy_threshold
                };
                self.health_event(
                    r,
                    resource,
                    from,
                    to,
                    Message::new(reason).int("probes", threshold),
                );
            }
            let ((ah, at), (dh, dt)) = self.regions[r].health.counts();
            let app = source_state(ah, at, policy);
            let db = source_state(dh, dt, policy);
            let composite = composite_state(&[app, db]);
            let h = &self.regions[r].health;
            let before = [h.app_state, h.db_state, h.composite];
            let h = &mut self.regions[r].health;
            h.app_state = app;
            h.db_state = db;
            h.composite = composite;
            if composite != before[2] {
                h.propagation.send(t, composite, delay);
            }
            let sources = [
                (SourceKind::AppFleet, before[0], app, ah, at),
                (SourceKind::Database, before[1], db, dh, dt),
            ];
            for (source, from, to, healthy, total) in sources {
                if from != to {
                    self.health_event(
                        r,
                        Resource::Source { source },
                        from,
                        to,
                        Message::new(MessageId::HealthReasonPolicy)
                            .int("healthy", healthy)
                            .int("total", total)
                            .int("percent", policy.healthy_percent)
                            .int("min", policy.min_healthy),
                    );
                }
            }
            if composite != before[2] {
                self.health_event(
                    r,
                    Resource::Composite,
                    before[2],
                    composite,
                    Message::new(MessageId::HealthReasonSources)
                        .code("app", app.as_str())
                        .code("database", db.as_str()),
                );
            }
        }
    }

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
    fn walk_minute(&mut self, users: &[f64; MAX_REGIONS]) -> Walk {
        let n = self.regions.len();
        let probes = ProbeConfig::default();
        let outlier = OutlierConfig::default();
        let mut walk = Walk::default();
        self.sync_endpoints();
        let start = self.minute * 60;
        let end = start + 60;
        // The moments something may change, in order. While every region is quiet a
        // round of probes changes nothing, so none is walked.
        let any_outlier = self.regions.iter().any(|r| r.outlier.on);
        let probing = (0..n).any(|r| !self.quiet(r, &probes));
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
        let only_start = [start];
        let times: &[u32] = if times.is_empty() {
            &only_start
        } else {
            &times
        };
        let mut routed = [0usize; MAX_REGIONS];
        for (h, d) in routed.iter_mut().enumerate().take(n) {
            *d = self.regions[h].routed_to;
        }
        for (k, &t) in times.iter().enumerate() {
            let j = t - start;
            self.tick_second = Some(j);
            if probing && t.is_multiple_of(probes.interval_s) {
                self.probe_all(t, &probes);
            }
            for r in 0..n {
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
            // Routing changes with what the consumer learns, and with a drain by hand.
            {
                for h in 0..n {
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
            if any_outlier && j > 0 && t.is_multiple_of(outlier.interval_s) {
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
            for r in 0..n {
                let region = &self.regions[r];
                if region.crashed.is_empty() && region.grey.is_empty() {
                    continue;
                }
                let (mut marked, mut dead, mut grey) = (0u32, 0u32, 0u32);
                for (id, e) in &region.health.app {
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
        self.tick_second = None;
        for h in 0..n {
            self.regions[h].routed_to = routed[h];
        }
        walk
    }

    /// Whether a round of probes would change nothing in region `r`: nothing crashed, its
    /// database up, no probe can time out, every endpoint healthy with no failure counted,
    /// and its sources and composite already what their counts give.
    fn quiet(&self, r: usize, cfg: &ProbeConfig) -> bool {
        let region = &self.regions[r];
        let h = &region.health;
        let steady = |e: &EndpointHealth| e.healthy && e.streak == 0;
        if !region.crashed.is_empty()
            || region.db_failed
            || !probe_passes(
                true,
                region.last_timeout_share,
                self.params.timeout_s,
                f64::from(cfg.timeout_s),
            )
            || !h.app.iter().all(|(_, e)| steady(e))
            || !h.db.iter().all(steady)
        {
            return false;
        }
        let policy = policy_of(&self.params);
        let app = source_state(h.app.len() as u32, h.app.len() as u32, policy);
        let db = source_state(h.db.len() as u32, h.db.len() as u32, policy);
        h.app_state == app && h.db_state == db && h.composite == composite_state(&[app, db])
    }

    /// Where the consumer sends region `h`'s users now.
    fn route_of(&self, h: usize) -> usize {
        let mut out = [false; MAX_REGIONS];
        for (o, r) in out.iter_mut().zip(&self.regions) {
            *o = out_of_routing(r.health.propagation.view, self.failover_on, r.drained);
        }
        route(h, &out[..self.regions.len()])
    }

    /// The cache and the database of region `r` for the requests sent to it:
    /// `arrivals[h]` from region h's users.
    fn region_backend(&self, r: usize, arrivals: &[f64; MAX_REGIONS], p: &ModelParams) -> Backend {
        let n = self.regions.len();
        let region = &self.regions[r];
        let mut users = [Users::default(); MAX_REGIONS];
        for (h, u) in users.iter_mut().enumerate().take(n) {
            *u = Users {
                lambda: arrivals[h],
                warm: if h == r {
                    self.service.cache.warm
                } else {
                    region.foreign_warm[h]
                },
                // Each region's users have their own keys, a share of the working set.
                hot_objects: p.hot_objects * self.regions[h].share,
            };
        }
        self.backend_for(
            &users[..n],
            region.share,
            region.db_capacity_qps,
            region.db_failed,
            p,
        )
    }

    /// Simulates the next minute of a run with regions (or with health checks on).
    pub(crate) fn step_regions(&mut self) -> &MinuteRecord {
        let m = self.minute;
        let p = self.params.clone();
        let n = self.regions.len();
        let start_ms = secs(m * 60);

        self.visit(0);
        self.apply_due_actions();
        self.run_regional_script();
        self.run_script();
        // Every fleet takes the rolling update's step (the current one, a's, took it in
        // `run_script`) before a rollback switches them all.
        for unit in self.regions.iter_mut().filter_map(|r| r.unit.as_mut()) {
            self.deploys.roll_out_fleet(&mut unit.fleet);
        }
        for r in 0..n {
            self.visit(r);
            self.fleet_at_minute_start(start_ms);
        }
        self.visit(0);
        let traffic = self.traffic(&p);
        let users = self.users(traffic.rate);
        // Whether the consumer routes to each region (its drain by hand aside) as the
        // minute starts: a zone's returning instances are kept until a whole minute of it.
        let mut routed_at_start = [false; MAX_REGIONS];
        for (o, r) in routed_at_start.iter_mut().zip(&self.regions) {
            *o = !out_of_routing(r.health.propagation.view, self.failover_on, false);
        }
        let walk = self.walk_minute(&users);

        let mut served: Vec<(Traffic, Backend, MinuteService, [f64; MAX_REGIONS])> =
            Vec::with_capacity(n);
        for r in 0..n {
            self.visit(r);
            let mut arrivals = [0.0; MAX_REGIONS];
            for h in 0..n {
                arrivals[h] = users[h] * walk.to[h][r];
            }
            let rate: f64 = arrivals.iter().sum();
            let admitted_users: [f64; MAX_REGIONS] =
                arrivals.map(|a| a * (1.0 - traffic.shed_share));
            let t = Traffic {
                rate,
                shed_share: traffic.shed_share,
                admitted: rate * (1.0 - traffic.shed_share) * (1.0 - walk.blackhole[r]),
            };
            let b = if n == 1 {
                self.backend(&t, &p)
            } else {
                self.region_backend(r, &admitted_users, &p)
            };
            self.failed_over = FailedOver {
                share: if rate > 0.0 {
                    (rate - arrivals[r]) / rate
                } else {
                    0.0
                },
                penalty_s: p.cross_region_ms / 1000.0,
            };
            let s = self.serve_minute(&t, &b, &p);
            self.failed_over = FailedOver::default();
            served.push((t, b, s, arrivals));
        }

        // Each region's errors: requests sent to crashed instances, those its bad build
        // fails, and what its queue and database fail.
        let mut errors = [0.0; MAX_REGIONS];
        for (r, e) in errors.iter_mut().enumerate().take(n) {
            let served_errors = served[r].2.sums.error_rate;
            *e = 1.0
                - (1.0 - walk.blackhole[r])
                    * (1.0 - walk.grey[r] * GREY_ERROR_SHARE)
                    * (1.0 - served_errors);
        }
        let admitted_all: f64 = served
            .iter()
            .map(|(t, ..)| t.rate * (1.0 - t.shed_share))
            .sum();
        let mut weights = [0.0; MAX_REGIONS];
        for (w, (t, ..)) in weights.iter_mut().zip(&served) {
            *w = if admitted_all > 0.0 {
                t.rate * (1.0 - t.shed_share) / admitted_all
            } else {
                1.0 / n as f64
            };
        }
        let mean = |f: &dyn Fn(usize) -> f64| (0..n).map(|r| weights[r] * f(r)).sum::<f64>();
        let error_rate = if n == 1 {
            errors[0]
        } else {
            mean(&|r| errors[r])
        };
        let burn = self.budget.observe(error_rate, p.slo);
        let penalty = p.cross_region_ms;
        let foreign = |r: usize| {
            let a = &served[r].3;
            let all: f64 = a.iter().sum();
            if all > 0.0 {
                (all - a[r]) / all
            } else {
                0.0
            }
        };
        // The p99 of all requests is at most the largest of the regions' p99 (failed-over
        // requests carry the cross-region penalty).
        let p99_s = (0..n)
            .filter(|r| served[*r].0.rate > 0.0 || n == 1)
            .map(|r| {
                served[r].2.p99_s
                    + if foreign(r) > 0.01 {
                        penalty / 1000.0
                    } else {
                        0.0
                    }
            })
            .fold(0.0, f64::max);
        let sum_u = |f: &dyn Fn(&MinuteService) -> u32| served.iter().map(|s| f(&s.2)).sum::<u32>();
        let cost_per_hour: f64 = served.iter().map(|s| s.2.sums.cost_per_hour).sum();
        let serving = sum_u(&|s| s.last.serving);
        let live_share = self.fleet_share(|b, live| b == live);
        self.visit(0);
        let cache = self.service.cache;
        let record = MinuteRecord {
            minute: m,
            clock: self.clock_at(m),
            requests_per_s: traffic.rate,
            serving,
            booting: sum_u(&|s| s.last.booting),
            cache_hit: mean(&|r| served[r].1.hit),
            db_utilization: (0..n).map(|r| served[r].1.db_rho).fold(0.0, f64::max),
            shed_share: traffic.shed_share,
            fleet_cost_per_hour: cost_per_hour,
            cost_so_far: self.ledger.cost_so_far,
            cache_age_s: cache::mean_age_s(served[0].1.ttl_s),
            bad_build_share: mean(&|r| served[r].2.sums.bad_share),
            build: self.deploys.live_build,
            build_share: live_share,
            feature_available: if served[0].1.heavy { 1.0 } else { 0.0 },
            utilization: mean(&|r| served[r].2.sums.utilization),
            error_rate,
            timeout_share: mean(&|r| served[r].2.sums.timeout_share),
            p99_ms: p99_s * 1000.0,
            burn_rate_1h: burn.burn_1h,
            budget_left: self.budget.left,
            paging: burn.page,
            p99_approx_ms: (0..n)
                .map(|r| served[r].2.sums.p99_approx_s * 1000.0)
                .fold(0.0, f64::max),
            burn_rate_5m: burn.burn_5m,
            draining: sum_u(&|s| s.last.draining),
            capacity_per_s: served.iter().map(|s| s.2.sums.capacity_per_s).sum(),
            service_time_ms: mean(&|r| served[r].2.sums.service_ms),
            query_time_ms: mean(&|r| served[r].1.query_ms),
            cache_warm: cache.warm,
            warmup_minutes_left: cache.warmup_left,
            rollback_minutes_left: self.deploys.rollback_ready_minute.map_or(0, |r| r - m),
            erlang_c: mean(&|r| served[r].2.sums.erlang_c),
            rejected_share: mean(&|r| served[r].2.sums.rejected),
        };

        self.budget.spend(error_rate, traffic.admitted, p.slo);
        self.ledger.close_minute(cost_per_hour);
        self.visit(0);
        // The page is the service's, not a region's.
        self.journal.region = None;
        self.page_follows(&burn);
        self.journal.history.push(record);
        let total_rate: f64 = served.iter().map(|s| s.0.rate).sum();
        let mut views = Vec::with_capacity(n);
        for r in 0..n {
            self.visit(r);
            let (t, b, s, arrivals) = &served[r];
            self.refill_cache(b, &p);
            self.refill_foreign(r, arrivals, b, &p);
            let region = &mut self.regions[r];
            region.last_timeout_share = s.last.served.queue.timeout_share;
            region.last_error_rate = s.sums.error_rate;
            let ((ah, at), (dh, dt)) = region.health.counts();
            // The policy in force at the minute's end (a change this minute included).
            let policy = policy_of(&self.params);
            let view = |state, healthy, total| SourceView {
                state,
                healthy,
                total,
                healthy_percent: policy.healthy_percent,
                min_healthy: policy.min_healthy,
            };
            let a_rate: f64 = arrivals.iter().sum();
            views.push(RegionMinute {
                region: code(r),
                composite: region.health.composite,
                consumer_view: region.health.propagation.view,
                in_routing: !out_of_routing(
                    region.health.propagation.view,
                    self.failover_on,
                    region.drained,
                ),
                app: view(region.health.app_state, ah, at),
                database: view(region.health.db_state, dh, dt),
                routed_to: "",
                users_per_s: users[r],
                requests_per_s: t.rate,
                traffic_share: if total_rate > 0.0 {
                    t.rate / total_rate
                } else {
                    0.0
                },
                failed_over_share: if a_rate > 0.0 {
                    (a_rate - arrivals[r]) / a_rate
                } else {
                    0.0
                },
                serving: s.last.serving,
                booting: s.last.booting,
                crashed: region.crashed.len() as u32,
                ejected: region.outlier.ejected.len() as u32,
                outlier_detection: region.outlier.on,
                drained: region.drained,
                error_rate: errors[r],
                p99_ms: s.p99_s * 1000.0,
                cache_hit: b.hit,
                db_utilization: b.db_rho,
                db_failed: region.db_failed,
                fleet_cost_per_hour: s.sums.cost_per_hour,
            });
            self.scale_at_minute_end(s, t.admitted, secs((m + 1) * 60));
            // The zone's instances all served and the consumer routed to the region the
            // whole minute: its autoscaler, which has seen a minute of the region's own
            // traffic, is free to follow it.
            let region = &mut self.regions[r];
            if region.recovery_floor.is_some()
                && region.restoring.is_empty()
                && routed_at_start[r]
                && !out_of_routing(region.health.propagation.view, self.failover_on, false)
            {
                region.recovery_floor = None;
            }
        }
        for (h, v) in views.iter_mut().enumerate() {
            v.routed_to = code(self.route_of(h));
        }
        self.region_history.push(views);
        self.visit(0);
        // Between minutes the controls read as the shared ones (a region's own floor and a
        // zone outage's ceiling apply while that region is stepped).
        self.settings.min_instances = self.shared_min;
        self.params.max_instances = self.shared_max;
        self.minute += 1;
        self.journal
            .history
            .last()
            .expect("a record was just pushed")
    }

    /// Share of all regions' serving instances whose build passes `keep(build, live)`.
    fn fleet_share(&self, keep: impl Fn(u32, u32) -> bool) -> f64 {
        let live = self.deploys.live_build;
        let (mut yes, mut all) = (0.0, 0.0);
        for r in 0..self.regions.len() {
            if let Some(fleet) = self.region_fleet(r) {
                let serving = f64::from(fleet.serving());
                yes += fleet.serving_share(|b| keep(b, live)) * serving;
                all += serving;
            }
        }
        if all > 0.0 {
            yes / all
        } else {
            0.0
        }
    }

    /// Each region's users' requests per second: the minute's total split as the regions'
    /// diurnal curves (shifted by their time zones) weigh them.
    fn users(&self, rate: f64) -> [f64; MAX_REGIONS] {
        let n = self.regions.len();
        let mut out = [0.0; MAX_REGIONS];
        if n == 1 {
            out[0] = rate;
            return out;
        }
        let t = f64::from(self.minute);
        let clock = self.scenario.clock_min;
        let mut means = [0.0; MAX_REGIONS];
        for (m, r) in means.iter_mut().zip(&self.regions) {
            *m = traffic::diurnal_rate(
                r.share,
                self.params.diurnal_amplitude,
                t,
                super::region_clock_min(clock, r.utc_offset_min),
            );
        }
        let total: f64 = means.iter().sum();
        for r in 0..n {
            out[r] = if total > 0.0 {
                rate * means[r] / total
            } else {
                0.0
            };
        }
        out
    }

    /// A region's cache for other regions' users' keys: it fills as their requests come
    /// (the same refill law as its own keys); unused for a minute, the entries expire once
    /// the TTL is at most a minute.
    #[allow(clippy::needless_range_loop)]
    fn refill_foreign(
        &mut self,
        r: usize,
        arrivals: &[f64; MAX_REGIONS],
        b: &Backend,
        p: &ModelParams,
    ) {
        let headroom = if b.db_demand > 0.0 {
            (self.regions[r].db_capacity_qps / b.db_demand).min(1.0)
        } else {
            1.0
        };
        let ttl_s = b.ttl_s;
        let region = &mut self.regions[r];
        for h in 0..MAX_REGIONS {
            if h == r {
                continue;
            }
            let w = &mut region.foreign_warm[h];
            if arrivals[h] > 0.0 {
                *w = cache::refill(*w, 1.0, p.refill_tau_min, headroom);
            } else if ttl_s <= 60.0 {
                *w = 0.0;
            }
        }
    }

    /// The scenario's regional failures due this minute.
    fn run_regional_script(&mut self) {
        let m = self.minute;
        let due: Vec<RegionAction> = self
            .script
            .iter()
            .filter_map(|s| match *s {
                Scripted::RegionFailure { minute, action } if minute == m => Some(action),
                _ => None,
            })
            .collect();
        for action in due {
            self.journal.region = None;
            self.emit(EventKind::Failure {
                failure: action.message(),
                injected: action,
            });
            self.apply_region_action(&action);
        }
        self.visit(0);
    }

    /// Each region in each minute so far (empty for a one-region run without health
    /// checks).
    pub fn region_history(&self) -> &[Vec<RegionMinute>] {
        &self.region_history
    }

    /// How many regions the run has.
    pub fn region_count(&self) -> usize {
        self.regions.len()
    }

    /// Whether health-based failover is on.
    pub fn failover_on(&self) -> bool {
        self.failover_on
    }

    /// The fleet of region `r`, if it exists.
    pub fn region_fleet(&self, r: usize) -> Option<&Fleet> {
        if r == self.at {
            Some(&self.service.fleet)
        } else {
            self.regions.get(r)?.unit.as_ref().map(|u| &u.fleet)
        }
    }

    /// Replaces every region's autoscaler (one instance each, same policy and parameters).
    pub fn set_autoscalers(&mut self, mut make: impl FnMut() -> Box<dyn Autoscaler>) {
        for r in 0..self.regions.len() {
            self.visit(r);
            self.service.autoscaler = make();
        }
        self.visit(0);
    }

    /// Instances serving in region `r` now (for tests and the console).
    pub fn region_serving(&self, r: usize) -> u32 {
        self.region_fleet(r).map_or(0, |f| {
            f.instances
                .iter()
                .filter(|i| i.state == InstanceState::Serving)
                .count() as u32
        })
    }
}
#[cfg(test)]
mod quiet_tests {
    use crate::setup::RunSetup;

    #[test]
    fn a_quiet_day_walks_no_probe_after_the_first_evaluation() {
        let mut s = RunSetup::new(crate::ids::ScenarioId::FreePlay, 1);
        s.set("regions", "3").unwrap();
        let mut sim = s.build().unwrap();
        sim.run(2);
        let cfg = super::ProbeConfig::default();
        for _ in 0..300 {
            for r in 0..3 {
                assert!(sim.quiet(r, &cfg), "minute {} region {r}", sim.minute);
            }
            sim.step();
        }
    }
}

#[cfg(test)]
mod backend_tests {
    use crate::params::ModelParams;
    use crate::setup::RunSetup;
    use crate::sim::{Traffic, Users};
    use crate::{cache, database};

    /// The one-region stage and the regional one are one function: one group of users is
    /// the textbook hit ratio and load; several are their rate-weighted mix.
    #[test]
    fn one_backend_for_one_region_and_for_several() {
        let sim = RunSetup::new(crate::ids::ScenarioId::FreePlay, 1)
            .build()
            .unwrap();
        let p = ModelParams::default();
        let ttl = f64::from(sim.settings.cache_ttl_s);
        let traffic = Traffic {
            rate: 900.0,
            shed_share: 0.0,
            admitted: 900.0,
        };
        let one = sim.backend(&traffic, &p);
        let hit = cache::ttl_hit(sim.service.cache.warm, 900.0, ttl, p.hot_objects);
        assert_eq!(one.hit, hit);
        assert_eq!(
            one.db_demand,
            database::db_load(900.0, one.queries, hit, 0.0)
        );
        assert_eq!(one.db_rho, one.db_demand / p.db_capacity_qps);
        let group = |lambda: f64, warm: f64| Users {
            lambda,
            warm,
            hot_objects: p.hot_objects / 2.0,
        };
        let two = sim.backend_for(
            &[group(600.0, 1.0), group(300.0, 0.0)],
            0.5,
            p.db_capacity_qps,
            true,
            &p,
        );
        let (home, cold) = (
            cache::ttl_hit(1.0, 600.0, ttl, p.hot_objects / 2.0),
            cache::ttl_hit(0.0, 300.0, ttl, p.hot_objects / 2.0),
        );
        assert!((two.hit - (600.0 * home + 300.0 * cold) / 900.0).abs() < 1e-12);
        assert!(cold < home);
        // A failed database fails every miss.
        assert_eq!(two.db_failed, 1.0);
    }
}
