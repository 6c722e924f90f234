//! The reference sheet that the console fetches (`assets/reference-en.json`) is the
//! core's English catalog, written out: this test fails when a relation's text, symbol or
//! citation, or a parameter's doc, changed and the file was not regenerated.
//!
//! `ONCALL_SIM_BLESS=1 cargo test -p oncall-sim --test reference_sheet` rewrites the file.

use oncall_sim::catalog::sheet;
use std::path::PathBuf;

fn sheet_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/reference-en.json")
}

#[test]
fn the_committed_sheet_is_the_catalog() {
    let expected = sheet::to_file_text(&sheet::english());
    let path = sheet_path();
    if std::env::var_os("ONCALL_SIM_BLESS").is_some() {
        std::fs::write(&path, &expected).expect("write the sheet");
        return;
    }
    let committed = std::fs::read_to_string(&path).expect("read assets/reference-en.json");
    assert!(
        committed == expected,
        "assets/reference-en.json differs from the catalog; regenerate it with \
         ONCALL_SIM_BLESS=1 cargo test -p oncall-sim --test reference_sheet"
    );
}
