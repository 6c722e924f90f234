//! The reference texts (the sources panel's relations, what each parameter does), fetched
//! once the page has started from the sheet beside it, which the core's catalog generates
//! (see `oncall_sim::catalog::sheet`). The simulation never waits for them.

use leptos::prelude::*;
use oncall_sim::catalog::sheet::{self, ReferenceSheet};

/// The sheet of the page's language, beside the page (`reference-LANG.json`). Relative, so
/// the page works from any folder.
#[cfg(feature = "languages")]
fn sheet_url() -> String {
    #[cfg(pseudo_locale)]
    if crate::i18n::Locale::page() == crate::i18n::Locale::Pseudo {
        return "reference-en.json".to_owned();
    }
    format!("reference-{}.json", crate::i18n::Locale::page().tag())
}

/// The first build speaks English only.
#[cfg(not(feature = "languages"))]
fn sheet_url() -> String {
    "reference-en.json".to_owned()
}

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
    let sheet = sheet::from_file_text(&crate::files::fetch_text(&sheet_url()).await?)?;
    #[cfg(pseudo_locale)]
    let sheet = if crate::i18n::Locale::page() == crate::i18n::Locale::Pseudo {
        pseudo_sheet(sheet)
    } else {
        sheet
    };
    Ok(sheet)
}

/// The English sheet in the pseudo-locale: every text stretched and marked but the formulas
/// and the cited works, which stay as published.
#[cfg(pseudo_locale)]
fn pseudo_sheet(mut sheet: ReferenceSheet) -> ReferenceSheet {
    use crate::i18n::loaded::stretch;
    for relation in sheet.groups.iter_mut().flat_map(|g| g.relations.iter_mut()) {
        relation.name = stretch(&relation.name);
        relation.note = stretch(&relation.note);
        for (_, meaning) in &mut relation.symbols {
            *meaning = stretch(meaning);
        }
    }
    for parameter in &mut sheet.parameters {
        parameter.doc = stretch(&parameter.doc);
    }
    sheet
}
