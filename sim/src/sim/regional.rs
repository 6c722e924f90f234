//! The minute of a run with regions: the stages of [`Simulation::step`] region by region,
//! with the health checks, outlier detection and the consumer's routing walked second by
//! second before the regions serve (see the module [`crate::regions`]).

use super::walk::Walk;
use super::{Backend, MinuteService, Simulation, Traffic, Users};
use crate::action::ActionKind;
use crate::autoscale::target_tracking::TargetTracking;
use crate::autoscale::Autoscaler;
use crate::engine::FailedOver;
use crate::event::{EventKind, FleetReason};
use crate::fleet::{Fleet, InstanceState};
#[cfg(test)]
use crate::health::ProbeConfig;
use crate::params::ModelParams;
use crate::record::MinuteRecord;
use crate::regions::failover::out_of_routing;
use crate::regions::{
    code, demand_shares, Region, RegionAction, RegionHealth, RegionMinute, SourceHealth,
    SourceView, SourceViews, MAX_REGIONS, UTC_OFFSETS_MIN,
};
use crate::scenario::{Scenario, Scripted};
use crate::time::{secs, Millis};
use crate::world::budget::BurnReading;
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
                health: RegionHealth::new(params),
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
            RegionAction::ZoneOutage { share, .. } if share > 0.0 => self.zone_down(share),
            RegionAction::ZoneOutage { .. } => self.zone_back(now_ms),
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

    /// A zone of the current region goes down: `share` of its serving instances crash (their
    /// endpoints stay registered and fail their probes), and the region cannot grow past
    /// what it has left.
    fn zone_down(&mut self, share: f64) {
        let r = self.at;
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
    }

    /// The current region's zone is back: the instance group boots the instances it lost
    /// again, through the boot delay. Their endpoints stay in the backend and fail their
    /// probes until they serve, so the region turns healthy (and its users come back) only
    /// once they do; until then its autoscaler keeps them.
    fn zone_back(&mut self, now_ms: Millis) {
        let r = self.at;
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

    /// Simulates the next minute of a run with regions (or with health checks on): the
    /// shared stages, then the walk of the minute's seconds, each region's service, the
    /// service's record and each region's close.
    pub(crate) fn step_regions(&mut self) -> &MinuteRecord {
        let m = self.minute;
        let p = self.params.clone();
        self.open_regional_minute(secs(m * 60));
        let traffic = self.traffic(&p);
        let users = self.users(traffic.rate);
        let routed_at_start = self.routed_at_start();
        let walk = self.walk_minute(&users);
        let served = self.serve_regions(&users, &traffic, &walk, &p);
        let errors = region_errors(&served, &walk);
        let mix = Mix::of(&served);
        let error_rate = if served.len() == 1 {
            errors[0]
        } else {
            mix.mean(|r| errors[r])
        };
        let burn = self.budget.observe(error_rate, p.slo);
        let record = self.regional_record(&traffic, &served, &mix, error_rate, &burn, &p);
        self.close_service_minute(record, &burn, &traffic, &p);
        let views = self.close_regions(&served, &users, &errors, &routed_at_start, &p);
        self.end_regional_minute(views)
    }

    /// The minute's first stages, shared by every region: the actions and the scripts, the
    /// rolling update's step in every fleet, and each fleet's boots and drains.
    fn open_regional_minute(&mut self, start_ms: Millis) {
        self.visit(0);
        self.apply_due_actions();
        self.run_regional_script();
        self.run_script();
        // Every fleet takes the rolling update's step (the current one, a's, took it in
        // `run_script`) before a rollback switches them all.
        for unit in self.regions.iter_mut().filter_map(|r| r.unit.as_mut()) {
            self.deploys.roll_out_fleet(&mut unit.fleet);
        }
        for r in 0..self.regions.len() {
            self.visit(r);
            self.fleet_at_minute_start(start_ms);
        }
        self.visit(0);
    }

    /// Whether the consumer routes to each region (its drain by hand aside) as the minute
    /// starts: a zone's returning instances are kept until a whole minute of it.
    fn routed_at_start(&self) -> [bool; MAX_REGIONS] {
        let mut routed_at_start = [false; MAX_REGIONS];
        for (o, r) in routed_at_start.iter_mut().zip(&self.regions) {
            *o = !out_of_routing(r.health.propagation.view, self.failover_on, false);
        }
        routed_at_start
    }

    /// Each region serves the time-weighted mean of what the walk routed to it.
    fn serve_regions(
        &mut self,
        users: &[f64; MAX_REGIONS],
        traffic: &Traffic,
        walk: &Walk,
        p: &ModelParams,
    ) -> Vec<Served> {
        let n = self.regions.len();
        let mut served = Vec::with_capacity(n);
        for r in 0..n {
            self.visit(r);
            let mut arrivals = [0.0; MAX_REGIONS];
            for h in 0..n {
                arrivals[h] = users[h] * walk.to[h][r];
            }
            served.push(self.serve_region(r, arrivals, traffic, walk.blackhole[r], p));
        }
        served
    }

    /// Region `r` (the current one) serves `arrivals[h]` requests per second from region
    /// h's users, `blackhole` of them sent to crashed instances.
    fn serve_region(
        &mut self,
        r: usize,
        arrivals: [f64; MAX_REGIONS],
        traffic: &Traffic,
        blackhole: f64,
        p: &ModelParams,
    ) -> Served {
        let rate: f64 = arrivals.iter().sum();
        let admitted_users: [f64; MAX_REGIONS] = arrivals.map(|a| a * (1.0 - traffic.shed_share));
        let t = Traffic {
            rate,
            shed_share: traffic.shed_share,
            admitted: rate * (1.0 - traffic.shed_share) * (1.0 - blackhole),
        };
        let backend = if self.regions.len() == 1 {
            self.backend(&t, p)
        } else {
            self.region_backend(r, &admitted_users, p)
        };
        self.failed_over = FailedOver {
            share: if rate > 0.0 {
                (rate - arrivals[r]) / rate
            } else {
                0.0
            },
            penalty_s: p.cross_region_ms / 1000.0,
        };
        let service = self.serve_minute(&t, &backend, p);
        self.failed_over = FailedOver::default();
        Served {
            traffic: t,
            backend,
            service,
            arrivals,
        }
    }

    /// The service's record of the minute, from every region's.
    fn regional_record(
        &mut self,
        traffic: &Traffic,
        served: &[Served],
        mix: &Mix,
        error_rate: f64,
        burn: &BurnReading,
        p: &ModelParams,
    ) -> MinuteRecord {
        let m = self.minute;
        let n = served.len();
        let p99_s = regional_p99_s(served, p.cross_region_ms);
        let sum_u =
            |f: &dyn Fn(&MinuteService) -> u32| served.iter().map(|s| f(&s.service)).sum::<u32>();
        let sums = |r: usize| &served[r].service.sums;
        let cost_per_hour: f64 = served.iter().map(|s| s.service.sums.cost_per_hour).sum();
        let serving = sum_u(&|s| s.last.serving);
        let live_share = self.fleet_share(|b, live| b == live);
        self.visit(0);
        let cache = self.service.cache;
        MinuteRecord {
            minute: m,
            clock: self.clock_at(m),
            requests_per_s: traffic.rate,
            serving,
            booting: sum_u(&|s| s.last.booting),
            cache_hit: mix.mean(|r| served[r].backend.hit),
            db_utilization: (0..n).map(|r| served[r].backend.db_rho).fold(0.0, f64::max),
            shed_share: traffic.shed_share,
            fleet_cost_per_hour: cost_per_hour,
            cost_so_far: self.ledger.cost_so_far,
            cache_age_s: cache::mean_age_s(served[0].backend.ttl_s),
            bad_build_share: mix.mean(|r| sums(r).bad_share),
            build: self.deploys.live_build,
            build_share: live_share,
            feature_available: if served[0].backend.heavy { 1.0 } else { 0.0 },
            utilization: mix.mean(|r| sums(r).utilization),
            error_rate,
            timeout_share: mix.mean(|r| sums(r).timeout_share),
            p99_ms: p99_s * 1000.0,
            burn_rate_1h: burn.burn_1h,
            budget_left: self.budget.left,
            paging: burn.page,
            p99_approx_ms: (0..n)
                .map(|r| sums(r).p99_approx_s * 1000.0)
                .fold(0.0, f64::max),
            burn_rate_5m: burn.burn_5m,
            draining: sum_u(&|s| s.last.draining),
            capacity_per_s: served.iter().map(|s| s.service.sums.capacity_per_s).sum(),
            service_time_ms: mix.mean(|r| sums(r).service_ms),
            query_time_ms: mix.mean(|r| served[r].backend.query_ms),
            cache_warm: cache.warm,
            warmup_minutes_left: cache.warmup_left,
            rollback_minutes_left: self.deploys.rollback_ready_minute.map_or(0, |r| r - m),
            erlang_c: mix.mean(|r| sums(r).erlang_c),
            rejected_share: mix.mean(|r| sums(r).rejected),
        }
    }

    /// The service's close of the minute: the budget spent, the cost booked, the page (the
    /// service's, not a region's) and the record kept.
    fn close_service_minute(
        &mut self,
        record: MinuteRecord,
        burn: &BurnReading,
        traffic: &Traffic,
        p: &ModelParams,
    ) {
        self.budget
            .spend(record.error_rate, traffic.admitted, p.slo);
        self.ledger.close_minute(record.fleet_cost_per_hour);
        self.visit(0);
        self.journal.region = None;
        self.page_follows(burn);
        self.journal.history.push(record);
    }

    /// Each region's close of the minute: its cache refills, its autoscaler decides, and
    /// what the regions panel shows of it.
    fn close_regions(
        &mut self,
        served: &[Served],
        users: &[f64; MAX_REGIONS],
        errors: &[f64; MAX_REGIONS],
        routed_at_start: &[bool; MAX_REGIONS],
        p: &ModelParams,
    ) -> Vec<RegionMinute> {
        let total_rate: f64 = served.iter().map(|s| s.traffic.rate).sum();
        let end_ms = secs((self.minute + 1) * 60);
        let mut views = Vec::with_capacity(served.len());
        for (r, s) in served.iter().enumerate() {
            self.visit(r);
            self.refill_cache(&s.backend, p);
            self.refill_foreign(r, &s.arrivals, &s.backend, p);
            let region = &mut self.regions[r];
            region.last_timeout_share = s.service.last.served.queue.timeout_share;
            region.last_error_rate = s.service.sums.error_rate;
            views.push(self.region_minute(r, s, users[r], errors[r], total_rate));
            self.scale_at_minute_end(&s.service, s.traffic.admitted, end_ms);
            self.lift_recovery_floor(r, routed_at_start[r]);
        }
        views
    }

    /// Region `r` in the minute, as the regions panel and the per-region chart lines read
    /// it (where its users go is filled in once every region has closed).
    fn region_minute(
        &self,
        r: usize,
        s: &Served,
        users_per_s: f64,
        error_rate: f64,
        total_rate: f64,
    ) -> RegionMinute {
        let region = &self.regions[r];
        let sources = SourceViews(
            region
                .health
                .sources
                .iter()
                .map(|s| (s.kind, self.source_view(s)))
                .collect(),
        );
        let (t, b, arrivals) = (&s.traffic, &s.backend, &s.arrivals);
        let a_rate: f64 = arrivals.iter().sum();
        RegionMinute {
            region: code(r),
            composite: region.health.composite,
            consumer_view: region.health.propagation.view,
            in_routing: !out_of_routing(
                region.health.propagation.view,
                self.failover_on,
                region.drained,
            ),
            sources,
            routed_to: "",
            users_per_s,
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
            serving: s.service.last.serving,
            booting: s.service.last.booting,
            crashed: region.crashed.len() as u32,
            ejected: region.outlier.ejected.len() as u32,
            outlier_detection: region.outlier.on,
            drained: region.drained,
            error_rate,
            p99_ms: s.service.p99_s * 1000.0,
            cache_hit: b.hit,
            db_utilization: b.db_rho,
            db_failed: region.db_failed,
            fleet_cost_per_hour: s.service.sums.cost_per_hour,
        }
    }

    /// A source's state and counts against its policy in force at the minute's end (a
    /// change this minute included).
    fn source_view(&self, s: &SourceHealth) -> SourceView {
        let (healthy, total) = s.counts();
        let policy = s.rule().policy(&self.params);
        SourceView {
            state: s.state,
            healthy,
            total,
            healthy_percent: policy.healthy_percent,
            min_healthy: policy.min_healthy,
        }
    }

    /// The zone's instances all served and the consumer routed to region `r` the whole
    /// minute: its autoscaler, which has seen a minute of the region's own traffic, is free
    /// to follow it.
    fn lift_recovery_floor(&mut self, r: usize, routed_at_start: bool) {
        let region = &mut self.regions[r];
        if region.recovery_floor.is_some()
            && region.restoring.is_empty()
            && routed_at_start
            && !out_of_routing(region.health.propagation.view, self.failover_on, false)
        {
            region.recovery_floor = None;
        }
    }

    /// The minute's end: where each region's users go, the regions' minute kept, and the
    /// controls back to the shared ones.
    fn end_regional_minute(&mut self, mut views: Vec<RegionMinute>) -> &MinuteRecord {
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
                crate::regions::region_clock_min(clock, r.utc_offset_min),
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

/// What one region served in the minute.
struct Served {
    traffic: Traffic,
    backend: Backend,
    service: MinuteService,
    /// Requests per second sent to it from each region's users.
    arrivals: [f64; MAX_REGIONS],
}

/// Each region's weight in the minute's means: its share of the admitted requests (equal
/// shares when nothing was admitted).
struct Mix {
    weights: [f64; MAX_REGIONS],
    n: usize,
}

impl Mix {
    fn of(served: &[Served]) -> Self {
        let n = served.len();
        let admitted_all: f64 = served
            .iter()
            .map(|s| s.traffic.rate * (1.0 - s.traffic.shed_share))
            .sum();
        let mut weights = [0.0; MAX_REGIONS];
        for (w, s) in weights.iter_mut().zip(served) {
            let t = &s.traffic;
            *w = if admitted_all > 0.0 {
                t.rate * (1.0 - t.shed_share) / admitted_all
            } else {
                1.0 / n as f64
            };
        }
        Self { weights, n }
    }

    /// The weighted mean of `f` over the regions.
    fn mean(&self, f: impl Fn(usize) -> f64) -> f64 {
        (0..self.n).map(|r| self.weights[r] * f(r)).sum::<f64>()
    }
}

/// Each region's errors: requests sent to crashed instances, those its bad build fails,
/// and what its queue and database fail.
fn region_errors(served: &[Served], walk: &Walk) -> [f64; MAX_REGIONS] {
    let mut errors = [0.0; MAX_REGIONS];
    for (r, e) in errors.iter_mut().enumerate().take(served.len()) {
        let served_errors = served[r].service.sums.error_rate;
        *e = 1.0
            - (1.0 - walk.blackhole[r])
                * (1.0 - walk.grey[r] * GREY_ERROR_SHARE)
                * (1.0 - served_errors);
    }
    errors
}

/// The p99 of all requests: at most the largest of the regions' p99, failed-over requests
/// carrying the cross-region penalty (`penalty_ms`).
fn regional_p99_s(served: &[Served], penalty_ms: f64) -> f64 {
    let n = served.len();
    let foreign = |r: usize| {
        let a = &served[r].arrivals;
        let all: f64 = a.iter().sum();
        if all > 0.0 {
            (all - a[r]) / all
        } else {
            0.0
        }
    };
    (0..n)
        .filter(|r| served[*r].traffic.rate > 0.0 || n == 1)
        .map(|r| {
            served[r].service.p99_s
                + if foreign(r) > 0.01 {
                    penalty_ms / 1000.0
                } else {
                    0.0
                }
        })
        .fold(0.0, f64::max)
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
