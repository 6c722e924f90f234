//! The language picker in the header: the five languages by their own names. Picking one
//! reopens the page's link (which describes the run: its seed, settings, actions and minute)
//! with `lang=` set, so the same run replays in the new language (`assets/page.js` does
//! the navigation, for both builds; another language than English opens the extended build,
//! which downloads that language's catalog).

use leptos::prelude::*;

use crate::i18n::{t, Locale, Msg};

/// The picker as markup: its label and each language by its own name, the page's language
/// selected. Static text written once into one element, so the first download carries little
/// code for it.
fn markup() -> String {
    let page = Locale::page();
    let label = crate::embed::escape_html(t(Msg::LanguageLabel));
    let mut out = format!(
        "<label><span class=\"visually-hidden\">{label}</span>\
         <select data-action=\"language\" aria-label=\"{label}\">"
    );
    for l in Locale::ALL {
        let selected = if *l == page { " selected" } else { "" };
        out.push_str(&format!(
            "<option value=\"{tag}\" lang=\"{tag}\"{selected}>{name}</option>",
            tag = l.tag(),
            name = l.endonym()
        ));
    }
    out.push_str("</select></label>");
    out
}

/// The header's language picker.
#[component]
pub fn LanguagePicker() -> impl IntoView {
    view! {
        <div
            class="language-picker"
            inner_html=markup()
        ></div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_is_an_option_in_its_own_name_and_english_is_chosen() {
        let options = markup();
        assert_eq!(options.matches("<option ").count(), Locale::ALL.len());
        assert!(options.contains(r#"<option value="ml" lang="ml">മലയാളം</option>"#));
        assert!(options.contains(r#"<option value="en" lang="en" selected>English</option>"#));
        assert!(options.contains(r#"aria-label="Language""#));
    }
}
