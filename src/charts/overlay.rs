//! Two runs of the same scenario and seed on the same charts: run A in solid lines, run B in
//! dashed lines of the same colour. Built from the core's two histories (pure data, tested
//! natively) and drawn on the canvas like the live charts.

use oncall_sim::MinuteRecord;

use super::figures::{decimate, AxisSpec, ChartText, Unit, MAX_POINTS};
use super::{Axis, Figure, Guide, Series, SeriesStyle};

/// Which of the two runs a series belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Run {
    /// Drawn solid.
    A,
    /// Drawn dashed.
    B,
}

impl Run {
    pub const BOTH: [Run; 2] = [Run::A, Run::B];

    /// `"a"` or `"b"`, for data attributes.
    pub fn key(self) -> &'static str {
        match self {
            Run::A => "a",
            Run::B => "b",
        }
    }
}

/// The highest and the last value of one quantity of one run (for the text alternative).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extremes {
    pub max: f64,
    pub last: f64,
}

/// One quantity drawn for both runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quantity {
    pub key: ChartText,
    pub unit: Unit,
    /// Run A's and run B's highest and last values.
    pub a: Extremes,
    pub b: Extremes,
}

/// A chart of two runs: the figure (its series alternate run A, run B for each quantity) and
/// which run each series belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlay {
    pub figure: Figure,
    /// `runs[i]` is the run of `figure.series[i]`.
    pub runs: Vec<Run>,
    /// The quantities shown, in the order of the series.
    pub quantities: Vec<Quantity>,
}

/// A quantity of the records and how it is drawn.
struct Line {
    key: ChartText,
    color: Rgb,
    axis: Axis,
    value: fn(&MinuteRecord) -> f64,
}

// The live charts' palette, readable on white and on near-black.
use crate::theme::series::{BLUE, GREEN, ORANGE, RED};
use crate::theme::Rgb;

/// The four charts of a comparison: id, left and right units, quantities.
fn charts() -> [(&'static str, Unit, Unit, Vec<Line>); 4] {
    use Axis::{Left, Right};
    use ChartText as T;
    [
        (
            "traffic",
            Unit::RequestsPerSecond,
            Unit::RequestsPerSecond,
            vec![
                Line {
                    key: T::Requests,
                    color: BLUE,
                    axis: Left,
                    value: |r| r.requests_per_s,
                },
                Line {
                    key: T::Capacity,
                    color: GREEN,
                    axis: Left,
                    value: |r| r.capacity_per_s,
                },
            ],
        ),
        (
            "latency",
            Unit::Milliseconds,
            Unit::Percent,
            vec![
                Line {
                    key: T::P99,
                    color: ORANGE,
                    axis: Left,
                    value: |r| r.p99_ms,
                },
                Line {
                    key: T::ErrorRate,
                    color: RED,
                    axis: Right,
                    value: |r| r.error_rate,
                },
            ],
        ),
        (
            "budget",
            Unit::Percent,
            Unit::Times,
            vec![
                Line {
                    key: T::BudgetLeft,
                    color: GREEN,
                    axis: Left,
                    value: |r| r.budget_left.max(0.0),
                },
                Line {
                    key: T::BurnRate1h,
                    color: RED,
                    axis: Right,
                    value: |r| r.burn_rate_1h,
                },
            ],
        ),
        (
            "instances",
            Unit::Instances,
            Unit::Instances,
            vec![Line {
                key: T::Serving,
                color: BLUE,
                axis: Left,
                value: |r| f64::from(r.serving),
            }],
        ),
    ]
}

/// Ids of the comparison's charts, in display order.
pub const OVERLAY_IDS: [&str; 4] = ["traffic", "latency", "budget", "instances"];

fn points(history: &[MinuteRecord], value: fn(&MinuteRecord) -> f64) -> Vec<(f64, f64)> {
    let raw = history
        .iter()
        .map(|r| (f64::from(r.minute), value(r)))
        // A value that is not finite cannot be placed (and would stall a dashed line).
        .filter(|p| p.1.is_finite())
        .collect();
    decimate(raw, MAX_POINTS)
}

fn extremes(history: &[MinuteRecord], value: fn(&MinuteRecord) -> f64) -> Extremes {
    let finite = || history.iter().map(value).filter(|v| v.is_finite());
    Extremes {
        max: finite().fold(0.0, f64::max),
        last: history
            .iter()
            .rev()
            .map(value)
            .find(|v| v.is_finite())
            .unwrap_or(0.0),
    }
}

/// The comparison's charts for runs `a` and `b`. `label` names a quantity of a run (the
/// legend); `text` gives the guides' text. The time axis spans the longer run.
pub fn overlay_figures(
    a: &[MinuteRecord],
    b: &[MinuteRecord],
    clock_min: u32,
    timeout_s: f64,
    label: &dyn Fn(ChartText, Run) -> String,
    text: &dyn Fn(ChartText) -> String,
) -> Vec<Overlay> {
    let last = |h: &[MinuteRecord]| h.last().map_or(0.0, |r| f64::from(r.minute));
    let span = last(a).max(last(b)).max(30.0);
    let plain = |x| crate::format::plain(crate::i18n::Locale::page(), x);
    let timeout_guide = Guide {
        label: text(ChartText::TimeoutGuide).replace("{value}", &plain(timeout_s)),
        value: timeout_s * 1000.0,
        axis: Axis::Left,
        color: ORANGE,
    };
    let page_guide = Guide {
        label: text(ChartText::PageGuide).replace("{value}", &plain(oncall_sim::budget::PAGE_BURN)),
        value: oncall_sim::budget::PAGE_BURN,
        axis: Axis::Right,
        color: RED,
    };
    charts()
        .into_iter()
        .map(|(id, left, right, lines)| {
            let mut series = Vec::new();
            let mut runs = Vec::new();
            let mut quantities = Vec::new();
            for line in &lines {
                for (run, history) in [(Run::A, a), (Run::B, b)] {
                    series.push(Series {
                        label: label(line.key, run),
                        color: line.color,
                        axis: line.axis,
                        style: SeriesStyle::Line,
                        width: 2.0,
                        points: points(history, line.value),
                        region: None,
                    });
                    runs.push(run);
                }
                quantities.push(Quantity {
                    key: line.key,
                    unit: if line.axis == Axis::Left { left } else { right },
                    a: extremes(a, line.value),
                    b: extremes(b, line.value),
                });
            }
            let guides = match id {
                "latency" => vec![timeout_guide.clone()],
                "budget" => vec![page_guide.clone()],
                _ => Vec::new(),
            };
            Overlay {
                figure: Figure {
                    id,
                    left: AxisSpec { unit: left },
                    right: AxisSpec { unit: right },
                    series,
                    guides,
                    marks: Vec::new(),
                    clock_min,
                    start: 0.0,
                    span,
                    day_label: text(ChartText::Day),
                },
                runs,
                quantities,
            }
        })
        .collect()
}

/// Draws an overlay on a canvas's 2D context; `scale` is the device pixel ratio.
#[cfg(target_arch = "wasm32")]
fn draw_overlay_on(
    ctx: web_sys::CanvasRenderingContext2d,
    overlay: &Overlay,
    theme: &super::Theme,
    scale: f64,
) {
    let figure = &overlay.figure;
    let frame = super::frame(ctx, figure, theme, scale);

    // Guides are thin and finely dotted, unlike run B's long dashes.
    for guide in &figure.guides {
        // Also skips a guide that is not a number.
        if guide.value.is_nan() || guide.value > frame.max(guide.axis) {
            continue;
        }
        frame.guide(guide, 0.8, &[2.0, 3.0]);
    }

    for (series, run) in figure.series.iter().zip(&overlay.runs) {
        let dash: &[f64] = match run {
            Run::A => &[],
            Run::B => &[7.0, 5.0],
        };
        frame.pen(series.width, series.color, 1.0, dash);
        frame.line(series.axis, &series.points);
    }
}

/// Sizes `canvas`'s backing store to its CSS size × `dpr` and draws `overlay` on it.
#[cfg(target_arch = "wasm32")]
pub fn draw_overlay(
    canvas: &web_sys::HtmlCanvasElement,
    overlay: &Overlay,
    theme: &super::Theme,
    dpr: f64,
) -> Result<(), super::DrawError> {
    if let Some(ctx) = super::canvas_context(canvas, dpr)? {
        draw_overlay_on(ctx, overlay, theme, dpr);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use oncall_sim::ids::ScenarioId;
    use oncall_sim::setup::RunSetup;
    use oncall_sim::Simulation;

    fn run(policy: &str, minutes: u32) -> Simulation {
        let mut setup = RunSetup::new(ScenarioId::ViralSurge, 42);
        setup.set("autoscaler", policy).unwrap();
        let mut sim = setup.build().unwrap();
        sim.run(minutes);
        sim
    }

    fn label(key: ChartText, run: Run) -> String {
        format!("{key:?} {}", run.key())
    }

    fn text(key: ChartText) -> String {
        format!("{key:?} {{value}}")
    }

    #[test]
    fn each_quantity_is_drawn_for_both_runs() {
        let (a, b) = (run("target-tracking", 120), run("kpa", 90));
        let overlays = overlay_figures(a.history(), b.history(), 720, 2.0, &label, &text);
        let ids: Vec<&str> = overlays.iter().map(|o| o.figure.id).collect();
        assert_eq!(ids, OVERLAY_IDS);
        for o in &overlays {
            assert_eq!(o.runs.len(), o.figure.series.len());
            assert_eq!(o.figure.series.len(), 2 * o.quantities.len());
            for pair in o.figure.series.chunks(2).zip(o.runs.chunks(2)) {
                let (series, runs) = pair;
                assert_eq!(runs, [Run::A, Run::B]);
                assert_eq!(series[0].color, series[1].color);
                assert_eq!(series[0].points.len(), 120);
                assert_eq!(series[1].points.len(), 90);
            }
            assert_eq!(o.figure.span, 119.0);
        }
        assert_eq!(overlays[1].figure.guides[0].value, 2000.0);
        assert_eq!(overlays[1].figure.guides[0].label, "TimeoutGuide 2");
        assert_eq!(overlays[2].figure.guides[0].value, 14.4);
        assert_eq!(overlays[0].figure.series[3].label, "Capacity b");
    }

    #[test]
    fn extremes_come_from_the_runs() {
        let (a, b) = (run("target-tracking", 240), run("elastic", 240));
        let overlays = overlay_figures(a.history(), b.history(), 720, 2.0, &label, &text);
        let serving = overlays[3].quantities[0];
        let peak = |sim: &Simulation| sim.history().iter().map(|r| r.serving).max().unwrap();
        assert_eq!(serving.a.max, f64::from(peak(&a)));
        assert_eq!(serving.b.max, f64::from(peak(&b)));
        assert_eq!(
            serving.b.last,
            f64::from(b.history().last().unwrap().serving)
        );
        assert_ne!(serving.a, serving.b);
    }
}
