//! The regions panel, when a run has more than one region: each region's composite health and
//! its sources against the aggregation policy, what the consumer's load balancer knows, its
//! share of the traffic and where its users are sent; the health policy and the regional
//! controls an on-call engineer has, and the failures a trainer injects.

use leptos::prelude::*;
use oncall_sim::message::{Message, MessageId};
use oncall_sim::regions::health::{HealthState, SourceKind};
use oncall_sim::regions::{RegionAction, RegionMinute, SourceView};
use oncall_sim::{ActionKind, ModelParams};

use crate::components::run::{use_run, RunHandle};
use crate::format::{format_value, Format, Value};
use crate::i18n::{core_text, t, tf, Msg};

fn state_level(state: HealthState) -> &'static str {
    match state {
        HealthState::Healthy => "ok",
        HealthState::Unhealthy => "critical",
        HealthState::Unknown => "watch",
    }
}

/// A state as seed 003 writes it, with its level for the colour.
fn state_badge(state: HealthState) -> impl IntoView {
    view! { <span class="state" data-level=state_level(state)>{state.as_str()}</span> }
}

/// "7 / 10 healthy (needs 60 % and 1)".
fn source_text(s: &SourceView) -> String {
    tf(
        Msg::RegionsSourceCounts,
        &[
            ("healthy", &s.healthy.to_string()),
            ("total", &s.total.to_string()),
            ("percent", &s.healthy_percent.to_string()),
            ("min", &s.min_healthy.to_string()),
        ],
    )
}

fn pct(x: f64) -> String {
    format_value(Format::Percent { decimals: 0 }, Value::Number(x))
}

/// One region's row.
fn region_row(r: &RegionMinute) -> impl IntoView {
    let routed = if r.routed_to == r.region {
        t(Msg::RegionsRoutedHome).to_owned()
    } else {
        tf(
            Msg::RegionsRoutedTo,
            &[("region", &r.routed_to.to_uppercase())],
        )
    };
    view! {
        <tr data-region=r.region>
            <th scope="row">{r.region.to_uppercase()}</th>
            <td data-field="composite">{state_badge(r.composite)}</td>
            <td data-field="consumer">
                {state_badge(r.consumer_view)}
                {(!r.in_routing).then(|| view! { <small>{t(Msg::RegionsOutOfRouting)}</small> })}
            </td>
            <td data-field="app">{state_badge(r.app().state)} " " {source_text(&r.app())}</td>
            <td data-field="database">
                {r
                    .sources
                    .get(SourceKind::Database)
                    .map(|s| view! { {state_badge(s.state)} " " {source_text(s)} })}
            </td>
            <td data-field="share">{pct(r.traffic_share)}</td>
            <td data-field="routed">{routed}</td>
            <td data-field="serving">{r.serving} " / " {r.crashed} " / " {r.ejected}</td>
        </tr>
    }
}

/// A whole number field with an Apply button that sends `make(value)` as an action.
#[component]
fn WholeControl(
    label: Msg,
    name: &'static str,
    initial: u32,
    max: u32,
    make: fn(u32) -> RegionAction,
) -> impl IntoView {
    let run = use_run();
    let value = RwSignal::new(initial.to_string());
    let apply = move |_| {
        let v: u32 = value
            .get_untracked()
            .trim()
            .parse()
            .unwrap_or(initial)
            .min(max);
        value.set(v.to_string());
        run.act(ActionKind::Region(make(v)));
    };
    view! {
        <label class="region-control">
            <span>{t(label)}</span>
            <input
                type="number"
                min="0"
                max=max.to_string()
                data-region-control=name
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
            <button type="button" on:click=apply>{t(Msg::RegionsApply)}</button>
        </label>
    }
}

/// The panel; nothing for a run with one region.
#[component]
pub fn RegionsPanel() -> impl IntoView {
    let run = use_run();
    let minute = Memo::new(move |_| {
        run.snapshot.track();
        run.with(|c| c.sim().region_history().last().cloned())
            .flatten()
            .filter(|regions| regions.len() > 1)
    });
    let params = move || run.with(|c| c.sim().params().clone());
    move || {
        let regions = minute.get()?;
        let p = params()?;
        let failover = run.with(|c| c.sim().failover_on()).unwrap_or(true);
        let rows = regions.iter().map(region_row).collect_view();
        let region_buttons = regions
            .iter()
            .enumerate()
            .map(|(i, r)| region_actions(run, i as u8, r))
            .collect_view();
        Some(view! {
            <section class="panel regions-panel" aria-labelledby="regions-heading" data-panel="regions">
                <div class="panel-head">
                    <h2 id="regions-heading">{t(Msg::RegionsHeading)}</h2>
                </div>
                {regions_table(rows)}
                {health_policy(run, &p, failover)}
                {region_buttons}
            </section>
        })
    }
}

/// The regions' health, share of traffic, users and instances, one row each.
fn regions_table(rows: impl IntoView) -> impl IntoView {
    view! {
        // A region that scrolls on a phone: focusable, so that it scrolls from the keyboard.
        <div class="table-scroll" tabindex="0" role="region" aria-label=t(Msg::RegionsHeading)>
            <table class="regions">
                <thead>
                    <tr>
                        <th scope="col">{t(Msg::RegionsRegion)}</th>
                        <th scope="col">{t(Msg::RegionsComposite)}</th>
                        <th scope="col">{t(Msg::RegionsConsumer)}</th>
                        <th scope="col">{t(Msg::RegionsApp)}</th>
                        <th scope="col">{t(Msg::RegionsDatabase)}</th>
                        <th scope="col">{t(Msg::RegionsShare)}</th>
                        <th scope="col">{t(Msg::RegionsUsers)}</th>
                        <th scope="col">{t(Msg::RegionsInstances)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// The health policy's settings (`p` in force): healthy percent, minimum healthy, and
/// failover on or off.
fn health_policy(run: RunHandle, p: &ModelParams, failover: bool) -> impl IntoView {
    view! {
        <div class="health-policy">
            <WholeControl
                label=Msg::RegionsHealthyPercent
                name="healthy_percent"
                initial=p.healthy_percent
                max=100
                make=RegionAction::HealthyPercent
            />
            <WholeControl
                label=Msg::RegionsMinHealthy
                name="min_healthy"
                initial=p.min_healthy
                max=1000
                make=RegionAction::MinHealthy
            />
            <label class="check">
                <input
                    type="checkbox"
                    data-region-control="failover"
                    prop:checked=failover
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        run.act(ActionKind::Region(RegionAction::Failover(on)));
                    }
                />
                {t(Msg::RegionsFailover)}
            </label>
            <p class="notice" data-field="no-test-mode">
                {core_text(&Message::new(MessageId::HealthChangesApplyAtOnce))}
            </p>
        </div>
    }
}

/// One region's actions (region `code`): drain or undrain it, outlier detection on or off,
/// and the failures a trainer can inject.
fn region_actions(run: RunHandle, code: u8, r: &RegionMinute) -> impl IntoView {
    let drained = r.drained;
    let outlier = r.outlier_detection;
    let name = r.region.to_uppercase();
    let act = move |a: RegionAction| run.act(ActionKind::Region(a));
    view! {
        <div class="region-actions" data-region=r.region>
            <b>{name}</b>
            <button
                type="button"
                data-region-action="drain_region"
                on:click=move |_| act(RegionAction::DrainRegion { region: code, on: !drained })
            >
                {t(if drained { Msg::RegionsUndrain } else { Msg::RegionsDrain })}
            </button>
            <button
                type="button"
                data-region-action="outlier_detection"
                aria-pressed=outlier.to_string()
                on:click=move |_| act(RegionAction::OutlierDetection { region: code, on: !outlier })
            >
                {t(Msg::RegionsOutlier)}
            </button>
            <details class="inject">
                <summary>{t(Msg::RegionsInjectHeading)}</summary>
                <button
                    type="button"
                    data-region-action="zone_outage"
                    on:click=move |_| act(RegionAction::ZoneOutage { region: code, share: 0.5 })
                >
                    {t(Msg::RegionsInjectZone)}
                </button>
                <button
                    type="button"
                    data-region-action="db_failure"
                    on:click=move |_| act(RegionAction::DbFailure { region: code, on: true })
                >
                    {t(Msg::RegionsInjectDb)}
                </button>
            </details>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_read_as_levels() {
        assert_eq!(state_level(HealthState::Healthy), "ok");
        assert_eq!(state_level(HealthState::Unhealthy), "critical");
        assert_eq!(state_level(HealthState::Unknown), "watch");
        assert_eq!(oncall_sim::regions::code(0), "a");
    }
}
