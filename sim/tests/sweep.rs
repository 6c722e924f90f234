//! `oncall-sim sweep`: a strategy over many seeds, its summary, shards and their merge.

mod common;

use common::cli;
use std::process::Command;

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

const BAD_DEPLOY: &[&str] = &[
    "sweep",
    "--scenario",
    "bad-deploy",
    "--seed",
    "7",
    "--seeds",
    "40",
    "--action",
    "26:rollback",
];

/// The CLI with `args` on `threads` threads: its standard output.
fn on_threads(args: &[&str], threads: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_oncall-sim"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("the oncall-sim binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn one_line_per_strategy_and_seed_the_persons_seed_first() {
    let (code, out, err) = cli(BAD_DEPLOY);
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 40 * 8);
    let first: Vec<(&str, &str)> = lines[..8]
        .iter()
        .map(|l| {
            (
                l["strategy"].as_str().unwrap(),
                l["policy"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        first,
        [
            ("actions", "target-tracking"),
            ("nothing_done", "target-tracking"),
            ("textbook", "target-tracking"),
            ("policy", "target-tracking"),
            ("policy", "cloud-run"),
            ("policy", "elastic"),
            ("policy", "hpa"),
            ("policy", "kpa"),
        ]
    );
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["index"], (i / 8) as u64);
        assert_eq!(l["seed"], 7 + (i / 8) as u64);
        assert_eq!(l["seeds"], 40);
        assert_eq!(l["scenario"], "bad-deploy");
        for field in ["budget_spent", "cost", "worst_p99_ms", "minutes_paging"] {
            assert!(l[field].is_number(), "{field} in {l}");
        }
    }
    // The person's line at their seed is their run's debrief, as `run` and `compare` give it.
    let (_, compare, _) = cli(&[
        "compare",
        "--scenario",
        "bad-deploy",
        "--seed",
        "7",
        "--policies",
        "target-tracking",
        "--minutes",
        "120",
        "--action",
        "26:rollback",
    ]);
    let own = &json_lines(&compare)[0];
    assert_eq!(lines[0]["budget_spent"], own["budget_spent"]);
    assert_eq!(lines[0]["cost"], own["cost"]);
    assert_eq!(lines[0]["worst_p99_ms"], own["worst_p99_ms"]);
    // Rolling back when paged spends less than doing nothing on every seed of the bad deploy.
    let (_, summary, _) = cli(&[BAD_DEPLOY, &["--summary"]].concat());
    let summary = json_lines(&summary);
    assert_eq!(summary.len(), 8);
    let beat = &summary[0]["beat_nothing"];
    assert_eq!(beat["wins"], 40, "{beat}");
    assert!(
        beat["low"].as_f64().unwrap() > 0.9 && beat["high"] == 1.0,
        "{beat}"
    );
    assert!(summary[1].get("beat_nothing").is_none());
    let spent = &summary[0]["budget_spent"];
    assert_eq!(spent["at_seed"], lines[0]["budget_spent"]);
    assert!(spent["min"].as_f64() <= spent["p5"].as_f64());
    assert!(spent["p5"].as_f64() <= spent["p50"].as_f64());
    assert!(spent["p50"].as_f64() <= spent["p95"].as_f64());
    assert!(spent["p95"].as_f64() <= spent["max"].as_f64());
}

#[test]
fn the_same_lines_and_summary_on_one_two_and_four_threads() {
    let summary = [BAD_DEPLOY, &["--summary"]].concat();
    let lines_1 = on_threads(BAD_DEPLOY, "1");
    let summary_1 = on_threads(&summary, "1");
    for threads in ["2", "4"] {
        assert_eq!(
            on_threads(BAD_DEPLOY, threads),
            lines_1,
            "{threads} threads"
        );
        assert_eq!(
            on_threads(&summary, threads),
            summary_1,
            "{threads} threads"
        );
    }
}

#[test]
fn four_merged_shards_give_the_summary_of_one_run() {
    let dir = std::env::temp_dir().join(format!("oncall-sim-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    // Shards in the reverse order, to show the order does not matter.
    for i in (0..4).rev() {
        let shard = format!("{i}/4");
        let (code, out, err) = cli(&[BAD_DEPLOY, &["--shard", &shard]].concat());
        assert_eq!(code, 0, "{err}");
        assert_eq!(json_lines(&out).len(), 10 * 8, "shard {shard}");
        let path = dir.join(format!("shard-{i}.jsonl"));
        std::fs::write(&path, out).unwrap();
        files.push(path.to_string_lossy().into_owned());
    }
    let mut merge = vec!["sweep", "--merge"];
    merge.extend(files.iter().map(String::as_str));
    let (code, merged, err) = cli(&merge);
    assert_eq!(code, 0, "{err}");
    let (_, whole, _) = cli(&[BAD_DEPLOY, &["--summary"]].concat());
    assert_eq!(merged, whole);

    // A shard left out, or given twice: refused, naming what is wrong.
    let (code, out, err) = cli(&merge[..5]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains(
            "10 seeds of the actions runs (target-tracking) are missing, from seed index 0"
        ),
        "{err}"
    );
    let mut twice = merge.clone();
    twice.push(&files[0]);
    let (code, _, err) = cli(&twice);
    assert_eq!(code, 2);
    assert!(err.contains("at seed index 30 is there twice"), "{err}");
    // Lines of another sweep.
    let other = dir.join("other.jsonl");
    let (_, out, _) = cli(&[
        "sweep",
        "--scenario",
        "bad-deploy",
        "--seeds",
        "40",
        "--shard",
        "0/4",
    ]);
    std::fs::write(&other, out).unwrap();
    let mut mixed = merge[..5].to_vec();
    let other = other.to_string_lossy().into_owned();
    mixed.push(&other);
    let (code, _, err) = cli(&mixed);
    assert_eq!(code, 2);
    assert!(err.contains("are of two sweeps"), "{err}");
    // Not a line of sweep at all.
    let junk = dir.join("junk.jsonl");
    std::fs::write(&junk, "{\"sweep\": 1}\n").unwrap();
    let junk = junk.to_string_lossy().into_owned();
    let (code, _, err) = cli(&["sweep", "--merge", &junk]);
    assert_eq!(code, 2);
    assert!(
        err.contains("line 1 is not a line of oncall-sim sweep"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_arguments_name_what_is_allowed() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["sweep", "--scenario", "bad-deploy", "--seeds", "0"],
            "--seeds \"0\" is not allowed",
        ),
        (
            &["sweep", "--scenario", "bad-deploy", "--shard", "4/4"],
            "--shard \"4/4\" is not a shard",
        ),
        (
            &["sweep", "--scenario", "bad-deploy", "--shard", "1"],
            "use I/N",
        ),
        (
            &[
                "sweep",
                "--scenario",
                "bad-deploy",
                "--seeds",
                "3",
                "--shard",
                "0/4",
            ],
            "N ≤ 3, the number of seeds",
        ),
        (
            &[
                "sweep",
                "--scenario",
                "bad-deploy",
                "--shard",
                "0/2",
                "--summary",
            ],
            "--summary needs every seed",
        ),
        (&["sweep", "--merge"], "--merge needs one or more files"),
        (
            &["sweep", "--scenario", "bad-deploy", "--merge", "x"],
            "--merge takes only the files",
        ),
        (
            &["sweep", "--scenario", "bad-deploy", "--policies", "hpa,foo"],
            "\"foo\" is not a policy",
        ),
        (
            &["sweep", "--merge", "/nonexistent/sweep.jsonl"],
            "cannot be read",
        ),
    ];
    for (args, expected) in cases {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}
