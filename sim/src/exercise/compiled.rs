//! The built-in exercises' numbers for the page's first download, which reads no file.
//! Generated from `sim/scenarios/*.json` by the test
//! `the_compiled_built_in_exercises_are_their_files`, which fails when this text differs
//! from what the files give (`ONCALL_SIM_WRITE_COMPILED=1` rewrites it).
#![allow(dead_code)]

use super::{Step, When};
use crate::action::{ActionKind, Settings};
use crate::balance::Routing;
use crate::region_action::RegionAction;
use crate::ids::ScenarioId;
use crate::params::EngineKind;
use crate::scenario::*;

/// The scenario of built-in exercise `id`.
pub(super) fn scenario(id: ScenarioId) -> Scenario {
    match id {
        ScenarioId::FreePlay => Scenario {
            id,
            clock_min: 720,
            budget_left: 1.0,
            boot_minutes: 2,
            base_rps: 900.0,
            instances: 10,
            settings: Settings::default(),
            timeline: vec![Inject::TrafficDrift(DriftDraw { level: (-0.15, 0.2), tau_min: (120.0, 600.0) })],
            minutes: None,
            engine: EngineKind::Formulas,
            regions: 1,
        },
        ScenarioId::BadDeploy => Scenario {
            id,
            clock_min: 540,
            budget_left: 0.2,
            boot_minutes: 2,
            base_rps: 900.0,
            instances: 10,
            settings: Settings::default(),
            timeline: vec![Inject::BadDeploy(DeployDraw { start_min: (7, 13), rollout_min: (3, 6), severity: (0.6, 2.0) })],
            minutes: Some(120),
            engine: EngineKind::Formulas,
            regions: 1,
        },
        ScenarioId::ViralSurge => Scenario {
            id,
            clock_min: 510,
            budget_left: 1.0,
            boot_minutes: 8,
            base_rps: 900.0,
            instances: 8,
            settings: Settings::default(),
            timeline: vec![Inject::TrafficSurge(SurgeDraw { start_min: (20.0, 150.0), peak: (2.0, 4.0), ramp_min: (4.0, 15.0), hold_min: (30.0, 90.0), decay_min: 45.0 })],
            minutes: Some(240),
            engine: EngineKind::Formulas,
            regions: 1,
        },
        ScenarioId::CacheFlush => Scenario {
            id,
            clock_min: 705,
            budget_left: 1.0,
            boot_minutes: 2,
            base_rps: 1280.0,
            instances: 13,
            settings: Settings { min_instances: 2, autoscaling: true, target_utilization: 0.6, cache_ttl_s: 70, shed_low_priority: 0.0, heavy_feature: true, lb: Routing::LeastRequest, hedge: false },
            timeline: vec![Inject::CacheFlush(FlushDraw { minute: (12, 20), share: (0.6, 1.0) })],
            minutes: Some(180),
            engine: EngineKind::Formulas,
            regions: 1,
        },
        ScenarioId::SlowInstance => Scenario {
            id,
            clock_min: 710,
            budget_left: 0.5,
            boot_minutes: 2,
            base_rps: 900.0,
            instances: 10,
            settings: Settings { min_instances: 2, autoscaling: true, target_utilization: 0.6, cache_ttl_s: 60, shed_low_priority: 0.0, heavy_feature: true, lb: Routing::RoundRobin, hedge: false },
            timeline: vec![Inject::SlowInstance(SlowDraw { start_min: (8, 15), minutes: (15, 30), factor: (8.0, 20.0), among: 10 })],
            minutes: Some(90),
            engine: EngineKind::Requests,
            regions: 1,
        },
        ScenarioId::HotKey => Scenario {
            id,
            clock_min: 700,
            budget_left: 0.5,
            boot_minutes: 2,
            base_rps: 900.0,
            instances: 10,
            settings: Settings { min_instances: 2, autoscaling: true, target_utilization: 0.6, cache_ttl_s: 60, shed_low_priority: 0.0, heavy_feature: true, lb: Routing::Maglev, hedge: false },
            timeline: vec![Inject::HotKey(HotKeyDraw { start_min: (8, 15), minutes: (20, 40), share: (0.15, 0.3) })],
            minutes: Some(90),
            engine: EngineKind::Requests,
            regions: 1,
        },
        ScenarioId::RegionalOutage => Scenario {
            id,
            clock_min: 690,
            budget_left: 0.5,
            boot_minutes: 3,
            base_rps: 900.0,
            instances: 12,
            settings: Settings::default(),
            timeline: vec![Inject::RegionFailure(FailureDraw { region: 0, start_min: (25, 40), zone_outage_chance: 0.75, share: (0.5, 0.8), duration_min: (30, 60) })],
            minutes: Some(150),
            engine: EngineKind::Formulas,
            regions: 2,
        },
    }
}

/// The response built-in exercise `id` expects.
pub(super) fn expected(id: ScenarioId) -> Vec<Step> {
    match id {
        ScenarioId::FreePlay => vec![],
        ScenarioId::BadDeploy => vec![Step { when: When::AtPage, action: ActionKind::Rollback }],
        ScenarioId::ViralSurge => vec![Step { when: When::AtPage, action: ActionKind::MinInstances(30) }, Step { when: When::AtPage, action: ActionKind::HeavyFeature(false) }],
        ScenarioId::CacheFlush => vec![Step { when: When::AtPage, action: ActionKind::HeavyFeature(false) }, Step { when: When::AtPage, action: ActionKind::ShedLowPriority(0.5) }, Step { when: When::AtPage, action: ActionKind::WarmCache }],
        ScenarioId::SlowInstance => vec![Step { when: When::AtPage, action: ActionKind::Hedge(true) }],
        ScenarioId::HotKey => vec![Step { when: When::AtPage, action: ActionKind::Lb(Routing::LeastRequest) }],
        ScenarioId::RegionalOutage => vec![Step { when: When::AtPage, action: ActionKind::Region(RegionAction::RegionMinInstances { region: 1, min: 14 }) }, Step { when: When::AtPage, action: ActionKind::HeavyFeature(false) }],
    }
}
