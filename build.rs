//! Compiles the console's English catalog (`locales/en/console.json`, and
//! `locales/en/extended.json` for the extended build) into the `match` of `src/i18n`, and
//! checks every language's catalog files against English: the same keys, and in each text
//! the same placeholders (see `sim/src/catalog/files.rs`). A catalog that disagrees fails the
//! build with the file, the key and what differs.

#[path = "sim/src/catalog/files.rs"]
#[allow(dead_code)]
mod files;

use files::{rust_match, Arms, Entry, Pattern};
use std::path::{Path, PathBuf};

fn read(language: &str, area: &str) -> Option<Vec<(String, Entry)>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("locales")
        .join(language)
        .join(format!("{area}.json"));
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).ok()?;
    Some(files::read(&text).unwrap_or_else(|e| panic!("locales/{language}/{area}.json: {e}")))
}

fn main() {
    println!("cargo:rerun-if-changed=sim/src/catalog/files.rs");
    // The pseudo-locale `?lang=xx-long` is in the test builds only (`scripts/build-test.sh`
    // sets the variable).
    println!("cargo:rustc-check-cfg=cfg(pseudo_locale)");
    println!("cargo:rerun-if-env-changed=ONCALL_SIM_PSEUDO_LOCALE");
    // Only where languages are downloaded: the first build stays the one shipped.
    if std::env::var_os("ONCALL_SIM_PSEUDO_LOCALE").is_some()
        && std::env::var_os("CARGO_FEATURE_LANGUAGES").is_some()
    {
        println!("cargo:rustc-cfg=pseudo_locale");
    }
    let console = read("en", "console").expect("locales/en/console.json");
    let extended = read("en", "extended").expect("locales/en/extended.json");
    // The policy panel's and the comparison's words: only their modules (built with
    // `languages`) show them, so the console's first module leaves them out.
    let panels = read("en", "panels").expect("locales/en/panels.json");
    let arms = [
        Arms {
            entries: &console,
            prefix: "",
            cfg: None,
        },
        Arms {
            entries: &extended,
            prefix: "",
            cfg: Some("feature = \"extended\""),
        },
        Arms {
            entries: &panels,
            prefix: "",
            cfg: Some("feature = \"languages\""),
        },
    ];
    let source = rust_match(
        "msg",
        Pattern::Variant("Msg::"),
        &arms,
        "    #[allow(unreachable_patterns)]\n    _ => \"\",",
    );
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("console_en.rs");
    std::fs::write(&out, source).unwrap_or_else(|e| panic!("{}: {e}", out.display()));

    // Every translated language against English. A missing file is the tests' to report
    // (`sim/tests/locales.rs`); a file that is there must agree.
    let mut problems = Vec::new();
    for area in files::AREAS {
        let english = read("en", area).unwrap_or_else(|| panic!("locales/en/{area}.json"));
        for language in &files::LANGUAGES[1..] {
            if let Some(other) = read(language, area) {
                for problem in files::check_language(&english, &other) {
                    problems.push(format!("locales/{language}/{area}.json: {problem}"));
                }
            }
        }
    }
    if !problems.is_empty() {
        panic!(
            "the catalogs disagree with English:\n{}",
            problems.join("\n")
        );
    }
}
