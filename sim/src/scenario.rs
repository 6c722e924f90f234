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
    /// A dependency every request calls answers `extra_ms` slower for `minutes` from
    /// `minute`: each request waits that much longer (no CPU).
    DependencyLatency {
        minute: u32,
        minutes: u32,
        extra_ms: f64,
    },
    /// A configuration change cuts each instance's workers by `share` (at least one stays)
    /// for `minutes` from `minute`.
    CapacityCut {
        minute: u32,
        minutes: u32,
        share: f64,
    },
    /// A noisy neighbour on the hosts takes `share` of the CPU for `minutes` from `minute`:
    /// the application's CPU time per request stretches by 1 / (1 − share).
    NoisyNeighbour {
        minute: u32,
        minutes: u32,
        share: f64,
    },
}

impl Scripted {
    /// The minute it happens (or starts).
    pub fn minute(&self) -> u32 {
        match *self {
            Scripted::Deploy { minute, .. }
            | Scripted::CacheFlush { minute, .. }
            | Scripted::SlowInstance { minute, .. }
            | Scripted::HotKey { minute, .. }
            | Scripted::RegionFailure { minute, .. }
            | Scripted::DependencyLatency { minute, .. }
            | Scripted::CapacityCut { minute, .. }
            | Scripted::NoisyNeighbour { minute, .. } => minute,
        }
    }

    /// Whether a fault that lasts `minutes` from `minute` is in force at minute `m`.
    pub fn in_force(minute: u32, minutes: u32, m: u32) -> bool {
        m >= minute && m < minute.saturating_add(minutes)
    }
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

/// Ranges the seed draws a region's failure from: which failure hits the region (a zone
/// outage or its database), when, how big, and for how long. The regional outage draws it
/// for region a at its midday peak.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FailureDraw {
    /// The region that fails (0 = a).
    pub region: u8,
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
        let region = self.region;
        let (failure, end) = if zone {
            (
                RegionAction::ZoneOutage { region, share },
                RegionAction::ZoneOutage { region, share: 0.0 },
            )
        } else {
            (
                RegionAction::DbFailure { region, on: true },
                RegionAction::DbFailure { region, on: false },
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

/// Ranges the seed draws a fault that holds a level for a while from: a dependency's extra
/// latency, a configuration change's cut of the workers, a noisy neighbour's share of the CPU.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct WindowDraw {
    /// Minute of the run the fault starts, inclusive range.
    pub start_min: (u32, u32),
    /// Minutes it lasts, inclusive range.
    pub minutes: (u32, u32),
    /// Its level (milliseconds of extra latency, or a share), range.
    pub level: (f64, f64),
}

impl WindowDraw {
    /// The minute, length and level this generator gives, in that order.
    fn draw(&self, rng: &mut Mulberry32) -> (u32, u32, f64) {
        let minute = whole_in(rng, self.start_min);
        let minutes = whole_in(rng, self.minutes);
        (
            minute,
            minutes,
            rng.uniform_range(self.level.0, self.level.1),
        )
    }
}

/// What a seed draws from a timeline.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    pub script: Vec<Scripted>,
    pub surges: Vec<Surge>,
    pub drifts: Vec<Drift>,
}

/// One inject of a scenario's timeline: a fault kind and the ranges the seed draws its
/// moment and size from (a range of one value is fixed). Each kind draws from its own
/// generator (the seed XOR a constant per kind, and per repeat of the kind), so that no
/// inject changes the draws of another or of the run's traffic.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "fault", rename_all = "snake_case")]
pub enum Inject {
    /// A bad build rolls out.
    BadDeploy(DeployDraw),
    /// The traffic surges and decays.
    TrafficSurge(SurgeDraw),
    /// The usual traffic drifts to a new level.
    TrafficDrift(DriftDraw),
    /// Part of the cache is flushed.
    CacheFlush(FlushDraw),
    /// One instance serves slower (the request engine).
    SlowInstance(SlowDraw),
    /// One key's share of the requests jumps (the request engine).
    HotKey(HotKeyDraw),
    /// A region loses a zone or its database (regions).
    RegionFailure(FailureDraw),
    /// A dependency every request calls slows down.
    DependencyLatency(WindowDraw),
    /// A configuration change cuts each instance's workers.
    CapacityCut(WindowDraw),
    /// A noisy neighbour takes part of the hosts' CPU.
    NoisyNeighbour(WindowDraw),
}

impl Inject {
    /// What this inject scripts, drawn from `seed` (mixed with its repeat number, see
    /// [`Scenario::script`]).
    pub fn script(&self, seed: u32) -> Vec<Scripted> {
        match self {
            Inject::BadDeploy(d) => vec![d.draw(seed)],
            Inject::CacheFlush(d) => vec![d.draw(seed)],
            Inject::SlowInstance(d) => vec![d.draw(seed)],
            Inject::HotKey(d) => vec![d.draw(seed)],
            Inject::RegionFailure(d) => d.draw(seed),
            #[cfg(feature = "extended")]
            Inject::DependencyLatency(_) | Inject::CapacityCut(_) | Inject::NoisyNeighbour(_) => {
                self.held_fault(seed)
            }
            // The first download runs the built-in exercises only, which hold no such fault.
            #[cfg(not(feature = "extended"))]
            Inject::DependencyLatency(_) | Inject::CapacityCut(_) | Inject::NoisyNeighbour(_) => {
                Vec::new()
            }
            Inject::TrafficSurge(_) | Inject::TrafficDrift(_) => Vec::new(),
        }
    }

    /// What a fault that holds a level scripts for `seed` (already mixed with its repeat).
    #[cfg(feature = "extended")]
    fn held_fault(&self, seed: u32) -> Vec<Scripted> {
        let window = |w: &WindowDraw, stream: u32| w.draw(&mut Mulberry32::new(seed ^ stream));
        match self {
            Inject::DependencyLatency(w) => {
                let (minute, minutes, extra_ms) = window(w, 0xDE9E_7A1E);
                vec![Scripted::DependencyLatency {
                    minute,
                    minutes,
                    extra_ms,
                }]
            }
            Inject::CapacityCut(w) => {
                let (minute, minutes, share) = window(w, 0xC0F1_6C07);
                vec![Scripted::CapacityCut {
                    minute,
                    minutes,
                    share,
                }]
            }
            Inject::NoisyNeighbour(w) => {
                let (minute, minutes, share) = window(w, 0x4015_E7C9);
                vec![Scripted::NoisyNeighbour {
                    minute,
                    minutes,
                    share,
                }]
            }
            _ => Vec::new(),
        }
    }

    /// Whether `other` is the same fault kind.
    pub fn same_kind(&self, other: &Inject) -> bool {
        core::mem::discriminant(self) == core::mem::discriminant(other)
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
    /// The faults, in the order written; each draws its moment and size from the seed.
    pub timeline: Vec<Inject>,
    /// Length of the exercise in minutes; the debrief comes after it. `None`: endless.
    pub minutes: Option<u32>,
    /// The service stage the scenario runs on unless the run says otherwise.
    pub engine: EngineKind,
    /// Regions the scenario runs in, at least (the `regions` parameter may ask for more).
    pub regions: u32,
}

impl Scenario {
    /// The seed each inject draws from: `seed`, mixed with the inject's repeat number (how
    /// many of its kind come before it; none for the first, whose draws are the kind's own).
    fn seeds(&self, seed: u32) -> Vec<u32> {
        let t = &self.timeline;
        (0..t.len())
            .map(|i| {
                let nth = t[..i].iter().filter(|o| o.same_kind(&t[i])).count() as u32;
                seed ^ nth.wrapping_mul(0x9E37_79B9)
            })
            .collect()
    }

    /// Everything seed `seed` draws from the timeline, in one pass: the scripted events in
    /// the order declared, the traffic surges and the drifts of the usual traffic.
    pub fn draw(&self, seed: u32) -> Drawn {
        let mut drawn = Drawn::default();
        for (inject, seed) in self.timeline.iter().zip(self.seeds(seed)) {
            match inject {
                Inject::TrafficSurge(d) => drawn.surges.push(d.draw(seed)),
                Inject::TrafficDrift(d) => drawn.drifts.push(d.draw(seed)),
                other => drawn.script.extend(other.script(seed)),
            }
        }
        drawn
    }

    /// The scripted events seed `seed` draws, in the order they were declared.
    pub fn script(&self, seed: u32) -> Vec<Scripted> {
        self.draw(seed).script
    }

    /// The traffic surges seed `seed` draws.
    pub fn surges(&self, seed: u32) -> Vec<Surge> {
        self.draw(seed).surges
    }

    /// The first inject of the timeline `pick` accepts (a scenario's twist, for tests and
    /// the sources panel).
    pub fn first<T>(&self, pick: impl Fn(&Inject) -> Option<T>) -> Option<T> {
        self.timeline.iter().find_map(pick)
    }
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
