//! Hedging's work is bounded by the requests: a request whose hedge falls due while the bucket
//! is empty waits for the next token a success brings, instead of costing an event every
//! hedge delay; every run through the event list stays under its stated cap of events.

use oncall_sim::requests::hedging::Hedging;
use oncall_sim::requests::{
    event_cap, run_with, Options, Routing, RunConfig, RunOutcome, SlowInstance, MAX_SLOW_FACTOR,
};

fn config(servers: u32, rate: f64, service_s: f64, customers: u64) -> RunConfig {
    RunConfig {
        instances: 1,
        workers_per_instance: servers,
        arrival_rate: rate,
        service_s,
        customers,
        warmup: 0,
        routing: Routing::RoundRobin,
        timeout_s: None,
        seed: 1,
    }
}

fn hedged(config: &RunConfig, delay_s: f64, slow: Option<SlowInstance>) -> RunOutcome {
    let options = Options {
        hedging: Some(Hedging {
            delay_s,
            ..Hedging::default()
        }),
        slow,
        ..Options::default()
    };
    run_with(config, &options).unwrap()
}

#[test]
fn a_request_behind_a_copy_that_takes_for_ever_costs_a_few_events() {
    // One request, one worker, its service 1000 times slower: some 10⁴ s against a hedge
    // delay of 100 ms. Once the 50 tokens are spent the request waits for a token; looking
    // again every delay would cost 10⁵ events.
    let slow = SlowInstance {
        instance: 0,
        factor: MAX_SLOW_FACTOR,
        from_s: 0.0,
        to_s: 1e9,
    };
    let out = hedged(&config(1, 1.0, 10.0, 1), 0.1, Some(slow));
    assert_eq!(out.customers, 1);
    assert_eq!(out.hedges_sent, 50, "{out:?}");
    assert!(out.events <= 200, "{} events", out.events);
    assert!(out.p99_s > 100.0 && out.p99_s.is_finite(), "{out:?}");
}

#[test]
fn an_overloaded_queue_costs_events_in_proportion_to_its_requests() {
    // 14 workers of 100,000 s against 30 requests a second, hedged every 10 s: the queue
    // only grows, every request waits about customers × 7,000 s, and a timer every delay for
    // each waiting request grew as the square of the customers.
    let mut per_customer = Vec::new();
    for customers in [100u64, 200, 400, 800] {
        let out = hedged(&config(14, 30.0, 100_000.0, customers), 10.0, None);
        assert_eq!(out.customers, customers);
        assert!(
            out.events <= 8 * customers + 800,
            "{customers} customers: {} events",
            out.events
        );
        assert!(out.events <= event_cap(customers));
        per_customer.push(out.events as f64 / customers as f64);
    }
    // Linear: the events per customer do not grow with the customers.
    let (first, last) = (per_customer[0], per_customer[3]);
    assert!(last <= first * 1.5 + 1.0, "{per_customer:?}");
}

#[test]
fn a_token_brought_by_a_success_goes_to_a_request_that_waited_for_one() {
    // Slow service behind a small bucket: the bucket empties, and the hedges that follow are
    // those the successes pay for. They go to requests that waited for a token, so the bucket
    // ends nearly empty rather than filling up while requests still wait.
    let config = RunConfig {
        instances: 4,
        workers_per_instance: 2,
        arrival_rate: 7.0,
        service_s: 1.0,
        customers: 20_000,
        warmup: 0,
        routing: Routing::RoundRobin,
        timeout_s: None,
        seed: 3,
    };
    let slow = SlowInstance {
        instance: 1,
        factor: 30.0,
        from_s: 0.0,
        to_s: 1e9,
    };
    let options = Options {
        hedging: Some(Hedging {
            delay_s: 0.5,
            max_tokens: 5,
            refill_ratio: 0.05,
            ..Hedging::default()
        }),
        slow: Some(slow),
        ..Options::default()
    };
    let out = run_with(&config, &options).unwrap();
    // b₀ + r · successes bounds the hedges, and they come close to it.
    let bound = 5.0 + 0.05 * config.customers as f64;
    let sent = out.hedges_sent as f64;
    assert!(sent <= bound, "{sent} > {bound}");
    assert!(sent >= 0.9 * bound, "{sent} hedges of at most {bound}");
    assert!(out.events <= event_cap(config.customers));
}
