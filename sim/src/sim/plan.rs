//! The plan of a run: every fault its seed drew (the script's, the traffic's surges and
//! drifts), at its minute, written as the exercise format names the kind and its fields
//! (`cache_flush share=0.95`). The facilitator reads it; the trainee never sees it.

use super::Simulation;
use crate::scenario::Scripted;

/// One fault the seed drew.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// The minute of the run it starts in.
    pub minute: u32,
    /// The kind and its values, in the format's words.
    pub fault: String,
}

fn planned(minute: u32, fault: String) -> Planned {
    Planned { minute, fault }
}

impl Simulation {
    /// Every fault of this run's draw, by minute (a drift from minute 0).
    pub fn plan(&self) -> Vec<Planned> {
        let mut plan: Vec<Planned> = self.script.iter().map(scripted).collect();
        for s in &self.surges {
            plan.push(planned(
                s.start_min.max(0.0) as u32,
                format!(
                    "traffic_surge peak={:.2} ramp_minutes={:.1} hold_minutes={:.1} decay_minutes={:.1}",
                    s.peak, s.ramp_min, s.hold_min, s.decay_min
                ),
            ));
        }
        for d in &self.drifts {
            plan.push(planned(
                0,
                format!(
                    "traffic_drift level={:.3} tau_minutes={:.1}",
                    d.level, d.tau_min
                ),
            ));
        }
        plan.sort_by_key(|p| p.minute);
        plan
    }
}

fn scripted(s: &Scripted) -> Planned {
    match *s {
        Scripted::Deploy {
            minute,
            bad,
            rollout_minutes,
            severity,
        } if bad => planned(
            minute,
            format!("bad_deploy rollout_minutes={rollout_minutes} severity={severity:.2}"),
        ),
        Scripted::Deploy {
            minute,
            rollout_minutes,
            ..
        } => planned(minute, format!("deploy rollout_minutes={rollout_minutes}")),
        Scripted::CacheFlush { minute, share } => {
            planned(minute, format!("cache_flush share={share:.2}"))
        }
        Scripted::SlowInstance {
            minute,
            minutes,
            instance,
            factor,
        } => planned(
            minute,
            format!("slow_instance minutes={minutes} instance={instance} factor={factor:.2}"),
        ),
        Scripted::HotKey {
            minute,
            minutes,
            share,
        } => planned(
            minute,
            format!("hot_key minutes={minutes} share={share:.2}"),
        ),
        Scripted::RegionFailure { minute, ref action } => {
            planned(minute, format!("{}={}", action.name(), action.value()))
        }
        Scripted::DependencyLatency {
            minute,
            minutes,
            extra_ms,
        } => planned(
            minute,
            format!("dependency_latency minutes={minutes} extra_ms={extra_ms:.0}"),
        ),
        Scripted::CapacityCut {
            minute,
            minutes,
            share,
        } => planned(
            minute,
            format!("capacity_cut minutes={minutes} share={share:.2}"),
        ),
        Scripted::NoisyNeighbour {
            minute,
            minutes,
            share,
        } => planned(
            minute,
            format!("noisy_neighbour minutes={minutes} share={share:.2}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::ids::ScenarioId;
    use crate::setup::RunSetup;

    #[test]
    fn the_plan_names_each_drawn_fault_at_its_minute() {
        let bad = RunSetup::new(ScenarioId::BadDeploy, 7).build().unwrap();
        let plan = bad.plan();
        assert_eq!(plan.len(), 1, "{plan:?}");
        assert_eq!(Some(plan[0].minute), bad.first_fault());
        assert!(
            plan[0].fault.starts_with("bad_deploy rollout_minutes="),
            "{plan:?}"
        );
        let surge = RunSetup::new(ScenarioId::ViralSurge, 42).build().unwrap();
        let plan = surge.plan();
        let drawn = surge.surge().unwrap();
        assert!(plan
            .iter()
            .any(|p| p.minute == drawn.start_min as u32
                && p.fault.starts_with("traffic_surge peak=")));
    }
}
