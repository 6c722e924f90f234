//! The page's language in the extended build: which one it is ([`start`] chooses it from the
//! link's `lang=`, else the browser's preferred languages, else English) and, for a language
//! other than English, its catalog, downloaded once before the console mounts
//! (`catalog-LANG.json`, made from `locales/LANG/*.json`; see `oncall_sim::catalog::files`).
//!
//! The texts live as long as the page: the language is chosen once per page load (the picker
//! reopens the page's link in the new language, which replays the same run).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use oncall_sim::catalog::files::{self, Entry};
use oncall_sim::message::MessageId;
use wasm_bindgen::JsCast;

use super::{Locale, Msg};

thread_local! {
    static LOCALE: Cell<Locale> = const { Cell::new(Locale::En) };
    static TEXTS: RefCell<Texts> = RefCell::new(Texts::default());
    static NOTICE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// A language's texts: the console's by message (in [`Msg::ALL`]'s order), the rest by area
/// and key.
#[derive(Default)]
struct Texts {
    console: Vec<Option<&'static str>>,
    by_key: HashMap<(String, String), &'static str>,
}

/// The page's language.
pub fn locale() -> Locale {
    LOCALE.with(Cell::get)
}

/// The text of `msg` in the page's language, if its catalog has it.
pub fn console(msg: Msg) -> Option<&'static str> {
    TEXTS.with(|t| t.borrow().console.get(msg as usize).copied().flatten())
}

/// The text of `key` in `area` of the page's language's catalog.
pub fn lookup(area: &str, key: &str) -> Option<&'static str> {
    TEXTS.with(|t| {
        t.borrow()
            .by_key
            .get(&(area.to_owned(), key.to_owned()))
            .copied()
    })
}

/// The core's areas of messages, each keyed by the message id's name.
const CORE_AREAS: [&str; 4] = ["core", "core-postmortem", "core-extended", "core-exercise"];

/// The template of a core message in the page's language (English where the catalog lacks
/// it): the templates of [`super::core_catalog`] for a downloaded language.
pub fn core_template(id: MessageId) -> &'static str {
    let key = format!("{id:?}");
    CORE_AREAS
        .iter()
        .find_map(|area| lookup(area, &key))
        .unwrap_or_else(|| oncall_sim::catalog::en::template(id))
}

/// A unit's text in the page's language (English where the catalog lacks it).
pub fn unit(code: &str) -> Option<&'static str> {
    lookup("params", &format!("unit.{code}"))
        .or_else(|| oncall_sim::catalog::params_en::param_unit(code))
}

/// What [`start`] had to say about the link's `lang=`, once: the console shows it with the
/// link's other notices.
pub fn take_notice() -> Option<String> {
    NOTICE.with(|n| n.borrow_mut().take())
}

/// The page's language: the link's `lang=` when it names one of the page's languages; else
/// the first of the browser's preferred languages the page speaks; else English.
pub fn choose(lang: Option<&str>, preferred: &[String]) -> (Locale, Option<String>) {
    let from_link = lang.map(|tag| (tag, Locale::from_tag(tag)));
    if let Some((_, Some(locale))) = from_link {
        return (locale, None);
    }
    let locale = preferred
        .iter()
        .find_map(|tag| Locale::from_tag(tag))
        .unwrap_or(Locale::En);
    let unknown = from_link.map(|(tag, _)| tag.to_owned());
    (locale, unknown)
}

/// Chooses the page's language (`lang`: the link's `lang=`), downloads its catalog and sets
/// the document's `lang` and `dir`. A language whose catalog cannot be had falls back to
/// English, with a notice.
pub async fn start(lang: Option<String>) {
    let window = web_sys::window();
    let preferred: Vec<String> = window
        .as_ref()
        .map(|w| w.navigator().languages())
        .map(|list| list.iter().filter_map(|v| v.as_string()).collect())
        .unwrap_or_default();
    let (mut locale, unknown) = choose(lang.as_deref(), &preferred);
    let mut notice = None;
    if locale != Locale::En {
        match load(locale).await {
            Ok(texts) => TEXTS.with(|t| *t.borrow_mut() = texts),
            Err(reason) => {
                notice = Some((locale, reason));
                locale = Locale::En;
            }
        }
    }
    LOCALE.with(|l| l.set(locale));
    let names = Locale::ALL
        .iter()
        .map(|l| l.tag())
        .collect::<Vec<_>>()
        .join(", ");
    let text = match (unknown, notice) {
        (_, Some((wanted, reason))) => Some(super::tf(
            Msg::NoticeLanguageUnavailable,
            &[("language", wanted.endonym()), ("reason", &reason)],
        )),
        (Some(given), None) => Some(super::tf(
            Msg::NoticeLanguageUnknown,
            &[
                ("value", &oncall_sim::message::clip(&given)),
                ("allowed", &names),
                ("language", locale.endonym()),
            ],
        )),
        (None, None) => None,
    };
    NOTICE.with(|n| *n.borrow_mut() = text);
    let document = window.and_then(|w| w.document());
    if let Some(root) = document.as_ref().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("lang", locale.tag());
        let _ = root.set_attribute("dir", "ltr");
    }
    // The charts draw text on canvases, which show whatever font is there when they draw:
    // wait until the page's fonts are ready, so Malayalam and Chinese are shaped in theirs.
    if let Some(document) = document {
        let ready = js_sys::Reflect::get(&document, &"fonts".into())
            .and_then(|fonts| js_sys::Reflect::get(&fonts, &"ready".into()));
        if let Ok(ready) = ready.and_then(|r| r.dyn_into::<js_sys::Promise>()) {
            let _ = wasm_bindgen_futures::JsFuture::from(ready).await;
        }
    }
}

/// Speaks the language of tag `tag` with its catalog's text `catalog` (what `start` downloads):
/// for a Web Worker, which has no page to choose a language from and is given the page's.
/// English, or a catalog that cannot be read, leaves the worker in English.
pub fn install(tag: &str, catalog: &str) {
    let Some(locale) = Locale::from_tag(tag).filter(|l| *l != Locale::En) else {
        return;
    };
    if let Ok(areas) = files::read_bundle(catalog) {
        TEXTS.with(|t| *t.borrow_mut() = texts_of(areas));
        LOCALE.with(|l| l.set(locale));
    }
}

/// Downloads and reads `locale`'s catalog.
async fn load(locale: Locale) -> Result<Texts, String> {
    #[cfg(pseudo_locale)]
    if locale == Locale::Pseudo {
        return Ok(pseudo::texts());
    }
    let url = format!("catalog-{}.json", locale.tag());
    let text = crate::files::fetch_text(&url).await?;
    let areas = files::read_bundle(&text)?;
    Ok(texts_of(areas))
}

/// The texts of a downloaded catalog, kept for the page's life.
fn texts_of(areas: Vec<(String, files::Catalog)>) -> Texts {
    let mut by_key = HashMap::new();
    for (area, entries) in areas {
        for (key, entry) in entries {
            if let Entry::Text(text) = entry {
                by_key.insert((area.clone(), key), &*Box::leak(text.into_boxed_str()));
            }
        }
    }
    let console = Msg::ALL
        .iter()
        .map(|msg| {
            let key = format!("{msg:?}");
            ["console", "extended", "panels"]
                .iter()
                .find_map(|area| by_key.get(&((*area).to_owned(), key.clone())).copied())
        })
        .collect();
    Texts { console, by_key }
}

/// The pseudo-locale of the test builds: English lengthened by 40 % between markers.
#[cfg(pseudo_locale)]
mod pseudo {
    use super::*;
    use crate::i18n::en;
    use oncall_sim::autoscale::PolicyId;
    use oncall_sim::catalog::en as core_en;
    use oncall_sim::ids::ScenarioId;
    use oncall_sim::requests::Routing;

    /// `text` between ⟦ ⟧, each word stretched by 40 % of its letters with tildes (as
    /// long words of a longer language would be); placeholders kept as they are.
    pub fn stretch(text: &str) -> String {
        if text.is_empty() {
            return String::new();
        }
        let mut out = String::from("⟦");
        let (mut letters, mut depth) = (0usize, 0usize);
        let pad = |out: &mut String, letters: &mut usize| {
            out.extend(std::iter::repeat_n('~', (*letters * 2).div_ceil(5)));
            *letters = 0;
        };
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                c if c.is_whitespace() && depth == 0 => pad(&mut out, &mut letters),
                c if c.is_alphabetic() && depth == 0 => letters += 1,
                _ => {}
            }
            out.push(c);
        }
        pad(&mut out, &mut letters);
        out.push('⟧');
        out
    }

    pub fn texts() -> Texts {
        let mut areas: Vec<(String, files::Catalog)> = Vec::new();
        let text = |s: &str| Entry::Text(stretch(s));
        areas.push((
            "console".to_owned(),
            Msg::ALL
                .iter()
                .map(|m| (format!("{m:?}"), text(en(*m))))
                .collect(),
        ));
        areas.push((
            "core".to_owned(),
            MessageId::ALL
                .iter()
                .map(|id| (format!("{id:?}"), text(core_en::template(*id))))
                .collect(),
        ));
        areas.push((
            "core-config".to_owned(),
            MessageId::ALL
                .iter()
                .filter(|id| !core_en::config_template(**id).is_empty())
                .map(|id| (format!("{id:?}"), text(core_en::config_template(*id))))
                .collect(),
        ));
        let mut scenarios = Vec::new();
        for id in ScenarioId::ALL {
            scenarios.push((format!("title.{id:?}"), text(core_en::scenario_title(*id))));
            scenarios.push((
                format!("briefing.{id:?}"),
                text(core_en::scenario_briefing(*id)),
            ));
        }
        areas.push(("scenarios".to_owned(), scenarios));
        let mut policies = Vec::new();
        for id in PolicyId::ALL {
            if let Some((name, summary)) = core_en::policy_text(*id) {
                policies.push((format!("name.{id:?}"), text(name)));
                policies.push((format!("summary.{id:?}"), text(summary)));
            }
        }
        for id in Routing::ALL {
            if let Some(name) = core_en::lb_text(*id) {
                policies.push((format!("lb.{id:?}"), text(name)));
            }
        }
        areas.push(("policies".to_owned(), policies));
        texts_of(areas)
    }
}

/// The pseudo-locale's stretching, for the reference sheet's texts.
#[cfg(pseudo_locale)]
pub use pseudo::stretch;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::en;

    fn tags(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_link_wins_then_the_browser_in_order_then_english() {
        assert_eq!(choose(Some("it"), &tags(&["es-ES"])), (Locale::It, None));
        assert_eq!(
            choose(None, &tags(&["fr-FR", "ml-IN", "es"])),
            (Locale::Ml, None)
        );
        assert_eq!(choose(None, &tags(&["zh-CN"])), (Locale::Zh, None));
        assert_eq!(choose(None, &tags(&["fr", "de"])), (Locale::En, None));
        assert_eq!(choose(None, &[]), (Locale::En, None));
    }

    #[test]
    fn an_unknown_language_in_the_link_is_named_and_the_browser_decides() {
        assert_eq!(
            choose(Some("fr"), &tags(&["es-419"])),
            (Locale::Es, Some("fr".to_owned()))
        );
        assert_eq!(choose(Some(""), &[]), (Locale::En, Some(String::new())));
    }

    #[test]
    fn a_downloaded_catalog_gives_each_message_its_text() {
        let areas = vec![(
            "console".to_owned(),
            vec![("AppTitle".to_owned(), Entry::Text("Simulador".to_owned()))],
        )];
        let texts = texts_of(areas);
        assert_eq!(texts.console[Msg::AppTitle as usize], Some("Simulador"));
        assert_eq!(texts.console[Msg::AppTagline as usize], None);
        assert!(!en(Msg::AppTagline).is_empty());
    }
}
