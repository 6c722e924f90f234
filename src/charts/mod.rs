//! Live charts drawn with plotters on HTML canvases.
//!
//! [`figures`] turns the core's history into one [`Figure`] per chart (pure data, testable
//! natively); [`draw`] paints a figure on a canvas, sized for the device pixel ratio so lines
//! and text stay crisp on HiDPI screens. Errors become messages only at the boundary.

pub mod figures;
pub mod overlay;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub use figures::{Axis, Figure, Guide, Mark, MarkKind, Series, SeriesStyle};

use crate::theme;

/// Colours of the page's light or dark theme, as the charts use them: the panel they sit on,
/// its text and lines, and the event families' colours for the marks. All come from the
/// page's tokens ([`crate::theme`]), so a chart matches the panel and the event log around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    /// Indexed by [`MarkKind`]: deploy, page, the player's action.
    pub marks: [RGBColor; 3],
}

impl Theme {
    pub const LIGHT: Theme = Theme {
        background: theme::light("--panel"),
        text: theme::light("--text"),
        grid: theme::light("--line"),
        marks: [
            theme::light("--k-deploy"),
            theme::light("--k-page"),
            theme::light("--k-action"),
        ],
    };
    pub const DARK: Theme = Theme {
        background: theme::dark("--panel"),
        text: theme::dark("--text"),
        grid: theme::dark("--line"),
        marks: [
            theme::dark("--k-deploy"),
            theme::dark("--k-page"),
            theme::dark("--k-action"),
        ],
    };
}

/// The time axis: minutes, with tick marks on whole clock steps ([`Figure::time_ticks`])
/// rather than on plotters' decimal steps (which would label 09:00, 09:50, 10:40).
#[derive(Clone, Debug)]
pub(crate) struct ClockAxis {
    range: std::ops::Range<f64>,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ranged for ClockAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let width = self.range.end - self.range.start;
        let share = if width > 0.0 {
            (value - self.range.start) / width
        } else {
            0.0
        };
        let pixels = f64::from(limit.1 - limit.0);
        limit.0 + (pixels * share + 1e-3).floor() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.clone()
    }
}

/// Why a chart could not be drawn.
#[derive(Debug)]
pub struct DrawError(pub String);

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawError(e.to_string())
    }
}

/// A chart with the live charts' clock axis below and a value axis on each side.
pub(crate) type Frame<'a, DB> = plotters::chart::DualCoordChartContext<
    'a,
    DB,
    Cartesian2d<ClockAxis, plotters::coord::types::RangedCoordf64>,
    Cartesian2d<ClockAxis, plotters::coord::types::RangedCoordf64>,
>;

/// Fills the background and draws the axes and grid of `figure`: what the live charts and
/// the comparison overlays share. Returns the chart and the tops of the left and right axes.
pub(crate) fn frame<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    figure: &Figure,
    theme: &Theme,
    scale: f64,
) -> Result<(Frame<'a, DB>, f64, f64), DrawError>
where
    DB::ErrorType: 'static,
{
    let px = |x: f64| (x * scale).round().max(1.0) as u32;
    let font = |size: f64| ("sans-serif", size * scale).into_font().color(&theme.text);
    root.fill(&theme.background)?;
    let (x0, x1) = figure.x_range();
    let left_max = figure.axis_max(Axis::Left);
    let right_max = figure.axis_max(Axis::Right);
    let has_right = figure.series.iter().any(|s| s.axis == Axis::Right);

    let mut builder = ChartBuilder::on(root);
    builder
        .margin_top(px(6.0))
        .margin_left(px(4.0))
        .margin_right(px(if has_right { 4.0 } else { 12.0 }))
        .margin_bottom(px(2.0))
        .x_label_area_size(px(22.0))
        .y_label_area_size(px(46.0));
    if has_right {
        builder.right_y_label_area_size(px(46.0));
    }
    // Clock-friendly ticks: about one label per 60 CSS pixels of plot.
    let width_css = f64::from(root.dim_in_pixel().0) / scale;
    let (bold, light) = figure.time_ticks(((width_css - 60.0) / 60.0).clamp(2.0, 10.0) as usize);
    let x_axis = || ClockAxis {
        range: x0..x1,
        bold: bold.clone(),
        light: light.clone(),
    };
    let mut chart = builder
        .build_cartesian_2d(x_axis(), 0.0..left_max)?
        .set_secondary_coord(x_axis(), 0.0..right_max);

    let clock = |m: &f64| figure.clock_label(*m);
    let left_fmt = |v: &f64| figure.left.format(*v);
    let right_fmt = |v: &f64| figure.right.format(*v);
    chart
        .configure_mesh()
        .light_line_style(theme.grid.mix(0.5))
        .bold_line_style(theme.grid)
        .axis_style(theme.grid)
        .label_style(font(11.0))
        .x_labels(5)
        .y_labels(5)
        .x_label_formatter(&clock)
        .y_label_formatter(&left_fmt)
        .draw()?;
    if has_right {
        chart
            .configure_secondary_axes()
            .axis_style(theme.grid)
            .label_style(font(11.0))
            .y_labels(5)
            .y_label_formatter(&right_fmt)
            .draw()?;
    }

    Ok((chart, left_max, right_max))
}

/// Draws `figure` on any plotters drawing area. `scale` is the device pixel ratio: sizes of
/// text, lines and margins are multiplied by it.
pub fn draw_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    figure: &Figure,
    theme: &Theme,
    scale: f64,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let px = |x: f64| (x * scale).round().max(1.0) as u32;
    let font = |size: f64| ("sans-serif", size * scale).into_font().color(&theme.text);
    let (mut chart, left_max, right_max) = frame(root, figure, theme, scale)?;
    let (x0, x1) = figure.x_range();

    // Guides: the timeout, the page threshold.
    for guide in &figure.guides {
        let (max, color) = (
            if guide.axis == Axis::Left {
                left_max
            } else {
                right_max
            },
            guide.color,
        );
        if guide.value > max {
            continue;
        }
        let style = ShapeStyle::from(&color).stroke_width(px(1.0));
        let line = DashedLineSeries::new(
            vec![(x0, guide.value), (x1, guide.value)],
            px(6.0),
            px(4.0),
            style,
        );
        // The label sits above the line at the right end, clear of the y-axis labels and of
        // the data, which starts at the left.
        let label = Text::new(
            guide.label.clone(),
            (x1, guide.value),
            font(10.0)
                .color(&color)
                .pos(Pos::new(HPos::Right, VPos::Bottom)),
        );
        if guide.axis == Axis::Left {
            chart.draw_series(line)?;
            chart.draw_series(std::iter::once(label))?;
        } else {
            chart.draw_secondary_series(line)?;
            chart.draw_secondary_series(std::iter::once(label))?;
        }
    }

    // Marks on the time axis: deploys, pages, the user's actions.
    for mark in &figure.marks {
        let color = theme.marks[mark.kind as usize];
        let x = f64::from(mark.minute);
        if x < x0 || x > x1 {
            continue;
        }
        let style = ShapeStyle::from(&color.mix(0.7)).stroke_width(px(1.0));
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x, 0.0), (x, left_max)],
            style,
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            mark.kind.glyph().to_string(),
            (x, left_max),
            font(10.0).color(&color),
        )))?;
    }

    for series in &figure.series {
        let color = series.color;
        let stroke = ShapeStyle::from(&color).stroke_width(px(series.width));
        let points = series.points.iter().copied();
        match (series.style, series.axis) {
            (SeriesStyle::Area, Axis::Left) => {
                chart.draw_series(
                    AreaSeries::new(points, 0.0, color.mix(0.25)).border_style(stroke),
                )?;
            }
            (SeriesStyle::Area, Axis::Right) => {
                chart.draw_secondary_series(
                    AreaSeries::new(points, 0.0, color.mix(0.25)).border_style(stroke),
                )?;
            }
            (SeriesStyle::Line, Axis::Left) => {
                chart.draw_series(LineSeries::new(points, stroke))?;
            }
            (SeriesStyle::Line, Axis::Right) => {
                chart.draw_secondary_series(LineSeries::new(points, stroke))?;
            }
        }
    }
    root.present()?;
    Ok(())
}

/// Sizes `canvas`'s backing store to its CSS size × `dpr` and returns a backend drawing on
/// it; `None` while the canvas has no size (hidden or not laid out yet).
pub(crate) fn canvas_backend(
    canvas: &web_sys::HtmlCanvasElement,
    dpr: f64,
) -> Result<Option<plotters_canvas::CanvasBackend>, DrawError> {
    let (css_w, css_h) = (
        f64::from(canvas.client_width()),
        f64::from(canvas.client_height()),
    );
    if css_w <= 0.0 || css_h <= 0.0 {
        return Ok(None);
    }
    let (w, h) = ((css_w * dpr).round() as u32, (css_h * dpr).round() as u32);
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    plotters_canvas::CanvasBackend::with_canvas_object(canvas.clone())
        .map(Some)
        .ok_or_else(|| DrawError("canvas has no 2D context".into()))
}

/// Sizes `canvas`'s backing store to its CSS size × `dpr` and draws `figure` on it.
pub fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    figure: &Figure,
    theme: &Theme,
    dpr: f64,
) -> Result<(), DrawError> {
    match canvas_backend(canvas, dpr)? {
        Some(backend) => draw_on(&backend.into_drawing_area(), figure, theme, dpr),
        None => Ok(()),
    }
}
