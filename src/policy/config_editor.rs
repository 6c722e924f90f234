//! The elastic scaler's configuration file, in its own format (`//` comments and trailing
//! commas allowed): pasted or uploaded, checked by the core's parser, applied only when the
//! whole file is valid, and exported back with the fields the simulator ignores.

use leptos::prelude::*;
use oncall_sim::autoscale::elastic::config::{self, ConfigError, ElasticConfig, Note};

use crate::files::{json_data_url, read_text, take_chosen};
use crate::i18n::{config_text, t, tf, Msg};

/// Largest configuration accepted, in bytes: the core's limit, which the command line keeps
/// too.
pub use config::MAX_CONFIG_BYTES;

/// Name of the exported file.
pub const EXPORT_FILE_NAME: &str = "elastic-config.json";

/// What checking a configuration text gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Checked {
    /// Valid: the configuration and the parser's notes (ignored fields, settings without
    /// effect). `changed` says whether it differs from the one in use.
    Valid {
        config: Box<ElasticConfig>,
        notes: Vec<Note>,
        changed: bool,
    },
    /// Invalid: the field and what it allows. Nothing is applied.
    Invalid(ConfigError),
    /// Larger than [`MAX_CONFIG_BYTES`].
    TooLarge,
}

/// Checks `text` against the core's parser; `current` is the configuration in use.
pub fn check(text: &str, current: &ElasticConfig) -> Checked {
    if text.len() > MAX_CONFIG_BYTES {
        return Checked::TooLarge;
    }
    match config::parse(text) {
        Ok((config, notes)) => Checked::Valid {
            changed: config != *current,
            config: Box::new(config),
            notes,
        },
        Err(e) => Checked::Invalid(e),
    }
}

/// What the editor says after the last attempt.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Applied(Vec<Note>),
    Unchanged(Vec<Note>),
    Rejected(ConfigError),
    /// A problem before parsing (file too large, unreadable).
    Problem(Msg),
}

/// The configuration editor. `config` is the configuration in use; `on_apply` gets a valid
/// new one (the page replays the run under it).
#[component]
pub fn ElasticConfigEditor(
    #[prop(into)] config: Signal<ElasticConfig>,
    on_apply: Callback<ElasticConfig>,
) -> impl IntoView {
    let text = RwSignal::new(config.with_untracked(|c| c.to_json_text(true)));
    let status = RwSignal::new(None::<Status>);
    let apply = move |source: String| apply_text(config, on_apply, status, source);
    view! {
        <section class="config-editor" aria-labelledby="config-heading" data-panel="elastic-config">
            <h3 id="config-heading">{t(Msg::ConfigHeading)}</h3>
            <p class="muted small" id="config-intro">{t(Msg::ConfigIntro)}</p>
            <label for="config-text">{t(Msg::ConfigTextLabel)}</label>
            <textarea
                id="config-text"
                data-field="config-text"
                rows="12"
                spellcheck="false"
                aria-describedby="config-intro config-result"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
            {config_actions(config, text, status, apply)}
            <div id="config-result" role="status" aria-live="polite">
                {move || status.get().map(status_view)}
            </div>
            <p class="muted small">{t(Msg::ConfigLinkNote)}</p>
        </section>
    }
}

/// Checks `source` against the configuration in use, hands a valid new one to `on_apply` and
/// says what came of it.
fn apply_text(
    config: Signal<ElasticConfig>,
    on_apply: Callback<ElasticConfig>,
    status: RwSignal<Option<Status>>,
    source: String,
) {
    let Some(current) = config.try_get_untracked() else {
        return;
    };
    let next = match check(&source, &current) {
        Checked::Valid {
            config,
            notes,
            changed: true,
        } => {
            on_apply.try_run(*config);
            Status::Applied(notes)
        }
        Checked::Valid { notes, .. } => Status::Unchanged(notes),
        Checked::Invalid(e) => Status::Rejected(e),
        Checked::TooLarge => Status::Problem(Msg::ConfigTooLarge),
    };
    status.try_set(Some(next));
}

/// Apply, back to the configuration in use, download it, and upload a file.
fn config_actions(
    config: Signal<ElasticConfig>,
    text: RwSignal<String>,
    status: RwSignal<Option<Status>>,
    apply: impl Fn(String) + Copy + 'static,
) -> impl IntoView {
    // The configuration in use, as the scaler reads it (ignored fields kept): shown in the
    // editor on request and offered as a file.
    let in_use = Memo::new(move |_| config.with(|c| c.to_json_text(true)));
    view! {
        <div class="config-actions">
            <button
                type="button"
                data-action="config-apply"
                on:click=move |_| apply(text.get_untracked())
            >
                {t(Msg::ConfigApply)}
            </button>
            <button
                type="button"
                data-action="config-in-use"
                on:click=move |_| {
                    status.set(None);
                    text.set(in_use.get_untracked());
                }
            >
                {t(Msg::ConfigRevert)}
            </button>
            <a
                class="button"
                data-action="config-download"
                download=EXPORT_FILE_NAME
                href=move || json_data_url(&in_use.get())
            >
                {t(Msg::ConfigDownload)}
            </a>
            <label class="file-button">
                {t(Msg::ConfigUploadLabel)}
                <input
                    type="file"
                    data-field="config-file"
                    accept=".json,.jsonc,.txt,application/json,text/plain"
                    on:change=move |ev| upload(&ev, text, status, apply)
                />
            </label>
        </div>
    }
}

/// Reads the file chosen in the upload input into the editor and applies it.
fn upload(
    ev: &leptos::ev::Event,
    text: RwSignal<String>,
    status: RwSignal<Option<Status>>,
    apply: impl Fn(String) + 'static,
) {
    let Some(file) = take_chosen(ev) else {
        return;
    };
    if file.size() > MAX_CONFIG_BYTES as f64 {
        status.set(Some(Status::Problem(Msg::ConfigTooLarge)));
        return;
    }
    read_text(&file, move |content| match content {
        Some(content) => {
            text.try_set(content.clone());
            apply(content);
        }
        None => {
            status.try_set(Some(Status::Problem(Msg::ConfigFileUnreadable)));
        }
    });
}

/// What the last attempt gave: applied, unchanged, rejected (the field and its rule) or a
/// problem with the file; with the parser's notes.
fn status_view(s: Status) -> impl IntoView {
    let (class, head, notes) = match s {
        Status::Applied(notes) => ("ok", t(Msg::ConfigApplied).to_owned(), notes),
        Status::Unchanged(notes) => ("ok", t(Msg::ConfigUnchanged).to_owned(), notes),
        Status::Rejected(e) => (
            "error",
            tf(
                Msg::ConfigRejected,
                &[("field", &e.field), ("message", &config_text(&e.message))],
            ),
            Vec::new(),
        ),
        Status::Problem(msg) => (
            "error",
            tf(msg, &[("max", &(MAX_CONFIG_BYTES / 1024).to_string())]),
            Vec::new(),
        ),
    };
    view! {
        <p class=format!("config-status {class}") data-status=class>{head}</p>
        {notes_view(notes)}
    }
}

/// The parser's notes (ignored fields, settings without effect), if any.
fn notes_view(notes: Vec<Note>) -> Option<impl IntoView> {
    (!notes.is_empty()).then(|| {
        let items = notes
            .into_iter()
            .map(|n| {
                view! {
                    <li data-note=n.field.clone()>
                        {tf(
                            Msg::ConfigNote,
                            &[("field", &n.field), ("message", &config_text(&n.message))],
                        )}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="config-notes">
                <h4>{t(Msg::ConfigNotesHeading)}</h4>
                <ul>{items}</ul>
            </div>
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../../sim/tests/data/elastic-config.jsonc");

    #[test]
    fn the_sources_example_is_accepted_with_notes() {
        let current = ElasticConfig::default();
        match check(EXAMPLE, &current) {
            Checked::Valid { notes, config, .. } => {
                let fields: Vec<&str> = notes.iter().map(|n| n.field.as_str()).collect();
                for ignored in ["token", "openapi_base_url", "scale_up_request", "dashboard"] {
                    assert!(fields.contains(&ignored), "{fields:?}");
                }
                assert_eq!(config.max_nodes, 20);
                // The export keeps what the real scaler needs and reads back the same.
                let again = config.to_json_text(true);
                assert!(matches!(
                    check(&again, &config),
                    Checked::Valid { changed: false, .. }
                ));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_broken_variant_is_rejected_naming_the_field() {
        let broken = EXAMPLE.replace("\"max_nodes\": 20", "\"max_nodes\": 999");
        assert_ne!(broken, EXAMPLE);
        match check(&broken, &ElasticConfig::default()) {
            Checked::Invalid(e) => {
                assert_eq!(e.field, "max_nodes");
                assert!(e.message.to_string().contains("1 to 200"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        let unknown = EXAMPLE.replace("\"min_nodes\"", "\"min_nodez\"");
        assert!(matches!(check(&unknown, &ElasticConfig::default()),
            Checked::Invalid(e) if e.field == "min_nodez"));
        assert!(matches!(
            check("{ not json", &ElasticConfig::default()),
            Checked::Invalid(e) if e.field == "json"
        ));
        let huge = " ".repeat(MAX_CONFIG_BYTES + 1);
        assert_eq!(check(&huge, &ElasticConfig::default()), Checked::TooLarge);
    }
}
