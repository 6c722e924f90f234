//! The request-level panel: what the requests of the last minute did, when the request engine
//! serves them. Each instance's load as a bar, the latency histogram on a log axis with the
//! measured p50 and p99 and the formula's p99 marked, the hedges and the token bucket, and the
//! formula's figures beside the measured ones. Bars are HTML elements (no canvas), each panel
//! part has a text alternative.

use leptos::prelude::*;
use oncall_sim::engine::requests::{
    latency_bin_edge, RequestMinute, BINS_PER_OCTAVE, LATENCY_BINS,
};

use crate::components::run::use_run;
use crate::format::{format_value, Format, Value};
use crate::i18n::{t, tf, Msg};

fn num(format: Format, x: f64) -> String {
    format_value(format, Value::Number(x))
}

/// Where a time sits on the histogram's log axis, 0–100 % of its width, for the bins
/// `first..=last` drawn.
fn log_position(seconds: f64, first: usize, last: usize) -> f64 {
    let lo = latency_bin_edge(first).log10();
    let hi = latency_bin_edge(last + 1).log10();
    if seconds.is_nan() || seconds <= 0.0 || hi <= lo {
        return 0.0;
    }
    (100.0 * (seconds.log10() - lo) / (hi - lo)).clamp(0.0, 100.0)
}

/// The bins worth drawing: from the first with a request to the last, at least four
/// doublings wide.
fn drawn_bins(counts: &[u64; LATENCY_BINS]) -> Option<(usize, usize)> {
    let first = counts.iter().position(|&c| c > 0)?;
    let last = counts.iter().rposition(|&c| c > 0)?;
    let least = 4 * BINS_PER_OCTAVE as usize;
    let last = last.max(first + least - 1).min(LATENCY_BINS - 1);
    Some((first, last))
}

/// The instances' bars: height = utilization, a title with what each one did.
fn instance_bars(m: &RequestMinute) -> impl IntoView {
    m.instances
        .iter()
        .enumerate()
        .map(|(i, inst)| {
            let level = if !inst.serving {
                "off"
            } else if inst.utilization >= 0.95 {
                "critical"
            } else if inst.utilization >= 0.8 {
                "watch"
            } else {
                "ok"
            };
            let title = tf(
                Msg::RequestsInstanceTitle,
                &[
                    ("n", &(i + 1).to_string()),
                    ("served", &num(Format::Count, inst.served as f64)),
                    ("queue", &num(Format::Count, f64::from(inst.queue))),
                    (
                        "utilization",
                        &num(Format::Percent { decimals: 0 }, inst.utilization),
                    ),
                ],
            );
            let height = format!("{:.1}%", 100.0 * inst.utilization.clamp(0.0, 1.0));
            // The value over the bar, in percent (the axis says the unit).
            let value = format!("{:.0}", 100.0 * inst.utilization.clamp(0.0, 1.0));
            view! {
                <span class="instance-bar" data-level=level title=title>
                    <span class="value" aria-hidden="true">{value}</span>
                    <span class="fill" style:height=height></span>
                    <span class="number" aria-hidden="true">{(i + 1).to_string()}</span>
                </span>
            }
        })
        .collect_view()
}

/// The bars' axis: utilization at 0, 50 and 100 %.
fn utilization_axis() -> impl IntoView {
    [1.0, 0.5, 0.0]
        .into_iter()
        .map(|x| {
            let bottom = format!("{:.0}%", 100.0 * x);
            view! {
                <span class="axis-tick" style:bottom=bottom>
                    {num(Format::Percent { decimals: 0 }, x)}
                </span>
            }
        })
        .collect_view()
}

/// Bars too narrow to carry their value and number (more instances than this) show them on
/// hover and in the text alternative only.
const LABELLED_BARS: usize = 16;

/// The instances' load in words.
fn instances_alt(m: &RequestMinute) -> String {
    let serving: Vec<_> = m.instances.iter().filter(|i| i.serving).collect();
    let (lo, hi) = serving
        .iter()
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), i| {
            (lo.min(i.utilization), hi.max(i.utilization))
        });
    let busiest = m
        .instances
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.served.cmp(&b.1.served))
        .map_or(0, |(i, _)| i + 1);
    let pct = |x: f64| {
        num(
            Format::Percent { decimals: 0 },
            if x.is_finite() { x } else { 0.0 },
        )
    };
    tf(
        Msg::RequestsInstancesAlt,
        &[
            ("serving", &serving.len().to_string()),
            ("low", &pct(lo)),
            ("high", &pct(hi)),
            ("busiest", &busiest.to_string()),
        ],
    )
}

/// The latency histogram: a bar per bin, the decades labelled, p50, p99 and the formula's
/// p99 marked.
fn histogram(m: &RequestMinute) -> impl IntoView {
    let Some((first, last)) = drawn_bins(&m.latency.counts) else {
        return view! { <p class="muted">{t(Msg::RequestsNoneServed)}</p> }.into_any();
    };
    let counts = &m.latency.counts[first..=last];
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let bars = counts
        .iter()
        .map(|&c| {
            let h = format!("{:.1}%", 100.0 * c as f64 / top);
            view! { <span class="bin"><span style:height=h></span></span> }
        })
        .collect_view();
    let ms = |s: f64| num(Format::Milliseconds, 1000.0 * s);
    let marker = |class: &'static str, s: f64| {
        let left = format!("{:.1}%", log_position(s, first, last));
        view! { <span class=format!("marker {class}") style:left=left></span> }
    };
    // Ticks at the powers of ten inside the drawn range (1 ms, 10 ms, 100 ms, 1 s, …).
    let (lo, hi) = (latency_bin_edge(first), latency_bin_edge(last + 1));
    let decades = (-3..=3)
        .map(|e| 10f64.powi(e))
        .filter(|s| *s >= lo && *s <= hi)
        .map(|s| {
            let at = log_position(s, first, last);
            let left = format!("{at:.1}%");
            // A label at either end keeps inside the histogram's width.
            let end = if at > 90.0 {
                "end"
            } else if at < 10.0 {
                "start"
            } else {
                ""
            };
            view! { <span class=format!("tick {end}") style:left=left>{ms(s)}</span> }
        })
        .collect_view();
    view! {
        <div class="histogram" role="img" aria-label=tf(
            Msg::RequestsHistogramAlt,
            &[("p50", &ms(m.p50_s)), ("p99", &ms(m.p99_s)), ("formula", &ms(m.formula.p99_s))],
        )>
            <div class="bins">{bars}</div>
            {marker("p50", m.p50_s)}
            {marker("p99", m.p99_s)}
            {marker("theory", m.formula.p99_s)}
            <div class="ticks" aria-hidden="true">{decades}</div>
        </div>
        <ul class="histogram-keys" aria-hidden="true">
            <li class="p50">{tf(Msg::RequestsP50Mark, &[("value", &ms(m.p50_s))])}</li>
            <li class="p99">{tf(Msg::RequestsP99Mark, &[("value", &ms(m.p99_s))])}</li>
            <li class="theory">
                {tf(
                    if faulted(m) { Msg::RequestsBaselineP99Mark } else { Msg::RequestsFormulaP99Mark },
                    &[("value", &ms(m.formula.p99_s))],
                )}
            </li>
        </ul>
    }
    .into_any()
}

/// Whether an incident's fault the formulas leave out was in force in the minute (see
/// [`RequestMinute::slow`]): the formula is then the healthy fleet's baseline.
fn faulted(m: &RequestMinute) -> bool {
    m.slow.is_some() || m.hot_key_share > 0.0
}

/// One line per fault in force naming what the formulas leave out.
fn gaps(m: &RequestMinute) -> impl IntoView {
    let slow = m.slow.map(|fault| {
        tf(
            Msg::RequestsGapSlow,
            &[
                ("n", &(fault.instance + 1).to_string()),
                ("factor", &format!("{:.1}", fault.factor)),
            ],
        )
    });
    let hot = (m.hot_key_share > 0.0).then(|| {
        tf(
            Msg::RequestsGapHotKey,
            &[(
                "share",
                &num(Format::Percent { decimals: 0 }, m.hot_key_share),
            )],
        )
    });
    [slow, hot]
        .into_iter()
        .flatten()
        .map(|line| view! { <p class="muted" data-field="formula-gap">{line}</p> })
        .collect_view()
}

/// The formula's figures beside the measured ones; while a fault is in force the formula
/// column says it is the healthy baseline, and a line says what it leaves out.
fn side_by_side(m: &RequestMinute) -> impl IntoView {
    let pct = |x: f64| num(Format::Percent { decimals: 2 }, x);
    let ms = |s: f64| num(Format::Milliseconds, 1000.0 * s);
    let rows = [
        (
            Msg::MetricUtilization,
            pct(m.formula.utilization),
            pct(m.measured.utilization),
        ),
        (
            Msg::RequestsPWait,
            pct(m.formula.p_wait),
            pct(m.measured.p_wait),
        ),
        (
            Msg::MetricTimeouts,
            pct(m.formula.timeout_share),
            pct(m.measured.timeout_share),
        ),
        (
            Msg::RequestsRejected,
            pct(m.formula.rejected_share),
            pct(m.measured.rejected_share),
        ),
        (Msg::MetricP99, ms(m.formula.p99_s), ms(m.measured.p99_s)),
    ];
    let rows = rows
        .into_iter()
        .map(|(label, formula, measured)| {
            view! {
                <tr>
                    <th scope="row">{t(label)}</th>
                    <td>{formula}</td>
                    <td>{measured}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="side-by-side" data-field="formula-vs-requests">
            <caption>{t(Msg::RequestsSideBySide)}</caption>
            <thead>
                <tr>
                    <th scope="col">{t(Msg::MetricColumn)}</th>
                    <th scope="col">
                        {t(if faulted(m) { Msg::RequestsFormulaBaseline } else { Msg::RequestsFormula })}
                    </th>
                    <th scope="col">{t(Msg::RequestsMeasured)}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        {gaps(m)}
    }
}

/// The hedges of the minute and the bucket.
fn hedges(m: &RequestMinute) -> impl IntoView {
    let count = |x: u64| num(Format::Count, x as f64);
    let text = if m.hedging {
        tf(
            Msg::RequestsHedges,
            &[
                ("sent", &count(m.hedges.sent)),
                ("won", &count(m.hedges.won)),
                ("cancelled", &count(m.hedges.cancelled)),
                ("duplicates", &count(m.hedges.duplicates)),
                (
                    "tokens",
                    &num(Format::Count, m.tokens_left.unwrap_or(0.0).floor()),
                ),
            ],
        )
    } else {
        t(Msg::RequestsHedgingOff).to_owned()
    };
    view! { <p data-field="hedges">{text}</p> }
}

/// Host selection around health (Envoy's outlier detection, panic threshold and slow
/// start): the instances ejected and the ejections of the minute, panic, the instances in
/// their slow-start window; `outlier` and `slow_start` say which the run turned on.
fn host_selection(m: &RequestMinute, outlier: bool, slow_start: bool) -> impl IntoView {
    let h = m.hosts;
    let mut lines = Vec::new();
    if outlier {
        lines.push(tf(
            Msg::RequestsOutlier,
            &[
                ("ejected", &crate::i18n::instances(h.ejected)),
                ("ejections", &num(Format::Count, h.ejections as f64)),
            ],
        ));
    }
    if h.panic {
        lines.push(t(Msg::RequestsPanic).to_owned());
    }
    if slow_start && h.slow_start == 0 {
        lines.push(t(Msg::RequestsSlowStartNone).to_owned());
    } else if slow_start {
        lines.push(tf(
            Msg::RequestsSlowStart,
            &[("instances", &crate::i18n::instances(h.slow_start))],
        ));
    }
    if lines.is_empty() {
        lines.push(t(Msg::RequestsHostSelectionOff).to_owned());
    }
    let panic = h.panic.then_some("true");
    view! {
        <p data-field="host-selection" data-panic=panic>
            {lines.join(" ")}
        </p>
    }
}

/// The panel; nothing when the formulas serve.
#[component]
pub fn RequestsPanel() -> impl IntoView {
    let run = use_run();
    let minute = Memo::new(move |_| {
        run.snapshot.track();
        run.with(|c| c.sim().last_requests().cloned()).flatten()
    });
    let selection = Memo::new(move |_| {
        run.snapshot.track();
        run.with(|c| {
            let p = c.sim().params();
            (p.outlier_detection.is_on(), p.slow_start_window_s > 0.0)
        })
        .unwrap_or_default()
    });
    move || {
        let m = minute.get()?;
        let (outlier, slow_start) = selection.get();
        let count = |x: u64| num(Format::Count, x as f64);
        let summary = tf(
            Msg::RequestsSummary,
            &[
                ("arrivals", &count(m.arrivals)),
                ("served", &count(m.served)),
                ("timeouts", &count(m.timeouts)),
                ("rejected", &count(m.rejected)),
            ],
        );
        Some(view! {
            <section class="panel requests-panel" aria-labelledby="requests-heading" data-panel="requests">
                <div class="panel-head">
                    <h2 id="requests-heading">{t(Msg::RequestsHeading)}</h2>
                    <p class="muted">{summary}</p>
                </div>
                <div class="requests-grid">
                    <figure>
                        <figcaption>{t(Msg::RequestsInstances)}</figcaption>
                        <div class="instances-plot">
                            <div class="instances-axis" aria-hidden="true">{utilization_axis()}</div>
                            <div
                                class="instances"
                                role="img"
                                aria-label=instances_alt(&m)
                                data-labelled=(m.instances.len() <= LABELLED_BARS).to_string()
                            >
                                {instance_bars(&m)}
                            </div>
                        </div>
                    </figure>
                    <figure>
                        <figcaption>{t(Msg::RequestsLatency)}</figcaption>
                        {histogram(&m)}
                    </figure>
                    <div>
                        {side_by_side(&m)}
                        {hedges(&m)}
                        {host_selection(&m, outlier, slow_start)}
                    </div>
                </div>
            </section>
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_spans_its_requests_and_a_decade_at_least() {
        let mut counts = [0; LATENCY_BINS];
        assert_eq!(drawn_bins(&counts), None);
        counts[10] = 5;
        assert_eq!(drawn_bins(&counts), Some((10, 25)));
        counts[30] = 1;
        assert_eq!(drawn_bins(&counts), Some((10, 30)));
        // The ends of the drawn bins are the ends of the axis.
        assert_eq!(log_position(latency_bin_edge(10), 10, 30), 0.0);
        assert!((log_position(latency_bin_edge(31), 10, 30) - 100.0).abs() < 1e-9);
        assert!((log_position(latency_bin_edge(20), 10, 30) - 100.0 * 10.0 / 21.0).abs() < 1e-9);
    }
}
