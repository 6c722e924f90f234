//! The coaching part of the debrief: the worst minute and what caused it, the warnings that
//! matter, and a verdict against the par lines. Each is typed data with the figures it rests
//! on; [`WorstMinute::message`], [`Warning::message`] and [`Verdict::message`] say it through
//! the catalogs.

use crate::message::{Message, MessageId};
use crate::par::{ParKind, ParLine};
use crate::record::MinuteRecord;
use crate::summary::RunSummary;

/// What a minute's errors came from: shares of the admitted requests, in the order the
/// model counts them (see [`crate::sim`]'s error rate and the "What counts as an error"
/// relation): requests a node's limit rejected (503); of the rest, requests that timed out
/// waiting for a worker; of those answered, requests whose database queries failed (the
/// database beyond its capacity fails 1 − 1/ρ of them, on the cache's misses); of the rest,
/// the bad build's own errors. Each request is counted once, under the first cause that
/// failed it, so the four add up to the error rate. Shedding on purpose is not an error:
/// shed requests are answered "try later" and never reach the error rate.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ErrorSources {
    pub rejected: f64,
    pub timeouts: f64,
    pub database: f64,
    pub bad_build: f64,
}

impl ErrorSources {
    /// The sources of `r`'s errors. The first three follow from the record's fields; the bad
    /// build's share is what remains of the error rate (the record does not carry the
    /// deploy's severity), counted only while a bad build serves. With one tick a minute the
    /// four add up to the error rate exactly; with several, the shares are the ticks' means
    /// and the sum may differ from it in the last digits.
    pub fn of(r: &MinuteRecord) -> Self {
        let rejected = r.rejected_share;
        let admitted = 1.0 - rejected;
        let timeouts = admitted * r.timeout_share;
        let answered = admitted * (1.0 - r.timeout_share);
        let database =
            answered * (1.0 - r.cache_hit) * crate::database::failed_share(r.db_utilization);
        let bad_build = if r.bad_build_share > 0.0 {
            (r.error_rate - rejected - timeouts - database).max(0.0)
        } else {
            0.0
        };
        Self {
            rejected,
            timeouts,
            database,
            bad_build,
        }
    }

    /// The largest source, [`Cause::NoErrors`] when every one is 0. Ties go to the source
    /// counted first (rejections, then timeouts, then the database, then the bad build).
    pub fn cause(&self) -> Cause {
        let ranked = [
            (Cause::Rejected, self.rejected),
            (Cause::Timeouts, self.timeouts),
            (Cause::Database, self.database),
            (Cause::BadBuild, self.bad_build),
        ];
        let mut best = (Cause::NoErrors, 0.0);
        for (cause, share) in ranked {
            if share > best.1 {
                best = (cause, share);
            }
        }
        best.0
    }
}

/// Why a minute failed requests: its largest source of errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// No request failed.
    NoErrors,
    /// Requests timed out waiting: the workers were saturated (offered load at or beyond
    /// what they complete, or a queue long enough to reach the timeout).
    Timeouts,
    /// The database was at or beyond its capacity (cache misses drive its load): its queries
    /// failed, or slowed the requests that wait for them until the workers saturated.
    Database,
    /// A bad build served and failed its share of the requests.
    BadBuild,
    /// The nodes' limits and the overflow queue were full: requests rejected with 503.
    Rejected,
}

impl Cause {
    /// The snake_case name the command line prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::NoErrors => "no_errors",
            Cause::Timeouts => "timeouts",
            Cause::Database => "database",
            Cause::BadBuild => "bad_build",
            Cause::Rejected => "rejected",
        }
    }
}

/// The minute that spent the most error budget: the highest error rate (the budget a minute
/// spends grows with its error rate), the earliest of equals.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WorstMinute {
    /// The record's minute, which starts at `clock` (the one clock: see
    /// [`crate::world::journal::Journal::clock_at`]).
    pub minute: u32,
    /// Time of day when it started, "HH:MM".
    pub clock: crate::time::Clock,
    pub error_rate: f64,
    pub p99_ms: f64,
    pub cause: Cause,
    pub sources: ErrorSources,
    /// Figures the cause is told with.
    pub utilization: f64,
    pub db_utilization: f64,
    pub cache_hit: f64,
    pub bad_build_share: f64,
    /// Mean service time, ms (what saturates the workers when the database slows queries).
    pub service_time_ms: f64,
}

/// Why minute `r` failed requests: its largest source of errors ([`ErrorSources::cause`]),
/// except that timeouts while the database runs at or beyond its capacity are put down to
/// the database. The model makes a request that misses the cache wait for its queries, whose
/// time grows with the database's utilization up to its cap (the query-time relation): a
/// cold cache at the peak multiplies the service time (74 ms to about 730 ms in the cache
/// flush), so the workers saturate and requests time out although no more of them arrive.
/// The workers are the symptom there; the database is the cause.
pub fn cause(r: &MinuteRecord) -> Cause {
    if !(r.error_rate > 0.0) {
        return Cause::NoErrors;
    }
    match ErrorSources::of(r).cause() {
        Cause::Timeouts if r.db_utilization >= 1.0 => Cause::Database,
        other => other,
    }
}

/// The worst minute of `history`; `None` for an empty history. A run without errors gives
/// its first minute, with [`Cause::NoErrors`].
pub fn worst_minute(history: &[MinuteRecord]) -> Option<WorstMinute> {
    let mut worst: Option<&MinuteRecord> = None;
    for r in history {
        if worst.is_none_or(|w| r.error_rate > w.error_rate) {
            worst = Some(r);
        }
    }
    worst.map(|r| {
        let sources = ErrorSources::of(r);
        WorstMinute {
            minute: r.minute,
            clock: r.clock,
            error_rate: r.error_rate,
            p99_ms: r.p99_ms,
            cause: cause(r),
            sources,
            service_time_ms: r.service_time_ms,
            utilization: r.utilization,
            db_utilization: r.db_utilization,
            cache_hit: r.cache_hit,
            bad_build_share: r.bad_build_share,
        }
    })
}

impl WorstMinute {
    /// "Minute 16 (09:16): 21.3 % of requests failed, p99 2000 ms; …the cause…".
    pub fn message(&self) -> Message {
        let s = &self.sources;
        let cause = match self.cause {
            Cause::NoErrors => Message::new(MessageId::CauseNoErrors),
            Cause::Timeouts => Message::new(MessageId::CauseTimeouts)
                .num("timeouts", 100.0 * s.timeouts)
                .num("utilization", 100.0 * self.utilization),
            Cause::Database => Message::new(MessageId::CauseDatabase)
                .num("failed", 100.0 * s.database)
                .num("timeouts", 100.0 * s.timeouts)
                .num("service_time_ms", self.service_time_ms)
                .num("db_utilization", 100.0 * self.db_utilization)
                .num("cache_hit", 100.0 * self.cache_hit),
            Cause::BadBuild => Message::new(MessageId::CauseBadBuild)
                .num("failed", 100.0 * s.bad_build)
                .num("bad_build_share", 100.0 * self.bad_build_share),
            Cause::Rejected => {
                Message::new(MessageId::CauseRejected).num("rejected", 100.0 * s.rejected)
            }
        };
        Message::new(MessageId::WorstMinute)
            .int("minute", self.minute)
            .given("clock", self.clock)
            .num("error_rate", 100.0 * self.error_rate)
            .num("p99_ms", self.p99_ms)
            .msg("cause", cause)
    }
}

/// Above this share of the run's minutes spent paging, the debrief warns. The page clears
/// within 5 minutes of the errors stopping (its 5-minute window must fall below 14.4×, see
/// [`crate::budget::page_fires`]), so a response that removes the cause pages for a few
/// minutes: on the scenarios' textbook lines (seeds 7 and 11) the page lasts 2 to 8 % of
/// the exercise. A page that lasts a quarter of the run means the cause stayed in place
/// (the bad deploy left alone: 69 and 79 %).
pub const PAGED_LONG_SHARE: f64 = 0.25;

/// Above this multiple of the opening TTL the mean age of cached answers counts as stale.
/// At the opening TTL T₀ answers are T₀/2 old on average (ages uniform in [0, T₀], see
/// [`crate::cache::mean_age_s`]); a mean age above T₀ means the TTL was on average more than
/// doubled over the run, and users read answers more than twice as old as the service is
/// set up to give.
pub const STALE_AGE_OVER_OPENING_TTL: f64 = 1.0;

/// A warning worth the trainee's attention, with its figures.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "warning", rename_all = "snake_case")]
pub enum Warning {
    /// The month's budget ended below 0.
    BudgetOverspent {
        /// Share of the month's budget left (negative).
        budget_left: f64,
        budget_spent: f64,
    },
    /// The run spent more budget than the same seed left alone.
    SpentMoreThanDoingNothing {
        budget_spent: f64,
        nothing_done: f64,
    },
    /// Cached answers were old on average.
    StaleCache {
        mean_age_s: f64,
        threshold_s: f64,
        opening_ttl_s: f64,
    },
    /// The page fired for a large share of the run.
    PagedLong {
        minutes_paging: u32,
        minutes: u32,
        threshold_share: f64,
    },
}

impl Warning {
    /// The snake_case id the command line prints.
    pub fn id(&self) -> &'static str {
        match self {
            Warning::BudgetOverspent { .. } => "budget_overspent",
            Warning::SpentMoreThanDoingNothing { .. } => "spent_more_than_doing_nothing",
            Warning::StaleCache { .. } => "stale_cache",
            Warning::PagedLong { .. } => "paged_long",
        }
    }

    /// The warning as a message; shares as percentages.
    pub fn message(&self) -> Message {
        match *self {
            Warning::BudgetOverspent {
                budget_left,
                budget_spent,
            } => Message::new(MessageId::WarningBudgetOverspent)
                .num("budget_spent", 100.0 * budget_spent)
                .num("overspent", -100.0 * budget_left),
            Warning::SpentMoreThanDoingNothing {
                budget_spent,
                nothing_done,
            } => Message::new(MessageId::WarningSpentMoreThanDoingNothing)
                .num("budget_spent", 100.0 * budget_spent)
                .num("nothing_done", 100.0 * nothing_done),
            Warning::StaleCache {
                mean_age_s,
                threshold_s,
                opening_ttl_s,
            } => Message::new(MessageId::WarningStaleCache)
                .num("mean_age_s", mean_age_s)
                .num("threshold_s", threshold_s)
                .num("opening_ttl_s", opening_ttl_s),
            Warning::PagedLong {
                minutes_paging,
                minutes,
                threshold_share,
            } => Message::new(MessageId::WarningPagedLong)
                .int("minutes_paging", minutes_paging)
                .int("minutes", minutes)
                .num("threshold", 100.0 * threshold_share),
        }
    }
}

/// The warnings of a run summarised by `summary`, whose cache opened with `opening_ttl_s`
/// (the scenario's setting, [`crate::Scenario::settings`]); `par` are its par lines, if
/// known (the line of doing nothing adds the comparison with it; an empty slice leaves it
/// out). In the order: budget, doing nothing, cache, page.
pub fn warnings(summary: &RunSummary, opening_ttl_s: u32, par: &[ParLine]) -> Vec<Warning> {
    let mut out = Vec::new();
    if summary.budget_left < 0.0 {
        out.push(Warning::BudgetOverspent {
            budget_left: summary.budget_left,
            budget_spent: summary.budget_spent,
        });
    }
    if let Some(nothing) = par.iter().find(|l| l.kind == ParKind::NothingDone) {
        if summary.budget_spent > nothing.budget_spent + SAME_SPEND {
            out.push(Warning::SpentMoreThanDoingNothing {
                budget_spent: summary.budget_spent,
                nothing_done: nothing.budget_spent,
            });
        }
    }
    let opening_ttl_s = f64::from(opening_ttl_s);
    let threshold_s = STALE_AGE_OVER_OPENING_TTL * opening_ttl_s;
    if summary.mean_staleness_s > threshold_s {
        out.push(Warning::StaleCache {
            mean_age_s: summary.mean_staleness_s,
            threshold_s,
            opening_ttl_s,
        });
    }
    if summary.minutes > 0
        && f64::from(summary.minutes_paging) > PAGED_LONG_SHARE * f64::from(summary.minutes)
    {
        out.push(Warning::PagedLong {
            minutes_paging: summary.minutes_paging,
            minutes: summary.minutes,
            threshold_share: PAGED_LONG_SHARE,
        });
    }
    out
}

/// Two spends closer than this (a share of the month's budget) count as the same: the
/// debrief shows budget as a percentage with one decimal, so a difference below half of
/// 0.1 % cannot be told apart on screen.
pub const SAME_SPEND: f64 = 0.0005;

/// A cost counts as more than a reference's from this share above it. Two runs that spend the
/// same budget can cost very differently (the viral surge's textbook response, seed 7: 2.2 %
/// of the budget for $35.63 against doing nothing's 2.3 % for $22.47), and the verdict says
/// so; a tenth is where the excess starts to be worth a sentence of the verdict rather than a
/// figure of the par table, which shows every line's cost to the cent.
pub const MORE_COST_SHARE: f64 = 0.10;

/// How much more `cost` is than `reference`, as a share of `reference` (0.59 for 59 % more),
/// when it counts as more ([`MORE_COST_SHARE`]); `None` otherwise, and when the reference
/// cost nothing (no share of nothing to state). The one rule by which the verdict weighs cost.
pub fn extra_cost(cost: f64, reference: f64) -> Option<f64> {
    (reference > 0.0 && cost > reference * (1.0 + MORE_COST_SHARE)).then(|| cost / reference - 1.0)
}

/// Where the trainee's spend falls among the par lines, best first; where it matches a line,
/// whether it cost more ([`extra_cost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    /// Less than the textbook response and than the best single action.
    BetterThanEveryPar,
    /// Less than the textbook response, more than the best single action.
    BetterThanTextbook,
    /// The same as the textbook response (within [`SAME_SPEND`]).
    MatchesTextbook,
    /// The same spend as the textbook response, at more cost than it ([`extra_cost`]).
    MatchesTextbookAtMoreCost,
    /// Between the textbook response and doing nothing.
    BetweenTextbookAndNothing,
    /// Less than doing nothing, in a run without a textbook line (left alone it never paged).
    BetterThanNothing,
    /// The same as doing nothing (within [`SAME_SPEND`]).
    SameAsNothing,
    /// The same spend as doing nothing, at more cost than it ([`extra_cost`]): money spent
    /// for nothing the budget shows.
    SameAsNothingAtMoreCost,
    /// More than doing nothing.
    WorseThanNothing,
}

/// The debrief's one-sentence verdict and the figures it compares.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verdict {
    pub kind: VerdictKind,
    pub budget_spent: f64,
    pub nothing_done: Option<f64>,
    pub textbook: Option<f64>,
    pub best_single_action: Option<f64>,
    /// Fleet cost, $: the run's, and doing nothing's and the textbook's when known.
    pub cost: f64,
    pub nothing_done_cost: Option<f64>,
    pub textbook_cost: Option<f64>,
    /// For the kinds "at more cost", the share by which the run cost more than the line it
    /// matches ([`extra_cost`]).
    pub extra_cost: Option<f64>,
}

/// The verdict on `summary` against `par` (the lines of [`crate::par::par_lines`] for the
/// same set-up). Spends closer than [`SAME_SPEND`] count as equal; a spend equal to doing
/// nothing's or the textbook's is weighed by cost ([`extra_cost`]). Without the line of doing
/// nothing (par not computed), the run is compared with a spend of 0.
pub fn verdict(summary: &RunSummary, par: &[ParLine]) -> Verdict {
    let line = |kind| par.iter().find(|l| l.kind == kind);
    let nothing_line = line(ParKind::NothingDone);
    let nothing = nothing_line.map(|l| l.budget_spent);
    // A textbook line that spends what doing nothing spends separates nothing: left out.
    let textbook_line = line(ParKind::Textbook)
        .filter(|t| nothing.is_none_or(|n| (t.budget_spent - n).abs() > SAME_SPEND));
    let textbook = textbook_line.map(|l| l.budget_spent);
    let best = line(ParKind::BestSingleAction).map(|l| l.budget_spent);
    let s = summary.budget_spent;
    let below = |reference: f64| s < reference - SAME_SPEND;
    let same = |reference: f64| (s - reference).abs() <= SAME_SPEND;
    let more =
        |reference: Option<&ParLine>| reference.and_then(|l| extra_cost(summary.cost, l.cost));
    let n = nothing.unwrap_or(0.0);
    // Worse than doing nothing is said first, whatever the other lines.
    let (kind, extra) = match textbook {
        _ if s > n + SAME_SPEND => (VerdictKind::WorseThanNothing, None),
        Some(t) if below(t) && best.is_none_or(below) => (VerdictKind::BetterThanEveryPar, None),
        Some(t) if below(t) => (VerdictKind::BetterThanTextbook, None),
        Some(t) if same(t) => match more(textbook_line) {
            Some(extra) => (VerdictKind::MatchesTextbookAtMoreCost, Some(extra)),
            None => (VerdictKind::MatchesTextbook, None),
        },
        _ if below(n) && textbook.is_some() => (VerdictKind::BetweenTextbookAndNothing, None),
        _ if below(n) => (VerdictKind::BetterThanNothing, None),
        _ => match more(nothing_line) {
            Some(extra) => (VerdictKind::SameAsNothingAtMoreCost, Some(extra)),
            None => (VerdictKind::SameAsNothing, None),
        },
    };
    Verdict {
        kind,
        budget_spent: s,
        nothing_done: nothing,
        textbook,
        best_single_action: best,
        cost: summary.cost,
        nothing_done_cost: nothing_line.map(|l| l.cost),
        textbook_cost: textbook_line.map(|l| l.cost),
        extra_cost: extra,
    }
}

impl Verdict {
    /// The verdict in one sentence; spends and the extra cost as percentages (of the month's
    /// budget, of the matched line's cost), costs in dollars.
    pub fn message(&self) -> Message {
        let id = match self.kind {
            VerdictKind::BetterThanEveryPar => MessageId::VerdictBetterThanEveryPar,
            VerdictKind::BetterThanTextbook => MessageId::VerdictBetterThanTextbook,
            VerdictKind::MatchesTextbook => MessageId::VerdictMatchesTextbook,
            VerdictKind::MatchesTextbookAtMoreCost => MessageId::VerdictMatchesTextbookAtMoreCost,
            VerdictKind::BetweenTextbookAndNothing => MessageId::VerdictBetweenTextbookAndNothing,
            VerdictKind::BetterThanNothing => MessageId::VerdictBetterThanNothing,
            VerdictKind::SameAsNothing => MessageId::VerdictSameAsNothing,
            VerdictKind::SameAsNothingAtMoreCost => MessageId::VerdictSameAsNothingAtMoreCost,
            VerdictKind::WorseThanNothing => MessageId::VerdictWorseThanNothing,
        };
        let pct = |x: Option<f64>| 100.0 * x.unwrap_or(0.0);
        Message::new(id)
            .num("budget_spent", 100.0 * self.budget_spent)
            .num("nothing_done", pct(self.nothing_done))
            .num("textbook", pct(self.textbook))
            .num("best", pct(self.best_single_action))
            .num("cost", self.cost)
            .num("nothing_cost", self.nothing_done_cost.unwrap_or(0.0))
            .num("textbook_cost", self.textbook_cost.unwrap_or(0.0))
            .num("extra_cost", pct(self.extra_cost))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule by which the verdict weighs cost, on the reported figures: the viral surge,
    /// seed 7, textbook $35.63 against doing nothing's $22.47.
    #[test]
    fn extra_cost_counts_from_a_tenth_above_the_reference() {
        assert_eq!(MORE_COST_SHARE, 0.10);
        let extra = extra_cost(35.63, 22.47).unwrap();
        assert!((extra - 0.5857).abs() < 1e-4, "{extra}");
        assert_eq!(extra_cost(22.47, 22.47), None);
        assert_eq!(extra_cost(24.70, 22.47), None, "9.9 % more is not more");
        assert!(extra_cost(24.72, 22.47).is_some(), "10.0 % more is");
        assert_eq!(extra_cost(17.73, 22.47), None, "cheaper");
        assert_eq!(extra_cost(5.0, 0.0), None, "a reference that cost nothing");
    }
}
