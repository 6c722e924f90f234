//! A run's grade: a score from 0 to 100 and whether it met its exercise's objectives.
//!
//! The score has four parts of 25 points, each read against the par lines of the same
//! scenario and seed (doing nothing, and the textbook response when the page fires): the
//! budget spent, the minutes paging, the minutes to mitigate (from the first fault's start to
//! errors back within the SLO) and the cost. A part scores the share of the textbook's gain
//! over doing nothing that the run achieved, `(nothing − you) / (nothing − textbook)`, kept
//! within 0 and 1; where the textbook gains nothing on a measure, the part is full at or
//! below the textbook and `textbook / you` above it. Cost is read the second way always
//! (spending more than the textbook costs is the only loss). A run passes when it meets every
//! objective its exercise sets; an exercise that sets none is passed from 60 points.
//! `docs/scenario.md` ("How a run is graded") states the same, with an example.

use crate::exercise::Objectives;
use crate::par::{ParKind, ParLine};
use crate::summary::RunSummary;

/// Points of each part.
pub const PART_POINTS: f64 = 25.0;
/// The score that passes an exercise without objectives.
pub const PASS_WITHOUT_OBJECTIVES: u32 = 60;

/// What a run reached, as the grade reads it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Reached {
    /// Share of the month's budget spent, and left at the end.
    pub budget_spent: f64,
    pub budget_left: f64,
    pub minutes_paging: u32,
    /// Fleet cost, $.
    pub cost: f64,
    /// `None` when errors were still above the SLO at the end.
    pub minutes_to_mitigate: Option<u32>,
    /// Minutes the run lasted (what an unmitigated run counts as).
    pub minutes: u32,
}

impl Reached {
    /// From a run's summary and its minutes to mitigate.
    pub fn of(summary: &RunSummary, minutes_to_mitigate: Option<u32>) -> Self {
        Self {
            budget_spent: summary.budget_spent,
            budget_left: summary.budget_left,
            minutes_paging: summary.minutes_paging,
            cost: summary.cost,
            minutes_to_mitigate,
            minutes: summary.minutes,
        }
    }

    fn mitigation(&self) -> f64 {
        f64::from(self.minutes_to_mitigate.unwrap_or(self.minutes))
    }
}

/// One objective and whether the run met it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ObjectiveMet {
    /// Its field in the exercise file (`budget_left_at_least`, …).
    pub objective: &'static str,
    /// The exercise's bound and the run's value.
    pub bound: f64,
    pub reached: f64,
    pub met: bool,
}

/// A run's grade.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Grade {
    /// 0–100.
    pub score: u32,
    /// The four parts, each 0–1: budget, paging, mitigation, cost.
    pub budget: f64,
    pub paging: f64,
    pub mitigation: f64,
    pub cost: f64,
    pub objectives: Vec<ObjectiveMet>,
    pub passed: bool,
}

/// The share of the reference's gain over doing nothing that `you` achieved (lower is
/// better), within 0 and 1.
fn part(you: f64, nothing: f64, reference: f64) -> f64 {
    if nothing > reference {
        ((nothing - you) / (nothing - reference)).clamp(0.0, 1.0)
    } else {
        at_most(you, reference)
    }
}

/// Full at or below `reference`, `reference / you` above it.
fn at_most(you: f64, reference: f64) -> f64 {
    if you <= reference {
        1.0
    } else {
        (reference / you).clamp(0.0, 1.0)
    }
}

/// The grade of a run that reached `you`, against `par` (its scenario's and seed's par
/// lines) and `objectives`.
pub fn grade(you: &Reached, par: &[ParLine], objectives: &Objectives) -> Grade {
    let line = |kind| par.iter().find(|l| l.kind == kind);
    let nothing = line(ParKind::NothingDone);
    // Without a textbook line (the page never fired, or no par was computed), the run is
    // read against doing nothing alone.
    let reference = line(ParKind::Textbook).or(nothing);
    let of = |measure: fn(&ParLine, u32) -> f64, yours: f64| match (nothing, reference) {
        (Some(n), Some(r)) => part(yours, measure(n, you.minutes), measure(r, you.minutes)),
        _ => 1.0,
    };
    let budget = of(|l, _| l.budget_spent, you.budget_spent);
    let paging = of(
        |l, _| f64::from(l.minutes_paging),
        f64::from(you.minutes_paging),
    );
    let mitigation = of(
        |l, minutes| f64::from(l.minutes_to_mitigate.unwrap_or(minutes)),
        you.mitigation(),
    );
    let cost = reference.map_or(1.0, |r| at_most(you.cost, r.cost));
    let score = (PART_POINTS * (budget + paging + mitigation + cost)).round() as u32;
    let objectives = objectives_met(you, objectives);
    let passed = if objectives.is_empty() {
        score >= PASS_WITHOUT_OBJECTIVES
    } else {
        objectives.iter().all(|o| o.met)
    };
    Grade {
        score,
        budget,
        paging,
        mitigation,
        cost,
        objectives,
        passed,
    }
}

fn objectives_met(you: &Reached, o: &Objectives) -> Vec<ObjectiveMet> {
    let at_least = |objective, bound: f64, reached: f64| ObjectiveMet {
        objective,
        bound,
        reached,
        met: reached >= bound,
    };
    let at_most = |objective, bound: f64, reached: f64| ObjectiveMet {
        objective,
        bound,
        reached,
        met: reached <= bound,
    };
    let mut met = Vec::new();
    if let Some(b) = o.budget_left_at_least {
        met.push(at_least("budget_left_at_least", b, you.budget_left));
    }
    if let Some(m) = o.minutes_paging_at_most {
        met.push(at_most(
            "minutes_paging_at_most",
            f64::from(m),
            f64::from(you.minutes_paging),
        ));
    }
    if let Some(c) = o.cost_at_most {
        met.push(at_most("cost_at_most", c, you.cost));
    }
    if let Some(m) = o.minutes_to_mitigate_at_most {
        met.push(at_most(
            "minutes_to_mitigate_at_most",
            f64::from(m),
            you.mitigation(),
        ));
    }
    met
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kind: ParKind, spent: f64, paging: u32, cost: f64, mitigate: Option<u32>) -> ParLine {
        ParLine {
            kind,
            actions: Vec::new(),
            budget_spent: spent,
            minutes_paging: paging,
            worst_p99_ms: 0.0,
            cost,
            minutes_to_mitigate: mitigate,
        }
    }

    fn reached(spent: f64, paging: u32, cost: f64, mitigate: Option<u32>) -> Reached {
        Reached {
            budget_spent: spent,
            budget_left: 0.2 - spent,
            minutes_paging: paging,
            cost,
            minutes_to_mitigate: mitigate,
            minutes: 120,
        }
    }

    fn par() -> Vec<ParLine> {
        vec![
            line(ParKind::NothingDone, 0.10, 90, 8.0, None),
            line(ParKind::Textbook, 0.02, 10, 8.5, Some(20)),
        ]
    }

    #[test]
    fn the_textbook_response_scores_full_and_doing_nothing_scores_its_cost_only() {
        let none = Objectives::default();
        let textbook = grade(&reached(0.02, 10, 8.5, Some(20)), &par(), &none);
        assert_eq!(textbook.score, 100);
        assert!(textbook.passed);
        // Doing nothing: no gain on budget, paging or mitigation; cheaper than the textbook.
        let nothing = grade(&reached(0.10, 90, 8.0, None), &par(), &none);
        assert_eq!(
            (nothing.budget, nothing.paging, nothing.mitigation),
            (0.0, 0.0, 0.0)
        );
        assert_eq!(nothing.score, 25);
        assert!(!nothing.passed);
    }

    #[test]
    fn halfway_gets_half_of_each_part_and_more_cost_costs_points() {
        // Half the textbook's budget gain, its paging gain and its mitigation gain (run of
        // 120 minutes unmitigated counts 120: halfway to 20 is 70), at twice its cost.
        let g = grade(
            &reached(0.06, 50, 17.0, Some(70)),
            &par(),
            &Objectives::default(),
        );
        assert!((g.budget - 0.5).abs() < 1e-12);
        assert!((g.paging - 0.5).abs() < 1e-12);
        assert!((g.mitigation - 0.5).abs() < 1e-12);
        assert!((g.cost - 0.5).abs() < 1e-12);
        assert_eq!(g.score, 50);
        assert!(!g.passed, "below 60 without objectives");
    }

    #[test]
    fn objectives_decide_the_pass_and_each_is_reported() {
        let objectives = Objectives {
            budget_left_at_least: Some(0.15),
            minutes_paging_at_most: Some(15),
            cost_at_most: None,
            minutes_to_mitigate_at_most: Some(25),
        };
        let good = grade(&reached(0.02, 10, 9.0, Some(20)), &par(), &objectives);
        assert!(good.passed);
        assert_eq!(good.objectives.len(), 3);
        let late = grade(&reached(0.02, 10, 9.0, Some(30)), &par(), &objectives);
        assert!(!late.passed);
        let missed: Vec<&str> = late
            .objectives
            .iter()
            .filter(|o| !o.met)
            .map(|o| o.objective)
            .collect();
        assert_eq!(missed, ["minutes_to_mitigate_at_most"]);
    }

    #[test]
    fn without_a_textbook_line_the_run_is_read_against_doing_nothing() {
        let nothing_only = vec![line(ParKind::NothingDone, 0.0, 0, 8.0, Some(0))];
        let g = grade(
            &reached(0.0, 0, 8.0, Some(0)),
            &nothing_only,
            &Objectives::default(),
        );
        assert_eq!(g.score, 100);
        let dearer = grade(
            &reached(0.0, 0, 16.0, Some(0)),
            &nothing_only,
            &Objectives::default(),
        );
        assert_eq!(dearer.score, 88, "75 + 25 × 8/16, rounded");
    }
}
