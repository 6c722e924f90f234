//! The policy picker: the five policies with their one-line summaries, the chosen policy's
//! parameters as labelled inputs (unit, range, default and the catalog's one-line doc), the
//! driver behind the latest decision, and, for the elastic scaler, its configuration file.

use leptos::prelude::*;
use oncall_sim::autoscale::{PolicyId, PolicySettings};
use oncall_sim::ids::DriverId;
use oncall_sim::params::ParamSpec;

use super::{dom_id, is_switch, short_name, ElasticConfigEditor, PolicySetup, SetError};
use crate::components::reference::use_reference;
use crate::format;
use crate::i18n::{core_text, param_unit_text, policy_name_text, t, tf, Locale, Msg};

/// A parameter's value as the page writes it (and reads it back from its input).
fn plain(x: f64) -> String {
    format::plain(Locale::page(), x)
}

/// Policies with at most this many parameters show them unfolded.
const OPEN_PARAMS: usize = 12;

/// Errors shown under the inputs, by parameter name.
type FieldErrors = RwSignal<Vec<(&'static str, String)>>;

/// The text of an error under an input: the field, the core's rule, and that nothing changed.
pub fn error_text(error: &SetError) -> String {
    let (field, message) = match error {
        SetError::NotANumber { name, spec, .. } => (
            name.as_str(),
            tf(
                Msg::PolicyNotANumber,
                &[("allowed", &core_text(&spec.allowed()))],
            ),
        ),
        SetError::Param(e) => (e.field.as_str(), core_text(&e.problem)),
        // Not reachable from the panel, which lists only known parameters, all numbers.
        SetError::UnknownName { name } => (name.as_str(), String::new()),
        SetError::UnknownId(e) => (e.kind, e.given.clone()),
    };
    tf(
        Msg::PolicyParamError,
        &[("field", field), ("message", &message)],
    )
}

/// "0 to 1; default 0.1" for a parameter, with its unit.
pub fn range_text(spec: &ParamSpec) -> String {
    let unit = if spec.unit.is_empty() {
        String::new()
    } else {
        format!(" {}", param_unit_text(spec.unit))
    };
    tf(
        if spec.integer {
            Msg::PolicyParamRangeWhole
        } else {
            Msg::PolicyParamRange
        },
        &[
            ("min", &plain(spec.min)),
            ("max", &plain(spec.max)),
            ("unit", &unit),
            ("default", &plain(spec.default)),
        ],
    )
}

/// The policy picker with the chosen policy's parameters.
///
/// `setup` is the run's policy and parameters; `driver` the driver or strategy behind the
/// policy's latest decision. A valid change calls `on_change` with the new set-up (the page
/// replays the run under it); an invalid value is shown next to its input, naming the
/// field and its range, and changes nothing.
#[component]
pub fn PolicyPanel(
    #[prop(into)] setup: Signal<PolicySetup>,
    #[prop(into)] driver: Signal<Option<DriverId>>,
    on_change: Callback<PolicySetup>,
) -> impl IntoView {
    let policy = Memo::new(move |_| setup.with(|s| s.policy));
    // Bumped to write the run's values back into the inputs (after a reset, or when a typed
    // value was refused and the run kept its own).
    let revision = RwSignal::new(0_u32);
    view! {
        <section class="panel policy-panel" aria-labelledby="policy-panel-heading" data-panel="policy">
            <h2 id="policy-panel-heading">{t(Msg::PolicyPanelHeading)}</h2>
            {policy_pick(setup, policy, revision, on_change)}
            <p id="policy-summary" class="policy-summary" data-field="policy-summary">
                {move || {
                    setup.with(|s| crate::i18n::policy_summary_text(policy.get(), &s.params, &s.settings))
                }}
            </p>
            <p class="policy-driver" data-field="active-driver">
                {move || driver_text(driver.get())}
            </p>
            <p class="muted small">{t(Msg::PolicyRestartNote)}</p>
            {move || params_box(setup, policy.get(), revision, on_change)}
            {move || (policy.get() == PolicyId::Elastic).then(|| elastic_editor(setup, on_change))}
        </section>
    }
}

/// Calls `on_change` with `next` if it differs from `setup`.
fn change(setup: Signal<PolicySetup>, on_change: Callback<PolicySetup>, next: PolicySetup) {
    if setup.with_untracked(|s| *s != next) {
        on_change.try_run(next);
    }
}

/// The policy picker, each policy with its one-line summary as its title.
fn policy_pick(
    setup: Signal<PolicySetup>,
    policy: Memo<PolicyId>,
    revision: RwSignal<u32>,
    on_change: Callback<PolicySetup>,
) -> impl IntoView {
    let options = PolicyId::ALL
        .iter()
        .map(|&id| {
            let summary = setup
                .with_untracked(|s| crate::i18n::policy_summary_text(id, &s.params, &s.settings));
            view! {
                <option value=id.as_str() title=summary selected=move || policy.get() == id>
                    {policy_name_text(id)}
                </option>
            }
        })
        .collect_view();
    let pick = move |ev: leptos::ev::Event| {
        // Only the core's ids; anything else (a tampered page) is ignored.
        let Ok(id) = event_target_value(&ev).parse::<PolicyId>() else {
            revision.update(|r| *r += 1);
            return;
        };
        let mut next = setup.get_untracked();
        next.policy = id;
        change(setup, on_change, next);
    };
    view! {
        <div class="policy-pick">
            <label for="policy-panel-select">{t(Msg::PolicyPickerLabel)}</label>
            <select
                id="policy-panel-select"
                data-field="policy-picker"
                aria-describedby="policy-summary"
                prop:value=move || {
                    revision.track();
                    policy.get().as_str()
                }
                on:change=pick
            >
                {options}
            </select>
        </div>
    }
}

/// The driver or strategy behind the policy's latest decision, or that there was none yet.
fn driver_text(driver: Option<DriverId>) -> String {
    tf(
        Msg::PolicyActiveDriver,
        &[(
            "driver",
            driver.map_or(t(Msg::PolicyNoDriverYet), crate::i18n::driver_text),
        )],
    )
}

/// The parameters of policy `id`, rebuilt when the policy changes. Long lists (the elastic
/// scaler's) start folded so the panel stays short.
fn params_box(
    setup: Signal<PolicySetup>,
    id: PolicyId,
    revision: RwSignal<u32>,
    on_change: Callback<PolicySetup>,
) -> impl IntoView {
    let specs = PolicySettings::specs(id);
    // The inputs' errors belong to this policy's inputs and go with them.
    let errors: FieldErrors = RwSignal::new(Vec::new());
    let reset = move |_| {
        errors.set(Vec::new());
        let mut next = setup.get_untracked();
        next.reset_policy();
        change(setup, on_change, next);
        revision.update(|r| *r += 1);
    };
    let open = specs.len() <= OPEN_PARAMS;
    let heading = tf(
        Msg::PolicyParamsHeading,
        &[
            ("policy", &policy_name_text(id)),
            ("count", &specs.len().to_string()),
        ],
    );
    let note = (id == PolicyId::TargetTracking)
        .then(|| view! { <p class="muted small">{t(Msg::PolicyTargetTrackingNote)}</p> });
    let fields = specs
        .into_iter()
        .map(|spec| {
            view! {
                <ParamField
                    spec=spec
                    setup=setup
                    errors=errors
                    revision=revision
                    on_change=on_change
                />
            }
        })
        .collect_view();
    view! {
        <details class="policy-params-box" open=open data-policy=id.as_str()>
            <summary>{heading.clone()}</summary>
            <fieldset class="policy-params">
                <legend class="visually-hidden">{heading}</legend>
                {note}
                <div class="policy-param-grid">{fields}</div>
                <button
                    type="button"
                    class="policy-reset"
                    disabled=move || setup.with(PolicySetup::at_defaults)
                    on:click=reset
                >
                    {t(Msg::PolicyReset)}
                </button>
            </fieldset>
        </details>
    }
}

/// The elastic scaler's configuration file; a valid one replaces its parameters.
fn elastic_editor(setup: Signal<PolicySetup>, on_change: Callback<PolicySetup>) -> impl IntoView {
    let config = Signal::derive(move || setup.with(PolicySetup::elastic_config));
    let on_apply = Callback::new(move |config| {
        let mut next = setup.get_untracked();
        next.apply_elastic_config(config);
        on_change.try_run(next);
    });
    view! { <ElasticConfigEditor config=config on_apply=on_apply /> }
}

/// One parameter: a labelled input with its unit, its range and default, the core's doc, and
/// its error.
#[component]
fn ParamField(
    spec: &'static ParamSpec,
    setup: Signal<PolicySetup>,
    errors: FieldErrors,
    revision: RwSignal<u32>,
    on_change: Callback<PolicySetup>,
) -> impl IntoView {
    let name = spec.name;
    let reference = use_reference();
    let id = format!("param-{}", dom_id(name));
    let help_id = format!("{id}-help");
    let error_id = format!("{id}-error");
    let value = move || {
        revision.track();
        setup.with(|s| s.get(name))
    };
    let error = move || {
        errors.with(|list| {
            list.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, text)| text.clone())
        })
    };
    let commit = move |text: String| commit_text(setup, name, &text, errors, revision, on_change);
    let input = if is_switch(spec) {
        view! {
            <input
                id=id.clone()
                type="checkbox"
                aria-describedby=format!("{help_id} {error_id}")
                prop:checked=move || value() == Some(1.0)
                on:change=move |ev| {
                    set_switch(setup, name, event_target_checked(&ev), errors, revision, on_change)
                }
            />
        }
        .into_any()
    } else {
        view! {
            <input
                id=id.clone()
                type="text"
                inputmode="decimal"
                autocomplete="off"
                spellcheck="false"
                aria-describedby=format!("{help_id} {error_id}")
                aria-invalid=move || error().is_some().to_string()
                prop:value=move || value().map(plain).unwrap_or_default()
                on:change=move |ev| commit(event_target_value(&ev))
            />
        }
        .into_any()
    };
    let unit = (!spec.unit.is_empty() && !is_switch(spec)).then(|| {
        view! { <span class="unit" aria-hidden="true">{param_unit_text(spec.unit)}</span> }
    });
    let range = (!is_switch(spec)).then(|| {
        view! { <span class="range">{range_text(spec)}</span> }
    });

    view! {
        <div class="policy-param" data-param=name class:invalid=move || error().is_some()>
            <label for=id>
                <code>{short_name(name)}</code>
            </label>
            <div class="policy-input">{input} {unit}</div>
            <p id=help_id class="param-help">
                // The doc comes from the catalog, keyed by the parameter's name.
                {move || reference.parameter_doc(name)} " " {range}
            </p>
            <p id=error_id class="field-error" role="alert">
                {error}
            </p>
        </div>
    }
}

/// Shows `text` as the error under parameter `name`'s input (none: clears it).
fn set_error(errors: FieldErrors, name: &'static str, text: Option<String>) {
    errors.update(|list| {
        list.retain(|(n, _)| *n != name);
        if let Some(text) = text {
            list.push((name, text));
        }
    });
}

/// Sets parameter `name` to the value typed, `text`; a refused value is shown under its
/// input and changes nothing.
fn commit_text(
    setup: Signal<PolicySetup>,
    name: &'static str,
    text: &str,
    errors: FieldErrors,
    revision: RwSignal<u32>,
    on_change: Callback<PolicySetup>,
) {
    let mut next = setup.get_untracked();
    match next.set_text(name, text) {
        Ok(()) => {
            set_error(errors, name, None);
            if setup.with_untracked(|s| *s != next) {
                on_change.try_run(next);
            } else {
                // Same value, written differently ("0.60"): show it as the run has it.
                revision.update(|r| *r += 1);
            }
        }
        Err(e) => set_error(errors, name, Some(error_text(&e))),
    }
}

/// Turns the switch `name` on or off; a refusal is shown under it and the switch goes back.
fn set_switch(
    setup: Signal<PolicySetup>,
    name: &'static str,
    on: bool,
    errors: FieldErrors,
    revision: RwSignal<u32>,
    on_change: Callback<PolicySetup>,
) {
    let mut next = setup.get_untracked();
    match next.set(name, if on { 1.0 } else { 0.0 }) {
        Ok(()) => {
            set_error(errors, name, None);
            on_change.try_run(next);
        }
        Err(e) => {
            set_error(errors, name, Some(error_text(&SetError::Param(e))));
            revision.update(|r| *r += 1);
        }
    }
}

// The panel's words are in the builds with `languages` (the module is built with it).
#[cfg(all(test, feature = "languages"))]
mod tests {
    use super::*;
    use crate::policy::spec_of;

    #[test]
    fn ranges_and_errors_name_the_unit_the_field_and_the_rule() {
        let spec = spec_of("hpa.sync_period_s").unwrap();
        assert_eq!(range_text(spec), "1 to 60 s, whole numbers; default 15");
        let spec = spec_of("cloud_run.cpu_target").unwrap();
        assert_eq!(range_text(spec), "0.1 to 0.95; default 0.6");
        // The unit's code is shown as the catalog's text.
        let spec = spec_of("elastic.delay_prediction.expansion_ratio").unwrap();
        assert_eq!(range_text(spec), "0 to 10 of the nodes; default 0.2");

        let mut setup = PolicySetup::default();
        let e = setup.set_text("kpa.stable_window_s", "2").unwrap_err();
        assert_eq!(
            error_text(&e),
            "kpa.stable_window_s: must be a whole number from 6 to 3600 s. Nothing was changed."
        );
        let e = setup.set_text("kpa.stable_window_s", "soon").unwrap_err();
        assert_eq!(
            error_text(&e),
            "kpa.stable_window_s: not a number; must be a whole number from 6 to 3600 s. \
             Nothing was changed."
        );
    }

    #[test]
    fn only_zero_one_integers_are_switches() {
        let switches: Vec<&str> = PolicySettings::all_specs()
            .filter(|s| is_switch(s))
            .map(|s| s.name)
            .collect();
        assert_eq!(
            switches,
            [
                "elastic.expansion_strategies.trend_expansion",
                "elastic.expansion_strategies.delay_prediction",
                "elastic.expansion_strategies.p95_expansion",
            ]
        );
    }
}
