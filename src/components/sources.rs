use leptos::prelude::*;
use oncall_sim::autoscale::{self, PolicyId, PolicySettings};
use oncall_sim::catalog::relations_en::{render, texts};
use oncall_sim::relations::{Relation, ALL};
use oncall_sim::ModelParams;

use crate::components::run::use_run;
use crate::i18n::{policy_name_text, t, tf, Msg};

/// The policy whose relations include `relation`, if it belongs to an autoscaler.
fn owner_policy(relation: &Relation) -> Option<PolicyId> {
    PolicyId::ALL
        .iter()
        .copied()
        .find(|p| autoscale::relations(*p).iter().any(|r| r.id == relation.id))
}

/// The relations in the panel's groups: the minute model first, then each policy's, in the
/// order of `relations::ALL`.
pub fn groups() -> Vec<(Option<PolicyId>, Vec<&'static Relation>)> {
    let mut out: Vec<(Option<PolicyId>, Vec<&'static Relation>)> = vec![(None, Vec::new())];
    for policy in PolicyId::ALL {
        out.push((Some(*policy), Vec::new()));
    }
    for relation in ALL {
        let owner = owner_policy(relation);
        if let Some(group) = out.iter_mut().find(|(id, _)| *id == owner) {
            group.1.push(relation);
        }
    }
    out.retain(|(_, relations)| !relations.is_empty());
    out
}

/// The parameters in force for the panel's texts: the run's model parameters and policy
/// settings.
type Values = (ModelParams, PolicySettings);

#[component]
fn RelationView(relation: &'static Relation, values: Memo<Values>) -> impl IntoView {
    // The structure (which symbols, whether there is a note) is fixed; only the numbers in
    // the texts follow the parameters, so an open entry stays open when they change.
    let rendered =
        Memo::new(move |_| values.with(|(model, policies)| render(relation, model, policies)));
    let symbols = (!relation.symbols.is_empty()).then(|| {
        let items = relation
            .symbols
            .iter()
            .enumerate()
            .map(|(i, symbol)| {
                let meaning = move || rendered.with(|r| r.symbols.get(i).map(|s| s.1.clone()));
                view! {
                    <div>
                        <dt>{*symbol}</dt>
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
    let note = (!texts(relation.id).note.is_empty()).then(|| {
        view! {
            <p class="note">
                <strong>{t(Msg::NoteLabel)} ": "</strong>
                {move || rendered.with(|r| r.note.clone())}
            </p>
        }
    });
    let citations = relation
        .citations
        .iter()
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
        <details class="relation" data-relation=relation.id.key()>
            <summary>
                <span class="relation-name">{move || rendered.with(|r| r.name.clone())}</span>
                {relation
                    .assumption
                    .then(|| view! { <span class="badge assumption">{t(Msg::AssumptionBadge)}</span> })}
            </summary>
            <div class="relation-body">
                <p class="formula">{move || rendered.with(|r| r.formula.clone())}</p>
                {symbols}
                {note}
                <h5>{t(Msg::CitationsLabel)}</h5>
                <ul class="citations">{citations}</ul>
            </div>
        </details>
    }
}

/// Every relation the model uses, generated from the core's `relations::ALL`, so the panel and
/// the code cannot drift apart. The texts come from the core's English catalog with the run's
/// parameters filled in.
#[component]
pub fn SourcesPanel() -> impl IntoView {
    let run = use_run();
    // The parameters change only when a new run replaces the old one.
    let values = Memo::new(move |_| {
        run.generation.track();
        run.with(|c| (c.sim().params().clone(), c.base().policy.clone()))
            .unwrap_or_default()
    });
    let groups = groups()
        .into_iter()
        .map(|(policy, relations)| {
            let heading = match policy {
                None => t(Msg::SourcesModelGroup).to_owned(),
                Some(id) => tf(
                    Msg::SourcesPolicyGroup,
                    &[("policy", &policy_name_text(id))],
                ),
            };
            let in_use = move || policy.is_some_and(|id| run.snapshot.with(|s| s.policy == id));
            let items = relations
                .into_iter()
                .map(|relation| view! { <RelationView relation=relation values=values /> })
                .collect_view();
            view! {
                <div class="relation-group" data-group=policy.map_or("model", PolicyId::as_str)>
                    <h3>
                        {heading}
                        <span class="badge in-use" class:hidden=move || !in_use()>
                            {t(Msg::SourcesInUse)}
                        </span>
                    </h3>
                    {items}
                </div>
            }
        })
        .collect_view();
    view! {
        <section class="panel sources-panel" aria-labelledby="sources-heading">
            <h2 id="sources-heading">{t(Msg::SourcesHeading)}</h2>
            <p>{t(Msg::SourcesIntro)}</p>
            <p class="educational">{t(Msg::AssumptionsNote)}</p>
            <div class="relation-groups">{groups}</div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oncall_sim::relations::RelationId;

    #[test]
    fn every_relation_appears_once() {
        let shown: Vec<RelationId> = groups()
            .iter()
            .flat_map(|(_, rs)| rs.iter().map(|r| r.id))
            .collect();
        assert_eq!(shown.len(), ALL.len());
        for r in ALL {
            assert!(shown.contains(&r.id), "{}", r.id);
        }
        assert_eq!(groups()[0].0, None);
    }
}
