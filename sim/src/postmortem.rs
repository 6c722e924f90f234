//! A postmortem draft of a finished run, in the structure of the SRE book's postmortems
//! (B. Beyer, C. Jones, J. Petoff, N. R. Murphy (eds.), *Site Reliability Engineering*,
//! O'Reilly 2016, ch. 15 "Postmortem Culture: Learning from Failure" and appendix D
//! "Example Postmortem"): summary, impact, detection, timeline, what went well and poorly,
//! action items. It is built from what the run produced ([`RunOutcome`]), its par lines and
//! what the coach saw, as messages; [`Postmortem::markdown`] writes it in a catalog's language.

use crate::catalog::{self, Catalog};
use crate::coach::{self, Cause, VerdictKind, Warning, WorstMinute, SAME_SPEND};
use crate::event::EventKind;
use crate::ids::ScenarioId;
use crate::message::{Message, MessageId as M};
use crate::par::{self, ParKind, ParLine};
use crate::params::ParamError;
use crate::region_action::RegionAction;
use crate::region_codes::code;
use crate::relations::{SRE_BOOK_EXAMPLE_POSTMORTEM, SRE_BOOK_POSTMORTEM};
use crate::scenario::Scripted;
use crate::setup::{RunOutcome, RunSetup};
use crate::summary::over_budget_rate;
use crate::time::Clock;
use crate::world::journal::Journal;

/// A minute of the run and the time of day it starts, "HH:MM".
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Moment {
    pub minute: u32,
    pub clock: Clock,
}

/// From the fault to its mitigation: the moments the detection section tells, and the times
/// between them.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Detection {
    /// The first fault the scenario injected (the timeline's first [`EntryKind::Fault`]).
    pub fault_start: Option<Moment>,
    /// The first minute that failed requests above the rate the SLO allows
    /// ([`over_budget_rate`]).
    pub first_symptom: Option<Moment>,
    /// The first time the page fired at or after [`Detection::start`].
    pub page: Option<Moment>,
    /// The first of the person's actions that took effect.
    pub first_action: Option<Moment>,
    /// The first action at or after the page.
    pub response: Option<Moment>,
    /// When errors came back within the SLO for good: the minute after the last one above
    /// it. `None` when no minute was above it, or the last minute of the run still was.
    pub recovered: Option<Moment>,
}

impl Detection {
    /// What the times are measured from: the fault's start, else the first symptom.
    pub fn start(&self) -> Option<&Moment> {
        self.fault_start.as_ref().or(self.first_symptom.as_ref())
    }

    /// Minutes from [`Detection::start`] to the page.
    pub fn time_to_detect(&self) -> Option<u32> {
        Some(
            self.page
                .as_ref()?
                .minute
                .saturating_sub(self.start()?.minute),
        )
    }

    /// Minutes from the page to the first action at or after it.
    pub fn time_to_respond(&self) -> Option<u32> {
        Some(
            self.response
                .as_ref()?
                .minute
                .saturating_sub(self.page.as_ref()?.minute),
        )
    }

    /// Minutes from [`Detection::start`] to errors back within the SLO.
    pub fn time_to_mitigate(&self) -> Option<u32> {
        let start = self.start()?.minute;
        Some(self.recovered.as_ref()?.minute.saturating_sub(start))
    }
}

/// What a timeline entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A fault the scenario injected.
    Fault,
    /// A change that is no fault: a good build, users sent to another region.
    Change,
    /// Errors went above the rate the SLO allows.
    Symptom,
    /// The page fired or resolved.
    Page,
    /// The person's action, refused or taken, and what it started.
    Action,
    /// Something came back: errors within the SLO, the old build serving, a warm cache.
    Recovery,
    /// The end of the run.
    End,
}

/// One line of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub minute: u32,
    pub clock: Clock,
    pub kind: EntryKind,
    pub text: Message,
}

/// A run's postmortem draft: each section as messages, the detection's moments as data.
#[derive(Clone, Debug, PartialEq)]
pub struct Postmortem {
    pub scenario: ScenarioId,
    pub seed: u32,
    /// Time of day when the run started and ended.
    pub start_clock: Clock,
    pub end_clock: Clock,
    pub detection: Detection,
    /// The detection section's lines: the moments, then the times between them.
    pub detection_lines: Vec<Message>,
    /// Sentences, in order: the fault, the errors, the page, the first action, the worst
    /// minute.
    pub summary: Vec<Message>,
    pub impact: Vec<Message>,
    pub timeline: Vec<Entry>,
    pub went_well: Vec<Message>,
    pub went_poorly: Vec<Message>,
    pub action_items: Vec<Message>,
}

/// Runs `setup` for `minutes` and its par lines, and drafts the postmortem of the run.
pub fn draft(setup: &RunSetup, minutes: u32) -> Result<Postmortem, ParamError> {
    let outcome = setup.run(minutes)?;
    let par = par::par_lines(setup, minutes)?;
    Ok(Postmortem::new(setup, &outcome, &par))
}

impl Postmortem {
    /// The postmortem of `outcome`, the run of `setup`; `par` are its par lines
    /// ([`par::par_lines`] for the same set-up and minutes; an empty slice leaves out the
    /// comparisons with them).
    pub fn new(setup: &RunSetup, outcome: &RunOutcome, par: &[ParLine]) -> Self {
        let scenario = setup.definition();
        let journal = Journal::new(scenario.clock_min);
        let clock = |minute: u32| journal.clock_at(minute);
        let minutes = u32::try_from(outcome.history.len()).unwrap_or(u32::MAX);
        let slo = setup.params.slo;
        let timeline = timeline(setup, outcome, &clock);
        let detection = detection(outcome, &timeline, slo, &clock);
        let detection_lines = detection_lines(&detection, outcome, clock(minutes));
        let worst = coach::worst_minute(&outcome.history);
        let summary = summary(outcome, &timeline, worst.as_ref(), slo, &clock);
        let impact = impact(outcome);
        let (went_well, went_poorly) = lessons(outcome, par, &detection, &clock);
        let warnings = coach::warnings(&outcome.summary, scenario.settings.cache_ttl_s, par);
        let action_items = action_items(worst.as_ref(), &warnings);
        Self {
            scenario: setup.scenario,
            seed: setup.seed,
            start_clock: clock(0),
            end_clock: clock(minutes),
            detection,
            detection_lines,
            summary,
            impact,
            timeline,
            went_well,
            went_poorly,
            action_items,
        }
    }

    /// The draft as Markdown in `catalog`'s language; `scenario_title` is the scenario's
    /// title in it.
    pub fn markdown(&self, catalog: Catalog, scenario_title: &str) -> String {
        let text = |m: &Message| catalog::render(m, catalog);
        let head = |id| text(&Message::new(id));
        let mut out = String::new();
        let title = Message::new(M::PostmortemTitle)
            .given("scenario", scenario_title)
            .int("seed", self.seed)
            .given("start", self.start_clock)
            .given("end", self.end_clock);
        out.push_str(&format!("# {}\n", text(&title)));
        let mut section = |id, body: String| {
            out.push_str(&format!("\n## {}\n\n{body}", head(id)));
        };
        let sentences: Vec<String> = self.summary.iter().map(text).collect();
        section(
            M::PostmortemHeadSummary,
            format!("{}\n", sentences.join(" ")),
        );
        let bullets = |items: &[Message]| {
            if items.is_empty() {
                return format!("{}\n", head(M::PostmortemNothingToNote));
            }
            items.iter().map(|m| format!("- {}\n", text(m))).collect()
        };
        section(M::PostmortemHeadImpact, bullets(&self.impact));
        section(M::PostmortemHeadDetection, bullets(&self.detection_lines));
        let timeline = self
            .timeline
            .iter()
            .map(|e| format!("- **{}** {}\n", e.clock, text(&e.text)))
            .collect();
        section(M::PostmortemHeadTimeline, timeline);
        section(M::PostmortemHeadWentWell, bullets(&self.went_well));
        section(M::PostmortemHeadWentPoorly, bullets(&self.went_poorly));
        let items = self
            .action_items
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{}. {}\n", i + 1, text(m)))
            .collect();
        section(M::PostmortemHeadActionItems, items);
        let sources = Message::new(M::PostmortemSources)
            .code("chapter", SRE_BOOK_POSTMORTEM.text)
            .code("chapter_url", SRE_BOOK_POSTMORTEM.url)
            .code("example_url", SRE_BOOK_EXAMPLE_POSTMORTEM.url);
        section(M::PostmortemHeadSources, format!("{}\n", text(&sources)));
        out
    }
}

/// The draft in English, as the command line prints it.
impl core::fmt::Display for Postmortem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.markdown(catalog::EN, catalog::en::scenario_title(self.scenario)))
    }
}

/// The timeline: the scenario's faults, the page, the person's actions and what they
/// started, the recoveries, and each time errors crossed the rate the SLO allows, in the
/// order of the run. Within a minute, what happens at its start (the script, actions) comes
/// first, then what its figures show (errors), then what is decided at its end (the page).
fn timeline(setup: &RunSetup, outcome: &RunOutcome, clock: &dyn Fn(u32) -> Clock) -> Vec<Entry> {
    const START: u8 = 0;
    const MEASURED: u8 = 1;
    const END: u8 = 2;
    let mut entries: Vec<(u8, Entry)> = Vec::new();
    let minutes = u32::try_from(outcome.history.len()).unwrap_or(u32::MAX);
    for e in &outcome.events {
        let (kind, text) = match &e.kind {
            EventKind::Deploy { build, bad: true } => (
                EntryKind::Fault,
                Message::new(M::PostmortemBadDeploy).int("build", *build),
            ),
            EventKind::Deploy { build, bad: false } => (
                EntryKind::Change,
                Message::new(M::PostmortemDeploy).int("build", *build),
            ),
            EventKind::CacheFlush { share } => (
                EntryKind::Fault,
                Message::new(M::PostmortemCacheFlush).num("share", 100.0 * share),
            ),
            EventKind::SurgeStarted { peak } => (
                EntryKind::Fault,
                Message::new(M::PostmortemSurge).num("peak", *peak),
            ),
            EventKind::Failure { failure, injected } => injected_failure(injected, failure),
            EventKind::PageFired {
                burn_rate_1h,
                burn_rate_5m,
            } => (
                EntryKind::Page,
                Message::new(M::PostmortemPageFired)
                    .num("burn_1h", *burn_rate_1h)
                    .num("burn_5m", *burn_rate_5m),
            ),
            EventKind::PageResolved { .. } => {
                (EntryKind::Page, Message::new(M::PostmortemPageResolved))
            }
            EventKind::Action { action } => (
                EntryKind::Action,
                Message::new(M::PostmortemAction).given("action", action.encode()),
            ),
            EventKind::ActionRefused { action, reason } => (
                EntryKind::Action,
                Message::new(M::PostmortemActionRefused)
                    .given("action", action.encode())
                    .msg("reason", reason.clone()),
            ),
            EventKind::RollbackStarted {
                build,
                instances,
                ready_minute,
                ..
            } => (
                EntryKind::Action,
                Message::new(M::PostmortemRollbackStarted)
                    .int("build", *build)
                    .int("instances", *instances)
                    .given("ready", clock(*ready_minute)),
            ),
            EventKind::RollbackFinished { build, .. } => (
                EntryKind::Recovery,
                Message::new(M::PostmortemRollbackFinished).int("build", *build),
            ),
            EventKind::WarmupStarted { minutes } => (
                EntryKind::Action,
                Message::new(M::PostmortemWarmupStarted).int("minutes", *minutes),
            ),
            EventKind::WarmupFinished => (
                EntryKind::Recovery,
                Message::new(M::PostmortemWarmupFinished),
            ),
            EventKind::Rerouted { users, to, .. } if users == to => (
                EntryKind::Recovery,
                Message::new(M::PostmortemReroutedBack).code("users", users),
            ),
            EventKind::Rerouted { users, to, .. } => (
                EntryKind::Change,
                Message::new(M::PostmortemRerouted)
                    .code("users", users)
                    .code("to", to),
            ),
            _ => continue,
        };
        let rank = if kind == EntryKind::Page { END } else { START };
        let entry = Entry {
            minute: e.minute,
            clock: e.clock,
            kind,
            text,
        };
        entries.push((rank, entry));
    }
    // The faults the request engine reads from the script, which no event reports, and
    // their ends.
    // An author's exercise's faults are its own (`RunSetup::definition`).
    let scenario = setup.definition();
    for scripted in scenario.script(setup.seed) {
        let (minute, lasts, fault, back) = match scripted {
            Scripted::SlowInstance {
                minute,
                minutes,
                instance,
                factor,
            } => (
                minute,
                minutes,
                Message::new(M::PostmortemSlowInstance)
                    .int("instance", instance)
                    .num("factor", factor),
                Message::new(M::PostmortemSlowInstanceBack).int("instance", instance),
            ),
            Scripted::HotKey {
                minute,
                minutes,
                share,
            } => (
                minute,
                minutes,
                Message::new(M::PostmortemHotKey).num("share", 100.0 * share),
                Message::new(M::PostmortemHotKeyBack),
            ),
            _ => continue,
        };
        let end = minute.saturating_add(lasts);
        for (at, kind, text) in [
            (minute, EntryKind::Fault, fault),
            (end, EntryKind::Recovery, back),
        ] {
            if at < minutes {
                let entry = Entry {
                    minute: at,
                    clock: clock(at),
                    kind,
                    text,
                };
                entries.push((START, entry));
            }
        }
    }
    let mut above = false;
    for r in &outcome.history {
        let now = over_budget_rate(r, setup.params.slo);
        if now != above {
            let (kind, text) = if now {
                (
                    EntryKind::Symptom,
                    Message::new(M::PostmortemErrorsAbove).num("error_rate", 100.0 * r.error_rate),
                )
            } else {
                (EntryKind::Recovery, Message::new(M::PostmortemErrorsBack))
            };
            let entry = Entry {
                minute: r.minute,
                clock: r.clock,
                kind,
                text,
            };
            entries.push((MEASURED, entry));
            above = now;
        }
    }
    entries.sort_by_key(|(rank, e)| (e.minute, *rank));
    let mut out: Vec<Entry> = entries.into_iter().map(|(_, e)| e).collect();
    out.push(Entry {
        minute: minutes,
        clock: clock(minutes),
        kind: EntryKind::End,
        text: Message::new(M::PostmortemRunEnded),
    });
    out
}

/// A failure the scenario injected into a region, or its end, as a timeline entry.
fn injected_failure(injected: &RegionAction, failure: &Message) -> (EntryKind, Message) {
    let region = |id, r: u8| Message::new(id).code("region", code(usize::from(r)));
    match *injected {
        RegionAction::ZoneOutage { region: r, share } if share > 0.0 => (
            EntryKind::Fault,
            region(M::PostmortemZoneOutage, r).num("share", 100.0 * share),
        ),
        RegionAction::ZoneOutage { region: r, .. } => {
            (EntryKind::Recovery, region(M::PostmortemZoneBack, r))
        }
        RegionAction::DbFailure {
            region: r,
            on: true,
        } => (EntryKind::Fault, region(M::PostmortemDatabaseFailed, r)),
        RegionAction::DbFailure {
            region: r,
            on: false,
        } => (EntryKind::Recovery, region(M::PostmortemDatabaseBack, r)),
        _ => (
            EntryKind::Fault,
            Message::new(M::PostmortemFailure).msg("failure", failure.clone()),
        ),
    }
}

/// The detection's moments, from the timeline and the records.
fn detection(
    outcome: &RunOutcome,
    timeline: &[Entry],
    slo: f64,
    clock: &dyn Fn(u32) -> Clock,
) -> Detection {
    let moment = |minute: u32| Moment {
        minute,
        clock: clock(minute),
    };
    let minutes = u32::try_from(outcome.history.len()).unwrap_or(u32::MAX);
    let over = crate::summary::errors_over(&outcome.history, slo);
    let mut d = Detection {
        fault_start: timeline
            .iter()
            .find(|e| e.kind == EntryKind::Fault)
            .map(|e| moment(e.minute)),
        first_symptom: over.map(|(first, _)| moment(first)),
        recovered: over
            .map(|(_, recovered)| recovered)
            .filter(|&m| m < minutes)
            .map(moment),
        ..Detection::default()
    };
    let from = d.start().map_or(0, |m| m.minute);
    let actions = || {
        outcome
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Action { .. }))
    };
    d.page = outcome
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::PageFired { .. }) && e.minute >= from)
        .map(|e| moment(e.minute));
    d.first_action = actions().next().map(|e| moment(e.minute));
    d.response = d.page.as_ref().and_then(|page| {
        actions()
            .find(|e| e.minute >= page.minute)
            .map(|e| moment(e.minute))
    });
    d
}

/// The detection section's lines: the moments, then the times between them; `end_clock`
/// is when the run ended.
fn detection_lines(d: &Detection, outcome: &RunOutcome, end_clock: Clock) -> Vec<Message> {
    let at = |id, m: &Moment| Message::new(id).given("clock", m.clock);
    let mut out = vec![match &d.fault_start {
        Some(m) => at(M::PostmortemFaultStart, m),
        None => Message::new(M::PostmortemNoFaultStart),
    }];
    out.push(match &d.first_symptom {
        Some(m) => {
            let rate = outcome
                .history
                .iter()
                .find(|r| r.minute == m.minute)
                .map_or(0.0, |r| r.error_rate);
            at(M::PostmortemFirstSymptom, m).num("error_rate", 100.0 * rate)
        }
        None => Message::new(M::PostmortemNoSymptom),
    });
    out.push(match &d.page {
        Some(m) => at(M::PostmortemPage, m),
        None => Message::new(M::PostmortemNoPage),
    });
    let first_action = outcome.events.iter().find_map(|e| match &e.kind {
        EventKind::Action { action } => Some(action.encode()),
        _ => None,
    });
    out.push(match (&d.first_action, first_action) {
        (Some(m), Some(action)) => at(M::PostmortemFirstAction, m).given("action", action),
        _ => Message::new(M::PostmortemNoAction),
    });
    let from = || {
        Message::new(if d.fault_start.is_some() {
            M::PostmortemFromFault
        } else {
            M::PostmortemFromSymptom
        })
    };
    if d.start().is_some() {
        out.push(match d.time_to_detect() {
            Some(n) => Message::new(M::PostmortemTimeToDetect)
                .int("minutes", n)
                .msg("from", from()),
            None => Message::new(M::PostmortemTimeToDetectNoPage),
        });
    }
    if let Some(n) = d.time_to_respond() {
        out.push(Message::new(M::PostmortemTimeToRespond).int("minutes", n));
    }
    out.push(match (&d.recovered, d.time_to_mitigate()) {
        (Some(m), Some(n)) => at(M::PostmortemTimeToMitigate, m)
            .int("minutes", n)
            .msg("from", from()),
        _ if d.first_symptom.is_some() => {
            Message::new(M::PostmortemNotMitigated).given("clock", end_clock)
        }
        _ => Message::new(M::PostmortemNothingToMitigate),
    });
    out
}

/// The summary's sentences.
fn summary(
    outcome: &RunOutcome,
    timeline: &[Entry],
    worst: Option<&WorstMinute>,
    slo: f64,
    clock: &dyn Fn(u32) -> Clock,
) -> Vec<Message> {
    let mut out = Vec::new();
    out.push(match timeline.iter().find(|e| e.kind == EntryKind::Fault) {
        Some(fault) => Message::new(M::PostmortemSummaryFault)
            .msg("fault", fault.text.clone())
            .given("clock", fault.clock),
        None => Message::new(M::PostmortemSummaryNoFault),
    });
    let over: Vec<u32> = outcome
        .history
        .iter()
        .filter(|r| over_budget_rate(r, slo))
        .map(|r| r.minute)
        .collect();
    out.push(match (over.first(), over.last()) {
        (Some(&first), Some(&last)) => Message::new(M::PostmortemSummaryErrors)
            .int("minutes", u32::try_from(over.len()).unwrap_or(u32::MAX))
            .int("run", outcome.summary.minutes)
            .given("first", clock(first))
            .given("end", clock(last + 1)),
        _ => Message::new(M::PostmortemSummaryNoErrors),
    });
    let first_page = outcome
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::PageFired { .. }));
    out.push(match first_page {
        Some(page) => Message::new(M::PostmortemSummaryPage).given("clock", page.clock),
        None => Message::new(M::PostmortemSummaryNoPage),
    });
    let first_action = outcome.events.iter().find_map(|e| match &e.kind {
        EventKind::Action { action } => Some((e, action)),
        _ => None,
    });
    out.push(match first_action {
        Some((e, action)) => Message::new(M::PostmortemSummaryFirstAction)
            .given("action", action.encode())
            .given("clock", e.clock),
        None => Message::new(M::PostmortemSummaryNoAction),
    });
    if let Some(w) = worst.filter(|w| w.cause != Cause::NoErrors) {
        out.push(Message::new(M::PostmortemSummaryWorst).msg("worst", w.message()));
    }
    out
}

/// The impact: the run summary's budget, failed and shed requests, paging, cost and worst
/// p99.
fn impact(outcome: &RunOutcome) -> Vec<Message> {
    let s = &outcome.summary;
    let mut out = vec![
        Message::new(M::PostmortemImpactBudget)
            .num("spent", 100.0 * s.budget_spent)
            .num("left", 100.0 * s.budget_left),
        Message::new(M::PostmortemImpactFailed).num("failed", s.failed_requests),
    ];
    if s.shed_requests > 0.0 {
        out.push(Message::new(M::PostmortemImpactShed).num("shed", s.shed_requests));
    }
    out.push(Message::new(M::PostmortemImpactPaging).int("minutes", s.minutes_paging));
    out.push(Message::new(M::PostmortemImpactCost).num("cost", s.cost));
    out.push(Message::new(M::PostmortemImpactP99).num("p99_ms", s.worst_p99_ms));
    out
}

/// A par line's actions, each with its clock.
fn actions_at(line: &ParLine, clock: &dyn Fn(u32) -> Clock) -> Vec<Message> {
    line.actions
        .iter()
        .map(|text| {
            let (minute, action) = text.split_once(':').unwrap_or(("0", text));
            Message::new(M::PostmortemActionAt)
                .given("action", action)
                .given("clock", clock(minute.parse().unwrap_or(0)))
        })
        .collect()
}

/// What went well and what went poorly: the verdict against the par lines, the budget saved
/// against doing nothing, the best single action found, the cost, and how soon the first
/// action followed the page.
fn lessons(
    outcome: &RunOutcome,
    par: &[ParLine],
    detection: &Detection,
    clock: &dyn Fn(u32) -> Clock,
) -> (Vec<Message>, Vec<Message>) {
    use VerdictKind as V;
    let (mut well, mut poorly) = (Vec::new(), Vec::new());
    let s = &outcome.summary;
    let line = |kind| par.iter().find(|l| l.kind == kind);
    let nothing = line(ParKind::NothingDone);
    if let Some(nothing) = nothing {
        if nothing.budget_spent <= SAME_SPEND && s.budget_spent <= SAME_SPEND {
            // Nothing to lose and nothing lost: no verdict to give.
            well.push(
                Message::new(M::PostmortemNoBudgetSpent)
                    .num("budget_spent", 100.0 * s.budget_spent),
            );
        } else {
            let verdict = coach::verdict(s, par);
            let good = matches!(
                verdict.kind,
                V::BetterThanEveryPar
                    | V::BetterThanTextbook
                    | V::MatchesTextbook
                    | V::BetterThanNothing
            );
            if good { &mut well } else { &mut poorly }.push(verdict.message());
            let saved_against_nothing = matches!(
                verdict.kind,
                V::BetterThanEveryPar
                    | V::BetterThanTextbook
                    | V::MatchesTextbook
                    | V::MatchesTextbookAtMoreCost
                    | V::BetweenTextbookAndNothing
            );
            if saved_against_nothing {
                well.push(
                    Message::new(M::PostmortemSavedBudget)
                        .num("nothing_done", 100.0 * nothing.budget_spent)
                        .int("nothing_paging", nothing.minutes_paging)
                        .num("saved", 100.0 * (nothing.budget_spent - s.budget_spent))
                        .int("paging", s.minutes_paging),
                );
            }
            // The verdicts that beat the textbook already weigh the best single action.
            let best_told = matches!(verdict.kind, V::BetterThanEveryPar | V::BetterThanTextbook);
            if let Some(best) = line(ParKind::BestSingleAction).filter(|_| !best_told) {
                let actions = actions_at(best, clock);
                if s.budget_spent > best.budget_spent + SAME_SPEND {
                    poorly.push(
                        Message::new(M::PostmortemBestSingleBetter)
                            .msgs("actions", actions)
                            .num("best", 100.0 * best.budget_spent)
                            .num("less", 100.0 * (s.budget_spent - best.budget_spent)),
                    );
                } else {
                    well.push(
                        Message::new(M::PostmortemBestSingleMatched)
                            .msgs("actions", actions)
                            .num("best", 100.0 * best.budget_spent),
                    );
                }
            }
            let cost_told = matches!(
                verdict.kind,
                V::MatchesTextbookAtMoreCost | V::SameAsNothingAtMoreCost
            );
            if let Some(extra) = coach::extra_cost(s.cost, nothing.cost).filter(|_| !cost_told) {
                poorly.push(
                    Message::new(M::PostmortemMoreCost)
                        .num("extra_cost", 100.0 * extra)
                        .num("cost", s.cost)
                        .num("nothing_cost", nothing.cost),
                );
            }
        }
    }
    if let Some(page) = &detection.page {
        match detection.time_to_respond() {
            // The par's textbook acts the minute after the page: a minute's figures are
            // seen at its end, and an action applies from the next minute's start.
            Some(n) => if n <= 1 { &mut well } else { &mut poorly }
                .push(Message::new(M::PostmortemActedAfterPage).int("minutes", n)),
            None => {
                poorly.push(Message::new(M::PostmortemNoActionAfterPage).given("clock", page.clock))
            }
        }
    }
    (well, poorly)
}

/// From this mean utilization of the workers up, requests that time out are put down to the
/// fleet as a whole running out of workers (the action item: add capacity); below it, some
/// workers had room while requests waited elsewhere: one slow instance, or a hash policy's
/// hot key (the action item: hedge or spread the load). A line between the scenarios'
/// figures, not a law: the viral surge's worst minute runs at 100 %, the slow instance's
/// (seed 7) at 62 %.
pub const FLEET_SATURATED: f64 = 0.9;

/// Action items from what the coach saw: the worst minute's cause, then each warning.
fn action_items(worst: Option<&WorstMinute>, warnings: &[Warning]) -> Vec<Message> {
    let mut out = Vec::new();
    if let Some(w) = worst {
        let at = |id| Message::new(id).given("clock", w.clock);
        let s = &w.sources;
        let item = match w.cause {
            Cause::NoErrors => None,
            Cause::BadBuild => Some(
                at(M::PostmortemItemBadBuild)
                    .num("bad_build_share", 100.0 * w.bad_build_share)
                    .num("failed", 100.0 * s.bad_build),
            ),
            Cause::Timeouts => {
                let id = if w.utilization >= FLEET_SATURATED {
                    M::PostmortemItemTimeouts
                } else {
                    M::PostmortemItemUnevenTimeouts
                };
                Some(
                    at(id)
                        .num("utilization", 100.0 * w.utilization)
                        .num("timeouts", 100.0 * s.timeouts),
                )
            }
            Cause::Database => Some(
                at(M::PostmortemItemDatabase)
                    .num("db_utilization", 100.0 * w.db_utilization)
                    .num("cache_hit", 100.0 * w.cache_hit),
            ),
            Cause::Rejected => {
                Some(at(M::PostmortemItemRejected).num("rejected", 100.0 * s.rejected))
            }
        };
        out.extend(item);
    }
    for warning in warnings {
        out.push(match *warning {
            Warning::BudgetOverspent { budget_left, .. } => {
                Message::new(M::PostmortemItemBudgetOverspent)
                    .num("overspent", -100.0 * budget_left)
            }
            Warning::SpentMoreThanDoingNothing {
                budget_spent,
                nothing_done,
            } => Message::new(M::PostmortemItemSpentMore)
                .num("budget_spent", 100.0 * budget_spent)
                .num("nothing_done", 100.0 * nothing_done),
            Warning::StaleCache {
                mean_age_s,
                opening_ttl_s,
                ..
            } => Message::new(M::PostmortemItemStaleCache)
                .num("mean_age_s", mean_age_s)
                .num("opening_ttl_s", opening_ttl_s),
            Warning::PagedLong {
                minutes_paging,
                minutes,
                ..
            } => Message::new(M::PostmortemItemPagedLong)
                .int("minutes_paging", minutes_paging)
                .int("minutes", minutes),
        });
    }
    if out.is_empty() {
        out.push(Message::new(M::PostmortemItemNone));
    }
    out
}
