use leptos::html::Canvas;
use leptos::prelude::*;
use oncall_sim::{Event, EventKind};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::charts::figures::{figures, ChartText, SeriesStyle};
use crate::charts::{Axis, Figure, MarkKind, Theme};
use crate::components::run::{use_run, RunHandle};
use crate::console::Console;
use crate::format::{format_value, Format, Value};
use crate::i18n::{plural, t, tf, Msg};

/// Number of charts, in display order (the order `figures` returns them in).
pub const CHART_COUNT: usize = 8;

/// The catalog's message for a chart text key.
pub fn chart_msg(key: ChartText) -> Msg {
    match key {
        ChartText::Requests => Msg::SeriesRequests,
        ChartText::Capacity => Msg::SeriesCapacity,
        ChartText::P99 => Msg::SeriesP99,
        ChartText::ErrorRate => Msg::SeriesErrorRate,
        ChartText::Timeouts => Msg::SeriesTimeouts,
        ChartText::TimeoutGuide => Msg::GuideTimeout,
        ChartText::BudgetLeft => Msg::SeriesBudgetLeft,
        ChartText::BurnRate1h => Msg::SeriesBurnRate1h,
        ChartText::BurnRate5m => Msg::SeriesBurnRate5m,
        ChartText::PageGuide => Msg::GuidePage,
        ChartText::Day => Msg::ChartDay,
        ChartText::CacheHit => Msg::SeriesCacheHit,
        ChartText::DbUtilization => Msg::SeriesDbUtilization,
        ChartText::Serving => Msg::SeriesServing,
        ChartText::Booting => Msg::SeriesBooting,
        ChartText::FleetCost => Msg::SeriesFleetCost,
        ChartText::CostSoFar => Msg::SeriesCostSoFar,
    }
}

/// The catalog's text for the charts' keys.
pub fn chart_text(key: ChartText) -> String {
    t(chart_msg(key)).to_owned()
}

fn chart_title(id: &str) -> Msg {
    match id {
        "traffic" => Msg::ChartTraffic,
        "latency" => Msg::ChartLatency,
        "errors" => Msg::ChartErrors,
        "burn" => Msg::ChartBurn,
        "budget" => Msg::ChartBudget,
        "cache" => Msg::ChartCache,
        "instances" => Msg::ChartInstances,
        _ => Msg::ChartCost,
    }
}

/// Minutes the charts show when they follow the last hour.
pub const WINDOW_MINUTES: usize = 60;

/// The run's figures: the whole history, on an axis as long as the exercise (so the charts do
/// not rescale every minute) or the run so far when the scenario is endless; or, with
/// `last_hour`, the last [`WINDOW_MINUTES`] minutes, so an incident fills the width.
fn run_figures(console: &Console, last_hour: bool) -> Vec<Figure> {
    let sim = console.sim();
    let mut figs = figures(
        shown(console, last_hour),
        sim.events(),
        sim.scenario().clock_min,
        sim.params().timeout_s,
        &chart_text,
    );
    let (_, span) = run_axis(console, last_hour);
    for fig in &mut figs {
        fig.span = span;
    }
    add_region_lines(&mut figs, console, last_hour);
    figs
}

/// Each region's lines, legend entries and values on the charts: only the extended build's
/// runs have regions; the first build's stand-ins draw none.
#[cfg(feature = "extended")]
mod region_lines {
    use super::*;

    /// Each region's line on the charts that have them (the build with regions).
    pub(super) fn add_region_lines(figs: &mut [Figure], console: &Console, last_hour: bool) {
        let first = shown(console, last_hour).first().map_or(0, |r| r.minute);
        let minutes = console.sim().region_history();
        let from = (first as usize).min(minutes.len());
        crate::charts::regions::add_lines(figs, first, &minutes[from..], &region_label);
    }

    /// A region's name on the charts ("Region A"), from its code.
    pub(super) fn region_label(code: &str) -> String {
        tf(Msg::SeriesRegion, &[("region", code)])
    }

    /// The legend entries of chart `id`'s region lines, drawn in the region's colour of the
    /// page's theme; none for a run with one region. They follow the run (a link can change how
    /// many regions it has).
    pub(super) fn region_legend(id: &'static str, run: RunHandle) -> impl IntoView {
        use crate::charts::regions;
        let count = Memo::new(move |_| {
            run.generation.track();
            run.with(|c| c.sim().region_count()).unwrap_or(1)
        });
        move || {
            regions::drawn(count.get())
                .filter(|_| regions::has_lines(id))
                .map(|r| {
                    let code = oncall_sim::regions::code(r);
                    legend_item(LegendItem {
                        label: region_label(&code.to_uppercase()),
                        css_color: format!("var(--region-{code})"),
                        shape: "line",
                        right_axis: false,
                    })
                })
                .collect_view()
        }
    }

    /// Adds each region's value on chart `id` at `minute` to `values`, for a chart's text
    /// alternative.
    pub(super) fn add_region_values(
        run: RunHandle,
        id: &str,
        minute: u32,
        values: &mut Vec<ChartValue>,
    ) {
        if let Some(more) = run.with(|c| region_values(c, id, minute)) {
            values.extend(more);
        }
    }

    /// Each region's value on chart `id` at `minute`, in words, with its swatch's colour.
    pub(super) fn region_values(console: &Console, id: &str, minute: u32) -> Vec<ChartValue> {
        use crate::charts::regions;
        let Some(at) = console.sim().region_history().get(minute as usize) else {
            return Vec::new();
        };
        let format = if id == "traffic" {
            Format::ReqPerS
        } else {
            Format::Count
        };
        regions::drawn(at.len())
            .filter_map(|r| {
                let value = regions::value(id, &at[r])?;
                Some(ChartValue {
                    label: region_label(&at[r].region.to_uppercase()),
                    value: format_value(format, Value::Number(value)),
                    swatch: Some(format!("var(--region-{})", at[r].region)),
                })
            })
            .collect()
    }
}

#[cfg(not(feature = "extended"))]
mod region_lines {
    use super::*;

    pub(super) fn add_region_lines(_: &mut [Figure], _: &Console, _: bool) {}

    /// The first build's runs have one region.
    pub(super) fn region_legend(_: &'static str, _: RunHandle) {}

    pub(super) fn add_region_values(_: RunHandle, _: &str, _: u32, _: &mut Vec<ChartValue>) {}

    pub(super) fn region_values(_: &Console, _: &str, _: u32) -> Vec<ChartValue> {
        Vec::new()
    }
}

use region_lines::{add_region_lines, add_region_values, region_legend, region_values};

/// One value a chart shows at a minute: its series' name, the value in words, and the colour
/// of its swatch when it is not the series' own.
struct ChartValue {
    label: String,
    value: String,
    swatch: Option<String>,
}

/// What chart `id` shows at minute `r`, in words: its series, then each region's line.
fn chart_values(console: &Console, id: &str, r: &oncall_sim::MinuteRecord) -> Vec<ChartValue> {
    let mut values = series_values(id, r);
    values.extend(region_values(console, id, r.minute));
    values
}

/// What chart `id`'s own series show at minute `r`, in words.
fn series_values(id: &str, r: &oncall_sim::MinuteRecord) -> Vec<ChartValue> {
    alt_values(id, r)
        .into_iter()
        .map(|(key, value)| ChartValue {
            label: chart_text(key),
            value,
            swatch: None,
        })
        .collect()
}

/// "name value, name value".
fn values_text(values: &[ChartValue]) -> String {
    values
        .iter()
        .map(|v| {
            tf(
                Msg::ChartAltValue,
                &[("name", &v.label), ("value", &v.value)],
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The minutes the charts draw: the whole history, or its last hour.
fn shown(console: &Console, last_hour: bool) -> &[oncall_sim::MinuteRecord] {
    let history = console.sim().history();
    if last_hour {
        &history[history.len().saturating_sub(WINDOW_MINUTES)..]
    } else {
        history
    }
}

/// First and last minute of the charts' time axis.
fn run_axis(console: &Console, last_hour: bool) -> (f64, f64) {
    let (start, span) = crate::charts::figures::time_axis(shown(console, last_hour));
    match console.sim().scenario().minutes.filter(|_| !last_hour) {
        Some(length) => (start, f64::from(length.saturating_sub(1)).max(span)),
        None => (start, span),
    }
}

/// Draws every chart of the run on its canvas. Called by the frame loop, at most once a frame.
pub fn draw_charts(run: &RunHandle, canvases: &[NodeRef<Canvas>; CHART_COUNT], dark: bool) {
    let theme = if dark { &Theme::DARK } else { &Theme::LIGHT };
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 4.0);
    let drawn = run.with(|console| {
        let minutes = console.minutes().to_string();
        let last_hour = run.charts_last_hour.get_untracked();
        let crosshair = run.crosshair.get_untracked().map(f64::from);
        for (figure, node) in run_figures(console, last_hour).iter().zip(canvases) {
            let Some(canvas) = node.get_untracked() else {
                continue;
            };
            match crate::charts::draw(&canvas, figure, theme, dpr, crosshair) {
                Ok(()) => {
                    let _ = canvas.set_attribute("data-minutes", &minutes);
                    let _ = canvas.remove_attribute("data-error");
                }
                // A chart that cannot be drawn says so on its element; the page goes on.
                Err(e) => {
                    let _ = canvas.set_attribute("data-error", &e.0);
                }
            }
        }
    });
    if drawn.is_none() {
        leptos::logging::warn!("charts: the run is gone");
    }
}

/// One legend entry.
#[derive(Clone, Debug, PartialEq)]
struct LegendItem {
    label: String,
    css_color: String,
    shape: &'static str,
    right_axis: bool,
}

fn legend(figure: &Figure) -> Vec<LegendItem> {
    let color = crate::theme::css;
    let has_right = figure.series.iter().any(|s| s.axis == Axis::Right)
        && figure.left.unit != figure.right.unit;
    let mut items: Vec<LegendItem> = figure
        .series
        .iter()
        .map(|s| LegendItem {
            label: s.label.clone(),
            css_color: color(s.color),
            shape: if s.style == SeriesStyle::Area {
                "area"
            } else {
                "line"
            },
            right_axis: has_right && s.axis == Axis::Right,
        })
        .collect();
    items.extend(figure.guides.iter().map(|g| LegendItem {
        label: g.label.clone(),
        css_color: color(g.color),
        shape: "guide",
        right_axis: has_right && g.axis == Axis::Right,
    }));
    items
}

/// A legend entry's list item.
fn legend_item(item: LegendItem) -> impl IntoView {
    let right = item.right_axis.then(|| format!(" ({})", t(Msg::RightAxis)));
    view! {
        <li>
            <span
                class=format!("swatch {}", item.shape)
                style=("--swatch", item.css_color.to_string())
                aria-hidden="true"
            ></span>
            {item.label}
            {right}
        </li>
    }
}

/// One row of the crosshair's tip: the series' swatch, its name and its value. `colors` are
/// the chart's own series' colours by name.
fn tip_row(v: ChartValue, colors: &[(String, String)]) -> impl IntoView {
    let swatch = v
        .swatch
        .or_else(|| {
            colors
                .iter()
                .find(|(label, _)| *label == v.label)
                .map(|(_, c)| c.clone())
        })
        .map(|c| ("--swatch", c));
    view! {
        <li>
            <span class="swatch" style=swatch></span>
            {v.label} " " <b>{v.value}</b>
        </li>
    }
}

/// What a chart shows now, in words (its text alternative).
fn alt_values(id: &str, r: &oncall_sim::MinuteRecord) -> Vec<(ChartText, String)> {
    let v = |format: Format, x: f64| format_value(format, Value::Number(x));
    let pct = |x: f64| v(Format::Percent { decimals: 1 }, x);
    match id {
        "traffic" => vec![
            (ChartText::Requests, v(Format::ReqPerS, r.requests_per_s)),
            (ChartText::Capacity, v(Format::ReqPerS, r.capacity_per_s)),
        ],
        "latency" => vec![(ChartText::P99, v(Format::Milliseconds, r.p99_ms))],
        "errors" => vec![
            (
                ChartText::ErrorRate,
                v(Format::Percent { decimals: 3 }, r.error_rate),
            ),
            (
                ChartText::Timeouts,
                v(Format::Percent { decimals: 3 }, r.timeout_share),
            ),
        ],
        "burn" => vec![
            (
                ChartText::BurnRate1h,
                v(Format::Burn { decimals: 1 }, r.burn_rate_1h),
            ),
            (
                ChartText::BurnRate5m,
                v(Format::Burn { decimals: 1 }, r.burn_rate_5m),
            ),
        ],
        "budget" => vec![(ChartText::BudgetLeft, pct(r.budget_left))],
        "cache" => vec![
            (ChartText::CacheHit, pct(r.cache_hit)),
            (ChartText::DbUtilization, pct(r.db_utilization)),
        ],
        "instances" => vec![
            (ChartText::Serving, v(Format::Count, f64::from(r.serving))),
            (ChartText::Booting, v(Format::Count, f64::from(r.booting))),
        ],
        _ => vec![(
            ChartText::FleetCost,
            v(Format::DollarsPerHour, r.fleet_cost_per_hour),
        )],
    }
}

/// Counts of the marks on the time axis: deploys, pages, the user's actions.
fn mark_counts(events: &[Event]) -> (usize, usize, usize) {
    events.iter().fold((0, 0, 0), |(d, p, a), e| match e.kind {
        EventKind::Deploy { .. } => (d + 1, p, a),
        EventKind::PageFired { .. } => (d, p + 1, a),
        EventKind::Action { .. } => (d, p, a + 1),
        _ => (d, p, a),
    })
}

/// The marks sentence of the charts' text alternatives: "Marked: 1 deploy, 2 pages, 1 of
/// your actions."
fn marks_text((deploys, pages, actions): (usize, usize, usize)) -> String {
    let count = |n: usize, one: Msg, other: Msg| plural(n as u64, one, other);
    tf(
        Msg::ChartAltMarks,
        &[
            (
                "deploys",
                &count(deploys, Msg::MarkedDeploysOne, Msg::MarkedDeploysOther),
            ),
            (
                "pages",
                &count(pages, Msg::MarkedPagesOne, Msg::MarkedPagesOther),
            ),
            (
                "actions",
                &count(actions, Msg::MarkedActionsOne, Msg::MarkedActionsOther),
            ),
        ],
    )
}

/// The charts' x axis now, on a chart laid out like `layout` (its margins).
fn axis_now(console: &Console, layout: &Figure, last_hour: bool) -> Figure {
    let (start, span) = run_axis(console, last_hour);
    Figure {
        start,
        span,
        ..layout.clone()
    }
}

/// The first minute the charts show and the last minute of the run.
fn crosshair_bounds(console: &Console, last_hour: bool) -> Option<(u32, u32)> {
    let last = console.sim().history().len().checked_sub(1)? as u32;
    let (start, _) = run_axis(console, last_hour);
    Some((start as u32, last))
}

/// The minute of the run nearest to a point `x_css` from a chart's left edge, on the charts'
/// axis now.
fn pointer_minute(run: RunHandle, layout: &Figure, width_css: f64, x_css: f64) -> Option<u32> {
    let last_hour = run.charts_last_hour.get_untracked();
    run.with(|c| {
        let (first, last) = crosshair_bounds(c, last_hour)?;
        let axis = axis_now(c, layout, last_hour);
        let minute = crate::charts::minute_at(&axis, width_css, x_css).round();
        Some((minute.max(0.0) as u32).clamp(first, last))
    })
    .flatten()
}

/// Moves the crosshair for a key on a focused chart: the arrows by a minute (ten with Shift),
/// Home and End to the ends, Escape hides it. Returns whether the key was the crosshair's.
fn crosshair_key(run: RunHandle, key: &str, shift: bool) -> bool {
    let last_hour = run.charts_last_hour.get_untracked();
    let Some((first, last)) = run.with(|c| crosshair_bounds(c, last_hour)).flatten() else {
        return false;
    };
    let at = run
        .crosshair
        .get_untracked()
        .unwrap_or(last)
        .clamp(first, last);
    let by = if shift { 10 } else { 1 };
    let next = match key {
        "ArrowLeft" => Some(at.saturating_sub(by).max(first)),
        "ArrowRight" => Some((at + by).min(last)),
        "Home" => Some(first),
        "End" => Some(last),
        "Escape" => None,
        _ => return false,
    };
    run.crosshair.set(next);
    run.charts_changed();
    true
}

/// The six live charts, with HTML legends and a text alternative each. The canvases are drawn
/// by the frame loop ([`draw_charts`]); this component lays them out and watches their size.
#[component]
pub fn ChartsPanel(
    canvases: [NodeRef<Canvas>; CHART_COUNT],
    dark: ReadSignal<bool>,
) -> impl IntoView {
    let run = use_run();
    // Legends do not depend on the data: build them from an empty run.
    let timeout_s = run.with(|c| c.sim().params().timeout_s).unwrap_or(2.0);
    let empty = figures(&[], &[], 0, timeout_s, &chart_text);
    let first_clock = Memo::new(move |_| {
        run.generation.track();
        run.with(|c| c.sim().clock_at(0)).unwrap_or_default()
    });
    let events = Memo::new(move |_| run.snapshot.with(|s| s.events));
    // `events` is read (not only tracked) so that the memo computes and follows the
    // snapshot: a memo that was never read has no sources and never changes.
    let marks = Memo::new(move |_| {
        run.generation.track();
        let _count = events.get();
        run.with(|c| mark_counts(c.sim().events()))
            .unwrap_or_default()
    });

    // Redraw when a canvas changes size (window resize, layout change, scrollbar).
    observe_sizes(run, canvases);
    Effect::new(move |_| {
        dark.track();
        run.charts_changed();
    });

    let mark_color = move |kind: MarkKind| {
        let theme = if dark.get() {
            Theme::DARK
        } else {
            Theme::LIGHT
        };
        (
            "color",
            crate::theme::css(theme.marks[kind as usize]).to_string(),
        )
    };

    // The chart whose canvas has the keyboard's focus: its values at the crosshair are read
    // out as the crosshair moves.
    let focused: RwSignal<Option<&'static str>> = RwSignal::new(None);
    let announce = move || {
        let id = focused.get()?;
        let minute = run.crosshair.get()?;
        run.with(|c| {
            let r = c.sim().history().get(minute as usize)?;
            Some(tf(
                Msg::ChartCrosshair,
                &[
                    ("clock", &r.clock.to_string()),
                    ("values", &values_text(&chart_values(c, id, r))),
                ],
            ))
        })
        .flatten()
    };

    let charts = empty
        .iter()
        .zip(canvases)
        .map(|(figure, node)| {
            let id = figure.id;
            let layout = figure.clone();
            let tip_layout = figure.clone();
            let series_colors: Vec<(String, String)> = figure
                .series
                .iter()
                .map(|s| (s.label.clone(), crate::theme::css(s.color)))
                .collect();
            // The crosshair's minute on this chart: where it is drawn and what it shows.
            let tip = move || {
                let minute = run.crosshair.get()?;
                let last_hour = run.charts_last_hour.get();
                run.snapshot.track();
                let width = f64::from(node.get_untracked()?.client_width());
                run.with(|c| {
                    let axis = axis_now(c, &tip_layout, last_hour);
                    if f64::from(minute) < axis.start {
                        return None;
                    }
                    let r = c.sim().history().get(minute as usize)?;
                    let x = crate::charts::x_of_minute(&axis, width, f64::from(minute));
                    let side = if x > 0.6 * width {
                        ("right", format!("{:.0}px", width - x + 8.0))
                    } else {
                        ("left", format!("{:.0}px", x + 8.0))
                    };
                    let rows = chart_values(c, id, r)
                        .into_iter()
                        .map(|value| tip_row(value, &series_colors))
                        .collect_view();
                    Some(view! {
                        <div class="chart-tip" style=side aria-hidden="true" data-field="chart-tip">
                            <time>{r.clock.to_string()}</time>
                            <ul>{rows}</ul>
                        </div>
                    })
                })
                .flatten()
            };
            let on_move = move |ev: web_sys::PointerEvent| {
                let Some(canvas) = node.get_untracked() else {
                    return;
                };
                let width = f64::from(canvas.client_width());
                let minute = pointer_minute(run, &layout, width, f64::from(ev.offset_x()));
                if minute != run.crosshair.get_untracked() {
                    run.crosshair.set(minute);
                    run.charts_changed();
                }
            };
            let on_leave = move |_| {
                if focused.get_untracked().is_none() {
                    run.crosshair.set(None);
                    run.charts_changed();
                }
            };
            let on_key = move |ev: web_sys::KeyboardEvent| {
                if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
                    return;
                }
                if crosshair_key(run, &ev.key(), ev.shift_key()) {
                    ev.prevent_default();
                    ev.stop_propagation();
                }
            };
            let title = t(chart_title(id));
            let heading_id = format!("chart-{id}-title");
            let labelled_by = heading_id.clone();
            let items = legend(figure).into_iter().map(legend_item).collect_view();
            let alt = move || {
                let values = run.snapshot.with(|s| {
                    let mut values = series_values(id, &s.record);
                    add_region_values(run, id, s.record.minute, &mut values);
                    values_text(&values)
                });
                let marks = marks_text(marks.get());
                tf(
                    Msg::ChartAlt,
                    &[
                        ("title", title),
                        ("from", &first_clock.get().to_string()),
                        ("to", &run.snapshot.with(|s| s.record.clock.to_string())),
                        ("values", &values),
                        ("marks", &marks),
                    ],
                )
            };
            view! {
                <figure class="chart" data-chart=id aria-labelledby=labelled_by>
                    <figcaption>
                        <h3 id=heading_id>{title}</h3>
                        <ul class="legend">{items}{region_legend(id, run)}</ul>
                    </figcaption>
                    <div class="chart-plot">
                        <canvas
                            node_ref=node
                            data-chart=id
                            role="img"
                            aria-label=alt
                            aria-describedby="chart-keys"
                            tabindex="0"
                            on:pointermove=on_move
                            on:pointerleave=on_leave
                            on:keydown=on_key
                            on:focus=move |_| focused.set(Some(id))
                            on:blur=move |_| {
                                focused.set(None);
                                run.crosshair.set(None);
                                run.charts_changed();
                            }
                        ></canvas>
                        {tip}
                    </div>
                </figure>
            }
        })
        .collect_view();

    view! {
        <section class="panel charts-panel" aria-labelledby="charts-heading">
            <div class="panel-head">
                <h2 id="charts-heading">{t(Msg::ChartsHeading)}</h2>
                <label class="chart-window">
                    <span>{t(Msg::ChartWindow)}</span>
                    <select
                        data-field="chart-window"
                        on:change=move |ev| {
                            run.charts_last_hour.set(event_target_value(&ev) == "hour");
                            run.charts_changed();
                        }
                    >
                        <option value="run" selected=move || !run.charts_last_hour.get()>
                            {t(Msg::ChartWindowRun)}
                        </option>
                        <option value="hour" selected=move || run.charts_last_hour.get()>
                            {t(Msg::ChartWindowHour)}
                        </option>
                    </select>
                </label>
                <p class="marks-legend">
                    {t(Msg::MarksLegend)} " "
                    <span style=move || mark_color(MarkKind::Deploy)>
                        <b aria-hidden="true">{MarkKind::Deploy.glyph()}</b> " " {t(Msg::MarkDeploy)}
                    </span>
                    " · "
                    <span style=move || mark_color(MarkKind::Page)>
                        <b aria-hidden="true">{MarkKind::Page.glyph()}</b> " " {t(Msg::MarkPage)}
                    </span>
                    " · "
                    <span style=move || mark_color(MarkKind::Action)>
                        <b aria-hidden="true">{MarkKind::Action.glyph()}</b> " " {t(Msg::MarkAction)}
                    </span>
                </p>
            </div>
            <p id="chart-keys" class="visually-hidden">{t(Msg::ChartCrosshairKeys)}</p>
            <p class="visually-hidden" aria-live="polite" data-field="chart-crosshair">
                {announce}
            </p>
            <div class="chart-grid">{charts}</div>
        </section>
    }
}

/// Marks the charts dirty whenever one of the canvases changes size. The observer is
/// disconnected when the panel goes away.
fn observe_sizes(run: RunHandle, canvases: [NodeRef<Canvas>; CHART_COUNT]) {
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
        run.charts_changed();
    });
    let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
        return;
    };
    let kept = StoredValue::new_local(Some((observer.clone(), callback)));
    for node in canvases {
        let observer = observer.clone();
        // Observing the same element again is harmless, so a re-created canvas is covered too.
        Effect::new(move |_| {
            if let Some(canvas) = node.get() {
                observer.observe(&canvas);
            }
        });
    }
    on_cleanup(move || {
        kept.try_update_value(|kept| {
            if let Some((observer, callback)) = kept.take() {
                observer.disconnect();
                drop(callback);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::read_link;

    /// The counts come from the run's events: bad deploy with a rollback has its deploy, its
    /// page and the action, as many as the charts draw.
    #[test]
    fn the_marks_sentence_counts_what_the_charts_draw() {
        let link = read_link("?scenario=bad-deploy&seed=7&t=40&actions=29:rollback");
        assert!(link.notices.is_empty(), "{:?}", link.notices);
        let mut console = Console::start(link.state, 7).unwrap();
        while console.replay(16) > 0 {}
        let events = console.sim().events();
        let (deploys, pages, actions) = mark_counts(events);
        assert_eq!(deploys, 1);
        assert!(pages >= 1, "the page fired before the rollback");
        assert_eq!(actions, 1);
        let drawn = crate::charts::figures::marks(events);
        let drawn_of = |kind: MarkKind| drawn.iter().filter(|m| m.kind == kind).count();
        assert_eq!(drawn_of(MarkKind::Deploy), deploys);
        assert_eq!(drawn_of(MarkKind::Page), pages);
        assert_eq!(drawn_of(MarkKind::Action), actions);
        let text = marks_text((deploys, pages, actions));
        assert!(text.starts_with("Marked: 1 deploy, "), "{text}");
        assert!(text.ends_with(", 1 of your actions."), "{text}");
    }

    #[test]
    fn the_marks_sentence_is_counted_right() {
        assert_eq!(
            marks_text((0, 0, 0)),
            "Marked: 0 deploys, 0 pages, 0 of your actions."
        );
        assert_eq!(
            marks_text((1, 1, 1)),
            "Marked: 1 deploy, 1 page, 1 of your actions."
        );
        assert_eq!(
            marks_text((2, 3, 4)),
            "Marked: 2 deploys, 3 pages, 4 of your actions."
        );
    }
}
