//! The minute model: one call to [`Simulation::step`] advances the service by one simulated
//! minute. A run is a pure function of (scenario, seed, parameters, actions).

use crate::action::{Action, ActionKind, Settings};
use crate::autoscale::target_tracking::TargetTracking;
use crate::autoscale::{Autoscaler, Observation};
use crate::budget::{self, Window};
use crate::event::{Event, EventKind, FleetReason};
use crate::params::ModelParams;
use crate::queueing::QueueOutcome;
use crate::record::MinuteRecord;
use crate::rng::Mulberry32;
use crate::scenario::{Scenario, Scripted};
use crate::traffic::{self, Surge};
use crate::{cache, database, queueing};

/// The build every scenario starts on.
const OPENING_BUILD: u32 = 1;

/// A build rolling out over several minutes.
#[derive(Clone, Debug, PartialEq)]
struct Rollout {
    build: u32,
    start_minute: u32,
    minutes: u32,
}

/// A simulated service and everything that happened to it so far.
pub struct Simulation {
    scenario: Scenario,
    seed: u32,
    params: ModelParams,
    settings: Settings,
    rng: Mulberry32,
    surge: Option<Surge>,
    fleet: crate::fleet::Fleet,
    autoscaler: Box<dyn Autoscaler>,
    minute: u32,
    cache_warm: f64,
    warmup_left: u32,
    rollback_ready_minute: Option<u32>,
    rollout: Option<Rollout>,
    live_build: u32,
    last_good_build: u32,
    bad_builds: Vec<u32>,
    next_build: u32,
    budget_left: f64,
    cost_so_far: f64,
    window_1h: Window,
    window_5m: Window,
    paging: bool,
    /// Actions not yet applied, in the order given (stable within a minute).
    pending: Vec<Action>,
    applied: Vec<Action>,
    history: Vec<MinuteRecord>,
    events: Vec<Event>,
    /// Seconds into the minute of the tick being simulated, for events inside the minute.
    tick_second: Option<u32>,
    instance_seconds: f64,
    /// Driver of the latest scaling decision.
    active_driver: Option<crate::ids::DriverId>,
}

/// Running sums over one minute's ticks.
#[derive(Clone, Copy, Debug, Default)]
struct TickSums {
    cost_per_hour: f64,
    utilization: f64,
    error_rate: f64,
    timeout_share: f64,
    bad_share: f64,
    service_ms: f64,
    erlang_c: f64,
    capacity_per_s: f64,
    p99_approx_s: f64,
    rejected: f64,
}

impl TickSums {
    /// Means over `ticks` ticks of equal length (p99_approx_s stays the maximum). Shares
    /// are kept within 1 against rounding in the sums; with one tick every value is unchanged.
    fn mean(self, ticks: f64) -> Self {
        let share = |x: f64| (x / ticks).min(1.0);
        Self {
            cost_per_hour: self.cost_per_hour / ticks,
            utilization: share(self.utilization),
            error_rate: share(self.error_rate),
            timeout_share: share(self.timeout_share),
            bad_share: share(self.bad_share),
            service_ms: self.service_ms / ticks,
            erlang_c: share(self.erlang_c),
            capacity_per_s: self.capacity_per_s / ticks,
            p99_approx_s: self.p99_approx_s,
            rejected: share(self.rejected),
        }
    }
}

/// The fleet and queue of one tick.
#[derive(Clone, Copy, Debug)]
struct TickState {
    serving: u32,
    booting: u32,
    draining: u32,
    queue: QueueOutcome,
    service_s: f64,
    app_ms: f64,
    service_ms: f64,
    /// Share of arrivals rejected by a per-node limit.
    rejected: f64,
    /// p95 of the time in the system, s (0 when no policy needs it).
    p95_s: f64,
}

/// Inputs of a queue solve; ticks with the same inputs reuse the last solution.
#[derive(Clone, Copy, Debug, PartialEq)]
struct QueueKey {
    lambda: f64,
    service_s: f64,
    workers: u32,
    room: Option<u32>,
}

impl Simulation {
    /// A new run of `scenario` with `seed`.
    pub fn new(scenario: &Scenario, seed: u32, params: ModelParams) -> Self {
        let mut fleet = crate::fleet::Fleet::default();
        fleet.start(scenario.instances, 0.0, 0.0, OPENING_BUILD, false);
        let autoscaler = Box::new(TargetTracking::new(
            params.scale_in_quiet_minutes as u32,
            params.scale_in_max_share,
        ));
        Self {
            surge: scenario.surge.map(|d| d.draw(seed)),
            scenario: scenario.clone(),
            seed,
            settings: scenario.settings.clone(),
            rng: Mulberry32::new(seed),
            fleet,
            autoscaler,
            minute: 0,
            cache_warm: 1.0,
            warmup_left: 0,
            rollback_ready_minute: None,
            rollout: None,
            live_build: OPENING_BUILD,
            last_good_build: OPENING_BUILD,
            bad_builds: Vec::new(),
            next_build: OPENING_BUILD + 1,
            budget_left: scenario.budget_left,
            cost_so_far: 0.0,
            window_1h: Window::new(60),
            window_5m: Window::new(5),
            paging: false,
            pending: Vec::new(),
            applied: Vec::new(),
            history: Vec::new(),
            events: Vec::new(),
            tick_second: None,
            instance_seconds: 0.0,
            active_driver: None,
            params,
        }
    }

    /// Replaces the autoscaling policy (before or during a run).
    pub fn set_autoscaler(&mut self, autoscaler: Box<dyn Autoscaler>) {
        self.autoscaler = autoscaler;
    }

    /// Queues actions stamped with their minutes (those in the past apply at the next step).
    pub fn schedule(&mut self, actions: impl IntoIterator<Item = Action>) {
        self.pending.extend(actions);
        // Stable: actions of the same minute keep their order.
        self.pending.sort_by_key(|a| a.minute);
    }

    /// Applies `kind` at the start of the next simulated minute.
    pub fn apply(&mut self, kind: ActionKind) {
        let minute = self.minute;
        self.schedule([Action { minute, kind }]);
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    pub fn seed(&self) -> u32 {
        self.seed
    }
    pub fn params(&self) -> &ModelParams {
        &self.params
    }
    pub fn settings(&self) -> &Settings {
        &self.settings
    }
    pub fn fleet(&self) -> &crate::fleet::Fleet {
        &self.fleet
    }
    /// The surge this seed drew, if the scenario has one.
    pub fn surge(&self) -> Option<&Surge> {
        self.surge.as_ref()
    }
    /// The next minute to simulate.
    pub fn minute(&self) -> u32 {
        self.minute
    }
    pub fn history(&self) -> &[MinuteRecord] {
        &self.history
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// Actions applied so far, with their minutes.
    pub fn actions(&self) -> &[Action] {
        &self.applied
    }
    /// True once the scenario's exercise length has been simulated.
    pub fn finished(&self) -> bool {
        self.scenario.minutes.is_some_and(|m| self.minute >= m)
    }

    /// Time of day of minute `m`, "HH:MM".
    pub fn clock_at(&self, minute: u32) -> String {
        let t = (self.scenario.clock_min + minute) % 1440;
        format!("{:02}:{:02}", t / 60, t % 60)
    }

    fn emit(&mut self, kind: EventKind) {
        let clock = self.clock_at(self.minute);
        self.events.push(Event {
            minute: self.minute,
            clock,
            second: self.tick_second,
            kind,
        });
    }

    fn boot_s(&self) -> f64 {
        f64::from(self.scenario.boot_minutes) * 60.0
    }

    fn start_instances(&mut self, count: u32, at_s: f64, reason: FleetReason) {
        if count == 0 {
            return;
        }
        let (boot_s, build) = (self.boot_s(), self.live_build);
        self.fleet.start(count, at_s, boot_s, build, false);
        self.emit(EventKind::InstancesStarted { count, reason });
    }

    fn stop_instances(&mut self, count: u32, reason: FleetReason) {
        let count = self.fleet.stop(count);
        if count > 0 {
            self.emit(EventKind::InstancesStopped { count, reason });
        }
    }

    /// Brings the live fleet to `desired` (starting or stopping instances).
    fn resize(&mut self, desired: u32, at_s: f64, reason: FleetReason) {
        let live = self.fleet.live();
        if desired > live {
            self.start_instances(desired - live, at_s, reason);
        } else if desired < live {
            self.stop_instances(live - desired, reason);
        }
    }

    fn apply_now(&mut self, action: Action) {
        let now_s = f64::from(self.minute) * 60.0;
        self.emit(EventKind::Action {
            action: action.kind.clone(),
        });
        match action.kind {
            ActionKind::MinInstances(n) => {
                self.settings.min_instances = n;
                let live = self.fleet.live();
                if live < n || (!self.settings.autoscaling && live > n) {
                    self.resize(n, now_s, FleetReason::MinimumInstances);
                }
            }
            ActionKind::Autoscaling(on) => {
                self.settings.autoscaling = on;
                if !on {
                    self.resize(
                        self.settings.min_instances,
                        now_s,
                        FleetReason::MinimumInstances,
                    );
                }
            }
            ActionKind::TargetUtilization(x) => self.settings.target_utilization = x,
            ActionKind::CacheTtlS(t) => self.settings.cache_ttl_s = t,
            ActionKind::ShedLowPriority(x) => self.settings.shed_low_priority = x,
            ActionKind::HeavyFeature(on) => self.settings.heavy_feature = on,
            ActionKind::WarmCache => {
                if self.warmup_left == 0 {
                    self.warmup_left = self.params.warmup_minutes as u32;
                    self.emit(EventKind::WarmupStarted {
                        minutes: self.warmup_left,
                    });
                }
            }
            ActionKind::Rollback => {
                let ready = self.minute + self.params.rollback_minutes as u32;
                let restarted = self.rollback_ready_minute.is_some();
                if !restarted {
                    let n = self.fleet.live();
                    let ready_s = f64::from(ready) * 60.0;
                    self.fleet
                        .start(n, now_s, ready_s - now_s, self.last_good_build, true);
                } else {
                    let ready_s = f64::from(ready) * 60.0;
                    for inst in self.fleet.instances.iter_mut().filter(|i| i.rollback) {
                        inst.state = crate::fleet::InstanceState::Booting {
                            ready_at_s: ready_s,
                        };
                    }
                }
                self.rollback_ready_minute = Some(ready);
                let instances = self.fleet.instances.iter().filter(|i| i.rollback).count() as u32;
                let build = self.last_good_build;
                self.emit(EventKind::RollbackStarted {
                    build,
                    instances,
                    ready_minute: ready,
                    restarted,
                });
            }
        }
        self.applied.push(action);
    }

    fn run_script(&mut self) {
        let m = self.minute;
        for s in self.scenario.script {
            match *s {
                Scripted::Deploy {
                    minute,
                    bad,
                    rollout_minutes,
                } if minute == m => {
                    let build = self.next_build;
                    self.next_build += 1;
                    if bad {
                        self.bad_builds.push(build);
                    }
                    self.live_build = build;
                    self.rollout = Some(Rollout {
                        build,
                        start_minute: m,
                        minutes: rollout_minutes.max(1),
                    });
                    self.emit(EventKind::Deploy { build, bad });
                }
                Scripted::CacheFlush { minute } if minute == m => {
                    self.cache_warm = 0.0;
                    self.emit(EventKind::CacheFlush);
                }
                _ => {}
            }
        }
        if let Some(r) = self.rollout.clone() {
            // Rolling update in place: after k+1 of `minutes` minutes, that share of the
            // live fleet runs the new build.
            let done = m - r.start_minute + 1;
            let live: Vec<usize> = (0..self.fleet.instances.len())
                .filter(|&i| !self.fleet.instances[i].rollback)
                .collect();
            let want = (live.len() as u32 * done.min(r.minutes)).div_ceil(r.minutes) as usize;
            let mut have = live
                .iter()
                .filter(|&&i| self.fleet.instances[i].build == r.build)
                .count();
            for &i in &live {
                if have >= want {
                    break;
                }
                if self.fleet.instances[i].build != r.build {
                    self.fleet.instances[i].build = r.build;
                    have += 1;
                }
            }
            if done >= r.minutes {
                self.rollout = None;
            }
        }
    }

    fn finish_rollback(&mut self) {
        let was_live = self
            .fleet
            .instances
            .iter()
            .any(|i| !i.rollback && self.bad_builds.contains(&i.build));
        let old = self.fleet.instances.iter().filter(|i| !i.rollback).count() as u32;
        self.fleet.instances.retain(|i| i.rollback);
        for inst in &mut self.fleet.instances {
            inst.rollback = false;
            inst.state = crate::fleet::InstanceState::Serving;
        }
        self.live_build = self.last_good_build;
        self.rollout = None;
        self.rollback_ready_minute = None;
        if old > 0 {
            self.emit(EventKind::InstancesStopped {
                count: old,
                reason: FleetReason::Rollback,
            });
        }
        let build = self.last_good_build;
        self.emit(EventKind::RollbackFinished {
            build,
            bad_build_was_live: was_live,
        });
    }

    /// Simulates the next minute and returns its record.
    pub fn step(&mut self) -> &MinuteRecord {
        let m = self.minute;
        // A copy (plain numbers) so the model can read it while the fleet changes.
        let p = self.params.clone();
        let start_s = f64::from(m) * 60.0;

        // 1. The user's actions for this minute, then the scenario's script.
        while self.pending.first().is_some_and(|a| a.minute <= m) {
            let action = self.pending.remove(0);
            self.apply_now(action);
        }
        self.run_script();

        // 2. Instances whose boot or rollback is done.
        if self.rollback_ready_minute == Some(m) {
            self.finish_rollback();
        }
        let promoted = self.fleet.promote_ready(start_s);
        if promoted > 0 {
            self.emit(EventKind::InstancesServing { count: promoted });
        }
        self.finish_draining(start_s);
        if self
            .surge
            .is_some_and(|s| libm::floor(s.start_min) as u32 == m)
        {
            let peak = self.surge.map_or(1.0, |s| s.peak);
            self.emit(EventKind::SurgeStarted { peak });
        }

        // 3. Traffic.
        let t = f64::from(m);
        let surge = self.surge.map_or(1.0, |s| s.factor(t));
        let mean_rate = traffic::diurnal_rate(
            self.scenario.base_rps,
            p.diurnal_amplitude,
            t,
            f64::from(self.scenario.clock_min),
        ) * surge;
        let rate = traffic::noisy_rate(&mut self.rng, mean_rate, p.traffic_drift_cv);
        let shed_share = self.settings.shed_low_priority * p.low_priority_share;
        let admitted = rate * (1.0 - shed_share);

        // 4. Cache and database.
        let ttl = f64::from(self.settings.cache_ttl_s);
        let hit = cache::ttl_hit(self.cache_warm, admitted, ttl, p.hot_objects);
        let heavy = self.settings.heavy_feature;
        let queries = p.queries_per_miss + if heavy { p.heavy_feature_queries } else { 0.0 };
        let warmup_qps = if self.warmup_left > 0 {
            p.warmup_db_qps
        } else {
            0.0
        };
        let db_demand = database::db_load(admitted, queries, hit, warmup_qps);
        let db_rho = db_demand / p.db_capacity_qps;
        let query_ms = database::query_time_ms(p.db_query_ms, db_rho, p.db_query_cap_ms);
        // Beyond capacity the database fails the queries it cannot complete.
        let db_failed = if db_rho > 1.0 {
            1.0 - 1.0 / db_rho
        } else {
            0.0
        };

        // 5. The fleet's queue, tick by tick. A policy that acts faster than a minute splits
        //    it into ticks of its cadence; each tick solves the queue for the fleet of that
        //    moment and may end with a decision. The record aggregates the ticks: rates and
        //    shares are means over them, p99 is the p99 of all the minute's requests, counts
        //    are those of the last tick. With one tick (target tracking) every aggregate is
        //    that tick's value, bit for bit.
        let tick_s = if self.settings.autoscaling {
            let t = self.autoscaler.tick_s();
            if t > 0 && 60 % t == 0 {
                t
            } else {
                60
            }
        } else {
            60
        };
        let ticks = 60 / tick_s;
        let dt = f64::from(tick_s);
        let admission = self.autoscaler.admission();
        let mut sums = TickSums::default();
        let mut tails = Vec::with_capacity(ticks as usize);
        let mut memo: Option<(QueueKey, QueueOutcome, f64, f64)> = None;
        let mut last = None;
        for k in 0..ticks {
            let tick_start = start_s + f64::from(k) * dt;
            if k > 0 {
                self.tick_second = Some(k * tick_s);
                let promoted = self.fleet.promote_ready(tick_start);
                if promoted > 0 {
                    self.emit(EventKind::InstancesServing { count: promoted });
                }
                self.finish_draining(tick_start);
            }
            let bad_share = self.fleet.serving_share(|b| self.bad_builds.contains(&b));
            let app_ms = (p.app_time_ms + if heavy { p.heavy_feature_ms } else { 0.0 })
                * (1.0 + (p.bad_build_cpu_factor - 1.0) * bad_share);
            let service_ms = database::service_time_ms(app_ms, hit, queries, query_ms);
            let service_s = service_ms / 1000.0;
            let serving = self.fleet.serving();
            // The elastic scaler's Envoy: a node runs at most its limit at once, and the
            // balancer holds only so many beyond the nodes' limits.
            let (workers, room) = match admission {
                None => (serving * p.workers(), None),
                Some(a) => {
                    let per_node = p.workers().min(a.per_node_requests);
                    let inside = a.per_node_requests.saturating_sub(p.workers());
                    let room = serving.saturating_mul(inside).saturating_add(a.pending);
                    (serving * per_node, Some(room))
                }
            };
            let key = QueueKey {
                lambda: admitted,
                service_s,
                workers,
                room,
            };
            let (queue, rejected, p95_s) = match memo {
                Some((k0, q, r, p95)) if k0 == key => (q, r, p95),
                _ => {
                    let (q, r) = match room {
                        None => (
                            queueing::solve(admitted, service_s, workers, p.timeout_s),
                            0.0,
                        ),
                        Some(room) => {
                            queueing::solve_bounded(admitted, service_s, workers, room, p.timeout_s)
                        }
                    };
                    // Only the policies read the p95; minute-cadence ones skip the solve.
                    let p95 = if ticks > 1 {
                        q.tail.quantile(0.05)
                    } else {
                        0.0
                    };
                    memo = Some((key, q, r, p95));
                    (q, r, p95)
                }
            };

            // 6. Errors: timeouts, failed queries, the bad build's own errors, rejections.
            let answered = 1.0 - queue.timeout_share;
            let other_failures =
                1.0 - (1.0 - (1.0 - hit) * db_failed) * (1.0 - bad_share * p.bad_build_error_rate);
            let mut error_rate = if admitted > 0.0 {
                queue.timeout_share + answered * other_failures
            } else {
                0.0
            };
            if rejected > 0.0 {
                error_rate = rejected + (1.0 - rejected) * error_rate;
            }

            let billed = self.fleet.billed();
            self.instance_seconds += f64::from(billed) * dt;
            sums.cost_per_hour += f64::from(billed) * p.price_per_instance_hour;
            sums.utilization += queue.utilization;
            sums.error_rate += error_rate;
            sums.timeout_share += queue.timeout_share;
            sums.bad_share += bad_share;
            sums.service_ms += service_ms;
            sums.erlang_c += queue.erlang_c;
            sums.rejected += rejected;
            let capacity_per_s = if service_s > 0.0 {
                f64::from(workers) / service_s
            } else {
                0.0
            };
            sums.capacity_per_s += capacity_per_s;
            sums.p99_approx_s = sums.p99_approx_s.max(queue.p99_approx_s);
            tails.push((dt, queue.tail));
            let tick = TickState {
                serving,
                booting: self.fleet.booting(),
                draining: self.fleet.draining(),
                queue,
                service_s,
                app_ms,
                service_ms,
                rejected,
                p95_s,
            };
            last = Some(tick);
            if self.settings.autoscaling && k + 1 < ticks {
                let end = tick_start + dt;
                self.tick_second = Some((k + 1) * tick_s);
                let obs = self.observe(&tick, admitted, end, dt);
                self.autoscale(&obs, end);
            }
        }
        self.tick_second = None;
        let tick = last.expect("a minute has at least one tick");
        let queue = tick.queue;
        let p99_s = if ticks == 1 {
            queue.p99_s
        } else {
            queueing::mixture_quantile(&tails, 0.01)
        };
        let sums = sums.mean(f64::from(ticks));
        let error_rate = sums.error_rate;

        self.window_1h.push(error_rate);
        self.window_5m.push(error_rate);
        let burn_1h = self.window_1h.mean() / (1.0 - p.slo);
        let burn_5m = self.window_5m.mean() / (1.0 - p.slo);
        let paging_now = budget::page_fires(burn_1h, burn_5m);

        let cost_per_hour = sums.cost_per_hour;
        let record = MinuteRecord {
            minute: m,
            clock: self.clock_at(m),
            requests_per_s: rate,
            serving: tick.serving,
            booting: tick.booting,
            cache_hit: hit,
            db_utilization: db_rho,
            shed_share,
            fleet_cost_per_hour: cost_per_hour,
            cost_so_far: self.cost_so_far,
            cache_age_s: cache::mean_age_s(ttl),
            bad_build_share: sums.bad_share,
            feature_available: if heavy { 1.0 } else { 0.0 },
            utilization: sums.utilization,
            error_rate,
            timeout_share: sums.timeout_share,
            p99_ms: p99_s * 1000.0,
            burn_rate_1h: burn_1h,
            budget_left: self.budget_left,
            paging: paging_now,
            p99_approx_ms: sums.p99_approx_s * 1000.0,
            burn_rate_5m: burn_5m,
            draining: tick.draining,
            capacity_per_s: sums.capacity_per_s,
            service_time_ms: sums.service_ms,
            query_time_ms: query_ms,
            cache_warm: self.cache_warm,
            warmup_minutes_left: self.warmup_left,
            rollback_minutes_left: self.rollback_ready_minute.map_or(0, |r| r - m),
            erlang_c: sums.erlang_c,
            rejected_share: sums.rejected,
        };

        // 7. Balances, the page, the cache, the autoscaler: they shape the next minute.
        self.budget_left -= budget::budget_spent_per_minute(budget::burn_rate(error_rate, p.slo));
        self.cost_so_far += cost_per_hour / 60.0;
        let headroom = if db_demand > 0.0 {
            (p.db_capacity_qps / db_demand).min(1.0)
        } else {
            1.0
        };
        let (tau, gain) = (p.refill_tau_min, p.warmup_gain_per_min);
        self.cache_warm = cache::refill(self.cache_warm, 1.0, tau, headroom);
        if self.warmup_left > 0 {
            self.cache_warm = (self.cache_warm + gain).min(1.0);
            self.warmup_left -= 1;
            if self.warmup_left == 0 {
                self.emit(EventKind::WarmupFinished);
            }
        }
        if paging_now != self.paging {
            self.paging = paging_now;
            self.emit(if paging_now {
                EventKind::PageFired {
                    burn_rate_1h: burn_1h,
                    burn_rate_5m: burn_5m,
                }
            } else {
                EventKind::PageResolved {
                    burn_rate_1h: burn_1h,
                    burn_rate_5m: burn_5m,
                }
            });
        }
        self.history.push(record);

        let end_s = start_s + 60.0;
        if self.settings.autoscaling {
            if ticks > 1 {
                self.tick_second = Some(60);
            }
            let obs = self.observe(&tick, admitted, end_s, dt);
            self.autoscale(&obs, end_s);
            self.tick_second = None;
        } else if self.fleet.live() != self.settings.min_instances {
            self.resize(
                self.settings.min_instances,
                end_s,
                FleetReason::MinimumInstances,
            );
        }

        self.minute += 1;
        self.history.last().expect("a record was just pushed")
    }

    /// The debrief of the run so far.
    pub fn summary(&self) -> crate::summary::RunSummary {
        let mut summary = crate::summary::RunSummary::new(
            &self.history,
            &self.applied,
            self.budget_left,
            self.cost_so_far,
            self.params.slo,
        );
        // Exact even when instances start and stop inside a minute (the record's counts
        // are those of the minute's last tick).
        summary.instance_minutes = libm::round(self.instance_seconds / 60.0) as u64;
        summary
    }

    /// What the autoscaler sees at the end of a tick.
    fn observe(&self, tick: &TickState, admitted: f64, at_s: f64, dt: f64) -> Observation {
        let p = &self.params;
        let q = &tick.queue;
        let passed = admitted * (1.0 - tick.rejected);
        Observation {
            t_s: at_s,
            serving: tick.serving,
            booting: self.fleet.booting_live(),
            utilization: q.utilization,
            arrival_rate: admitted,
            service_s: tick.service_s,
            min_instances: self.settings.min_instances,
            max_instances: p.max_fleet(),
            target_utilization: self.settings.target_utilization,
            dt_s: dt,
            workers_per_instance: p.workers(),
            cpu_share: if tick.service_ms > 0.0 {
                (tick.app_ms / tick.service_ms).min(1.0)
            } else {
                1.0
            },
            in_service: q.utilization * f64::from(tick.serving * p.workers()),
            waiting: passed * q.mean_wait_s.min(p.timeout_s),
            completions_per_s: passed * (1.0 - q.timeout_share),
            timeout_share: q.timeout_share,
            rejected_share: tick.rejected,
            p95_s: if tick.p95_s > 0.0 {
                tick.p95_s
            } else {
                q.tail.quantile(0.05)
            },
            p99_s: q.p99_s,
            tail: q.tail,
            timeout_s: p.timeout_s,
            boot_s: self.boot_s(),
            draining: self.fleet.draining(),
        }
    }

    /// Asks the autoscaler and applies its decision at `at_s`.
    fn autoscale(&mut self, obs: &Observation, at_s: f64) {
        let Some(decision) = self.autoscaler.decide(obs) else {
            return;
        };
        self.active_driver = Some(decision.driver);
        let from = self.fleet.live();
        let to = decision.desired.min(self.params.max_fleet());
        if to == from {
            return;
        }
        self.emit(EventKind::Scaling {
            policy: self.autoscaler.id(),
            driver: decision.driver,
            from,
            to,
            detail: decision.detail,
        });
        match decision.drain_s {
            Some(drain_s) if to < from => {
                let (stopped, draining) = self.fleet.drain(from - to, at_s + drain_s);
                if stopped > 0 {
                    self.emit(EventKind::InstancesStopped {
                        count: stopped,
                        reason: FleetReason::Autoscaler,
                    });
                }
                if draining > 0 {
                    self.emit(EventKind::InstancesDraining {
                        count: draining,
                        seconds: drain_s,
                    });
                }
            }
            _ => self.resize(to, at_s, FleetReason::Autoscaler),
        }
    }

    /// Removes the draining instances whose drain has ended.
    fn finish_draining(&mut self, now_s: f64) {
        let drained = self.fleet.finish_draining(now_s);
        if drained > 0 {
            self.emit(EventKind::InstancesStopped {
                count: drained,
                reason: FleetReason::Drained,
            });
        }
    }

    /// Instance-seconds billed so far (booting, serving and draining instances).
    pub fn instance_seconds(&self) -> f64 {
        self.instance_seconds
    }

    /// The autoscaling policy in use.
    pub fn policy(&self) -> crate::autoscale::PolicyId {
        self.autoscaler.id()
    }

    /// The driver or strategy behind the policy's latest decision (like Cloud Run's
    /// `scaling_driver`); `None` before the first one.
    pub fn active_driver(&self) -> Option<crate::ids::DriverId> {
        self.active_driver
    }

    /// Simulates `minutes` more minutes.
    pub fn run(&mut self, minutes: u32) {
        for _ in 0..minutes {
            self.step();
        }
    }
}
