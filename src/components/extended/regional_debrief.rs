//! The debrief's regional comparison, for a run with several regions (the build with the
//! extended models): the budget spent as played beside the same scenario, seed and settings
//! replayed with health-based failover off, and with failover off but outlier detection on in
//! every region (the core's [`oncall_sim::par::regions`]). The replays run in the
//! background, one per timer tick, like the par search, so the page stays responsive.

use std::time::Duration;

use leptos::prelude::*;
use oncall_sim::par::regions::{replay, ComparisonKind, ComparisonLine};
use oncall_sim::setup::RunSetup;

use crate::components::outcome_table::{outcome_row, outcome_table, Outcome};
use crate::components::run::{use_run, RunHandle};
use crate::i18n::{core_text, t, tf, Msg};

/// What the comparison knows so far: its lines, whether it is over, and why it stopped early.
#[derive(Clone, Debug, Default, PartialEq)]
struct Comparison {
    lines: Vec<ComparisonLine>,
    done: bool,
    failed: Option<String>,
}

/// Replays `setup` for `minutes` once per comparison line, one line per timer tick, and fills
/// `comparison` as the lines become known. Stops when the run changes (its generation moves
/// on).
fn compare(run: RunHandle, setup: RunSetup, minutes: u32, comparison: RwSignal<Comparison>) {
    fn tick(
        run: RunHandle,
        setup: RunSetup,
        minutes: u32,
        comparison: RwSignal<Comparison>,
        generation: u64,
        next: usize,
    ) {
        if run.generation.get_untracked() != generation {
            return;
        }
        let Some(kind) = ComparisonKind::ALL.get(next).copied() else {
            comparison.update(|c| c.done = true);
            return;
        };
        match replay(&setup, kind, minutes) {
            Ok(line) => comparison.update(|c| c.lines.push(line)),
            Err(e) => {
                let failed = tf(
                    Msg::CompareFailed,
                    &[("field", &e.field), ("message", &core_text(&e.problem))],
                );
                comparison.update(|c| {
                    c.failed = Some(failed);
                    c.done = true;
                });
                return;
            }
        }
        set_timeout(
            move || tick(run, setup, minutes, comparison, generation, next + 1),
            Duration::ZERO,
        );
    }
    let generation = run.generation.get_untracked();
    set_timeout(
        move || tick(run, setup, minutes, comparison, generation, 0),
        Duration::ZERO,
    );
}

/// The name and the `data-comparison` key of a line.
fn line_name(kind: ComparisonKind) -> (&'static str, Msg) {
    match kind {
        ComparisonKind::FailoverOff => ("failover_off", Msg::RegionalFailoverOff),
        ComparisonKind::OutlierDetectionOnly => {
            ("outlier_detection_only", Msg::RegionalOutlierOnly)
        }
    }
}

/// The comparison's table, under the par table; nothing for a run with one region.
/// `as_played` is the run as played.
pub fn regional_comparison(as_played: Outcome) -> Option<impl IntoView> {
    let run = use_run();
    let start = run
        .with(|c| {
            let sim = c.sim();
            let minutes = sim.scenario().minutes.unwrap_or(c.minutes()).max(1);
            let twists = crate::region_text::twists(sim.events());
            (sim.region_count() > 1).then(|| (c.share_state().setup(c.seed()), minutes, twists))
        })
        .flatten();
    let (setup, minutes, twists) = start?;
    // The failure the seed drew, which the log kept to itself while the run was played.
    let twists = twists
        .into_iter()
        .map(|text| view! { <p data-field="twist">{text}</p> })
        .collect_view();
    let comparison = RwSignal::new(Comparison::default());
    compare(run, setup, minutes, comparison);
    let rows = move || comparison.with(|c| c.lines.iter().map(line_row).collect_view());
    let status = move || {
        comparison.with(|c| match (&c.failed, c.done) {
            (Some(failed), _) => failed.clone(),
            (None, false) => t(Msg::RegionalReplaying).to_owned(),
            (None, true) => String::new(),
        })
    };
    let as_played =
        outcome_row(t(Msg::RegionalAsPlayed), as_played).attr("data-comparison", "as_played");
    Some(view! {
        <h3>{t(Msg::RegionalHeading)}</h3>
        {twists}
        {outcome_table("par regional", t(Msg::RegionalIntro), (as_played, rows))
            .attr("data-field", "regional-comparison")}
        <p class="muted" data-field="regional-status" aria-live="polite">{status}</p>
    })
}

/// One replay's row of the comparison.
fn line_row(line: &ComparisonLine) -> impl IntoView {
    let (key, name) = line_name(line.kind);
    let outcome = Outcome {
        budget_spent: line.budget_spent,
        cost: line.cost,
        minutes_paging: line.minutes_paging,
    };
    outcome_row(t(name), outcome).attr("data-comparison", key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's keys are the core's names of the lines, as the command line prints them.
    #[test]
    fn every_line_is_keyed_by_its_core_name() {
        for kind in ComparisonKind::ALL {
            let (key, name) = line_name(kind);
            assert_eq!(serde_json::to_value(kind).unwrap(), key);
            assert!(!t(name).is_empty());
        }
    }
}
