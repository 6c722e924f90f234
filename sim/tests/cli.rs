//! The command-line contract: output fields, formats and bad input.

mod common;
use common::cli;

#[test]
fn scenarios_lists_ids_and_titles() {
    let (code, out, _) = cli(&["scenarios"]);
    assert_eq!(code, 0);
    for id in ["free-play", "bad-deploy", "viral-surge", "cache-flush"] {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{id}\t"))),
            "{out}"
        );
    }
}

#[test]
fn run_prints_one_record_per_minute_with_the_contract_fields() {
    let (code, out, _) = cli(&[
        "run",
        "--scenario",
        "free-play",
        "--seed",
        "42",
        "--minutes",
        "3",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let records: Vec<_> = lines.iter().filter(|l| l.get("event").is_none()).collect();
    assert_eq!(records.len(), 3);
    let first = records[0];
    for field in [
        "minute",
        "clock",
        "requests_per_s",
        "serving",
        "booting",
        "cache_hit",
        "db_utilization",
        "shed_share",
        "fleet_cost_per_hour",
        "cost_so_far",
        "cache_age_s",
        "bad_build_share",
        "feature_available",
        "utilization",
        "error_rate",
        "timeout_share",
        "p99_ms",
        "burn_rate_1h",
        "budget_left",
        "paging",
    ] {
        assert!(first.get(field).is_some(), "missing {field}");
    }
    // SPEC 1.4 opening values.
    assert_eq!(first["clock"], "12:00");
    assert_eq!(first["serving"], 10);
    assert_eq!((first["cache_hit"].as_f64().unwrap() * 100.0).round(), 77.0);
    assert_eq!(
        (first["db_utilization"].as_f64().unwrap() * 100.0).round(),
        19.0
    );
    assert_eq!(first["fleet_cost_per_hour"].as_f64().unwrap(), 4.0);
    assert_eq!(first["cache_age_s"].as_f64().unwrap(), 30.0);
    assert!((first["requests_per_s"].as_f64().unwrap() - 1125.0).abs() < 90.0);
}

#[test]
fn events_share_the_stream_or_go_to_a_file() {
    let args = [
        "run",
        "--scenario",
        "bad-deploy",
        "--seed",
        "1",
        "--minutes",
        "30",
        "--action",
        // Seed 1's bad build goes out at minute 12 (09:12).
        "14:rollback",
    ];
    let (_, out, _) = cli(&args);
    assert!(out.lines().any(|l| l.contains("\"event\":\"deploy\"")));
    assert!(out
        .lines()
        .any(|l| l.contains("\"event\":\"rollback_started\"")));
    let dir = std::env::temp_dir().join(format!("oncall-sim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("events.jsonl");
    let mut with_file = args.to_vec();
    with_file.extend(["--events", file.to_str().unwrap()]);
    let (code, out2, _) = cli(&with_file);
    assert_eq!(code, 0);
    assert!(!out2.contains("\"event\""));
    let events = std::fs::read_to_string(&file).unwrap();
    assert!(events.contains("\"event\":\"rollback_finished\""));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn csv_has_a_header_and_a_row_per_minute() {
    let (code, out, _) = cli(&[
        "run",
        "--scenario",
        "cache-flush",
        "--seed",
        "3",
        "--minutes",
        "4",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[0].starts_with("minute,clock,requests_per_s,"));
    assert!(lines[1].starts_with("0,11:45,"));
}

#[test]
fn queue_prints_the_formulas() {
    let (code, out, _) = cli(&[
        "queue",
        "--servers",
        "10",
        "--arrival-rate",
        "8",
        "--service-time",
        "1",
        "--within",
        "0.5",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!((v["erlang_c"].as_f64().unwrap() - 0.40918).abs() < 5e-5);
    assert!((v["utilization"].as_f64().unwrap() - 0.8).abs() < 1e-12);
    assert!((v["p_wait_gt_within"].as_f64().unwrap() - 0.15053).abs() < 5e-5);
    assert!(v["p99_sojourn_s"].as_f64().unwrap() < v["p99_sojourn_approx_s"].as_f64().unwrap());
    for k in ["erlang_b", "mean_wait_s"] {
        assert!(v[k].is_number(), "{k}");
    }
    // Saturated: no steady state, so no mean wait and no p99 (left out, never null).
    let (_, out, _) = cli(&[
        "queue",
        "--servers",
        "2",
        "--arrival-rate",
        "3",
        "--service-time",
        "1",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["p99_sojourn_s"].is_null() && v["erlang_c"].as_f64() == Some(1.0));
    for k in ["mean_wait_s", "p99_sojourn_s", "p99_sojourn_approx_s"] {
        assert!(v.get(k).is_none(), "{k}: {out}");
    }
    assert_eq!(v["saturated_failed_share"].as_f64(), Some(1.0 - 2.0 / 3.0));
}

#[test]
fn queue_with_a_timeout_is_m_m_n_plus_d() {
    let solve = |rate: &str| -> serde_json::Value {
        let (code, out, err) = cli(&[
            "queue",
            "--servers",
            "160",
            "--arrival-rate",
            rate,
            "--service-time",
            "0.178",
            "--timeout",
            "2",
        ]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    // Just below and just above saturation (ρ 0.999 and 1.001), then well past it.
    let rates = ["897.978", "899.775", "1000"];
    let shares: Vec<f64> = rates
        .iter()
        .map(|r| solve(r)["abandon_share"].as_f64().unwrap())
        .collect();
    assert!(shares[0] < shares[1] && shares[1] < shares[2], "{shares:?}");
    assert!(shares[1] < 0.002, "a 2 s patience loses little at ρ = 1");
    let v = solve("1000");
    for k in [
        "offered_load",
        "erlang_b",
        "utilization",
        "abandon_share",
        "p_wait",
        "mean_wait_s",
        "p99_sojourn_s",
    ] {
        assert!(v[k].as_f64().is_some_and(f64::is_finite), "{k}: {v}");
    }
    assert!((v["offered_load"].as_f64().unwrap() - 178.0).abs() < 1e-9);
    assert!(v["utilization"].as_f64().unwrap() <= 1.0);
    assert!(v["mean_wait_s"].as_f64().unwrap() < 2.0);

    // Without a timeout an unstable queue keeps utilization a fraction and reports the
    // offered load beside it.
    let (_, out, _) = cli(&[
        "queue",
        "--servers",
        "1",
        "--arrival-rate",
        "1e9",
        "--service-time",
        "10",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["utilization"].as_f64(), Some(1.0));
    assert_eq!(v["offered_load"].as_f64(), Some(1e10));

    let (code, out, err) = cli(&[
        "queue",
        "--servers",
        "1",
        "--arrival-rate",
        "1",
        "--service-time",
        "1",
        "--timeout",
        "-1",
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("--timeout"), "{err}");
}

#[test]
fn bad_input_exits_2_with_one_line_and_no_output() {
    const RUN: &[&str] = &[
        "run",
        "--scenario",
        "free-play",
        "--seed",
        "1",
        "--minutes",
        "5",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        RUN.iter().chain(extra).copied().collect()
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["run", "--scenario", "nope", "--seed", "1", "--minutes", "5"],
            "--scenario",
        ),
        (
            vec![
                "run",
                "--scenario",
                "free-play",
                "--seed",
                "abc",
                "--minutes",
                "5",
            ],
            "--seed",
        ),
        (
            vec![
                "run",
                "--scenario",
                "free-play",
                "--seed",
                "1",
                "--minutes",
                "0",
            ],
            "--minutes",
        ),
        (with(&["--action", "3:teleport"]), "unknown action"),
        (with(&["--action", "3:min_instances=99"]), "min_instances"),
        (with(&["--action", "x:rollback"]), "minute"),
        (with(&["--format", "xml"]), "--format"),
        (with(&["--set", "timeout_s=-1"]), "timeout_s"),
        (with(&["--bogus", "1"]), "--bogus"),
        (
            vec![
                "queue",
                "--servers",
                "0",
                "--arrival-rate",
                "1",
                "--service-time",
                "1",
            ],
            "--servers",
        ),
        (
            vec![
                "queue",
                "--servers",
                "2",
                "--arrival-rate",
                "NaN",
                "--service-time",
                "1",
            ],
            "--arrival-rate",
        ),
        (vec!["frobnicate"], "unknown command"),
    ];
    for (args, needle) in &cases {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn des_prints_one_object_with_the_contract_fields() {
    let args = [
        "des",
        "--servers",
        "6",
        "--arrival-rate",
        "5",
        "--service-time",
        "1",
        "--customers",
        "20000",
        "--instances",
        "3",
        "--lb",
        "least-request",
        "--timeout",
        "2",
        "--seed",
        "7",
    ];
    let (code, out, err) = cli(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let fields = [
        "p_wait",
        "mean_wait_s",
        "mean_sojourn_s",
        "p50_s",
        "p95_s",
        "p99_s",
        "p999_s",
        "timeout_share",
        "utilization",
        "per_instance_served",
        "hedges_sent",
        "hedges_won",
        "duplicates",
        "customers",
        "events_per_s",
    ];
    assert_eq!(v.as_object().unwrap().len(), fields.len(), "{out}");
    for field in fields {
        assert!(v.get(field).is_some(), "missing {field}");
    }
    assert_eq!(v["customers"], 20_000);
    assert_eq!(v["per_instance_served"].as_array().unwrap().len(), 3);
    // The same seed gives the same output, but for the wall-clock speed.
    let (_, again, _) = cli(&args);
    let mut w: serde_json::Value = serde_json::from_str(&again).unwrap();
    let mut v = v;
    v.as_object_mut().unwrap().remove("events_per_s");
    w.as_object_mut().unwrap().remove("events_per_s");
    assert_eq!(v, w);
}

/// `--choice-count d`: least request over 100 single-worker instances at load 0.9 against the
/// supermarket model's mean time in the system, Σ_{i≥1} ρ^((dⁱ − d)/(d − 1)) service times
/// (Mitzenmacher 2001, the limit of many instances: 100 measure 2–3 % above it), for d = 2
/// (the default) and 3.
#[test]
fn des_least_request_takes_its_choice_count() {
    let supermarket = |d: f64| -> f64 {
        (1..40)
            .map(|i| 0.9f64.powf((d.powi(i) - d) / (d - 1.0)))
            .sum()
    };
    let run = |extra: &[&str]| -> f64 {
        let mut args = vec![
            "des",
            "--servers",
            "100",
            "--instances",
            "100",
            "--arrival-rate",
            "90",
            "--service-time",
            "1",
            "--customers",
            "400000",
            "--lb",
            "least-request",
            "--seed",
            "3",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = cli(&args);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["mean_sojourn_s"].as_f64().unwrap()
    };
    let two = run(&[]);
    assert_eq!(two, run(&["--choice-count", "2"]));
    let three = run(&["--choice-count", "3"]);
    for (measured, d) in [(two, 2.0), (three, 3.0)] {
        let theory = supermarket(d);
        assert!(
            (measured / theory - 1.0).abs() < 0.05,
            "d = {d}: {measured} against {theory}"
        );
    }
    assert!(three < two);
}

#[test]
fn des_refuses_bad_input_in_one_line() {
    let base = [
        "des",
        "--servers",
        "10",
        "--arrival-rate",
        "5",
        "--service-time",
        "1",
        "--customers",
        "100",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        base.iter().copied().chain(extra.iter().copied()).collect()
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (with(&["--instances", "3"]), "--instances 3"),
        (with(&["--instances", "0"]), "--instances"),
        (
            with(&["--lb", "nope"]),
            "round-robin, random, least-request, ring-hash, maglev",
        ),
        (with(&["--timeout", "-1"]), "--timeout"),
        (with(&["--choice-count", "1"]), "--choice-count"),
        (with(&["--choice-count", "33"]), "--choice-count"),
        (with(&["--seed", "x"]), "--seed"),
        (with(&["--hedge", "1"]), "--hedge"),
        (base[..7].to_vec(), "--customers is required"),
        (
            vec![
                "des",
                "--servers",
                "1",
                "--arrival-rate",
                "0",
                "--service-time",
                "1",
                "--customers",
                "5",
            ],
            "--arrival-rate",
        ),
        (
            vec![
                "des",
                "--servers",
                "1",
                "--arrival-rate",
                "1",
                "--service-time",
                "1",
                "--customers",
                "100000000",
            ],
            "--customers",
        ),
    ];
    for (args, needle) in &cases {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

/// Hedging through the command line: the contract's fields count the hedges, and the same
/// seed prints the same object (but for the wall-clock speed).
#[test]
fn des_hedges_and_prints_the_same_object_for_the_same_seed() {
    let args = [
        "des",
        "--servers",
        "40",
        "--instances",
        "10",
        "--arrival-rate",
        "300",
        "--service-time",
        "0.1",
        "--customers",
        "50000",
        "--timeout",
        "2",
        "--lb",
        "ring-hash",
        "--keys",
        "1000",
        "--zipf",
        "0.9",
        "--slow",
        "2,3,20,120",
        "--hedge-delay-ms",
        "300",
        "--max-tokens",
        "100",
        "--refill-ratio",
        "0.05",
        "--seed",
        "3",
    ];
    let (code, out, err) = cli(&args);
    assert_eq!(code, 0, "{err}");
    let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sent = v["hedges_sent"].as_u64().unwrap();
    assert!(sent > 0, "{out}");
    assert!(v["hedges_won"].as_u64().unwrap() <= sent);
    // At most the refill ratio of the requests plus the bucket's 100 initial tokens.
    assert!(sent as f64 <= 0.05 * 50_000.0 + 100.0, "{out}");
    assert!(v["tokens_left"].as_f64().unwrap() <= 100.0);
    let (_, again, _) = cli(&args);
    let mut w: serde_json::Value = serde_json::from_str(&again).unwrap();
    v.as_object_mut().unwrap().remove("events_per_s");
    w.as_object_mut().unwrap().remove("events_per_s");
    assert_eq!(v, w);
}

#[test]
fn des_refuses_hedging_against_the_sources_rules_in_one_line() {
    let base = [
        "des",
        "--servers",
        "8",
        "--instances",
        "4",
        "--arrival-rate",
        "4",
        "--service-time",
        "1",
        "--customers",
        "100",
    ];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        base.iter().copied().chain(extra.iter().copied()).collect()
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            with(&["--timeout", "1", "--hedge-delay-ms", "1000"]),
            "--hedge-delay-ms 1000 must be below both the request timeout (--timeout: 1 s) and the total timeout (--total-timeout: none)",
        ),
        (
            with(&["--hedge-delay-ms", "500", "--total-timeout", "0.4"]),
            "the request timeout (--timeout: none) and the total timeout (--total-timeout: 0.4 s)",
        ),
        (
            with(&["--hedge-delay-ms", "200", "--ordering-keys", "on"]),
            "--ordering-keys on cannot be combined with hedging",
        ),
        (with(&["--hedge-delay-ms", "99"]), "from 100 to 10000"),
        (with(&["--hedge-delay-ms", "10001"]), "from 100 to 10000"),
        (with(&["--max-tokens", "251"]), "--max-tokens \"251\""),
        (with(&["--refill-ratio", "0.0009"]), "from 0.001 to 0.2"),
        (with(&["--initial-tokens", "51"]), "from 0 to --max-tokens (50)"),
        (with(&["--zipf", "11"]), "--zipf"),
        (with(&["--keys", "1000001"]), "--keys"),
        (with(&["--sigma", "-1"]), "--sigma"),
        (with(&["--slow", "1,2,3"]), "INSTANCE,FACTOR,FROM_S,TO_S"),
        (with(&["--ordering-keys", "yes"]), "on or off"),
    ];
    for (args, needle) in &cases {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn run_ends_with_a_debrief_of_the_worst_minute_and_the_warnings() {
    let (code, out, _) = cli(&[
        "run",
        "--scenario",
        "bad-deploy",
        "--seed",
        "7",
        "--minutes",
        "120",
    ]);
    assert_eq!(code, 0);
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["event"], "debrief");
    assert_eq!(last["minute"], 120);
    let s = &last["summary"];
    // The summary's fields are all there, the new ones beside them.
    for field in [
        "budget_spent",
        "budget_left",
        "minutes_paging",
        "mean_staleness_s",
    ] {
        assert!(s.get(field).is_some(), "missing {field}");
    }
    let w = &s["worst_minute"];
    assert_eq!(w["minute"], 12);
    assert_eq!(w["clock"], "09:12");
    assert_eq!(w["cause"], "bad_build");
    // The minute's own record carries the same error rate and p99.
    let record: serde_json::Value = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v.get("event").is_none() && v["minute"] == 12)
        .unwrap();
    assert_eq!(w["error_rate"], record["error_rate"]);
    assert_eq!(w["p99_ms"], record["p99_ms"]);
    // Left alone, seed 7 pages for 95 of 120 minutes: paged for long, nothing else.
    assert_eq!(s["minutes_paging"], 95);
    let warnings = s["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["warning"], "paged_long");
    assert_eq!(warnings[0]["minutes_paging"], 95);
    // With --events the debrief goes with the events.
    let dir = std::env::temp_dir().join(format!("oncall-sim-debrief-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("events.jsonl");
    let (code, out, _) = cli(&[
        "run",
        "--scenario",
        "bad-deploy",
        "--seed",
        "7",
        "--minutes",
        "10",
        "--events",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(!out.contains("debrief"));
    let events = std::fs::read_to_string(&file).unwrap();
    assert!(events
        .lines()
        .last()
        .unwrap()
        .contains("\"event\":\"debrief\""));
    std::fs::remove_dir_all(dir).ok();
}

/// `oncall-sim COMMAND --help` (and `-h`, and `oncall-sim help COMMAND`) prints that
/// command's usage lines on stdout and exits 0, for every command the code knows.
#[test]
fn every_command_prints_its_usage_with_help() {
    let (code, whole, err) = cli(&["help"]);
    assert_eq!((code, err.as_str()), (0, ""));
    for command in oncall_sim::message::CLI_COMMANDS {
        let head = format!("  oncall-sim {command}");
        let names = |l: &str| l == head || l.starts_with(&format!("{head} "));
        for args in [
            vec![command, "--help"],
            vec![command, "-h"],
            vec!["help", command],
        ] {
            let (code, out, err) = cli(&args);
            assert_eq!(code, 0, "{args:?}: {err}");
            assert_eq!(err, "", "{args:?}");
            assert!(out.starts_with("usage:\n"), "{args:?}: {out}");
            assert!(
                out.lines()
                    .skip(1)
                    .all(|l| names(l) || l.starts_with("    ")),
                "{args:?}: {out}"
            );
            assert!(out.lines().nth(1).is_some_and(names), "{args:?}: {out}");
            // The same lines as the whole usage gives.
            for line in out.lines() {
                assert!(whole.lines().any(|w| w == line), "{args:?}: {line}");
            }
        }
    }
}

/// The commands the whole usage lists are the commands the code knows, and `--help` after
/// any of them is no longer refused as an unknown argument.
#[test]
fn the_usage_lists_the_commands_the_code_knows() {
    let (_, whole, _) = cli(&["--help"]);
    let mut listed: Vec<&str> = whole
        .lines()
        .filter_map(|l| l.strip_prefix("  oncall-sim "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    listed.dedup();
    assert_eq!(listed, oncall_sim::message::CLI_COMMANDS.to_vec());
    let (code, out, _) = cli(&["nonsense", "--help"]);
    assert_eq!((code, out.as_str()), (2, ""));
}
