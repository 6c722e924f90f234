//! Nothing runs for minutes without saying so: `par` and `compare` in request mode take at
//! most a day of minutes, and a command expected to take a while says so on stderr and shows
//! its progress.

mod common;
use common::cli;

#[test]
fn par_and_compare_in_request_mode_take_at_most_a_day() {
    let cases: [&[&str]; 3] = [
        &[
            "par",
            "--scenario",
            "hot-key",
            "--seed",
            "1",
            "--minutes",
            "43200",
        ],
        &[
            "compare",
            "--scenario",
            "free-play",
            "--seed",
            "1",
            "--minutes",
            "1441",
            "--set",
            "engine=requests",
        ],
        &[
            "par",
            "--scenario",
            "free-play",
            "--seed",
            "1",
            "--minutes",
            "1441",
            "--set",
            "engine=requests",
            "--set",
            "regions=2",
        ],
    ];
    for args in cases {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("is more than 1440"), "{err}");
        assert!(err.contains("in request mode"), "{err}");
        assert!(err.contains("--set engine=formulas"), "{err}");
    }
    // In the formulas the whole month stays allowed.
    let (code, _, err) = cli(&[
        "compare",
        "--scenario",
        "free-play",
        "--seed",
        "1",
        "--minutes",
        "1441",
        "--policies",
        "hpa",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_long_compare_says_so_and_counts_its_runs() {
    let (code, out, err) = cli(&[
        "compare",
        "--scenario",
        "hot-key",
        "--seed",
        "1",
        "--minutes",
        "120",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 5);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 6, "{err}");
    assert!(lines[0].contains("compare: 5 runs of 120 minutes"), "{err}");
    assert!(lines[0].contains("Ctrl-C stops it"), "{err}");
    for (i, line) in lines[1..].iter().enumerate() {
        assert_eq!(
            *line,
            format!("oncall-sim: compare: {} of 5 runs done", i + 1)
        );
    }
    // A short one says nothing.
    let (code, _, err) = cli(&[
        "compare",
        "--scenario",
        "hot-key",
        "--seed",
        "1",
        "--minutes",
        "20",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_long_par_counts_its_replays_to_the_last() {
    // 26 replays of 20,000 minutes of the formulas: past the work said to take a while.
    let (code, out, err) = cli(&[
        "par",
        "--scenario",
        "bad-deploy",
        "--seed",
        "1",
        "--minutes",
        "20000",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        "oncall-sim: par: 26 runs of 20000 minutes at most; this takes a while, progress \
         follows here (Ctrl-C stops it; nothing is printed until the end)"
    );
    let last = lines.last().unwrap();
    let (done, total) = last
        .strip_prefix("oncall-sim: par: ")
        .and_then(|rest| rest.strip_suffix(" runs done"))
        .and_then(|rest| rest.split_once(" of "))
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!(done, total, "{err}");
    assert_eq!(
        lines.len(),
        1 + total.parse::<usize>().unwrap() - 1,
        "{err}"
    );
}
