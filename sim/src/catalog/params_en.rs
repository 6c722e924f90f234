//! English texts of the parameters: what each one does ([`param_doc`]) and the text of each
//! unit code ([`param_unit`]).
//!
//! # Design
//!
//! A [`ParamSpec`](crate::params::ParamSpec) holds numbers and codes only: its name, default,
//! range, whether only whole numbers are allowed, and a unit code. The rows that declare the
//! parameters (`model_params!`, `policy_params!`, `elastic_settings!`) carry no product text;
//! the doc comment generated for each struct field points here. The texts are keyed the way
//! the relations' are, by a stable key:
//!
//! - a parameter's doc by the spec's name (`timeout_s`, `hpa.sync_period_s`,
//!   `elastic.p95_expansion.threshold`), the name `--set` and the link spell;
//! - a unit by its code (`workers`, `share_of_cache`, `s`, `usd_per_hour`). Error messages carry
//!   the code ([`Arg::Unit`](crate::message::Arg::Unit)) and each language's catalog gives
//!   its text when the message is rendered.
//!
//! # Defaults in the docs
//!
//! A doc never writes a parameter's default as a literal, so that the text cannot drift from
//! the value. Where a doc states a default, it names the parameter in braces with the syntax
//! of the relations' texts ([`super::relations_en`]: `{name}`, `{name%}` for a share shown as
//! a percentage), and [`param_doc_text`] fills in the parameter's *default*: a doc describes
//! the parameter, not the run in progress. Most docs state no value at all, since the console
//! shows the range and the default next to the doc. The tests check that every spec has a
//! doc and a unit text, that every placeholder names a parameter and is filled, and that no
//! doc writes a default as a number.

/// The doc of the parameter whose spec is called `name`, placeholders unfilled; `None` for a
/// name that is no parameter.
pub fn param_doc(name: &str) -> Option<&'static str> {
    Some(match name {
        // The model.
        "workers_per_instance" => "Concurrent requests one instance serves.",
        "max_instances" => "Largest fleet the account allows.",
        "price_per_instance_hour" => "Price of one instance-hour (booting and draining instances are billed too).",
        "app_time_ms" => "Application time per request, without the heavy feature.",
        "heavy_feature_ms" => "CPU time the heavy feature (recommendations) adds per request.",
        "queries_per_miss" => "Database queries of a request that misses the cache.",
        "heavy_feature_queries" => "Extra queries the heavy feature makes on a miss.",
        "db_capacity_qps" => "Queries per second the database completes at most.",
        "db_query_ms" => "Query time of an idle database.",
        "db_query_cap_ms" => "Longest query time (the database's own queue limit).",
        "hot_objects" => "Objects in the cache's working set.",
        "refill_tau_min" => "Time constant of the cache refilling after a flush.",
        "warmup_gain_per_min" => "Share of the working set the warm-up job loads per minute.",
        "warmup_minutes" => "How long the warm-up job runs.",
        "warmup_db_qps" => "Database load the warm-up job adds while it runs.",
        "timeout_s" => "Request timeout at the load balancer. In the formulas, the longest a request waits for a worker (M/M/N+D); in the request engine, a deadline on the whole call, as Envoy's route timeout.",
        "low_priority_share" => "Share of traffic that is low priority (prefetch, batch, crawlers) and may be shed.",
        "bad_build_error_rate" => "Extra errors of requests served by a bad build.",
        "bad_build_cpu_factor" => "Service-time multiplier of a bad build.",
        "rollback_minutes" => "Time to prepare the last good build on a new fleet.",
        "scale_in_max_share" => "Largest share of the fleet one scale-in removes.",
        "scale_in_quiet_minutes" => "Minutes the fleet must be over-provisioned before scaling in.",
        "slo" => "Availability objective over 30 days.",
        "diurnal_amplitude" => "Relative swing of the daily traffic sine.",
        "traffic_drift_cv" => "Relative standard deviation of the per-minute traffic drift.",
        "hedge_delay_ms" => "Hedged requests (request engine): a copy goes to another instance when a request has not completed after this delay, and again every delay while tokens last. Must be below the request timeout and the total timeout.",
        "hedge_max_tokens" => "Hedged requests: most tokens the bucket holds; each hedge takes one.",
        "hedge_refill_ratio" => "Hedged requests: tokens added per successful request, so at most this share of requests is hedged over time.",
        "total_timeout_s" => "Total timeout of a request with its hedges: no hedge is sent after it, and a request still unanswered fails.",
        "regions" => "Regions the service runs in, each with its own fleet, autoscaler, cache, database and users ({regions} is the service as it always was).",
        "healthy_percent" => "Health aggregation policy: least share of healthy endpoints for a backend service to be HEALTHY (seed 003's default: {healthy_percent} %).",
        "min_healthy" => "Health aggregation policy: least number of healthy endpoints (seed 003's default: {min_healthy}).",
        "propagation_delay_s" => "Seconds until the consumer's load balancer learns a region's composite health state (an assumption: {propagation_delay_s} s).",
        "cross_region_ms" => "Latency a failed-over request pays to reach another region (an assumption: {cross_region_ms} ms).",
        "db_replicas" => "Replicas of each region's database, the endpoints of its database health source.",
        "keys" => "Request engine: how many keys requests carry, each drawn by its Zipf popularity. Ring hash and Maglev route by the key, so the formulas' arrival shares of those policies follow the keys' popularity. The default {keys} is an assumption of this model: a key space large enough that no single key is the whole load.",
        "zipf" => "Request engine: Zipf exponent s of the keys' popularity, the key of rank i drawn with probability proportional to i^(−s); 0 makes every key equally popular. The default {zipf} lies within the range Breslau et al. measured on web proxy traces, 0.64 to 0.83.",
        "service_sigma" => "Request engine with service_shape=lognormal: shape σ of the lognormal service time, whose mean stays the model's. Its coefficient of variation grows with σ: about 1.31 at the default {service_sigma}, against the exponential's one; σ = 0 gives every request the mean. The formulas keep the exponential, so the gap between the two columns is what the shape does. Ignored while service_shape is exponential (the default).",
        "choice_count" => "Least request (request engine): how many instances are drawn at random for each request, which goes to the one holding the fewest requests; Envoy's choice_count, whose default {choice_count} is also the smallest Envoy accepts. As many choices as instances looks at every instance.",
        "active_request_bias" => "Least request: Envoy's active_request_bias, which divides a weighted host's weight by its active requests plus one, raised to this power (Envoy's default {active_request_bias}). It acts only when the hosts' weights differ: every simulated instance has Envoy's default weight, so it acts only while slow start weighs a new instance down (slow_start_window_s), when least request picks by these weights instead of its choices.",
        "consecutive_5xx" => "Outlier detection (request engine, with outlier_detection on): an instance whose responses fail this many times in a row is ejected at once and takes no new requests (Envoy's consecutive_5xx, default {consecutive_5xx}). A request that times out on it, waiting or in service, is a failure (Envoy reports a timeout as a 504); the balancer's own 503s at the per-node limits are not charged to an instance.",
        "base_ejection_time_s" => "Outlier detection: an ejection lasts this long times the number of times the instance has been ejected in a row, at most 300 s or this, whichever is longer; ejected instances come back at the detector's sweep every 10 s (Envoy's base_ejection_time, default {base_ejection_time_s} s; max_ejection_time 300 s; interval 10 s).",
        "max_ejection_percent" => "Outlier detection: another instance is ejected only if the ejected ones would then be at most this share of the instances (Envoy's max_ejection_percent, default {max_ejection_percent} %): below ten instances, the default ejects none.",
        "healthy_panic_threshold" => "Request engine: when the share of instances not ejected falls below this, the balancer routes across all of them, ejected ones too (Envoy's healthy_panic_threshold, default {healthy_panic_threshold} %; 0 turns panic off). Only outlier detection ejects instances here.",
        "slow_start_window_s" => "Round robin and least request (request engine): an instance that starts serving gets a share of requests that grows with its age over this window, its weight the larger of 10 % and age / window (Envoy's slow_start_window with aggression 1 and min_weight_percent 10 %; Envoy's default {slow_start_window_s} turns it off). The instances serving at the start are taken as warm.",

        // Cloud Run (the defaults are Cloud Run's documented ones).
        "cloud_run.cpu_target" => "CPU utilization target (Cloud Run's default: {cloud_run.cpu_target%} %).",
        "cloud_run.concurrency_target" => "Concurrency target as a share of the maximum concurrency (Cloud Run's default: {cloud_run.concurrency_target%} %).",
        "cloud_run.tolerance" => "Relative band around each target within which the instance count holds (default {cloud_run.tolerance%} %); a 20 % band around a 50 % target, for example, holds from 40 to 60 %.",
        "cloud_run.window_s" => "Averaging window of CPU and of the short concurrency average.",
        "cloud_run.long_window_s" => "Window of the long concurrency average; the larger of the two concurrency averages counts.",
        "cloud_run.scale_in_utilization" => "Instances no longer recommended shut down once their utilization stays under this (default {cloud_run.scale_in_utilization%} %) for scale_in_after_s.",
        "cloud_run.scale_in_after_s" => "How long the instances no longer recommended must stay under scale_in_utilization.",
        "cloud_run.idle_timeout_s" => "The other instances no longer recommended stop after this idle timeout.",
        "cloud_run.act_cpu_high" => "ACT lowers an instance's maximum concurrency by 1 for each second its CPU is above this (default {cloud_run.act_cpu_high%} %).",
        "cloud_run.act_cpu_low" => "ACT raises it by 1 for each second an instance at its maximum stays below this CPU (default {cloud_run.act_cpu_low%} %).",
        "cloud_run.pending_min_s" => "Shortest time a request waits in the pending queue.",
        "cloud_run.pending_cold_start_factor" => "The pending queue also holds a request up to this many expected cold starts.",

        // Kubernetes HPA (Kubernetes' defaults).
        "hpa.tolerance" => "No scaling while |metric / target − 1| is within this.",
        "hpa.sync_period_s" => "How often the controller computes a new recommendation.",
        "hpa.scale_down_stabilization_s" => "Scale-down uses the highest recommendation of this window.",
        "hpa.scale_up_stabilization_s" => "Scale-up uses the lowest recommendation of this window; an empty window means no stabilization.",
        "hpa.scale_up_percent" => "Scale-up policy: at most this share of the pods added per period.",
        "hpa.scale_up_pods" => "Scale-up policy: at most this many pods added per period; the larger of the two applies.",
        "hpa.scale_up_period_s" => "Period of the scale-up policies.",
        "hpa.scale_down_percent" => "Scale-down policy: at most this share of the pods removed per period.",
        "hpa.scale_down_period_s" => "Period of the scale-down policy.",

        // Knative KPA (`config-autoscaler` keys and Knative's defaults).
        "kpa.target_utilization" => "container-concurrency-target-percentage: the share of the container concurrency (the workers per instance) a pod aims to run (default {kpa.target_utilization%} %).",
        "kpa.stable_window_s" => "stable-window: averaging window of stable mode.",
        "kpa.panic_window_percentage" => "panic-window-percentage: the panic window as a share of the stable window.",
        "kpa.panic_threshold_percentage" => "panic-threshold-percentage: panic when the panic window asks for this share of the ready pods.",
        "kpa.max_scale_up_rate" => "max-scale-up-rate: at most this many times the ready pods.",
        "kpa.max_scale_down_rate" => "max-scale-down-rate: at most divide the ready pods by this.",
        "kpa.scale_to_zero_grace_s" => "scale-to-zero-grace-period: the last pod stays this long once it is no longer needed.",
        "kpa.tick_interval_s" => "tick-interval: how often the autoscaler decides.",

        // The elastic scaler (its JSON paths, the source's defaults).
        "elastic.max_connections" => "Per-node connection limit; a node holds at most min(max_connections, max_requests) requests. Starts at the simulated node's concurrency (its workers); the source's example has 1000.",
        "elastic.max_requests" => "Per-node limit of requests at once (also the trend rule's node capacity). Starts at the simulated node's concurrency (its workers); the source's example has 1000, which a simulated node never holds.",
        "elastic.max_pending_requests" => "Requests the balancer queues beyond the sum of the nodes' limits; the rest are dropped with a 503.",
        "elastic.max_nodes" => "Most nodes (also bounded by the model's max_instances).",
        "elastic.min_nodes" => "Fewest nodes; fewer at start scale up at once.",
        "elastic.p95_latency_threshold" => "Top-level p95 threshold; used when p95_expansion.threshold is not given.",
        "elastic.p95_delay_duration" => "Top-level p95 duration; used when p95_expansion.threshold_duration is not given.",
        "elastic.shrinkage_delay_time" => "Seconds all strategies must be healthy before a shrink.",
        "elastic.shrinkage_number" => "Nodes removed at most per shrink.",
        "elastic.drain_timeout" => "Longest drain of a removed node before it is forced off.",
        "elastic.acq_frequency" => "Seconds between samples of the metrics.",
        "elastic.node_cold_start_time" => "Seconds a node the scaler adds needs before it serves; the default is the source's cold start of a node. The scenario's boot delay stays for the fleet's own instances. The simulator's setting, not a field of the source's file.",
        "elastic.expansion_strategies.trend_expansion" => "Whether expansion_strategies lists trend expansion.",
        "elastic.expansion_strategies.delay_prediction" => "Whether expansion_strategies lists delay prediction.",
        "elastic.expansion_strategies.p95_expansion" => "Whether expansion_strategies lists p95 expansion.",
        "elastic.trend_expansion.expand_cooling_time" => "Cooling after a trend expansion; at least 60 s, a node's cold start in the source.",
        "elastic.delay_prediction.min_sample_size" => "Ignored while the last minute had fewer requests.",
        "elastic.delay_prediction.expand_cooling_time" => "Cooling after a delay-prediction expansion; at least 60 s.",
        "elastic.delay_prediction.delay_time" => "Scale out when the backlog would take this long or longer to finish.",
        "elastic.delay_prediction.expansion_ratio" => "Expansion size: max(⌈nodes × ratio⌉, min_expansion).",
        "elastic.delay_prediction.min_expansion" => "Smallest expansion.",
        "elastic.p95_expansion.min_sample_size" => "Ignored while the last minute had fewer requests.",
        "elastic.p95_expansion.expand_cooling_time" => "Cooling after a p95 expansion; at least 60 s.",
        "elastic.p95_expansion.threshold" => "A request slower than this counts towards the 5 % breach.",
        "elastic.p95_expansion.threshold_duration" => "Seconds the breach must last before a p95 expansion.",
        "elastic.p95_expansion.expansion_ratio" => "Expansion size: max(⌈nodes × ratio⌉, min_expansion).",
        "elastic.p95_expansion.min_expansion" => "Smallest expansion.",
        _ => return None,
    })
}

/// The doc of the parameter called `name` with the defaults filled in, ready to show; `None`
/// for a name that is no parameter.
pub fn param_doc_text(name: &str) -> Option<String> {
    param_doc(name).map(super::fill_defaults)
}

/// The text of unit `code` (as [`ParamSpec::unit`](crate::params::ParamSpec::unit) spells
/// it); `None` for a code without one.
pub fn param_unit(code: &str) -> Option<&'static str> {
    Some(match code {
        "workers" => "workers",
        "instances" => "instances",
        "usd_per_hour" => "$/h",
        "ms" => "ms",
        "s" => "s",
        "min" => "min",
        "queries" => "queries",
        "queries_per_s" => "queries/s",
        "objects" => "objects",
        "requests" => "requests",
        "connections" => "connections",
        "nodes" => "nodes",
        "pods" => "pods",
        "percent" => "%",
        "times" => "×",
        "share_of_cache" => "of the cache",
        "share_of_traffic" => "of traffic",
        "share_of_requests" => "of requests",
        "share_of_fleet" => "of the fleet",
        "share_of_nodes" => "of the nodes",
        "tokens" => "tokens",
        "tokens_per_success" => "tokens per successful request",
        "keys" => "keys",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::autoscale::PolicySettings;
    use crate::catalog::relations_en::placeholders;
    use crate::params::{ModelParams, ParamSpec};

    fn all_specs() -> impl Iterator<Item = &'static ParamSpec> {
        ModelParams::SPECS.iter().chain(PolicySettings::all_specs())
    }

    /// The numbers written in `text`, outside placeholders ("p95" is a name, not a number).
    fn literal_numbers(text: &str) -> Vec<f64> {
        let mut outside = String::new();
        let mut depth = 0;
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => outside.push(c),
                _ => outside.push(' '),
            }
        }
        let mut numbers = Vec::new();
        let mut previous = ' ';
        let mut chars = outside.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() && !(previous.is_alphanumeric() || previous == '_') {
                let mut number = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_digit() || d == '.' || d == ',' {
                        number.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                let digits = number.trim_end_matches(['.', ',']).replace(',', "");
                numbers.push(digits.parse().expect("digits"));
                previous = '0';
            } else {
                previous = c;
            }
        }
        numbers
    }

    #[test]
    fn every_spec_has_a_doc_and_a_unit_text() {
        for spec in all_specs() {
            let doc = param_doc(spec.name).unwrap_or_else(|| panic!("no doc for {}", spec.name));
            assert!(doc.ends_with('.'), "{}: {doc:?}", spec.name);
            if !spec.unit.is_empty() {
                let text = param_unit(spec.unit)
                    .unwrap_or_else(|| panic!("{}: no text for unit {:?}", spec.name, spec.unit));
                assert!(!text.trim().is_empty(), "{}", spec.name);
            }
        }
        assert_eq!(param_doc("nope"), None);
        assert_eq!(param_unit("nope"), None);
    }

    #[test]
    fn docs_fill_every_placeholder_with_a_default() {
        for spec in all_specs() {
            let doc = param_doc(spec.name).unwrap_or_default();
            for p in placeholders(doc) {
                assert!(
                    all_specs().any(|s| s.name == p.name),
                    "{}: {{{}}} names no parameter",
                    spec.name,
                    p.name
                );
            }
            let text = param_doc_text(spec.name).unwrap_or_default();
            assert!(
                !text.contains('{') && !text.contains('}'),
                "{}: unfilled placeholder in {text:?}",
                spec.name
            );
        }
        assert_eq!(
            param_doc_text("kpa.target_utilization").as_deref(),
            Some("container-concurrency-target-percentage: the share of the container concurrency (the workers per instance) a pod aims to run (default 70 %).")
        );
        assert_eq!(
            param_doc_text("cloud_run.cpu_target").as_deref(),
            Some("CPU utilization target (Cloud Run's default: 60 %).")
        );
    }

    /// A default is stated through a placeholder, never as a number: no number written in a
    /// doc equals the spec's default (as it is, as a percentage, or in minutes), and no doc
    /// has the old "(15 s)" form or "default 60".
    #[test]
    fn no_doc_writes_a_default_as_a_number() {
        for spec in all_specs() {
            let doc = param_doc(spec.name).unwrap_or_default();
            let readings = [spec.default, spec.default * 100.0, spec.default / 60.0];
            for x in literal_numbers(doc) {
                assert!(
                    readings
                        .iter()
                        .all(|r| (r - x).abs() > 1e-9 * r.abs().max(1.0)),
                    "{}: {doc:?} writes {x}, which reads as the default {}",
                    spec.name,
                    spec.default
                );
            }
            let chars: Vec<char> = doc.chars().collect();
            for pair in chars.windows(2) {
                assert!(
                    !(pair[0] == '(' && pair[1].is_ascii_digit()),
                    "{}: {doc:?} states a value in parentheses",
                    spec.name
                );
            }
            for (i, _) in doc.match_indices("default") {
                let after = doc[i + "default".len()..].trim_start_matches([' ', ':']);
                assert!(
                    !after.starts_with(|c: char| c.is_ascii_digit()),
                    "{}: {doc:?} writes its default",
                    spec.name
                );
            }
        }
        assert_eq!(
            literal_numbers("p95 of 1,000 {x} (3.5×) in 60 s."),
            [1000.0, 3.5, 60.0]
        );
    }
}
