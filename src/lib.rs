//! Browser console of the on-call simulator: a thin Leptos (client-side rendering) page around
//! the simulation core (`oncall_sim`).
//!
//! Data flows one way: seed (from the link) → core step → metrics record → view. The page
//! never computes model numbers. Components live here, not in `main.rs`, so tests can mount
//! them.

pub mod charts;
pub mod components;
pub mod hooks;
pub mod i18n;
pub mod metrics;
pub mod seed;
pub mod url_state;

pub use components::App;

/// Mounts the console into the document's body.
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
