//! Cloud Run's instance autoscaling: metrics-based scaling (the largest of the CPU,
//! concurrency and adaptive-concurrency recommendations, with a ±10 % tolerance band and
//! rounding up), its scale-in rules, and on-demand scaling with the pending queue.
//!
//! Mapping to this model (assumptions): an instance's maximum concurrency is its workers
//! (16); its CPUs are one per worker, so CPU utilization is the busy share of the workers
//! times the CPU share of the service time (the rest waits for the database). While no
//! instance serves, the requests held in the pending queue count as concurrency at the
//! demand they bring; instances still starting are never judged idle by the scale-in rules.

use super::{ceil_count, policy_params, Autoscaler, Decision, Observation, Removal, SlidingMeans};
use crate::params::BrokenRule;
use super::registry::Policy;
use super::PolicyId;
use crate::ids::DriverId;
use crate::message::{Message, MessageId};
use crate::time::{secs, Millis};
use crate::relations::{Relation, RelationId, CLOUD_RUN_AUTOSCALING, THIS_MODEL};

policy_params! {
    /// Parameters of the Cloud Run policy, with Cloud Run's documented defaults.
    CloudRunParams, "cloud_run", {
        cpu_target: f64 = 0.6, 0.1, 0.95, "";
        concurrency_target: f64 = 0.6, 0.1, 0.95, "";
        tolerance: f64 = 0.1, 0.0, 0.5, "";
        window_s: u32 = 60.0, 1.0, 600.0, "s";
        long_window_s: u32 = 600.0, 1.0, 3600.0, "s";
        scale_in_utilization: f64 = 0.1, 0.0, 1.0, "";
        scale_in_after_s: u32 = 60.0, 1.0, 3600.0, "s";
        idle_timeout_s: u32 = 900.0, 0.0, 3600.0, "s";
        act_cpu_high: f64 = 0.9, 0.5, 1.0, "";
        act_cpu_low: f64 = 0.7, 0.1, 1.0, "";
        pending_min_s: f64 = 10.0, 0.0, 600.0, "s";
        pending_cold_start_factor: f64 = 3.5, 0.0, 100.0, "times";
    }
}

impl CloudRunParams {
    /// The first rule between its fields that does not hold.
    pub fn broken_rule(&self) -> Option<BrokenRule> {
        if self.act_cpu_low >= self.act_cpu_high {
            return Some(BrokenRule {
                field: "cloud_run.act_cpu_low",
                value: self.act_cpu_low,
                other: "cloud_run.act_cpu_high",
                other_value: self.act_cpu_high,
                rule: MessageId::MustBeBelow,
                converse: MessageId::MustBeAbove,
            });
        }
        if self.window_s > self.long_window_s {
            return Some(BrokenRule {
                field: "cloud_run.window_s",
                value: f64::from(self.window_s),
                other: "cloud_run.long_window_s",
                other_value: f64::from(self.long_window_s),
                rule: MessageId::MustNotExceed,
                converse: MessageId::MustBeAtLeast,
            });
        }
        None
    }
}

pub const CPU_DRIVER: Relation = Relation {
    id: RelationId::CloudRunCpu,
    symbols: &["CPU target"],
    citations: &[CLOUD_RUN_AUTOSCALING, THIS_MODEL],
    assumption: false,
};

/// The CPU driver: `cpu_in_use` CPUs busy on average over the past minute.
pub fn cpu_recommendation(cpu_in_use: f64, cpus_per_instance: f64, target: f64) -> u32 {
    ceil_count(cpu_in_use / cpus_per_instance / target)
}

pub const CONCURRENCY_DRIVER: Relation = Relation {
    id: RelationId::CloudRunConcurrency,
    symbols: &["maximum concurrency"],
    citations: &[CLOUD_RUN_AUTOSCALING, THIS_MODEL],
    assumption: false,
};

/// Concurrent requests the drivers measure over one observation: those running on the
/// serving instances; while none serves, the requests held in the pending queue for the
/// first one, each counted at the service it will take (demand a = λ·S), so that the
/// recommendation sees the traffic that is waiting instead of an idle fleet.
pub fn measured_concurrency(in_service: f64, serving: u32, arrival_rate: f64, service_s: f64) -> f64 {
    if serving > 0 {
        in_service
    } else {
        arrival_rate * service_s
    }
}

/// The concurrency driver.
pub fn concurrency_recommendation(
    avg_1m: f64,
    avg_10m: f64,
    max_concurrency: f64,
    target: f64,
) -> u32 {
    ceil_count(avg_1m.max(avg_10m) / max_concurrency / target)
}

pub const ACT_DRIVER: Relation = Relation {
    id: RelationId::CloudRunAct,
    symbols: &["ACT"],
    citations: &[CLOUD_RUN_AUTOSCALING, THIS_MODEL],
    assumption: false,
};

/// The ACT driver.
pub fn act_recommendation(avg_1m: f64, act: f64, target: f64) -> u32 {
    ceil_count(avg_1m / act.max(1.0) / target)
}

/// One second of ACT: the new maximum concurrency of an instance whose CPU was `cpu` over
/// the last second and which was at its maximum (`at_max`) or not.
pub fn act_step(
    act: f64,
    cpu: f64,
    at_max: bool,
    max_concurrency: f64,
    high: f64,
    low: f64,
) -> f64 {
    if cpu > high {
        (act - 1.0).max(1.0)
    } else if at_max && cpu < low {
        (act + 1.0).min(max_concurrency)
    } else {
        act
    }
}

pub const TOLERANCE_BAND: Relation = Relation {
    id: RelationId::CloudRunTolerance,
    symbols: &[],
    citations: &[CLOUD_RUN_AUTOSCALING],
    assumption: false,
};

/// Whether `utilization` is within the relative `tolerance` of `target`.
pub fn within_tolerance(utilization: f64, target: f64, tolerance: f64) -> bool {
    (utilization / target - 1.0).abs() <= tolerance + 1e-9
}

pub const SCALE_IN: Relation = Relation {
    id: RelationId::CloudRunScaleIn,
    symbols: &[],
    citations: &[CLOUD_RUN_AUTOSCALING],
    assumption: false,
};

pub const ON_DEMAND: Relation = Relation {
    id: RelationId::CloudRunOnDemand,
    symbols: &["cold start"],
    citations: &[CLOUD_RUN_AUTOSCALING, THIS_MODEL],
    assumption: false,
};

/// How long a request may wait in the pending queue: max(10 s, 3.5 × expected cold start).
pub fn pending_queue_bound_s(cold_start_s: f64, min_s: f64, factor: f64) -> f64 {
    min_s.max(factor * cold_start_s)
}

/// Share of requests that fail with 429 when `a` Erlangs of demand meet the maximum of
/// `max_instances` instances of `max_concurrency` slots.
pub fn overflow_429_share(a: f64, max_instances: u32, max_concurrency: f64) -> f64 {
    let slots = f64::from(max_instances) * max_concurrency;
    if a > slots && a > 0.0 {
        1.0 - slots / a
    } else {
        0.0
    }
}

/// The channels of the policy's samples: concurrency and CPUs in use.
const CONCURRENCY: usize = 0;
const CPUS: usize = 1;
/// Its windows.
const CONCURRENCY_1M: usize = 0;
const CONCURRENCY_10M: usize = 1;
const CPU_1M: usize = 2;

/// The Cloud Run policy. Observes every second (ACT works second by second).
#[derive(Clone, Debug, PartialEq)]
pub struct CloudRun {
    p: CloudRunParams,
    /// Concurrency over the short and the long window, CPUs in use over the short one
    /// ([`CONCURRENCY_1M`], [`CONCURRENCY_10M`], [`CPU_1M`]).
    means: SlidingMeans<2, 3>,
    /// Adaptive maximum concurrency per instance (fleet average); `None` before the first
    /// observation.
    act: Option<f64>,
    /// Since when the instances no longer recommended have been under the scale-in
    /// utilization.
    low_since: Option<Millis>,
    /// Since when the recommendation has been below the live count.
    dropped_since: Option<Millis>,
}

impl CloudRun {
    pub fn new(p: CloudRunParams) -> Self {
        Self {
            means: SlidingMeans::new([
                (secs(p.window_s), CONCURRENCY),
                (secs(p.long_window_s), CONCURRENCY),
                (secs(p.window_s), CPUS),
            ]),
            p,
            act: None,
            low_since: None,
            dropped_since: None,
        }
    }

    /// The adaptive maximum concurrency ACT has reached.
    pub fn act(&self) -> Option<f64> {
        self.act
    }
}

impl Autoscaler for CloudRun {
    fn id(&self) -> PolicyId {
        PolicyId::CloudRun
    }

    fn tick_s(&self) -> u32 {
        1
    }

    /// With no instance, requests wait in the pending queue for a starting one.
    fn holds_at_zero_s(&self, boot_s: f64) -> Option<f64> {
        let p = &self.p;
        Some(pending_queue_bound_s(
            boot_s,
            p.pending_min_s,
            p.pending_cold_start_factor,
        ))
    }

    fn decide(&mut self, obs: &Observation) -> Option<Decision> {
        let live = obs.live();
        self.observe(obs);
        let act = self.adapt_act(obs);
        let drivers = self.drivers(obs, act);
        let (driver, recommended) = drivers.recommendation();
        let on_demand = on_demand_count(obs);
        let floor = obs.min_instances;
        let ceiling = obs.max_instances.max(floor);
        // On-demand alone scales from zero; from N instances, whichever asks for more.
        if on_demand > live && (live == 0 || on_demand > recommended) {
            self.forget_scale_in();
            return self.scale_on_demand(obs, on_demand, floor, ceiling);
        }
        if recommended > live {
            self.forget_scale_in();
            return scale_out(&drivers, driver, recommended, floor, ceiling);
        }
        // Only instances that have run can be judged idle: the booting ones stay, and the
        // scale-in rules weigh the serving instances beyond the recommendation.
        if recommended < obs.serving && live > floor {
            return self.scale_in(obs, &drivers, driver, recommended, floor);
        }
        self.forget_scale_in();
        above_maximum(live, ceiling)
    }
}

/// Worker slots per instance: its maximum concurrency.
fn workers(obs: &Observation) -> u32 {
    obs.workers_per_instance.max(1)
}

/// One driver's reading: its exact count, the utilization of the live fleet it implies,
/// and whether that is within the tolerance band (the driver then holds the live count).
#[derive(Clone, Copy, Debug)]
struct DriverReading {
    id: DriverId,
    count: u32,
    utilization: f64,
    hold: bool,
    exact: f64,
}

impl DriverReading {
    /// The driver's recommendation, or the live count while inside the band.
    fn band(id: DriverId, exact: f64, target: f64, live: u32, tolerance: f64) -> Self {
        let utilization = if live > 0 {
            exact * target / f64::from(live)
        } else {
            0.0
        };
        let hold = live > 0 && within_tolerance(utilization, target, tolerance);
        Self {
            id,
            count: if hold { live } else { ceil_count(exact) },
            utilization,
            hold,
            exact,
        }
    }

    /// How the driver reached its count: held within the band, or rounded up.
    fn shown(&self) -> Message {
        if self.hold {
            Message::new(MessageId::CloudRunHolds)
        } else {
            Message::new(MessageId::CloudRunRoundsUp)
                .num("exact", self.exact)
                .int("count", ceil_count(self.exact))
        }
    }
}

/// The drivers of metrics-based scaling (concurrency, CPU, ACT) with the averages they read.
#[derive(Clone, Debug)]
struct Drivers {
    concurrency_1m: f64,
    concurrency_10m: f64,
    cpu_1m: f64,
    act: f64,
    workers: u32,
    live: u32,
    concurrency_target: f64,
    cpu_target: f64,
    readings: [DriverReading; 3],
}

impl Drivers {
    /// The largest recommendation and its driver (the first on a tie).
    fn recommendation(&self) -> (DriverId, u32) {
        let (mut driver, mut recommended) = (self.readings[0].id, self.readings[0].count);
        for reading in &self.readings[1..] {
            if reading.count > recommended {
                (driver, recommended) = (reading.id, reading.count);
            }
        }
        (driver, recommended)
    }

    /// The drivers' inputs and counts, for the decision's detail.
    fn explain(&self) -> Message {
        let [concurrency, cpu, act] = &self.readings;
        Message::new(MessageId::CloudRunDrivers)
            .num("concurrency_1m", self.concurrency_1m)
            .num("concurrency_10m", self.concurrency_10m)
            .int("workers", self.workers)
            .num("concurrency_target", self.concurrency_target * 100.0)
            .num("concurrency_utilization", concurrency.utilization * 100.0)
            .int("live", self.live)
            .msg("concurrency", concurrency.shown())
            .num("cpu", self.cpu_1m)
            .num("cpu_target", self.cpu_target * 100.0)
            .num("cpu_utilization", cpu.utilization * 100.0)
            .msg("cpu_count", cpu.shown())
            .num("act", self.act)
            .num("act_utilization", act.utilization * 100.0)
            .msg("act_count", act.shown())
    }
}

/// On-demand scaling: the instances for the demand that neither the serving nor the
/// starting instances can take (at least one while requests arrive at an empty fleet), or 0.
fn on_demand_count(obs: &Observation) -> u32 {
    let w = f64::from(workers(obs));
    let live = obs.live();
    let demand = obs.offered_load();
    if demand > f64::from(live) * w + 1e-9 || (live == 0 && obs.arrival_rate > 0.0) {
        ceil_count(demand / w).max(1)
    } else {
        0
    }
}

/// Scale-out to the largest recommendation.
fn scale_out(
    drivers: &Drivers,
    driver: DriverId,
    recommended: u32,
    floor: u32,
    ceiling: u32,
) -> Option<Decision> {
    let desired = recommended.clamp(floor, ceiling);
    if desired == drivers.live {
        return None;
    }
    Some(Decision {
        desired,
        driver,
        detail: Message::new(MessageId::CloudRunScaleOut)
            .code("driver", driver.as_str())
            .msg("drivers", drivers.explain())
            .int("desired", desired),
        removal: Removal::Stop,
    })
}

/// A fleet above the maximum comes down to it.
fn above_maximum(live: u32, ceiling: u32) -> Option<Decision> {
    (live > ceiling).then(|| Decision {
        desired: ceiling,
        driver: DriverId::Maximum,
        detail: Message::new(MessageId::CloudRunAboveMaximum)
            .int("live", live)
            .int("ceiling", ceiling),
        removal: Removal::Stop,
    })
}

impl CloudRun {
    /// Feeds the observation to the sliding means: concurrency over the short and long
    /// windows, CPUs in use over the short one.
    fn observe(&mut self, obs: &Observation) {
        let t = obs.t_ms;
        let concurrency =
            measured_concurrency(obs.in_service, obs.serving, obs.arrival_rate, obs.service_s);
        let cpus = obs.cpu_utilization() * f64::from(obs.serving);
        self.means.push(t, obs.dt_ms, [concurrency, cpus]);
    }

    /// ACT, second by second: an instance running its share of the requests in service,
    /// capped by its adaptive maximum. Returns the new maximum.
    fn adapt_act(&mut self, obs: &Observation) -> f64 {
        let p = &self.p;
        let w = f64::from(workers(obs));
        let per_instance = if obs.serving > 0 {
            obs.in_service / f64::from(obs.serving)
        } else {
            0.0
        };
        let mut act = self.act.unwrap_or(w);
        let mut seconds = (obs.dt_ms / 1000).max(1);
        while seconds > 0 {
            let running = per_instance.min(act);
            let cpu = running * obs.cpu_share / w;
            let at_max = obs.serving > 0 && per_instance >= act - 1e-9;
            act = act_step(act, cpu, at_max, w, p.act_cpu_high, p.act_cpu_low);
            seconds -= 1;
        }
        self.act = Some(act);
        act
    }

    /// Each driver's reading of the averages, with the adaptive maximum `act`.
    fn drivers(&self, obs: &Observation, act: f64) -> Drivers {
        let p = &self.p;
        let workers = workers(obs);
        let w = f64::from(workers);
        let live = obs.live();
        let conc_1m = self.means.mean(CONCURRENCY_1M);
        let conc_10m = self.means.mean(CONCURRENCY_10M);
        let cpu_1m = self.means.mean(CPU_1M);
        let conc_exact = conc_1m.max(conc_10m) / w / p.concurrency_target;
        let cpu_exact = cpu_1m / p.cpu_target;
        let act_exact = conc_1m / act / p.concurrency_target;
        let band = |id, exact, target| DriverReading::band(id, exact, target, live, p.tolerance);
        Drivers {
            concurrency_1m: conc_1m,
            concurrency_10m: conc_10m,
            cpu_1m,
            act,
            workers,
            live,
            concurrency_target: p.concurrency_target,
            cpu_target: p.cpu_target,
            readings: [
                band(DriverId::Concurrency, conc_exact, p.concurrency_target),
                band(DriverId::Cpu, cpu_exact, p.cpu_target),
                band(DriverId::Act, act_exact, p.concurrency_target),
            ],
        }
    }

    /// Forgets the scale-in rules' timers.
    fn forget_scale_in(&mut self) {
        self.low_since = None;
        self.dropped_since = None;
    }

    /// On-demand scaling to `on_demand` instances; past the maximum, the pending queue
    /// holds requests until its bound and the rest fail with 429.
    fn scale_on_demand(
        &self,
        obs: &Observation,
        on_demand: u32,
        floor: u32,
        ceiling: u32,
    ) -> Option<Decision> {
        let p = &self.p;
        let live = obs.live();
        let desired = on_demand.clamp(floor, ceiling);
        if desired <= live {
            return None;
        }
        let workers = workers(obs);
        let demand = obs.offered_load();
        let mut detail = Message::new(MessageId::CloudRunOnDemand)
            .num("arrival_rate", obs.arrival_rate)
            .num("service", obs.service_s)
            .num("demand", demand)
            .int("live", live)
            .int("workers", workers)
            .int("count", on_demand);
        if on_demand > ceiling {
            let pending_s =
                pending_queue_bound_s(obs.boot_s, p.pending_min_s, p.pending_cold_start_factor);
            detail = Message::new(MessageId::CloudRunOnDemandCapped)
                .msg("on_demand", detail)
                .int("ceiling", ceiling)
                .num("pending_min", p.pending_min_s)
                .num("factor", p.pending_cold_start_factor)
                .num("cold_start", obs.boot_s)
                .num("pending", pending_s)
                .num(
                    "rejected",
                    overflow_429_share(demand, ceiling, f64::from(workers)) * 100.0,
                )
                .num("timeout", obs.timeout_s);
        }
        Some(Decision {
            desired,
            driver: DriverId::OnDemand,
            detail,
            removal: Removal::Stop,
        })
    }

    /// The scale-in rules for the serving instances beyond the recommendation: removed once
    /// they have run under the scale-in utilization for its period, or once the
    /// recommendation has stayed below them for the idle timeout.
    fn scale_in(
        &mut self,
        obs: &Observation,
        drivers: &Drivers,
        driver: DriverId,
        recommended: u32,
        floor: u32,
    ) -> Option<Decision> {
        let live = obs.live();
        let extras = obs.serving - recommended;
        let why = self.scale_in_reason(obs, recommended)?;
        self.forget_scale_in();
        let desired = (live - extras).max(floor);
        if desired >= live {
            return None;
        }
        Some(Decision {
            desired,
            driver,
            detail: Message::new(MessageId::CloudRunScaleIn)
                .msg("drivers", drivers.explain())
                .msg("why", why)
                .int("desired", desired),
            removal: Removal::Idle,
        })
    }

    /// Advances the scale-in timers and says which rule, if any, lets the extra instances go.
    fn scale_in_reason(&mut self, obs: &Observation, recommended: u32) -> Option<Message> {
        let p = &self.p;
        let t = obs.t_ms;
        let w = f64::from(workers(obs));
        let since = *self.dropped_since.get_or_insert(t - obs.dt_ms);
        // The balancer fills the recommended instances first; what they cannot hold
        // spills over to the others.
        let extras = obs.serving - recommended;
        let spill = (obs.in_service - f64::from(recommended) * w).max(0.0);
        let group_utilization = spill / (f64::from(extras) * w);
        if group_utilization < p.scale_in_utilization {
            self.low_since.get_or_insert(t - obs.dt_ms);
        } else {
            self.low_since = None;
        }
        let low_for = self.low_since.map_or(0, |s| t - s);
        let dropped_for = t - since;
        if low_for >= secs(p.scale_in_after_s) {
            Some(
                Message::new(MessageId::CloudRunRanLow)
                    .int("extras", extras)
                    .num("utilization", group_utilization * 100.0)
                    .num("threshold", p.scale_in_utilization * 100.0)
                    .num("after", f64::from(p.scale_in_after_s)),
            )
        } else if dropped_for >= secs(p.idle_timeout_s) {
            Some(
                Message::new(MessageId::CloudRunIdleTimeout)
                    .int("extras", extras)
                    .num("minutes", f64::from(p.idle_timeout_s) / 60.0),
            )
        } else {
            None
        }
    }
}


impl Policy for CloudRun {
    type Params = CloudRunParams;
    const RELATIONS: &'static [&'static Relation] = &[
        &CPU_DRIVER,
        &CONCURRENCY_DRIVER,
        &ACT_DRIVER,
        &TOLERANCE_BAND,
        &SCALE_IN,
        &ON_DEMAND,
    ];
    fn build(params: &CloudRunParams, _model: &crate::params::ModelParams) -> Self {
        CloudRun::new(params.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::obs;
    use super::*;

    #[test]
    fn tolerance_band_is_relative() {
        // 54–66 % at a 60 % target.
        for u in [0.54, 0.56, 0.6, 0.64, 0.66] {
            assert!(within_tolerance(u, 0.6, 0.1), "{u}");
        }
        for u in [0.53, 0.539, 0.661, 0.67] {
            assert!(!within_tolerance(u, 0.6, 0.1), "{u}");
        }
    }

    #[test]
    fn drivers_round_up() {
        // 4.1 instances needed run 5: 39.36 concurrent / 16 / 60 % = 4.1.
        assert_eq!(concurrency_recommendation(39.36, 10.0, 16.0, 0.6), 5);
        // The larger of the 1- and 10-minute averages counts.
        assert_eq!(concurrency_recommendation(10.0, 39.36, 16.0, 0.6), 5);
        // CPU: 2.46 CPUs busy on 1-CPU instances at 60 % = 4.1 → 5.
        assert_eq!(cpu_recommendation(2.46, 1.0, 0.6), 5);
        // Exactly 4 stays 4.
        assert_eq!(cpu_recommendation(2.4, 1.0, 0.6), 4);
        // ACT: 30 concurrent on instances whose ACT fell to 10 at 60 % → ⌈5⌉ = 5.
        assert_eq!(act_recommendation(30.0, 10.0, 0.6), 5);
    }

    #[test]
    fn act_lowers_above_90_and_raises_below_70_at_the_maximum() {
        assert_eq!(act_step(16.0, 0.95, true, 16.0, 0.9, 0.7), 15.0);
        assert_eq!(act_step(1.0, 0.99, true, 16.0, 0.9, 0.7), 1.0);
        assert_eq!(act_step(10.0, 0.6, true, 16.0, 0.9, 0.7), 11.0);
        // Below 70 % but not at its maximum: unchanged.
        assert_eq!(act_step(10.0, 0.6, false, 16.0, 0.9, 0.7), 10.0);
        // Between 70 % and 90 %: unchanged.
        assert_eq!(act_step(10.0, 0.8, true, 16.0, 0.9, 0.7), 10.0);
        // Never above the configured maximum.
        assert_eq!(act_step(16.0, 0.1, true, 16.0, 0.9, 0.7), 16.0);
    }

    #[test]
    fn act_settles_where_cpu_stays_under_90_percent() {
        // Saturated instances at 95 % CPU per full worker set: ACT falls to 15, where an
        // instance runs 15 × 0.95 / 16 = 89 % CPU.
        let mut cr = CloudRun::new(CloudRunParams::default());
        for s in 1..=30 {
            let mut o = obs(f64::from(s), 1.0, 4, 0, 64.0);
            o.cpu_share = 0.95;
            cr.decide(&o);
        }
        assert_eq!(cr.act(), Some(15.0));
    }

    #[test]
    fn pending_queue_bound_and_429() {
        assert_eq!(pending_queue_bound_s(2.0, 10.0, 3.5), 10.0);
        assert_eq!(pending_queue_bound_s(60.0, 10.0, 3.5), 210.0);
        assert_eq!(pending_queue_bound_s(480.0, 10.0, 3.5), 1680.0);
        // 800 requests of demand against 40 × 16 = 640 slots: 20 % fail with 429.
        assert!((overflow_429_share(800.0, 40, 16.0) - 0.2).abs() < 1e-12);
        assert_eq!(overflow_429_share(600.0, 40, 16.0), 0.0);
    }

    #[test]
    fn on_demand_starts_what_the_demand_needs_and_reports_429_at_the_maximum() {
        let mut cr = CloudRun::new(CloudRunParams::default());
        // 8 instances × 16 saturated; the real demand is 300 requests.
        let mut o = obs(1.0, 1.0, 8, 0, 128.0);
        o.arrival_rate = 6000.0;
        o.max_instances = 40;
        let d = cr.decide(&o).unwrap();
        assert_eq!((d.desired, d.driver), (19, DriverId::OnDemand));
        // With the maximum at 12: capped, and the rest get 429 after the pending queue.
        let mut cr = CloudRun::new(CloudRunParams::default());
        o.max_instances = 12;
        let d = cr.decide(&o).unwrap();
        assert_eq!(d.desired, 12);
        assert!(
            d.detail.to_string().contains("429") && d.detail.to_string().contains("210 s"),
            "{}",
            d.detail
        );
    }

    #[test]
    fn scales_from_zero_only_on_demand_and_to_zero_when_idle() {
        let mut cr = CloudRun::new(CloudRunParams::default());
        let mut o = obs(1.0, 1.0, 0, 0, 0.0);
        o.arrival_rate = 5.0;
        let d = cr.decide(&o).unwrap();
        assert_eq!((d.desired, d.driver), (1, DriverId::OnDemand));
        // One idle instance with no traffic: gone after a minute under 10 %.
        let mut cr = CloudRun::new(CloudRunParams::default());
        let mut last = None;
        for s in 1..=61 {
            last = cr.decide(&obs(f64::from(s), 1.0, 1, 0, 0.0));
            if last.is_some() {
                assert_eq!(s, 60);
                break;
            }
        }
        assert_eq!(last.unwrap().desired, 0);
    }

    #[test]
    fn requests_held_for_starting_instances_count_and_the_starting_instances_stay() {
        // A restart from zero: nobody serves yet, 5 instances boot (a 2-minute cold start),
        // 900 req/s of 75 ms wait for them. The held requests are a demand of 67.5
        // concurrent requests, ⌈67.5 / 16 / 60 %⌉ = ⌈7.03⌉ = 8 instances.
        assert_eq!(measured_concurrency(0.0, 0, 900.0, 0.075), 67.5);
        assert_eq!(measured_concurrency(40.0, 3, 900.0, 0.075), 40.0);
        let mut cr = CloudRun::new(CloudRunParams::default());
        let mut booting = 5;
        let mut decisions = Vec::new();
        for s in 1..=180 {
            let mut o = obs(f64::from(s), 1.0, 0, booting, 0.0);
            o.arrival_rate = 900.0;
            o.service_s = 0.075;
            o.boot_s = 120.0;
            if let Some(d) = cr.decide(&o) {
                booting = d.desired;
                decisions.push((s, d.desired, d.driver));
            }
        }
        // The concurrency driver sees the held requests and adds what they need; none of
        // the starting instances is judged idle and stopped.
        assert_eq!(decisions, vec![(1, 8, DriverId::Concurrency)]);
    }

    #[test]
    fn scale_in_judges_only_the_instances_that_have_run() {
        // 4 idle serving instances and 2 still booting: after a minute under 10 %, the 4
        // go and the 2 stay, stopped among the serving ones.
        let mut cr = CloudRun::new(CloudRunParams::default());
        let mut last = None;
        for s in 1..=60 {
            last = cr.decide(&obs(f64::from(s), 1.0, 4, 2, 0.0));
            if last.is_some() {
                assert_eq!(s, 60);
            }
        }
        let d = last.expect("the idle ones go after a minute");
        assert_eq!((d.desired, d.removal), (2, Removal::Idle));
        assert!(d.detail.to_string().contains("the 4 instances"), "{}", d.detail);
        // Only booting instances beyond the recommendation: nothing to judge, nothing goes.
        let mut cr = CloudRun::new(CloudRunParams::default());
        for s in 1..=1200 {
            assert_eq!(cr.decide(&obs(f64::from(s), 1.0, 0, 3, 0.0)), None, "{s}");
        }
    }

    #[test]
    fn metrics_scale_out_and_hold_in_band() {
        let mut cr = CloudRun::new(CloudRunParams::default());
        // 10 instances at 90 %: ⌈144 / 16 / 0.6⌉ = 15.
        let d = cr.decide(&obs(1.0, 1.0, 10, 0, 144.0)).unwrap();
        assert_eq!((d.desired, d.driver), (15, DriverId::Concurrency));
        // 15 instances at 60 % (96 busy): in band, holds.
        let mut cr = CloudRun::new(CloudRunParams::default());
        for s in 1..=120 {
            assert!(cr.decide(&obs(f64::from(s), 1.0, 15, 0, 144.0)).is_none());
        }
    }

    #[test]
    fn scale_in_waits_a_minute_under_10_percent_and_the_10_minute_average() {
        let mut cr = CloudRun::new(CloudRunParams::default());
        // Ten minutes at 96 busy on 10 instances (60 %).
        for s in 1..=600 {
            assert!(cr.decide(&obs(f64::from(s), 1.0, 10, 0, 96.0)).is_none());
        }
        // Load halves: the 10-minute average holds the recommendation up for a while.
        let mut first = None;
        for s in 601..=1300 {
            if let Some(d) = cr.decide(&obs(f64::from(s), 1.0, 10, 0, 48.0)) {
                first = Some((s, d));
                break;
            }
        }
        let (s, d) = first.expect("scales in eventually");
        assert!(d.desired < 10 && d.desired >= 5, "{d:?}");
        assert!(s > 660, "the long average delayed it: {s}");
        assert!(d.detail.to_string().contains("scale in"), "{}", d.detail);
    }
}
