//! Files the person opens and saves: reading a chosen or dropped file as text, and the
//! `data:` URL a download link gives.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A `data:` URL holding `text` as a file of type `mime` (UTF-8): everything but unreserved
/// characters is percent-encoded.
pub fn data_url(mime: &str, text: &str) -> String {
    let mut out = format!("data:{mime};charset=utf-8,");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A `data:` URL holding `text` as a JSON file.
pub fn json_data_url(text: &str) -> String {
    data_url("application/json", text)
}

/// The file chosen in a file input (`ev` is its change event). The input is cleared, so that
/// the same file can be chosen again after an edit.
pub fn take_chosen(ev: &web_sys::Event) -> Option<web_sys::File> {
    let input = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())?;
    let file = input.files().and_then(|list| list.get(0));
    input.set_value("");
    file
}

/// Reads a file as text and calls `done` with it (`None` when it cannot be read).
pub fn read_text(file: &web_sys::File, done: impl FnOnce(Option<String>) + 'static) {
    let Ok(reader) = web_sys::FileReader::new() else {
        done(None);
        return;
    };
    let source = reader.clone();
    // `loadend` comes once, after success or failure; the closure is freed after it runs.
    let on_end = Closure::once_into_js(move || {
        done(source.result().ok().and_then(|v| v.as_string()));
    });
    reader.set_onloadend(Some(on_end.unchecked_ref()));
    if reader.read_as_text(file).is_err() {
        reader.set_onloadend(None);
    }
}

/// Fetches a file beside the page as text; the error says what went wrong in a few words.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let describe = |e: JsValue| e.as_string().unwrap_or_else(|| "network error".to_owned());
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(describe)?
        .dyn_into::<web_sys::Response>()
        .map_err(describe)?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    Ok(JsFuture::from(response.text().map_err(describe)?)
        .await
        .map_err(describe)?
        .as_string()
        .unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_export_is_a_data_url_of_the_text() {
        let url = json_data_url("{\"a\": \"é\"}\n");
        assert_eq!(
            url,
            "data:application/json;charset=utf-8,%7B%22a%22%3A%20%22%C3%A9%22%7D%0A"
        );
        assert!(data_url("text/markdown", "# A")
            .starts_with("data:text/markdown;charset=utf-8,%23%20A"));
    }
}
