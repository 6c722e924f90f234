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
