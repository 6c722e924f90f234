//! The database behind the cache, and its feedback into the service time.

use crate::relations::{Relation, RelationId, JAIN_1991, THIS_MODEL};

/// Queries per second reaching the database: λ·q·(1 − hit) plus any background load.
pub fn db_load(lambda: f64, queries_per_miss: f64, hit: f64, background_qps: f64) -> f64 {
    lambda * queries_per_miss * (1.0 - hit) + background_qps
}

pub const DB_LOAD: Relation = Relation {
    id: RelationId::DbLoad,
    symbols: &["q"],
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
    id: RelationId::QueryTime,
    symbols: &["ρ_db"],
    citations: &[JAIN_1991],
    assumption: false,
};

/// Share of its queries a database at utilization `rho` cannot complete: beyond capacity it
/// completes 1/ρ of them and fails the rest (on top of the capped query time). A modelling
/// choice of this simulator, stated beside the query-time relation.
pub fn failed_share(rho: f64) -> f64 {
    if rho > 1.0 {
        1.0 - 1.0 / rho
    } else {
        0.0
    }
}

/// Mean service time of a request: application time plus the queries of a cache miss.
pub fn service_time_ms(app_ms: f64, hit: f64, queries_per_miss: f64, query_ms: f64) -> f64 {
    app_ms + (1.0 - hit) * queries_per_miss * query_ms
}

pub const SERVICE_TIME: Relation = Relation {
    id: RelationId::ServiceTime,
    symbols: &["S_app"],
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
