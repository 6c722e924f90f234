//! `use_media_query`: whether a CSS media query matches, kept up to date.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// A signal that follows `query` (e.g. `(prefers-color-scheme: dark)`). Without `matchMedia`
/// it stays `false`. The listener is removed when the calling component is cleaned up.
pub fn use_media_query(query: &'static str) -> ReadSignal<bool> {
    let list = web_sys::window().and_then(|w| w.match_media(query).ok().flatten());
    let (matches, set_matches) = signal(list.as_ref().is_some_and(|l| l.matches()));
    if let Some(list) = list {
        let listener = Closure::<dyn FnMut(web_sys::MediaQueryListEvent)>::new(
            move |event: web_sys::MediaQueryListEvent| set_matches.set(event.matches()),
        );
        let function: js_sys::Function = listener
            .as_ref()
            .unchecked_ref::<js_sys::Function>()
            .clone();
        if list
            .add_event_listener_with_callback("change", &function)
            .is_ok()
        {
            let kept = StoredValue::new_local(Some((list, function, listener)));
            on_cleanup(move || {
                kept.try_update_value(|kept| {
                    if let Some((list, function, listener)) = kept.take() {
                        let _ = list.remove_event_listener_with_callback("change", &function);
                        drop(listener);
                    }
                });
            });
        }
    }
    matches
}
