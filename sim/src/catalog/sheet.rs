//! The reference texts as data: every relation of the sources panel in one language,
//! placeholders unfilled, with its symbols, citations and group, in the order the panel shows
//! them; and what each parameter does.
//!
//! The browser console does not carry these texts in its code: it fetches the sheet of its
//! language (`reference-en.json`, written from [`english`]) when the page has started, and
//! fills in the values in force with [`SheetRelation::render`]. That keeps the longest texts
//! of the product out of the module every visitor downloads before the first minute is drawn,
//! and a translation of them is one more sheet, not a new build.
//!
//! The sheet is generated, never edited by hand: a test compares the file in the repository
//! with [`english`] and `ONCALL_SIM_BLESS=1` rewrites it.

use serde::Serialize;

use crate::autoscale::{self, PolicyId};
use crate::catalog::registry::ALL;
use crate::relations::{Relation, RelationId};

use super::files::Entry;

use super::{params_en, relations_en};
use crate::autoscale::PolicySettings;
use crate::json::{self, Map, Value};
use crate::params::ModelParams;

/// The reference texts in one language.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReferenceSheet {
    /// The language of the texts (`en`).
    pub locale: String,
    /// The sources panel's groups: the minute model first, then each policy's relations.
    pub groups: Vec<SheetGroup>,
    /// What each model and policy parameter does, with the defaults it states filled in.
    pub parameters: Vec<SheetParameter>,
}

/// What one parameter does.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetParameter {
    /// The parameter's name (`timeout_s`, `hpa.tolerance`).
    pub name: String,
    /// What it does.
    pub doc: String,
}

impl ReferenceSheet {
    /// What the parameter called `name` does; `None` for a name the sheet lacks.
    pub fn parameter_doc(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.doc.as_str())
    }
}

/// One group of the panel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetGroup {
    /// The policy whose relations these are (its link name), or `None` for the minute model.
    pub policy: Option<String>,
    /// The group's relations, in order.
    pub relations: Vec<SheetRelation>,
}

/// One relation with its texts, placeholders unfilled (see [`relations_en`] for the syntax).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetRelation {
    /// The relation's stable key (`erlang_c`).
    pub id: String,
    /// Short name.
    pub name: String,
    /// The formula.
    pub formula: String,
    /// Each symbol as written in the formula, with what it means.
    pub symbols: Vec<(String, String)>,
    /// Caveats; empty when there are none.
    pub note: String,
    /// Sources, quoted as published.
    pub citations: Vec<SheetCitation>,
    /// Whether the relation is an assumption of this model rather than a law.
    pub assumption: bool,
}

/// A published source.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetCitation {
    /// Author, title, venue and year.
    pub text: String,
    /// Where to read it; empty when it has no address.
    pub url: String,
}

/// A relation's texts with the values in force filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct FilledTexts {
    /// Short name.
    pub name: String,
    /// The formula.
    pub formula: String,
    /// What each symbol means, in the order of [`SheetRelation::symbols`].
    pub meanings: Vec<String>,
    /// Caveats.
    pub note: String,
}

impl SheetRelation {
    /// The texts with each placeholder replaced by the value `value` gives for its name.
    pub fn render(&self, value: impl Fn(&str) -> Option<f64>) -> FilledTexts {
        let fill = |text: &str| relations_en::fill(text, &value);
        FilledTexts {
            name: fill(&self.name),
            formula: fill(&self.formula),
            meanings: self.symbols.iter().map(|(_, m)| fill(m)).collect(),
            note: fill(&self.note),
        }
    }
}

/// The policy whose relations include `relation`, if it belongs to an autoscaler.
fn owner_policy(relation: &Relation) -> Option<PolicyId> {
    PolicyId::ALL
        .iter()
        .copied()
        .find(|p| autoscale::relations(*p).iter().any(|r| r.id == relation.id))
}

/// The English sheet: the minute model's relations first, then each policy's, each group in
/// the order of [`ALL`]; groups without relations are left out.
pub fn english() -> ReferenceSheet {
    sheet_of(
        "en",
        |id| {
            let texts = relations_en::texts(id);
            (
                texts.name.to_owned(),
                texts.symbols.iter().map(|s| (*s).to_owned()).collect(),
                texts.note.to_owned(),
            )
        },
        |name| params_en::param_doc(name).map(str::to_owned),
    )
}

/// The sheet of a language from its catalog files `relations` (`name.ID`, `symbols.ID`,
/// `note.ID`, the ids as [`RelationId`]'s variants are spelled) and `params` (`doc.NAME`);
/// the formulas and citations are the published ones. The error names the first key the
/// files lack.
pub fn from_catalogs(
    locale: &str,
    relations: &[(String, Entry)],
    params: &[(String, Entry)],
) -> Result<ReferenceSheet, String> {
    let find = |entries: &[(String, Entry)], key: &str| {
        entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, e)| e.clone())
            .ok_or_else(|| format!("{key}: missing"))
    };
    let text = |entries: &[(String, Entry)], key: &str| match find(entries, key)? {
        Entry::Text(text) => Ok(text),
        Entry::List(_) => Err(format!("{key}: a text, not a list")),
    };
    let mut missing = Ok(());
    let sheet = sheet_of(
        locale,
        |id| {
            let words = (|| {
                let name = text(relations, &format!("name.{id:?}"))?;
                let symbols = match find(relations, &format!("symbols.{id:?}"))? {
                    Entry::List(list) => list,
                    Entry::Text(_) => return Err(format!("symbols.{id:?}: a list")),
                };
                let note = text(relations, &format!("note.{id:?}"))?;
                Ok((name, symbols, note))
            })();
            words.unwrap_or_else(|e| {
                missing = missing.clone().and(Err(e));
                Default::default()
            })
        },
        |name| text(params, &format!("doc.{name}")).ok(),
    );
    missing.map(|()| sheet)
}

/// The sheet in `locale` with the texts `words` gives for each relation (name, symbol
/// meanings, note) and `doc` for each parameter (placeholders unfilled; the defaults are
/// filled in here).
fn sheet_of(
    locale: &str,
    mut words: impl FnMut(RelationId) -> (String, Vec<String>, String),
    doc: impl Fn(&str) -> Option<String>,
) -> ReferenceSheet {
    let owners: Vec<Option<PolicyId>> = core::iter::once(None)
        .chain(PolicyId::ALL.iter().copied().map(Some))
        .collect();
    let groups = owners
        .into_iter()
        .map(|owner| SheetGroup {
            policy: owner.map(|p| p.as_str().to_owned()),
            relations: ALL
                .iter()
                .filter(|r| owner_policy(r) == owner)
                .map(|r| sheet_relation(r, words(r.id)))
                .collect(),
        })
        .filter(|g| !g.relations.is_empty())
        .collect();
    let parameters = ModelParams::SPECS
        .iter()
        .chain(PolicySettings::all_specs())
        .map(|spec| SheetParameter {
            name: spec.name.to_owned(),
            doc: doc(spec.name)
                .map(|d| super::fill_defaults(&d))
                .unwrap_or_default(),
        })
        .collect();
    ReferenceSheet {
        locale: locale.to_owned(),
        groups,
        parameters,
    }
}

fn sheet_relation(
    relation: &Relation,
    (name, meanings, note): (String, Vec<String>, String),
) -> SheetRelation {
    SheetRelation {
        id: relation.id.key().to_owned(),
        name,
        formula: relations_en::formula(relation.id).to_owned(),
        symbols: relation
            .symbols
            .iter()
            .zip(meanings)
            .map(|(glyph, meaning)| ((*glyph).to_owned(), meaning))
            .collect(),
        note,
        citations: relation
            .citations
            .iter()
            .map(|c| SheetCitation {
                text: c.text.to_owned(),
                url: c.url.to_owned(),
            })
            .collect(),
        assumption: relation.assumption,
    }
}

/// The sheet as the file the console fetches: pretty JSON ending in a newline.
pub fn to_file_text(sheet: &ReferenceSheet) -> String {
    let mut text = serde_json::to_string_pretty(sheet).unwrap_or_default();
    text.push('\n');
    text
}

/// Reads a sheet written by [`to_file_text`]; the error says what is wrong and where.
///
/// It uses the core's small JSON reader rather than serde's, which the page would otherwise
/// carry for this one file.
pub fn from_file_text(text: &str) -> Result<ReferenceSheet, String> {
    let root = json::parse(text).map_err(|e| e.to_string())?;
    let root = object(&root, "sheet")?;
    Ok(ReferenceSheet {
        locale: string(root, "locale")?,
        groups: array(root, "groups")?
            .iter()
            .map(|g| {
                let g = object(g, "groups[]")?;
                Ok(SheetGroup {
                    policy: match g.get("policy") {
                        None | Some(Value::Null) => None,
                        Some(_) => Some(string(g, "policy")?),
                    },
                    relations: array(g, "relations")?
                        .iter()
                        .map(read_relation)
                        .collect::<Result<_, String>>()?,
                })
            })
            .collect::<Result<_, String>>()?,
        parameters: array(root, "parameters")?
            .iter()
            .map(|p| {
                let p = object(p, "parameters[]")?;
                Ok(SheetParameter {
                    name: string(p, "name")?,
                    doc: string(p, "doc")?,
                })
            })
            .collect::<Result<_, String>>()?,
    })
}

fn read_relation(value: &Value) -> Result<SheetRelation, String> {
    let r = object(value, "relations[]")?;
    let pair = |v: &Value| -> Result<(String, String), String> {
        match v.as_array().map(Vec::as_slice) {
            Some([Value::String(glyph), Value::String(meaning)]) => {
                Ok((glyph.clone(), meaning.clone()))
            }
            _ => Err("symbols: each entry must be [symbol, meaning]".to_owned()),
        }
    };
    Ok(SheetRelation {
        id: string(r, "id")?,
        name: string(r, "name")?,
        formula: string(r, "formula")?,
        symbols: array(r, "symbols")?
            .iter()
            .map(pair)
            .collect::<Result<_, String>>()?,
        note: string(r, "note")?,
        citations: array(r, "citations")?
            .iter()
            .map(|c| {
                let c = object(c, "citations[]")?;
                Ok(SheetCitation {
                    text: string(c, "text")?,
                    url: string(c, "url")?,
                })
            })
            .collect::<Result<_, String>>()?,
        assumption: match r.get("assumption") {
            Some(Value::Bool(b)) => *b,
            _ => return Err("assumption: must be true or false".to_owned()),
        },
    })
}

fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Map, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{what}: must be an object"))
}

fn array<'a>(map: &'a Map, key: &str) -> Result<&'a Vec<Value>, String> {
    map.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{key}: must be a list"))
}

fn string(map: &Map, key: &str) -> Result<String, String> {
    map.get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{key}: must be a text"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relations::RelationId;

    #[test]
    fn every_parameter_has_its_doc_with_the_defaults_filled_in() {
        let sheet = english();
        let specs: Vec<_> = ModelParams::SPECS
            .iter()
            .chain(PolicySettings::all_specs())
            .collect();
        assert_eq!(sheet.parameters.len(), specs.len());
        for spec in specs {
            let doc = sheet.parameter_doc(spec.name).unwrap_or_default();
            assert!(!doc.trim().is_empty(), "no doc for {}", spec.name);
            assert!(
                !doc.contains('{') && !doc.contains('}'),
                "{}: {doc}",
                spec.name
            );
        }
        assert_eq!(sheet.parameter_doc("no_such_parameter"), None);
    }

    #[test]
    fn every_relation_appears_once_model_first() {
        let sheet = english();
        let shown: Vec<&str> = sheet
            .groups
            .iter()
            .flat_map(|g| g.relations.iter().map(|r| r.id.as_str()))
            .collect();
        assert_eq!(shown.len(), ALL.len());
        for r in ALL {
            assert!(shown.contains(&r.id.key()), "{}", r.id);
        }
        assert_eq!(sheet.groups[0].policy, None);
        for group in &sheet.groups[1..] {
            let policy: PolicyId = group.policy.as_deref().unwrap().parse().unwrap();
            for r in &group.relations {
                let id: RelationId = r.id.parse().unwrap();
                assert!(autoscale::relations(policy).iter().any(|x| x.id == id));
            }
        }
    }

    #[test]
    fn the_sheet_renders_as_the_catalog_does() {
        let mut model = ModelParams::default();
        model.set("timeout_s", 3.0).unwrap();
        let policies = PolicySettings::default();
        let value = |name: &str| model.get(name).or_else(|| policies.get(name));
        let sheet = english();
        for relation in sheet.groups.iter().flat_map(|g| &g.relations) {
            let id: RelationId = relation.id.parse().unwrap();
            let expected = relations_en::render(Relation::of(id), &model, &policies);
            let filled = relation.render(value);
            assert_eq!(filled.name, expected.name);
            assert_eq!(filled.formula, expected.formula);
            assert_eq!(filled.note, expected.note);
            let meanings: Vec<String> = expected.symbols.into_iter().map(|s| s.1).collect();
            assert_eq!(filled.meanings, meanings);
        }
    }

    #[test]
    fn the_file_text_reads_back() {
        let sheet = english();
        let back = from_file_text(&to_file_text(&sheet)).unwrap();
        assert!(from_file_text("{\"locale\": 1}").is_err());
        assert_eq!(back, sheet);
    }
}
