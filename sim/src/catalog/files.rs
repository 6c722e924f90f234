//! The catalogs as files: `locales/LANG/AREA.json`, one flat JSON object per language and
//! area, a message's key to its text (a relation's symbol meanings are a list of texts).
//! Translators edit these files; nothing in them is Rust.
//!
//! English is compiled in: the build scripts turn `locales/en/*.json` into the `match`es the
//! core and the console look texts up in (see [`rust_match`]), so an English key that names no
//! message does not compile. The other languages are checked against English when the console
//! is built ([`check_language`]: the same keys, and in each text the same placeholders) and
//! loaded by the console when a person picks the language.
//!
//! This module uses nothing of the crate: the build scripts include it as it is.

use serde_json::Value;

/// The languages the console speaks, by their BCP 47 tag; English first.
pub const LANGUAGES: &[&str] = &["en", "es", "zh", "it", "ml"];

/// The areas every language translates, in the order a translator meets them.
pub const AREAS: &[&str] = &[
    "console",
    "extended",
    "panels",
    "scenarios",
    "policies",
    "params",
    "relations",
    "core",
    "core-postmortem",
    "core-extended",
    "core-exercise",
    "core-config",
];

/// The areas only English has: the command line's own sentences (it speaks English).
pub const ENGLISH_ONLY: &[&str] = &["cli"];

/// A catalog: its keys and entries, in the file's order.
pub type Catalog = Vec<(String, Entry)>;

/// A message's text: one text, or a list of them (a relation's symbol meanings).
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Text(String),
    List(Vec<String>),
}

impl Entry {
    /// The texts of the entry, in order.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        let (one, many): (Option<&str>, &[String]) = match self {
            Entry::Text(text) => (Some(text.as_str()), &[]),
            Entry::List(list) => (None, list.as_slice()),
        };
        one.into_iter().chain(many.iter().map(String::as_str))
    }
}

/// Reads a catalog file: its keys and entries in the file's order, or what is wrong with it.
pub fn read(text: &str) -> Result<Vec<(String, Entry)>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Value::Object(map) = value else {
        return Err("a catalog is a JSON object of keys and texts".to_owned());
    };
    let mut out = Vec::with_capacity(map.len());
    for (key, value) in map {
        let entry = match value {
            Value::String(text) => Entry::Text(text),
            Value::Array(items) => Entry::List(
                items
                    .into_iter()
                    .map(|item| match item {
                        Value::String(text) => Ok(text),
                        _ => Err(format!("{key}: a list holds texts only")),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            _ => return Err(format!("{key}: a text or a list of texts")),
        };
        out.push((key, entry));
    }
    Ok(out)
}

/// What a text's placeholders must agree on between languages, sorted: the whole inside of
/// each `{…}`, except that a plural choice `{n|one|other}` counts as its name and the
/// number of its forms (the forms are words, translated).
pub fn placeholders(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let inside = &after[..close];
        out.push(match inside.split_once('|') {
            Some((name, forms)) => format!("{name}|{}", forms.matches('|').count() + 1),
            None => inside.to_owned(),
        });
        rest = &after[close + 1..];
    }
    out.sort();
    out
}

/// What is wrong with `other`, a language's catalog of an area, measured against English's:
/// keys missing or unknown, lists of another length, texts whose placeholders differ. Empty
/// when it agrees.
pub fn check_language(english: &[(String, Entry)], other: &[(String, Entry)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (key, entry) in english {
        let Some((_, translated)) = other.iter().find(|(k, _)| k == key) else {
            problems.push(format!("{key}: missing"));
            continue;
        };
        let (a, b): (Vec<&str>, Vec<&str>) =
            (entry.texts().collect(), translated.texts().collect());
        if a.len() != b.len()
            || matches!(entry, Entry::List(_)) != matches!(translated, Entry::List(_))
        {
            problems.push(format!(
                "{key}: {} texts in English, {} here",
                a.len(),
                b.len()
            ));
            continue;
        }
        for (i, (en, tr)) in a.iter().zip(&b).enumerate() {
            let (want, got) = (placeholders(en), placeholders(tr));
            if want != got {
                let at = if a.len() > 1 {
                    format!("[{i}]")
                } else {
                    String::new()
                };
                problems.push(format!(
                    "{key}{at}: placeholders {got:?}, English has {want:?}"
                ));
            }
            if tr.trim().is_empty() && !en.trim().is_empty() {
                problems.push(format!("{key}: empty"));
            }
        }
    }
    for (key, _) in other {
        if !english.iter().any(|(k, _)| k == key) {
            problems.push(format!("{key}: not an English key (unused)"));
        }
    }
    problems
}

/// How a key becomes a pattern of the generated `match`.
#[derive(Clone, Copy)]
pub enum Pattern {
    /// The key is a variant of this enum (`Msg`, `MessageId::`).
    Variant(&'static str),
    /// The key is matched as a string.
    Str,
}

/// One file's share of a generated `match`: its entries whose key starts with `prefix` (the
/// prefix taken off), each arm under `cfg` when given.
pub struct Arms<'a> {
    pub entries: &'a [(String, Entry)],
    pub prefix: &'a str,
    pub cfg: Option<&'a str>,
}

/// A Rust literal of `text`.
fn literal(text: &str) -> String {
    format!("{text:?}")
}

/// The Rust source of a `match` on `scrutinee` with one arm per entry of `arms` and then
/// `tail` (a default arm, or nothing for an exhaustive match). Texts become `"…"`, lists
/// `&[…] as &[&str]`; `wrap` wraps each arm's value (`"Some({})"`, `"{}"`).
pub fn rust_match(scrutinee: &str, pattern: Pattern, arms: &[Arms<'_>], tail: &str) -> String {
    let mut out = format!("match {scrutinee} {{\n");
    for part in arms {
        for (key, entry) in part.entries {
            let Some(name) = key.strip_prefix(part.prefix) else {
                continue;
            };
            if let Some(cfg) = part.cfg {
                out.push_str(&format!("    #[cfg({cfg})]\n"));
            }
            let pat = match pattern {
                Pattern::Variant(path) => format!("{path}{name}"),
                Pattern::Str => literal(name),
            };
            let value = match entry {
                Entry::Text(text) => literal(text),
                Entry::List(list) => format!(
                    "&[{}] as &[&str]",
                    list.iter()
                        .map(|t| literal(t))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            out.push_str(&format!("    {pat} => {value},\n"));
        }
    }
    out.push_str(tail);
    out.push_str("\n}\n");
    out
}

/// The entries of `entries` whose key starts with `prefix`, the prefix taken off.
pub fn with_prefix<'a>(
    entries: &'a [(String, Entry)],
    prefix: &'a str,
) -> impl Iterator<Item = (&'a str, &'a Entry)> {
    entries
        .iter()
        .filter_map(move |(k, e)| Some((k.strip_prefix(prefix)?, e)))
}

/// The areas the console downloads for a language, in one file (`catalog-LANG.json`): every
/// translated area but the relations and the parameters' docs, which come with the reference
/// sheet of the language (`reference-LANG.json`) when the sources panel needs them.
pub const BUNDLED: &[&str] = &[
    "console",
    "extended",
    "panels",
    "scenarios",
    "policies",
    "params",
    "core",
    "core-postmortem",
    "core-extended",
    "core-exercise",
    "core-config",
];

/// The file the console downloads for a language: `{ "AREA": { key: text, … }, … }` for the
/// areas of [`BUNDLED`], compact JSON ending in a newline. `areas` gives each area's catalog;
/// the parameters' docs are left out (see [`BUNDLED`]).
pub fn bundle(areas: &[(&str, &[(String, Entry)])]) -> String {
    let mut root = serde_json::Map::new();
    for (area, entries) in areas {
        let mut map = serde_json::Map::new();
        for (key, entry) in entries.iter() {
            if *area == "params" && key.starts_with("doc.") {
                continue;
            }
            let value = match entry {
                Entry::Text(text) => Value::String(text.clone()),
                Entry::List(list) => {
                    Value::Array(list.iter().cloned().map(Value::String).collect())
                }
            };
            map.insert(key.clone(), value);
        }
        root.insert((*area).to_owned(), Value::Object(map));
    }
    let mut text = serde_json::to_string(&Value::Object(root)).unwrap_or_default();
    text.push('\n');
    text
}

/// Reads a file written by [`bundle`]: each area's catalog.
pub fn read_bundle(text: &str) -> Result<Vec<(String, Catalog)>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Value::Object(map) = value else {
        return Err("a language's file is a JSON object of areas".to_owned());
    };
    map.into_iter()
        .map(|(area, value)| Ok((area, read(&value.to_string())?)))
        .collect()
}

/// A glossary's terms: the English term and the forms its translation may take, from the
/// Markdown table of `docs/i18n/LANG.md` (`| English | Translation | Note |`, forms separated
/// by ` / `).
pub fn glossary_terms(markdown: &str) -> Vec<(String, Vec<String>)> {
    let mut terms = Vec::new();
    let mut in_table = false;
    for line in markdown.lines() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if !line.trim_start().starts_with('|') {
            in_table = false;
            continue;
        }
        if cells.first() == Some(&"English") {
            in_table = true;
            continue;
        }
        if !in_table || cells.len() < 2 || cells[0].starts_with("---") || cells[0].is_empty() {
            continue;
        }
        let forms = cells[1]
            .split(" / ")
            .map(|f| f.trim().to_lowercase())
            .filter(|f| !f.is_empty())
            .collect();
        terms.push((cells[0].to_lowercase(), forms));
    }
    terms
}

/// `text` without its placeholders and code (`{…}`, `` `…` ``): the words a person reads.
fn words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut brace, mut tick) = (0usize, false);
    for c in text.chars() {
        let hidden = brace > 0 || tick;
        match c {
            '{' if !tick => brace += 1,
            '}' if !tick && brace > 0 => brace -= 1,
            '`' if brace == 0 => tick = !tick,
            _ if !hidden => {
                out.push(c);
                continue;
            }
            _ => {}
        }
        // A placeholder or code reads as a gap between words.
        if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.to_lowercase()
}

/// Whether `term` is a whole word (or words) of `text`: the characters around it are not
/// letters, digits, `_` or `-`.
fn has_word(text: &str, term: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(term).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + term.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// Where a catalog translates a glossary term otherwise than its glossary: for each term of
/// `terms` and each text whose English (placeholders and code aside) has the term as a whole
/// word, the translation must contain one of the term's forms.
pub fn glossary_problems(
    terms: &[(String, Vec<String>)],
    english: &[(String, Entry)],
    translated: &[(String, Entry)],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (key, entry) in english {
        let Some((_, other)) = translated.iter().find(|(k, _)| k == key) else {
            continue;
        };
        for (i, (en, tr)) in entry.texts().zip(other.texts()).enumerate() {
            let (en, tr) = (words(en), tr.to_lowercase());
            for (term, forms) in terms {
                if has_word(&en, term) && !forms.iter().any(|f| tr.contains(f.as_str())) {
                    let at = if matches!(entry, Entry::List(_)) {
                        format!("[{i}]")
                    } else {
                        String::new()
                    };
                    problems.push(format!(
                        "{key}{at}: “{term}” is not translated as the glossary says ({})",
                        forms.join(" / ")
                    ));
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(pairs: &[(&str, &str)]) -> Vec<(String, Entry)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), Entry::Text((*v).to_owned())))
            .collect()
    }

    #[test]
    fn a_missing_key_an_unused_key_and_other_placeholders_are_each_reported() {
        let english = catalog(&[
            ("Hello", "Hello {name}"),
            ("Count", "{n} {n|minute|minutes} at {x:.1} %"),
            ("Bye", "Bye"),
        ]);
        let good = catalog(&[
            ("Hello", "Hola {name}"),
            ("Count", "{x:.1} % en {n} {n|minuto|minutos}"),
            ("Bye", "Adiós"),
        ]);
        assert!(check_language(&english, &good).is_empty());
        let bad = catalog(&[
            ("Hello", "Hola {nombre}"),
            ("Count", "{n} {n|minuto} a {x:.2} %"),
            ("Extra", "¿?"),
        ]);
        let problems = check_language(&english, &bad);
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert!(problems[0].starts_with("Hello: placeholders"));
        assert!(problems[1].starts_with("Count: placeholders"));
        assert_eq!(problems[2], "Bye: missing");
        assert_eq!(problems[3], "Extra: not an English key (unused)");
    }

    #[test]
    fn a_glossary_term_translated_two_ways_is_reported() {
        let terms = glossary_terms(
            "# Glossary\n\n| English | Translation | Note |\n|---|---|---|\n\
             | error budget | presupuesto de errores | |\n| instance | instancia / instancias | |\n",
        );
        assert_eq!(terms.len(), 2);
        let english = catalog(&[
            ("A", "The error budget is gone"),
            ("B", "Your error budget, {instances} left"),
            ("C", "One instance; `error budget` is code"),
        ]);
        let consistent = catalog(&[
            ("A", "Se agotó el presupuesto de errores"),
            ("B", "Tu presupuesto de errores, quedan {instances}"),
            ("C", "Una instancia; `error budget` es código"),
        ]);
        assert!(glossary_problems(&terms, &english, &consistent).is_empty());
        let two_ways = catalog(&[
            ("A", "Se agotó el presupuesto de errores"),
            ("B", "Tu margen de error, quedan {instances}"),
            ("C", "Un nodo; `error budget` es código"),
        ]);
        let problems = glossary_problems(&terms, &english, &two_ways);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("B: “error budget”"));
        assert!(problems[1].starts_with("C: “instance”"));
    }
}
