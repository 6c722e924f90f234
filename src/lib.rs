//! Browser console of the on-call simulator: a Leptos (client-side rendering) app around the
//! simulation core (`oncall_sim`).
//!
//! Data flows one way: link (scenario, seed, settings, actions, minute) → core steps → history
//! and events → view. The page never computes model numbers: controls send the core actions
//! stamped with the minute, and everything shown is read from the core's records, events,
//! relations and summary. Components live here, not in `main.rs`, so tests can mount them.
//!
//! - [`console`]: the run (simulation + action log), pure and tested natively;
//! - [`commands`]: the host page's commands, queued and coalesced for the frame loop;
//! - [`link`]: the run as a link (query string ↔ the core's `ShareState`, notices);
//! - [`components`]: the page; [`charts`]: figures drawn on canvases;
//! - [`i18n`]: the message catalog; [`format`]: every number written for a person;
//!   [`metrics`], [`event_text`]: values and events in words; [`theme`]: the one palette;
//!   [`speed`]: the clock's speeds.
//! - [`policy`]: the autoscaling policy, its parameters, the elastic scaler's configuration
//!   file, and two policies compared.

pub mod charts;
pub mod commands;
pub mod components;
pub mod console;
#[cfg(feature = "extended")]
pub mod course;
pub mod dom;
pub mod embed;
pub mod event_text;
#[cfg(feature = "extended")]
pub mod exercise_draft;
pub mod files;
pub mod format;
pub mod handover;
pub mod hooks;
pub mod i18n;
pub mod link;
pub mod metrics;
#[cfg(test)]
mod one_clock;
pub mod policy;
#[cfg(feature = "extended")]
pub mod region_text;
#[cfg(not(feature = "extended"))]
#[path = "region_text_first_build.rs"]
pub mod region_text;
pub mod seed;
pub mod speed;
#[cfg(feature = "extended")]
pub mod sweep_worker;
pub mod theme;
pub mod url_state;

pub use components::App;

/// Mounts the console into the document's body, replacing the loading message.
pub fn mount() {
    // The extended build also runs in the Monte Carlo debrief's Web Workers
    // (`sweep_worker`), where there is no page to mount.
    #[cfg(feature = "extended")]
    if web_sys::window().is_none() {
        return;
    }
    // A panic is a bug: its message and place go to the browser's console before the module
    // stops (the release build aborts on panic).
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&info.to_string().into());
    }));
    if let Some(loading) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading"))
    {
        loading.remove();
    }
    // This build leaves the extended models out: a link that needs them opens the page that
    // has them.
    #[cfg(not(feature = "extended"))]
    {
        let search = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        if link::read_link(&search).needs_extended() && url_state::open_extended(&search, true) {
            return;
        }
    }
    // The extended build speaks the page's language: its catalog comes first.
    #[cfg(feature = "languages")]
    // Leptos's executor starts with the mount: the future goes to wasm-bindgen's.
    wasm_bindgen_futures::spawn_local(async {
        i18n::loaded::start(url_state::query_param("lang")).await;
        leptos::mount::mount_to_body(App);
    });
    #[cfg(not(feature = "languages"))]
    leptos::mount::mount_to_body(App);
}
