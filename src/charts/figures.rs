//! What each chart shows, computed from the core's history: series, guides and marks. Pure
//! data, so it is tested natively; the text comes from the caller's message catalog.

use oncall_sim::{Event, EventKind, MinuteRecord};

use crate::format::{self, AxisUnit};
use crate::i18n::Locale;
use crate::theme::Rgb;

/// Which y axis a series or guide belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    Left,
    Right,
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesStyle {
    Line,
    Area,
}

/// Units of an axis, which decide its labels and its smallest range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    RequestsPerSecond,
    Milliseconds,
    /// A fraction shown as a percentage.
    Percent,
    Times,
    Instances,
    DollarsPerHour,
    Dollars,
}

impl Unit {
    /// Axis label for value `v`, in the page's language.
    pub fn format(self, v: f64) -> String {
        let unit = match self {
            Unit::Percent => AxisUnit::Percent,
            Unit::Times => AxisUnit::Times,
            Unit::DollarsPerHour | Unit::Dollars => AxisUnit::Dollars,
            Unit::Milliseconds => AxisUnit::Milliseconds,
            Unit::RequestsPerSecond | Unit::Instances => AxisUnit::Plain,
        };
        format::axis_label(Locale::page(), unit, v)
    }

    /// Smallest top of the axis, so a quiet chart is not all noise.
    fn floor_max(self) -> f64 {
        match self {
            Unit::Percent => 0.05,
            Unit::Times => 20.0,
            Unit::Milliseconds => 500.0,
            Unit::Instances => 5.0,
            Unit::RequestsPerSecond => 100.0,
            Unit::DollarsPerHour | Unit::Dollars => 1.0,
        }
    }
}

/// One line or area.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub color: Rgb,
    pub axis: Axis,
    pub style: SeriesStyle,
    /// Line width in CSS pixels.
    pub width: f64,
    /// (minute, value), decimated to what the canvas can show.
    pub points: Vec<(f64, f64)>,
    /// The region whose line this is: drawn in the theme's colour of that region instead of
    /// `color` (which is the light theme's).
    pub region: Option<usize>,
}

/// A horizontal reference line (the timeout, the page threshold).
#[derive(Clone, Debug, PartialEq)]
pub struct Guide {
    pub label: String,
    pub value: f64,
    pub axis: Axis,
    pub color: Rgb,
}

/// Kinds of marks on the time axis; the index picks the theme's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Deploy = 0,
    Page = 1,
    Action = 2,
}

impl MarkKind {
    /// A one-character label drawn at the top of the mark (the legend explains them).
    pub fn glyph(self) -> &'static str {
        match self {
            MarkKind::Deploy => "D",
            MarkKind::Page => "!",
            MarkKind::Action => "▲",
        }
    }
}

/// An instant on the time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub minute: u32,
    pub kind: MarkKind,
}

/// Marks from the core's events: deploys, pages fired, the user's actions.
pub fn marks(events: &[Event]) -> Vec<Mark> {
    let mut out: Vec<Mark> = events
        .iter()
        .filter_map(|e| {
            let kind = match e.kind {
                EventKind::Deploy { .. } => MarkKind::Deploy,
                EventKind::PageFired { .. } => MarkKind::Page,
                EventKind::Action { .. } => MarkKind::Action,
                _ => return None,
            };
            Some(Mark {
                minute: e.minute,
                kind,
            })
        })
        .collect();
    out.dedup();
    out
}

/// Axis description.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisSpec {
    pub unit: Unit,
}

impl AxisSpec {
    pub fn format(&self, v: f64) -> String {
        self.unit.format(v)
    }
}

/// Everything one chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Stable id (also the canvas's test id).
    pub id: &'static str,
    pub left: AxisSpec,
    pub right: AxisSpec,
    pub series: Vec<Series>,
    pub guides: Vec<Guide>,
    pub marks: Vec<Mark>,
    /// Time of day at minute 0, minutes after midnight.
    pub clock_min: u32,
    /// First minute the x axis shows (the first minute drawn: a window starts later).
    pub start: f64,
    /// Last minute the x axis shows.
    pub span: f64,
    /// The label of a midnight the run has crossed, placeholder `{n}`: the day's number.
    pub day_label: String,
}

impl Figure {
    pub fn x_range(&self) -> (f64, f64) {
        (self.start, self.span.max(self.start + 1.0))
    }

    /// Top of an axis: the largest value drawn on it (guides included) with some headroom.
    pub fn axis_max(&self, axis: Axis) -> f64 {
        let unit = if axis == Axis::Left {
            self.left.unit
        } else {
            self.right.unit
        };
        let data = self
            .series
            .iter()
            .filter(|s| s.axis == axis)
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .chain(
                self.guides
                    .iter()
                    .filter(|g| g.axis == axis)
                    .map(|g| g.value),
            )
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        (data * 1.15).max(unit.floor_max())
    }

    /// Minutes of the x axis that get a clock label (bold) and a grid line only (light): on
    /// whole clock steps (every 5, 10, 15, 30 minutes, hours…), at most `max_labels` labels.
    pub fn time_ticks(&self, max_labels: usize) -> (Vec<f64>, Vec<f64>) {
        const STEPS: [u32; 12] = [5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080];
        let (x0, x1) = self.x_range();
        let span = x1 - x0;
        let max_labels = max_labels.max(2) as f64;
        let step = STEPS
            .iter()
            .copied()
            .find(|s| (span / f64::from(*s)).floor() + 1.0 <= max_labels)
            .unwrap_or(STEPS[STEPS.len() - 1]);
        let light_step = match step {
            5 => 1,
            10 | 15 | 30 => 5,
            60 => 15,
            120 | 180 => 30,
            360 | 720 => 60,
            _ => step / 4,
        };
        let on = |every: u32| -> Vec<f64> {
            // The first minute whose time of day is a multiple of `every`.
            let offset = (every - self.clock_min % every) % every;
            let mut out = Vec::new();
            let mut m = f64::from(offset);
            while m <= x1 {
                if m >= x0 {
                    out.push(m);
                }
                m += f64::from(every);
            }
            out
        };
        (on(step), on(light_step))
    }

    /// "HH:MM" of minute `m`, or the day's name at a midnight the run has crossed (so that
    /// the ticks of a run of several days do not all read "00:00").
    pub fn clock_label(&self, m: f64) -> String {
        let t = i64::from(self.clock_min) + m.round() as i64;
        if t >= 24 * 60 && t % (24 * 60) == 0 {
            let day = t / (24 * 60) + 1;
            return self.day_label.replace("{n}", &day.to_string());
        }
        format::clock(t)
    }
}

/// Keys of the text the charts need; the caller maps them to its catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartText {
    Requests,
    Capacity,
    P99,
    ErrorRate,
    Timeouts,
    /// Placeholder `{value}`: the timeout in seconds.
    TimeoutGuide,
    BudgetLeft,
    BurnRate1h,
    BurnRate5m,
    /// Placeholder `{value}`: the page threshold.
    PageGuide,
    /// Placeholder `{n}`: a day's number (a tick at midnight).
    Day,
    CacheHit,
    DbUtilization,
    Serving,
    Booting,
    FleetCost,
    CostSoFar,
}

// The series' palette, readable on white and on near-black.
use crate::theme::series::{BLUE, GREEN, GREY, ORANGE, PURPLE, RED, TEAL};

/// At most this many points per series: about two per CSS pixel of a wide chart.
pub const MAX_POINTS: usize = 1200;

/// Keeps spikes visible while thinning a long series: each bucket contributes its minimum and
/// its maximum, in time order.
pub fn decimate(points: Vec<(f64, f64)>, max_points: usize) -> Vec<(f64, f64)> {
    if points.len() <= max_points || max_points < 4 {
        return points;
    }
    let buckets = max_points / 2;
    let size = points.len().div_ceil(buckets);
    let mut out = Vec::with_capacity(buckets * 2);
    for chunk in points.chunks(size) {
        let lo = chunk
            .iter()
            .copied()
            .fold(chunk[0], |a, b| if b.1 < a.1 { b } else { a });
        let hi = chunk
            .iter()
            .copied()
            .fold(chunk[0], |a, b| if b.1 > a.1 { b } else { a });
        if lo.0 <= hi.0 {
            out.extend([lo, hi]);
        } else {
            out.extend([hi, lo]);
        }
    }
    out.dedup();
    out
}

struct Builder<'a> {
    history: &'a [MinuteRecord],
    text: &'a dyn Fn(ChartText) -> String,
}

impl Builder<'_> {
    fn series(
        &self,
        key: ChartText,
        color: Rgb,
        axis: Axis,
        style: SeriesStyle,
        f: impl Fn(&MinuteRecord) -> f64,
    ) -> Series {
        let points = self
            .history
            .iter()
            .map(|r| (f64::from(r.minute), f(r)))
            .collect();
        Series {
            label: (self.text)(key),
            color,
            axis,
            style,
            width: if style == SeriesStyle::Area { 1.5 } else { 2.0 },
            points: decimate(points, MAX_POINTS),
            region: None,
        }
    }
}

/// The console's charts, in display order: one unit each, so no line is read against another
/// line's axis (the policy comparison draws its own, with two axes where it must).
/// The first and the last minute of the time axis for the minutes `shown`: from the first
/// one drawn to the last, at least half an hour long.
pub fn time_axis(shown: &[MinuteRecord]) -> (f64, f64) {
    let start = shown.first().map_or(0.0, |r| f64::from(r.minute));
    let span = shown
        .last()
        .map_or(30.0, |r| f64::from(r.minute).max(start + 30.0));
    (start, span)
}

pub fn figures(
    history: &[MinuteRecord],
    events: &[Event],
    clock_min: u32,
    timeout_s: f64,
    text: &dyn Fn(ChartText) -> String,
) -> Vec<Figure> {
    let b = Builder { history, text };
    let marks = marks(events);
    let (start, span) = time_axis(history);
    let day_label = text(ChartText::Day);
    let figure = |id, left, right, series, guides| Figure {
        id,
        left: AxisSpec { unit: left },
        right: AxisSpec { unit: right },
        series,
        guides,
        marks: marks.clone(),
        clock_min,
        start,
        span,
        day_label: day_label.clone(),
    };
    use Axis::Left;
    use ChartText as T;
    use SeriesStyle::{Area, Line};
    let plain = |x| format::plain(Locale::page(), x);
    let timeout_label = text(T::TimeoutGuide).replace("{value}", &plain(timeout_s));
    let page_label = text(T::PageGuide).replace("{value}", &plain(oncall_sim::budget::PAGE_BURN));
    vec![
        figure(
            "traffic",
            Unit::RequestsPerSecond,
            Unit::RequestsPerSecond,
            vec![
                b.series(T::Requests, BLUE, Left, Area, |r| r.requests_per_s),
                b.series(T::Capacity, GREEN, Left, Line, |r| r.capacity_per_s),
            ],
            vec![],
        ),
        figure(
            "latency",
            Unit::Milliseconds,
            Unit::Milliseconds,
            vec![b.series(T::P99, ORANGE, Left, Line, |r| r.p99_ms)],
            vec![Guide {
                label: timeout_label,
                value: timeout_s * 1000.0,
                axis: Left,
                color: ORANGE,
            }],
        ),
        figure(
            "errors",
            Unit::Percent,
            Unit::Percent,
            vec![
                b.series(T::ErrorRate, RED, Left, Line, |r| r.error_rate),
                b.series(T::Timeouts, PURPLE, Left, Line, |r| r.timeout_share),
            ],
            vec![],
        ),
        // Both windows of the multiwindow rule against its threshold: the page fires when
        // both lines are above it and resolves when either falls below.
        figure(
            "burn",
            Unit::Times,
            Unit::Times,
            vec![
                b.series(T::BurnRate1h, RED, Left, Line, |r| r.burn_rate_1h),
                b.series(T::BurnRate5m, ORANGE, Left, Line, |r| r.burn_rate_5m),
            ],
            vec![Guide {
                label: page_label,
                value: oncall_sim::budget::PAGE_BURN,
                axis: Left,
                color: RED,
            }],
        ),
        figure(
            "budget",
            Unit::Percent,
            Unit::Percent,
            vec![b.series(T::BudgetLeft, GREEN, Left, Area, |r| r.budget_left.max(0.0))],
            vec![],
        ),
        figure(
            "cache",
            Unit::Percent,
            Unit::Percent,
            vec![
                b.series(T::CacheHit, TEAL, Left, Line, |r| r.cache_hit),
                b.series(T::DbUtilization, ORANGE, Left, Line, |r| r.db_utilization),
            ],
            vec![],
        ),
        figure(
            "instances",
            Unit::Instances,
            Unit::Instances,
            vec![
                b.series(T::Serving, BLUE, Left, Area, |r| f64::from(r.serving)),
                b.series(T::Booting, GREY, Left, Line, |r| f64::from(r.booting)),
            ],
            vec![],
        ),
        figure(
            "cost",
            Unit::DollarsPerHour,
            Unit::DollarsPerHour,
            vec![b.series(T::FleetCost, PURPLE, Left, Line, |r| r.fleet_cost_per_hour)],
            vec![],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use oncall_sim::{ModelParams, Simulation};

    fn label(t: ChartText) -> String {
        match t {
            ChartText::Day => "Day {n}".to_owned(),
            _ => format!("{t:?}"),
        }
    }

    #[test]
    fn one_unit_per_figure_with_marks_and_guides() {
        let s = oncall_sim::exercise::scenario_by_id("bad-deploy").unwrap();
        let mut sim = Simulation::new(&s, 7, ModelParams::default());
        sim.schedule([oncall_sim::Action::parse("40:rollback", 100).unwrap()]);
        sim.run(60);
        let figs = figures(sim.history(), sim.events(), s.clock_min, 2.0, &label);
        let ids: Vec<&str> = figs.iter().map(|f| f.id).collect();
        assert_eq!(
            ids,
            [
                "traffic",
                "latency",
                "errors",
                "burn",
                "budget",
                "cache",
                "instances",
                "cost"
            ]
        );
        // One unit per chart: nothing on a second axis.
        assert!(figs.iter().all(|f| f.left.unit == f.right.unit
            && f.series.iter().all(|s| s.axis == Axis::Left)
            && f.guides.iter().all(|g| g.axis == Axis::Left)));
        let kinds: Vec<MarkKind> = figs[0].marks.iter().map(|m| m.kind).collect();
        assert!(
            kinds.contains(&MarkKind::Deploy)
                && kinds.contains(&MarkKind::Page)
                && kinds.contains(&MarkKind::Action)
        );
        assert_eq!(figs[1].guides[0].value, 2000.0);
        // Both burn windows against the page threshold.
        assert_eq!(figs[3].series.len(), 2);
        assert_eq!(figs[3].guides[0].value, 14.4);
        assert!(figs[3].axis_max(Axis::Left) >= 14.4);
        assert_eq!(figs[0].clock_label(10.0), "09:10");
        assert!(figs
            .iter()
            .all(|f| f.series.iter().all(|s| s.points.len() == 60)));
    }

    #[test]
    fn midnights_a_run_crosses_are_named_by_their_day() {
        let s = oncall_sim::exercise::scenario_by_id("free-play").unwrap();
        let mut sim = Simulation::new(&s, 3, ModelParams::default());
        sim.run(3000);
        let figs = figures(sim.history(), sim.events(), s.clock_min, 2.0, &label);
        let f = &figs[0];
        let first_midnight = f64::from(24 * 60 - s.clock_min % (24 * 60));
        assert_eq!(f.clock_label(first_midnight), "Day 2");
        assert_eq!(f.clock_label(first_midnight + 1440.0), "Day 3");
        assert_eq!(f.clock_label(first_midnight + 60.0), "01:00");
        let (bold, _) = f.time_ticks(6);
        let labels: Vec<String> = bold.iter().map(|m| f.clock_label(*m)).collect();
        assert!(labels.iter().any(|l| l == "Day 2"), "{labels:?}");
        assert!(
            labels.iter().filter(|l| *l == "00:00").count() <= 1,
            "{labels:?}"
        );
    }

    #[test]
    fn a_window_starts_the_axis_at_its_first_minute() {
        let s = oncall_sim::exercise::scenario_by_id("bad-deploy").unwrap();
        let mut sim = Simulation::new(&s, 7, ModelParams::default());
        sim.run(100);
        let last_hour = &sim.history()[40..];
        let figs = figures(last_hour, sim.events(), s.clock_min, 2.0, &label);
        assert_eq!(figs[0].x_range(), (40.0, 99.0));
        assert!(figs.iter().all(|f| f
            .series
            .iter()
            .all(|s| s.points.len() == 60 && s.points[0].0 == 40.0)));
        assert_eq!(figs[0].clock_label(40.0), "09:40");
    }

    #[test]
    fn time_ticks_fall_on_whole_clock_steps() {
        let s = oncall_sim::exercise::scenario_by_id("bad-deploy").unwrap();
        let mut sim = Simulation::new(&s, 7, ModelParams::default());
        sim.run(10);
        let mut figs = figures(sim.history(), sim.events(), 9 * 60 + 7, 2.0, &label);
        figs[0].span = 119.0;
        let (bold, light) = figs[0].time_ticks(5);
        let labels: Vec<String> = bold.iter().map(|m| figs[0].clock_label(*m)).collect();
        assert_eq!(labels, ["09:30", "10:00", "10:30", "11:00"]);
        assert!(light.len() > bold.len());
        assert!(light
            .iter()
            .all(|m| (9 * 60 + 7 + *m as u32).is_multiple_of(5)));
        figs[0].span = 1439.0;
        let (bold, _) = figs[0].time_ticks(5);
        assert!(bold.len() <= 5 && bold.len() >= 3, "{bold:?}");
    }

    #[test]
    fn small_sums_keep_their_cents() {
        // Money is written as in the metrics table: the amount, then the currency.
        assert_eq!(Unit::Dollars.format(1.5), "1.50 $");
        assert_eq!(Unit::Dollars.format(2.0), "2 $");
        assert_eq!(Unit::DollarsPerHour.format(40.0), "40 $");
    }

    #[test]
    fn decimation_keeps_spikes_and_order() {
        let mut pts: Vec<(f64, f64)> = (0..10_000).map(|i| (f64::from(i), 1.0)).collect();
        pts[5_000].1 = 99.0;
        let d = decimate(pts, 400);
        assert!(d.len() <= 400);
        assert!(d.iter().any(|p| p.1 == 99.0));
        assert!(d.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
