//! Hedging's outputs mean what their names say: `duplicates` counts only copies served after
//! their request had succeeded, `mean_wait_s` is the wait in a queue and the time before the
//! winning copy was sent is `mean_hedge_wait_s`, apart.

mod common;
use common::cli;

fn des(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["des"];
    all.extend_from_slice(args);
    let (code, out, err) = cli(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(out.trim()).unwrap()
}

fn num(v: &serde_json::Value, field: &str) -> f64 {
    v[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} in {v}"))
}

#[test]
fn copies_finishing_after_their_request_failed_are_no_duplicates() {
    // Services of 10 s against a total timeout of 0.35 s: nearly every request fails, and
    // its copies in service run on to the end. A copy served after a failure duplicates no
    // answer; before, they were counted (190 for 4 successes).
    let out = des(&[
        "--servers",
        "100",
        "--instances",
        "10",
        "--arrival-rate",
        "1",
        "--service-time",
        "10",
        "--customers",
        "50",
        "--hedge-delay-ms",
        "100",
        "--max-tokens",
        "250",
        "--total-timeout",
        "0.35",
        "--seed",
        "2",
    ]);
    let customers = num(&out, "customers");
    let successes = (customers * (1.0 - num(&out, "timeout_share"))).round();
    // A request has at most 4 copies (at 0, 0.1, 0.2 and 0.3 s), so at most 3 duplicates
    // per success.
    let duplicates = num(&out, "duplicates");
    assert!(duplicates <= 3.0 * successes, "{out}");
    assert!(num(&out, "hedges_sent") > 100.0, "{out}");
}

#[test]
fn a_hedge_delay_is_no_wait_in_a_queue() {
    // A tenth of a request a second on 100 workers: no copy ever finds its workers busy, so
    // nothing waits in a queue; hedges sent 100 ms apart win some requests, and the time
    // before their sending is the hedge wait.
    let args = [
        "--servers",
        "100",
        "--instances",
        "10",
        "--arrival-rate",
        "0.1",
        "--service-time",
        "1",
        "--customers",
        "2000",
        "--seed",
        "3",
    ];
    let plain = des(&args);
    assert!(plain.get("mean_hedge_wait_s").is_none(), "{plain}");
    let mut hedged_args = args.to_vec();
    hedged_args.extend_from_slice(&["--hedge-delay-ms", "100", "--max-tokens", "250"]);
    let out = des(&hedged_args);
    assert_eq!(num(&out, "p_wait"), 0.0, "{out}");
    assert_eq!(num(&out, "mean_wait_s"), 0.0, "{out}");
    assert!(num(&out, "hedges_won") > 100.0, "{out}");
    let hedge_wait = num(&out, "mean_hedge_wait_s");
    assert!(hedge_wait > 0.01, "{out}");
    // The time in the system is the hedge wait plus the winners' services (no queue wait):
    // below the mean service, above the hedge wait.
    let sojourn = num(&out, "mean_sojourn_s");
    assert!(sojourn > hedge_wait && sojourn < 1.0, "{out}");
}
