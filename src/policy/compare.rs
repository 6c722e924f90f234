//! Two policies side by side: the current scenario, seed, parameters and actions run under
//! policy A and policy B in the core, their key charts overlaid (A solid, B dashed) and their
//! summaries in one table.

use std::sync::Arc;

use leptos::html::Canvas;
use leptos::prelude::*;
use oncall_sim::autoscale::{self, PolicyId};
use oncall_sim::ids::ScenarioId;
use oncall_sim::setup::RunOutcome;
use oncall_sim::share::ShareState;
use oncall_sim::{compare, ParamError};

use crate::charts::figures::{ChartText, Unit};
use crate::charts::overlay::{overlay_figures, Extremes, Overlay, Run, OVERLAY_IDS};
use crate::charts::Theme;
use crate::i18n::{core_text, minutes, policy_name_text, scenario_title_text, t, tf, Msg};
use crate::metrics::{format_value, Format, Value};

/// Minutes compared when the scenario is endless (free play): a whole day.
pub const DAY_MINUTES: u32 = 1440;

/// How much of the scenario the comparison runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// The minutes played so far.
    SoFar,
    /// The scenario's whole exercise, or a day when it is endless.
    Whole,
}

impl Span {
    fn key(self) -> &'static str {
        match self {
            Span::SoFar => "so-far",
            Span::Whole => "whole",
        }
    }

    /// Minutes to run: `played` so far, `length` of the exercise if it has one.
    pub fn minutes(self, played: u32, length: Option<u32>) -> u32 {
        let end = length.unwrap_or(DAY_MINUTES);
        match self {
            Span::SoFar => played.clamp(1, end),
            Span::Whole => end,
        }
    }
}

/// One policy's run, as the core computed it.
pub type PolicyOutcome = RunOutcome;

/// Both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub scenario: ScenarioId,
    pub seed: u32,
    pub minutes: u32,
    pub clock_min: u32,
    pub timeout_s: f64,
    pub a: PolicyOutcome,
    pub b: PolicyOutcome,
}

impl Comparison {
    pub fn outcome(&self, run: Run) -> &PolicyOutcome {
        match run {
            Run::A => &self.a,
            Run::B => &self.b,
        }
    }
}

/// Runs `state`'s scenario, seed, parameters and actions for `minutes` under policies `a`
/// and `b`, through the core's comparison (the one `oncall-sim compare` prints).
pub fn compare_policies(
    state: &ShareState,
    a: PolicyId,
    b: PolicyId,
    minutes: u32,
) -> Result<Comparison, ParamError> {
    let setup = state.setup(state.seed.unwrap_or_default());
    let scenario = oncall_sim::exercise::scenario(setup.scenario);
    let minutes = minutes.clamp(1, scenario.minutes.unwrap_or(u32::MAX));
    let mut runs = compare::compare(&setup, &[a, b], minutes)?.into_iter();
    let mut next = || runs.next().map(|(_, outcome)| outcome);
    let (Some(a), Some(b)) = (next(), next()) else {
        unreachable!("two policies give two runs")
    };
    Ok(Comparison {
        scenario: setup.scenario,
        seed: setup.seed,
        minutes,
        clock_min: scenario.clock_min,
        timeout_s: state.params.timeout_s,
        a,
        b,
    })
}

/// Which value of a row is the better one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    /// Less is better (budget, cost, latency, paging, failures).
    Lower,
    /// Neither is better in itself (how often a policy decides, its peak).
    Neither,
}

/// A row of the summary table.
pub struct Row {
    /// `data-row`.
    pub key: &'static str,
    pub label: Msg,
    pub format: Format,
    pub value: fn(&PolicyOutcome) -> f64,
    pub better: Better,
}

impl Row {
    /// A run's value, written with its unit.
    pub fn text(&self, outcome: &PolicyOutcome) -> String {
        number(self.format, (self.value)(outcome))
    }

    /// The run whose value is better, if the row has a better side and the values differ as
    /// written (a difference the table does not show is not a win).
    pub fn winner(&self, a: &PolicyOutcome, b: &PolicyOutcome) -> Option<Run> {
        let (x, y) = ((self.value)(a), (self.value)(b));
        if self.better == Better::Neither || self.text(a) == self.text(b) {
            return None;
        }
        match x.partial_cmp(&y)? {
            std::cmp::Ordering::Less => Some(Run::A),
            std::cmp::Ordering::Greater => Some(Run::B),
            std::cmp::Ordering::Equal => None,
        }
    }
}

fn number(format: Format, x: f64) -> String {
    format_value(format, Value::Number(x))
}

/// The summary table's rows.
pub const ROWS: [Row; 9] = [
    Row {
        key: "budget_spent",
        label: Msg::CompareBudgetSpent,
        format: Format::Percent { decimals: 2 },
        value: |o| o.summary.budget_spent,
        better: Better::Lower,
    },
    Row {
        key: "cost",
        label: Msg::CompareCost,
        format: Format::Dollars,
        value: |o| o.summary.cost,
        better: Better::Lower,
    },
    Row {
        key: "worst_p99_ms",
        label: Msg::CompareWorstP99,
        format: Format::Milliseconds,
        value: |o| o.summary.worst_p99_ms,
        better: Better::Lower,
    },
    Row {
        key: "minutes_paging",
        label: Msg::ComparePaging,
        format: Format::Minutes,
        value: |o| f64::from(o.summary.minutes_paging),
        better: Better::Lower,
    },
    Row {
        key: "minutes_over_budget_rate",
        label: Msg::CompareOverBudget,
        format: Format::Minutes,
        value: |o| f64::from(o.summary.minutes_over_budget_rate),
        better: Better::Lower,
    },
    Row {
        key: "instance_minutes",
        label: Msg::CompareInstanceMinutes,
        format: Format::InstanceMinutes,
        value: |o| o.summary.instance_minutes as f64,
        better: Better::Lower,
    },
    Row {
        key: "scaling_decisions",
        label: Msg::CompareDecisions,
        format: Format::Decisions,
        value: |o| f64::from(o.scaling_decisions),
        better: Better::Neither,
    },
    Row {
        key: "peak_instances",
        label: Msg::ComparePeak,
        format: Format::Instances,
        value: |o| f64::from(o.peak_instances),
        better: Better::Neither,
    },
    Row {
        key: "failed_requests",
        label: Msg::CompareFailedRequests,
        format: Format::Requests,
        value: |o| o.summary.failed_requests,
        better: Better::Lower,
    },
];

/// The catalog's name of a chart quantity.
fn quantity_text(key: ChartText) -> &'static str {
    t(crate::components::charts_panel::chart_msg(key))
}

fn chart_title(id: &str) -> &'static str {
    t(match id {
        "traffic" => Msg::CompareChartTraffic,
        "latency" => Msg::CompareChartLatency,
        "budget" => Msg::CompareChartBudget,
        _ => Msg::CompareChartInstances,
    })
}

fn unit_value(unit: Unit, x: f64) -> String {
    let format = match unit {
        Unit::RequestsPerSecond => Format::ReqPerS,
        Unit::Milliseconds => Format::Milliseconds,
        Unit::Percent => Format::Percent { decimals: 2 },
        Unit::Times => Format::Burn { decimals: 1 },
        Unit::Instances => Format::Count,
        Unit::DollarsPerHour => Format::DollarsPerHour,
        Unit::Dollars => Format::Dollars,
    };
    number(format, x)
}

/// The comparison's charts, with the catalog's names.
pub fn comparison_overlays(c: &Comparison) -> Vec<Overlay> {
    let names = [policy_name_text(c.a.policy), policy_name_text(c.b.policy)];
    let label = |key: ChartText, run: Run| {
        tf(
            Msg::CompareSeries,
            &[
                ("series", quantity_text(key)),
                ("policy", &names[(run == Run::B) as usize]),
            ],
        )
    };
    let text = |key: ChartText| quantity_text(key).to_owned();
    overlay_figures(
        &c.a.history,
        &c.b.history,
        c.clock_min,
        c.timeout_s,
        &label,
        &text,
    )
}

/// A chart's text alternative: both policies, the minutes, and each quantity's highest and
/// last values for both runs.
pub fn overlay_alt(c: &Comparison, overlay: &Overlay) -> String {
    let values = overlay
        .quantities
        .iter()
        .map(|q| {
            let v = |e: Extremes| (unit_value(q.unit, e.max), unit_value(q.unit, e.last));
            let ((a_max, a_last), (b_max, b_last)) = (v(q.a), v(q.b));
            tf(
                Msg::CompareAltSeries,
                &[
                    ("series", quantity_text(q.key)),
                    ("a_max", &a_max),
                    ("b_max", &b_max),
                    ("a_last", &a_last),
                    ("b_last", &b_last),
                ],
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    tf(
        Msg::CompareAlt,
        &[
            ("title", chart_title(overlay.figure.id)),
            ("a", &policy_name_text(c.a.policy)),
            ("b", &policy_name_text(c.b.policy)),
            ("span", &minutes(c.minutes)),
            ("values", &values),
        ],
    )
}

/// The other policy to start with as B.
fn other_policy(a: PolicyId) -> PolicyId {
    PolicyId::ALL
        .iter()
        .copied()
        .find(|id| *id != a && *id != autoscale::DEFAULT_POLICY)
        .unwrap_or(autoscale::DEFAULT_POLICY)
}

type Outcome = Option<Result<Arc<Comparison>, ParamError>>;

/// What the person picked to compare: policies A and B, and how much of the scenario.
#[derive(Clone, Copy)]
struct Picks {
    a: RwSignal<PolicyId>,
    b: RwSignal<PolicyId>,
    span: RwSignal<Span>,
}

/// The comparison view.
///
/// `current` gives the run's state now (scenario, seed, parameters, actions); it is read when
/// the person asks for a comparison. `played` and `length` are the minutes played and the
/// exercise's length (for the length choice), `policy` the run's policy (policy A at first),
/// `dark` the theme.
#[component]
pub fn ComparisonView(
    current: Callback<(), Option<ShareState>>,
    #[prop(into)] played: Signal<u32>,
    #[prop(into)] length: Signal<Option<u32>>,
    #[prop(into)] policy: Signal<PolicyId>,
    #[prop(into)] dark: Signal<bool>,
) -> impl IntoView {
    let first = policy.get_untracked();
    let picks = Picks {
        a: RwSignal::new(first),
        b: RwSignal::new(other_policy(first)),
        span: RwSignal::new(Span::Whole),
    };
    let outcome = RwSignal::new(None::<Result<Arc<Comparison>, ParamError>>);
    let computing = RwSignal::new(false);
    let start = move || {
        if computing.get_untracked() {
            return;
        }
        computing.set(true);
        // Let the page show that it is computing before the core runs both policies.
        request_animation_frame(move || {
            set_timeout(
                move || run_comparison(current, picks, outcome, computing),
                std::time::Duration::ZERO,
            );
        });
    };
    let (canvases, overlays) = overlay_charts(outcome, dark);
    let result_view = move || {
        outcome.get().map(|result| match result {
            Err(e) => view! {
                <p class="field-error" role="alert">
                    {tf(
                        Msg::CompareFailed,
                        &[("field", &e.field), ("message", &core_text(&e.problem))],
                    )}
                </p>
            }
            .into_any(),
            Ok(c) => comparison_body(c, canvases, overlays).into_any(),
        })
    };
    view! {
        <section class="panel compare-panel" aria-labelledby="compare-heading" data-panel="compare">
            <h2 id="compare-heading">{t(Msg::CompareHeading)}</h2>
            <p class="muted small">{t(Msg::CompareIntro)}</p>
            {compare_form(picks, played, length, computing, start)}
            <p class="muted small" role="status" aria-live="polite">
                {move || computing.get().then(|| t(Msg::CompareComputing))}
            </p>
            <div class="compare-result">{result_view}</div>
        </section>
    }
}

/// Runs the comparison the person picked on the run's state now, and keeps its outcome.
fn run_comparison(
    current: Callback<(), Option<ShareState>>,
    picks: Picks,
    outcome: RwSignal<Outcome>,
    computing: RwSignal<bool>,
) {
    let Some(Some(state)) = current.try_run(()) else {
        computing.try_set(false);
        return;
    };
    let (Some(a), Some(b), Some(span)) = (
        picks.a.try_get_untracked(),
        picks.b.try_get_untracked(),
        picks.span.try_get_untracked(),
    ) else {
        return;
    };
    let length = oncall_sim::exercise::scenario(state.scenario).minutes;
    let minutes = span.minutes(state.minute.unwrap_or(1), length);
    let result: Outcome = Some(compare_policies(&state, a, b, minutes).map(Arc::new));
    outcome.try_set(result);
    computing.try_set(false);
}

/// The overlaid charts of a finished comparison: their canvases, redrawn when the outcome,
/// the theme or the window's size changes.
fn overlay_charts(
    outcome: RwSignal<Outcome>,
    dark: Signal<bool>,
) -> ([NodeRef<Canvas>; 4], Memo<Vec<Overlay>>) {
    let overlays = Memo::new(move |_| {
        outcome.with(|o| match o {
            Some(Ok(c)) => comparison_overlays(c),
            _ => Vec::new(),
        })
    });
    let canvases: [NodeRef<Canvas>; 4] = std::array::from_fn(|_| NodeRef::new());
    let redraw = move || {
        let dark = dark.try_get_untracked().unwrap_or(false);
        overlays.with_untracked(|list| {
            for (overlay, node) in list.iter().zip(canvases) {
                if let Some(canvas) = node.get_untracked() {
                    draw(&canvas, overlay, dark);
                }
            }
        });
    };
    Effect::new(move |_| {
        dark.track();
        overlays.track();
        for node in canvases {
            node.track();
        }
        redraw();
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| redraw());
    on_cleanup(move || resize.remove());
    (canvases, overlays)
}

/// The form: policy A, policy B, how much of the scenario, and the button that runs them.
fn compare_form(
    picks: Picks,
    played: Signal<u32>,
    length: Signal<Option<u32>>,
    computing: RwSignal<bool>,
    start: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <form
            class="compare-form"
            on:submit=move |ev| {
                ev.prevent_default();
                start();
            }
        >
            {policy_field("compare-a", Msg::ComparePolicyA, picks.a)}
            {policy_field("compare-b", Msg::ComparePolicyB, picks.b)}
            {span_field(picks.span, played, length)}
            <button type="submit" data-action="compare" disabled=move || computing.get()>
                {t(Msg::CompareRun)}
            </button>
        </form>
    }
}

/// A policy picker (`id` is its id and `data-field`).
fn policy_field(id: &'static str, label: Msg, selected: RwSignal<PolicyId>) -> impl IntoView {
    let options = PolicyId::ALL
        .iter()
        .map(|&policy| {
            view! {
                <option value=policy.as_str() selected=move || selected.get() == policy>
                    {policy_name_text(policy)}
                </option>
            }
        })
        .collect_view();
    let pick = move |ev: leptos::ev::Event| {
        // Only the core's ids; anything else (a tampered page) is ignored.
        if let Ok(policy) = event_target_value(&ev).parse() {
            selected.set(policy);
        }
    };
    view! {
        <div class="field">
            <label for=id>{t(label)}</label>
            <select
                id=id
                data-field=id
                prop:value=move || selected.get().as_str()
                on:change=pick
            >
                {options}
            </select>
        </div>
    }
}

/// How much of the scenario to compare: the whole exercise (or a day) or the minutes so far.
fn span_field(
    span: RwSignal<Span>,
    played: Signal<u32>,
    length: Signal<Option<u32>>,
) -> impl IntoView {
    let so_far_text = move || {
        tf(
            Msg::CompareSpanSoFar,
            &[(
                "span",
                &minutes(Span::SoFar.minutes(played.get(), length.get())),
            )],
        )
    };
    let whole_text = move || {
        let minutes = Span::Whole.minutes(0, length.get()).to_string();
        match length.get() {
            Some(_) => tf(Msg::CompareSpanWhole, &[("minutes", &minutes)]),
            None => tf(Msg::CompareSpanDay, &[("minutes", &minutes)]),
        }
    };
    view! {
        <div class="field">
            <label for="compare-span">{t(Msg::CompareSpanLabel)}</label>
            <select
                id="compare-span"
                data-field="compare-span"
                prop:value=move || span.get().key()
                on:change=move |ev| {
                    span.set(
                        if event_target_value(&ev) == Span::SoFar.key() {
                            Span::SoFar
                        } else {
                            Span::Whole
                        },
                    );
                }
            >
                <option value=Span::Whole.key() selected=move || span.get() == Span::Whole>
                    {whole_text}
                </option>
                <option value=Span::SoFar.key() selected=move || span.get() == Span::SoFar>
                    {so_far_text}
                </option>
            </select>
        </div>
    }
}

/// The table and the charts of a finished comparison.
fn comparison_body(
    c: Arc<Comparison>,
    canvases: [NodeRef<Canvas>; 4],
    overlays: Memo<Vec<Overlay>>,
) -> impl IntoView {
    let name_a = policy_name_text(c.a.policy);
    let name_b = policy_name_text(c.b.policy);
    let caption = tf(
        Msg::CompareCaption,
        &[
            ("span", &minutes(c.minutes)),
            ("scenario", &scenario_title_text(c.scenario)),
            ("seed", &c.seed.to_string()),
        ],
    );
    let rows = ROWS
        .iter()
        .map(|row| {
            let winner = row.winner(&c.a, &c.b);
            let cell = |run: Run| {
                let best = winner == Some(run);
                view! {
                    <td data-run=run.key() class:best=best>
                        <span class="value">{row.text(c.outcome(run))}</span>
                        {best.then(|| view! { <span class="visually-hidden">{t(Msg::CompareBetter)}</span> })}
                    </td>
                }
            };
            view! {
                <tr data-row=row.key>
                    <th scope="row">{t(row.label)}</th>
                    {cell(Run::A)}
                    {cell(Run::B)}
                </tr>
            }
        })
        .collect_view();

    let line_legend = |run: Run, name: &str| {
        let (msg, class) = match run {
            Run::A => (Msg::CompareSolid, "line-solid"),
            Run::B => (Msg::CompareDashed, "line-dashed"),
        };
        view! {
            <li>
                <span class=format!("swatch {class}") aria-hidden="true"></span>
                {tf(msg, &[("policy", name)])}
            </li>
        }
    };
    let charts = OVERLAY_IDS
        .iter()
        .zip(canvases)
        .enumerate()
        .map(|(i, (id, node))| {
            let title_id = format!("compare-chart-{id}-title");
            let quantities = overlays.with_untracked(|list| {
                list.get(i).map(|o| o.quantities.clone()).unwrap_or_default()
            });
            let colors = overlays.with_untracked(|list| {
                list.get(i)
                    .map(|o| {
                        o.figure
                            .series
                            .iter()
                            .step_by(2)
                            .map(|s| format!("rgb({}, {}, {})", s.color.0, s.color.1, s.color.2))
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default()
            });
            let items = quantities
                .iter()
                .zip(colors)
                .map(|(q, color)| {
                    view! {
                        <li>
                            <span class="swatch line" style=("--swatch", color.to_string()) aria-hidden="true"></span>
                            {quantity_text(q.key)}
                        </li>
                    }
                })
                .collect_view();
            let alt = {
                let c = Arc::clone(&c);
                overlays.with_untracked(|list| list.get(i).map(|o| overlay_alt(&c, o)).unwrap_or_default())
            };
            view! {
                <figure class="chart compare-chart" data-compare-chart=*id aria-labelledby=title_id.clone()>
                    <figcaption>
                        <h3 id=title_id.clone()>{chart_title(id)}</h3>
                        <ul class="legend">{items}</ul>
                    </figcaption>
                    <canvas node_ref=node data-compare-chart=*id role="img" aria-label=alt></canvas>
                </figure>
            }
        })
        .collect_view();

    view! {
        <div class="compare-summary" tabindex="0" role="region" aria-label=caption.clone()>
            <table class="compare-table" data-field="compare-table">
                <caption>{caption.clone()}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(Msg::CompareFigureColumn)}</th>
                        <th scope="col" data-run="a">{name_a.clone()}</th>
                        <th scope="col" data-run="b">{name_b.clone()}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <ul class="legend compare-lines">
            {line_legend(Run::A, &name_a)}
            {line_legend(Run::B, &name_b)}
        </ul>
        <div class="chart-grid compare-grid">{charts}</div>
    }
}

/// Draws one overlay (in the browser only; native builds have no canvas).
#[cfg(target_arch = "wasm32")]
fn draw(canvas: &web_sys::HtmlCanvasElement, overlay: &Overlay, dark: bool) {
    let theme = if dark { &Theme::DARK } else { &Theme::LIGHT };
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 4.0);
    match crate::charts::overlay::draw_overlay(canvas, overlay, theme, dpr) {
        Ok(()) => {
            let _ = canvas.remove_attribute("data-error");
            let _ = canvas.set_attribute("data-drawn", "true");
        }
        // A chart that cannot be drawn says so on its element; the page goes on.
        Err(e) => {
            let _ = canvas.set_attribute("data-error", &e.0);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn draw(_canvas: &web_sys::HtmlCanvasElement, _overlay: &Overlay, _dark: bool) {
    let _ = (&Theme::LIGHT, Theme::DARK);
}

// The panel's words are in the builds with `languages` (the module is built with it).
#[cfg(all(test, feature = "languages"))]
mod tests {
    use super::*;
    use oncall_sim::Action;

    fn state(scenario: &str, seed: u32) -> ShareState {
        ShareState {
            scenario: scenario.parse().unwrap(),
            seed: Some(seed),
            ..ShareState::default()
        }
    }

    #[test]
    fn the_counts_are_the_ones_the_cli_prints() {
        let mut s = state("viral-surge", 42);
        s.actions = vec![Action::parse("30:min_instances=12", 300).unwrap()];
        s.policy.set("hpa.tolerance", 0.2).unwrap();
        let c = compare_policies(&s, PolicyId::Hpa, PolicyId::Elastic, 240).unwrap();
        let cli: Vec<_> = compare::compare(&s.setup(42), &[PolicyId::Hpa, PolicyId::Elastic], 240)
            .unwrap()
            .iter()
            .map(|(setup, outcome)| compare::PolicyRun::of(setup, outcome))
            .collect();
        for (mine, core) in [(&c.a, &cli[0]), (&c.b, &cli[1])] {
            assert_eq!(mine.policy, core.policy);
            assert_eq!(mine.summary, core.summary);
            assert_eq!(mine.scaling_decisions, core.scaling_decisions);
            assert_eq!(mine.peak_instances, core.peak_instances);
            assert_eq!(mine.history.len(), 240);
        }
        assert_ne!(c.a.summary, c.b.summary);
        assert_eq!(c.a.summary.actions, ["30:min_instances=12"]);
    }

    #[test]
    fn spans_stay_within_the_exercise() {
        assert_eq!(Span::SoFar.minutes(37, Some(240)), 37);
        assert_eq!(Span::SoFar.minutes(0, Some(240)), 1);
        assert_eq!(Span::SoFar.minutes(500, Some(240)), 240);
        assert_eq!(Span::Whole.minutes(37, Some(240)), 240);
        assert_eq!(Span::Whole.minutes(37, None), DAY_MINUTES);
        let c = compare_policies(
            &state("bad-deploy", 1),
            PolicyId::Kpa,
            PolicyId::Kpa,
            10_000,
        )
        .unwrap();
        assert_eq!(c.minutes, 120);
        assert_eq!(c.a, c.b);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        // Unknown ids stop at parsing; a comparison only ever gets the core's ids.
        assert!("nope".parse::<ScenarioId>().is_err());
        assert!("magic".parse::<PolicyId>().is_err());
        let mut s = state("free-play", 1);
        s.policy.set("hpa.tolerance", 0.5).unwrap();
        assert!(compare_policies(&s, PolicyId::Kpa, PolicyId::Hpa, 10).is_ok());
    }

    /// Target tracking against Cloud Run through the viral surge of seed 42.
    fn surge_comparison() -> Comparison {
        compare_policies(
            &state("viral-surge", 42),
            PolicyId::TargetTracking,
            PolicyId::CloudRun,
            240,
        )
        .unwrap()
    }

    #[test]
    fn table_and_text_alternatives_read_well() {
        let c = surge_comparison();
        for row in &ROWS {
            for run in Run::BOTH {
                let text = row.text(c.outcome(run));
                assert!(
                    !text.is_empty() && !text.contains('{'),
                    "{:?}: {text}",
                    row.label
                );
                // Every figure carries its unit, and large totals are grouped: no run of
                // five digits.
                let digits = text.chars().filter(char::is_ascii_digit).count();
                assert!(digits < text.chars().count(), "{}: {text}", row.key);
                let longest_run = text
                    .split(|ch: char| !ch.is_ascii_digit())
                    .map(str::len)
                    .max()
                    .unwrap_or(0);
                assert!(longest_run <= 4, "{}: {text}", row.key);
            }
        }
        let row = |key: &str| ROWS.iter().find(|r| r.key == key).unwrap();
        assert!(row("failed_requests").text(&c.a).ends_with(" requests"));
        assert!(row("instance_minutes")
            .text(&c.a)
            .ends_with(" instance-min"));
        assert!(row("peak_instances").text(&c.a).ends_with(" instances"));
        let overlays = comparison_overlays(&c);
        assert_eq!(overlays.len(), 4);
        for o in &overlays {
            let alt = overlay_alt(&c, o);
            assert!(
                alt.contains("Target tracking") && alt.contains("Cloud Run"),
                "{alt}"
            );
            assert!(alt.contains("240 minutes") && !alt.contains('{'), "{alt}");
        }
        assert!(overlays[3].figure.series[1].label.contains("Cloud Run"));
    }

    #[test]
    fn the_lower_value_wins_where_lower_is_better() {
        let c = surge_comparison();
        for row in &ROWS {
            let (a, b) = ((row.value)(&c.a), (row.value)(&c.b));
            let winner = row.winner(&c.a, &c.b);
            match row.better {
                Better::Neither => assert_eq!(winner, None, "{}", row.key),
                Better::Lower if row.text(&c.a) == row.text(&c.b) => {
                    assert_eq!(winner, None, "{}", row.key)
                }
                Better::Lower => {
                    let expected = if a < b { Run::A } else { Run::B };
                    assert_eq!(winner, Some(expected), "{}: {a} vs {b}", row.key);
                }
            }
            // Against itself, nothing wins.
            assert_eq!(row.winner(&c.a, &c.a), None, "{}", row.key);
        }
        let cost = ROWS.iter().find(|r| r.key == "cost").unwrap();
        assert!(
            cost.winner(&c.a, &c.b).is_some(),
            "the two policies cost differently"
        );
    }

    #[test]
    fn b_starts_as_another_policy() {
        for id in PolicyId::ALL {
            assert_ne!(other_policy(*id), *id);
        }
    }
}
