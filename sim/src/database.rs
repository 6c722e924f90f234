//! The database behind the cache, and its feedback into the service time.

use crate::relations::{Relation, JAIN_1991, THIS_MODEL};

/// Queries per second reaching the database: λ·q·(1 − hit) plus any background load.
pub fn db_load(lambda: f64, queries_per_miss: f64, hit: f64, background_qps: f64) -> f64 {
    lambda * queries_per_miss * (1.0 - hit) + background_qps
}

pub const DB_LOAD: Relation = Relation {
    id: "db_load",
    name: "Database load",
    formula: "load = λ·q·(1 − hit) (+ 600 queries/s while warming);  ρ_db = load / 4,000",
    symbols: &[(
        "q",
        "queries per request that misses the cache: 2, or 3 with the heavy feature",
    )],
    note: "Capacity 4,000 queries/s is an example calibration.",
    citations: &[THIS_MODEL],
    assumption: true,
};

/// Query time under load, as for a single queue: base / (1 − ρ), at most `cap_ms`
/// (and the cap at or beyond saturation).
pub fn query_time_ms(base_ms: f64, rho: f64, cap_ms: f64) -> f64 {
    if rho >= 1.0 {
        return cap_ms;
    }
    (base_ms / (1.0 - rho.max(0.0))).min(cap_ms)
}

pub const QUERY_TIME: Relation = Relation {
    id: "query_time",
    name: "Query time under load",
    formula: "query time = 5 ms / (1 − ρ_db), at most 250 ms",
    symbols: &[("ρ_db", "database utilization")],
    note: "The M/M/1 response time; the 250 ms cap stands for the database's own queue limit.",
    citations: &[JAIN_1991],
    assumption: false,
};

/// Mean service time of a request: application time plus the queries of a cache miss.
pub fn service_time_ms(app_ms: f64, hit: f64, queries_per_miss: f64, query_ms: f64) -> f64 {
    app_ms + (1.0 - hit) * queries_per_miss * query_ms
}

pub const SERVICE_TIME: Relation = Relation {
    id: "service_time",
    name: "Service time",
    formula: "S = S_app + (1 − hit)·q·query time;  S_app = 50 ms (+20 ms with the heavy feature, ×1.25 on a bad build)",
    symbols: &[("S_app", "application time per request")],
    note: "A saturated database lengthens every miss, which fills the workers: the feedback that turns a cache flush into an outage.",
    citations: &[THIS_MODEL],
    assumption: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_database() {
        let hit = 3.375 / 4.375;
        let load = db_load(1125.0, 3.0, hit, 0.0);
        // 1125 × 3 × (1 − 0.771428…) = 771.43 queries/s, ρ = 0.1929
        assert!((load - 771.428_571_428_571_4).abs() < 1e-6);
        let q = query_time_ms(5.0, load / 4000.0, 250.0);
        assert!((q - 5.0 / (1.0 - 0.192_857_142_857_142_85)).abs() < 1e-9);
    }

    #[test]
    fn saturated_database_caps_query_time() {
        assert_eq!(query_time_ms(5.0, 1.3, 250.0), 250.0);
        assert_eq!(query_time_ms(5.0, 0.99, 250.0), 250.0);
        assert!((query_time_ms(5.0, 0.5, 250.0) - 10.0).abs() < 1e-12);
        assert!((service_time_ms(70.0, 0.0, 3.0, 250.0) - 820.0).abs() < 1e-12);
    }
}
