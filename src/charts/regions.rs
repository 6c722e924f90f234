//! One line per region on the traffic and instances charts, for a run with several regions
//! (the build with the extended models): the requests each region serves, and the instances
//! serving in each. The totals stay as they are; a run with one region gets no extra line.
//! Pure data from the core's `region_history`, tested natively.

use oncall_sim::regions::{self, RegionMinute};

use super::figures::{decimate, Axis, Figure, Series, SeriesStyle, MAX_POINTS};
use super::Theme;

/// What chart `chart`'s line of region `r` shows in one minute; `None` for the charts
/// without region lines.
pub fn value(chart: &str, r: &RegionMinute) -> Option<f64> {
    match chart {
        "traffic" => Some(r.requests_per_s),
        "instances" => Some(f64::from(r.serving)),
        _ => None,
    }
}

/// Whether chart `chart` draws a line per region.
pub fn has_lines(chart: &str) -> bool {
    matches!(chart, "traffic" | "instances")
}

/// The regions of a run whose lines the charts draw: none for a run with one region.
pub fn drawn(count: usize) -> std::ops::Range<usize> {
    0..if count > 1 { count } else { 0 }
}

/// Adds each region's line to the charts that have them. `minutes` are the regions' minutes
/// the charts show, the first being minute `first`; `label` names a region from its code
/// ("A").
pub fn add_lines(
    figures: &mut [Figure],
    first: u32,
    minutes: &[Vec<RegionMinute>],
    label: &dyn Fn(&str) -> String,
) {
    let count = minutes.first().map_or(0, Vec::len);
    for figure in figures.iter_mut().filter(|f| has_lines(f.id)) {
        for r in drawn(count) {
            let points = minutes
                .iter()
                .zip(first..)
                .filter_map(|(regions, m)| Some((f64::from(m), value(figure.id, regions.get(r)?)?)))
                .collect();
            figure.series.push(Series {
                label: label(&regions::code(r).to_uppercase()),
                color: Theme::LIGHT.regions[r.min(2)],
                axis: Axis::Left,
                style: SeriesStyle::Line,
                width: 1.5,
                points: decimate(points, MAX_POINTS),
                region: Some(r),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::figures::{figures, ChartText};
    use oncall_sim::ids::ScenarioId;
    use oncall_sim::setup::RunSetup;

    #[test]
    fn two_regions_add_a_line_each_to_traffic_and_instances() {
        let mut sim = RunSetup::new(ScenarioId::RegionalOutage, 1)
            .build()
            .unwrap();
        sim.run(45);
        assert_eq!(sim.region_history().len(), sim.history().len());
        let text = |k: ChartText| format!("{k:?}");
        let mut figs = figures(sim.history(), sim.events(), 0, 2.0, &text);
        let before: Vec<usize> = figs.iter().map(|f| f.series.len()).collect();
        add_lines(&mut figs, 0, sim.region_history(), &|c| {
            format!("Region {c}")
        });
        for (f, n) in figs.iter().zip(before) {
            let added = if has_lines(f.id) { 2 } else { 0 };
            assert_eq!(f.series.len(), n + added, "{}", f.id);
        }
        let traffic = &figs[0];
        let [a, b] = [&traffic.series[2], &traffic.series[3]];
        assert_eq!((a.label.as_str(), a.region), ("Region A", Some(0)));
        assert_eq!((b.label.as_str(), b.region), ("Region B", Some(1)));
        assert_eq!(a.points.len(), 45);
        // What the regions serve adds up to the total.
        let total = &traffic.series[0].points;
        for m in [5, 30, 44] {
            let sum = a.points[m].1 + b.points[m].1;
            assert!(
                (sum - total[m].1).abs() < 1e-6 * total[m].1.max(1.0),
                "minute {m}"
            );
        }
        // Region a loses most of its instances at seed 1's outage; b scales out.
        let instances = figs.iter().find(|f| f.id == "instances").unwrap();
        let (a, b) = (&instances.series[2].points, &instances.series[3].points);
        assert!(a[44].1 < a[20].1, "{:?} {:?}", a[20], a[44]);
        assert!(b[44].1 >= b[20].1, "{:?} {:?}", b[20], b[44]);
        // Drawn in the theme's colour of its region.
        let line = &instances.series[3];
        assert_eq!(Theme::DARK.color_of(line), Theme::DARK.regions[1]);
        assert_ne!(Theme::DARK.color_of(line), Theme::LIGHT.color_of(line));
    }

    #[test]
    fn one_region_adds_nothing() {
        let mut sim = RunSetup::new(ScenarioId::FreePlay, 1).build().unwrap();
        sim.run(10);
        let text = |k: ChartText| format!("{k:?}");
        let mut figs = figures(sim.history(), sim.events(), 0, 2.0, &text);
        let before = figs.clone();
        add_lines(&mut figs, 0, sim.region_history(), &|c| c.to_owned());
        assert_eq!(figs, before);
        assert!(drawn(1).is_empty());
    }
}
