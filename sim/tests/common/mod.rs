//! Shared by the command-line tests.

use std::process::Command;

/// Runs the CLI with `args`: (exit code, stdout, stderr).
pub fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oncall-sim"))
        .args(args)
        .output()
        .expect("the oncall-sim binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}
