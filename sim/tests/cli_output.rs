//! Lost output fails every command: a standard output closed before the program starts
//! (`>&-`) or one that cannot take what is written (`/dev/full`), and the files `run` writes
//! with `--events` and `--regions`, each exit with status 1 and one line on stderr.

use std::process::{Command, Stdio};

const CONFIG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/elastic-config.jsonc"
);

/// One invocation of every command (the short ones), each printing something.
fn every_command() -> Vec<Vec<&'static str>> {
    vec![
        vec!["scenarios"],
        vec!["help"],
        vec![
            "run",
            "--scenario",
            "free-play",
            "--seed",
            "1",
            "--minutes",
            "3",
        ],
        vec![
            "compare",
            "--scenario",
            "bad-deploy",
            "--seed",
            "1",
            "--minutes",
            "5",
            "--policies",
            "hpa",
        ],
        vec!["config", "check", CONFIG],
        vec!["config", "export", CONFIG],
        vec![
            "queue",
            "--servers",
            "2",
            "--arrival-rate",
            "1",
            "--service-time",
            "1",
        ],
        vec![
            "par",
            "--scenario",
            "bad-deploy",
            "--seed",
            "1",
            "--minutes",
            "5",
        ],
        vec![
            "lb",
            "--policy",
            "maglev",
            "--hosts",
            "3",
            "--table-size",
            "101",
        ],
        vec![
            "des",
            "--servers",
            "2",
            "--arrival-rate",
            "1",
            "--service-time",
            "1",
            "--customers",
            "50",
        ],
        vec!["health", "--endpoints", "6/10"],
        vec!["health", "--sources", "HEALTHY,UNKNOWN"],
    ]
}

/// Exit code, stdout and stderr of `sh -c`, which runs the CLI with `args` after `redirect`
/// (e.g. `>&-`).
fn through_shell(args: &[&str], redirect: &str) -> (Option<i32>, String, String) {
    let script = format!("exec \"$0\" \"$@\" {redirect}");
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_oncall-sim"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn has_dev_full() -> bool {
    std::path::Path::new("/dev/full").exists()
}

#[test]
fn every_command_prints_when_its_output_can_be_written() {
    for args in every_command() {
        let (code, out, err) = through_shell(&args, "");
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(!out.is_empty(), "{args:?}");
        // Into /dev/null on purpose: the output is thrown away, not lost.
        let (code, _, err) = through_shell(&args, ">/dev/null");
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
}

#[test]
fn every_command_with_its_stdout_closed_exits_1_with_one_line() {
    if !cfg!(target_os = "linux") {
        return; // A closed standard output is told from /dev/null only on Linux.
    }
    for args in every_command() {
        let (code, _, err) = through_shell(&args, ">&-");
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("oncall-sim: cannot write the output: "),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn every_command_into_a_full_disk_exits_1_with_one_line() {
    if !has_dev_full() {
        return;
    }
    for args in every_command() {
        let (code, _, err) = through_shell(&args, ">/dev/full");
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("oncall-sim: cannot write the output: "),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn run_files_that_cannot_be_written_in_full_exit_1() {
    if !has_dev_full() {
        return;
    }
    let run = |flag: &'static str| {
        vec![
            "run",
            "--scenario",
            "regional-outage",
            "--seed",
            "1",
            "--minutes",
            "3",
            flag,
            "/dev/full",
        ]
    };
    for flag in ["--events", "--regions"] {
        let (code, out, err) = through_shell(&run(flag), "");
        assert_eq!(code, Some(1), "{flag}: {err}");
        assert_eq!(err.lines().count(), 1, "{flag}: {err}");
        assert!(
            err.starts_with(&format!(
                "oncall-sim: {flag} \"/dev/full\" cannot be written: "
            )),
            "{flag}: {err}"
        );
        // The standard output is not printed once the run has failed.
        assert!(out.is_empty(), "{flag}");
    }
    // A file that cannot be created is bad input, refused before the run (exit 2).
    let mut args = run("--events");
    args[8] = "/nonexistent-directory/events.jsonl";
    let (code, _, err) = through_shell(&args, "");
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn a_pipe_closed_by_its_reader_stays_quiet() {
    // `| head -c 1`: the reader leaves after one byte; the status is the CLI's own.
    let script = format!(
        "\"{}\" run --scenario free-play --seed 1 --minutes 3000 | head -c 1 >/dev/null; \
         echo \"${{PIPESTATUS[0]:-$?}}\"",
        env!("CARGO_BIN_EXE_oncall-sim")
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.trim(),
        "0",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
