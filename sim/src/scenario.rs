//! The scenarios, as data: a briefing, a clock, a budget, a boot delay and scripted events.
//! Every scenario draws its twist from the seed, each from its own mulberry32 stream (the
//! seed XOR a constant per twist), so that no twist changes the draws of another or of the
//! run's traffic: the viral surge's start and size, the bad deploy's rollout start, rollout
//! length and extra error share, the cache flush's minute and how much it flushes, and free
//! play's traffic drift. The ranges are the ones the briefings and the sources panel state.

use crate::action::Settings;
use crate::ids::ScenarioId;
use crate::params::EngineKind;
use crate::region_action::RegionAction;
use crate::relations::{Relation, RelationId, MULBERRY32, THIS_MODEL};
use crate::requests::Routing;
use crate::rng::Mulberry32;
use crate::traffic::{Drift, Surge};

/// Something the scenario makes happen at a given minute (as drawn for a seed).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Scripted {
    /// A new build rolls out over `rollout_minutes`; a bad one fails `severity` × the
    /// model's bad-build error share of the requests it serves.
    Deploy {
        minute: u32,
        bad: bool,
        rollout_minutes: u32,
        severity: f64,
    },
    /// `share` of the cache is flushed.
    CacheFlush { minute: u32, share: f64 },
    /// Instance `instance` (by index among the serving ones) serves `factor` times slower
    /// for `minutes` from `minute` (the request engine reads it).
    SlowInstance {
        minute: u32,
        minutes: u32,
        instance: u32,
        factor: f64,
    },
    /// One key carries `share` of the requests for `minutes` from `minute` (the hash
    /// policies send all of it to one instance).
    HotKey {
        minute: u32,
        minutes: u32,
        share: f64,
    },
    /// A failure in a region (a zone outage, a database failure, a bad build) or its end.
    RegionFailure { minute: u32, action: RegionAction },
}

pub const SCENARIO_TWISTS: Relation = Relation {
    id: RelationId::ScenarioTwists,
    symbols: &["level", "τ"],
    citations: &[MULBERRY32, THIS_MODEL],
    assumption: true,
};

/// A whole number drawn uniformly from `lo..=hi`.
fn whole_in(rng: &mut Mulberry32, (lo, hi): (u32, u32)) -> u32 {
    let span = f64::from(hi.saturating_sub(lo)) + 1.0;
    lo + (libm::floor(rng.uniform() * span) as u32).min(hi.saturating_sub(lo))
}

/// Ranges the seed draws the bad deploy from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct DeployDraw {
    /// Minute of the run the rollout starts, inclusive range.
    pub start_min: (u32, u32),
    /// Minutes the rollout takes, inclusive range.
    pub rollout_min: (u32, u32),
    /// Multiplier of the model's bad-build error share (`bad_build_error_rate`).
    pub severity: (f64, f64),
}

impl DeployDraw {
    /// The bad deploy this seed gives, from its own generator.
    pub fn draw(&self, seed: u32) -> Scripted {
        let mut rng = Mulberry32::new(seed ^ 0xDE91_0E5A);
        Scripted::Deploy {
            minute: whole_in(&mut rng, self.start_min),
            bad: true,
            rollout_minutes: whole_in(&mut rng, self.rollout_min),
            severity: rng.uniform_range(self.severity.0, self.severity.1),
        }
    }
}

/// Ranges the seed draws the cache flush from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FlushDraw {
    /// Minute of the run of the flush, inclusive range.
    pub minute: (u32, u32),
    /// Share of the cache flushed.
    pub share: (f64, f64),
}

impl FlushDraw {
    /// The flush this seed gives, from its own generator.
    pub fn draw(&self, seed: u32) -> Scripted {
        let mut rng = Mulberry32::new(seed ^ 0xF105_4CAC);
        Scripted::CacheFlush {
            minute: whole_in(&mut rng, self.minute),
            share: rng.uniform_range(self.share.0, self.share.1),
        }
    }
}

/// Ranges the seed draws the slow instance from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SlowDraw {
    /// Minute of the run the instance turns slow, inclusive range.
    pub start_min: (u32, u32),
    /// Minutes it stays slow, inclusive range.
    pub minutes: (u32, u32),
    /// Service-time multiplier.
    pub factor: (f64, f64),
    /// Instances it is drawn among (the first ones by index).
    pub among: u32,
}

impl SlowDraw {
    /// The slow instance this seed gives, from its own generator.
    pub fn draw(&self, seed: u32) -> Scripted {
        let mut rng = Mulberry32::new(seed ^ 0x510E_1A57);
        Scripted::SlowInstance {
            minute: whole_in(&mut rng, self.start_min),
            minutes: whole_in(&mut rng, self.minutes),
            instance: whole_in(&mut rng, (0, self.among.saturating_sub(1))),
            factor: rng.uniform_range(self.factor.0, self.factor.1),
        }
    }
}

/// Ranges the seed draws the hot key's surge from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct HotKeyDraw {
    /// Minute of the run the key turns hot, inclusive range.
    pub start_min: (u32, u32),
    /// Minutes it stays hot, inclusive range.
    pub minutes: (u32, u32),
    /// Share of the requests that carry it.
    pub share: (f64, f64),
}

impl HotKeyDraw {
    /// The hot key's surge this seed gives, from its own generator.
    pub fn draw(&self, seed: u32) -> Scripted {
        let mut rng = Mulberry32::new(seed ^ 0x407C_E1A5);
        Scripted::HotKey {
            minute: whole_in(&mut rng, self.start_min),
            minutes: whole_in(&mut rng, self.minutes),
            share: rng.uniform_range(self.share.0, self.share.1),
        }
    }
}

/// Ranges the seed draws free play's traffic drift from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct DriftDraw {
    /// Level the traffic drifts to, as a share of the usual (−0.1: 10 % less).
    pub level: (f64, f64),
    /// Time constant of the approach, minutes.
    pub tau_min: (f64, f64),
}

impl DriftDraw {
    /// The drift this seed gives, from its own generator.
    pub fn draw(&self, seed: u32) -> Drift {
        let mut rng = Mulberry32::new(seed ^ 0xD21F_7A11);
        Drift {
            level: rng.uniform_range(self.level.0, self.level.1),
            tau_min: rng.uniform_range(self.tau_min.0, self.tau_min.1),
        }
    }
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
    // The surge's ranges as the sources panel states them: start 20–150 min, peak ×2–×4,
    // ramp 4–15 min, hold 30–90 min, decay 45 min.
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

/// Ranges the seed draws the regional outage's failure from: which failure hits region a,
/// when (at its midday peak), how big, and for how long.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FailureDraw {
    /// Minute of the run the failure starts, inclusive range.
    pub start_min: (u32, u32),
    /// Chance that it is a zone outage; otherwise the region's database fails.
    pub zone_outage_chance: f64,
    /// Share of the region's instances a zone outage crashes.
    pub share: (f64, f64),
    /// Minutes until the zone or the database is back, inclusive range.
    pub duration_min: (u32, u32),
}

impl FailureDraw {
    /// The failure and its end this seed gives, from their own generator.
    pub fn draw(&self, seed: u32) -> Vec<Scripted> {
        let mut rng = Mulberry32::new(seed ^ 0x4E61_0AA7);
        let minute = whole_in(&mut rng, self.start_min);
        let zone = rng.uniform() < self.zone_outage_chance;
        let share = rng.uniform_range(self.share.0, self.share.1);
        let back = minute + whole_in(&mut rng, self.duration_min);
        let (failure, end) = if zone {
            (
                RegionAction::ZoneOutage { region: 0, share },
                RegionAction::ZoneOutage {
                    region: 0,
                    share: 0.0,
                },
            )
        } else {
            (
                RegionAction::DbFailure {
                    region: 0,
                    on: true,
                },
                RegionAction::DbFailure {
                    region: 0,
                    on: false,
                },
            )
        };
        vec![
            Scripted::RegionFailure {
                minute,
                action: failure,
            },
            Scripted::RegionFailure {
                minute: back,
                action: end,
            },
        ]
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
    /// The bad deploy, drawn from the seed.
    pub deploy: Option<DeployDraw>,
    /// The cache flush, drawn from the seed.
    pub flush: Option<FlushDraw>,
    pub surge: Option<SurgeDraw>,
    /// A slow drift of the usual traffic, drawn from the seed.
    pub drift: Option<DriftDraw>,
    /// Length of the exercise in minutes; the debrief comes after it. `None`: endless.
    pub minutes: Option<u32>,
    /// The service stage the scenario runs on unless the run says otherwise.
    pub engine: EngineKind,
    /// One instance turning slow, drawn from the seed.
    pub slow: Option<SlowDraw>,
    /// A key's popularity surging, drawn from the seed.
    pub hot_key: Option<HotKeyDraw>,
    /// Regions the scenario runs in, at least (the `regions` parameter may ask for more).
    pub regions: u32,
    /// The regional failure, drawn from the seed.
    pub region_failure: Option<FailureDraw>,
}

impl Scenario {
    /// The scripted events seed `seed` draws, in the order they were declared.
    pub fn script(&self, seed: u32) -> Vec<Scripted> {
        self.deploy
            .map(|d| d.draw(seed))
            .into_iter()
            .chain(self.flush.map(|f| f.draw(seed)))
            .chain(self.slow.map(|d| d.draw(seed)))
            .chain(self.hot_key.map(|d| d.draw(seed)))
            .chain(self.region_failure.iter().flat_map(|f| f.draw(seed)))
            .collect()
    }
}

/// Every scenario, in listing order.
pub fn all() -> Vec<Scenario> {
    ScenarioId::ALL.iter().map(|id| get(*id)).collect()
}

/// A scenario by its spelling (parsing at the edge).
pub fn by_id(id: &str) -> Option<Scenario> {
    id.parse().ok().map(get)
}

/// The one lesson each scenario teaches, as the debrief states it (the text is in the
/// catalogs). Free play teaches no incident: its lesson is about reading the controls' cost.
pub fn lesson(id: ScenarioId) -> crate::message::MessageId {
    use crate::message::MessageId;
    match id {
        ScenarioId::FreePlay => MessageId::LessonFreePlay,
        ScenarioId::BadDeploy => MessageId::LessonBadDeploy,
        ScenarioId::ViralSurge => MessageId::LessonViralSurge,
        ScenarioId::CacheFlush => MessageId::LessonCacheFlush,
        ScenarioId::SlowInstance => MessageId::LessonSlowInstance,
        ScenarioId::HotKey => MessageId::LessonHotKey,
        ScenarioId::RegionalOutage => MessageId::LessonRegionalOutage,
    }
}

/// What every scenario starts from: free play's noon with ten instances, 900 requests per
/// second, the whole budget and no twist.
fn usual() -> Scenario {
    Scenario {
        id: ScenarioId::FreePlay,
        clock_min: 12 * 60,
        budget_left: 1.0,
        boot_minutes: 2,
        base_rps: 900.0,
        instances: 10,
        settings: Settings::default(),
        deploy: None,
        flush: None,
        surge: None,
        drift: None,
        minutes: None,
        engine: EngineKind::Formulas,
        slow: None,
        hot_key: None,
        regions: 1,
        region_failure: None,
    }
}

/// The scenario `id`. Titles and briefings are in the catalogs.
pub fn get(id: ScenarioId) -> Scenario {
    let base = usual();
    match id {
        // The usual traffic drifts to between 15 % less and 20 % more, with a time constant
        // of 2 to 10 hours.
        ScenarioId::FreePlay => Scenario {
            drift: Some(DriftDraw {
                level: (-0.15, 0.20),
                tau_min: (120.0, 600.0),
            }),
            ..base
        },
        // The bad build goes out between 09:07 and 09:13, rolls out over 3 to 6 minutes and
        // fails 0.6 to 2 times the model's bad-build error share (3 % to 10 % at its 5 %).
        ScenarioId::BadDeploy => Scenario {
            id,
            clock_min: 9 * 60,
            budget_left: 0.2,
            deploy: Some(DeployDraw {
                start_min: (7, 13),
                rollout_min: (3, 6),
                severity: (0.6, 2.0),
            }),
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
            // Between 11:57 and 12:05, 60 % to 100 % of the cache.
            flush: Some(FlushDraw {
                minute: (12, 20),
                share: (0.6, 1.0),
            }),
            minutes: Some(180),
            ..base
        },
        // At the midday peak (from 11:50), between minute 8 and 15 one of the ten instances
        // turns 8 to 20 times slower for 15 to 30 minutes. Round robin keeps sending it its
        // tenth of the traffic.
        ScenarioId::SlowInstance => Scenario {
            id,
            clock_min: 11 * 60 + 50,
            budget_left: 0.5,
            settings: Settings {
                lb: Routing::RoundRobin,
                ..Settings::default()
            },
            slow: Some(SlowDraw {
                start_min: (8, 15),
                minutes: (15, 30),
                factor: (8.0, 20.0),
                among: 10,
            }),
            engine: EngineKind::Requests,
            minutes: Some(90),
            ..base
        },
        // From 11:40, between minute 8 and 15 one key's share of the requests jumps to 15 %
        // to 30 % for 20 to 40 minutes; Maglev sends all of it to one instance.
        ScenarioId::HotKey => Scenario {
            id,
            clock_min: 11 * 60 + 40,
            budget_left: 0.5,
            settings: Settings {
                lb: Routing::Maglev,
                ..Settings::default()
            },
            hot_key: Some(HotKeyDraw {
                start_min: (8, 15),
                minutes: (20, 40),
                share: (0.15, 0.30),
            }),
            engine: EngineKind::Requests,
            minutes: Some(90),
            ..base
        },
        // Two regions; between 11:55 and 12:10, at region a's peak, a zone outage crashes
        // 50 % to 80 % of its instances (three seeds in four) or its database fails, for
        // 30 to 60 minutes.
        ScenarioId::RegionalOutage => Scenario {
            id,
            clock_min: 11 * 60 + 30,
            budget_left: 0.5,
            boot_minutes: 3,
            instances: 12,
            regions: 2,
            region_failure: Some(FailureDraw {
                start_min: (25, 40),
                zone_outage_chance: 0.75,
                share: (0.5, 0.8),
                duration_min: (30, 60),
            }),
            minutes: Some(150),
            ..base
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_resolves() {
        assert_eq!(all().len(), 7);
        for s in all() {
            assert_eq!(by_id(s.id.as_str()).unwrap(), s);
        }
        assert!(by_id("nope").is_none());
    }

    fn deploy(seed: u32) -> (u32, u32, f64) {
        match get(ScenarioId::BadDeploy).deploy.unwrap().draw(seed) {
            Scripted::Deploy {
                minute,
                bad,
                rollout_minutes,
                severity,
            } => {
                assert!(bad);
                (minute, rollout_minutes, severity)
            }
            other => panic!("{other:?}"),
        }
    }

    fn flush(seed: u32) -> (u32, f64) {
        match get(ScenarioId::CacheFlush).flush.unwrap().draw(seed) {
            Scripted::CacheFlush { minute, share } => (minute, share),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn twists_are_the_same_for_a_seed_and_differ_across_seeds() {
        for seed in [7, 42, 1] {
            assert_eq!(deploy(seed), deploy(seed));
            assert_eq!(flush(seed), flush(seed));
            let drift = get(ScenarioId::FreePlay).drift.unwrap();
            assert_eq!(drift.draw(seed), drift.draw(seed));
            let s = get(ScenarioId::BadDeploy);
            assert_eq!(s.script(seed), s.script(seed));
        }
        // Seeds 7 and 42: the bad build goes out at 09:08 over 5 minutes failing 1.15 × the
        // model's share, or at 09:07 over 5 minutes failing 0.86 ×; the flush comes at
        // minute 19 (89 %) or 14 (83 %).
        assert_ne!(deploy(7), deploy(42));
        assert_ne!(deploy(7).0, deploy(42).0);
        assert_ne!(flush(7), flush(42));
        assert_ne!(flush(7).0, flush(42).0);
        let drift = get(ScenarioId::FreePlay).drift.unwrap();
        assert_ne!(drift.draw(7), drift.draw(42));
        // The other scenarios have no script.
        assert!(get(ScenarioId::FreePlay).script(7).is_empty());
        assert!(get(ScenarioId::ViralSurge).script(7).is_empty());
    }

    #[test]
    fn twists_stay_within_their_ranges_and_cover_them() {
        let d = get(ScenarioId::BadDeploy).deploy.unwrap();
        let f = get(ScenarioId::CacheFlush).flush.unwrap();
        let r = get(ScenarioId::FreePlay).drift.unwrap();
        let mut starts = std::collections::BTreeSet::new();
        let mut lengths = std::collections::BTreeSet::new();
        let mut flush_minutes = std::collections::BTreeSet::new();
        let (mut sev_lo, mut sev_hi) = (f64::MAX, f64::MIN);
        let (mut level_lo, mut level_hi) = (f64::MAX, f64::MIN);
        for seed in (0..20_000u32).map(|k| k.wrapping_mul(2_654_435_761)) {
            let (start, length, severity) = deploy(seed);
            assert!((d.start_min.0..=d.start_min.1).contains(&start), "{seed}");
            assert!(
                (d.rollout_min.0..=d.rollout_min.1).contains(&length),
                "{seed}"
            );
            assert!(
                severity >= d.severity.0 && severity < d.severity.1,
                "{seed}"
            );
            starts.insert(start);
            lengths.insert(length);
            (sev_lo, sev_hi) = (sev_lo.min(severity), sev_hi.max(severity));
            let (minute, share) = flush(seed);
            assert!((f.minute.0..=f.minute.1).contains(&minute), "{seed}");
            assert!(share >= f.share.0 && share < f.share.1, "{seed}");
            flush_minutes.insert(minute);
            let drift = r.draw(seed);
            assert!(drift.level >= r.level.0 && drift.level < r.level.1);
            assert!(drift.tau_min >= r.tau_min.0 && drift.tau_min < r.tau_min.1);
            (level_lo, level_hi) = (level_lo.min(drift.level), level_hi.max(drift.level));
        }
        // Every whole minute of each range comes up, and the shares spread over theirs.
        assert_eq!(starts.len() as u32, d.start_min.1 - d.start_min.0 + 1);
        assert_eq!(lengths.len() as u32, d.rollout_min.1 - d.rollout_min.0 + 1);
        assert_eq!(flush_minutes.len() as u32, f.minute.1 - f.minute.0 + 1);
        assert!(sev_lo < d.severity.0 + 0.01 && sev_hi > d.severity.1 - 0.01);
        assert!(level_lo < r.level.0 + 0.01 && level_hi > r.level.1 - 0.01);
    }

    #[test]
    fn the_sources_panel_states_the_ranges_the_scenarios_draw_from() {
        let text = crate::catalog::relations_en::texts(RelationId::ScenarioTwists).formula;
        let d = get(ScenarioId::BadDeploy).deploy.unwrap();
        let f = get(ScenarioId::CacheFlush).flush.unwrap();
        let r = get(ScenarioId::FreePlay).drift.unwrap();
        let v = get(ScenarioId::ViralSurge).surge.unwrap();
        let o = get(ScenarioId::RegionalOutage).region_failure.unwrap();
        assert_eq!(o.zone_outage_chance, 0.75, "3 seeds in 4");
        for needle in [
            format!(
                "rollout starts at minute {}–{}",
                d.start_min.0, d.start_min.1
            ),
            format!("lasts {}–{} min", d.rollout_min.0, d.rollout_min.1),
            format!("fails {}–{} ×", d.severity.0, d.severity.1),
            format!("at minute {}–{} (", f.minute.0, f.minute.1),
            format!("{}–{} % of the cache", f.share.0 * 100.0, f.share.1 * 100.0),
            format!("level {} % to +{} %", r.level.0 * 100.0, r.level.1 * 100.0),
            format!("τ {}–{} min", r.tau_min.0, r.tau_min.1),
            format!("start at minute {}–{}", v.start_min.0, v.start_min.1),
            format!("peak ×{}–×{}", v.peak.0, v.peak.1),
            format!("ramp {}–{} min", v.ramp_min.0, v.ramp_min.1),
            format!("hold {}–{} min", v.hold_min.0, v.hold_min.1),
            format!("τ = {} min", v.decay_min),
            format!(
                "regional outage: at minute {}–{}",
                o.start_min.0, o.start_min.1
            ),
            format!(
                "loses {}–{} % of its instances",
                o.share.0 * 100.0,
                o.share.1 * 100.0
            ),
            format!("back after {}–{} min", o.duration_min.0, o.duration_min.1),
            {
                let d = get(ScenarioId::SlowInstance).slow.unwrap();
                format!(
                    "one of {} instances at minute {}–{} (11:58–12:05) for {}–{} min, service times ×{}–×{}",
                    d.among, d.start_min.0, d.start_min.1, d.minutes.0, d.minutes.1, d.factor.0, d.factor.1
                )
            },
            {
                let d = get(ScenarioId::HotKey).hot_key.unwrap();
                format!(
                    "at minute {}–{} (11:48–11:55) for {}–{} min, carrying {}–{} %",
                    d.start_min.0,
                    d.start_min.1,
                    d.minutes.0,
                    d.minutes.1,
                    d.share.0 * 100.0,
                    d.share.1 * 100.0
                )
            },
        ] {
            let needle = needle.replace('-', "−");
            assert!(text.contains(&needle), "{needle:?} not in {text:?}");
        }
    }

    #[test]
    fn surge_depends_on_seed_only() {
        let d = get(ScenarioId::ViralSurge).surge.unwrap();
        assert_eq!(d.draw(1), d.draw(1));
        assert_ne!(d.draw(1), d.draw(2));
    }

    #[test]
    fn the_same_seed_gives_the_same_failure_and_others_differ() {
        let d = crate::scenario::get(crate::ids::ScenarioId::RegionalOutage)
            .region_failure
            .unwrap();
        assert_eq!(d.draw(7), d.draw(7));
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..200u32 {
            let s = d.draw(seed);
            let Scripted::RegionFailure { minute, action } = s[0] else {
                panic!("{s:?}")
            };
            assert!((d.start_min.0..=d.start_min.1).contains(&minute));
            if let RegionAction::ZoneOutage { share, .. } = action {
                assert!(share >= d.share.0 && share < d.share.1);
            }
            let Scripted::RegionFailure { minute: back, .. } = s[1] else {
                panic!("{s:?}")
            };
            assert!(back >= minute + d.duration_min.0 && back <= minute + d.duration_min.1);
            kinds.insert(action.name());
        }
        assert_eq!(kinds.len(), 2, "both failures come up");
    }
}
