use leptos::html::Dialog;
use leptos::prelude::*;

use crate::components::run::use_run;
use crate::i18n::{t, Msg};

/// The keyboard shortcuts, in a modal dialog (native `<dialog>`: it keeps the focus inside,
/// closes on Escape and gives the focus back when it closes).
#[component]
pub fn HelpDialog() -> impl IntoView {
    let run = use_run();
    let dialog = NodeRef::<Dialog>::new();
    Effect::new(move |_| {
        let open = run.help_open.get();
        if let Some(d) = dialog.get() {
            if open && !d.open() {
                // Fails only if the element is not connected; the help then stays closed.
                if d.show_modal().is_err() {
                    d.set_open(true);
                }
            } else if !open && d.open() {
                d.close();
            }
        }
    });
    let keys: [(&[&str], Msg); 7] = [
        (&[t(Msg::KeyCapSpace)], Msg::KeyPlayPause),
        (&["→", "S"], Msg::KeyStep),
        (&["+"], Msg::KeyFaster),
        (&["−"], Msg::KeySlower),
        (&["R"], Msg::KeyReset),
        (&["A"], Msg::KeyRespond),
        (&["?"], Msg::KeyHelp),
    ];
    let rows = keys
        .into_iter()
        .chain(std::iter::once((
            &[t(Msg::KeyCapEscape)][..],
            Msg::KeyClose,
        )))
        .map(|(caps, what)| {
            let caps = caps
                .iter()
                .map(|c| view! { <kbd>{*c}</kbd> })
                .collect_view();
            view! {
                <div>
                    <dt>{caps}</dt>
                    <dd>{t(what)}</dd>
                </div>
            }
        })
        .collect_view();
    view! {
        <dialog
            node_ref=dialog
            class="help-dialog"
            aria-labelledby="help-heading"
            on:close=move |_| run.help_open.set(false)
        >
            <h2 id="help-heading">{t(Msg::HelpHeading)}</h2>
            <dl class="shortcuts">{rows}</dl>
            <p class="muted small">{t(Msg::HelpNote)}</p>
            <button type="button" class="primary" on:click=move |_| run.help_open.set(false)>
                {t(Msg::HelpClose)}
            </button>
        </dialog>
    }
}
