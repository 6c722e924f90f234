//! The page's elements, looked up by selector where a component reaches beyond its own view
//! (moving the focus to another part of the page).

use wasm_bindgen::JsCast;

/// The page's first element that `selector` matches, as an HTML element (one that takes the
/// focus and scrolls into view).
pub fn html_element(selector: &str) -> Option<web_sys::HtmlElement> {
    web_sys::window()?
        .document()?
        .query_selector(selector)
        .ok()
        .flatten()?
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}
