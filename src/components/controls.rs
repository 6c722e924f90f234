use leptos::prelude::*;
use oncall_sim::action::{
    CACHE_TTL_RANGE, MIN_INSTANCES_RANGE, SHED_RANGE, TARGET_UTILIZATION_RANGE,
};
use oncall_sim::autoscale::lowest_minimum;
use oncall_sim::ActionKind;

use crate::components::run::{use_run, RunHandle};
use crate::format::{format_value, plain, Format, Value};
use crate::i18n::Locale;
use crate::i18n::{instances, policy_name_text, t, tf, Msg};

/// Positions of the cache-TTL slider: the range 1 s – 1 h is too wide for a linear slider.
pub const TTL_STOPS: [u32; 17] = [
    1, 5, 10, 15, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1200, 1800, 2700, 3600,
];

/// The slider position nearest to a TTL (a link may set any TTL in the range).
pub fn ttl_position(ttl_s: u32) -> usize {
    TTL_STOPS
        .iter()
        .enumerate()
        .min_by_key(|(_, stop)| stop.abs_diff(ttl_s))
        .map_or(0, |(i, _)| i)
}

/// A fraction from a slider, rounded to the slider's step (0.05) and kept in `range`.
fn fraction(position: f64, range: (f64, f64)) -> f64 {
    ((position * 100.0).round() / 100.0).clamp(range.0, range.1)
}

fn percent(x: f64) -> String {
    format_value(Format::Percent { decimals: 0 }, Value::Number(x))
}

/// Whether the link leaves the control out of the page (`controls=` in an embedding link).
/// The control is still rendered, hidden, so that the page's layout and shortcuts stay the
/// same; no style rule is written at run time (the page's content security policy forbids
/// one).
fn left_out(control: &str) -> bool {
    use_context::<crate::embed::EmbedOptions>().is_some_and(|o| !o.shows_control(control))
}

/// A slider that shows its value and unit, and emits its action when released (or at each
/// key press), not at every pixel of a drag.
#[component]
fn Slider(
    control: &'static str,
    label: Msg,
    #[prop(into)] help: Signal<String>,
    #[prop(into)] min: Signal<f64>,
    max: f64,
    step: f64,
    #[prop(into)] position: Signal<f64>,
    show: fn(f64) -> String,
    on_commit: Callback<f64>,
    #[prop(into)] disabled: Signal<bool>,
) -> impl IntoView {
    let dragging = RwSignal::new(None::<f64>);
    let shown = move || dragging.get().unwrap_or_else(|| position.get());
    let text = move || show(shown());
    let input_id = format!("ctl-{control}");
    let help_id = format!("ctl-{control}-help");
    let read = |ev: &leptos::ev::Event| oncall_sim::decimal::parse_decimal(&event_target_value(ev));
    view! {
        <div class="control slider" data-control=control hidden=left_out(control)>
            <div class="control-head">
                <label for=input_id.clone()>{t(label)}</label>
                <output for=input_id.clone() aria-hidden="true">{text}</output>
            </div>
            <input
                type="range"
                id=input_id
                min=move || min.get()
                max=max
                step=step
                prop:value=move || shown().to_string()
                aria-valuetext=text
                aria-describedby=help_id.clone()
                disabled=move || disabled.get()
                on:input=move |ev| dragging.set(read(&ev))
                on:change=move |ev| {
                    dragging.set(None);
                    if let Some(v) = read(&ev) {
                        on_commit.run(v);
                    }
                }
            />
            <p class="help" id=help_id>
                {help}
            </p>
        </div>
    }
}

/// An on/off switch.
#[component]
fn Toggle(
    control: &'static str,
    label: Msg,
    #[prop(into)] help: Signal<String>,
    #[prop(into)] checked: Signal<bool>,
    on_toggle: Callback<bool>,
    #[prop(into)] disabled: Signal<bool>,
) -> impl IntoView {
    let input_id = format!("ctl-{control}");
    let help_id = format!("ctl-{control}-help");
    view! {
        <div class="control toggle" data-control=control hidden=left_out(control)>
            <div class="control-head">
                <label for=input_id.clone()>{t(label)}</label>
                <span class="switch">
                    <input
                        type="checkbox"
                        role="switch"
                        id=input_id
                        prop:checked=move || checked.get()
                        aria-describedby=help_id.clone()
                        disabled=move || disabled.get()
                        on:change=move |ev| on_toggle.run(event_target_checked(&ev))
                    />
                    <span class="track" aria-hidden="true"></span>
                    <span class="state" aria-hidden="true">
                        {move || t(if checked.get() { Msg::On } else { Msg::Off })}
                    </span>
                </span>
            </div>
            <p class="help" id=help_id>
                {help}
            </p>
        </div>
    }
}

/// A button that starts something that takes minutes, and shows how far it got.
#[component]
fn ActionButton(
    control: &'static str,
    label: Msg,
    #[prop(into)] help: Signal<String>,
    /// "Ready", "Queued for 09:14", "Running: 4 min left".
    #[prop(into)]
    status: Signal<String>,
    /// Share done, while running.
    #[prop(into)]
    progress: Signal<Option<f64>>,
    on_press: Callback<()>,
    #[prop(into)] disabled: Signal<bool>,
) -> impl IntoView {
    let help_id = format!("ctl-{control}-help");
    let status_id = format!("ctl-{control}-status");
    let described_by = format!("{status_id} {help_id}");
    view! {
        <div class="control action" data-control=control hidden=left_out(control)>
            <button
                type="button"
                class="action-button"
                class:busy=move || progress.get().is_some()
                aria-describedby=described_by
                disabled=move || disabled.get()
                on:click=move |_| on_press.run(())
            >
                <span class="action-label">{t(label)}</span>
                <span class="action-status" id=status_id data-status=control>
                    {status}
                </span>
                <span
                    class="action-progress"
                    aria-hidden="true"
                    style=move || ("--done", format!("{:.3}", progress.get().unwrap_or(0.0)))
                ></span>
            </button>
            <p class="help" id=help_id>
                {help}
            </p>
        </div>
    }
}

/// Every control of the service, each with its value, unit and one-line explanation. They send
/// the core actions for the next minute; progress comes back in the core's records.
#[component]
pub fn Controls() -> impl IntoView {
    let run = use_run();
    let disabled = Signal::derive(move || run.snapshot.with(|s| s.finished || s.replay_left > 0));
    // Model constants the explanations quote, from the run's own parameters.
    let params = Memo::new(move |_| {
        run.generation.track();
        run.with(|c| c.sim().params().clone()).unwrap_or_default()
    });
    view! {
        <section class="panel controls-panel" id="controls" aria-labelledby="controls-heading">
            <h2 id="controls-heading" tabindex="-1">{t(Msg::ControlsHeading)}</h2>
            {pending_note(run)}
            // The mitigations first, as a runbook lists them: when the page fires the focus
            // comes to this panel's heading, one Tab from Roll back. Then capacity and cache.
            {rollback_button(run, params, disabled)}
            {warm_cache_button(run, params, disabled)}
            {shed_slider(run, params, disabled)}
            {heavy_feature_toggle(run, disabled)}
            {min_instances_slider(run, disabled)}
            {autoscaling_toggle(run, disabled)}
            {target_utilization_slider(run, disabled)}
            {cache_ttl_slider(run, disabled)}
        </section>
    }
}

/// The model's parameters of the run, for the explanations.
type Params = Memo<oncall_sim::ModelParams>;

/// The settings in force.
fn settings(run: RunHandle) -> oncall_sim::Settings {
    run.snapshot.with(|s| s.settings.clone())
}

/// Whether an action named `name` waits for the next minute.
fn pending(run: RunHandle, name: &str) -> bool {
    run.snapshot
        .with(|s| s.pending.iter().any(|k| k.name() == name))
}

/// "Queued for 09:14": an action waiting for the next minute.
fn queued(run: RunHandle) -> String {
    tf(
        Msg::Queued,
        &[("clock", &run.snapshot.with(|s| s.next_clock.clone()))],
    )
}

fn minutes_left(n: u32) -> String {
    format_value(Format::Minutes, Value::Number(f64::from(n)))
}

/// The note above the controls: actions waiting for the next minute, or the exercise over.
fn pending_note(run: RunHandle) -> impl IntoView {
    let note = move || {
        run.snapshot.with(|s| {
            if s.finished {
                Some(t(Msg::ControlsOver).to_owned())
            } else if s.pending.is_empty() {
                None
            } else {
                Some(tf(
                    Msg::ControlsPending,
                    &[("minute", &s.minutes.to_string()), ("clock", &s.next_clock)],
                ))
            }
        })
    };
    view! {
        <p class="pending-note" role="status" class:hidden=move || note().is_none()>
            {note}
        </p>
    }
}

/// The fleet's minimum; 0 (scale to zero) only under the policies that hold requests for a
/// starting instance.
fn min_instances_slider(run: RunHandle, disabled: Signal<bool>) -> impl IntoView {
    let (_, min_hi) = MIN_INSTANCES_RANGE;
    let min_lo = move || lowest_minimum(run.snapshot.with(|s| s.policy));
    view! {
        <Slider
            control="min_instances"
            label=Msg::CtlMinInstances
            help=Signal::derive(|| t(Msg::CtlMinInstancesHelp).to_owned())
            min=Signal::derive(move || f64::from(min_lo()))
            max=f64::from(min_hi)
            step=1.0
            position=Signal::derive(move || f64::from(settings(run).min_instances))
            show=|x| instances(x.round() as u32)
            on_commit=Callback::new(move |x: f64| {
                let n = (x.round() as u32).clamp(min_lo(), min_hi);
                run.act(ActionKind::MinInstances(n));
            })
            disabled=disabled
        />
    }
}

/// Autoscaling on or off, under the run's policy.
fn autoscaling_toggle(run: RunHandle, disabled: Signal<bool>) -> impl IntoView {
    let help = Signal::derive(move || {
        tf(
            Msg::CtlAutoscalingHelp,
            &[("policy", &policy_name_text(run.snapshot.with(|s| s.policy)))],
        )
    });
    view! {
        <Toggle
            control="autoscaling"
            label=Msg::CtlAutoscaling
            help=help
            checked=Signal::derive(move || settings(run).autoscaling)
            on_toggle=Callback::new(move |on: bool| run.act(ActionKind::Autoscaling(on)))
            disabled=disabled
        />
    }
}

/// The utilization the autoscaler aims at.
fn target_utilization_slider(run: RunHandle, disabled: Signal<bool>) -> impl IntoView {
    view! {
        <Slider
            control="target_utilization"
            label=Msg::CtlTargetUtilization
            help=Signal::derive(|| t(Msg::CtlTargetUtilizationHelp).to_owned())
            min=TARGET_UTILIZATION_RANGE.0
            max=TARGET_UTILIZATION_RANGE.1
            step=0.05
            position=Signal::derive(move || settings(run).target_utilization)
            show=percent
            on_commit=Callback::new(move |x: f64| {
                run.act(ActionKind::TargetUtilization(fraction(x, TARGET_UTILIZATION_RANGE)));
            })
            disabled=disabled
        />
    }
}

/// The TTL of a slider position.
fn ttl_stop(x: f64) -> u32 {
    TTL_STOPS[(x.round().max(0.0) as usize).min(TTL_STOPS.len() - 1)]
}

/// The cache's TTL, on the slider's stops.
fn cache_ttl_slider(run: RunHandle, disabled: Signal<bool>) -> impl IntoView {
    view! {
        <Slider
            control="cache_ttl_s"
            label=Msg::CtlCacheTtl
            help=Signal::derive(|| t(Msg::CtlCacheTtlHelp).to_owned())
            min=0.0
            max=(TTL_STOPS.len() - 1) as f64
            step=1.0
            position=Signal::derive(move || ttl_position(settings(run).cache_ttl_s) as f64)
            show=|x| format_value(Format::Seconds, Value::Number(f64::from(ttl_stop(x))))
            on_commit=Callback::new(move |x: f64| {
                let stop = ttl_stop(x);
                run.act(ActionKind::CacheTtlS(stop.clamp(CACHE_TTL_RANGE.0, CACHE_TTL_RANGE.1)));
            })
            disabled=disabled
        />
    }
}

/// Warming the cache: queued, running (with its progress) or idle.
fn warm_cache_button(run: RunHandle, params: Params, disabled: Signal<bool>) -> impl IntoView {
    let status = Signal::derive(move || {
        let left = run.snapshot.with(|s| s.record.warmup_minutes_left);
        if pending(run, "warm_cache") {
            queued(run)
        } else if left > 0 {
            tf(Msg::WarmupRunning, &[("minutes", &minutes_left(left))])
        } else {
            t(Msg::Idle).to_owned()
        }
    });
    let progress = Signal::derive(move || {
        let left = run.snapshot.with(|s| s.record.warmup_minutes_left);
        let total = f64::from(params.with(|p| p.warmup_minutes).max(1));
        (left > 0).then(|| 1.0 - f64::from(left) / total)
    });
    let help = Signal::derive(move || {
        params.with(|p| {
            tf(
                Msg::CtlWarmCacheHelp,
                &[
                    (
                        "minutes",
                        &plain(Locale::page(), f64::from(p.warmup_minutes)),
                    ),
                    ("gain", &percent(p.warmup_gain_per_min)),
                    (
                        "qps",
                        &tf(
                            Msg::UnitQueriesPerS,
                            &[("value", &plain(Locale::page(), p.warmup_db_qps))],
                        ),
                    ),
                ],
            )
        })
    });
    view! {
        <ActionButton
            control="warm_cache"
            label=Msg::CtlWarmCache
            help=help
            status=status
            progress=progress
            on_press=Callback::new(move |()| run.act(ActionKind::WarmCache))
            disabled=disabled
        />
    }
}

/// The share of low-priority traffic shed.
fn shed_slider(run: RunHandle, params: Params, disabled: Signal<bool>) -> impl IntoView {
    let help = Signal::derive(move || {
        tf(
            Msg::CtlShedHelp,
            &[("share", &percent(params.with(|p| p.low_priority_share)))],
        )
    });
    view! {
        <Slider
            control="shed_low_priority"
            label=Msg::CtlShed
            help=help
            min=SHED_RANGE.0
            max=SHED_RANGE.1
            step=0.05
            position=Signal::derive(move || settings(run).shed_low_priority)
            show=percent
            on_commit=Callback::new(move |x: f64| {
                run.act(ActionKind::ShedLowPriority(fraction(x, SHED_RANGE)));
            })
            disabled=disabled
        />
    }
}

/// The heavy feature on or off.
fn heavy_feature_toggle(run: RunHandle, disabled: Signal<bool>) -> impl IntoView {
    view! {
        <Toggle
            control="heavy_feature"
            label=Msg::CtlHeavyFeature
            help=Signal::derive(|| t(Msg::CtlHeavyFeatureHelp).to_owned())
            checked=Signal::derive(move || settings(run).heavy_feature)
            on_toggle=Callback::new(move |on: bool| run.act(ActionKind::HeavyFeature(on)))
            disabled=disabled
        />
    }
}

/// Rolling back to the last good build: queued, running (with its progress), the build it
/// would go back to, or nothing to roll back to.
fn rollback_button(run: RunHandle, params: Params, disabled: Signal<bool>) -> impl IntoView {
    let status = Signal::derive(move || {
        let left = run.snapshot.with(|s| s.record.rollback_minutes_left);
        if pending(run, "rollback") {
            queued(run)
        } else if left > 0 {
            tf(Msg::RollbackRunning, &[("minutes", &minutes_left(left))])
        } else {
            match run.snapshot.with(|s| s.rollback_target) {
                Some(build) => tf(Msg::RollbackTo, &[("build", &build.to_string())]),
                None => t(Msg::RollbackNothing).to_owned(),
            }
        }
    });
    let progress = Signal::derive(move || {
        let left = run.snapshot.with(|s| s.record.rollback_minutes_left);
        let total = f64::from(params.with(|p| p.rollback_minutes).max(1));
        (left > 0).then(|| (1.0 - f64::from(left) / total).max(0.0))
    });
    let help = Signal::derive(move || {
        tf(
            Msg::CtlRollbackHelp,
            &[(
                "minutes",
                &plain(
                    Locale::page(),
                    f64::from(params.with(|p| p.rollback_minutes)),
                ),
            )],
        )
    });
    view! {
        <ActionButton
            control="rollback"
            label=Msg::CtlRollback
            help=help
            status=status
            progress=progress
            on_press=Callback::new(move |()| run.act(ActionKind::Rollback))
            disabled=Signal::derive(move || {
                disabled.get() || run.snapshot.with(|s| s.rollback_target.is_none())
            })
        />
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ttl_stops_cover_the_allowed_range_in_order() {
        assert_eq!(TTL_STOPS[0], CACHE_TTL_RANGE.0);
        assert_eq!(TTL_STOPS[TTL_STOPS.len() - 1], CACHE_TTL_RANGE.1);
        assert!(TTL_STOPS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(TTL_STOPS[ttl_position(60)], 60);
        assert_eq!(TTL_STOPS[ttl_position(70)], 60);
        assert_eq!(TTL_STOPS[ttl_position(80)], 90);
    }

    #[test]
    fn fractions_snap_to_the_step_and_the_range() {
        assert_eq!(fraction(0.30000000000000004, TARGET_UTILIZATION_RANGE), 0.3);
        assert_eq!(fraction(0.05, TARGET_UTILIZATION_RANGE), 0.1);
        assert_eq!(fraction(2.0, SHED_RANGE), 1.0);
    }
}
