use leptos::prelude::*;

use crate::components::run::use_run;
use crate::i18n::{t, Msg};
use crate::metrics::{Level, Limits, METRICS};

/// The last minute's metrics. The rows are built once; only the value cells follow the
/// snapshot, so a frame rewrites a few text nodes and nothing else.
///
/// A value past a threshold changes colour and gets a word ("watch", "critical") next to it,
/// so the state does not rest on colour alone; the row carries `data-level` for tests.
#[component]
pub fn MetricsTable() -> impl IntoView {
    let run = use_run();
    let limits = Memo::new(move |_| {
        run.generation.track();
        run.with(|c| Limits::of(c.sim().params()))
            .unwrap_or_default()
    });
    let rows = METRICS
        .iter()
        .map(|spec| {
            let value = move || run.snapshot.with(|s| spec.display(&s.record));
            let level = Memo::new(move |_| {
                let limits = limits.get();
                run.snapshot.with(|s| spec.level(&s.record, &limits))
            });
            // A row whose relation has live values opens it in the relation dialog.
            let label = match oncall_sim::live::relation_of_field(spec.field) {
                Some(id) => view! {
                    <button
                        type="button"
                        class="link-button"
                        data-opens=id.key()
                        aria-haspopup="dialog"
                        on:click=move |_| run.relation_open.set(Some(id.key()))
                    >
                        {t(spec.label)}
                    </button>
                }
                .into_any(),
                None => t(spec.label).into_any(),
            };
            view! {
                <tr data-metric=spec.field data-level=move || level.get().class()>
                    <th scope="row">{label}</th>
                    <td>
                        <span class="value">{value}</span>
                        <span class="cue" class:hidden=move || level.get() == Level::Normal>
                            {move || level.get().cue()}
                        </span>
                    </td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="panel metrics-panel" aria-labelledby="metrics-heading">
            <h2 id="metrics-heading">{t(Msg::MetricsHeading)}</h2>
            <table class="metrics">
                <caption>
                    {t(Msg::MetricsCaption)} " ("
                    {move || run.snapshot.with(|s| s.record.clock.to_string())} ")"
                </caption>
                <thead>
                    <tr>
                        <th scope="col">{t(Msg::MetricColumn)}</th>
                        <th scope="col">{t(Msg::ValueColumn)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}
