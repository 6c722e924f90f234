//! "Write the postmortem": a Markdown draft of the finished run in the structure of a
//! postmortem (the core's `oncall_sim::postmortem`, the same as `oncall-sim postmortem`),
//! from the run as played and the debrief's par lines, to copy or download.

use leptos::prelude::*;
use oncall_sim::postmortem::Postmortem;
use oncall_sim::setup::RunOutcome;

use crate::components::debrief::Par;
use crate::components::run::RunHandle;
use crate::files::data_url;
use crate::i18n::{core_catalog, scenario_title_text, t, Locale, Msg};

/// The button under the debrief, and the draft once written. `par`: the debrief's par lines
/// and whether their search is done (the draft compares the run with them, so the button
/// waits for them).
pub fn postmortem(run: RunHandle, par: RwSignal<Par>) -> impl IntoView {
    let draft = RwSignal::new(None::<(String, String)>);
    let said = RwSignal::new(None::<Msg>);
    let write = move |_| {
        let lines = par.with_untracked(|(lines, _)| lines.clone());
        let written = run.with(|c| {
            let setup = c.share_state().setup(c.seed());
            let title = c
                .exercise()
                .map_or_else(|| scenario_title_text(setup.scenario), |e| e.title.clone());
            let outcome = RunOutcome::of(c.sim());
            let text = Postmortem::new(&setup, &outcome, &lines)
                .markdown(core_catalog(Locale::page()), &title);
            let name = match c.exercise() {
                Some(e) => format!("postmortem-{}-seed-{}.md", e.id, c.seed()),
                None => format!("postmortem-{}-seed-{}.md", setup.scenario, c.seed()),
            };
            (name, text)
        });
        said.set(None);
        draft.set(written);
    };
    let copy = move |_| {
        let Some((_, text)) = draft.get_untracked() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let done = crate::components::share::copy(&text).await;
            said.try_set(Some(if done.is_ok() {
                Msg::PostmortemCopied
            } else {
                Msg::PostmortemCopyFailed
            }));
        });
    };
    view! {
        <div class="postmortem" data-panel="postmortem">
            <button
                type="button"
                data-action="write-postmortem"
                disabled=move || !par.with(|(_, done)| *done)
                on:click=write
            >
                {t(Msg::PostmortemWrite)}
            </button>
            {move || {
                draft
                    .get()
                    .map(|(name, text)| {
                        let href = data_url("text/markdown", &text);
                        view! {
                            <h3 id="postmortem-heading">{t(Msg::PostmortemHeading)}</h3>
                            <textarea
                                readonly
                                rows="18"
                                data-field="postmortem"
                                aria-labelledby="postmortem-heading"
                                prop:value=text
                            ></textarea>
                            <div class="postmortem-actions">
                                <button type="button" data-action="copy-postmortem" on:click=copy>
                                    {t(Msg::PostmortemCopy)}
                                </button>
                                <a
                                    class="button"
                                    data-action="download-postmortem"
                                    download=name
                                    href=href
                                >
                                    {t(Msg::PostmortemDownload)}
                                </a>
                            </div>
                            <p role="status" data-field="postmortem-status">
                                {move || said.get().map(t)}
                            </p>
                        }
                    })
            }}
        </div>
    }
}
