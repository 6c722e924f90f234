//! The Knative Pod Autoscaler (KPA) on concurrency: in-flight requests averaged over a
//! 60 s stable window and a 6 s panic window, a target of 70 % of the container
//! concurrency, panic mode past 200 %, scale rates bounded by 1000× up and 2× down, and a
//! 30 s grace period before the last pod goes when scaling to zero.
//!
//! Pods are instances; the container concurrency is the workers per instance; the observed
//! concurrency counts requests in service and waiting, as Knative's queue-proxy does.

use super::{
    ceil_count, policy_params, tick_dividing_minute, Autoscaler, Decision, Observation, Removal, SlidingMeans,
};
use crate::params::BrokenRule;
use super::registry::Policy;
use super::PolicyId;
use crate::ids::DriverId;
use crate::message::{Message, MessageId};
use crate::time::{millis_of, secs, Millis};
use crate::relations::{Relation, RelationId, KNATIVE_AUTOSCALING, KNATIVE_KPA_SOURCE};

policy_params! {
    /// Parameters of the KPA, with Knative's defaults (`config-autoscaler`).
    KpaParams, "kpa", {
        target_utilization: f64 = 0.7, 0.01, 1.0, "";
        stable_window_s: u32 = 60.0, 6.0, 3600.0, "s";
        panic_window_percentage: f64 = 10.0, 1.0, 100.0, "percent";
        panic_threshold_percentage: f64 = 200.0, 110.0, 1000.0, "percent";
        max_scale_up_rate: f64 = 1000.0, 1.01, 100000.0, "times";
        max_scale_down_rate: f64 = 2.0, 1.01, 1000.0, "times";
        scale_to_zero_grace_s: u32 = 30.0, 6.0, 3600.0, "s";
        tick_interval_s: u32 = 2.0, 1.0, 60.0, "s";
    }
}

impl KpaParams {
    /// Its fields have no rule between them.
    pub fn broken_rule(&self) -> Option<BrokenRule> {
        None
    }

    /// The panic window, s.
    pub fn panic_window_s(&self) -> f64 {
        f64::from(self.stable_window_s) * self.panic_window_percentage / 100.0
    }
}

pub const KPA_STABLE_PANIC: Relation = Relation {
    id: RelationId::KpaStablePanic,
    symbols: &["concurrency"],
    citations: &[KNATIVE_AUTOSCALING, KNATIVE_KPA_SOURCE],
    assumption: false,
};

pub const KPA_BOUNDS: Relation = Relation {
    id: RelationId::KpaBounds,
    symbols: &[],
    citations: &[KNATIVE_AUTOSCALING, KNATIVE_KPA_SOURCE],
    assumption: false,
};

/// The KPA's pod counts for one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KpaCounts {
    pub stable: u32,
    pub panic: u32,
    /// Whether the panic window is over the panic threshold.
    pub over_threshold: bool,
}

/// Stable and panic pod counts from the window averages, bounded by the scale rates.
pub fn kpa_counts(
    stable_avg: f64,
    panic_avg: f64,
    target: f64,
    ready: u32,
    p: &KpaParams,
) -> KpaCounts {
    let ready = f64::from(ready.max(1));
    let max_up = libm::ceil(p.max_scale_up_rate * ready);
    let max_down = libm::floor(ready / p.max_scale_down_rate);
    let dspc = f64::from(ceil_count(stable_avg / target));
    let dppc = f64::from(ceil_count(panic_avg / target));
    KpaCounts {
        stable: dspc.max(max_down).min(max_up) as u32,
        panic: dppc.max(max_down).min(max_up) as u32,
        over_threshold: dppc / ready >= p.panic_threshold_percentage / 100.0,
    }
}

/// The KPA's windows.
const STABLE: usize = 0;
const PANIC: usize = 1;

/// The Knative Pod Autoscaler.
#[derive(Clone, Debug, PartialEq)]
pub struct Kpa {
    p: KpaParams,
    /// Concurrency over the stable window ([`STABLE`]) and the panic window ([`PANIC`]).
    windows: SlidingMeans<1, 2>,
    /// Last tick over the panic threshold while in panic mode.
    panic_time: Option<Millis>,
    max_panic_pods: u32,
    /// Since when the desired count has been zero.
    zero_since: Option<Millis>,
    last_tick: Option<Millis>,
}

impl Kpa {
    pub fn new(p: KpaParams) -> Self {
        Self {
            windows: SlidingMeans::new([
                (secs(p.stable_window_s), 0),
                (millis_of(p.panic_window_s()), 0),
            ]),
            p,
            panic_time: None,
            max_panic_pods: 0,
            zero_since: None,
            last_tick: None,
        }
    }

    /// Whether the autoscaler is in panic mode.
    pub fn panicking(&self) -> bool {
        self.panic_time.is_some()
    }
}

impl Autoscaler for Kpa {
    fn id(&self) -> PolicyId {
        PolicyId::Kpa
    }

    fn tick_s(&self) -> u32 {
        tick_dividing_minute(self.p.tick_interval_s)
    }

    /// With no pod, Knative's activator buffers the requests until a pod is ready; here the
    /// request timeout ends their wait.
    fn holds_at_zero_s(&self, _boot_s: f64) -> Option<f64> {
        Some(f64::INFINITY)
    }

    fn decide(&mut self, obs: &Observation) -> Option<Decision> {
        let t = obs.t_ms;
        self.windows.push(t, obs.dt_ms, [obs.concurrency()]);
        if self
            .last_tick
            .is_some_and(|last| t - last < secs(self.p.tick_interval_s))
        {
            return None;
        }
        self.last_tick = Some(t);
        let reading = self.read_windows(obs);
        let (desired, mode) = self.panic_mode(t, &reading.counts);
        let (desired, grace) = self.scale_to_zero_grace(t, desired, obs.live());
        let floor = obs.min_instances;
        let desired = desired.clamp(floor, obs.max_instances.max(floor));
        if desired == obs.live() {
            return None;
        }
        let driver = if self.panic_time.is_some() {
            DriverId::Panic
        } else if desired == 0 {
            DriverId::ScaleToZero
        } else {
            DriverId::Stable
        };
        let decision = self.explain(obs, &reading, mode, desired);
        Some(Decision {
            desired,
            driver,
            detail: match grace {
                Some(grace_s) => Message::new(MessageId::KpaGrace)
                    .msg("decision", decision)
                    .num("grace", grace_s),
                None => decision,
            },
            removal: Removal::Stop,
        })
    }
}

/// What one tick reads from the windows: their averages, the target per pod and the pod
/// counts.
#[derive(Clone, Copy, Debug)]
struct WindowReading {
    stable_avg: f64,
    panic_avg: f64,
    target: f64,
    counts: KpaCounts,
}

impl Kpa {
    /// The stable and panic windows' averages and the pod counts they ask for.
    fn read_windows(&self, obs: &Observation) -> WindowReading {
        let stable_avg = self.windows.mean(STABLE);
        let panic_avg = self.windows.mean(PANIC);
        let target = f64::from(obs.workers_per_instance.max(1)) * self.p.target_utilization;
        let counts = kpa_counts(stable_avg, panic_avg, target, obs.serving, &self.p);
        WindowReading {
            stable_avg,
            panic_avg,
            target,
            counts,
        }
    }

    /// Panic mode: entered over the panic threshold, left a stable window after the last
    /// time over it; while panicking, the pod count never goes down. Returns the desired
    /// pods and the mode's message.
    fn panic_mode(&mut self, t: Millis, counts: &KpaCounts) -> (u32, MessageId) {
        let was_panicking = self.panic_time.is_some();
        if counts.over_threshold {
            self.panic_time = Some(t);
        } else if self
            .panic_time
            .is_some_and(|since| since + secs(self.p.stable_window_s) < t)
        {
            self.panic_time = None;
            self.max_panic_pods = 0;
        }
        if self.panic_time.is_none() {
            let mode = if was_panicking {
                MessageId::KpaPanicEnded
            } else {
                MessageId::KpaStable
            };
            return (counts.stable, mode);
        }
        let desired = counts.stable.max(counts.panic);
        if desired > self.max_panic_pods {
            self.max_panic_pods = desired;
        }
        let mode = if was_panicking {
            MessageId::KpaPanic
        } else {
            MessageId::KpaPanicEntered
        };
        (self.max_panic_pods, mode)
    }

    /// Scale to zero only after the grace period: until then the last pod stays. Returns
    /// the desired pods and the grace period, s, when it held the last pod.
    fn scale_to_zero_grace(&mut self, t: Millis, desired: u32, live: u32) -> (u32, Option<f64>) {
        if desired != 0 {
            self.zero_since = None;
            return (desired, None);
        }
        let grace_s = self.p.scale_to_zero_grace_s;
        let since = *self.zero_since.get_or_insert(t);
        if t - since < secs(grace_s) && live > 0 {
            return (1, Some(f64::from(grace_s)));
        }
        (desired, None)
    }

    /// The decision's detail: the mode, the windows' averages and the counts.
    fn explain(
        &self,
        obs: &Observation,
        r: &WindowReading,
        mode: MessageId,
        desired: u32,
    ) -> Message {
        let p = &self.p;
        let ready = obs.serving;
        Message::new(MessageId::KpaDecision)
            .msg("mode", Message::new(mode))
            .num("stable_average", r.stable_avg)
            .num("stable_window", f64::from(p.stable_window_s))
            .num("panic_average", r.panic_avg)
            .num("panic_window", p.panic_window_s())
            .int("workers", obs.workers_per_instance)
            .num("target_utilization", p.target_utilization * 100.0)
            .num("target", r.target)
            .num("stable_ratio", r.stable_avg / r.target)
            .int("stable", r.counts.stable)
            .num("panic_ratio", r.panic_avg / r.target)
            .int("panic", r.counts.panic)
            .num(
                "panic_share",
                f64::from(ceil_count(r.panic_avg / r.target)) / f64::from(ready.max(1)) * 100.0,
            )
            .int("ready", ready.max(1))
            .num("threshold", p.panic_threshold_percentage)
            .int("desired", desired)
    }
}


impl Policy for Kpa {
    type Params = KpaParams;
    const RELATIONS: &'static [&'static Relation] = &[&KPA_STABLE_PANIC, &KPA_BOUNDS];
    fn build(params: &KpaParams, _model: &crate::params::ModelParams) -> Self {
        Kpa::new(params.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::obs;
    use super::*;

    #[test]
    fn counts_and_bounds() {
        let p = KpaParams::default();
        assert_eq!(p.panic_window_s(), 6.0);
        // 112 in flight at 11.2 per pod: 10 pods.
        let c = kpa_counts(112.0, 112.0, 11.2, 10, &p);
        assert_eq!((c.stable, c.panic, c.over_threshold), (10, 10, false));
        // 224 in the panic window: 20 pods = 200 % of 10 ready: panic.
        let c = kpa_counts(112.0, 224.0, 11.2, 10, &p);
        assert_eq!((c.panic, c.over_threshold), (20, true));
        // Scale-down rate 2: no lower than ⌊10 / 2⌋ = 5 in one step.
        let c = kpa_counts(0.0, 0.0, 11.2, 10, &p);
        assert_eq!(c.stable, 5);
        // Scale-up rate 1000 from 0 ready (taken as 1): at most 1000.
        let c = kpa_counts(1e9, 1e9, 11.2, 0, &p);
        assert_eq!(c.stable, 1000);
    }

    fn at(t: f64, serving: u32, in_flight: f64) -> Observation {
        let mut o = obs(t, 2.0, serving, 0, in_flight);
        o.in_service = in_flight;
        o
    }

    #[test]
    fn enters_and_leaves_panic_mode() {
        let mut kpa = Kpa::new(KpaParams::default());
        let mut t = 0.0;
        // A minute steady at target on 10 pods.
        for _ in 0..30 {
            t += 2.0;
            assert!(kpa.decide(&at(t, 10, 112.0)).is_none());
        }
        assert!(!kpa.panicking());
        // A burst to 300 in flight: after two ticks the 6 s average is (112 + 300 + 300) / 3 = 237,
        // ⌈237 / 11.2⌉ = 22 pods = 220 % of 10: panic, and scale to 22 at once.
        t += 2.0;
        let first = kpa.decide(&at(t, 10, 300.0));
        assert!(!kpa.panicking(), "{first:?}");
        t += 2.0;
        let d = kpa.decide(&at(t, 10, 300.0)).unwrap();
        assert!(kpa.panicking());
        assert_eq!((d.desired, d.driver), (22, DriverId::Panic), "{}", d.detail);
        assert!(d.detail.to_string().contains("entered"), "{}", d.detail);
        // The burst ends; in panic mode the KPA does not scale down.
        let mut left_at = None;
        for _ in 0..60 {
            t += 2.0;
            if let Some(d) = kpa.decide(&at(t, 22, 112.0)) {
                assert!(
                    !kpa.panicking(),
                    "no scale-down while panicking: {}",
                    d.detail
                );
                left_at = Some((t, d));
                break;
            }
        }
        // Panic ends 60 s after the last tick over the threshold (at t = 64 s).
        let (t_left, d) = left_at.expect("leaves panic mode");
        assert!(t_left > 64.0 + 60.0 && t_left <= 64.0 + 62.0, "{t_left}");
        assert!(d.desired < 22 && d.desired >= 11, "{}", d.detail);
    }

    #[test]
    fn scales_to_zero_after_the_grace_period() {
        let mut kpa = Kpa::new(KpaParams::default());
        let mut t = 0.0;
        let mut zero_at = None;
        for _ in 0..100 {
            t += 2.0;
            if let Some(d) = kpa.decide(&at(t, 1, 0.0)) {
                if d.desired == 0 {
                    zero_at = Some(t);
                    break;
                }
            }
        }
        // Desired 0 from the first tick; the last pod stays 30 s.
        assert_eq!(zero_at, Some(32.0));
    }
}
