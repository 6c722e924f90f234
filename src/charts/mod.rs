//! Live charts drawn on HTML canvases.
//!
//! [`figures`] turns the core's history into one [`Figure`] per chart (pure data, testable
//! natively); [`draw`] paints a figure on a canvas, sized for the device pixel ratio so lines
//! and text stay crisp on HiDPI screens. Errors become messages only at the boundary.
//!
//! The charts are lines, filled areas, dashed guides, tick labels and a grid, which the
//! canvas's own 2D context draws directly ([`Frame`]). A charting library did the same with a
//! tenth of the page's download (its generic coordinate and backend layers), so it went.

pub mod figures;
pub mod overlay;
#[cfg(feature = "extended")]
pub mod regions;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::CanvasRenderingContext2d as Context;

pub use figures::{Axis, Figure, Guide, Mark, MarkKind, Series, SeriesStyle};

use crate::theme::{self, Rgb};

/// Colours of the page's light or dark theme, as the charts use them: the panel they sit on,
/// its text and lines, and the event families' colours for the marks. All come from the
/// page's tokens ([`crate::theme`]), so a chart matches the panel and the event log around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub background: Rgb,
    pub text: Rgb,
    pub grid: Rgb,
    /// Indexed by [`MarkKind`]: deploy, page, the player's action.
    pub marks: [Rgb; 3],
    /// Each region's line (a, b, c).
    pub regions: [Rgb; 3],
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
        regions: [
            theme::light("--region-a"),
            theme::light("--region-b"),
            theme::light("--region-c"),
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
        regions: [
            theme::dark("--region-a"),
            theme::dark("--region-b"),
            theme::dark("--region-c"),
        ],
    };
}

impl Theme {
    /// The colour `series` is drawn in: its region's in this theme, else its own.
    pub fn color_of(&self, series: &Series) -> Rgb {
        series
            .region
            .and_then(|r| self.regions.get(r))
            .copied()
            .unwrap_or(series.color)
    }
}

/// Why a chart could not be drawn.
#[derive(Debug)]
pub struct DrawError(pub String);

impl From<JsValue> for DrawError {
    fn from(e: JsValue) -> Self {
        DrawError(e.as_string().unwrap_or_else(|| "canvas error".into()))
    }
}

/// Where a chart's plot area sits on its canvas, and how minutes and values map onto it. All
/// lengths are canvas pixels: CSS pixels × the device pixel ratio (`scale`).
pub(crate) struct Frame {
    ctx: Context,
    scale: f64,
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    x_range: (f64, f64),
    /// Top of the left and of the right axis (both start at zero).
    max: [f64; 2],
}

impl Frame {
    /// A length of `css` CSS pixels on the canvas.
    fn px(&self, css: f64) -> f64 {
        (css * self.scale).round().max(1.0)
    }

    fn x(&self, minute: f64) -> f64 {
        let (x0, x1) = self.x_range;
        let share = if x1 > x0 {
            (minute - x0) / (x1 - x0)
        } else {
            0.0
        };
        self.left + share * self.width
    }

    fn y(&self, axis: Axis, value: f64) -> f64 {
        let max = self.max[axis as usize];
        let share = if max > 0.0 { value / max } else { 0.0 };
        self.top + self.height * (1.0 - share)
    }

    /// Top of `axis`.
    pub(crate) fn max(&self, axis: Axis) -> f64 {
        self.max[axis as usize]
    }

    pub(crate) fn x_range(&self) -> (f64, f64) {
        self.x_range
    }

    /// Line width (CSS pixels), colour, opacity and dash pattern (CSS pixels, empty: solid)
    /// of the next strokes.
    pub(crate) fn pen(&self, width: f64, color: Rgb, alpha: f64, dash: &[f64]) {
        self.ctx.set_line_width(self.px(width));
        self.ctx.set_stroke_style_str(&theme::css(color));
        self.ctx.set_global_alpha(alpha);
        let pattern: js_sys::Array = dash.iter().map(|d| JsValue::from(self.px(*d))).collect();
        // Only fails for a pattern with a negative or non-finite length.
        let _ = self.ctx.set_line_dash(&pattern);
    }

    /// Strokes the line through `points` (minute, value) on `axis`, clipped to the plot area.
    pub(crate) fn line(&self, axis: Axis, points: &[(f64, f64)]) {
        self.ctx.save();
        self.clip();
        self.path(axis, points);
        self.ctx.stroke();
        self.ctx.restore();
    }

    /// Fills the area between `points` and zero in `color` at `alpha`, then strokes its top
    /// edge with the current pen.
    pub(crate) fn area(&self, axis: Axis, points: &[(f64, f64)], color: Rgb, alpha: f64) {
        let (Some(first), Some(last)) = (points.first(), points.last()) else {
            return;
        };
        self.ctx.save();
        self.clip();
        self.path(axis, points);
        self.ctx.line_to(self.x(last.0), self.y(axis, 0.0));
        self.ctx.line_to(self.x(first.0), self.y(axis, 0.0));
        self.ctx.close_path();
        self.ctx.set_fill_style_str(&theme::css(color));
        let stroke_alpha = self.ctx.global_alpha();
        self.ctx.set_global_alpha(alpha);
        self.ctx.fill();
        self.ctx.set_global_alpha(stroke_alpha);
        self.path(axis, points);
        self.ctx.stroke();
        self.ctx.restore();
    }

    fn path(&self, axis: Axis, points: &[(f64, f64)]) {
        self.ctx.begin_path();
        for (i, &(m, v)) in points.iter().enumerate() {
            let (x, y) = (self.x(m), self.y(axis, v));
            if i == 0 {
                self.ctx.move_to(x, y);
            } else {
                self.ctx.line_to(x, y);
            }
        }
    }

    fn clip(&self) {
        self.ctx.begin_path();
        self.ctx.rect(self.left, self.top, self.width, self.height);
        self.ctx.clip();
    }

    /// A straight segment between two canvas points with the current pen.
    fn segment(&self, from: (f64, f64), to: (f64, f64)) {
        self.ctx.begin_path();
        self.ctx.move_to(from.0, from.1);
        self.ctx.line_to(to.0, to.1);
        self.ctx.stroke();
    }

    /// A horizontal dashed guide across the plot on `axis`, labelled above its right end.
    pub(crate) fn guide(&self, guide: &Guide, alpha: f64, dash: &[f64]) {
        let y = self.y(guide.axis, guide.value);
        self.pen(1.0, guide.color, alpha, dash);
        self.segment((self.left, y), (self.left + self.width, y));
        self.text(
            &guide.label,
            (self.left + self.width, y),
            10.0,
            guide.color,
            ("right", "bottom"),
        );
    }

    /// `text` at a canvas point; `anchor` is the canvas's (text-align, text-baseline).
    /// A filled circle of 3 CSS pixels' radius, ringed in the background colour.
    fn dot(&self, at: (f64, f64), color: Rgb) {
        let ctx = &self.ctx;
        ctx.begin_path();
        let _ = ctx.arc(at.0, at.1, self.px(3.0), 0.0, std::f64::consts::TAU);
        ctx.set_global_alpha(1.0);
        ctx.set_fill_style_str(&theme::css(color));
        ctx.fill();
    }

    fn text(&self, text: &str, at: (f64, f64), size: f64, color: Rgb, anchor: (&str, &str)) {
        self.ctx.set_global_alpha(1.0);
        self.ctx
            .set_font(&format!("{}px {}", size * self.scale, canvas_fonts()));
        self.ctx.set_fill_style_str(&theme::css(color));
        self.ctx.set_text_align(anchor.0);
        self.ctx.set_text_baseline(anchor.1);
        // Only fails for a non-finite position, which the frame never computes.
        let _ = self.ctx.fill_text(text, at.0, at.1);
    }
}

/// Round steps for a value axis from zero to `max` with about `labels` labels: 1, 2 or 5
/// times a power of ten.
fn value_ticks(max: f64, labels: f64) -> Vec<f64> {
    if !(max.is_finite() && max > 0.0) {
        return vec![0.0];
    }
    let raw = max / labels;
    // The largest power of ten not above `raw`.
    let mut magnitude = 1.0;
    while magnitude > raw {
        magnitude /= 10.0;
    }
    while magnitude * 10.0 <= raw {
        magnitude *= 10.0;
    }
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|f| f * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    (0..)
        .map(|i| f64::from(i) * step)
        .take_while(|v| *v <= max * (1.0 + 1e-9))
        .collect()
}

/// Margins of the plot area in CSS pixels, left and right: room for the tick labels of the
/// left axis, and of the right axis when a series uses it.
fn margins_css(figure: &Figure) -> (f64, f64) {
    let has_right = figure.series.iter().any(|s| s.axis == Axis::Right);
    (50.0, if has_right { 50.0 } else { 12.0 })
}

/// The minute under a point `x_css` CSS pixels from the left edge of a chart `width_css`
/// wide (clamped to the axis).
pub fn minute_at(figure: &Figure, width_css: f64, x_css: f64) -> f64 {
    let (left, right) = margins_css(figure);
    let plot = (width_css - left - right).max(1.0);
    let share = ((x_css - left) / plot).clamp(0.0, 1.0);
    let (x0, x1) = figure.x_range();
    x0 + share * (x1 - x0)
}

/// How far from the left edge of a chart `width_css` wide minute `minute` is drawn, in CSS
/// pixels.
pub fn x_of_minute(figure: &Figure, width_css: f64, minute: f64) -> f64 {
    let (left, right) = margins_css(figure);
    let plot = (width_css - left - right).max(1.0);
    let (x0, x1) = figure.x_range();
    let share = if x1 > x0 {
        (minute - x0) / (x1 - x0)
    } else {
        0.0
    };
    left + share * plot
}

/// The value of a series at `minute`, between the drawn points around it; `None` outside them.
pub fn value_at(points: &[(f64, f64)], minute: f64) -> Option<f64> {
    let after = points.partition_point(|(m, _)| *m < minute);
    let (m1, v1) = *points.get(after)?;
    if m1 == minute || after == 0 {
        return (m1 == minute).then_some(v1);
    }
    let (m0, v0) = points[after - 1];
    Some(v0 + (v1 - v0) * (minute - m0) / (m1 - m0))
}

/// Fills the background and draws the axes, the grid and the tick labels of `figure`: what the
/// live charts and the comparison overlays share.
pub(crate) fn frame(ctx: Context, figure: &Figure, theme: &Theme, scale: f64) -> Frame {
    let canvas_w = ctx.canvas().map_or(0.0, |c| f64::from(c.width()));
    let canvas_h = ctx.canvas().map_or(0.0, |c| f64::from(c.height()));
    let has_right = figure.series.iter().any(|s| s.axis == Axis::Right);
    let px = |css: f64| (css * scale).round();
    let (left, right) = margins_css(figure);
    let (left, right) = (px(left), px(right));
    let (top, bottom) = (px(6.0), px(2.0) + px(22.0));
    let frame = Frame {
        ctx,
        scale,
        left,
        top,
        width: (canvas_w - left - right).max(1.0),
        height: (canvas_h - top - bottom).max(1.0),
        x_range: figure.x_range(),
        max: [figure.axis_max(Axis::Left), figure.axis_max(Axis::Right)],
    };
    let ctx = &frame.ctx;
    ctx.set_global_alpha(1.0);
    ctx.set_fill_style_str(&theme::css(theme.background));
    ctx.fill_rect(0.0, 0.0, canvas_w, canvas_h);

    let (plot_top, plot_bottom) = (frame.top, frame.top + frame.height);
    let (plot_left, plot_right) = (frame.left, frame.left + frame.width);
    // Clock-friendly ticks: about one label per 60 CSS pixels of plot.
    let width_css = canvas_w / scale;
    let (bold, light) = figure.time_ticks(((width_css - 60.0) / 60.0).clamp(2.0, 10.0) as usize);
    frame.pen(1.0, theme.grid, 0.5, &[]);
    for m in &light {
        let x = frame.x(*m).round();
        frame.segment((x, plot_top), (x, plot_bottom));
    }
    let left_ticks = value_ticks(frame.max[0], 5.0);
    for pair in left_ticks.windows(2) {
        let y = frame.y(Axis::Left, (pair[0] + pair[1]) / 2.0).round();
        frame.segment((plot_left, y), (plot_right, y));
    }
    frame.pen(1.0, theme.grid, 1.0, &[]);
    for m in &bold {
        let x = frame.x(*m).round();
        frame.segment((x, plot_top), (x, plot_bottom));
    }
    for v in &left_ticks {
        let y = frame.y(Axis::Left, *v).round();
        frame.segment((plot_left, y), (plot_right, y));
    }
    // The axes.
    frame.segment((plot_left, plot_top), (plot_left, plot_bottom));
    frame.segment((plot_left, plot_bottom), (plot_right, plot_bottom));
    if has_right {
        frame.segment((plot_right, plot_top), (plot_right, plot_bottom));
    }

    let gap = px(6.0);
    for m in &bold {
        let label = figure.clock_label(*m);
        frame.text(
            &label,
            (frame.x(*m), plot_bottom + gap),
            11.0,
            theme.text,
            ("center", "top"),
        );
    }
    for v in &left_ticks {
        let label = figure.left.format(*v);
        let at = (plot_left - gap, frame.y(Axis::Left, *v));
        frame.text(&label, at, 11.0, theme.text, ("right", "middle"));
    }
    if has_right {
        for v in value_ticks(frame.max[1], 5.0) {
            let label = figure.right.format(v);
            let at = (plot_right + gap, frame.y(Axis::Right, v));
            frame.text(&label, at, 11.0, theme.text, ("left", "middle"));
        }
    }
    frame
}

/// Draws `figure` on a canvas's 2D context, with the crosshair at a minute if one is given.
/// `scale` is the device pixel ratio: sizes of text, lines and margins are multiplied by it.
fn draw_on(ctx: Context, figure: &Figure, theme: &Theme, scale: f64, crosshair: Option<f64>) {
    let frame = frame(ctx, figure, theme, scale);

    // Guides: the timeout, the page threshold.
    for guide in &figure.guides {
        if guide.value <= frame.max(guide.axis) {
            frame.guide(guide, 1.0, &[6.0, 4.0]);
        }
    }

    // Marks on the time axis: deploys, pages, the user's actions.
    let (x0, x1) = frame.x_range();
    for mark in &figure.marks {
        let color = theme.marks[mark.kind as usize];
        let minute = f64::from(mark.minute);
        if minute < x0 || minute > x1 {
            continue;
        }
        let x = frame.x(minute);
        frame.pen(1.0, color, 0.7, &[]);
        frame.segment((x, frame.top), (x, frame.top + frame.height));
        frame.text(
            mark.kind.glyph(),
            (x, frame.top),
            10.0,
            color,
            ("left", "top"),
        );
    }

    for series in &figure.series {
        let color = theme.color_of(series);
        frame.pen(series.width, color, 1.0, &[]);
        match series.style {
            SeriesStyle::Area => frame.area(series.axis, &series.points, color, 0.25),
            SeriesStyle::Line => frame.line(series.axis, &series.points),
        }
    }

    // The crosshair shared by all charts: a line at the minute and a dot on each series.
    if let Some(minute) = crosshair.filter(|m| *m >= x0 && *m <= x1) {
        let x = frame.x(minute);
        frame.pen(1.0, theme.text, 0.6, &[]);
        frame.segment((x, frame.top), (x, frame.top + frame.height));
        for series in &figure.series {
            if let Some(v) = value_at(&series.points, minute) {
                frame.dot((x, frame.y(series.axis, v)), theme.color_of(series));
            }
        }
    }
}

/// Sizes `canvas`'s backing store to its CSS size × `dpr` and returns its 2D context; `None`
/// while the canvas has no size (hidden or not laid out yet).
pub(crate) fn canvas_context(
    canvas: &web_sys::HtmlCanvasElement,
    dpr: f64,
) -> Result<Option<Context>, DrawError> {
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
    let ctx = canvas
        .get_context("2d")?
        .ok_or_else(|| DrawError("canvas has no 2D context".into()))?;
    Ok(Some(ctx.unchecked_into()))
}

/// Sizes `canvas`'s backing store to its CSS size × `dpr` and draws `figure` on it, with the
/// crosshair at a minute if one is given.
pub fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    figure: &Figure,
    theme: &Theme,
    dpr: f64,
    crosshair: Option<f64>,
) -> Result<(), DrawError> {
    if let Some(ctx) = canvas_context(canvas, dpr)? {
        draw_on(ctx, figure, theme, dpr, crosshair);
    }
    Ok(())
}

/// The canvas's font stack for the page's language: a canvas does not inherit the page's
/// stylesheet, so the scripts sans-serif may lack name their fonts here (as `tokens.css`).
fn canvas_fonts() -> &'static str {
    match crate::i18n::Locale::page() {
        crate::i18n::Locale::Ml => {
            "'Nirmala UI', 'Malayalam Sangam MN', 'Noto Sans Malayalam', Manjari, sans-serif"
        }
        crate::i18n::Locale::Zh => {
            "'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', sans-serif"
        }
        _ => "sans-serif",
    }
}

#[cfg(test)]
mod tests {
    use super::{minute_at, value_at, value_ticks, x_of_minute};
    use crate::charts::figures::{figures, ChartText};
    use oncall_sim::{ModelParams, Simulation};

    /// The pointer's minute and the crosshair's place are inverses of each other, on a chart
    /// with one axis (traffic's two series share it) and one with a right axis.
    #[test]
    fn the_crosshair_sits_at_the_pointers_minute() {
        let s = oncall_sim::exercise::scenario_by_id("bad-deploy").unwrap();
        let mut sim = Simulation::new(&s, 7, ModelParams::default());
        sim.run(90);
        let text = |_: ChartText| String::new();
        for figure in figures(sim.history(), sim.events(), 540, 2.0, &text) {
            let (x0, x1) = figure.x_range();
            for minute in [x0, 17.0, 45.5, x1] {
                let x = x_of_minute(&figure, 400.0, minute);
                assert!((minute_at(&figure, 400.0, x) - minute).abs() < 1e-9);
            }
            // Left of the plot is its first minute, right of it the last.
            assert_eq!(minute_at(&figure, 400.0, 0.0), x0);
            assert_eq!(minute_at(&figure, 400.0, 400.0), x1);
        }
    }

    #[test]
    fn a_series_value_between_its_points() {
        let points = [(0.0, 10.0), (2.0, 20.0), (4.0, 0.0)];
        assert_eq!(value_at(&points, 0.0), Some(10.0));
        assert_eq!(value_at(&points, 1.0), Some(15.0));
        assert_eq!(value_at(&points, 2.0), Some(20.0));
        assert_eq!(value_at(&points, 3.0), Some(10.0));
        assert_eq!(value_at(&points, 4.0), Some(0.0));
        assert_eq!(value_at(&points, -1.0), None);
        assert_eq!(value_at(&points, 4.5), None);
        assert_eq!(value_at(&[], 1.0), None);
    }

    #[test]
    fn value_ticks_are_round_and_cover_the_axis() {
        assert_eq!(
            value_ticks(100.0, 5.0),
            [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(value_ticks(0.05, 5.0).len(), 6);
        assert_eq!(value_ticks(1150.0, 5.0), [0.0, 500.0, 1000.0]);
        assert_eq!(value_ticks(0.0, 5.0), [0.0]);
        assert_eq!(value_ticks(f64::NAN, 5.0), [0.0]);
    }
}
