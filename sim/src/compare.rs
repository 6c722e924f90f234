//! The same scenario, seed and actions under several autoscaling policies, side by side:
//! what `oncall-sim compare` prints and what a trainer's comparison shows.

use crate::action::Action;
use crate::autoscale::{self, PolicySettings};
use crate::event::EventKind;
use crate::params::{ModelParams, ParamError};
use crate::scenario::Scenario;
use crate::sim::Simulation;
use crate::summary::RunSummary;

/// One policy's run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PolicyRun {
    pub policy: String,
    pub scenario: String,
    pub seed: u32,
    #[serde(flatten)]
    pub summary: RunSummary,
    /// Scaling decisions that changed the fleet.
    pub scaling_decisions: u32,
    /// Most instances live (serving and booting) in any minute.
    pub peak_instances: u32,
}

/// A simulation of `scenario` under policy `id`.
pub fn simulation(
    scenario: &Scenario,
    seed: u32,
    params: &ModelParams,
    settings: &PolicySettings,
    id: &str,
) -> Result<Simulation, ParamError> {
    let policy = autoscale::build(id, settings, params)?;
    let mut sim = Simulation::new(scenario, seed, params.clone());
    sim.set_autoscaler(policy);
    Ok(sim)
}

/// Runs `minutes` of `scenario` under each of `policies`. Every policy is built (and its
/// parameters checked) before anything runs.
pub fn compare(
    scenario: &Scenario,
    seed: u32,
    params: &ModelParams,
    settings: &PolicySettings,
    policies: &[&str],
    actions: &[Action],
    minutes: u32,
) -> Result<Vec<PolicyRun>, ParamError> {
    let mut sims = Vec::with_capacity(policies.len());
    for id in policies {
        sims.push(simulation(scenario, seed, params, settings, id)?);
    }
    Ok(sims
        .into_iter()
        .map(|mut sim| {
            sim.schedule(actions.iter().cloned());
            sim.run(minutes);
            let scaling_decisions = sim
                .events()
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Scaling { .. }))
                .count() as u32;
            let peak_instances = sim
                .history()
                .iter()
                .map(|r| r.serving + r.booting)
                .max()
                .unwrap_or(0);
            PolicyRun {
                policy: sim.policy().to_string(),
                scenario: scenario.id.to_string(),
                seed,
                summary: sim.summary(),
                scaling_decisions,
                peak_instances,
            }
        })
        .collect())
}
