//! The same scenario, seed and actions under several autoscaling policies, side by side:
//! what `oncall-sim compare` prints and what a trainer's comparison shows.

use crate::autoscale::PolicyId;
use crate::ids::ScenarioId;
use crate::params::ParamError;
use crate::setup::{RunOutcome, RunSetup};
use crate::summary::RunSummary;

/// One policy's run, as the comparison table shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PolicyRun {
    pub policy: PolicyId,
    pub scenario: ScenarioId,
    pub seed: u32,
    #[serde(flatten)]
    pub summary: RunSummary,
    /// Scaling decisions that changed the fleet.
    pub scaling_decisions: u32,
    /// Most instances live (serving and booting) in any minute.
    pub peak_instances: u32,
}

impl PolicyRun {
    /// The table row of `outcome`, a run of `setup`.
    pub fn of(setup: &RunSetup, outcome: &RunOutcome) -> Self {
        Self {
            policy: outcome.policy,
            scenario: setup.scenario,
            seed: setup.seed,
            summary: outcome.summary.clone(),
            scaling_decisions: outcome.scaling_decisions,
            peak_instances: outcome.peak_instances,
        }
    }
}

/// Runs `minutes` of `setup` under each of `policies`, in order. Every policy is built (and
/// its parameters checked) before anything runs.
pub fn compare(
    setup: &RunSetup,
    policies: &[PolicyId],
    minutes: u32,
) -> Result<Vec<(RunSetup, RunOutcome)>, ParamError> {
    let mut sims = Vec::with_capacity(policies.len());
    for id in policies {
        let variant = RunSetup {
            policy: *id,
            ..setup.clone()
        };
        let sim = variant.build()?;
        sims.push((variant, sim));
    }
    Ok(sims
        .into_iter()
        .map(|(variant, mut sim)| {
            sim.run(minutes);
            (variant, RunOutcome::of_finished(sim))
        })
        .collect())
}
