//! The scenarios, as data: a briefing, a clock, a budget, a boot delay and scripted events.
//! The viral surge's start and size are drawn from the seed.

use crate::action::Settings;
use crate::ids::ScenarioId;
use crate::rng::Mulberry32;
use crate::traffic::Surge;

/// Something the scenario makes happen at a given minute.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Scripted {
    /// A new build rolls out over `rollout_minutes`.
    Deploy {
        minute: u32,
        bad: bool,
        rollout_minutes: u32,
    },
    /// The whole cache is flushed.
    CacheFlush { minute: u32 },
}

/// Range the seed draws a surge from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SurgeDraw {
    pub start_min: (f64, f64),
    pub peak: (f64, f64),
    pub ramp_min: (f64, f64),
    pub hold_min: (f64, f64),
    pub decay_min: f64,
}

impl SurgeDraw {
    /// The surge this seed gives. Uses its own generator so that the surge does not depend
    /// on how many draws the rest of the run makes.
    pub fn draw(&self, seed: u32) -> Surge {
        let mut rng = Mulberry32::new(seed ^ 0x5EED_5E6E);
        Surge {
            start_min: libm::floor(rng.uniform_range(self.start_min.0, self.start_min.1)),
            peak: rng.uniform_range(self.peak.0, self.peak.1),
            ramp_min: rng.uniform_range(self.ramp_min.0, self.ramp_min.1),
            hold_min: rng.uniform_range(self.hold_min.0, self.hold_min.1),
            decay_min: self.decay_min,
        }
    }
}

/// A scenario definition.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Scenario {
    pub id: ScenarioId,
    /// Time of day at minute 0, in minutes after midnight.
    pub clock_min: u32,
    /// Share of the month's error budget left at the start.
    pub budget_left: f64,
    /// Minutes a new instance needs before it serves.
    pub boot_minutes: u32,
    /// Mean daily traffic, req/s (the 12:00 peak is 1.25 × this).
    pub base_rps: f64,
    /// Instances serving at the start.
    pub instances: u32,
    /// Controls at the start.
    pub settings: Settings,
    pub script: &'static [Scripted],
    pub surge: Option<SurgeDraw>,
    /// Length of the exercise in minutes; the debrief comes after it. `None`: endless.
    pub minutes: Option<u32>,
}

/// Every scenario, in listing order.
pub fn all() -> Vec<Scenario> {
    ScenarioId::ALL.iter().map(|id| get(*id)).collect()
}

/// A scenario by its spelling (parsing at the edge).
pub fn by_id(id: &str) -> Option<Scenario> {
    id.parse().ok().map(get)
}

/// The scenario `id`. Titles and briefings are in the catalogs.
pub fn get(id: ScenarioId) -> Scenario {
    let base = Scenario {
        id: ScenarioId::FreePlay,
        clock_min: 12 * 60,
        budget_left: 1.0,
        boot_minutes: 2,
        base_rps: 900.0,
        instances: 10,
        settings: Settings::default(),
        script: &[],
        surge: None,
        minutes: None,
    };
    match id {
        ScenarioId::FreePlay => base,
        ScenarioId::BadDeploy => Scenario {
            id,
            clock_min: 9 * 60,
            budget_left: 0.2,
            script: &[Scripted::Deploy {
                minute: 10,
                bad: true,
                rollout_minutes: 4,
            }],
            minutes: Some(120),
            ..base
        },
        ScenarioId::ViralSurge => Scenario {
            id,
            clock_min: 8 * 60 + 30,
            boot_minutes: 8,
            instances: 8,
            surge: Some(SurgeDraw {
                start_min: (20.0, 150.0),
                peak: (2.0, 4.0),
                ramp_min: (4.0, 15.0),
                hold_min: (30.0, 90.0),
                decay_min: 45.0,
            }),
            minutes: Some(240),
            ..base
        },
        ScenarioId::CacheFlush => Scenario {
            id,
            clock_min: 11 * 60 + 45,
            base_rps: 1280.0,
            instances: 13,
            settings: Settings {
                cache_ttl_s: 70,
                ..Settings::default()
            },
            script: &[Scripted::CacheFlush { minute: 15 }],
            minutes: Some(180),
            ..base
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_resolves() {
        assert_eq!(all().len(), 4);
        for s in all() {
            assert_eq!(by_id(s.id.as_str()).unwrap(), s);
        }
        assert!(by_id("nope").is_none());
    }

    #[test]
    fn surge_depends_on_seed_only() {
        let d = get(ScenarioId::ViralSurge).surge.unwrap();
        assert_eq!(d.draw(1), d.draw(1));
        assert_ne!(d.draw(1), d.draw(2));
    }
}
