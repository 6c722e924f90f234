//! Reading and writing the run's state in the page's URL.
//!
//! Writes go through `history.replaceState`: sharing state must neither add a history entry per
//! change nor move the page (a navigation would scroll to the top).

use wasm_bindgen::JsValue;
use web_sys::{Url, UrlSearchParams};

/// The value of one query parameter of the current page, if present.
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    UrlSearchParams::new_with_str(&search).ok()?.get(name)
}

/// Sets one query parameter of the current page's URL in place, keeping the others, the path
/// and the fragment.
pub fn replace_query_param(name: &str, value: &str) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let url = Url::new(&window.location().href()?)?;
    url.search_params().set(name, value);
    let href = url.href();
    window
        .history()?
        .replace_state_with_url(&JsValue::NULL, "", Some(&href))
}
