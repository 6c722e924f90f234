use leptos::prelude::*;
use oncall_sim::MinuteRecord;

use crate::i18n::{t, Msg};
use crate::metrics::{Value, METRICS};

/// The current minute's metrics. The rows are built once; only the value cells follow the
/// record, so a tick rewrites a few text nodes and nothing else.
#[component]
pub fn MetricsTable(record: ReadSignal<MinuteRecord>) -> impl IntoView {
    let rows = METRICS
        .iter()
        .map(|spec| {
            let value = move || record.with(|r| spec.display(r));
            // A raised flag (the page firing) stands out.
            let raised = move || record.with(|r| (spec.read)(r) == Value::Flag(true));
            view! {
                <tr data-metric=spec.field class:raised=raised>
                    <th scope="row">{t(spec.label)}</th>
                    <td>{value}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="panel metrics-panel" aria-labelledby="metrics-heading">
            <h2 id="metrics-heading">{t(Msg::MetricsHeading)}</h2>
            <table class="metrics">
                <caption>{t(Msg::MetricsCaption)}</caption>
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
