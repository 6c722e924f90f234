//! Tests that run inside a real browser (headless Chromium through wasm-bindgen's test runner):
//! `cargo test --target wasm32-unknown-unknown -p oncall-sim-web --test web`.
//!
//! - The core gives the same bytes in WebAssembly as natively: a day of free play with seed 42
//!   must equal the golden file that the core's native tests check.
//! - The page's components mount and show what the tests and trainers rely on.

#![cfg(target_arch = "wasm32")]

use oncall_sim::{run_jsonl, scenario, ModelParams};
use oncall_sim_web::components::App;
use oncall_sim_web::metrics::METRICS;
use oncall_sim_web::seed::SEED_PARAM;
use oncall_sim_web::url_state::{query_param, replace_query_param};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A day of free play with seed 42, as the core's native test writes it.
const GOLDEN_FREE_PLAY_42: &str = include_str!("../sim/tests/golden/free-play-42.jsonl");

#[wasm_bindgen_test]
fn free_play_day_matches_the_native_golden_file_byte_for_byte() {
    let free_play = scenario::by_id("free-play").expect("free play exists");
    let out = run_jsonl(&free_play, 42, ModelParams::default(), &[], 1440);
    if out != GOLDEN_FREE_PLAY_42 {
        // Name the first line that differs: 1,440 minutes of JSON are too long to print whole.
        let first_difference = out
            .lines()
            .zip(GOLDEN_FREE_PLAY_42.lines())
            .enumerate()
            .find(|(_, (wasm, native))| wasm != native);
        match first_difference {
            Some((line, (wasm, native))) => panic!(
                "line {} differs\n  wasm:   {wasm}\n  native: {native}",
                line + 1
            ),
            None => panic!(
                "same lines, different lengths: wasm {} bytes, native {} bytes",
                out.len(),
                GOLDEN_FREE_PLAY_42.len()
            ),
        }
    }
}

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

#[wasm_bindgen_test]
fn the_app_shows_the_seed_from_the_link_and_every_metric_row() {
    replace_query_param(SEED_PARAM, "42").expect("history.replaceState works");

    let host = document().create_element("div").expect("create a div");
    document()
        .body()
        .expect("a body")
        .append_child(&host)
        .expect("attach the div");
    let handle = leptos::mount::mount_to(host.clone().unchecked_into(), App);

    let seed = host
        .query_selector("[data-field=\"seed\"]")
        .expect("valid selector")
        .expect("the seed is shown");
    assert_eq!(seed.text_content().as_deref(), Some("42"));
    assert_eq!(query_param(SEED_PARAM).as_deref(), Some("42"));

    for metric in METRICS {
        let cell = host
            .query_selector(&format!("tr[data-metric=\"{}\"] td", metric.field))
            .expect("valid selector")
            .unwrap_or_else(|| panic!("no row for {}", metric.field));
        let text = cell.text_content().unwrap_or_default();
        assert!(!text.trim().is_empty(), "{} is empty", metric.field);
    }

    let serving = host
        .query_selector("tr[data-metric=\"serving\"] td")
        .expect("valid selector")
        .expect("a serving row");
    assert_eq!(serving.text_content().as_deref(), Some("10"));

    drop(handle);
}

#[wasm_bindgen_test]
fn a_malformed_seed_is_named_in_a_notice_and_replaced() {
    replace_query_param(SEED_PARAM, "-1").expect("history.replaceState works");

    let host = document().create_element("div").expect("create a div");
    document()
        .body()
        .expect("a body")
        .append_child(&host)
        .expect("attach the div");
    let handle = leptos::mount::mount_to(host.clone().unchecked_into(), App);

    let notice = host
        .query_selector(".notice")
        .expect("valid selector")
        .expect("a notice");
    let notice = notice.text_content().unwrap_or_default();
    assert!(notice.contains("seed"), "{notice}");
    assert!(notice.contains("0 to 4294967295"), "{notice}");

    let shown = host
        .query_selector("[data-field=\"seed\"]")
        .expect("valid selector")
        .and_then(|e| e.text_content())
        .expect("the seed is shown");
    assert!(shown.parse::<u32>().is_ok(), "{shown}");
    assert_eq!(query_param(SEED_PARAM), Some(shown));

    drop(handle);
}
