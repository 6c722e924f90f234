use leptos::prelude::*;
use oncall_sim::autoscale::{PolicyId, PolicySettings};
use oncall_sim::catalog::sheet::{SheetGroup, SheetRelation};
use oncall_sim::ModelParams;

use crate::components::reference::{use_reference, SheetState};
use crate::components::run::use_run;
use crate::i18n::{policy_name_text, t, tf, Msg};

/// The parameters in force for the panel's texts: the run's model parameters and policy
/// settings.
type Values = (ModelParams, PolicySettings);

#[component]
fn RelationView(relation: SheetRelation, values: Memo<Values>) -> impl IntoView {
    let run = use_run();
    // The relation with the last minute's values, where it has them (the core decides).
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
    // The structure (which symbols, whether there is a note) is fixed; only the numbers in
    // the texts follow the parameters, so an open entry stays open when they change.
    let texts = relation.clone();
    let rendered = Memo::new(move |_| {
        values.with(|(model, policies)| {
            texts.render(|name| model.get(name).or_else(|| policies.get(name)))
        })
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
        <details class="relation" data-relation=relation.id>
            <summary>
                <span class="relation-name">{move || rendered.with(|r| r.name.clone())}</span>
                {relation
                    .assumption
                    .then(|| view! { <span class="badge assumption">{t(Msg::AssumptionBadge)}</span> })}
            </summary>
            <div class="relation-body">
                <p class="formula" translate="no">{move || rendered.with(|r| r.formula.clone())}</p>
                {live}
                {symbols}
                {note}
                <h5>{t(Msg::CitationsLabel)}</h5>
                <ul class="citations" translate="no">{citations}</ul>
            </div>
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

/// Every relation the model uses, from the reference sheet the core's catalog generates, so
/// the panel and the code cannot drift apart, with the run's parameters filled in.
#[component]
pub fn SourcesPanel() -> impl IntoView {
    let run = use_run();
    // The parameters change only when a new run replaces the old one.
    let values = Memo::new(move |_| {
        run.generation.track();
        run.with(|c| (c.sim().params().clone(), c.base().policy.clone()))
            .unwrap_or_default()
    });
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
