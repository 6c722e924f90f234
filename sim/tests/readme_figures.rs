//! The figures README.md quotes come from the code. Each quoted figure sits between markers,
//! `<!--fig:ID-->4.5 %<!--/fig-->` (a generated table between the same markers on lines of
//! their own); this test computes every figure again, from the core or from the command line
//! with the arguments the README gives, and fails when the README says anything else, naming
//! each figure that drifted. Performance figures (times, sizes, rates measured on a machine or
//! in a browser) are no simulation output and carry no marker.
//!
//! ```sh
//! scripts/readme-figures.sh            # check, and print each figure
//! scripts/readme-figures.sh --write    # rewrite the drifted figures in README.md
//! # that is: [README_FIGURES=write] cargo test -p oncall-sim --release --test readme_figures -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::process::Command;

use oncall_sim::ids::ScenarioId;
use oncall_sim::regions::RegionAction;
use oncall_sim::scenario::Scripted;
use oncall_sim::setup::RunSetup;
use oncall_sim::Action;

const OPEN: &str = "<!--fig:";
const CLOSE: &str = "<!--/fig-->";

/// The command line's JSON object for `args`.
fn cli(args: &str) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_oncall-sim"))
        .args(args.split_whitespace())
        .output()
        .unwrap();
    assert!(out.status.success(), "oncall-sim {args}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("oncall-sim {args}: {e}"))
}

fn field(v: &serde_json::Value, name: &str) -> f64 {
    v[name]
        .as_f64()
        .unwrap_or_else(|| panic!("{name} missing in {v}"))
}

/// `x` with `decimals` decimals and thousands separated by commas ("14,878").
fn grouped(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    let (whole, fraction) = text
        .split_once('.')
        .map_or((&text[..], ""), |(w, f)| (w, f));
    let digits: Vec<char> = whole.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// A share as the README writes a budget: one decimal below 100 %, none from there.
fn budget(share: f64) -> String {
    let pct = 100.0 * share;
    if pct < 100.0 {
        format!("{pct:.1} %")
    } else {
        format!("{pct:.0} %")
    }
}

/// The regional outage's budget spent over its 150 minutes: failover on, off, and outlier
/// detection only (the debrief's regional comparison, `oncall-sim par`'s last two lines).
fn outage_budgets(seed: u32) -> [f64; 3] {
    let run = |actions: &[&str]| {
        let mut s = RunSetup::new(ScenarioId::RegionalOutage, seed);
        s.actions = actions
            .iter()
            .map(|a| Action::parse(a, 10_000).unwrap())
            .collect();
        s.run(150).unwrap().summary.budget_spent
    };
    [
        run(&[]),
        run(&["0:failover=off"]),
        run(&[
            "0:failover=off",
            "0:outlier_detection=a:on",
            "0:outlier_detection=b:on",
        ]),
    ]
}

/// What fails in region a on `seed` of the regional outage, and when.
fn outage_failure(seed: u32) -> String {
    let script = oncall_sim::exercise::scenario(ScenarioId::RegionalOutage).script(seed);
    let starts: Vec<(u32, &RegionAction)> = script
        .iter()
        .filter_map(|s| match s {
            Scripted::RegionFailure { minute, action } => Some((*minute, action)),
            _ => None,
        })
        .collect();
    let (minute, action) = starts[0];
    let end = starts.get(1).map_or(150, |s| s.0);
    let what = match action {
        RegionAction::ZoneOutage { share, .. } => {
            format!("zone outage, {:.0} % of the instances", 100.0 * share)
        }
        RegionAction::DbFailure { .. } => "database failure".to_owned(),
        other => format!("{other:?}"),
    };
    format!("{what}, minutes {minute}–{end}")
}

/// Every figure the README quotes, by id.
fn figures() -> BTreeMap<&'static str, String> {
    let mut f = BTreeMap::new();

    // The regional outage: the budget by seed, failover on / off / outlier detection only.
    let mut table = String::from(
        "\n\n| seed | region a's failure | failover on | failover off | outlier detection only |\n|---|---|---|---|---|\n",
    );
    for seed in 1..=5 {
        let [on, off, od] = outage_budgets(seed);
        table.push_str(&format!(
            "| {seed} | {} | {} | {} | {} |\n",
            outage_failure(seed),
            budget(on),
            budget(off),
            budget(od)
        ));
    }
    table.push('\n');
    f.insert("regional-outage-budgets", table);
    // The seed on which failover costs more than it saves.
    let [on, off, _] = outage_budgets(12);
    assert!(
        on > off,
        "README: on seed 12 failover costs more than it saves; now {on} against {off}"
    );
    let share = match oncall_sim::exercise::scenario(ScenarioId::RegionalOutage).script(12)[0] {
        Scripted::RegionFailure {
            action: RegionAction::ZoneOutage { share, .. },
            ..
        } => share,
        ref other => panic!("seed 12: {other:?}"),
    };
    f.insert("outage-12-share", format!("{:.0} %", 100.0 * share));

    // How many replays `par` runs at most.
    f.insert(
        "par-replays-requests",
        oncall_sim::par::most_replays(ScenarioId::HotKey).to_string(),
    );
    f.insert(
        "par-replays-formulas",
        oncall_sim::par::most_replays(ScenarioId::BadDeploy).to_string(),
    );

    // Theory against simulation on M/M/14.
    let q = cli("queue --servers 14 --arrival-rate 10 --service-time 1");
    f.insert("queue-p-wait", format!("{:.4}", field(&q, "erlang_c")));
    f.insert(
        "queue-mean-wait",
        format!("{:.4} s", field(&q, "mean_wait_s")),
    );
    f.insert("queue-p99", format!("{:.3} s", field(&q, "p99_sojourn_s")));
    let d = cli("des --servers 14 --arrival-rate 10 --service-time 1 --customers 10000000");
    f.insert("des-p-wait", format!("{:.4}", field(&d, "p_wait")));
    f.insert(
        "des-mean-wait",
        format!("{:.4} s", field(&d, "mean_wait_s")),
    );
    f.insert("des-p99", format!("{:.3} s", field(&d, "p99_s")));

    // A hot key behind Maglev, and least request.
    let hot = "des --servers 40 --instances 10 --arrival-rate 30 --service-time 1 --customers 200000 --timeout 2 --keys 1000 --zipf 1.2";
    let maglev = cli(&format!("{hot} --lb maglev"));
    let served: Vec<f64> = maglev["per_instance_served"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let most = served.iter().copied().fold(0.0, f64::max);
    let least = served.iter().copied().fold(f64::INFINITY, f64::min);
    f.insert("hot-key-most", grouped(most, 0));
    f.insert("hot-key-least", grouped(least, 0));
    f.insert(
        "hot-key-maglev-timeouts",
        format!("{:.0} %", 100.0 * field(&maglev, "timeout_share")),
    );
    let lr = cli(&format!("{hot} --lb least-request"));
    f.insert(
        "hot-key-least-request-timeouts",
        format!("{:.2} %", 100.0 * field(&lr, "timeout_share")),
    );

    // A slow instance, and hedging.
    let slow = "des --servers 80 --instances 20 --arrival-rate 800 --service-time 0.05 --customers 400000 --timeout 2 --seed 5";
    let healthy = cli(slow);
    let slowed = cli(&format!("{slow} --slow 0,2,50,450"));
    let hedged = cli(&format!("{slow} --slow 0,2,50,450 --hedge-delay-ms 200"));
    f.insert(
        "slow-p99-healthy",
        format!("{:.3} s", field(&healthy, "p99_s")),
    );
    f.insert("slow-p99", format!("{:.3} s", field(&slowed, "p99_s")));
    f.insert(
        "slow-p99-hedged",
        format!("{:.3} s", field(&hedged, "p99_s")),
    );
    let sent = field(&hedged, "hedges_sent");
    f.insert("slow-hedges", grouped(sent, 0));
    f.insert(
        "slow-hedges-share",
        format!("{:.1} %", 100.0 * sent / field(&hedged, "customers")),
    );
    f.insert("slow-duplicates", grouped(field(&hedged, "duplicates"), 0));
    f.insert(
        "slow-utilization-hedged",
        format!("{:.3}", field(&hedged, "utilization")),
    );
    f.insert(
        "slow-utilization",
        format!("{:.3}", field(&slowed, "utilization")),
    );

    // Hash load balancing when a host leaves.
    let maglev = cli("lb --policy maglev --hosts 10 --remove 1");
    f.insert(
        "lb-maglev-shares",
        format!(
            "{:.5} to {:.5}",
            field(&maglev, "min_share"),
            field(&maglev, "max_share")
        ),
    );
    f.insert(
        "lb-maglev-moved",
        format!("{:.4}", field(&maglev, "moved_share_exact")),
    );
    let ring = cli("lb --policy ring-hash --hosts 10 --remove 1");
    f.insert(
        "lb-ring-moved",
        format!("{:.3}", field(&ring, "moved_share_exact")),
    );
    f.insert(
        "lb-ring-points",
        field(&ring, "points_per_host").to_string(),
    );
    f
}

/// Each marked figure of `text`: its id, and where its quoted value starts and ends.
fn marks(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find(OPEN).map(|i| from + i) {
        let id_start = open + OPEN.len();
        let id_end = id_start
            + text[id_start..]
                .find("-->")
                .expect("a marker ends with -->");
        let id = &text[id_start..id_end];
        let start = id_end + 3;
        let end = start
            + text[start..]
                .find(CLOSE)
                .unwrap_or_else(|| panic!("figure {id} has no {CLOSE}"));
        out.push((id.to_owned(), start, end));
        from = end + CLOSE.len();
    }
    out
}

/// `text` with each marked figure that `figures` knows replaced by its value.
fn fill(text: &str, figures: &BTreeMap<&str, String>) -> String {
    let mut out = String::new();
    let mut copied = 0;
    for (id, start, end) in marks(text) {
        out.push_str(&text[copied..start]);
        out.push_str(
            figures
                .get(id.as_str())
                .map_or(&text[start..end], |v| v.as_str()),
        );
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
}

#[test]
fn readme_figures_come_from_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let figures = figures();
    for (id, value) in &figures {
        println!("{id}: {}", value.trim());
    }
    let quoted = marks(&readme);
    let unknown: Vec<&str> = quoted
        .iter()
        .map(|(id, ..)| id.as_str())
        .filter(|id| !figures.contains_key(id))
        .collect();
    assert!(
        unknown.is_empty(),
        "README marks figures no code computes: {unknown:?}"
    );
    let unmarked: Vec<&&str> = figures
        .keys()
        .filter(|id| !quoted.iter().any(|(m, ..)| m == *id))
        .collect();
    assert!(
        unmarked.is_empty(),
        "figures the README does not mark: {unmarked:?}"
    );
    if std::env::var("README_FIGURES").as_deref() == Ok("write") {
        let filled = fill(&readme, &figures);
        if filled != readme {
            std::fs::write(path, &filled).unwrap();
            println!("README.md rewritten");
        }
        return;
    }
    let drifted: Vec<String> = quoted
        .iter()
        .filter(|(id, start, end)| readme[*start..*end] != figures[id.as_str()])
        .map(|(id, start, end)| {
            format!(
                "{id}: README {:?}, code {:?}",
                readme[*start..*end].trim(),
                figures[id.as_str()].trim()
            )
        })
        .collect();
    assert!(
        drifted.is_empty(),
        "README figures drifted from the code (README_FIGURES=write cargo test -p oncall-sim \
         --release --test readme_figures rewrites them):\n{}",
        drifted.join("\n")
    );
}
