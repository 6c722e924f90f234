//! The TTL cache in front of the database.

use crate::relations::{Relation, RelationId, JUNG_2003, THIS_MODEL};

/// Hit ratio of a TTL cache: an object requested at rate r stays cached for T seconds after
/// each miss, so of the 1 + rT requests in a cycle one misses: hit = warm × rT/(1 + rT) with
/// r = λ / objects. `warm` is the share of the working set the cache holds (1 = warm).
pub fn ttl_hit(warm: f64, lambda: f64, ttl_s: f64, hot_objects: f64) -> f64 {
    if !(lambda > 0.0) || !(ttl_s > 0.0) || !(hot_objects > 0.0) {
        return 0.0;
    }
    let rt = lambda / hot_objects * ttl_s;
    warm.clamp(0.0, 1.0) * rt / (1.0 + rt)
}

/// Mean age of a cached answer: entries are uniformly between 0 and T old, so T/2.
pub fn mean_age_s(ttl_s: f64) -> f64 {
    ttl_s / 2.0
}

pub const TTL_HIT: Relation = Relation {
    id: RelationId::TtlHit,
    symbols: &["T", "r", "warm"],
    citations: &[JUNG_2003],
    assumption: false,
};

/// One step of refilling after a flush: warm → warm + (1 − warm)(1 − e^(−Δt·f/τ)), where
/// f = min(1, capacity/demand) slows the refill while the database is saturated.
pub fn refill(warm: f64, dt_min: f64, tau_min: f64, db_headroom: f64) -> f64 {
    let speed = db_headroom.clamp(0.0, 1.0);
    let gained = (1.0 - warm) * (1.0 - libm::exp(-dt_min * speed / tau_min));
    (warm + gained).clamp(0.0, 1.0)
}

/// What a flush of `share` of the cache leaves warm: warm × (1 − share).
pub fn flush(warm: f64, share: f64) -> f64 {
    (warm * (1.0 - share.clamp(0.0, 1.0))).clamp(0.0, 1.0)
}

pub const CACHE_REFILL: Relation = Relation {
    id: RelationId::CacheRefill,
    symbols: &["f"],
    citations: &[THIS_MODEL],
    assumption: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_hit_rate() {
        // r = 1125/20000 = 0.05625/s, rT = 3.375, hit = 3.375/4.375 = 0.771428…
        assert!((ttl_hit(1.0, 1125.0, 60.0, 20_000.0) - 3.375 / 4.375).abs() < 1e-12);
        assert_eq!(mean_age_s(60.0), 30.0);
    }

    #[test]
    fn cold_cache_and_zero_traffic_hit_nothing() {
        assert_eq!(ttl_hit(0.0, 1125.0, 60.0, 20_000.0), 0.0);
        assert_eq!(ttl_hit(1.0, 0.0, 60.0, 20_000.0), 0.0);
    }

    #[test]
    fn refill_follows_time_constant() {
        // After one τ with a healthy database: 1 − e^(−1) = 0.632…
        let mut warm = 0.0;
        for _ in 0..30 {
            warm = refill(warm, 1.0, 30.0, 1.0);
        }
        assert!((warm - (1.0 - (-1.0f64).exp())).abs() < 1e-9);
        // A saturated database serving half the demand halves the speed.
        assert!(refill(0.0, 1.0, 30.0, 0.5) < refill(0.0, 1.0, 30.0, 1.0));
    }
}
