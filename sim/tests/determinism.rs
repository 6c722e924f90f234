//! The same inputs give the same bytes; and the committed golden output (also checked in
//! the browser build) still comes out.

use oncall_sim::{run_jsonl, Action, ModelParams};

#[test]
fn identical_inputs_identical_bytes() {
    for id in oncall_sim::ids::ScenarioId::NAMES {
        let s = oncall_sim::exercise::scenario_by_id(id).unwrap();
        let actions = [
            Action::parse("30:rollback", 600).unwrap(),
            Action::parse("31:warm_cache", 600).unwrap(),
        ];
        let a = run_jsonl(&s, 99, ModelParams::default(), &actions, 300);
        let b = run_jsonl(&s, 99, ModelParams::default(), &actions, 300);
        assert_eq!(a.as_bytes(), b.as_bytes(), "{id}");
        let c = run_jsonl(&s, 100, ModelParams::default(), &actions, 300);
        assert_ne!(a, c, "{id}: another seed gives another run");
    }
}

/// `ONCALL_SIM_BLESS=1 cargo test -p oncall-sim --test determinism` rewrites the golden file
/// after an intended change of the model.
#[test]
fn golden_free_play_day() {
    let s = oncall_sim::exercise::scenario_by_id("free-play").unwrap();
    let out = run_jsonl(&s, 42, ModelParams::default(), &[], 1440);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/free-play-42.jsonl"
    );
    if std::env::var_os("ONCALL_SIM_BLESS").is_some() {
        std::fs::write(path, &out).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap();
    assert!(
        out == golden,
        "output differs from {path}; bless it only if the model changed on purpose"
    );
}
