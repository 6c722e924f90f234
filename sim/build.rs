//! Compiles the English catalog files (`locales/en/*.json`, the text the command line prints
//! and the console's default language) into the `match`es of `src/catalog`: see
//! `src/catalog/files.rs`.

#[path = "src/catalog/files.rs"]
#[allow(dead_code)]
mod files;

use files::{rust_match, Arms, Entry, Pattern};
use std::path::{Path, PathBuf};

fn english(area: &str) -> Vec<(String, Entry)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../locales/en")
        .join(format!("{area}.json"));
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    files::read(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn write(name: &str, source: String) {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join(name);
    std::fs::write(&out, source).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

fn text<'a>(entries: &'a [(String, Entry)], key: &str) -> &'a str {
    match entries.iter().find(|(k, _)| k == key) {
        Some((_, Entry::Text(text))) => text,
        _ => panic!("locales/en: {key} must be a text"),
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src/catalog/files.rs");
    let message = Pattern::Variant("MessageId::");
    let core = english("core");
    let postmortem = english("core-postmortem");
    let config = english("core-config");
    let extended = english("core-extended");
    let exercise = english("core-exercise");
    let cli = english("cli");
    // The cfgs are those of the modules that show each area's messages: the command line
    // shows every one; the console's first build the core's own and none of the extended
    // build's; the configuration's only through the policy panel (`config_template`).
    const NATIVE: &str = "not(target_arch = \"wasm32\")";
    const NATIVE_OR_EXTENDED: &str = "any(not(target_arch = \"wasm32\"), feature = \"extended\")";
    let arms = [
        Arms {
            entries: &core,
            prefix: "",
            cfg: None,
        },
        Arms {
            entries: &postmortem,
            prefix: "",
            cfg: Some(NATIVE_OR_EXTENDED),
        },
        Arms {
            entries: &config,
            prefix: "",
            cfg: Some(NATIVE),
        },
        Arms {
            entries: &extended,
            prefix: "",
            cfg: Some("feature = \"extended\""),
        },
        Arms {
            entries: &exercise,
            prefix: "",
            cfg: Some(NATIVE_OR_EXTENDED),
        },
        Arms {
            entries: &cli,
            prefix: "",
            cfg: Some(NATIVE),
        },
    ];
    write(
        "template_en.rs",
        rust_match(
            "id",
            message,
            &arms,
            "    #[allow(unreachable_patterns)]\n    _ => \"\",",
        ),
    );
    write(
        "config_template_en.rs",
        rust_match(
            "id",
            message,
            &[Arms {
                entries: &config,
                prefix: "",
                cfg: None,
            }],
            "    _ => \"\",",
        ),
    );

    let scenarios = english("scenarios");
    for (name, prefix) in [
        ("scenario_title_en.rs", "title."),
        ("scenario_briefing_en.rs", "briefing."),
    ] {
        let arms = [Arms {
            entries: &scenarios,
            prefix,
            cfg: None,
        }];
        write(
            name,
            rust_match("id", Pattern::Variant("ScenarioId::"), &arms, ""),
        );
    }

    let policies = english("policies");
    let mut source = String::from("Some(match id {\n");
    for (id, entry) in files::with_prefix(&policies, "name.") {
        let Entry::Text(name) = entry else {
            panic!("locales/en/policies.json: name.{id}")
        };
        let summary = text(&policies, &format!("summary.{id}"));
        source.push_str(&format!("    PolicyId::{id} => ({name:?}, {summary:?}),\n"));
    }
    source.push_str("    #[allow(unreachable_patterns)]\n    _ => return None,\n})\n");
    write("policy_text_en.rs", source);
    let arms = [Arms {
        entries: &policies,
        prefix: "lb.",
        cfg: None,
    }];
    write(
        "lb_text_en.rs",
        format!(
            "Some({})",
            rust_match(
                "id",
                Pattern::Variant("Routing::"),
                &arms,
                "    #[allow(unreachable_patterns)]\n    _ => return None,"
            )
        ),
    );

    let params = english("params");
    for (name, prefix, scrutinee) in [
        ("param_doc_en.rs", "doc.", "name"),
        ("param_unit_en.rs", "unit.", "code"),
    ] {
        let arms = [Arms {
            entries: &params,
            prefix,
            cfg: None,
        }];
        write(
            name,
            format!(
                "Some({})",
                rust_match(scrutinee, Pattern::Str, &arms, "    _ => return None,")
            ),
        );
    }

    let relations = english("relations");
    let mut source = String::from("match id {\n");
    for (id, entry) in files::with_prefix(&relations, "name.") {
        let Entry::Text(name) = entry else {
            panic!("locales/en/relations.json: name.{id}")
        };
        let symbols = match relations
            .iter()
            .find(|(k, _)| *k == format!("symbols.{id}"))
        {
            Some((_, Entry::List(list))) => list.clone(),
            _ => panic!("locales/en/relations.json: symbols.{id} must be a list"),
        };
        let note = text(&relations, &format!("note.{id}"));
        source.push_str(&format!(
            "    RelationId::{id} => ({name:?}, &{symbols:?} as &[&str], {note:?}),\n"
        ));
    }
    source.push_str("}\n");
    write("relation_words_en.rs", source);
}
