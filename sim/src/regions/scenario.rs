//! The regional outage's twist, drawn from the seed: which failure hits region a, when (at
//! its midday peak), how big, and for how long.

use super::RegionAction;
use crate::rng::Mulberry32;
use crate::scenario::Scripted;

/// Ranges the seed draws the regional failure from.
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

/// A whole number drawn uniformly from `lo..=hi`.
fn whole_in(rng: &mut Mulberry32, (lo, hi): (u32, u32)) -> u32 {
    let span = f64::from(hi.saturating_sub(lo)) + 1.0;
    lo + (libm::floor(rng.uniform() * span) as u32).min(hi.saturating_sub(lo))
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

#[cfg(test)]
mod tests {
    use super::*;

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
