//! The autoscaling policies in the console: pick one and set its parameters
//! ([`PolicyPanel`]), import and export the elastic scaler's configuration file
//! ([`ElasticConfigEditor`]), and run two policies side by side ([`ComparisonView`]).
//!
//! Every value is checked by the core ([`PolicySettings::set`], [`ModelParams::set`],
//! [`oncall_sim::autoscale::elastic::config::parse`]); a rejected value changes nothing and
//! its error names the field. A valid change gives a new [`PolicySetup`], which the page turns
//! into the same run replayed under it (and a new link). The comparison runs both policies in the core.
//!
//! [`PolicyControls`] and [`PolicyComparison`] connect these components to the page's run.

pub mod compare;
pub mod config_editor;
pub mod monte_carlo;
pub mod panel;
pub mod run_files;

use oncall_sim::autoscale::elastic::config::ElasticConfig;
use oncall_sim::autoscale::{self, PolicyId, PolicySettings};
use oncall_sim::ids::DriverId;
use oncall_sim::message::{Message, MessageId};
use oncall_sim::params::ParamSpec;
use oncall_sim::setup::RunSetup;
use oncall_sim::share::ShareState;
use oncall_sim::{ModelParams, ParamError};

pub use compare::ComparisonView;
pub use config_editor::ElasticConfigEditor;
pub use monte_carlo::MonteCarlo;
pub use panel::PolicyPanel;
pub use run_files::RunFiles;

use leptos::prelude::*;

use crate::components::run::{use_run, RunHandle};
use crate::format::parse_number;
use crate::hooks::use_media_query;
use crate::i18n::{t, Locale, Msg};
use wasm_bindgen::JsCast;

/// Target tracking's parameters are model parameters with this prefix (its target
/// utilization is one of the controls, not a parameter).
const TARGET_TRACKING_PREFIX: &str = "scale_in_";

/// What the policy components change: the policy, every policy's parameters, and the model
/// parameters (target tracking's live there).
#[derive(Clone, Debug, PartialEq)]
pub struct PolicySetup {
    pub policy: PolicyId,
    pub settings: PolicySettings,
    pub params: ModelParams,
}

impl Default for PolicySetup {
    fn default() -> Self {
        Self {
            policy: autoscale::DEFAULT_POLICY,
            settings: PolicySettings::default(),
            params: ModelParams::default(),
        }
    }
}

impl PolicySetup {
    /// The set-up a link's state describes.
    pub fn of(state: &ShareState) -> Self {
        Self {
            policy: state.autoscaler,
            settings: state.policy.clone(),
            params: state.params.clone(),
        }
    }

    /// Writes this set-up into a link's state (scenario, seed and actions are kept).
    pub fn write_to(&self, state: &mut ShareState) {
        state.autoscaler = self.policy;
        state.policy = self.settings.clone();
        state.params = self.params.clone();
    }

    /// The parameters of the chosen policy, in the core's order.
    pub fn specs(&self) -> Vec<&'static ParamSpec> {
        PolicySettings::specs(self.policy)
    }

    /// The value of a parameter of any policy.
    pub fn get(&self, name: &str) -> Option<f64> {
        if PolicySettings::owns(name) {
            self.settings.get(name)
        } else if name.starts_with(TARGET_TRACKING_PREFIX) {
            self.params.get(name)
        } else {
            None
        }
    }

    /// Sets a parameter of any policy, checked by the core. On error nothing changes and the
    /// error names the field and what it allows.
    ///
    /// The editor changes one value at a time, so a rule between two parameters
    /// (`elastic.min_nodes` ≤ `elastic.max_nodes`, …) is checked at once, with the core's
    /// one check of the rules, and the error says what this parameter must be given the
    /// other's value.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        if PolicySettings::owns(name) {
            let mut next = self.settings.clone();
            next.set(name, value)?;
            if let Some(rule) = next.broken_rule() {
                return Err(rule.blame(name));
            }
            self.settings = next;
            Ok(())
        } else if name.starts_with(TARGET_TRACKING_PREFIX) {
            // `ModelParams::set` checks before it writes, so an error leaves it as it was.
            self.params.set(name, value)
        } else {
            Err(ParamError {
                field: name.to_owned(),
                problem: Message::new(MessageId::UnknownParam).codes(
                    "known",
                    PolicySettings::specs(self.policy)
                        .iter()
                        .map(|s| s.name)
                        .collect(),
                ),
            })
        }
    }

    /// Sets a parameter from the text a person typed: a plain decimal number in the page's
    /// language ([`parse_number`]; surrounding blanks allowed), then the core's range check.
    pub fn set_text(&mut self, name: &str, text: &str) -> Result<(), SetError> {
        let Some(value) = parse_number(Locale::page(), text) else {
            return Err(match spec_of(name) {
                Some(spec) => SetError::NotANumber {
                    name: name.to_owned(),
                    given: text.to_owned(),
                    spec,
                },
                None => SetError::UnknownName {
                    name: name.to_owned(),
                },
            });
        };
        self.set(name, value).map_err(SetError::Param)
    }

    /// Takes an elastic configuration file: the scaler's settings, and its `lb_policy` as the
    /// run's load-balancing policy (`lb`), as the command line's `--elastic-config` does, so
    /// that the link carries it.
    pub fn apply_elastic_config(&mut self, config: ElasticConfig) {
        self.params.lb = Some(config.lb_policy);
        self.settings.elastic = config;
    }

    /// The elastic configuration in use, its `lb_policy` the run's load-balancing policy
    /// where the run sets one (the link does not carry the file's own field).
    pub fn elastic_config(&self) -> ElasticConfig {
        let mut config = self.settings.elastic.clone();
        if let Some(lb) = self.params.lb {
            config.lb_policy = lb;
        }
        config
    }

    /// The chosen policy's parameters back to their defaults (the others are kept).
    pub fn reset_policy(&mut self) {
        self.settings.reset(self.policy);
        // Target tracking's parameters are model parameters.
        for spec in self.specs() {
            if !PolicySettings::owns(spec.name) {
                // Defaults are within their own ranges (the core tests it).
                let _ = self.params.set(spec.name, spec.default);
            }
        }
    }

    /// Whether the chosen policy's parameters are all at their defaults.
    pub fn at_defaults(&self) -> bool {
        let mut reset = self.clone();
        reset.reset_policy();
        reset == *self
    }
}

/// Where the policy panel goes. Like the comparison, the panel (the policy's parameters, the
/// elastic scaler's configuration file) is a module of its own, built from
/// `src/bin/policy.rs` into `lazy/` and downloaded when it is opened. It reads the run's
/// set-up from the page's link; a change it makes is a new link (a new history entry) that the
/// page follows, replaying the run under it as any other change of set-up does. The driver
/// behind the policy's latest decision is the one thing it reads from the page itself, in the
/// slot's `data-driver` attribute.
#[component]
pub fn PolicySlot() -> impl IntoView {
    let run = use_run();
    let driver = Memo::new(move |_| {
        run.snapshot.track();
        run.with(|c| c.sim().active_driver()).flatten()
    });
    view! {
        <div id=POLICY_ROOT data-driver=move || driver.get().map_or("", DriverId::as_str)>
            {placeholder(run, POLICY_MODULE, "policy", Msg::PolicyPanelHeading, Msg::PolicySlotIntro, Msg::PolicyOpen)}
        </div>
    }
}

/// The element the policy panel's module mounts into.
const POLICY_ROOT: &str = "policy-root";
/// The policy panel's module, relative to the page.
const POLICY_MODULE: &str = "lazy/oncall-sim-policy.js";

// The dynamic import, in a module of its own that wasm-bindgen writes beside the page's (a
// function built from a string would need 'unsafe-eval', which the page's policy refuses).
#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "export function start_module(path) { \
    return import(new URL(path, document.baseURI).href).then((m) => m.default()); }")]
extern "C" {
    /// Imports the module at `path` (relative to the page) and runs its default export.
    #[wasm_bindgen(catch)]
    fn start_module(path: &str) -> Result<js_sys::Promise, wasm_bindgen::JsValue>;
}

/// Downloads a part of the page built as a module of its own and starts it (it mounts itself
/// in its slot), with the run paused and the link exact; says so if it cannot be loaded.
fn open_module(
    run: RunHandle,
    name: &'static str,
    path: &'static str,
    loading: RwSignal<bool>,
    failed: RwSignal<bool>,
) {
    run.pause();
    run.write_link();
    loading.set(true);
    let loaded = start_module(path);
    leptos::task::spawn_local(async move {
        let done = match loaded {
            Ok(promise) => wasm_bindgen_futures::JsFuture::from(promise).await.is_ok(),
            Err(_) => false,
        };
        if done {
            crate::handover::opened(name);
        } else {
            failed.try_set(true);
            loading.try_set(false);
        }
    });
}

/// Empties a module's slot and mounts `view` in it, in the page's language (chosen as the
/// console chose it: the same link and browser give the same language).
fn mount_in<V: IntoView + 'static>(root: &'static str, view: impl FnOnce() -> V + 'static) {
    #[cfg(feature = "languages")]
    // Leptos's executor starts with the mount: the future goes to wasm-bindgen's.
    wasm_bindgen_futures::spawn_local(async move {
        crate::i18n::loaded::start(crate::url_state::query_param("lang")).await;
        mount_now(root, view);
    });
    #[cfg(not(feature = "languages"))]
    mount_now(root, view);
}

fn mount_now<V: IntoView + 'static>(root: &str, view: impl FnOnce() -> V + 'static) {
    let Some(slot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(root))
    else {
        return;
    };
    slot.set_inner_html("");
    if let Ok(slot) = slot.dyn_into::<web_sys::HtmlElement>() {
        leptos::mount::mount_to(slot, view).forget();
    }
}

/// The page's link, followed: read again whenever the page rewrites it
/// ([`crate::url_state::LINK_EVENT`]) or the browser goes Back or Forward.
fn follow_page_link() -> RwSignal<crate::link::Link> {
    use crate::link::read_link;
    use crate::url_state::{current_search, LINK_EVENT};
    let link = RwSignal::new(read_link(&current_search()));
    let seen = StoredValue::new(current_search());
    let reread = move |_: web_sys::Event| {
        let now = current_search();
        if seen.try_get_value().is_some_and(|s| s != now) {
            seen.set_value(now.clone());
            link.set(read_link(&now));
        }
    };
    for event in [LINK_EVENT, "popstate"] {
        let handle = window_event_listener_untyped(event, reread);
        on_cleanup(move || handle.remove());
    }
    link
}

/// The policy panel's module: mounts the panel in place of [`PolicySlot`]'s placeholder.
pub fn mount_policy() {
    mount_in(POLICY_ROOT, StandalonePolicy);
}

#[component]
fn StandalonePolicy() -> impl IntoView {
    use crate::link::{link_query, read_link};
    use crate::url_state::{current_search, push_query};
    // What each parameter does comes with the reference sheet, as in the console.
    crate::components::reference::provide_reference();
    let link = follow_page_link();
    // The set-up last applied here: the link carries every setting, but not the fields of an
    // elastic configuration file that the scaler ignores, which its export gives back. While
    // the link says the same as that set-up, the set-up is the one shown.
    let applied = StoredValue::new(None::<PolicySetup>);
    let setup = Memo::new(move |_| {
        link.with(|l| {
            let same = |a: &PolicySetup| {
                let mut state = l.state.clone();
                a.write_to(&mut state);
                state.to_pairs() == l.state.to_pairs()
            };
            applied
                .try_with_value(|a| a.as_ref().filter(|a| same(a)).cloned())
                .flatten()
                .unwrap_or_else(|| PolicySetup::of(&l.state))
        })
    });
    let slot = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(POLICY_ROOT));
    let read_driver = move || {
        slot.as_ref()
            .and_then(|s| s.get_attribute("data-driver"))
            .and_then(|d| d.parse::<DriverId>().ok())
    };
    let driver = RwSignal::new(read_driver());
    let _ = set_interval_with_handle(
        move || {
            let now = read_driver();
            if driver.get_untracked() != now {
                driver.set(now);
            }
        },
        std::time::Duration::from_millis(250),
    );
    let on_change = Callback::new(move |next: PolicySetup| {
        let mut now = read_link(&current_search());
        let autoscaler = now.state.autoscaler;
        next.write_to(&mut now.state);
        if crate::embed::read_embed(&now.rest).0.locks.autoscaler {
            now.state.autoscaler = autoscaler;
        }
        applied.set_value(Some(next));
        // A new history entry, which the page follows as it follows Back and Forward.
        if push_query(&link_query(&now.state, &now.rest)).is_ok() {
            if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new("popstate"))
            {
                let _ = window.dispatch_event(&event);
            }
        }
    });
    view! { <PolicyPanel setup=setup driver=driver on_change=on_change /> }
}

/// Where the comparison of two policies goes. The comparison is a module of its own (built
/// from `src/bin/compare.rs` into `lazy/`), downloaded when the person opens it rather than
/// with the console: it replaces this placeholder and reads the run from the page's link,
/// which is exact once the clock is paused and at most a second old while it plays.
#[component]
pub fn ComparisonSlot() -> impl IntoView {
    let run = use_run();
    view! {
        <div id=COMPARISON_ROOT>
            {placeholder(run, COMPARISON_MODULE, "compare", Msg::CompareHeading, Msg::CompareIntro, Msg::CompareOpen)}
        </div>
    }
}

/// What stands in a lazily loaded part's slot until it is opened: its heading, what it does,
/// and the button that downloads it (`data-action="open-{name}"`), which says so when the
/// download fails.
fn placeholder(
    run: RunHandle,
    module: &'static str,
    name: &'static str,
    heading: Msg,
    intro: Msg,
    open: Msg,
) -> impl IntoView {
    let (loading, failed) = (RwSignal::new(false), RwSignal::new(false));
    if crate::handover::was_open(name) {
        // Once the placeholder is on the page, where the module mounts.
        request_animation_frame(move || open_module(run, name, module, loading, failed));
    }
    let heading_id = format!("{name}-heading");
    let labelled_by = heading_id.clone();
    view! {
        <section class="panel" aria-labelledby=labelled_by>
            <h2 id=heading_id>{t(heading)}</h2>
            <p class="muted">{t(intro)}</p>
            <button
                type="button"
                data-action=format!("open-{name}")
                disabled=move || loading.get()
                on:click=move |_| open_module(run, name, module, loading, failed)
            >
                {t(open)}
            </button>
            <p class="field-error" role="alert">
                {move || failed.get().then(|| t(Msg::CompareLoadFailed))}
            </p>
        </section>
    }
}

/// The element the comparison's module mounts into.
const COMPARISON_ROOT: &str = "comparison-root";
/// The comparison's module, relative to the page (Trunk's `data-target-path`).
const COMPARISON_MODULE: &str = "lazy/oncall-sim-compare.js";

/// The comparison's module: mounts the comparison in place of [`ComparisonSlot`]'s
/// placeholder. It follows the page's link (the minutes played and the policy, looked at
/// twice a second) and takes the run from it when a comparison is asked for.
pub fn mount_comparison() {
    mount_in(COMPARISON_ROOT, StandaloneComparison);
}

#[component]
fn StandaloneComparison() -> impl IntoView {
    use crate::link::read_link;
    use crate::url_state::current_search;
    let link = follow_page_link();
    let state = Memo::new(move |_| link.with(|l| l.state.clone()));
    // The page's theme: fixed by its link (data-theme), or the system's.
    let fixed = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("data-theme"));
    let dark = use_media_query(match fixed.as_deref() {
        Some("dark") => "all",
        Some(_) => "not all",
        None => "(prefers-color-scheme: dark)",
    });
    let current = Callback::new(move |()| Some(read_link(&current_search()).state));
    let played = Signal::derive(move || state.with(|s| s.minute.unwrap_or(1).max(1)));
    let length =
        Signal::derive(move || state.with(|s| oncall_sim::exercise::scenario(s.scenario).minutes));
    let policy = Signal::derive(move || state.with(|s| s.autoscaler));
    let link = Callback::new(move |()| (current_search(), crate::url_state::current_fragment()));
    view! {
        <ComparisonView
            current=current
            played=played
            length=length
            policy=policy
            dark=dark
        />
        <MonteCarlo current=current link=link />
        <RunFiles link=link />
    }
}

/// Why a typed value was not taken: the core's refusal of a setting, the same type the link
/// and the command line get.
pub use oncall_sim::setup::SetError;

/// The spec of a parameter of any policy, target tracking's included.
pub fn spec_of(name: &str) -> Option<&'static ParamSpec> {
    RunSetup::spec(name)
}

/// The short name of a parameter: its path without the policy's prefix
/// (`hpa.tolerance` → `tolerance`).
pub fn short_name(name: &str) -> &str {
    ["cloud_run.", "elastic.", "hpa.", "kpa."]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name)
}

/// Whether a parameter is an on/off switch (0 or 1), shown as a checkbox.
pub fn is_switch(spec: &ParamSpec) -> bool {
    spec.integer && spec.min == 0.0 && spec.max == 1.0
}

/// A stable id fragment for a parameter (for element ids): letters, digits and dashes.
pub fn dom_id(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(policy: &str) -> PolicySetup {
        PolicySetup {
            policy: policy.parse().unwrap(),
            ..PolicySetup::default()
        }
    }

    /// The file's `lb_policy` becomes the run's `lb`, which the link carries, and the
    /// configuration shown and exported says the run's policy.
    #[test]
    fn the_elastic_files_lb_policy_sets_the_runs_policy() {
        use crate::policy::config_editor::{check, Checked};
        use oncall_sim::requests::Routing;
        let mut s = setup("elastic");
        let text = s
            .elastic_config()
            .to_json_text(true)
            .replace("LEAST_REQUEST", "MAGLEV");
        let Checked::Valid {
            config, changed, ..
        } = check(&text, &s.elastic_config())
        else {
            panic!("{text}");
        };
        assert!(changed);
        s.apply_elastic_config(*config);
        assert_eq!(s.params.lb, Some(Routing::Maglev));
        assert_eq!(s.elastic_config().lb_policy, Routing::Maglev);
        let mut state = ShareState::default();
        s.write_to(&mut state);
        let query = crate::link::link_query(&state, &[]);
        assert!(query.contains("lb=maglev"), "{query}");
        let back = PolicySetup::of(&crate::link::read_link(&query).state);
        assert_eq!(back.elastic_config().lb_policy, Routing::Maglev);
        // The same file again changes nothing.
        assert!(matches!(
            check(&text, &back.elastic_config()),
            Checked::Valid { changed: false, .. }
        ));
        // An unknown policy is refused, naming the field and the five policies.
        let unknown = text.replace("MAGLEV", "FASTEST");
        match check(&unknown, &back.elastic_config()) {
            Checked::Invalid(e) => {
                assert_eq!(e.field, "lb_policy");
                let message = crate::i18n::core_text(&e.message);
                for name in oncall_sim::autoscale::elastic::config::LB_POLICIES {
                    assert!(message.contains(name), "{message}");
                }
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_policy_lists_its_parameters_and_reads_them() {
        for id in PolicyId::NAMES {
            let s = setup(id);
            assert_eq!(s.policy.as_str(), *id);
            assert!(!s.specs().is_empty(), "{id}");
            for spec in s.specs() {
                assert_eq!(s.get(spec.name), Some(spec.default), "{}", spec.name);
                assert_eq!(spec_of(spec.name), Some(spec));
            }
            assert!(s.at_defaults());
        }
    }

    #[test]
    fn a_valid_value_is_taken_and_an_invalid_one_changes_nothing() {
        let mut s = setup("hpa");
        s.set_text("hpa.tolerance", " 0.2 ").unwrap();
        assert_eq!(s.get("hpa.tolerance"), Some(0.2));
        assert!(!s.at_defaults());

        let before = s.clone();
        let err = s.set_text("hpa.tolerance", "7").unwrap_err();
        match err {
            SetError::Param(e) => {
                assert_eq!(e.field, "hpa.tolerance");
                assert!(e.to_string().contains("0 to 1"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        for bad in ["", "abc", "1,5", "inf", "NaN", "0x10", "1e999"] {
            let err = s.set_text("hpa.tolerance", bad).unwrap_err();
            assert!(
                matches!(&err, SetError::NotANumber { name, spec, .. }
                    if name == "hpa.tolerance"
                        && spec.allowed().to_string().contains("0 to 1")),
                "{bad}: {err:?}"
            );
        }
        assert_eq!(s, before);
    }

    #[test]
    fn a_rule_between_parameters_names_the_one_edited() {
        let mut s = setup("cloud-run");
        let before = s.clone();
        let err = s.set("cloud_run.act_cpu_high", 0.5).unwrap_err();
        assert_eq!(err.field, "cloud_run.act_cpu_high");
        assert!(
            err.to_string()
                .contains("must be above cloud_run.act_cpu_low (0.7)"),
            "{err}"
        );
        assert_eq!(s, before);
        s.set("cloud_run.act_cpu_low", 0.4).unwrap();
        s.set("cloud_run.act_cpu_high", 0.5).unwrap();
        let mut s = setup("elastic");
        s.set("elastic.min_nodes", 1.0).unwrap();
        s.set("elastic.max_nodes", 1.0).unwrap();
        let err = s.set("elastic.min_nodes", 3.0).unwrap_err();
        assert!(
            err.to_string()
                .contains("elastic.min_nodes: must not exceed elastic.max_nodes (1)"),
            "{err}"
        );
    }

    #[test]
    fn target_tracking_parameters_are_model_parameters() {
        let mut s = setup("target-tracking");
        s.set_text("scale_in_quiet_minutes", "20").unwrap();
        assert_eq!(s.params.scale_in_quiet_minutes, 20);
        assert!(s.set_text("scale_in_quiet_minutes", "2.5").is_err());
        assert!(s.set("timeout_s", 3.0).is_err(), "only scale-in settings");
        s.reset_policy();
        assert_eq!(s.params.scale_in_quiet_minutes, 10);
    }

    #[test]
    fn a_relation_between_fields_is_checked_too() {
        let mut s = setup("elastic");
        let err = s.set("elastic.min_nodes", 50.0).unwrap_err();
        assert_eq!(err.field, "elastic.min_nodes");
        assert!(err.to_string().contains("max_nodes"), "{err}");
        assert_eq!(s.get("elastic.min_nodes"), Some(2.0));
    }

    #[test]
    fn reset_touches_only_the_chosen_policy() {
        let mut s = setup("kpa");
        s.set("kpa.stable_window_s", 120.0).unwrap();
        s.set("hpa.tolerance", 0.3).unwrap();
        s.reset_policy();
        assert_eq!(s.get("kpa.stable_window_s"), Some(60.0));
        assert_eq!(s.get("hpa.tolerance"), Some(0.3));
    }

    #[test]
    fn the_set_up_round_trips_through_a_link() {
        let mut s = setup("cloud-run");
        s.set("cloud_run.concurrency_target", 0.7).unwrap();
        s.set("scale_in_max_share", 0.5).unwrap();
        let mut state = ShareState::default();
        s.write_to(&mut state);
        let (back, notices, _) = ShareState::from_pairs(&state.to_pairs());
        assert!(notices.is_empty());
        assert_eq!(PolicySetup::of(&back), s);
    }

    #[test]
    fn numbers_are_written_back_plainly() {
        let plain = |x| crate::format::plain(Locale::En, x);
        assert_eq!(plain(600.0), "600");
        assert_eq!(plain(0.6), "0.6");
        assert_eq!(plain(1e6), "1000000");
        assert_eq!(plain(f64::NAN), "");
        assert_eq!(
            short_name("elastic.p95_expansion.threshold"),
            "p95_expansion.threshold"
        );
        assert_eq!(short_name("scale_in_max_share"), "scale_in_max_share");
        assert_eq!(
            dom_id("elastic.p95_expansion.threshold"),
            "elastic-p95-expansion-threshold"
        );
    }
}
