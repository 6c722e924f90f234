use leptos::prelude::*;
use oncall_sim::autoscale::{self, PolicyId};
use oncall_sim::relations::{Relation, ALL};

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

#[component]
fn RelationView(relation: &'static Relation) -> impl IntoView {
    let symbols = (!relation.symbols.is_empty()).then(|| {
        let items = relation
            .symbols
            .iter()
            .map(|(symbol, meaning)| {
                view! {
                    <div>
                        <dt>{*symbol}</dt>
                        <dd>{*meaning}</dd>
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
                {relation.note}
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
        <details class="relation" data-relation=relation.id>
            <summary>
                <span class="relation-name">{relation.name}</span>
                {relation
                    .assumption
                    .then(|| view! { <span class="badge assumption">{t(Msg::AssumptionBadge)}</span> })}
            </summary>
            <div class="relation-body">
                <p class="formula">{relation.formula}</p>
                {symbols}
                {note}
                <h5>{t(Msg::CitationsLabel)}</h5>
                <ul class="citations">{citations}</ul>
            </div>
        </details>
    }
}

/// Every relation the model uses, generated from the core's `relations::ALL`, so the panel and
/// the code cannot drift apart.
#[component]
pub fn SourcesPanel() -> impl IntoView {
    let run = use_run();
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
                .map(|relation| view! { <RelationView relation=relation /> })
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

    #[test]
    fn every_relation_appears_once() {
        let shown: Vec<&str> = groups()
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
