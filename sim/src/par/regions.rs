//! The regional debrief's comparison: the same scenario, seed and settings replayed with
//! health-based failover off, and with failover off but outlier detection on in every
//! region (its own actions left out, like the par lines). Each replay is one step, so a page
//! can run them in the background one at a time.

use crate::action::{Action, ActionKind};
use crate::params::ParamError;
use crate::setup::RunSetup;

use crate::region_action::RegionAction;

/// Which comparison line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComparisonKind {
    /// Health-based failover off: every region keeps its users whatever its health.
    FailoverOff,
    /// Failover off, outlier detection on in every region.
    OutlierDetectionOnly,
}

impl ComparisonKind {
    pub const ALL: [ComparisonKind; 2] = [Self::FailoverOff, Self::OutlierDetectionOnly];

    /// The actions at minute 0 that make the line.
    pub fn actions(self, regions: usize) -> Vec<Action> {
        let at0 = |a| Action {
            minute: 0,
            kind: ActionKind::Region(a),
        };
        let mut out = vec![at0(RegionAction::Failover(false))];
        if self == Self::OutlierDetectionOnly {
            for r in 0..regions {
                out.push(at0(RegionAction::OutlierDetection {
                    region: r as u8,
                    on: true,
                }));
            }
        }
        out
    }
}

/// One comparison line: what was done and what it cost.
pub type ComparisonLine = super::OutcomeLine<ComparisonKind>;

/// Runs `kind`'s replay of `setup` (its own actions left out) for `minutes`.
pub fn replay(
    setup: &RunSetup,
    kind: ComparisonKind,
    minutes: u32,
) -> Result<ComparisonLine, ParamError> {
    let mut s = setup.clone();
    let regions = s.build()?.region_count();
    s.actions = kind.actions(regions);
    Ok(ComparisonLine::of(kind, &s.run(minutes)?, s.params.slo))
}

/// Both lines, for a run with several regions; none for a run with one.
pub fn comparison(setup: &RunSetup, minutes: u32) -> Result<Vec<ComparisonLine>, ParamError> {
    if setup.build()?.region_count() < 2 {
        return Ok(Vec::new());
    }
    ComparisonKind::ALL
        .iter()
        .map(|k| replay(setup, *k, minutes))
        .collect()
}
