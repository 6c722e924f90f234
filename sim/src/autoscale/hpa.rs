//! The Kubernetes Horizontal Pod Autoscaler on CPU utilization, with its default behavior:
//! desired = ⌈current × metric / target⌉, a 0.1 tolerance, a 15 s sync period, a 300 s
//! scale-down stabilization window and the default scale-up policy (the larger of 100 % or
//! 4 pods per 15 s).
//!
//! Pods are instances; the metric is this model's CPU utilization of the serving instances
//! (see [`Observation::cpu_utilization`]) and the target is the target-utilization control.

use super::{ceil_count, policy_params, tick_dividing_minute, Autoscaler, Decision, Observation, Removal};
use crate::params::BrokenRule;
use super::registry::Policy;
use super::PolicyId;
use crate::ids::DriverId;
use crate::message::{Message, MessageId};
use crate::time::{secs, Millis};
use crate::relations::{
    Relation, RelationId, K8S_HPA, K8S_HPA_CONTROLLER, K8S_HPA_STABILIZATION,
};
use std::collections::VecDeque;

policy_params! {
    /// Parameters of the HPA, with Kubernetes' defaults.
    HpaParams, "hpa", {
        tolerance: f64 = 0.1, 0.0, 1.0, "";
        sync_period_s: u32 = 15.0, 1.0, 60.0, "s";
        scale_down_stabilization_s: u32 = 300.0, 0.0, 3600.0, "s";
        scale_up_stabilization_s: u32 = 0.0, 0.0, 3600.0, "s";
        scale_up_percent: f64 = 100.0, 0.0, 1000.0, "percent";
        scale_up_pods: u32 = 4.0, 0.0, 1000.0, "pods";
        scale_up_period_s: u32 = 15.0, 1.0, 1800.0, "s";
        scale_down_percent: f64 = 100.0, 0.0, 100.0, "percent";
        scale_down_period_s: u32 = 15.0, 1.0, 1800.0, "s";
    }
}

impl HpaParams {
    /// The first rule between its fields that does not hold.
    pub fn broken_rule(&self) -> Option<BrokenRule> {
        (self.scale_up_percent <= 0.0 && self.scale_up_pods == 0).then(|| BrokenRule {
            field: "hpa.scale_up_pods",
            value: f64::from(self.scale_up_pods),
            other: "hpa.scale_up_percent",
            other_value: self.scale_up_percent,
            rule: MessageId::ScaleUpPodsNeeded,
            converse: MessageId::ScaleUpPercentNeeded,
        })
    }
}

pub const HPA_RATIO: Relation = Relation {
    id: RelationId::HpaRatio,
    symbols: &["metric", "target"],
    citations: &[K8S_HPA],
    assumption: false,
};

/// desired = ⌈current × metric / target⌉, or `current` while the ratio is within the
/// tolerance.
pub fn desired_replicas(current: u32, metric: f64, target: f64, tolerance: f64) -> u32 {
    let ratio = metric / target;
    if (ratio - 1.0).abs() <= tolerance + 1e-12 {
        return current;
    }
    ceil_count(ratio * f64::from(current))
}

pub const HPA_BEHAVIOR: Relation = Relation {
    id: RelationId::HpaBehavior,
    symbols: &[],
    citations: &[K8S_HPA, K8S_HPA_STABILIZATION, K8S_HPA_CONTROLLER],
    assumption: false,
};

/// The recommendation a new HPA starts its history with: the replicas it finds. The scale-down
/// stabilization window then keeps the fleet at least this large for the window's length.
pub fn initial_recommendation(current_replicas: u32) -> u32 {
    current_replicas
}

/// The scale-up limit for a period that started with `period_start` replicas.
pub fn scale_up_limit(period_start: u32, percent: f64, pods: f64) -> u32 {
    let by_percent = libm::ceil(f64::from(period_start) * (1.0 + percent / 100.0) - 1e-9) as u32;
    let by_pods = period_start + pods as u32;
    by_percent.max(by_pods)
}

/// The Kubernetes HPA.
#[derive(Clone, Debug, PartialEq)]
pub struct Hpa {
    p: HpaParams,
    /// Recommendations with their times, for the stabilization windows.
    recommendations: VecDeque<(Millis, u32)>,
    /// Replica changes with their times, for the scaling policies' periods.
    changes: VecDeque<(Millis, i64)>,
    last_sync: Option<Millis>,
}

impl Hpa {
    pub fn new(p: HpaParams) -> Self {
        Self {
            p,
            recommendations: VecDeque::new(),
            changes: VecDeque::new(),
            last_sync: None,
        }
    }
}

impl Autoscaler for Hpa {
    fn id(&self) -> PolicyId {
        PolicyId::Hpa
    }

    fn tick_s(&self) -> u32 {
        tick_dividing_minute(self.p.sync_period_s)
    }

    fn decide(&mut self, obs: &Observation) -> Option<Decision> {
        let t = obs.t_ms;
        if !self.sync_due(t) {
            return None;
        }
        let current = obs.live();
        self.start_sync(t, current);
        if obs.serving == 0 {
            // No metrics: the HPA leaves the replicas alone.
            return None;
        }
        let (rec, how) = self.replica_calculation(obs, current);
        let (desired, note) = self.stabilize(t, current, rec);
        let (desired, note) = self.scaling_policies(t, current, desired, note);
        let floor = obs.min_instances.max(1);
        let desired = desired.clamp(floor, obs.max_instances.max(floor));
        self.forget_old_changes(t);
        if desired == current {
            return None;
        }
        self.changes
            .push_back((t, i64::from(desired) - i64::from(current)));
        Some(scale_decision(current, desired, how, note))
    }
}

impl Hpa {
    /// Whether a sync period has passed since the last sync.
    fn sync_due(&self, t: Millis) -> bool {
        self.last_sync
            .is_none_or(|last| t - last >= secs(self.p.sync_period_s))
    }

    /// Begins a sync at `t`; the first one records the initial recommendation.
    fn start_sync(&mut self, t: Millis, current: u32) {
        let first_sync = self.last_sync.is_none();
        self.last_sync = Some(t);
        if first_sync {
            // A new HPA's first recommendation is the current replica count (the
            // controller's recordInitialRecommendation), so the scale-down window holds the
            // fleet for its length before a first scale-down. The controller records it as
            // the sync begins, before this sync's own recommendation: a millisecond earlier,
            // so that a zero scale-up window sees only the latter.
            self.recommendations
                .push_back((t.saturating_sub(1), initial_recommendation(current)));
        }
    }

    /// The replica calculation: the recommendation from the metric's ratio to its target,
    /// within the tolerance, with pods not yet ready counted at 0 % on a scale-up.
    fn replica_calculation(&self, obs: &Observation, current: u32) -> (u32, Message) {
        let tolerance = self.p.tolerance;
        let ready = obs.serving;
        let unready = obs.booting;
        let metric = obs.cpu_utilization();
        let target = obs.target_utilization;
        let ratio = metric / target;
        if (ratio - 1.0).abs() <= tolerance + 1e-12 {
            (
                current,
                Message::new(MessageId::HpaWithinTolerance)
                    .num("cpu", metric * 100.0)
                    .num("target", target * 100.0)
                    .num("ratio", ratio)
                    .num("tolerance", tolerance),
            )
        } else if ratio > 1.0 && unready > 0 {
            unready_scale_up(current, ready, unready, metric, target, tolerance)
        } else {
            let rec = ceil_count(ratio * f64::from(ready));
            (
                rec,
                Message::new(MessageId::HpaRatio)
                    .int("ready", ready)
                    .num("cpu", metric * 100.0)
                    .num("target", target * 100.0)
                    .int("recommended", rec),
            )
        }
    }

    /// Stabilization: scale-up takes the lowest recommendation of its window, scale-down
    /// the highest of its window. Returns the desired replicas and a note on what held the
    /// recommendation.
    fn stabilize(&mut self, t: Millis, current: u32, rec: u32) -> (u32, Option<Message>) {
        let p = &self.p;
        self.recommendations.push_back((t, rec));
        let keep = secs(p.scale_down_stabilization_s.max(p.scale_up_stabilization_s));
        while self
            .recommendations
            .front()
            .is_some_and(|&(at, _)| at + keep < t)
        {
            self.recommendations.pop_front();
        }
        let within = |window_s: u32| {
            self.recommendations
                .iter()
                .filter(move |&&(at, _)| at + secs(window_s) >= t)
                .map(|&(_, r)| r)
        };
        let up = within(p.scale_up_stabilization_s).min().unwrap_or(rec);
        let down = within(p.scale_down_stabilization_s).max().unwrap_or(rec);
        let mut desired = current;
        // A note on what held or limited the recommendation; it wraps the decision.
        let mut note: Option<Message> = None;
        if current < up {
            desired = up;
        } else if current > down {
            desired = down;
            if down > rec {
                note = Some(
                    Message::new(MessageId::HpaHeldAtHighest)
                        .int("held", down)
                        .num("window", f64::from(p.scale_down_stabilization_s)),
                );
            }
        } else if rec < current {
            note = Some(
                Message::new(MessageId::HpaHeldByWindow)
                    .int("held", current)
                    .num("window", f64::from(p.scale_down_stabilization_s)),
            );
        }
        (desired, note)
    }

    /// Replicas changed within the last `period_s`: the sum of `part` of each change.
    fn changed_in(&self, t: Millis, period_s: u32, part: impl Fn(i64) -> i64) -> i64 {
        self.changes
            .iter()
            .filter(|&&(at, _)| at + secs(period_s) > t)
            .map(|&(_, d)| part(d))
            .sum()
    }

    /// The scaling policies: the scale-up and scale-down limits per period. A limit that
    /// binds replaces the note.
    fn scaling_policies(
        &self,
        t: Millis,
        current: u32,
        desired: u32,
        note: Option<Message>,
    ) -> (u32, Option<Message>) {
        let p = &self.p;
        if desired > current {
            let added = self.changed_in(t, p.scale_up_period_s, |d| d.max(0));
            let start = (i64::from(current) - added).max(0) as u32;
            let limit = scale_up_limit(start, p.scale_up_percent, f64::from(p.scale_up_pods));
            if desired > limit {
                let note = Message::new(MessageId::HpaScaleUpLimited)
                    .int("start", start)
                    .num("percent", 100.0 + p.scale_up_percent)
                    .num("pods", f64::from(p.scale_up_pods))
                    .int("limit", limit)
                    .num("period", f64::from(p.scale_up_period_s));
                return (limit, Some(note));
            }
        } else if desired < current {
            let removed = self.changed_in(t, p.scale_down_period_s, |d| (-d).max(0));
            let start = i64::from(current) + removed;
            let limit =
                libm::ceil(start as f64 * (1.0 - p.scale_down_percent / 100.0) - 1e-9) as u32;
            if desired < limit {
                let note = Message::new(MessageId::HpaScaleDownLimited)
                    .int("limit", limit)
                    .num("percent", p.scale_down_percent)
                    .num("period", f64::from(p.scale_down_period_s));
                return (limit, Some(note));
            }
        }
        (desired, note)
    }

    /// Drops the changes older than the longer of the scaling policies' periods.
    fn forget_old_changes(&mut self, t: Millis) {
        let keep_changes = secs(self.p.scale_up_period_s.max(self.p.scale_down_period_s));
        while self
            .changes
            .front()
            .is_some_and(|&(at, _)| at + keep_changes <= t)
        {
            self.changes.pop_front();
        }
    }
}

/// A scale-up with pods not yet ready: they count at 0 % and the ratio is recomputed; no
/// scale-up if it falls within the tolerance.
fn unready_scale_up(
    current: u32,
    ready: u32,
    unready: u32,
    metric: f64,
    target: f64,
    tolerance: f64,
) -> (u32, Message) {
    let all = ready + unready;
    let new_ratio = metric * f64::from(ready) / f64::from(all) / target;
    if new_ratio <= 1.0 + tolerance + 1e-12 {
        (
            current,
            Message::new(MessageId::HpaUnreadyNoScaleUp)
                .num("cpu", metric * 100.0)
                .int("ready", ready)
                .int("unready", unready)
                .num("adjusted", new_ratio * target * 100.0)
                .num("target", target * 100.0)
                .num("ratio", new_ratio),
        )
    } else {
        let rec = ceil_count(new_ratio * f64::from(all));
        (
            rec,
            Message::new(MessageId::HpaUnreadyRatio)
                .num("cpu", metric * 100.0)
                .int("ready", ready)
                .int("unready", unready)
                .int("all", all)
                .num("ratio", new_ratio)
                .int("recommended", rec),
        )
    }
}

/// The decision to scale from `current` to `desired`, with how the recommendation was
/// reached, wrapped in the note on what held or limited it.
fn scale_decision(current: u32, desired: u32, how: Message, note: Option<Message>) -> Decision {
    let decision = Message::new(if desired > current {
        MessageId::HpaScaleUp
    } else {
        MessageId::HpaScaleDown
    })
    .int("current", current)
    .int("desired", desired)
    .msg("how", how);
    Decision {
        desired,
        driver: DriverId::Cpu,
        detail: match note {
            Some(note) => note.msg("decision", decision),
            None => decision,
        },
        removal: Removal::Stop,
    }
}


impl Policy for Hpa {
    type Params = HpaParams;
    const RELATIONS: &'static [&'static Relation] = &[&HPA_RATIO, &HPA_BEHAVIOR];
    fn build(params: &HpaParams, _model: &crate::params::ModelParams) -> Self {
        Hpa::new(params.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::obs;
    use super::*;

    #[test]
    fn documented_examples() {
        // 200m against a 100m target doubles the replicas.
        assert_eq!(desired_replicas(3, 0.200, 0.100, 0.1), 6);
        // 50m halves them.
        assert_eq!(desired_replicas(4, 0.050, 0.100, 0.1), 2);
        // 50 replicas at 90 % with a 75 % target give 60.
        assert_eq!(desired_replicas(50, 0.90, 0.75, 0.1), 60);
        // Within the 0.1 tolerance nothing changes.
        assert_eq!(desired_replicas(10, 0.65, 0.6, 0.1), 10);
    }

    #[test]
    fn fifty_replicas_at_90_percent_through_the_controller() {
        let mut hpa = Hpa::new(HpaParams::default());
        let mut o = obs(15.0, 15.0, 50, 0, 0.9 * 50.0 * 16.0);
        o.target_utilization = 0.75;
        let d = hpa.decide(&o).unwrap();
        assert_eq!(d.desired, 60, "{}", d.detail);
    }

    #[test]
    fn scale_up_is_limited_to_double_or_four_pods_per_period() {
        assert_eq!(scale_up_limit(1, 100.0, 4.0), 5);
        assert_eq!(scale_up_limit(10, 100.0, 4.0), 20);
        let mut hpa = Hpa::new(HpaParams::default());
        // 2 pods saturated at 100 % with a 10 % target want 20; at most 2 + 4 = 6.
        let mut o = obs(15.0, 15.0, 2, 0, 32.0);
        o.target_utilization = 0.1;
        let d = hpa.decide(&o).unwrap();
        assert_eq!(d.desired, 6, "{}", d.detail);
        // The next sync, still inside the same 15 s period? No: 15 s later a new period.
        let mut o = obs(30.0, 15.0, 6, 0, 96.0);
        o.target_utilization = 0.1;
        assert_eq!(hpa.decide(&o).unwrap().desired, 12);
    }

    #[test]
    fn syncs_every_15_seconds() {
        let mut hpa = Hpa::new(HpaParams::default());
        assert_eq!(hpa.tick_s(), 15);
        assert!(hpa.decide(&obs(15.0, 15.0, 10, 0, 144.0)).is_some());
        // 5 s later: not yet.
        assert!(hpa.decide(&obs(20.0, 5.0, 10, 0, 150.0)).is_none());
    }

    #[test]
    fn unready_pods_count_as_zero_when_scaling_up() {
        let mut hpa = Hpa::new(HpaParams::default());
        // 8 ready at 90 %, 6 booting: 8 × 0.9 / 14 = 51 % < 60 %, no scale-up.
        assert!(hpa.decide(&obs(15.0, 15.0, 8, 6, 115.2)).is_none());
        // 8 ready at 100 %, 2 booting: 8 / 10 = 80 % → ⌈10 × 0.8 / 0.6⌉ = 14.
        let d = hpa.decide(&obs(30.0, 15.0, 8, 2, 128.0)).unwrap();
        assert_eq!(d.desired, 14, "{}", d.detail);
    }

    #[test]
    fn scale_down_waits_for_the_stabilization_window() {
        let mut hpa = Hpa::new(HpaParams::default());
        // At target for a while.
        for k in 1..=4 {
            assert!(hpa
                .decide(&obs(15.0 * f64::from(k), 15.0, 10, 0, 96.0))
                .is_none());
        }
        // Load falls to a third: recommendation 4, but the 300 s window remembers 10.
        let mut first = None;
        for k in 5..=40 {
            if let Some(d) = hpa.decide(&obs(15.0 * f64::from(k), 15.0, 10, 0, 32.0)) {
                first = Some((15.0 * f64::from(k), d));
                break;
            }
        }
        let (t, d) = first.unwrap();
        assert_eq!(d.desired, 4, "{}", d.detail);
        // The last recommendation of 10 was at 60 s; it leaves the window after 360 s.
        assert!((t - 375.0).abs() < 1e-9, "{t}");
    }

    #[test]
    fn a_new_hpa_holds_its_replicas_for_the_scale_down_window() {
        let mut hpa = Hpa::new(HpaParams::default());
        // 20 pods at 10 % CPU against a 60 % target want ⌈20 × 0.1 / 0.6⌉ = 4, but the first
        // sync (at 15 s) records 20, which the 300 s window keeps for 300 s.
        let quiet = |t: f64| obs(t, 15.0, 20, 0, 32.0);
        for k in 1..=20 {
            let t = 15.0 * f64::from(k);
            assert!(hpa.decide(&quiet(t)).is_none(), "scaled down at {t} s");
        }
        let d = hpa.decide(&quiet(315.0)).unwrap();
        assert_eq!(d.desired, 4, "{}", d.detail);
        assert_eq!(initial_recommendation(20), 20);
    }
}
