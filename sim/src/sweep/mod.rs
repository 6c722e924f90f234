//! A strategy over many seeds: the same scenario, settings and actions replayed on seed after
//! seed, beside doing nothing, the textbook response and each autoscaling policy left alone.
//! One run is one draw of the dice; a sweep says whether a strategy was skill or luck.
//!
//! A sweep's seeds are `first, first + 1, …` (wrapping), the person's own seed first; the
//! `index`-th seed's runs depend only on the plan and `index`, so that the runs can be spread
//! over threads, Web Workers or machines ([`SweepPlan::shard`]) and the lines put back in
//! order give the same [`summarize`] whatever the spread.

pub mod stats;

use crate::autoscale::PolicyId;
use crate::ids::ScenarioId;
use crate::params::ParamError;
use crate::setup::{RunOutcome, RunSetup};
use std::ops::Range;

/// What was done in a sweep's runs.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// The person's actions, at their minutes.
    Actions,
    /// No action, under the set-up's policy.
    NothingDone,
    /// The scenario's textbook response, at each seed's own page (and first errors).
    Textbook,
    /// No action, under the line's `policy`.
    Policy,
}

impl Strategy {
    /// The spelling of the lines' `strategy` field.
    pub const fn as_str(self) -> &'static str {
        match self {
            Strategy::Actions => "actions",
            Strategy::NothingDone => "nothing_done",
            Strategy::Textbook => "textbook",
            Strategy::Policy => "policy",
        }
    }
}

/// One run of a sweep: a JSON line of `oncall-sim sweep`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepLine {
    /// The sweep's fingerprint ([`SweepPlan::id`]): lines of different sweeps do not merge.
    pub sweep: String,
    pub scenario: ScenarioId,
    pub strategy: Strategy,
    /// The autoscaling policy of the run.
    pub policy: PolicyId,
    /// The seed's place in the sweep, from 0 (the person's own seed).
    pub index: u32,
    pub seed: u32,
    /// Seeds in the whole sweep.
    pub seeds: u32,
    /// Share of the month's error budget spent.
    pub budget_spent: f64,
    /// Fleet cost, $.
    pub cost: f64,
    pub minutes_paging: u32,
    pub worst_p99_ms: f64,
}

impl SweepLine {
    /// The line as `oncall-sim sweep` prints it (JSON, without its newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A line printed by [`SweepLine::to_json`]: every figure back exactly as it was.
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// The largest sweep, in seeds (a million seeds of eight runs is what one batch of shards is
/// for; more would not fit an index's meaning of "the whole").
pub const MAX_SEEDS: u32 = 100_000_000;

/// Everything that determines a sweep's runs.
#[derive(Clone, Debug)]
pub struct SweepPlan {
    /// The person's set-up: scenario, settings, policy, actions; its seed is the first.
    pub setup: RunSetup,
    pub minutes: u32,
    pub seeds: u32,
    /// The policies run without actions besides the others.
    pub policies: Vec<PolicyId>,
    id: String,
}

impl SweepPlan {
    /// A sweep of `seeds` seeds from `setup.seed`, `minutes` each. Every variant is built
    /// once here, so that a parameter the set-up or a policy refuses is said before any run.
    pub fn new(
        setup: RunSetup,
        minutes: u32,
        seeds: u32,
        policies: Vec<PolicyId>,
    ) -> Result<Self, ParamError> {
        setup.build()?;
        for policy in &policies {
            RunSetup {
                policy: *policy,
                ..setup.clone()
            }
            .build()?;
        }
        let id = fingerprint(&setup, minutes, seeds, &policies);
        Ok(Self {
            setup,
            minutes,
            seeds,
            policies,
            id,
        })
    }

    /// A short fingerprint of the plan (FNV-1a, 64 bits, of everything that determines its
    /// runs), carried by each line so that shards of different sweeps are not merged.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The seed at `index`.
    pub fn seed_at(&self, index: u32) -> u32 {
        self.setup.seed.wrapping_add(index)
    }

    /// The strategies each seed runs, in the order of its lines: the person's actions (when
    /// there are any), doing nothing, the textbook response, then each policy.
    pub fn strategies(&self) -> Vec<(Strategy, PolicyId)> {
        let own = self.setup.policy;
        let mut out = Vec::new();
        if !self.setup.actions.is_empty() {
            out.push((Strategy::Actions, own));
        }
        out.push((Strategy::NothingDone, own));
        out.push((Strategy::Textbook, own));
        out.extend(self.policies.iter().map(|p| (Strategy::Policy, *p)));
        out
    }

    /// Runs per seed that are simulated (a policy that is the set-up's own, left alone, is
    /// doing nothing: its line repeats that run's figures).
    pub fn runs_per_seed(&self) -> u32 {
        let own = self.setup.policy;
        let policies = self.policies.iter().filter(|p| **p != own).count();
        u32::from(!self.setup.actions.is_empty()) + 2 + policies as u32
    }

    /// The `index`-th seed's lines, in [`SweepPlan::strategies`] order.
    pub fn lines_at(&self, index: u32) -> Result<Vec<SweepLine>, ParamError> {
        let setup = RunSetup {
            seed: self.seed_at(index),
            ..self.setup.clone()
        };
        let preview = crate::par::preview(&setup, self.minutes)?;
        let nothing = &preview.nothing;
        let mut out = Vec::with_capacity(self.policies.len() + 3);
        for (strategy, policy) in self.strategies() {
            let line = |outcome: &RunOutcome| self.line(strategy, policy, index, outcome);
            out.push(match strategy {
                Strategy::Actions => line(&setup.run(self.minutes)?),
                Strategy::NothingDone => line(nothing),
                // A seed that never pages leaves the textbook nothing to respond to.
                Strategy::Textbook => line(preview.textbook.as_ref().unwrap_or(nothing)),
                Strategy::Policy if policy == setup.policy => line(nothing),
                Strategy::Policy => {
                    let alone = RunSetup {
                        policy,
                        actions: Vec::new(),
                        ..setup.clone()
                    };
                    line(&alone.run(self.minutes)?)
                }
            });
        }
        Ok(out)
    }

    fn line(&self, strategy: Strategy, policy: PolicyId, index: u32, o: &RunOutcome) -> SweepLine {
        SweepLine {
            sweep: self.id.clone(),
            scenario: self.setup.scenario,
            strategy,
            policy,
            index,
            seed: self.seed_at(index),
            seeds: self.seeds,
            budget_spent: o.summary.budget_spent,
            cost: o.summary.cost,
            minutes_paging: o.summary.minutes_paging,
            worst_p99_ms: o.summary.worst_p99_ms,
        }
    }

    /// The seeds' indices of shard `i` of `n` (from 0): the `i`-th of `n` contiguous slices as
    /// even as can be, together every index once.
    pub fn shard(&self, i: u32, n: u32) -> Range<u32> {
        let at = |k: u32| (u64::from(self.seeds) * u64::from(k) / u64::from(n.max(1))) as u32;
        at(i)..at(i + 1)
    }

    /// The lines of the seeds at `indices`, in order; on all cores with the `parallel`
    /// feature (the runs are independent, and collected in order: the same lines whatever
    /// the number of threads).
    pub fn run(&self, indices: Range<u32>) -> Result<Vec<SweepLine>, ParamError> {
        #[cfg(feature = "parallel")]
        let per_seed: Result<Vec<Vec<SweepLine>>, ParamError> = {
            use rayon::prelude::*;
            indices.into_par_iter().map(|i| self.lines_at(i)).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let per_seed: Result<Vec<Vec<SweepLine>>, ParamError> =
            indices.map(|i| self.lines_at(i)).collect();
        Ok(per_seed?.into_iter().flatten().collect())
    }
}

/// FNV-1a (64 bits) of what determines a sweep's runs, as 16 hex digits.
fn fingerprint(setup: &RunSetup, minutes: u32, seeds: u32, policies: &[PolicyId]) -> String {
    let text = format!(
        "{:?}|{:?}|{}|{:?}|{:?}|{:?}|{:?}|{minutes}|{seeds}|{policies:?}",
        setup.scenario,
        setup.custom,
        setup.seed,
        setup.params,
        setup.policy,
        setup.policies,
        setup.actions,
    );
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// Order statistics of one figure over a sweep's seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Distribution {
    pub mean: f64,
    pub min: f64,
    pub p5: f64,
    pub p50: f64,
    pub p95: f64,
    pub max: f64,
    /// At the sweep's first seed (the person's own run).
    pub at_seed: f64,
}

impl Distribution {
    /// Of `values`, in seed order (the first is the person's own seed).
    fn of(values: &[f64]) -> Self {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Self {
            mean: stats::mean(values),
            min: sorted.first().copied().unwrap_or(f64::NAN),
            p5: stats::nearest_rank(&sorted, 0.05),
            p50: stats::nearest_rank(&sorted, 0.5),
            p95: stats::nearest_rank(&sorted, 0.95),
            max: sorted.last().copied().unwrap_or(f64::NAN),
            at_seed: values.first().copied().unwrap_or(f64::NAN),
        }
    }
}

/// How often a strategy spent less of the error budget than doing nothing on the same seed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AgainstNothing {
    /// Seeds where it spent less.
    pub wins: u64,
    /// Seeds where it spent the same (within 1e-12 of the budget).
    pub ties: u64,
    pub losses: u64,
    /// `wins` over all seeds, with its 95 % Wilson interval.
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

/// Budget shares closer than this are the same outcome.
const SAME_BUDGET: f64 = 1e-12;

/// One strategy's figures over a sweep: a line of `oncall-sim sweep --summary`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StrategySummary {
    pub sweep: String,
    pub scenario: ScenarioId,
    pub strategy: Strategy,
    pub policy: PolicyId,
    pub seeds: u32,
    /// The sweep's first seed, the person's own.
    pub first_seed: u32,
    pub budget_spent: Distribution,
    pub cost: Distribution,
    pub minutes_paging: Distribution,
    pub worst_p99_ms: Distribution,
    /// Against doing nothing, seed by seed (absent from doing nothing's own line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beat_nothing: Option<AgainstNothing>,
}

impl StrategySummary {
    /// The line as `oncall-sim sweep --summary` prints it (JSON, without its newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The summary as `oncall-sim sweep --summary` prints it: a JSON line per strategy.
pub fn summary_lines(summary: &[StrategySummary]) -> String {
    let mut out = String::new();
    for line in summary {
        out.push_str(&line.to_json());
        out.push('\n');
    }
    out
}

/// The summary as a table: a header, then one row per strategy, each figure's statistics in
/// columns named `FIGURE_STATISTIC` (`budget_spent_p50`), the share of seeds that beat doing
/// nothing with its interval last (empty on doing nothing's row). Numbers as the JSON lines
/// write them.
pub fn summary_csv(summary: &[StrategySummary]) -> String {
    const FIGURES: [&str; 4] = ["budget_spent", "cost", "minutes_paging", "worst_p99_ms"];
    const STATS: [&str; 7] = ["mean", "min", "p5", "p50", "p95", "max", "at_seed"];
    let mut header = vec![
        "strategy".to_string(),
        "policy".into(),
        "seeds".into(),
        "first_seed".into(),
    ];
    for figure in FIGURES {
        header.extend(STATS.iter().map(|s| format!("{figure}_{s}")));
    }
    header.extend(
        [
            "beat_nothing_wins",
            "beat_nothing_ties",
            "beat_nothing_losses",
        ]
        .map(String::from),
    );
    header.extend(
        [
            "beat_nothing_share",
            "beat_nothing_low",
            "beat_nothing_high",
        ]
        .map(String::from),
    );
    let mut out = header.join(",");
    out.push('\n');
    for s in summary {
        let mut row = vec![
            s.strategy.as_str().to_string(),
            s.policy.as_str().to_string(),
            s.seeds.to_string(),
            s.first_seed.to_string(),
        ];
        for d in [&s.budget_spent, &s.cost, &s.minutes_paging, &s.worst_p99_ms] {
            row.extend([d.mean, d.min, d.p5, d.p50, d.p95, d.max, d.at_seed].map(number));
        }
        match &s.beat_nothing {
            Some(b) => {
                row.extend([b.wins, b.ties, b.losses].map(|n| n.to_string()));
                row.extend([b.share, b.low, b.high].map(number));
            }
            None => row.extend(std::iter::repeat_n(String::new(), 6)),
        }
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// A figure as serde writes it in the JSON lines.
fn number(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_default()
}

/// Why lines do not make a whole sweep.
#[derive(Clone, Debug, PartialEq)]
pub enum IncompleteSweep {
    /// No line at all.
    Empty,
    /// A line of another sweep (another fingerprint, scenario or number of seeds).
    Mixed { first: String, other: String },
    /// A seed's index past the sweep's seeds.
    OutOfRange { index: u32, seeds: u32 },
    /// The same run twice (overlapping shards, or a file given twice).
    Twice {
        strategy: Strategy,
        policy: PolicyId,
        index: u32,
    },
    /// Seeds without lines (a shard left out): the first missing index and how many are.
    Missing {
        strategy: Strategy,
        policy: PolicyId,
        first_index: u32,
        count: u32,
    },
}

/// The summary of a whole sweep's lines, given in any order and in any number of pieces: one
/// line per strategy, in [`SweepPlan::strategies`] order. Refused unless every strategy has
/// exactly one line per seed index and every line is of the same sweep.
pub fn summarize(lines: &[SweepLine]) -> Result<Vec<StrategySummary>, IncompleteSweep> {
    let first = lines.first().ok_or(IncompleteSweep::Empty)?;
    if let Some(other) = lines
        .iter()
        .find(|l| l.sweep != first.sweep || l.seeds != first.seeds || l.scenario != first.scenario)
    {
        return Err(IncompleteSweep::Mixed {
            first: first.sweep.clone(),
            other: other.sweep.clone(),
        });
    }
    let mut sorted: Vec<&SweepLine> = lines.iter().collect();
    sorted.sort_by_key(|l| (strategy_rank(l), l.index));
    let groups: Vec<&[&SweepLine]> = sorted
        .chunk_by(|a, b| strategy_rank(a) == strategy_rank(b))
        .collect();
    for group in &groups {
        check_whole(group, first.seeds)?;
    }
    let nothing = groups
        .iter()
        .find(|g| g[0].strategy == Strategy::NothingDone)
        .map(|g| budgets(g));
    Ok(groups
        .iter()
        .map(|group| {
            let head = group[0];
            let spent = budgets(group);
            let figure = |f: fn(&SweepLine) -> f64| {
                Distribution::of(&group.iter().map(|l| f(l)).collect::<Vec<_>>())
            };
            StrategySummary {
                sweep: head.sweep.clone(),
                scenario: head.scenario,
                strategy: head.strategy,
                policy: head.policy,
                seeds: head.seeds,
                first_seed: group[0].seed,
                budget_spent: Distribution::of(&spent),
                cost: figure(|l| l.cost),
                minutes_paging: figure(|l| f64::from(l.minutes_paging)),
                worst_p99_ms: figure(|l| l.worst_p99_ms),
                beat_nothing: nothing
                    .as_ref()
                    .filter(|_| head.strategy != Strategy::NothingDone)
                    .map(|nothing| against(&spent, nothing)),
            }
        })
        .collect())
}

/// Lines sort by strategy in the plan's order: the person's actions, nothing, textbook, then
/// the policies in their listing order.
fn strategy_rank(l: &SweepLine) -> (Strategy, usize) {
    let policy = match l.strategy {
        Strategy::Policy => PolicyId::ALL.iter().position(|p| *p == l.policy),
        _ => None,
    };
    (l.strategy, policy.unwrap_or(0))
}

/// Each index from 0 to `seeds` once in `group` (sorted by index).
fn check_whole(group: &[&SweepLine], seeds: u32) -> Result<(), IncompleteSweep> {
    let head = group[0];
    if let Some(far) = group.iter().find(|l| l.index >= seeds) {
        return Err(IncompleteSweep::OutOfRange {
            index: far.index,
            seeds,
        });
    }
    if let Some(pair) = group.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(IncompleteSweep::Twice {
            strategy: head.strategy,
            policy: head.policy,
            index: pair[0].index,
        });
    }
    let present = u32::try_from(group.len()).unwrap_or(u32::MAX);
    if present < seeds {
        let first_index = group
            .iter()
            .enumerate()
            .find(|(i, l)| l.index != *i as u32)
            .map_or(present, |(i, _)| i as u32);
        return Err(IncompleteSweep::Missing {
            strategy: head.strategy,
            policy: head.policy,
            first_index,
            count: seeds - present,
        });
    }
    Ok(())
}

fn budgets(group: &[&SweepLine]) -> Vec<f64> {
    group.iter().map(|l| l.budget_spent).collect()
}

/// Seed by seed, `spent` against doing nothing's `nothing`.
fn against(spent: &[f64], nothing: &[f64]) -> AgainstNothing {
    let (mut wins, mut ties, mut losses) = (0u64, 0u64, 0u64);
    for (s, n) in spent.iter().zip(nothing) {
        if (s - n).abs() <= SAME_BUDGET {
            ties += 1;
        } else if s < n {
            wins += 1;
        } else {
            losses += 1;
        }
    }
    let n = wins + ties + losses;
    let (low, high) = stats::wilson_interval(wins, n, stats::Z_95);
    AgainstNothing {
        wins,
        ties,
        losses,
        share: if n == 0 { 0.0 } else { wins as f64 / n as f64 },
        low,
        high,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;

    fn plan(seeds: u32, actions: &[&str]) -> SweepPlan {
        let mut setup = RunSetup::new(ScenarioId::BadDeploy, 7);
        setup.actions = actions
            .iter()
            .map(|a| Action::parse(a, 119).expect("an action"))
            .collect();
        SweepPlan::new(setup, 120, seeds, PolicyId::ALL.to_vec()).expect("a plan")
    }

    #[test]
    fn each_seed_runs_every_strategy_once_the_persons_seed_first() {
        let plan = plan(3, &["26:rollback"]);
        let lines = plan.run(0..3).unwrap();
        assert_eq!(lines.len(), 3 * 8);
        assert_eq!(lines[0].seed, 7);
        assert_eq!(lines[0].strategy, Strategy::Actions);
        assert_eq!(lines[8].seed, 8);
        assert_eq!(plan.runs_per_seed(), 7);
        // The person's run at the first seed is the run `setup.run` gives.
        let own = plan.setup.run(120).unwrap();
        assert_eq!(lines[0].budget_spent, own.summary.budget_spent);
        assert_eq!(lines[0].cost, own.summary.cost);
        // The default policy left alone is doing nothing.
        let tt = lines[..8]
            .iter()
            .find(|l| l.strategy == Strategy::Policy && l.policy == PolicyId::TargetTracking)
            .unwrap();
        assert_eq!(tt.budget_spent, lines[1].budget_spent);
    }

    #[test]
    fn shards_cover_every_seed_once() {
        let plan = plan(1003, &[]);
        for n in [1, 2, 3, 4, 7, 1003] {
            let mut next = 0;
            for i in 0..n {
                let r = plan.shard(i, n);
                assert_eq!(r.start, next, "shard {i}/{n}");
                next = r.end;
            }
            assert_eq!(next, 1003);
        }
    }

    #[test]
    fn the_summary_does_not_depend_on_the_order_or_the_pieces() {
        let plan = plan(12, &["26:rollback"]);
        let lines = plan.run(0..12).unwrap();
        let whole = summarize(&lines).unwrap();
        let mut pieces: Vec<SweepLine> = Vec::new();
        for i in (0..4).rev() {
            pieces.extend(plan.run(plan.shard(i, 4)).unwrap());
        }
        assert_eq!(summarize(&pieces).unwrap(), whole);
        assert_eq!(whole.len(), 8);
        assert_eq!(whole[0].strategy, Strategy::Actions);
        assert!(whole[1].beat_nothing.is_none());
        let beat = whole[0].beat_nothing.as_ref().unwrap();
        assert_eq!(beat.wins + beat.ties + beat.losses, 12);
    }

    #[test]
    fn incomplete_or_mixed_lines_are_refused() {
        let plan = plan(4, &[]);
        let lines = plan.run(0..4).unwrap();
        let per_seed = plan.strategies().len();
        let missing: Vec<SweepLine> = lines[per_seed..].to_vec();
        assert!(matches!(
            summarize(&missing),
            Err(IncompleteSweep::Missing {
                first_index: 0,
                count: 1,
                ..
            })
        ));
        let mut twice = lines.clone();
        twice.push(lines[0].clone());
        assert!(matches!(
            summarize(&twice),
            Err(IncompleteSweep::Twice { index: 0, .. })
        ));
        let mut mixed = lines.clone();
        mixed[3].sweep = "0000000000000000".into();
        assert!(matches!(
            summarize(&mixed),
            Err(IncompleteSweep::Mixed { .. })
        ));
        assert_eq!(summarize(&[]), Err(IncompleteSweep::Empty));
    }

    #[test]
    fn the_table_has_a_header_and_a_row_per_strategy() {
        let plan = plan(5, &["26:rollback"]);
        let summary = summarize(&plan.run(0..5).unwrap()).unwrap();
        let csv = summary_csv(&summary);
        let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
        assert_eq!(rows.len(), 1 + 8);
        assert_eq!(
            rows[0][..5],
            [
                "strategy",
                "policy",
                "seeds",
                "first_seed",
                "budget_spent_mean"
            ]
        );
        assert!(rows.iter().all(|r| r.len() == rows[0].len()));
        assert_eq!(rows[1][..4], ["actions", "target-tracking", "5", "7"]);
        let p50 = rows[0]
            .iter()
            .position(|h| *h == "budget_spent_p50")
            .unwrap();
        assert_eq!(
            rows[1][p50].parse::<f64>().unwrap(),
            summary[0].budget_spent.p50
        );
        // The spelling the table writes is the lines' own.
        for st in [
            Strategy::Actions,
            Strategy::NothingDone,
            Strategy::Textbook,
            Strategy::Policy,
        ] {
            assert_eq!(serde_json::to_value(st).unwrap(), st.as_str());
        }
        // Doing nothing is not compared with itself.
        assert_eq!(rows[2][0], "nothing_done");
        assert_eq!(rows[2].last(), Some(&""));
        // The JSON lines read back to the same lines.
        let lines = plan.run(0..2).unwrap();
        for line in &lines {
            assert_eq!(&SweepLine::from_json(&line.to_json()).unwrap(), line);
        }
    }

    #[test]
    fn the_fingerprint_follows_what_determines_the_runs() {
        let a = plan(10, &[]);
        assert_eq!(a.id(), plan(10, &[]).id());
        assert_ne!(a.id(), plan(11, &[]).id());
        assert_ne!(a.id(), plan(10, &["26:rollback"]).id());
        assert_eq!(a.id().len(), 16);
    }
}
