//! The minute model: one call to [`Simulation::step`] advances the service by one simulated
//! minute. A run is a pure function of (scenario, seed, parameters, actions).
//!
//! `step` is a short orchestrator over stages, in order: the person's actions and the
//! scenario's script (deploys), the fleet's boots and drains, traffic, the cache and the
//! database, the service (tick by tick, with the autoscaler deciding at its cadence), the
//! error budget and its page, the ledger. Each stage reads and writes plain state structs
//! ([`crate::world`]); the service stage asks a [`ServiceModel`] how the fleet serves a tick.
//! The clock is integer: a minute and the second within it.

#[cfg(feature = "extended")]
mod plan;
#[cfg(feature = "extended")]
pub use plan::Planned;
mod probes;
mod regional;
mod walk;

use crate::action::{Action, ActionKind, Settings};
use crate::autoscale::target_tracking::TargetTracking;
use crate::autoscale::{Autoscaler, Observation, PolicyId, Removal};
use crate::engine::formulas::QueueFormulas;
use crate::engine::requests::{RequestConditions, RequestEngine, RequestMinute, SlowFault};
use crate::engine::{ColdStart, FailedOver, ServiceModel, TickInput, TickOutcome};
use crate::event::{Event, EventKind, FleetReason};
use crate::fleet::Fleet;
use crate::ids::DriverId;
use crate::message::{Message, MessageId};
use crate::params::{EngineKind, ModelParams};
use crate::queueing::{self, SojournTail};
use crate::record::MinuteRecord;
use crate::regions::{Region, RegionMinute};
use crate::rng::Mulberry32;
use crate::scenario::{Scenario, Scripted};
use crate::time::{millis_ceil, seconds, secs, Millis};
use crate::traffic::{self, Drift, Surge};
use crate::world::budget::ErrorBudget;
use crate::world::deploys::{Deploys, OPENING_BUILD};
use crate::world::journal::Journal;
use crate::world::ledger::Ledger;
use crate::world::service::{CacheState, ServiceUnit};
use crate::{cache, database};

/// A simulated service and everything that happened to it so far.
pub struct Simulation {
    pub(crate) scenario: Scenario,
    pub(crate) seed: u32,
    pub(crate) params: ModelParams,
    /// The controls in force.
    pub(crate) settings: Settings,
    pub(crate) rng: Mulberry32,
    pub(crate) surges: Vec<Surge>,
    /// The traffic drifts this seed drew.
    pub(crate) drifts: Vec<Drift>,
    /// The scripted events this seed drew.
    pub(crate) script: Vec<Scripted>,
    /// Multiplier of the bad-build error share of the bad build that went out.
    pub(crate) bad_severity: f64,
    /// The next minute to simulate.
    pub(crate) minute: u32,
    /// Seconds into the minute of the tick being simulated, for events inside the minute.
    pub(crate) tick_second: Option<u32>,
    /// The service unit of the region being stepped (region `at`); the other regions'
    /// units wait in their [`Region`]s (see [`crate::regions`]).
    pub(crate) service: ServiceUnit,
    pub(crate) deploys: Deploys,
    pub(crate) budget: ErrorBudget,
    pub(crate) ledger: Ledger,
    pub(crate) journal: Journal,
    /// The run's regions (one: the service as it always was).
    pub(crate) regions: Vec<Region>,
    /// Index of the region whose unit is `service`.
    pub(crate) at: usize,
    /// Health checks run: the run has several regions, or a failure or health control was
    /// applied to its one region.
    pub(crate) health_on: bool,
    /// Health-based failover at the consumer's load balancer.
    pub(crate) failover_on: bool,
    /// The floor shared by the regions (a region may have its own).
    pub(crate) shared_min: u32,
    /// The ceiling shared by the regions (a region in a zone outage has its own).
    pub(crate) shared_max: u32,
    /// Instances of the current region that outlier detection keeps out of service.
    pub(crate) ejected_now: u32,
    /// Each minute's regions, when the run has several or health checks run.
    pub(crate) region_history: Vec<Vec<RegionMinute>>,
    /// The failed-over users' requests among those the region being stepped serves.
    pub(crate) failed_over: FailedOver,
}

/// The traffic of a minute.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Traffic {
    /// Incoming requests per second.
    pub(crate) rate: f64,
    /// Share shed on purpose.
    pub(crate) shed_share: f64,
    /// Requests per second past the shedding.
    pub(crate) admitted: f64,
}

/// The cache and the database in a minute.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Backend {
    pub(crate) ttl_s: f64,
    pub(crate) hit: f64,
    pub(crate) heavy: bool,
    pub(crate) queries: f64,
    pub(crate) db_demand: f64,
    pub(crate) db_rho: f64,
    pub(crate) query_ms: f64,
    /// Share of the database's queries it cannot complete.
    pub(crate) db_failed: f64,
}

/// The service stage of region `region` in a run with `seed` on the run's engine: the formulas, or
/// a request engine with the region's own random streams (region a's are the run's).
pub(crate) fn service_model(
    scenario: &Scenario,
    params: &ModelParams,
    seed: u32,
    region: usize,
) -> Box<dyn ServiceModel> {
    match params.engine.unwrap_or(scenario.engine) {
        #[cfg(feature = "extended")]
        EngineKind::Requests => Box::new(RequestEngine::for_region(
            seed,
            region,
            params.key_space(),
            params.service_shape(),
        )),
        _ => {
            let _ = (seed, region);
            Box::new(QueueFormulas::default())
        }
    }
}

/// Every region's fleet: the current unit's first, then those waiting in their regions.
fn fleets_of<'a>(service: &'a mut ServiceUnit, regions: &'a mut [Region]) -> Vec<&'a mut Fleet> {
    core::iter::once(&mut service.fleet)
        .chain(
            regions
                .iter_mut()
                .filter_map(|r| r.unit.as_mut().map(|u| &mut u.fleet)),
        )
        .collect()
}

/// Users whose requests a cache and a database serve.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Users {
    /// Their admitted requests per second.
    pub(crate) lambda: f64,
    /// How warm the cache is for their keys.
    pub(crate) warm: f64,
    /// Their hot keys.
    pub(crate) hot_objects: f64,
}

/// Running sums over one minute's ticks.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TickSums {
    pub(crate) cost_per_hour: f64,
    pub(crate) utilization: f64,
    pub(crate) error_rate: f64,
    pub(crate) timeout_share: f64,
    pub(crate) bad_share: f64,
    pub(crate) service_ms: f64,
    pub(crate) erlang_c: f64,
    pub(crate) capacity_per_s: f64,
    pub(crate) p99_approx_s: f64,
    pub(crate) rejected: f64,
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
pub(crate) struct TickState {
    pub(crate) serving: u32,
    pub(crate) booting: u32,
    /// Booting instances of the live fleet (what the autoscaler waits for).
    pub(crate) booting_live: u32,
    pub(crate) draining: u32,
    pub(crate) served: TickOutcome,
    /// Share of the serving fleet on a bad build.
    pub(crate) bad_share: f64,
    pub(crate) service_s: f64,
    pub(crate) app_ms: f64,
    pub(crate) service_ms: f64,
    /// Workers per instance this tick (fewer while a configuration change cuts them).
    pub(crate) workers: u32,
    /// Requests per second the serving workers can complete (workers over the service time).
    pub(crate) capacity_per_s: f64,
}

/// What the service stage gives for a minute.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MinuteService {
    /// Means over the ticks.
    pub(crate) sums: TickSums,
    /// The minute's last tick.
    pub(crate) last: TickState,
    /// p99 of all the minute's requests, s.
    pub(crate) p99_s: f64,
    /// Length of a tick.
    pub(crate) dt_ms: Millis,
}

/// The levels of the faults in force this minute that change how the fleet serves.
#[derive(Clone, Copy, Debug, Default)]
struct HeldFaults {
    /// Extra wait per request for a slow dependency, ms.
    extra_ms: f64,
    /// Share of each instance's workers a configuration change removed.
    cut: f64,
    /// Share of the hosts' CPU a noisy neighbour takes.
    steal: f64,
}

impl HeldFaults {
    /// CPU time per request when the neighbour takes `steal` of the CPU: t / (1 − steal).
    fn stretch_cpu(&self, app_ms: f64) -> f64 {
        if self.steal > 0.0 {
            app_ms / (1.0 - self.steal)
        } else {
            app_ms
        }
    }

    /// Workers per instance after the cut (at least one).
    fn workers(&self, workers: u32) -> u32 {
        if self.cut > 0.0 {
            ((f64::from(workers) * (1.0 - self.cut)).round() as u32).max(1)
        } else {
            workers
        }
    }
}

impl Simulation {
    /// A new run of `scenario` with `seed`.
    pub fn new(scenario: &Scenario, seed: u32, params: ModelParams) -> Self {
        let mut fleet = crate::fleet::Fleet::default();
        fleet.start(scenario.instances, 0, 0, OPENING_BUILD, false);
        let autoscaler = Box::new(TargetTracking::new(
            params.scale_in_quiet_minutes,
            params.scale_in_max_share,
        ));
        let mut settings = scenario.settings.clone();
        if let Some(lb) = params.lb {
            settings.lb = lb;
        }
        if let Some(hedge) = params.hedge {
            settings.hedge = hedge.is_on();
        }
        let model = service_model(scenario, &params, seed, 0);
        let regions = regional::regions_of(scenario, &params, seed, &mut fleet);
        let drawn = scenario.draw(seed);
        Self {
            surges: drawn.surges,
            drifts: drawn.drifts,
            script: drawn.script,
            bad_severity: 1.0,
            scenario: scenario.clone(),
            seed,
            settings,
            rng: Mulberry32::new(seed),
            minute: 0,
            tick_second: None,
            service: ServiceUnit {
                fleet,
                autoscaler,
                model,
                cache: CacheState::default(),
                active_driver: None,
            },
            deploys: Deploys::default(),
            budget: ErrorBudget::new(
                scenario.budget_left,
                params.budget_accounting,
                scenario.base_rps,
            ),
            ledger: Ledger::default(),
            journal: Journal::new(scenario.clock_min),
            health_on: regions.len() > 1,
            regions,
            at: 0,
            failover_on: true,
            shared_min: scenario.settings.min_instances,
            shared_max: params.max_instances,
            ejected_now: 0,
            region_history: Vec::new(),
            failed_over: FailedOver::default(),
            params,
        }
    }

    /// Replaces the autoscaling policy (before or during a run) of the current region (the
    /// first); [`Simulation::set_autoscalers`] gives every region its own.
    pub fn set_autoscaler(&mut self, autoscaler: Box<dyn Autoscaler>) {
        self.service.autoscaler = autoscaler;
    }

    /// Replaces the model of how the fleet serves requests (the formulas by default).
    pub fn set_service_model(&mut self, model: Box<dyn ServiceModel>) {
        self.service.model = model;
    }

    /// What the requests did in the last simulated minute, when the request engine serves
    /// (`None` with the formulas).
    pub fn last_requests(&self) -> Option<&RequestMinute> {
        self.service.model.requests()
    }

    /// What the requests served in region `r` did in the last simulated minute, when the
    /// request engine serves (`None` with the formulas, or when the run has no region `r`).
    /// Region 0 is [`Simulation::last_requests`].
    pub fn region_requests(&self, r: usize) -> Option<&RequestMinute> {
        if r == self.at {
            self.service.model.requests()
        } else {
            self.regions.get(r)?.unit.as_ref()?.model.requests()
        }
    }

    /// Queues actions stamped with their minutes (those in the past apply at the next step).
    pub fn schedule(&mut self, actions: impl IntoIterator<Item = Action>) {
        self.journal.schedule(actions);
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
        &self.service.fleet
    }
    /// The scripted events this seed drew (the bad deploy, the cache flush).
    pub fn script(&self) -> &[Scripted] {
        &self.script
    }

    /// The minute the first fault this seed drew starts (a surge's ramp included; a drift
    /// of the usual traffic is no fault).
    pub fn first_fault(&self) -> Option<u32> {
        let scripted = self.script.iter().map(Scripted::minute).min();
        let surge = self
            .surges
            .iter()
            .map(|s| libm::floor(s.start_min) as u32)
            .min();
        scripted.into_iter().chain(surge).min()
    }

    /// The (first) traffic drift this seed drew, if the scenario has one.
    pub fn drift(&self) -> Option<&Drift> {
        self.drifts.first()
    }

    /// The (first) surge this seed drew, if the scenario has one.
    pub fn surge(&self) -> Option<&Surge> {
        self.surges.first()
    }

    /// The next minute to simulate.
    pub fn minute(&self) -> u32 {
        self.minute
    }
    pub fn history(&self) -> &[MinuteRecord] {
        &self.journal.history
    }
    pub fn events(&self) -> &[Event] {
        &self.journal.events
    }
    /// Takes the minute records and the events out of a run that is over (they are left
    /// empty).
    pub(crate) fn take_records(&mut self) -> (Vec<MinuteRecord>, Vec<Event>) {
        (
            std::mem::take(&mut self.journal.history),
            std::mem::take(&mut self.journal.events),
        )
    }
    /// Actions applied so far, with their minutes.
    pub fn actions(&self) -> &[Action] {
        &self.journal.applied
    }
    /// True once the scenario's exercise length has been simulated.
    pub fn finished(&self) -> bool {
        self.scenario.minutes.is_some_and(|m| self.minute >= m)
    }

    /// Time of day of minute `m`, "HH:MM" (see [`Journal::clock_at`] for what minute M is
    /// on every surface).
    pub fn clock_at(&self, minute: u32) -> crate::time::Clock {
        self.journal.clock_at(minute)
    }

    /// The month's error budget left at minute `m`, the balance at its start: the record's
    /// for a minute played, the balance now for the minute to be played next, `None` later.
    pub fn budget_left_at(&self, minute: u32) -> Option<f64> {
        match self.journal.history.get(minute as usize) {
            Some(r) => Some(r.budget_left),
            None => (minute == self.minute).then_some(self.budget.left),
        }
    }

    pub(crate) fn emit(&mut self, kind: EventKind) {
        self.journal.emit(self.minute, self.tick_second, kind);
    }

    fn boot_s(&self) -> f64 {
        f64::from(self.scenario.boot_minutes) * 60.0
    }

    /// Seconds an instance the policy starts needs before it serves: its platform's time
    /// when it has one (the elastic scaler's nodes), else the scenario's boot delay.
    fn policy_boot_s(&self) -> u32 {
        self.service
            .autoscaler
            .node_boot_s()
            .unwrap_or(self.scenario.boot_minutes * 60)
    }

    fn start_instances(&mut self, count: u32, at_ms: Millis, reason: FleetReason) {
        if count == 0 {
            return;
        }
        let boot_ms = match reason {
            FleetReason::Autoscaler => secs(self.policy_boot_s()),
            _ => secs(self.scenario.boot_minutes * 60),
        };
        let build = self.deploys.live_build;
        self.service
            .fleet
            .start(count, at_ms, boot_ms, build, false);
        self.emit(EventKind::InstancesStarted { count, reason });
    }

    fn stop_instances(&mut self, count: u32, reason: FleetReason) {
        let count = self.service.fleet.stop(count);
        if count > 0 {
            self.emit(EventKind::InstancesStopped { count, reason });
        }
    }

    /// Brings the live fleet to `desired` (starting or stopping instances).
    pub(crate) fn resize(&mut self, desired: u32, at_ms: Millis, reason: FleetReason) {
        let live = self.service.fleet.live();
        if desired > live {
            self.start_instances(desired - live, at_ms, reason);
        } else if desired < live {
            self.stop_instances(live - desired, reason);
        }
    }

    // ---- Stage 1: the person's actions and the scenario's script -------------------------

    pub(crate) fn apply_due_actions(&mut self) {
        while let Some(action) = self.journal.next_due(self.minute) {
            self.apply_now(action);
        }
    }

    /// Why the run cannot apply `kind` now, if it cannot.
    pub(crate) fn refusal(&self, kind: &ActionKind) -> Option<Message> {
        match kind {
            ActionKind::MinInstances(0)
                if self
                    .service
                    .autoscaler
                    .holds_at_zero_s(self.boot_s())
                    .is_none() =>
            {
                Some(
                    Message::new(MessageId::MinInstancesZeroRefused)
                        .code("policy", self.service.autoscaler.id().as_str()),
                )
            }
            ActionKind::Hedge(true) => self.params.hedging_rule().err().map(|e| e.message()),
            ActionKind::Region(a) if a.region().is_some_and(|r| r >= self.regions.len()) => Some(
                Message::new(MessageId::RegionNoSuchRegion)
                    .code("region", crate::regions::code(a.region().unwrap_or(0)))
                    .codes(
                        "regions",
                        crate::regions::REGION_CODES[..self.regions.len()].to_vec(),
                    ),
            ),
            ActionKind::Rollback if self.deploys.rollback_target().is_none() => Some(
                Message::new(MessageId::RollbackNothingEarlier)
                    .int("build", self.deploys.live_build),
            ),
            _ => None,
        }
    }

    pub(crate) fn apply_now(&mut self, action: Action) {
        if let Some(reason) = self.refusal(&action.kind) {
            self.emit(EventKind::ActionRefused {
                action: action.kind,
                reason,
            });
            return;
        }
        // A regional action names its region; a shared one is the whole service's.
        let region = self.journal.region;
        if self.regions.len() > 1 {
            self.journal.region = match &action.kind {
                ActionKind::Region(a) => a.region().map(crate::regions::code),
                _ => None,
            };
        }
        self.emit(EventKind::Action {
            action: action.kind.clone(),
        });
        self.journal.region = region;
        if cfg!(feature = "extended")
            && (self.health_on || matches!(action.kind, ActionKind::Region(_)))
        {
            self.apply_regional(&action.kind);
        } else {
            self.apply_effect(action.kind.clone());
        }
        self.journal.applied.push(action);
    }

    /// What action `kind` does to the region being stepped.
    pub(crate) fn apply_effect(&mut self, kind: ActionKind) {
        let now_ms = secs(self.minute * 60);
        match kind {
            ActionKind::MinInstances(n) => {
                self.settings.min_instances = n;
                let live = self.service.fleet.live();
                if live < n || (!self.settings.autoscaling && live > n) {
                    self.resize(n, now_ms, FleetReason::MinimumInstances);
                }
            }
            ActionKind::Autoscaling(on) => {
                self.settings.autoscaling = on;
                if !on {
                    self.resize(
                        self.settings.min_instances,
                        now_ms,
                        FleetReason::MinimumInstances,
                    );
                }
            }
            ActionKind::TargetUtilization(x) => self.settings.target_utilization = x,
            ActionKind::CacheTtlS(t) => self.settings.cache_ttl_s = t,
            ActionKind::ShedLowPriority(x) => self.settings.shed_low_priority = x,
            ActionKind::HeavyFeature(on) => self.settings.heavy_feature = on,
            ActionKind::Lb(lb) => self.settings.lb = lb,
            ActionKind::Hedge(on) => self.settings.hedge = on,
            // The cache's warm-up and the rollback act in every region at once (the
            // builds are the service's): one event for them all.
            ActionKind::WarmCache => {
                let minutes = self.params.warmup_minutes;
                let mut started = false;
                for cache in self.caches() {
                    if cache.warmup_left == 0 {
                        cache.warmup_left = minutes;
                        started = true;
                    }
                }
                if started {
                    self.emit_service_wide(EventKind::WarmupStarted { minutes });
                }
            }
            ActionKind::Rollback => {
                let ready = self.minute + self.params.rollback_minutes;
                let mut fleets = fleets_of(&mut self.service, &mut self.regions);
                if let Some(event) = self.deploys.start_rollback(self.minute, ready, &mut fleets) {
                    self.emit_service_wide(event);
                }
            }
            ActionKind::Region(_) => {}
            // An injected fault joins the script at this minute (the stage after the actions
            // runs it).
            #[cfg(feature = "extended")]
            ActionKind::Inject(fault) => {
                let spans = fault.spans(self.minute);
                let inject = crate::exercise::injects::inject(fault.kind, &spans);
                self.script.extend(inject.script(0));
            }
        }
    }

    pub(crate) fn run_script(&mut self) {
        let m = self.minute;
        for i in 0..self.script.len() {
            match self.script[i] {
                Scripted::Deploy {
                    minute,
                    bad,
                    rollout_minutes,
                    severity,
                } if minute == m => {
                    if bad {
                        self.bad_severity = severity;
                    }
                    let event = self.deploys.deploy(m, bad, rollout_minutes);
                    self.emit(event);
                }
                Scripted::CacheFlush { minute, share } if minute == m => {
                    self.service.cache.warm = cache::flush(self.service.cache.warm, share);
                    self.emit(EventKind::CacheFlush { share });
                }
                _ => {}
            }
        }
        self.deploys.advance_rollout(m, &mut self.service.fleet);
    }

    // ---- Stage 2: the fleet's boots, drains and the rollback's switch-over ---------------

    /// Boots and drains that end by `now_ms` take effect; returns whether any did.
    pub(crate) fn fleet_at(&mut self, now_ms: Millis) -> bool {
        let (promoted, drained) = self.service.fleet.settle(now_ms);
        if promoted > 0 {
            self.emit(EventKind::InstancesServing { count: promoted });
        }
        if drained > 0 {
            self.emit(EventKind::InstancesStopped {
                count: drained,
                reason: FleetReason::Drained,
            });
        }
        promoted > 0 || drained > 0
    }

    pub(crate) fn fleet_at_minute_start(&mut self, start_ms: Millis) {
        if self.deploys.rollback_ready_minute == Some(self.minute) {
            let mut fleets = fleets_of(&mut self.service, &mut self.regions);
            for event in self.deploys.finish_rollback(&mut fleets) {
                self.emit_service_wide(event);
            }
        }
        self.fleet_at(start_ms);
    }

    /// Emits an event of the whole service: in a run with several regions it names none
    /// (as the page), whichever region is being stepped.
    pub(crate) fn emit_service_wide(&mut self, kind: EventKind) {
        let region = self.journal.region.take();
        self.emit(kind);
        self.journal.region = region;
    }

    /// Every region's cache (the current unit's first).
    fn caches(&mut self) -> impl Iterator<Item = &mut CacheState> {
        core::iter::once(&mut self.service.cache).chain(
            self.regions
                .iter_mut()
                .filter_map(|r| r.unit.as_mut().map(|u| &mut u.cache)),
        )
    }

    // ---- Stage 3: traffic -----------------------------------------------------------------

    pub(crate) fn traffic(&mut self, p: &ModelParams) -> Traffic {
        let m = self.minute;
        for peak in self
            .surges
            .iter()
            .filter(|s| libm::floor(s.start_min) as u32 == m)
            .map(|s| s.peak)
            .collect::<Vec<_>>()
        {
            self.emit(EventKind::SurgeStarted { peak });
        }
        let t = f64::from(m);
        // Several surges (or drifts) multiply; one gives its own factor bit for bit.
        let surge = self.surges.iter().fold(1.0, |f, s| f * s.factor(t));
        let drift = self.drifts.iter().fold(1.0, |f, d| f * d.factor(t));
        let mean_rate = traffic::diurnal_rate(
            self.scenario.base_rps,
            p.diurnal_amplitude,
            t,
            f64::from(self.scenario.clock_min),
        ) * surge
            * drift;
        let rate = traffic::noisy_rate(&mut self.rng, mean_rate, p.traffic_drift_cv);
        let shed_share = self.settings.shed_low_priority * p.low_priority_share;
        Traffic {
            rate,
            shed_share,
            admitted: rate * (1.0 - shed_share),
        }
    }

    // ---- Stage 4: the cache and the database ---------------------------------------------

    /// The cache and the database of a run with one region, for the minute's admitted
    /// requests (its database failed when a `db_failure` says so: every miss then fails).
    pub(crate) fn backend(&self, traffic: &Traffic, p: &ModelParams) -> Backend {
        let users = [Users {
            lambda: traffic.admitted,
            warm: self.service.cache.warm,
            hot_objects: p.hot_objects,
        }];
        let db_down = self.regions.first().is_some_and(|r| r.db_failed);
        self.backend_for(&users, 1.0, p.db_capacity_qps, db_down, p)
    }

    /// The cache and the database serving the requests of `users` (one group in a run with
    /// one region; in a region, each region's users whose requests it serves, with their
    /// own keys). `warmup_share` is its share of the warm-up job's queries, `capacity_qps`
    /// its database's capacity, `db_down` whether its database failed.
    pub(crate) fn backend_for(
        &self,
        users: &[Users],
        warmup_share: f64,
        capacity_qps: f64,
        db_down: bool,
        p: &ModelParams,
    ) -> Backend {
        let ttl_s = f64::from(self.settings.cache_ttl_s);
        let heavy = self.settings.heavy_feature;
        let queries = p.queries_per_miss + if heavy { p.heavy_feature_queries } else { 0.0 };
        let warmup_qps = if self.service.cache.warmup_left > 0 {
            p.warmup_db_qps * warmup_share
        } else {
            0.0
        };
        let hit_of = |u: &Users| cache::ttl_hit(u.warm, u.lambda, ttl_s, u.hot_objects);
        let (hit, db_demand) = match users {
            // One group: its own hit ratio (the mean below is the same number, up to the
            // rounding of λ·h/λ).
            [only] => {
                let hit = hit_of(only);
                (
                    hit,
                    database::db_load(only.lambda, queries, hit, warmup_qps),
                )
            }
            _ => {
                let (mut hits, mut total, mut misses_qps) = (0.0, 0.0, 0.0);
                for u in users {
                    total += u.lambda;
                    if u.lambda <= 0.0 {
                        continue;
                    }
                    let hit = hit_of(u);
                    hits += hit * u.lambda;
                    misses_qps += database::db_load(u.lambda, queries, hit, 0.0);
                }
                let hit = if total > 0.0 { hits / total } else { 0.0 };
                (hit, misses_qps + warmup_qps)
            }
        };
        let db_rho = db_demand / capacity_qps;
        let query_ms = database::query_time_ms(p.db_query_ms, db_rho, p.db_query_cap_ms);
        Backend {
            ttl_s,
            hit,
            heavy,
            queries,
            db_demand,
            db_rho,
            query_ms,
            db_failed: if db_down {
                1.0
            } else {
                database::failed_share(db_rho)
            },
        }
    }

    // ---- Stage 5: the service, tick by tick ----------------------------------------------

    /// A policy that acts faster than a minute splits it into ticks of its cadence; each
    /// tick serves the fleet of that moment and may end with a decision. The minute's
    /// figures aggregate the ticks: rates and shares are means over them, p99 is the p99 of
    /// all the minute's requests, counts are those of the last tick. With one tick (target
    /// tracking) every aggregate is that tick's value, bit for bit.
    pub(crate) fn serve_minute(
        &mut self,
        traffic: &Traffic,
        b: &Backend,
        p: &ModelParams,
    ) -> MinuteService {
        let start_ms = secs(self.minute * 60);
        let tick_s = self.tick_s();
        let ticks = 60 / tick_s;
        let dt_ms = secs(tick_s);
        let dt = seconds(dt_ms);
        let admission = self.service.autoscaler.admission();
        let mut sums = TickSums::default();
        // Only a minute of several ticks mixes their tails.
        let mixed = if ticks > 1 { 4 } else { 0 };
        let mut tails: Vec<(f64, SojournTail)> = Vec::with_capacity(mixed);
        let mut first_p99_s = 0.0;
        // The previous tick with its error rate, and whether the fleet is still as it served
        // it (the autoscaler's decision at the tick's end and the boots and drains since say).
        let mut last: Option<(TickState, f64)> = None;
        let mut same_fleet = false;
        // (The console's first download serves every tick: it runs one run at a time.)
        let repeats = cfg!(feature = "extended") && self.service.model.repeats();
        for k in 0..ticks {
            let tick_start_ms = start_ms + u64::from(k) * dt_ms;
            if k > 0 {
                self.tick_second = Some(k * tick_s);
                same_fleet &= !self.fleet_at(tick_start_ms);
            }
            // Within a minute only the fleet changes what a tick serves (the traffic, the
            // faults and the settings hold for the minute): the same fleet, through formulas
            // that repeat, serves the tick before's figures (not while no instance serves,
            // where the wait for the first one counts from the tick's start).
            let (tick, error_rate) = match last {
                Some(before) if repeats && same_fleet && before.0.serving > 0 => before,
                _ => {
                    let tick = self.serve_tick(
                        traffic.admitted,
                        b,
                        p,
                        admission,
                        ticks > 1,
                        (tick_start_ms, dt_ms),
                    );
                    let bad_errors = crate::world::deploys::bad_build_errors(
                        p.bad_build_error_rate,
                        self.bad_severity,
                    );
                    (
                        tick,
                        tick_error_rate(&tick, traffic.admitted, b, bad_errors),
                    )
                }
            };
            let billed = self.service.fleet.billed();
            self.ledger.bill(billed, dt);
            sums.cost_per_hour += f64::from(billed) * p.price_per_instance_hour;
            sums.utilization += tick.served.queue.utilization;
            sums.error_rate += error_rate;
            sums.timeout_share += tick.served.queue.timeout_share;
            sums.bad_share += tick.bad_share;
            sums.service_ms += tick.service_ms;
            sums.erlang_c += tick.served.queue.erlang_c;
            sums.rejected += tick.served.rejected;
            sums.capacity_per_s += tick.capacity_per_s;
            sums.p99_approx_s = sums.p99_approx_s.max(tick.served.queue.p99_approx_s);
            if ticks > 1 {
                // Ticks in a row with the same tail make one step (the mixture would merge
                // them, adding their lengths in the same order).
                if k == 0 {
                    first_p99_s = tick.served.queue.p99_s;
                }
                match tails.last_mut() {
                    Some((length, tail)) if *tail == tick.served.queue.tail => *length += dt,
                    _ => tails.push((dt, tick.served.queue.tail)),
                }
            }
            last = Some((tick, error_rate));
            if self.settings.autoscaling && k + 1 < ticks {
                let end_ms = tick_start_ms + dt_ms;
                self.tick_second = Some((k + 1) * tick_s);
                // The fleet is as the tick left it.
                let obs = self.observe(
                    &tick,
                    (tick.booting_live, tick.draining),
                    traffic.admitted,
                    end_ms,
                    dt_ms,
                );
                same_fleet = !self.autoscale(&obs, end_ms);
            }
        }
        self.tick_second = None;
        let (last, _) = last.expect("a minute has at least one tick");
        let p99_s = match self.service.model.close_minute() {
            // A model that measures requests gives the minute's p99 itself.
            Some(measured) => measured,
            None if ticks == 1 => last.served.queue.p99_s,
            // One tail all minute: its p99 is the one the formulas gave with it (the
            // first tick's, as the mixture would take the first).
            None if tails.len() == 1 => first_p99_s,
            None => queueing::mixture_quantile(&tails, 0.01),
        };
        MinuteService {
            sums: sums.mean(f64::from(ticks)),
            last,
            p99_s,
            dt_ms,
        }
    }

    /// Length of a tick, s: the autoscaler's cadence when it divides the minute, else the
    /// minute.
    fn tick_s(&self) -> u32 {
        let t = self.service.autoscaler.tick_s();
        if self.settings.autoscaling && t > 0 && 60 % t == 0 {
            t
        } else {
            60
        }
    }

    /// Ticks a minute is split into (1 unless the autoscaler acts faster than a minute).
    pub fn ticks_per_minute(&self) -> u32 {
        60 / self.tick_s()
    }

    /// The per-node limits in front of the fleet, if the autoscaler brings any.
    pub fn admission(&self) -> Option<crate::autoscale::Admission> {
        self.service.autoscaler.admission()
    }

    /// Share of the serving fleet on a bad build.
    fn live_build_share(&self) -> f64 {
        let live = self.deploys.live_build;
        self.service.fleet.serving_share(|b| b == live)
    }

    /// The fleet of this moment serves one tick through the service model.
    fn serve_tick(
        &mut self,
        admitted: f64,
        b: &Backend,
        p: &ModelParams,
        admission: Option<crate::autoscale::Admission>,
        want_p95: bool,
        (tick_start_ms, dt_ms): (Millis, Millis),
    ) -> TickState {
        let fleet = self.service.fleet.tally(|b| self.deploys.is_bad(b));
        let bad_share = fleet.bad_share();
        let held = self.held_faults();
        let app_ms = (p.app_time_ms + if b.heavy { p.heavy_feature_ms } else { 0.0 })
            * (1.0 + (p.bad_build_cpu_factor - 1.0) * bad_share);
        let app_ms = held.stretch_cpu(app_ms);
        let service_ms =
            database::service_time_ms(app_ms, b.hit, b.queries, b.query_ms) + held.extra_ms;
        let workers = held.workers(p.workers());
        let service_s = service_ms / 1000.0;
        let serving = fleet.serving.saturating_sub(self.ejected_now);
        let cold_start = if serving == 0 && admitted > 0.0 {
            self.cold_start(tick_start_ms, dt_ms, p.timeout_s)
        } else {
            None
        };
        let served = self.service.model.tick(&TickInput {
            lambda: admitted,
            service_s,
            serving,
            workers_per_instance: workers,
            timeout_s: p.timeout_s,
            admission,
            want_p95,
            cold_start,
            requests: self.request_conditions(seconds(dt_ms)),
            failed_over: self.failed_over,
        });
        TickState {
            serving,
            booting: fleet.booting,
            booting_live: fleet.booting_live,
            draining: fleet.draining,
            served,
            bad_share,
            service_s,
            app_ms,
            service_ms,
            workers,
            capacity_per_s: if service_s > 0.0 {
                f64::from(served.workers) / service_s
            } else {
                0.0
            },
        }
    }

    /// What the request engine reads of this tick: the policy, hedging and the scenario's
    /// faults in force this minute. The faults (one slow instance, a hot key) are region
    /// a's: the region that keeps the scenario's clock, whose peak the briefing names and
    /// whose failures the regions' scenario injects; the other regions' engines run without.
    fn request_conditions(&self, tick_s: f64) -> RequestConditions {
        let m = self.minute;
        let active = |minute: u32, minutes: u32| Scripted::in_force(minute, minutes, m);
        let mut c = RequestConditions {
            tick_s,
            routing: self.settings.lb,
            hedging: self.settings.hedge.then(|| self.params.hedging()),
            slow: None,
            hot_key_share: 0.0,
            keys: self.params.key_space(),
            choices: self.params.choices(),
            host_selection: self.params.host_selection(),
        };
        let faults = if self.at == 0 { &self.script[..] } else { &[] };
        for s in faults {
            match *s {
                Scripted::SlowInstance {
                    minute,
                    minutes,
                    instance,
                    factor,
                } if active(minute, minutes) => c.slow = Some(SlowFault { instance, factor }),
                Scripted::HotKey {
                    minute,
                    minutes,
                    share,
                } if active(minute, minutes) => c.hot_key_share = share,
                _ => {}
            }
        }
        c
    }

    /// The faults that hold a level this minute (a dependency's latency, a configuration
    /// change's cut, a noisy neighbour), region a's as the request engine's faults are.
    /// (Only an author's exercise holds them; the first download runs the built-in ones.)
    #[cfg(not(feature = "extended"))]
    fn held_faults(&self) -> HeldFaults {
        HeldFaults::default()
    }

    /// The faults that hold a level this minute (a dependency's latency, a configuration
    /// change's cut, a noisy neighbour), region a's as the request engine's faults are.
    #[cfg(feature = "extended")]
    fn held_faults(&self) -> HeldFaults {
        let m = self.minute;
        let mut held = HeldFaults::default();
        let faults = if self.at == 0 { &self.script[..] } else { &[] };
        for s in faults {
            match *s {
                Scripted::DependencyLatency {
                    minute,
                    minutes,
                    extra_ms,
                } if Scripted::in_force(minute, minutes, m) => held.extra_ms += extra_ms,
                Scripted::CapacityCut {
                    minute,
                    minutes,
                    share,
                } if Scripted::in_force(minute, minutes, m) => held.cut = held.cut.max(share),
                Scripted::NoisyNeighbour {
                    minute,
                    minutes,
                    share,
                } if Scripted::in_force(minute, minutes, m) => held.steal = held.steal.max(share),
                _ => {}
            }
        }
        held
    }

    /// With no instance serving, under a policy that holds requests for the first one: when
    /// it serves (the first booting instance, or one the policy starts at this tick's end)
    /// and how long requests are held.
    fn cold_start(
        &self,
        tick_start_ms: Millis,
        dt_ms: Millis,
        timeout_s: f64,
    ) -> Option<ColdStart> {
        let boot_s = f64::from(self.policy_boot_s());
        let hold_s = self.service.autoscaler.holds_at_zero_s(boot_s)?;
        let ready_in_s = match self.service.fleet.next_ready_ms() {
            Some(at_ms) => seconds(at_ms.saturating_sub(tick_start_ms)),
            // Nothing starts while autoscaling is off: the held requests all time out.
            None if !self.settings.autoscaling => return None,
            None => seconds(dt_ms) + boot_s,
        };
        Some(ColdStart {
            ready_in_s,
            patience_s: hold_s.min(timeout_s),
            tick_s: seconds(dt_ms),
        })
    }

    /// The page fires or resolves when the burn-rate rule says it changed.
    pub(crate) fn page_follows(&mut self, burn: &crate::world::budget::BurnReading) {
        if burn.page == self.budget.paging {
            return;
        }
        self.budget.paging = burn.page;
        self.emit(if burn.page {
            EventKind::PageFired {
                burn_rate_1h: burn.burn_1h,
                burn_rate_5m: burn.burn_5m,
            }
        } else {
            EventKind::PageResolved {
                burn_rate_1h: burn.burn_1h,
                burn_rate_5m: burn.burn_5m,
            }
        });
    }

    /// Simulates the next minute and returns its record.
    pub fn step(&mut self) -> &MinuteRecord {
        #[cfg(feature = "extended")]
        if self.health_on || self.regional_action_due() {
            return self.step_regions();
        }
        let m = self.minute;
        // A copy (plain numbers) so the stages can read it while the state changes.
        let p = self.params.clone();
        let start_ms = secs(m * 60);

        self.apply_due_actions();
        self.run_script();
        self.fleet_at_minute_start(start_ms);
        let traffic = self.traffic(&p);
        let backend = self.backend(&traffic, &p);
        let served = self.serve_minute(&traffic, &backend, &p);
        let sums = served.sums;
        let error_rate = sums.error_rate;
        let burn = self.budget.observe(error_rate, p.slo);

        let cost_per_hour = sums.cost_per_hour;
        let cache = self.service.cache;
        let record = MinuteRecord {
            minute: m,
            clock: self.clock_at(m),
            requests_per_s: traffic.rate,
            serving: served.last.serving,
            booting: served.last.booting,
            cache_hit: backend.hit,
            db_utilization: backend.db_rho,
            shed_share: traffic.shed_share,
            fleet_cost_per_hour: cost_per_hour,
            cost_so_far: self.ledger.cost_so_far,
            cache_age_s: cache::mean_age_s(backend.ttl_s),
            bad_build_share: sums.bad_share,
            build: self.deploys.live_build,
            build_share: self.live_build_share(),
            feature_available: if backend.heavy { 1.0 } else { 0.0 },
            utilization: sums.utilization,
            error_rate,
            timeout_share: sums.timeout_share,
            p99_ms: served.p99_s * 1000.0,
            burn_rate_1h: burn.burn_1h,
            budget_left: self.budget.left,
            paging: burn.page,
            p99_approx_ms: sums.p99_approx_s * 1000.0,
            burn_rate_5m: burn.burn_5m,
            draining: served.last.draining,
            capacity_per_s: sums.capacity_per_s,
            service_time_ms: sums.service_ms,
            query_time_ms: backend.query_ms,
            cache_warm: cache.warm,
            warmup_minutes_left: cache.warmup_left,
            rollback_minutes_left: self.deploys.rollback_ready_minute.map_or(0, |r| r - m),
            erlang_c: sums.erlang_c,
            rejected_share: sums.rejected,
        };

        // Balances, the cache, the page, the autoscaler: they shape the next minute.
        self.budget.spend(error_rate, traffic.admitted, p.slo);
        self.ledger.close_minute(cost_per_hour);
        self.refill_cache(&backend, &p);
        self.page_follows(&burn);
        self.journal.history.push(record);
        self.scale_at_minute_end(&served, traffic.admitted, secs((m + 1) * 60));

        self.minute += 1;
        self.journal
            .history
            .last()
            .expect("a record was just pushed")
    }

    /// The cache refills as the database allows, and the warm-up job loads its share.
    pub(crate) fn refill_cache(&mut self, b: &Backend, p: &ModelParams) {
        let headroom = if b.db_demand > 0.0 {
            (p.db_capacity_qps / b.db_demand).min(1.0)
        } else {
            1.0
        };
        let c = &mut self.service.cache;
        c.warm = cache::refill(c.warm, 1.0, p.refill_tau_min, headroom);
        if c.warmup_left > 0 {
            c.warm = (c.warm + p.warmup_gain_per_min).min(1.0);
            c.warmup_left -= 1;
            // One event when the last region's warm-up ends.
            let everywhere = self
                .regions
                .iter()
                .filter_map(|r| r.unit.as_ref())
                .all(|u| u.cache.warmup_left == 0);
            if c.warmup_left == 0 && everywhere {
                self.emit_service_wide(EventKind::WarmupFinished);
            }
        }
    }

    /// The autoscaler's decision at the minute's end (or the fixed fleet's size).
    pub(crate) fn scale_at_minute_end(
        &mut self,
        served: &MinuteService,
        admitted: f64,
        end_ms: Millis,
    ) {
        if self.settings.autoscaling {
            if served.dt_ms < secs(60) {
                self.tick_second = Some(60);
            }
            let fleet = self.service.fleet.tally(|_| false);
            let obs = self.observe(
                &served.last,
                (fleet.booting_live, fleet.draining),
                admitted,
                end_ms,
                served.dt_ms,
            );
            self.autoscale(&obs, end_ms);
            self.tick_second = None;
        } else if self.service.fleet.live() != self.settings.min_instances {
            self.resize(
                self.settings.min_instances,
                end_ms,
                FleetReason::MinimumInstances,
            );
        }
    }

    /// The debrief of the run so far.
    pub fn summary(&self) -> crate::summary::RunSummary {
        let mut summary = crate::summary::RunSummary::new(
            &self.journal.history,
            &self.journal.applied,
            self.budget.left,
            self.ledger.cost_so_far,
            self.params.slo,
        );
        // Exact even when instances start and stop inside a minute (the record's counts
        // are those of the minute's last tick).
        summary.instance_minutes = libm::round(self.ledger.instance_seconds / 60.0) as u64;
        summary
    }

    /// What the autoscaler sees at the end of a tick.
    fn observe(
        &self,
        tick: &TickState,
        (booting_live, draining): (u32, u32),
        admitted: f64,
        at_ms: Millis,
        dt_ms: Millis,
    ) -> Observation {
        let p = &self.params;
        let q = &tick.served.queue;
        let rejected = tick.served.rejected;
        let passed = admitted * (1.0 - rejected);
        Observation {
            t_ms: at_ms,
            serving: tick.serving,
            booting: booting_live,
            utilization: q.utilization,
            arrival_rate: admitted,
            service_s: tick.service_s,
            min_instances: self.settings.min_instances,
            max_instances: p.max_fleet(),
            target_utilization: self.settings.target_utilization,
            dt_ms,
            workers_per_instance: tick.workers,
            cpu_share: if tick.service_ms > 0.0 {
                (tick.app_ms / tick.service_ms).min(1.0)
            } else {
                1.0
            },
            in_service: q.utilization * f64::from(tick.serving * tick.workers),
            // By Little's law: requests waiting, those about to give up included.
            waiting: passed * q.mean_wait_all_s,
            completions_per_s: passed * (1.0 - q.timeout_share),
            timeout_share: q.timeout_share,
            rejected_share: rejected,
            measured_p95_s: tick.served.p95_s,
            p99_s: q.p99_s,
            tail: q.tail,
            timeout_s: p.timeout_s,
            boot_s: f64::from(self.policy_boot_s()),
            draining,
        }
    }

    /// Asks the autoscaler and applies its decision at `at_ms`; returns whether it changed
    /// the fleet.
    fn autoscale(&mut self, obs: &Observation, at_ms: Millis) -> bool {
        let Some(decision) = self.service.autoscaler.decide(obs) else {
            return false;
        };
        self.service.active_driver = Some(decision.driver);
        let from = self.service.fleet.live();
        let to = decision.desired.min(self.params.max_fleet());
        if to == from {
            return false;
        }
        self.emit(EventKind::Scaling {
            policy: self.service.autoscaler.id(),
            driver: decision.driver,
            from,
            to,
            detail: decision.detail,
        });
        match decision.removal {
            Removal::Drain(drain_s) if to < from => {
                let until_ms = at_ms + millis_ceil(drain_s);
                let (stopped, draining) = self.service.fleet.drain(from - to, until_ms);
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
            Removal::Idle if to < from => {
                let count = self.service.fleet.stop_serving(from - to);
                if count > 0 {
                    self.emit(EventKind::InstancesStopped {
                        count,
                        reason: FleetReason::Autoscaler,
                    });
                }
            }
            _ => self.resize(to, at_ms, FleetReason::Autoscaler),
        }
        true
    }

    /// Instance-seconds billed so far (booting, serving and draining instances).
    pub fn instance_seconds(&self) -> f64 {
        self.ledger.instance_seconds
    }

    /// The build a rollback would return to now; `None` when no earlier build went out.
    pub fn rollback_target(&self) -> Option<u32> {
        self.deploys.rollback_target()
    }

    /// The autoscaling policy in use.
    pub fn policy(&self) -> PolicyId {
        self.service.autoscaler.id()
    }

    /// The driver or strategy behind the policy's latest decision (like Cloud Run's
    /// `scaling_driver`); `None` before the first one.
    pub fn active_driver(&self) -> Option<DriverId> {
        self.service.active_driver
    }

    /// Simulates `minutes` more minutes.
    pub fn run(&mut self, minutes: u32) {
        self.journal.history.reserve(minutes as usize);
        for _ in 0..minutes {
            self.step();
        }
    }
}

/// A tick's error rate: timeouts, then failed queries and the bad build's own errors among
/// the answered requests, then the requests a per-node limit rejected.
/// `bad_errors` is the share of its requests a bad build fails.
fn tick_error_rate(tick: &TickState, admitted: f64, b: &Backend, bad_errors: f64) -> f64 {
    let queue = &tick.served.queue;
    let answered = 1.0 - queue.timeout_share;
    let other_failures =
        1.0 - (1.0 - (1.0 - b.hit) * b.db_failed) * (1.0 - tick.bad_share * bad_errors);
    let mut error_rate = if admitted > 0.0 {
        queue.timeout_share + answered * other_failures
    } else {
        0.0
    };
    let rejected = tick.served.rejected;
    if rejected > 0.0 {
        error_rate = rejected + (1.0 - rejected) * error_rate;
    }
    error_rate
}
