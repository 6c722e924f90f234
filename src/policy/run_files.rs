//! The run's files: the run as played so far, exported (the run file, which opens here again
//! and replays the same run; the minute records as CSV and JSON lines with the command line's
//! field names; the event log as CSV; each chart as a PNG image at the screen's pixel ratio),
//! and a run file imported.
//!
//! The files are written by the extended build's core in a Web Worker
//! ([`crate::sweep_worker::export_run`], [`crate::sweep_worker::import_run`]), which replays the
//! page's link: whatever build the page runs, the files are those of the same run, and the
//! records those `oncall-sim run` prints for it. An imported file becomes the page's link, so
//! the page replays it as it opens any shared link (with a notice for each setting that is
//! not allowed).

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::monte_carlo::{field, js_text, WORKER_SCRIPT};
use crate::files::{data_url, read_text, take_chosen};
use crate::i18n::{t, tf, Msg};

/// A file ready to download: its button's text, name, type and content (a `data:` URL).
#[derive(Clone, Debug, PartialEq)]
struct Download {
    action: String,
    label: String,
    name: String,
    href: String,
}

/// Where the export or the import is.
#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Idle,
    Exporting {
        minute: u32,
    },
    Exported {
        minute: u32,
        seed: u32,
        files: Rc<Vec<Download>>,
    },
    Importing,
    Failed(String),
}

/// The panel: the export's button and its files, and the import's file input.
#[component]
pub fn RunFiles(
    /// The page's query string and fragment, as the worker reads them.
    link: Callback<(), (String, String)>,
) -> impl IntoView {
    let phase = RwSignal::new_local(Phase::Idle);
    // The worker of the export or import under way, and its message handler.
    let busy: StoredValue<Option<Busy>, LocalStorage> = StoredValue::new_local(None);
    let stop = move || {
        busy.update_value(|b| {
            if let Some(b) = b.take() {
                b.worker.terminate();
            }
        })
    };
    on_cleanup(stop);
    let export = move || {
        stop();
        let (search, fragment) = link.run(());
        let state = crate::link::read_link(&search).state;
        let minute = state.minute.unwrap_or(0);
        let seed = state.seed.unwrap_or_default();
        let name = file_stem(state.scenario.as_str(), seed, minute);
        let charts = chart_images(&name);
        phase.set(Phase::Exporting { minute });
        let message = message(&[
            ("kind", "export"),
            ("search", &search),
            ("fragment", &fragment),
            ("lang", crate::i18n::Locale::page().tag()),
        ]);
        let started = ask(message, move |answer| {
            phase.set(match answer {
                Ok(data) => {
                    let files = field(&data, "files")
                        .map(|v| {
                            js_sys::Array::from(&v)
                                .iter()
                                .filter_map(|f| f.as_string())
                                .collect()
                        })
                        .unwrap_or_default();
                    Phase::Exported {
                        minute,
                        seed,
                        files: Rc::new(downloads(&name, files, charts)),
                    }
                }
                Err(e) => Phase::Failed(tf(Msg::RunFilesExportFailed, &[("error", &e)])),
            });
        });
        match started {
            Ok(b) => busy.set_value(Some(b)),
            Err(e) => phase.set(Phase::Failed(tf(
                Msg::RunFilesExportFailed,
                &[("error", &e)],
            ))),
        }
    };
    let import = move |ev: web_sys::Event| {
        let Some(file) = take_chosen(&ev) else {
            return;
        };
        stop();
        phase.set(Phase::Importing);
        read_text(&file, move |text| {
            let refused = |why: &str| {
                phase.try_set(Phase::Failed(tf(
                    Msg::RunFilesImportFailed,
                    &[("error", why)],
                )));
            };
            let text = match text {
                None => return refused(t(Msg::RunFilesUnreadable)),
                Some(text) if text.len() > oncall_sim::run_file::MAX_BYTES => {
                    return refused(&too_large(text.len()));
                }
                Some(text) => text,
            };
            let message = message(&[
                ("kind", "import"),
                ("text", &text),
                ("lang", crate::i18n::Locale::page().tag()),
            ]);
            let started = ask(message, move |answer| match answer {
                Ok(data) => {
                    let link = field(&data, "link")
                        .and_then(|v| v.as_string())
                        .unwrap_or_default();
                    open_link(&link);
                }
                Err(e) => {
                    phase.set(Phase::Failed(tf(
                        Msg::RunFilesImportFailed,
                        &[("error", &e)],
                    )));
                }
            });
            match started {
                Ok(b) => busy.set_value(Some(b)),
                Err(e) => {
                    phase.try_set(Phase::Failed(tf(
                        Msg::RunFilesImportFailed,
                        &[("error", &e)],
                    )));
                }
            }
        });
    };
    let working = move || matches!(phase.get(), Phase::Exporting { .. } | Phase::Importing);
    if crate::handover::import_asked() {
        // Opened from the start view to open a run file: the import, in view, focused.
        request_animation_frame(|| {
            if let Some(input) = crate::dom::html_element("#run-file-input") {
                // Its field (label and input) at the bottom of the view, clear of the sticky
                // strip whatever its height (a phone's is taller).
                if let Some(field) = input.parent_element() {
                    field.scroll_into_view_with_bool(false);
                }
                let _ = input.focus();
            }
        });
    }
    view! {
        <section class="panel run-files" data-run-files aria-labelledby="run-files-heading">
            <h2 id="run-files-heading">{t(Msg::RunFilesHeading)}</h2>
            <p class="muted">{t(Msg::RunFilesIntro)}</p>
            <div class="compare-form">
                <button type="button" data-action="export-run" disabled=working on:click=move |_| export()>
                    {t(Msg::RunFilesExport)}
                </button>
                <div class="field">
                    <label for="run-file-input">{t(Msg::RunFilesImportLabel)}</label>
                    <input
                        id="run-file-input"
                        type="file"
                        accept=".json,application/json"
                        data-field="run-file-input"
                        disabled=working
                        on:change=import
                    />
                </div>
            </div>
            <div aria-live="polite" data-field="run-files-status">
                {move || match phase.get() {
                    Phase::Exporting { minute } => Some(tf(Msg::RunFilesPreparing, &[("minute", &minute.to_string())])),
                    Phase::Importing => Some(t(Msg::RunFilesImporting).to_string()),
                    Phase::Exported { minute, seed, .. } => Some(tf(
                        Msg::RunFilesReady,
                        &[("minute", &minute.to_string()), ("seed", &seed.to_string())],
                    )),
                    _ => None,
                }
                    .map(|text| view! { <p>{text}</p> })}
            </div>
            <p class="field-error" role="alert">
                {move || match phase.get() {
                    Phase::Failed(e) => Some(e),
                    _ => None,
                }}
            </p>
            {move || match phase.get() {
                Phase::Exported { files, .. } => Some(view! {
                    <div class="monte-carlo-downloads" data-field="run-files-downloads">
                        {files.iter().map(|f| view! {
                            <a class="button" data-action=f.action.clone() download=f.name.clone() href=f.href.clone()>
                                {f.label.clone()}
                            </a>
                        }).collect_view()}
                    </div>
                }),
                _ => None,
            }}
        </section>
    }
}

/// Why a file of `size` bytes is not read: larger than a run file may be.
fn too_large(size: usize) -> String {
    tf(
        Msg::RunFilesTooLarge,
        &[
            ("size", &size.to_string()),
            ("max", &oncall_sim::run_file::MAX_BYTES.to_string()),
        ],
    )
}

/// The files' common name: `oncall-sim-bad-deploy-seed-7-minute-30`.
fn file_stem(scenario: &str, seed: u32, minute: u32) -> String {
    format!("oncall-sim-{scenario}-seed-{seed}-minute-{minute}")
}

/// The export's downloads: the worker's four files (`files`: run file, records as CSV and as
/// JSON lines, event log as CSV), then the charts' images.
fn downloads(stem: &str, files: Vec<String>, charts: Vec<Download>) -> Vec<Download> {
    const KINDS: [(&str, Msg, &str, &str); 4] = [
        (
            "download-run",
            Msg::RunFilesRun,
            "run.json",
            "application/json",
        ),
        (
            "download-minutes-csv",
            Msg::RunFilesMinutesCsv,
            "minutes.csv",
            "text/csv",
        ),
        (
            "download-minutes-json",
            Msg::RunFilesMinutesJson,
            "minutes.jsonl",
            "application/x-ndjson",
        ),
        (
            "download-events-csv",
            Msg::RunFilesEvents,
            "events.csv",
            "text/csv",
        ),
    ];
    let mut out: Vec<Download> = KINDS
        .iter()
        .zip(files)
        .map(|(&(action, label, suffix, mime), text)| Download {
            action: action.to_owned(),
            label: t(label).to_owned(),
            name: format!("{stem}-{suffix}"),
            href: data_url(mime, &text),
        })
        .collect();
    out.extend(charts);
    out
}

/// Each chart of the page as it is drawn now, as a PNG image of its canvas (drawn at the
/// screen's pixel ratio); a chart not shown (on another phone tab) is not drawn and is left
/// out.
fn chart_images(stem: &str) -> Vec<Download> {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let Ok(canvases) = document.query_selector_all("figure.chart[data-chart] canvas") else {
        return Vec::new();
    };
    (0..canvases.length())
        .filter_map(|i| {
            canvases
                .item(i)?
                .dyn_into::<web_sys::HtmlCanvasElement>()
                .ok()
        })
        .filter(|c| c.client_width() > 0 && c.width() > 0 && c.height() > 0)
        .filter_map(|canvas| {
            let id = canvas.get_attribute("data-chart")?;
            let title = document
                .get_element_by_id(&format!("chart-{id}-title"))
                .and_then(|h| h.text_content())
                .unwrap_or_else(|| id.clone());
            let href = canvas.to_data_url_with_type("image/png").ok()?;
            Some(Download {
                action: format!("download-chart-{id}"),
                label: tf(
                    Msg::RunFilesChart,
                    &[
                        ("chart", &title),
                        ("width", &canvas.width().to_string()),
                        ("height", &canvas.height().to_string()),
                    ],
                ),
                name: format!("{stem}-chart-{id}.png"),
                href,
            })
        })
        .collect()
}

/// Opens the link a run file gave, in the page's language: the page loads it as any shared
/// link (the build it needs, the run replayed to its minute).
fn open_link(link: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let (query, fragment) = link.split_once('#').map_or((link, ""), |(q, f)| (q, f));
    let mut query = query.to_owned();
    if let Some(lang) = crate::url_state::query_param("lang") {
        let mut pairs = crate::link::parse_query(&query);
        pairs.push(("lang".to_owned(), lang));
        query = crate::link::encode_query(&pairs);
    }
    let mut target = query;
    if !fragment.is_empty() {
        target.push('#');
        target.push_str(fragment);
    }
    let _ = window.location().assign(&target);
}

/// A worker doing one export or import, and its message handler (kept alive with it).
struct Busy {
    worker: web_sys::Worker,
    _handler: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

/// Starts a worker on `message` and calls `done` with its answer (or its error, in words);
/// the worker ends once it has answered.
fn ask(
    message: js_sys::Object,
    done: impl FnOnce(Result<JsValue, String>) + 'static,
) -> Result<Busy, String> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker =
        web_sys::Worker::new_with_options(WORKER_SCRIPT, &options).map_err(|e| js_text(&e))?;
    let done = Rc::new(RefCell::new(Some(done)));
    let me = worker.clone();
    let handler =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let data = ev.data();
            me.terminate();
            let answer = match field(&data, "error").and_then(|v| v.as_string()) {
                Some(error) => Err(error),
                None => Ok(data),
            };
            if let Some(done) = done.borrow_mut().take() {
                done(answer);
            }
        });
    worker.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    worker.post_message(&message).map_err(|e| js_text(&e))?;
    Ok(Busy {
        worker,
        _handler: handler,
    })
}

/// A worker's message: `job` 0 and the given fields.
fn message(fields: &[(&str, &str)]) -> js_sys::Object {
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"job".into(), &JsValue::from_f64(0.0));
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str(k), &JsValue::from_str(v));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_are_named_after_the_run() {
        assert_eq!(
            file_stem("bad-deploy", 7, 30),
            "oncall-sim-bad-deploy-seed-7-minute-30"
        );
        let files = downloads(
            "x",
            vec![
                "{}".into(),
                "a,b\n".into(),
                "{}\n".into(),
                "minute\n".into(),
            ],
            Vec::new(),
        );
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "x-run.json",
                "x-minutes.csv",
                "x-minutes.jsonl",
                "x-events.csv"
            ]
        );
        assert!(files[1]
            .href
            .starts_with("data:text/csv;charset=utf-8,a%2Cb"));
    }
}
