//! Target tracking on utilization: the default policy.

use super::{Autoscaler, Decision, Observation, Removal};
use super::registry::{NoParams, Policy};
use super::PolicyId;
use crate::ids::DriverId;
use crate::message::{Message, MessageId};
use crate::relations::{Relation, RelationId, AWS_TARGET_TRACKING};

pub const TARGET_TRACKING: Relation = Relation {
    id: RelationId::TargetTracking,
    symbols: &["target"],
    citations: &[AWS_TARGET_TRACKING],
    assumption: false,
};

/// Desired fleet size for a measured utilization (saturating at 1) and a target.
pub fn desired_instances(serving: u32, utilization: f64, target: f64) -> u32 {
    let exact = f64::from(serving) * utilization.clamp(0.0, 1.0) / target;
    // A hair of tolerance so that 10 × 0.6 / 0.6 does not round up to 11.
    libm::ceil(exact - 1e-9).max(0.0) as u32
}

/// Target tracking with a scale-in cool-down.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetTracking {
    quiet_minutes_needed: u32,
    max_scale_in_share: f64,
    quiet_minutes: u32,
}

impl TargetTracking {
    pub fn new(quiet_minutes_needed: u32, max_scale_in_share: f64) -> Self {
        Self {
            quiet_minutes_needed,
            max_scale_in_share,
            quiet_minutes: 0,
        }
    }
}

impl Autoscaler for TargetTracking {
    fn id(&self) -> PolicyId {
        PolicyId::TargetTracking
    }

    fn decide(&mut self, obs: &Observation) -> Option<Decision> {
        let live = obs.serving + obs.booting;
        let wanted = desired_instances(obs.serving, obs.utilization, obs.target_utilization);
        let desired = wanted.clamp(obs.min_instances, obs.max_instances.max(obs.min_instances));
        let computed = Message::new(MessageId::TargetTrackingComputed)
            .int("serving", obs.serving)
            .num("utilization", obs.utilization * 100.0)
            .num("target", obs.target_utilization * 100.0)
            .int("wanted", wanted);
        if desired > live {
            self.quiet_minutes = 0;
            if obs.booting > 0 {
                return None;
            }
            return Some(Decision {
                desired,
                driver: DriverId::Utilization,
                detail: Message::new(MessageId::TargetTrackingScaleOut)
                    .msg("computed", computed)
                    .int("desired", desired),
                removal: Removal::Stop,
            });
        }
        if desired < live {
            self.quiet_minutes += 1;
            if self.quiet_minutes >= self.quiet_minutes_needed {
                self.quiet_minutes = 0;
                let step = libm::floor(f64::from(live) * self.max_scale_in_share).max(1.0) as u32;
                let to = desired.max(live.saturating_sub(step));
                return Some(Decision {
                    desired: to,
                    driver: DriverId::Utilization,
                    detail: Message::new(MessageId::TargetTrackingScaleIn)
                        .int("quiet", self.quiet_minutes_needed)
                        .msg("computed", computed)
                        .num("share", self.max_scale_in_share * 100.0)
                        .int("live", live)
                        .int("to", to),
                    removal: Removal::Stop,
                });
            }
        } else {
            self.quiet_minutes = 0;
        }
        None
    }
}


impl Policy for TargetTracking {
    type Params = NoParams;
    const RELATIONS: &'static [&'static Relation] = &[&TARGET_TRACKING];
    /// Its parameters are the model's scale-in constants.
    fn specs() -> Vec<&'static crate::params::ParamSpec> {
        crate::params::ModelParams::SPECS
            .iter()
            .filter(|s| s.name.starts_with("scale_in_"))
            .collect()
    }
    fn build(_params: &NoParams, model: &crate::params::ModelParams) -> Self {
        TargetTracking::new(
            model.scale_in_quiet_minutes,
            model.scale_in_max_share,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(serving: u32, booting: u32, utilization: f64) -> Observation {
        Observation {
            t_ms: 0,
            serving,
            booting,
            utilization,
            arrival_rate: 0.0,
            service_s: 0.05,
            min_instances: 2,
            max_instances: 40,
            target_utilization: 0.6,
            ..Observation::default()
        }
    }

    #[test]
    fn scales_out_by_the_ratio() {
        let mut tt = TargetTracking::new(10, 0.2);
        // ⌈10 × 0.9 / 0.6⌉ = 15
        assert_eq!(tt.decide(&obs(10, 0, 0.9)).unwrap().desired, 15);
        // Saturated: ⌈10 × 1.0 / 0.6⌉ = 17, however high the real load.
        assert_eq!(tt.decide(&obs(10, 0, 3.0)).unwrap().desired, 17);
        // Waits while instances boot.
        assert!(tt.decide(&obs(10, 2, 0.9)).is_none());
    }

    #[test]
    fn scales_in_after_quiet_minutes_by_at_most_a_fifth() {
        let mut tt = TargetTracking::new(10, 0.2);
        for _ in 0..9 {
            assert!(tt.decide(&obs(20, 0, 0.1)).is_none());
        }
        // desired ⌈20 × 0.1 / 0.6⌉ = 4, but at most 20 % of 20 = 4 go: 16.
        assert_eq!(tt.decide(&obs(20, 0, 0.1)).unwrap().desired, 16);
    }
}
