//! Tests that run inside a real browser (headless Chromium through wasm-bindgen's test runner):
//! `cargo test --target wasm32-unknown-unknown -p oncall-sim-web --test web`.
//!
//! - The core gives the same bytes in WebAssembly as natively: a day of free play with seed 42
//!   must equal the golden file that the core's native tests check.
//! - The page's components mount and show what the tests and trainers rely on.
//! - Charts draw on a real canvas, sized for the device pixel ratio.

#![cfg(target_arch = "wasm32")]

use oncall_sim::{run_jsonl, Action, ModelParams, Simulation};
use oncall_sim_web::charts::{draw, figures::figures, Theme};
use oncall_sim_web::components::charts_panel::chart_text;
use oncall_sim_web::components::App;
use oncall_sim_web::metrics::METRICS;
use oncall_sim_web::url_state::{query_param, replace_query};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A day of free play with seed 42, as the core's native test writes it.
const GOLDEN_FREE_PLAY_42: &str = include_str!("../sim/tests/golden/free-play-42.jsonl");

#[wasm_bindgen_test]
fn free_play_day_matches_the_native_golden_file_byte_for_byte() {
    let free_play = oncall_sim::exercise::scenario_by_id("free-play").expect("free play exists");
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

/// Mounts the app into a fresh element, as the page would with `query` as its link.
type Mounted = leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>;

fn mount_with(query: &str) -> (web_sys::Element, Mounted) {
    replace_query(query).expect("history.replaceState works");
    let host = document().create_element("div").expect("create a div");
    document()
        .body()
        .expect("a body")
        .append_child(&host)
        .expect("attach the div");
    let handle = leptos::mount::mount_to(host.clone().unchecked_into(), || {
        leptos::prelude::IntoAny::into_any(App())
    });
    (host, handle)
}

fn text_of(host: &web_sys::Element, selector: &str) -> String {
    host.query_selector(selector)
        .expect("valid selector")
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .text_content()
        .unwrap_or_default()
}

fn seed_shown(host: &web_sys::Element) -> String {
    host.query_selector("[data-field=\"seed\"]")
        .expect("valid selector")
        .expect("the seed is shown")
        .unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

/// Lets the page's scheduled work (reactive effects, a frame) run.
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 50);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

#[wasm_bindgen_test]
async fn the_app_shows_the_run_of_the_link_and_every_metric_row() {
    let (host, handle) = mount_with("?scenario=free-play&seed=42");
    settle().await;
    assert_eq!(seed_shown(&host), "42");
    assert_eq!(query_param("seed").as_deref(), Some("42"));
    assert_eq!(query_param("t").as_deref(), Some("1"));

    for metric in METRICS {
        let text = text_of(
            &host,
            &format!("tr[data-metric=\"{}\"] .value", metric.field),
        );
        assert!(!text.trim().is_empty(), "{} is empty", metric.field);
    }
    assert_eq!(text_of(&host, "tr[data-metric=\"serving\"] .value"), "10");
    // One minute played: minute 1 (the link's t), and the time of day after it.
    assert_eq!(text_of(&host, "[data-field=\"minute\"]"), "1");
    assert_eq!(text_of(&host, "[data-field=\"clock\"]"), "12:01");
    assert!(host
        .query_selector(".notice")
        .expect("valid selector")
        .is_none());
    drop(handle);
}

#[wasm_bindgen_test]
async fn a_malformed_seed_is_named_in_a_notice_and_replaced() {
    let (host, handle) = mount_with("?seed=-1&scenario=bad-deploy");
    settle().await;
    let notice = text_of(&host, ".notice");
    assert!(notice.contains("“seed”"), "{notice}");
    assert!(notice.contains("0 to 4294967295"), "{notice}");

    let shown = seed_shown(&host);
    assert!(shown.parse::<u32>().is_ok(), "{shown}");
    assert_eq!(query_param("seed"), Some(shown));
    // The valid parameter is kept.
    assert_eq!(query_param("scenario").as_deref(), Some("bad-deploy"));
    drop(handle);
}

#[wasm_bindgen_test]
async fn the_budget_says_how_it_is_spent() {
    let accounting = "[data-field=\"budget_accounting\"]";
    let (host, handle) = mount_with("?scenario=viral-surge&seed=3");
    settle().await;
    assert_eq!(text_of(&host, accounting).trim(), "by time");
    drop(handle);
    host.remove();

    let (host, handle) = mount_with("?scenario=viral-surge&seed=3&budget_accounting=requests");
    settle().await;
    assert_eq!(text_of(&host, accounting).trim(), "by requests");
    assert_eq!(
        query_param("budget_accounting").as_deref(),
        Some("requests")
    );
    drop(handle);
    host.remove();

    let (host, handle) = mount_with("?scenario=viral-surge&seed=3&budget_accounting=events");
    settle().await;
    let notice = text_of(&host, ".notice");
    assert!(notice.contains("“budget_accounting”"), "{notice}");
    assert!(notice.contains("one of time, requests"), "{notice}");
    assert_eq!(text_of(&host, accounting).trim(), "by time");
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
fn a_chart_draws_on_a_canvas_at_the_device_pixel_ratio() {
    let s = oncall_sim::exercise::scenario_by_id("bad-deploy").expect("bad deploy exists");
    let mut sim = Simulation::new(&s, 7, ModelParams::default());
    sim.schedule([Action::parse("30:rollback", 200).expect("a valid action")]);
    sim.run(60);
    let figs = figures(sim.history(), sim.events(), s.clock_min, 2.0, &chart_text);

    let canvas: web_sys::HtmlCanvasElement = document()
        .create_element("canvas")
        .expect("create a canvas")
        .unchecked_into();
    canvas
        .set_attribute("style", "width: 320px; height: 160px; display: block")
        .expect("style the canvas");
    document()
        .body()
        .expect("a body")
        .append_child(&canvas)
        .expect("attach the canvas");
    for fig in &figs {
        draw(&canvas, fig, &Theme::DARK, 2.0, None).expect("the chart draws");
        // With the shared crosshair at a minute of the run, and past its end.
        draw(&canvas, fig, &Theme::DARK, 2.0, Some(30.0)).expect("the crosshair draws");
        draw(&canvas, fig, &Theme::DARK, 2.0, Some(1e9)).expect("a crosshair off the axis");
    }
    assert_eq!((canvas.width(), canvas.height()), (640, 320));
    canvas.remove();
}

/// Request mode in the browser gives the requests the native build gives, byte for byte: the
/// same digest as `sim/tests/request_mode.rs` (FNV-1a over the run's JSON lines).
#[cfg(feature = "extended")]
#[wasm_bindgen_test]
fn request_mode_is_the_same_in_the_browser() {
    use oncall_sim::params::{EngineKind, Switch};
    use oncall_sim::requests::Routing;
    let params = ModelParams {
        engine: Some(EngineKind::Requests),
        lb: Some(Routing::Maglev),
        hedge: Some(Switch::On),
        ..ModelParams::default()
    };
    let free_play = oncall_sim::exercise::scenario_by_id("free-play").expect("free play exists");
    let out = run_jsonl(&free_play, 9, params, &[], 8);
    let digest = out.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    assert_eq!(digest, 0xe72f_612a_adcd_3eb0, "{digest:#x}");
}
