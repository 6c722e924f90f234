//! How the requests are served: the formulas or the request-level engine, Envoy's
//! load-balancing policy, hedged requests and their token bucket, the service-time shape, and
//! what the policy reads (the key space for the hash policies, the number of choices for least
//! request). Each is a parameter of the run (`engine`, `lb`, `hedge`, `hedge_delay_ms`,
//! `hedge_max_tokens`, `hedge_refill_ratio`, `service_shape`, `service_sigma`, `keys`, `zipf`,
//! `choice_count` in the link); a change replays the run's actions under it, like another
//! autoscaler. The core checks every value, hedging's rule included, before the run changes.
//! A field shows only where it acts: the shape σ with the lognormal, the key space under ring
//! hash and Maglev, the choices under least request. (`active_request_bias` acts on weighted
//! hosts only, which the model has not: it is a link parameter, not a field.)

// The first download keeps only the engine switch; the rest is for the extended build.
#![cfg_attr(not(feature = "extended"), allow(dead_code, unused_imports))]

use leptos::prelude::*;
use oncall_sim::params::{EngineKind, ModelParams, ParamError, ServiceDistribution, Switch};
use oncall_sim::requests::Routing;

use crate::components::run::{use_run, RunHandle};
use crate::i18n::{core_text, t, Msg};

/// The engine in force: the link's, or the scenario's.
fn engine_of(run: RunHandle) -> EngineKind {
    run.with(|c| {
        let sim = c.sim();
        sim.params().engine.unwrap_or(sim.scenario().engine)
    })
    .unwrap_or_default()
}

/// The run's parameters with one change, checked as the core checks a link: the value's range,
/// then hedging's rule when hedging is on.
fn checked(
    params: &ModelParams,
    hedge_on: bool,
    edit: impl FnOnce(&mut ModelParams) -> Result<(), ParamError>,
) -> Result<ModelParams, ParamError> {
    let mut p = params.clone();
    edit(&mut p)?;
    if hedge_on {
        p.hedging_rule()?;
    }
    Ok(p)
}

/// A number parameter of the engine, applied when the field is left or Enter is pressed.
#[cfg(feature = "extended")]
#[component]
fn EngineNumber(label: Msg, name: &'static str, error: RwSignal<Option<String>>) -> impl IntoView {
    let run = use_run();
    let shown = move || {
        run.snapshot.track();
        run.with(|c| c.sim().params().get(name))
            .flatten()
            .map(|x| x.to_string())
            .unwrap_or_default()
    };
    let apply = move |text: String| {
        let Some(value) = crate::format::parse_number(crate::i18n::Locale::page(), &text) else {
            error.set(Some(format!("{name}: {text}")));
            return;
        };
        let result = run.with(|c| {
            let sim = c.sim();
            checked(sim.params(), sim.settings().hedge, |p| p.set(name, value))
        });
        match result {
            Some(Ok(_)) => {
                error.set(None);
                run.rerun(|state| {
                    let _ = state.params.set(name, value);
                });
            }
            Some(Err(e)) => error.set(Some(core_text(&e.message()))),
            None => {}
        }
    };
    view! {
        <label class="field engine-number">
            <span>{t(label)}</span>
            <input
                type="text"
                inputmode="decimal"
                data-param=name
                prop:value=shown
                on:change=move |ev| apply(event_target_value(&ev))
            />
        </label>
    }
}

/// The engine, the load-balancing policy and hedging.
#[component]
pub fn EngineSettings() -> impl IntoView {
    let run = use_run();
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let engine = Memo::new(move |_| {
        run.snapshot.track();
        engine_of(run)
    });
    let lb = Memo::new(move |_| {
        run.snapshot
            .with(|_| run.with(|c| c.sim().settings().lb))
            .unwrap_or_default()
    });
    let hedge_on = Memo::new(move |_| {
        run.snapshot.track();
        run.with(|c| c.sim().settings().hedge).unwrap_or(false)
    });
    let requests = move || engine.get() == EngineKind::Requests;

    view! {
        <div class="engine-settings" data-field="engine-settings">
            <div class="field">
                <label for="engine-select">{t(Msg::EngineLabel)}</label>
                <select
                    id="engine-select"
                    data-field="engine"
                    on:change=move |ev| {
                        if let Ok(kind) = event_target_value(&ev).parse::<EngineKind>() {
                            run.rerun(|state| state.params.engine = Some(kind));
                        }
                    }
                >
                    <option value="formulas" selected=move || !requests()>
                        {t(Msg::EngineFormulas)}
                    </option>
                    <option value="requests" selected=requests>
                        {t(Msg::EngineRequests)}
                    </option>
                </select>
            </div>
            {policy_and_hedging(requests, lb, hedge_on, error)}
            <p class="field-error" role="alert" data-field="engine-error">
                {move || error.get()}
            </p>
        </div>
    }
}

/// The load-balancing policy and hedging, in the build with the request engine (the first
/// download has neither: choosing request mode opens the page that has them).
#[cfg(feature = "extended")]
fn policy_and_hedging(
    requests: impl Fn() -> bool + Copy + Send + Sync + 'static,
    lb: Memo<Routing>,
    hedge_on: Memo<bool>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let run = use_run();
    let lb_options = Routing::ALL
        .iter()
        .map(|&r| {
            view! {
                <option value=r.as_str() selected=move || lb.get() == r>
                    {crate::i18n::lb_name_text(r)}
                </option>
            }
        })
        .collect_view();

    let set_hedge = move |on: bool| {
        let result = run.with(|c| checked(c.sim().params(), on, |_| Ok(())));
        match result {
            Some(Ok(_)) => {
                error.set(None);
                let switch = if on { Switch::On } else { Switch::Off };
                run.rerun(|state| state.params.hedge = Some(switch));
            }
            Some(Err(e)) => error.set(Some(core_text(&e.message()))),
            None => {}
        }
    };

    let shape = Memo::new(move |_| {
        run.snapshot.track();
        run.with(|c| c.sim().params().service_shape)
            .unwrap_or_default()
    });
    let lognormal = move || shape.get() == ServiceDistribution::Lognormal;
    let hashed = move || lb.get().hashes_keys();
    let shape_options = ServiceDistribution::ALL
        .iter()
        .map(|&d| {
            let name = match d {
                ServiceDistribution::Exponential => Msg::ServiceExponential,
                ServiceDistribution::Lognormal => Msg::ServiceLognormal,
            };
            view! {
                <option value=d.as_str() selected=move || shape.get() == d>
                    {t(name)}
                </option>
            }
        })
        .collect_view();

    view! {
            <div class="field" hidden=move || !requests()>
                <label for="lb-select">{t(Msg::LbLabel)}</label>
                <select
                    id="lb-select"
                    data-field="lb"
                    on:change=move |ev| {
                        if let Ok(r) = event_target_value(&ev).parse::<Routing>() {
                            run.rerun(|state| state.params.lb = Some(r));
                        }
                    }
                >
                    {lb_options}
                </select>
            </div>
            <div class="field hedge-field" hidden=move || !requests()>
                <label class="check">
                    <input
                        type="checkbox"
                        data-field="hedge"
                        prop:checked=move || hedge_on.get()
                        on:change=move |ev| set_hedge(event_target_checked(&ev))
                    />
                    {t(Msg::HedgeLabel)}
                </label>
                <EngineNumber label=Msg::HedgeDelayLabel name="hedge_delay_ms" error=error />
                <EngineNumber label=Msg::HedgeTokensLabel name="hedge_max_tokens" error=error />
                <EngineNumber label=Msg::HedgeRefillLabel name="hedge_refill_ratio" error=error />
            </div>
            <div class="field engine-group" hidden=move || !requests()>
                <label class="engine-number">
                    <span>{t(Msg::ServiceShapeLabel)}</span>
                    <select
                        data-field="service_shape"
                        on:change=move |ev| {
                            if let Ok(shape) = event_target_value(&ev).parse::<ServiceDistribution>() {
                                run.rerun(|state| state.params.service_shape = shape);
                            }
                        }
                    >
                        {shape_options}
                    </select>
                </label>
                <span class="engine-group" hidden=move || !lognormal()>
                    <EngineNumber label=Msg::ServiceSigmaLabel name="service_sigma" error=error />
                </span>
                <span class="engine-group" hidden=move || !hashed()>
                    <EngineNumber label=Msg::KeysLabel name="keys" error=error />
                    <EngineNumber label=Msg::ZipfLabel name="zipf" error=error />
                </span>
                <span class="engine-group" hidden=move || !lb.get().params().contains(&"choice_count")>
                    <EngineNumber label=Msg::ChoicesLabel name="choice_count" error=error />
                </span>
            </div>
    }
}

#[cfg(not(feature = "extended"))]
fn policy_and_hedging(
    _requests: impl Fn() -> bool + Copy + Send + Sync + 'static,
    _lb: Memo<Routing>,
    _hedge_on: Memo<bool>,
    _error: RwSignal<Option<String>>,
) -> impl IntoView {
}
