//! The reference texts (the sources panel's relations, what each parameter does), fetched
//! once the page has started from the sheet beside it, which the core's catalog generates
//! (see `oncall_sim::catalog::sheet`). The simulation never waits for them.

use leptos::prelude::*;
use oncall_sim::catalog::sheet::{self, ReferenceSheet};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The sheet of the page's language, beside the page. Relative, so the page works from any
/// folder.
const SHEET_URL: &str = "reference-en.json";

/// Where the reference texts stand.
#[derive(Clone, Debug, PartialEq)]
pub enum SheetState {
    Loading,
    Ready(ReferenceSheet),
    /// Why the sheet could not be had, in a few words.
    Failed(String),
}

/// The page's reference texts, shared by the panels that show them.
#[derive(Clone, Copy)]
pub struct Reference {
    pub state: RwSignal<SheetState>,
}

impl Reference {
    /// Fetches the sheet (again), showing "loading" meanwhile.
    pub fn load(self) {
        self.state.set(SheetState::Loading);
        leptos::task::spawn_local(async move {
            let state = match fetch_sheet().await {
                Ok(s) => SheetState::Ready(s),
                Err(reason) => SheetState::Failed(reason),
            };
            self.state.try_set(state);
        });
    }

    /// What the parameter called `name` does; empty until the sheet is in (or if it lacks the
    /// name).
    pub fn parameter_doc(self, name: &str) -> String {
        self.state.with(|s| match s {
            SheetState::Ready(sheet) => sheet.parameter_doc(name).unwrap_or_default().to_owned(),
            _ => String::new(),
        })
    }
}

/// Starts fetching the reference texts and makes them available to the page's components.
pub fn provide_reference() -> Reference {
    let reference = Reference {
        state: RwSignal::new(SheetState::Loading),
    };
    reference.load();
    provide_context(reference);
    reference
}

/// The page's reference texts (from context).
pub fn use_reference() -> Reference {
    expect_context::<Reference>()
}

/// Fetches and reads the sheet; the error says what went wrong in a few words.
async fn fetch_sheet() -> Result<ReferenceSheet, String> {
    let describe = |e: JsValue| e.as_string().unwrap_or_else(|| "network error".to_owned());
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(SHEET_URL))
        .await
        .map_err(describe)?
        .dyn_into::<web_sys::Response>()
        .map_err(describe)?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(describe)?)
        .await
        .map_err(describe)?
        .as_string()
        .unwrap_or_default();
    sheet::from_file_text(&text)
}
