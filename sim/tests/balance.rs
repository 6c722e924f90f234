//! Hash load balancing against the theory: Maglev's even shares and its disruption, ring
//! hash's spread, and the `lb` command's contract.

mod common;
use common::cli;
use oncall_sim::balance::maglev::{self, Maglev};
use oncall_sim::balance::ring::{self, Ring};
use oncall_sim::balance::{host_name, moved_share, HashBalancer, Spread};

fn names(n: usize) -> Vec<String> {
    (0..n).map(host_name).collect()
}

#[test]
fn maglev_shares_are_within_one_percent_of_one_over_n() {
    for n in [3, 10, 50] {
        let table = Maglev::new(&names(n), maglev::DEFAULT_TABLE_SIZE).unwrap();
        let shares = table.shares();
        assert_eq!(shares.len(), n);
        for (i, share) in shares.iter().enumerate() {
            let relative = share * n as f64 - 1.0;
            assert!(relative.abs() <= 0.01, "N = {n}, host {i}: {share}");
        }
    }
}

/// The share of keys that move when the last of N hosts leaves: the leaving host's 1/N and a
/// little more, exactly over the table and as seen by 100,000 sampled keys.
#[test]
fn maglev_moves_about_one_over_n_when_one_host_leaves() {
    for (n, most_extra) in [(10, 0.01), (50, 0.01)] {
        let all = names(n);
        let before = Maglev::new(&all, maglev::DEFAULT_TABLE_SIZE).unwrap();
        let after = Maglev::new(&all[..n - 1], maglev::DEFAULT_TABLE_SIZE).unwrap();
        let exact = maglev::moved_share_of_table(&before, &after);
        let leaving = before.shares()[n - 1];
        eprintln!(
            "maglev N = {n}: one host leaves, {exact} of the table moves (1/N = {})",
            1.0 / n as f64
        );
        assert!(exact >= leaving, "N = {n}: {exact} < {leaving}");
        assert!(
            exact <= 1.0 / n as f64 + most_extra,
            "N = {n}: {exact} moved, 1/N = {}",
            1.0 / n as f64
        );
        // Slots that changed host among those that stay: the disruption Maglev accepts.
        let keys = 100_000;
        let sampled = moved_share(&before, &after, keys);
        let standard_error = (exact * (1.0 - exact) / keys as f64).sqrt();
        assert!(
            (sampled - exact).abs() < 5.0 * standard_error,
            "N = {n}: sampled {sampled}, exact {exact}"
        );
    }
}

#[test]
fn ring_hash_shares_spread_as_consistent_hashing_predicts() {
    // N = 10 hosts on Envoy's default minimum ring of 1,024 entries: V = 103 points each.
    let ring = Ring::new(&names(10), ring::DEFAULT_MIN_RING_SIZE).unwrap();
    let v = ring::points_per_host(ring::DEFAULT_MIN_RING_SIZE, 10);
    assert_eq!(v, 103);
    let spread = Spread::of(&ring.shares()).unwrap();
    let theory = 1.0 / (v as f64).sqrt();
    eprintln!(
        "ring hash N = 10, V = {v}: relative spread of the shares {}, 1/√V = {theory}",
        spread.relative_std_dev
    );
    assert!(
        spread.relative_std_dev > theory / 2.0 && spread.relative_std_dev < theory * 2.0,
        "measured {}, 1/√V = {theory}",
        spread.relative_std_dev
    );
}

/// One ring is one draw; over 300 rings of differently named hosts the root mean square of
/// the relative spread meets √((N − 1)/(N·V + 1)) within 10 % (its standard error is about
/// 2 %).
#[test]
fn ring_hash_spread_over_many_rings_meets_the_formula() {
    let (n, min) = (10usize, ring::DEFAULT_MIN_RING_SIZE);
    let rings = 300;
    let mut sum_of_squares = 0.0;
    for r in 0..rings {
        let hosts: Vec<String> = (0..n).map(|i| format!("ring-{r}-host-{i}")).collect();
        let shares = Ring::new(&hosts, min).unwrap().shares();
        sum_of_squares += Spread::of(&shares).unwrap().relative_std_dev.powi(2);
    }
    let measured = (sum_of_squares / rings as f64).sqrt();
    let theory = ring::share_relative_spread(ring::points_per_host(min, n), n);
    eprintln!(
        "ring hash N = 10 over {rings} rings: rms relative spread {measured}, formula {theory}"
    );
    assert!(
        (measured / theory - 1.0).abs() < 0.10,
        "measured {measured}, theory {theory}"
    );
}

#[test]
fn lb_prints_shares_and_the_keys_that_move() {
    let (code, out, err) = cli(&[
        "lb", "--policy", "maglev", "--hosts", "10", "--remove", "1", "--keys", "20000",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(out.lines().count(), 1);
    let shares = v["shares"].as_array().unwrap();
    assert_eq!(shares.len(), 10);
    let min = v["min_share"].as_f64().unwrap();
    let max = v["max_share"].as_f64().unwrap();
    assert!(min <= max && (min - 0.1).abs() < 0.001 && (max - 0.1).abs() < 0.001);
    let moved = v["moved_share"].as_f64().unwrap();
    assert!((moved - 0.1).abs() < 0.02, "{moved}");
    assert_eq!(v["table_size"], 65_537);
    assert_eq!(v["keys"], 20_000);

    let (code, out, err) = cli(&["lb", "--policy", "ring-hash", "--hosts", "10"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["points_per_host"], 103);
    assert_eq!(v["table_size"], 1_030);
    assert!(v.get("moved_share").is_none(), "{out}");
    let total: f64 = v["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9);
}

#[test]
fn lb_is_deterministic() {
    let args = [
        "lb",
        "--policy",
        "ring-hash",
        "--hosts",
        "7",
        "--remove",
        "2",
        "--keys",
        "5000",
    ];
    let (_, first, _) = cli(&args);
    let (_, second, _) = cli(&args);
    assert!(!first.is_empty());
    assert_eq!(first, second);
}

#[test]
fn lb_refuses_bad_input_in_one_line() {
    for (args, says) in [
        (
            vec![
                "lb",
                "--policy",
                "maglev",
                "--hosts",
                "3",
                "--table-size",
                "65536",
            ],
            "--table-size \"65536\" is not a prime number",
        ),
        (
            vec!["lb", "--policy", "least-request", "--hosts", "3"],
            "--policy \"least-request\" is not allowed; use ring-hash or maglev",
        ),
        (
            vec![
                "lb",
                "--policy",
                "maglev",
                "--hosts",
                "12",
                "--table-size",
                "11",
            ],
            "--hosts 12 is more than the Maglev table's 11 slots",
        ),
        (
            vec!["lb", "--policy", "maglev", "--hosts", "3", "--remove", "3"],
            "--remove \"3\" is not allowed; use a whole number from 0 to 2",
        ),
        (
            vec!["lb", "--policy", "maglev", "--hosts", "0"],
            "--hosts \"0\" is not allowed",
        ),
        (
            vec!["lb", "--policy", "ring-hash", "--hosts", "3", "--keys", "0"],
            "--keys \"0\" is not allowed",
        ),
        (
            vec![
                "lb",
                "--policy",
                "ring-hash",
                "--hosts",
                "3",
                "--table-size",
                "9000000",
            ],
            "--table-size \"9000000\" is not allowed; use a whole number from 1 to 8388608",
        ),
        (vec!["lb", "--hosts", "3"], "--policy is required"),
        (vec!["lb", "--policy", "maglev"], "--hosts is required"),
        (
            vec!["lb", "--policy", "maglev", "--hosts", "3", "--seed", "1"],
            "unknown argument \"--seed\"",
        ),
    ] {
        let (code, out, err) = cli(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn lb_is_in_the_usage_and_the_list_of_commands() {
    let (_, usage, _) = cli(&["help"]);
    assert!(usage.contains("oncall-sim lb --policy ring-hash|maglev --hosts N"));
    let (code, _, err) = cli(&["frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains(", lb"), "{err}");
}
