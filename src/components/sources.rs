use leptos::html::Dialog;
use leptos::prelude::*;
use oncall_sim::autoscale::{PolicyId, PolicySettings};
use oncall_sim::catalog::sheet::{FilledTexts, SheetGroup, SheetRelation};
use oncall_sim::ModelParams;

use crate::components::reference::{use_reference, SheetState};
use crate::components::run::use_run;
use crate::i18n::{policy_name_text, t, tf, Msg};

/// The parameters in force for the panel's texts: the run's model parameters and policy
/// settings.
type Values = (ModelParams, PolicySettings);

/// A relation's texts with the run's parameters filled in. The structure (which symbols,
/// whether there is a note) is fixed; only the numbers follow the parameters, so an open
/// entry stays open when they change.
fn filled(relation: &SheetRelation, values: Memo<Values>) -> Memo<FilledTexts> {
    let texts = relation.clone();
    Memo::new(move |_| {
        values.with(|(model, policies)| {
            texts.render(|name| model.get(name).or_else(|| policies.get(name)))
        })
    })
}

/// What a relation says under its name: the formula, the last minute's values where it has
/// them (the core decides), the symbols, the note and the citations.
fn relation_body(relation: SheetRelation, rendered: Memo<FilledTexts>) -> impl IntoView {
    let run = use_run();
    let id = relation
        .id
        .parse::<oncall_sim::relations::RelationId>()
        .ok();
    let live = id.filter(|&id| oncall_sim::live::has_live(id));
    let live = live.map(|id| {
        let text = move || {
            // Follows each new minute; the run itself holds the values.
            run.snapshot.track();
            run.with(|c| oncall_sim::live::live(id, c.sim()))
                .flatten()
                .map(|m| crate::i18n::core_text(&m))
        };
        view! { <p class="live" data-field="live">{text}</p> }
    });
    let symbols = (!relation.symbols.is_empty()).then(|| {
        let items = relation
            .symbols
            .iter()
            .enumerate()
            .map(|(i, (glyph, _))| {
                let meaning = move || rendered.with(|r| r.meanings.get(i).cloned());
                view! {
                    <div>
                        <dt translate="no">{glyph.clone()}</dt>
                        <dd>{meaning}</dd>
                    </div>
                }
            })
            .collect_view();
        view! {
            <div class="symbols">
                <h5>{t(Msg::SymbolsLabel)}</h5>
                <dl>{items}</dl>
            </div>
        }
    });
    let note = (!relation.note.is_empty()).then(|| {
        view! {
            <p class="note">
                <strong>{t(Msg::NoteLabel)} ": "</strong>
                {move || rendered.with(|r| r.note.clone())}
            </p>
        }
    });
    let citations = relation
        .citations
        .into_iter()
        .map(|c| {
            if c.url.is_empty() {
                view! { <li>{c.text}</li> }.into_any()
            } else {
                view! {
                    <li>
                        <a href=c.url target="_blank" rel="noopener noreferrer">
                            {c.text}
                        </a>
                    </li>
                }
                .into_any()
            }
        })
        .collect_view();
    view! {
        <div class="relation-body">
            <p class="formula" translate="no">{move || rendered.with(|r| r.formula.clone())}</p>
            {live}
            {symbols}
            {note}
            <h5>{t(Msg::CitationsLabel)}</h5>
            <ul class="citations" translate="no">{citations}</ul>
        </div>
    }
}

/// A relation's name, with its badge when it is an assumption of this model.
fn relation_name(relation: &SheetRelation, rendered: Memo<FilledTexts>) -> impl IntoView {
    view! {
        <span class="relation-name">{move || rendered.with(|r| r.name.clone())}</span>
        {relation
            .assumption
            .then(|| view! { <span class="badge assumption">{t(Msg::AssumptionBadge)}</span> })}
    }
}

#[component]
fn RelationView(relation: SheetRelation, values: Memo<Values>) -> impl IntoView {
    let rendered = filled(&relation, values);
    let key = relation.id.clone();
    let name = relation_name(&relation, rendered);
    view! {
        <details class="relation" data-relation=key>
            <summary>{name}</summary>
            {relation_body(relation, rendered)}
        </details>
    }
}

#[component]
fn GroupView(group: SheetGroup, values: Memo<Values>) -> impl IntoView {
    let run = use_run();
    let policy: Option<PolicyId> = group.policy.as_deref().and_then(|p| p.parse().ok());
    let heading = match policy {
        None => t(Msg::SourcesModelGroup).to_owned(),
        Some(id) => tf(
            Msg::SourcesPolicyGroup,
            &[("policy", &policy_name_text(id))],
        ),
    };
    let in_use = move || policy.is_some_and(|id| run.snapshot.with(|s| s.policy == id));
    let items = group
        .relations
        .into_iter()
        .map(|relation| view! { <RelationView relation=relation values=values /> })
        .collect_view();
    view! {
        <div class="relation-group" data-group=group.policy.unwrap_or_else(|| "model".to_owned())>
            <h3>
                {heading}
                <span class="badge in-use" class:hidden=move || !in_use()>
                    {t(Msg::SourcesInUse)}
                </span>
            </h3>
            {items}
        </div>
    }
}

/// The run's parameters, which change only when a new run replaces the old one.
fn run_values() -> Memo<Values> {
    let run = use_run();
    Memo::new(move |_| {
        run.generation.track();
        run.with(|c| (c.sim().params().clone(), c.base().policy.clone()))
            .unwrap_or_default()
    })
}

/// Every relation the model uses, from the reference sheet the core's catalog generates, so
/// the panel and the code cannot drift apart, with the run's parameters filled in.
#[component]
pub fn SourcesPanel() -> impl IntoView {
    let values = run_values();
    let reference = use_reference();
    let body = move || match reference.state.get() {
        SheetState::Loading => {
            view! { <p class="sources-status" role="status">{t(Msg::SourcesLoading)}</p> }
                .into_any()
        }
        SheetState::Failed(reason) => view! {
            <p class="sources-status" role="alert">
                {tf(Msg::SourcesUnavailable, &[("reason", &reason)])} " "
                <button type="button" on:click=move |_| reference.load()>
                    {t(Msg::SourcesRetry)}
                </button>
            </p>
        }
        .into_any(),
        SheetState::Ready(s) => s
            .groups
            .into_iter()
            .map(|group| view! { <GroupView group=group values=values /> })
            .collect_view()
            .into_any(),
    };
    view! {
        <section class="panel sources-panel" aria-labelledby="sources-heading">
            <h2 id="sources-heading">{t(Msg::SourcesHeading)}</h2>
            <p>{t(Msg::SourcesIntro)}</p>
            <p class="educational">{t(Msg::AssumptionsNote)}</p>
            // Not a live region: once loaded, the whole sheet would be read out (a failure to
            // load is an alert).
            <div class="relation-groups">{body}</div>
        </section>
    }
}

/// The relation a metric's name opened, in a modal dialog over the page (native `<dialog>`:
/// clear of the sticky strip, one at a time, the focus kept inside; Escape closes it and the
/// focus goes back to the metric's name). From it, the same relation among all the sources.
#[component]
pub fn RelationDialog() -> impl IntoView {
    let run = use_run();
    let reference = use_reference();
    let values = run_values();
    let dialog = NodeRef::<Dialog>::new();
    // Set when the dialog closes towards the sources panel rather than back to the metric.
    let to_panel = StoredValue::new(false);
    let opened = StoredValue::new(None::<&'static str>);
    Effect::new(move |_| {
        let key = run.relation_open.get();
        if let Some(d) = dialog.get() {
            if key.is_some() {
                opened.set_value(key);
                // Fails only if the element is not connected; it then shows in place.
                if !d.open() && d.show_modal().is_err() {
                    d.set_open(true);
                }
            } else if d.open() {
                d.close();
            }
        }
    });
    let closed = move || {
        run.relation_open.set(None);
        let Some(key) = opened.get_value() else {
            return;
        };
        if to_panel.get_value() {
            to_panel.set_value(false);
            show_in_panel(key);
        } else {
            focus_first(&format!("tr[data-metric] [data-opens=\"{key}\"]"));
        }
    };
    let shown = move || {
        let key = run.relation_open.get()?;
        let heading = |name: AnyView| view! { <h2 id="relation-dialog-heading">{name}</h2> };
        reference.state.with(|state| match state {
            SheetState::Ready(sheet) => {
                let relation = sheet
                    .groups
                    .iter()
                    .flat_map(|g| &g.relations)
                    .find(|r| r.id == key)
                    .cloned()?;
                let rendered = filled(&relation, values);
                let name = heading(relation_name(&relation, rendered).into_any());
                Some(
                    view! {
                        {name}
                        {relation_body(relation, rendered)}
                    }
                    .into_any(),
                )
            }
            // Until the sheet is in (the sources panel offers to fetch it again).
            other => {
                let status = match other {
                    SheetState::Failed(reason) => {
                        tf(Msg::SourcesUnavailable, &[("reason", reason)])
                    }
                    _ => t(Msg::SourcesLoading).to_owned(),
                };
                Some(
                    view! {
                        {heading(t(Msg::SourcesHeading).into_any())}
                        <p class="sources-status" role="status">{status}</p>
                    }
                    .into_any(),
                )
            }
        })
    };
    view! {
        <dialog
            node_ref=dialog
            class="relation-dialog"
            aria-labelledby="relation-dialog-heading"
            data-relation=move || run.relation_open.get()
            on:close=move |_| closed()
        >
            {shown}
            <div class="dialog-actions">
                <button
                    type="button"
                    class="link-button"
                    on:click=move |_| {
                        to_panel.set_value(true);
                        run.relation_open.set(None);
                    }
                >
                    {t(Msg::RelationAllSources)}
                </button>
                <button type="button" class="primary" on:click=move |_| run.relation_open.set(None)>
                    {t(Msg::HelpClose)}
                </button>
            </div>
        </dialog>
    }
}

/// Opens relation `key` in the sources panel, closing the one opened there before, brings it
/// into view (below the sticky strip: its `scroll-margin-top`) and puts the focus on it.
fn show_in_panel(key: &str) {
    if let Some(details) =
        crate::dom::html_element(&format!("details.relation[data-relation=\"{key}\"]"))
    {
        // One at a time: details that share a name are exclusive.
        let _ = details.set_attribute("name", "relation");
        let _ = details.set_attribute("open", "");
        details.scroll_into_view();
        focus_first(&format!(
            "details.relation[data-relation=\"{key}\"] summary"
        ));
    }
}

/// Puts the focus on the first element `selector` finds, if any.
fn focus_first(selector: &str) {
    if let Some(element) = crate::dom::html_element(selector) {
        let _ = element.focus();
    }
}
