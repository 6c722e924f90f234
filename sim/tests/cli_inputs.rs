//! The command line at the edges of its input and output: the order of --set never matters
//! and the error blames the argument given, lost output fails the command, and input is
//! bounded and echoed safely.

mod common;
use common::cli;
use std::process::{Command, Stdio};

const RUN: &[&str] = &[
    "run",
    "--scenario",
    "free-play",
    "--seed",
    "1",
    "--minutes",
    "3",
];

fn run_with(extra: &[&str]) -> (i32, String, String) {
    let args: Vec<&str> = RUN.iter().chain(extra).copied().collect();
    cli(&args)
}

/// Exit code and stderr of the CLI with `args`, its stdout or stderr going to `/dev/full`.
fn to_dev_full(args: &[&str], stream: &str) -> Option<(Option<i32>, String)> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()?;
    let mut command = Command::new(env!("CARGO_BIN_EXE_oncall-sim"));
    command.args(args);
    match stream {
        "stdout" => command.stdout(full).stderr(Stdio::piped()),
        _ => command.stdout(Stdio::piped()).stderr(full),
    };
    let out = command.output().expect("the oncall-sim binary runs");
    Some((
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[test]
fn set_order_never_matters() {
    let pairs = [
        ["cloud_run.act_cpu_high=0.6", "cloud_run.act_cpu_low=0.5"],
        ["elastic.min_nodes=1", "elastic.max_nodes=1"],
        ["cloud_run.long_window_s=30", "cloud_run.window_s=20"],
    ];
    for [a, b] in pairs {
        let forward = run_with(&["--set", a, "--set", b]);
        let backward = run_with(&["--set", b, "--set", a]);
        assert_eq!(forward.0, 0, "{a} {b}: {}", forward.2);
        assert_eq!(forward, backward, "{a} {b}");
    }
    let (code, out, err) = run_with(&[
        "--set",
        "autoscaler=elastic",
        "--set",
        "elastic.max_nodes=1",
        "--set",
        "elastic.min_nodes=1",
    ]);
    assert_eq!(code, 0, "{err}");
    // One node at most, above the minimum-instances control's floor of 2.
    assert_eq!(
        out.lines().filter(|l| l.contains("\"serving\":2,")).count(),
        3,
        "{out}"
    );
}

#[test]
fn a_broken_rule_blames_the_argument_given() {
    let cases = [
        (
            vec!["--set", "cloud_run.act_cpu_high=0.5"],
            "--set cloud_run.act_cpu_high: must be above cloud_run.act_cpu_low (0.7)",
        ),
        (
            vec!["--set", "cloud_run.long_window_s=1"],
            "--set cloud_run.long_window_s: must be at least cloud_run.window_s (60)",
        ),
        (
            vec!["--set", "cloud_run.act_cpu_low=0.95"],
            "--set cloud_run.act_cpu_low: must be below cloud_run.act_cpu_high (0.9)",
        ),
        (
            vec!["--set", "elastic.max_nodes=1"],
            "--set elastic.max_nodes: must be at least elastic.min_nodes (2)",
        ),
        (
            vec![
                "--set",
                "hpa.scale_up_pods=0",
                "--set",
                "hpa.scale_up_percent=0",
            ],
            "--set hpa.scale_up_pods: must be at least 1 when hpa.scale_up_percent is 0",
        ),
    ];
    for (extra, expected) in cases {
        let (code, out, err) = run_with(&extra);
        assert_eq!(code, 2, "{extra:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("oncall-sim: {expected}")),
            "{extra:?}: {err}"
        );
    }
}

#[test]
fn lost_output_fails_the_command_and_a_closed_stderr_does_not_abort() {
    let Some((code, err)) = to_dev_full(RUN, "stdout") else {
        return; // No /dev/full on this system.
    };
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with("oncall-sim: cannot write the output: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Nothing can be said when stderr is full: the usage error still exits 2, without a
    // panic or an abort.
    let (code, _) = to_dev_full(&["bogus"], "stderr").unwrap();
    assert_eq!(code, Some(2));
    let (code, _) = to_dev_full(&["run", "--scenario", "nope"], "stderr").unwrap();
    assert_eq!(code, Some(2));
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oncall-sim"))
        .args([
            "run",
            "--scenario",
            "free-play",
            "--seed",
            "1",
            "--minutes",
            "2000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the oncall-sim binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn config_check_escapes_keys_and_refuses_a_huge_file() {
    let dir = std::env::temp_dir().join(format!("oncall-sim-cli-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("odd-key.json");
    std::fs::write(&path, "{\"a\\nb\\u001b[2J\\u0007\": 1}").unwrap();
    let (code, out, err) = cli(&["config", "check", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(
        !err.trim_end().contains(|c: char| c.is_control()),
        "{err:?}"
    );
    assert!(
        err.contains(r"a\nb\u{1b}[2J\u{7}: unknown field"),
        "{err:?}"
    );

    // A file past 256 kB is refused before it is read whole (/dev/zero never ends).
    let big = dir.join("big.json");
    let mut text = String::from("{\"max_nodes\": 20");
    text.push_str(&" ".repeat(256 * 1024));
    text.push('}');
    std::fs::write(&big, &text).unwrap();
    for file in [big.to_str().unwrap(), "/dev/zero"] {
        if !std::path::Path::new(file).exists() {
            continue;
        }
        let (code, out, err) = cli(&["config", "check", file]);
        assert_eq!(code, 2, "{file}");
        assert!(out.is_empty());
        assert!(err.contains("is larger than 262144 bytes"), "{err}");
        let (code, _, err) = run_with(&["--elastic-config", file]);
        assert_eq!(code, 2, "{file}");
        assert!(
            err.contains("--elastic-config") && err.contains("262144"),
            "{err}"
        );
    }
    // Just under the limit is read.
    text.truncate(256 * 1024 - 1);
    text.push('}');
    std::fs::write(&big, &text).unwrap();
    let (code, _, err) = cli(&["config", "check", big.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn whole_numbers_are_read_as_links_read_them() {
    for extra in [
        ["--seed", "+5"],
        ["--minutes", "+5"],
        ["--set", "workers_per_instance=+8"],
        ["--action", "+1:rollback"],
        ["--action", "1:min_instances=+4"],
        ["--action", "1:shed_low_priority=+0.5"],
    ] {
        let mut args: Vec<&str> = RUN.to_vec();
        if extra[0] == "--seed" || extra[0] == "--minutes" {
            let at = args.iter().position(|a| *a == extra[0]).unwrap();
            args[at + 1] = extra[1];
        } else {
            args.extend(extra);
        }
        let (code, out, err) = cli(&args);
        assert_eq!(code, 2, "{extra:?}");
        assert!(out.is_empty());
        assert!(err.contains("+"), "{extra:?}: {err}");
    }
    let (code, _, err) = cli(&[
        "queue",
        "--servers",
        "+2",
        "--arrival-rate",
        "1",
        "--service-time",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = cli(&[
        "queue",
        "--servers",
        "2",
        "--arrival-rate",
        "+1",
        "--service-time",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_long_entry_is_quoted_short() {
    let long = format!("3:{}", "z".repeat(20_000));
    let set = format!("timeout_s={}", "9".repeat(20_000));
    for extra in [["--action", long.as_str()], ["--set", set.as_str()]] {
        let (code, out, err) = run_with(&extra);
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1);
        assert!(err.len() < 1000, "{} bytes: {err}", err.len());
        assert!(err.contains('…'), "{err}");
    }
}

#[test]
fn a_parameter_or_a_policy_given_twice_is_refused() {
    let (code, out, err) = run_with(&["--set", "autoscaler=hpa", "--set", "autoscaler=kpa"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("--set autoscaler given more than once (\"hpa\" and \"kpa\")"),
        "{err}"
    );
    let (code, _, err) = run_with(&["--set", "timeout_s=3", "--set", "timeout_s=3"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--set timeout_s given more than once"),
        "{err}"
    );
    let (code, out, err) = cli(&[
        "compare",
        "--scenario",
        "free-play",
        "--seed",
        "1",
        "--minutes",
        "3",
        "--policies",
        "hpa,kpa,hpa",
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("--policies lists \"hpa\" more than once"),
        "{err}"
    );
}

#[test]
fn an_unwritable_events_path_is_refused_before_the_run() {
    // A 30-day run would take a while; the path is checked before the first minute.
    let (code, out, err) = cli(&[
        "run",
        "--scenario",
        "free-play",
        "--seed",
        "1",
        "--minutes",
        "43200",
        "--events",
        "/nonexistent-directory/events.jsonl",
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("--events \"/nonexistent-directory/events.jsonl\" cannot be written"),
        "{err}"
    );
}

#[test]
fn an_unstable_queue_reports_the_offered_load_and_a_utilization_within_one() {
    for extra in [&[][..], &["--timeout", "2"][..]] {
        let mut args = vec![
            "queue",
            "--servers",
            "2",
            "--arrival-rate",
            "1e9",
            "--service-time",
            "10",
        ];
        args.extend(extra);
        let (code, out, err) = cli(&args);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["offered_load"].as_f64(), Some(1e10));
        let u = v["utilization"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&u), "{out}");
    }
}

#[test]
fn an_argument_that_does_not_apply_is_refused_with_what_it_applies_to() {
    // A source's policy does not go with a composite of states.
    let (code, out, err) = cli(&[
        "health",
        "--sources",
        "HEALTHY,HEALTHY",
        "--healthy-percent",
        "60",
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("oncall-sim: --healthy-percent is not allowed with --sources: "),
        "{err}"
    );
    assert!(err.contains("--endpoints HEALTHY/TOTAL"), "{err}");
    // Only least request draws choices; the others would ignore the count.
    let des = |extra: &[&str]| {
        let mut args = vec![
            "des",
            "--servers",
            "4",
            "--instances",
            "2",
            "--arrival-rate",
            "1",
            "--service-time",
            "1",
            "--customers",
            "10",
        ];
        args.extend_from_slice(extra);
        cli(&args)
    };
    for lb in [
        &["--lb", "ring-hash"][..],
        &["--lb", "maglev"],
        &["--lb", "random"],
        &[],
    ] {
        let mut extra = lb.to_vec();
        extra.extend(["--choice-count", "32"]);
        let (code, out, err) = des(&extra);
        assert_eq!((code, out.as_str()), (2, ""), "{lb:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("--choice-count \"32\" applies only to --lb least-request"),
            "{err}"
        );
    }
    let (code, _, err) = des(&["--lb", "least-request", "--choice-count", "32"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_source_without_endpoints_is_judged_by_min_healthy_alone_and_says_so() {
    let health = |extra: &[&str]| {
        let mut args = vec!["health", "--endpoints", "0/0"];
        args.extend_from_slice(extra);
        let (code, out, err) = cli(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let strict = health(&[]);
    assert!(strict.starts_with("UNHEALTHY: no endpoints: "), "{strict}");
    assert!(strict.contains("only min_healthy (1) decides"), "{strict}");
    let lax = health(&["--min-healthy", "0"]);
    assert!(lax.starts_with("HEALTHY: no endpoints: "), "{lax}");
    assert!(lax.contains("only min_healthy (0) decides"), "{lax}");
    // Every count has a stated bound.
    let (code, _, err) = cli(&["health", "--endpoints", "5/1000001"]);
    assert_eq!(code, 2);
    assert!(err.contains("from 0 to 1000000"), "{err}");
}
