//! The catalog files of every language (`locales/LANG/AREA.json`) against English, and the
//! files the console downloads that are made from them:
//!
//! - every language has every area, with English's keys (none missing, none unused), and in
//!   each text the placeholders of the English one;
//! - every term of a language's glossary (`docs/i18n/LANG.md`) is translated the one way
//!   the glossary gives, wherever the English text uses it;
//! - `assets/catalog-LANG.json` (what the console downloads to speak LANG) and
//!   `assets/reference-LANG.json` (the sources panel's sheet) are the catalogs as they stand.
//!
//! `ONCALL_SIM_BLESS=1 cargo test -p oncall-sim --test locales` rewrites the two kinds of file.

use oncall_sim::catalog::files::{self, Entry, AREAS, BUNDLED, LANGUAGES};
use oncall_sim::catalog::sheet;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn catalog(language: &str, area: &str) -> Option<Vec<(String, Entry)>> {
    let path = root().join(format!("locales/{language}/{area}.json"));
    let text = std::fs::read_to_string(&path).ok()?;
    Some(files::read(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn translated() -> &'static [&'static str] {
    &LANGUAGES[1..]
}

#[test]
fn every_language_has_every_key_of_english_with_its_placeholders() {
    let mut problems = Vec::new();
    for area in AREAS {
        let english = catalog("en", area).unwrap_or_else(|| panic!("locales/en/{area}.json"));
        for language in translated() {
            match catalog(language, area) {
                None => problems.push(format!("locales/{language}/{area}.json: missing")),
                Some(other) => problems.extend(
                    files::check_language(&english, &other)
                        .into_iter()
                        .map(|p| format!("locales/{language}/{area}.json: {p}")),
                ),
            }
        }
    }
    // No language has an area English lacks.
    for language in LANGUAGES {
        let dir = root().join(format!("locales/{language}"));
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let name = entry
                .expect("a file")
                .file_name()
                .to_string_lossy()
                .into_owned();
            let area = name.trim_end_matches(".json");
            let known =
                AREAS.contains(&area) || (*language == "en" && files::ENGLISH_ONLY.contains(&area));
            if !known {
                problems.push(format!("locales/{language}/{name}: not an area"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_glossary_term_is_translated_one_way() {
    let mut problems = Vec::new();
    for language in translated() {
        let path = root().join(format!("docs/i18n/{language}.md"));
        let markdown =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let terms = files::glossary_terms(&markdown);
        assert!(
            terms.len() >= 20,
            "{}: only {} terms",
            path.display(),
            terms.len()
        );
        for required in [
            "on-call",
            "error budget",
            "burn rate",
            "autoscaling",
            "load balancer",
            "hedging",
            "failover",
        ] {
            assert!(
                terms.iter().any(|(t, _)| t == required),
                "{}: no entry for {required}",
                path.display()
            );
        }
        for area in AREAS {
            let (Some(english), Some(other)) = (catalog("en", area), catalog(language, area))
            else {
                continue;
            };
            problems.extend(
                files::glossary_problems(&terms, &english, &other)
                    .into_iter()
                    .map(|p| format!("locales/{language}/{area}.json: {p}")),
            );
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Compares `path` (under the repository) with `expected`, or writes it when blessing.
fn committed(path: &str, expected: &str) -> Option<String> {
    let path_buf = root().join(path);
    if std::env::var_os("ONCALL_SIM_BLESS").is_some() {
        std::fs::write(&path_buf, expected).expect("write");
        return None;
    }
    match std::fs::read_to_string(&path_buf) {
        Ok(text) if text == expected => None,
        _ => Some(path.to_owned()),
    }
}

#[test]
fn the_downloaded_files_are_the_catalogs() {
    let mut stale = Vec::new();
    for language in translated() {
        let areas: Vec<(&str, Vec<(String, Entry)>)> = BUNDLED
            .iter()
            .map(|area| {
                let entries = catalog(language, area)
                    .unwrap_or_else(|| panic!("locales/{language}/{area}.json"));
                (*area, entries)
            })
            .collect();
        let borrowed: Vec<(&str, &[(String, Entry)])> =
            areas.iter().map(|(a, e)| (*a, e.as_slice())).collect();
        stale.extend(committed(
            &format!("assets/catalog-{language}.json"),
            &files::bundle(&borrowed),
        ));
        // The bundle reads back as the catalogs it was made from.
        let back = files::read_bundle(&files::bundle(&borrowed)).expect("reads back");
        for ((area, entries), (read_area, read_entries)) in areas.iter().zip(&back) {
            assert_eq!(area, read_area);
            let kept: Vec<_> = entries
                .iter()
                .filter(|(k, _)| !(*area == "params" && k.starts_with("doc.")))
                .cloned()
                .collect();
            assert_eq!(&kept, read_entries, "{language}/{area}");
        }
        let relations = catalog(language, "relations").expect("relations");
        let params = catalog(language, "params").expect("params");
        let sheet = sheet::from_catalogs(language, &relations, &params)
            .unwrap_or_else(|e| panic!("locales/{language}: {e}"));
        stale.extend(committed(
            &format!("assets/reference-{language}.json"),
            &sheet::to_file_text(&sheet),
        ));
    }
    assert!(
        stale.is_empty(),
        "{} differ from the catalogs; regenerate them with \
         ONCALL_SIM_BLESS=1 cargo test -p oncall-sim --test locales",
        stale.join(", ")
    );
}

#[test]
fn the_english_sheet_made_from_the_files_is_the_compiled_one() {
    let relations = catalog("en", "relations").expect("relations");
    let params = catalog("en", "params").expect("params");
    assert_eq!(
        sheet::from_catalogs("en", &relations, &params).expect("complete"),
        sheet::english()
    );
}

#[test]
fn english_names_each_driver_by_its_id() {
    let policies = catalog("en", "policies").expect("policies");
    for id in oncall_sim::ids::DriverId::ALL {
        let key = format!("driver.{id:?}");
        let text = policies.iter().find(|(k, _)| *k == key);
        assert_eq!(
            text.map(|(_, e)| e),
            Some(&Entry::Text(id.as_str().to_owned())),
            "{key}"
        );
    }
}
