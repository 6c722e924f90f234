//! The elastic scaler's configuration file: the source's full example (with its `//`
//! comments and trailing commas) is accepted; broken variants are rejected with the field
//! named; an export imports back to the same settings.

use oncall_sim::autoscale::elastic::config::{parse, ElasticConfig};

const EXAMPLE: &str = include_str!("data/elastic-config.jsonc");

#[test]
fn the_source_example_is_accepted_with_its_values() {
    let (cfg, notes) = parse(EXAMPLE).unwrap();
    assert_eq!(cfg.lb_policy.envoy_name(), "LEAST_REQUEST");
    assert_eq!(
        (
            cfg.max_connections,
            cfg.max_requests,
            cfg.max_pending_requests
        ),
        (1000, 1000, 100)
    );
    assert_eq!((cfg.min_nodes, cfg.max_nodes), (2, 20));
    assert_eq!(cfg.acq_frequency, 10);
    assert_eq!(cfg.shrinkage_delay_time, 600.0);
    assert_eq!(cfg.drain_timeout, 60.0);
    assert_eq!(cfg.delay_prediction.delay_time, 2.0);
    assert_eq!(cfg.p95_expansion.threshold, 500.0);
    assert_eq!(cfg.p95_expansion.threshold_duration, 30.0);
    assert_eq!(
        cfg.expansion_strategies,
        ["trend_expansion", "delay_prediction", "p95_expansion"]
    );
    // The example's values are the defaults, but for the per-node limits: the simulator
    // starts from the simulated node's concurrency (its 16 workers), the source's 1000 is
    // sized for its own nodes.
    let mut plain = cfg.clone();
    plain.ignored.clear();
    let default = ElasticConfig::default();
    assert_eq!((default.max_connections, default.max_requests), (16, 16));
    assert_eq!(
        default.per_node_limit(),
        oncall_sim::ModelParams::default().workers()
    );
    assert_ne!(plain, default);
    plain.max_connections = default.max_connections;
    plain.max_requests = default.max_requests;
    assert_eq!(plain, default);

    // The cloud-specific fields are reported as ignored, each by name.
    for field in ["token", "openapi_base_url", "scale_up_request", "dashboard"] {
        let note = notes
            .iter()
            .find(|n| n.field == field)
            .unwrap_or_else(|| panic!("no note for {field}: {notes:?}"));
        assert!(note.message.to_string().contains("ignored"), "{note}");
    }
}

#[test]
fn export_imports_back_unchanged() {
    let (cfg, _) = parse(EXAMPLE).unwrap();
    let exported = cfg.to_json_text(true);
    // Strict JSON, the cloud fields kept verbatim.
    let v: serde_json::Value = serde_json::from_str(&exported).unwrap();
    assert_eq!(v["openapi_base_url"], "https://openapi.suanli.cn");
    assert_eq!(v["scale_up_request"]["services"][0]["service_name"], "svc1");
    let (back, _) = parse(&exported).unwrap();
    assert_eq!(back, cfg);
    // The effective settings alone import too.
    let (effective, _) = parse(&cfg.to_json_text(false)).unwrap();
    assert!(effective.ignored.is_empty());
    assert_eq!(effective.p95_expansion, cfg.p95_expansion);
}

/// Replaces the first occurrence of `from` in the example.
fn broken(from: &str, to: &str) -> String {
    assert!(EXAMPLE.contains(from), "{from}");
    EXAMPLE.replacen(from, to, 1)
}

#[test]
fn broken_variants_name_the_field() {
    let cases = [
        (
            broken("\"max_nodes\": 20", "\"max_nodes\": 0"),
            "max_nodes",
            "1 to 200",
        ),
        (
            broken("\"min_nodes\": 2", "\"min_nodes\": 30"),
            "min_nodes",
            "max_nodes",
        ),
        (
            broken("\"acq_frequency\":10", "\"acq_frequency\":0"),
            "acq_frequency",
            "1 to 60",
        ),
        (
            broken("\"delay_time\": 2", "\"delay_time\": \"2s\""),
            "delay_prediction.delay_time",
            "a number",
        ),
        (
            broken(
                "\"expand_cooling_time\": 180",
                "\"expand_cooling_time\": 30",
            ),
            "trend_expansion.expand_cooling_time",
            "60 to 86400",
        ),
        (
            broken("\"threshold\":500", "\"threshold\":-5"),
            "p95_expansion.threshold",
            "1 to 60000",
        ),
        (
            broken("\"min_expansion\": 2", "\"min_expansion\": 2.5"),
            "delay_prediction.min_expansion",
            "whole number",
        ),
        (
            broken("\"LEAST_REQUEST\"", "\"LEAST_CONN\""),
            "lb_policy",
            "ROUND_ROBIN",
        ),
        (
            broken("\"p95_expansion\"\n", "\"p99_expansion\"\n"),
            "expansion_strategies[2]",
            "p95_expansion",
        ),
        (
            broken("\"shrinkage_number\":1", "\"shrink_number\":1"),
            "shrink_number",
            "unknown field",
        ),
        (
            broken(
                "\"max_pending_requests\": 100,",
                "\"max_pending_requests\": 100",
            ),
            "json",
            "line",
        ),
    ];
    for (text, field, words) in cases {
        let e = parse(&text).unwrap_err();
        assert_eq!(e.field, field, "{e}");
        assert!(e.to_string().contains(words), "{e}");
    }
}
