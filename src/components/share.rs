use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use crate::components::icons::{Icon, IconView};
use crate::components::run::use_run;
use crate::embed::{embedded_rest, iframe_snippet};
use crate::i18n::{t, Msg};

/// How long the "copied" confirmation stays.
const CONFIRMATION: Duration = Duration::from_secs(5);

#[derive(Clone, Debug, PartialEq)]
enum ShareState {
    Idle,
    Copied,
    /// No clipboard access: the link is shown for copying by hand.
    Manual(String),
}

/// Copies `text` with the asynchronous clipboard API, if the page has it.
pub(crate) async fn copy(text: &str) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let navigator = window.navigator();
    // `navigator.clipboard` is missing outside secure contexts; calling it would throw.
    let clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))?;
    if clipboard.is_undefined() || clipboard.is_null() {
        return Err(JsValue::from_str("no clipboard"));
    }
    JsFuture::from(navigator.clipboard().write_text(text)).await?;
    Ok(())
}

/// What a share button copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shared {
    /// The link to this run at this minute.
    Link,
    /// The HTML of a frame showing this run in the compact layout, for a lesson page.
    Frame,
}

/// Copies the link to this run (at this minute), or the code of a frame showing it, and says
/// so; where copying is not possible, shows the text selected for copying by hand.
#[component]
pub fn ShareButton(shared: Shared) -> impl IntoView {
    let run = use_run();
    let state = RwSignal::new(ShareState::Idle);
    let generation = RwSignal::new(0u64);
    let (icon, label, copied, fallback, field, action) = match shared {
        Shared::Link => (
            Icon::Share,
            Msg::Share,
            Msg::ShareCopied,
            Msg::ShareFallback,
            Msg::ShareUrlLabel,
            "share",
        ),
        Shared::Frame => (
            Icon::Embed,
            Msg::EmbedButton,
            Msg::EmbedCopied,
            Msg::EmbedFallback,
            Msg::EmbedCodeLabel,
            "embed",
        ),
    };
    let on_click = move |_| {
        let text = match shared {
            Shared::Link => run.share_href(),
            Shared::Frame => run
                .href_with_rest(embedded_rest)
                .map(|href| iframe_snippet(&href, t(Msg::EmbedFrameTitle))),
        };
        let Some(href) = text else {
            return;
        };
        run.write_link();
        generation.update(|g| *g += 1);
        let mine = generation.get_untracked();
        leptos::task::spawn_local(async move {
            match copy(&href).await {
                Ok(()) => {
                    state.set(ShareState::Copied);
                    set_timeout(
                        move || {
                            if generation.get_untracked() == mine {
                                state.set(ShareState::Idle);
                            }
                        },
                        CONFIRMATION,
                    );
                }
                Err(_) => state.set(ShareState::Manual(href)),
            }
        });
    };
    view! {
        <div class="share">
            <button type="button" data-action=action on:click=on_click>
                <IconView icon=icon />
                <span>{t(label)}</span>
            </button>
            <div class="share-status" role="status">
                {move || match state.get() {
                    ShareState::Idle => ().into_any(),
                    ShareState::Copied => {
                        view! { <p class="share-copied">{t(copied)}</p> }.into_any()
                    }
                    ShareState::Manual(href) => {
                        view! {
                            <div class="share-manual">
                                <p>{t(fallback)}</p>
                                <input
                                    type="text"
                                    readonly
                                    aria-label=t(field)
                                    prop:value=href
                                    on:focus=move |ev| {
                                        let input: web_sys::HtmlInputElement = event_target(&ev);
                                        input.select();
                                    }
                                />
                                <button type="button" on:click=move |_| state.set(ShareState::Idle)>
                                    {t(Msg::HelpClose)}
                                </button>
                            </div>
                        }
                            .into_any()
                    }
                }}
            </div>
        </div>
    }
}
