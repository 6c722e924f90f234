//! The command line for the autoscaling policies: `run --set autoscaler=…`, the policies'
//! parameters, `compare`, `config check` and `config export`, and their bad input.

mod common;
use common::cli;

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/elastic-config.jsonc"
);

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn run_under_each_policy_logs_its_decisions() {
    for (policy, tick) in [
        ("cloud-run", true),
        ("elastic", true),
        ("hpa", true),
        ("kpa", true),
        ("target-tracking", false),
    ] {
        let set = format!("autoscaler={policy}");
        let (code, out, err) = cli(&[
            "run",
            "--scenario",
            "viral-surge",
            "--seed",
            "42",
            "--minutes",
            "90",
            "--set",
            &set,
        ]);
        assert_eq!(code, 0, "{err}");
        let lines = json_lines(&out);
        let scaling: Vec<_> = lines.iter().filter(|l| l["event"] == "scaling").collect();
        assert!(!scaling.is_empty(), "{policy} never scaled");
        for s in &scaling {
            assert_eq!(s["policy"], policy);
            assert!(s["driver"].as_str().is_some_and(|d| !d.is_empty()));
            assert!(s["detail"].as_str().is_some_and(|d| d.contains('→')), "{s}");
            // Sub-minute policies say when inside the minute they decided.
            assert_eq!(s.get("second").is_some(), tick, "{policy}: {s}");
        }
    }
}

#[test]
fn policy_parameters_are_set_by_name() {
    let run = |sets: &[&str]| {
        let mut args = vec![
            "run",
            "--scenario",
            "viral-surge",
            "--seed",
            "42",
            "--minutes",
            "90",
        ];
        for s in sets {
            args.extend(["--set", s]);
        }
        let (code, out, err) = cli(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let base = run(&["autoscaler=hpa"]);
    let tolerant = run(&["autoscaler=hpa", "hpa.tolerance=0.5"]);
    assert_ne!(base, tolerant);
    // Parameters of another policy change nothing.
    assert_eq!(base, run(&["autoscaler=hpa", "kpa.stable_window_s=120"]));
    // The elastic scaler from the source's file gives the same run as its defaults with the
    // source's per-node limits (1000; the simulator starts from the node's 16 workers).
    let (code, from_file, err) = cli(&[
        "run",
        "--scenario",
        "viral-surge",
        "--seed",
        "42",
        "--minutes",
        "90",
        "--set",
        "autoscaler=elastic",
        "--elastic-config",
        EXAMPLE,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        from_file,
        run(&[
            "autoscaler=elastic",
            "elastic.max_requests=1000",
            "elastic.max_connections=1000"
        ])
    );
    assert_ne!(from_file, run(&["autoscaler=elastic"]));
    assert_ne!(
        from_file,
        run(&["autoscaler=elastic", "elastic.p95_expansion.threshold=300"])
    );
}

#[test]
fn compare_prints_one_line_per_policy() {
    let (code, out, err) = cli(&["compare", "--scenario", "viral-surge", "--seed", "42"]);
    assert_eq!(code, 0, "{err}");
    let rows = json_lines(&out);
    let ids: Vec<&str> = rows.iter().map(|r| r["policy"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        ["target-tracking", "cloud-run", "elastic", "hpa", "kpa"]
    );
    for r in &rows {
        for field in [
            "budget_spent",
            "cost",
            "worst_p99_ms",
            "minutes_paging",
            "minutes_over_budget_rate",
            "instance_minutes",
            "scaling_decisions",
        ] {
            assert!(r.get(field).is_some(), "{field} missing in {r}");
        }
        assert_eq!(r["minutes"], 240);
        assert_eq!(r["seed"], 42);
    }
    let (code, out, _) = cli(&[
        "compare",
        "--scenario",
        "bad-deploy",
        "--seed",
        "3",
        "--policies",
        "hpa,kpa",
        "--minutes",
        "30",
    ]);
    assert_eq!(code, 0);
    assert_eq!(json_lines(&out).len(), 2);
}

#[test]
fn config_check_prints_effective_settings_and_notes() {
    let (code, out, err) = cli(&["config", "check", EXAMPLE]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["max_nodes"], 20);
    assert_eq!(v["p95_expansion"]["threshold"], 500.0);
    assert!(v.get("token").is_none(), "ignored fields are not settings");
    for field in ["token", "openapi_base_url", "scale_up_request"] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("note: {field}:")) && l.contains("ignored")),
            "{err}"
        );
    }
    // Export keeps the ignored fields so the file can go back to the real scaler.
    let (code, out, _) = cli(&["config", "export", EXAMPLE]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["openapi_base_url"], "https://openapi.suanli.cn");
}

#[test]
fn bad_input_names_the_argument_exits_2_and_prints_nothing() {
    let dir = std::env::temp_dir().join(format!("oncall-sim-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.jsonc");
    std::fs::write(
        &broken,
        std::fs::read_to_string(EXAMPLE).unwrap().replacen(
            "\"drain_timeout\": 60",
            "\"drain_timeout\": 7200",
            1,
        ),
    )
    .unwrap();
    let broken = broken.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "run",
                "--scenario",
                "free-play",
                "--seed",
                "1",
                "--minutes",
                "5",
                "--set",
                "autoscaler=magic",
            ],
            "target-tracking, cloud-run, elastic, hpa, kpa",
        ),
        (
            vec![
                "run",
                "--scenario",
                "free-play",
                "--seed",
                "1",
                "--minutes",
                "5",
                "--set",
                "hpa.tolerance=2",
            ],
            "hpa.tolerance",
        ),
        (
            vec![
                "run",
                "--scenario",
                "free-play",
                "--seed",
                "1",
                "--minutes",
                "5",
                "--set",
                "kpa.panic_threshold_percentage=much",
            ],
            "110 to 1000",
        ),
        (
            vec![
                "run",
                "--scenario",
                "free-play",
                "--seed",
                "1",
                "--minutes",
                "5",
                "--set",
                "cloud_run.act_cpu_low=0.95",
            ],
            "cloud_run.act_cpu_low",
        ),
        (
            vec![
                "run",
                "--scenario",
                "free-play",
                "--seed",
                "1",
                "--minutes",
                "5",
                "--set",
                "elastic.min_nodes=50",
            ],
            "max_nodes",
        ),
        (
            vec![
                "run",
                "--scenario",
                "free-play",
                "--seed",
                "1",
                "--minutes",
                "5",
                "--elastic-config",
                broken,
            ],
            "drain_timeout",
        ),
        (
            vec![
                "compare",
                "--scenario",
                "viral-surge",
                "--seed",
                "1",
                "--policies",
                "hpa,fastest",
            ],
            "--policies",
        ),
        (
            vec![
                "compare",
                "--scenario",
                "viral-surge",
                "--seed",
                "1",
                "--set",
                "autoscaler=kpa",
            ],
            "--policies",
        ),
        (vec!["compare", "--seed", "1"], "--scenario"),
        (
            vec!["config", "check", broken],
            "drain_timeout: must be a number from 0 to 3600",
        ),
        (vec!["config", "check"], "FILE"),
        (vec!["config", "lint", EXAMPLE], "config check"),
        (
            vec!["config", "check", "/nonexistent/config.json"],
            "cannot be read",
        ),
    ];
    for (args, words) in cases {
        let (code, out, err) = cli(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
