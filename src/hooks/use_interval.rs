//! `use_interval`: call a function at a fixed period while the calling component is alive.

use std::time::Duration;

use leptos::prelude::*;

/// Calls `tick` every `period` until the owner that called this hook is cleaned up.
///
/// The timer is cleared in `on_cleanup`, so an unmounted component leaves no timer behind.
/// Returns whether the timer could be started.
pub fn use_interval(period: Duration, tick: impl Fn() + 'static) -> bool {
    match set_interval_with_handle(tick, period) {
        Ok(handle) => {
            on_cleanup(move || handle.clear());
            true
        }
        Err(_) => false,
    }
}
