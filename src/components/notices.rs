use leptos::prelude::*;

use crate::i18n::{t, Msg};

/// Messages about the link (not about the simulated service): what was wrong with it and what
/// is used instead. Each can be dismissed. Values from the link are shown as text, never as
/// markup.
#[component]
pub fn Notices(notices: Vec<String>) -> impl IntoView {
    let list = RwSignal::new(notices.into_iter().enumerate().collect::<Vec<_>>());
    view! {
        <div class="notices" class:hidden=move || list.with(Vec::is_empty)>
            <For
                each=move || list.get()
                key=|(i, _)| *i
                children=move |(i, text)| {
                    view! {
                        <div class="notice" role="alert" data-notice=i>
                            <p>{text}</p>
                            <button
                                type="button"
                                class="dismiss"
                                aria-label=t(Msg::NoticeDismiss)
                                title=t(Msg::NoticeDismiss)
                                on:click=move |_| list.update(|l| l.retain(|(j, _)| *j != i))
                            >
                                "×"
                            </button>
                        </div>
                    }
                }
            />
        </div>
    }
}
