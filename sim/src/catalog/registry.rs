//! The registry of every relation: each [`RelationId`] mapped to its constant, which its
//! domain module declares beside the formula. It stands above those modules (as the catalogs
//! do), so [`crate::relations`] stays plain data at the bottom that every module can import.

use crate::relations::{Relation, RelationId, RANDOMNESS};

impl Relation {
    /// The relation constant of `id` (beside its formula function in its module).
    pub const fn of(id: RelationId) -> &'static Relation {
        match id {
            RelationId::Arrivals => &crate::traffic::ARRIVALS,
            RelationId::OfferedLoad => &crate::queueing::OFFERED_LOAD,
            RelationId::ErlangB => &crate::queueing::ERLANG_B,
            RelationId::ErlangC => &crate::queueing::ERLANG_C,
            RelationId::WaitingTail => &crate::queueing::WAITING_TAIL,
            RelationId::Abandonment => &crate::queueing::ABANDONMENT,
            RelationId::SojournP99Exact => &crate::queueing::SOJOURN_P99_EXACT,
            RelationId::SojournP99Approx => &crate::queueing::SOJOURN_P99_APPROX,
            RelationId::Utilization => &crate::queueing::UTILIZATION,
            RelationId::TtlHit => &crate::cache::TTL_HIT,
            RelationId::CacheRefill => &crate::cache::CACHE_REFILL,
            RelationId::DbLoad => &crate::database::DB_LOAD,
            RelationId::QueryTime => &crate::database::QUERY_TIME,
            RelationId::ServiceTime => &crate::database::SERVICE_TIME,
            RelationId::ErrorBudget => &crate::budget::ERROR_BUDGET,
            RelationId::ErrorBudgetRequests => &crate::budget::ERROR_BUDGET_REQUESTS,
            RelationId::BurnRate1h => &crate::budget::BURN_RATE_1H,
            RelationId::MultiwindowPage => &crate::budget::MULTIWINDOW_PAGE,
            RelationId::ErrorsCounted => &crate::budget::ERRORS_COUNTED,
            RelationId::TargetTracking => &crate::autoscale::target_tracking::TARGET_TRACKING,
            RelationId::CloudRunCpu => &crate::autoscale::cloud_run::CPU_DRIVER,
            RelationId::CloudRunConcurrency => &crate::autoscale::cloud_run::CONCURRENCY_DRIVER,
            RelationId::CloudRunAct => &crate::autoscale::cloud_run::ACT_DRIVER,
            RelationId::CloudRunTolerance => &crate::autoscale::cloud_run::TOLERANCE_BAND,
            RelationId::CloudRunScaleIn => &crate::autoscale::cloud_run::SCALE_IN,
            RelationId::CloudRunOnDemand => &crate::autoscale::cloud_run::ON_DEMAND,
            RelationId::ElasticTrend => &crate::autoscale::elastic::TREND_EXPANSION,
            RelationId::ElasticDelay => &crate::autoscale::elastic::DELAY_PREDICTION,
            RelationId::ElasticP95 => &crate::autoscale::elastic::P95_EXPANSION,
            RelationId::ElasticShrink => &crate::autoscale::elastic::SHRINKAGE,
            RelationId::EnvoyOverflow => &crate::queueing::ENVOY_OVERFLOW,
            RelationId::HpaRatio => &crate::autoscale::hpa::HPA_RATIO,
            RelationId::HpaBehavior => &crate::autoscale::hpa::HPA_BEHAVIOR,
            RelationId::KpaStablePanic => &crate::autoscale::kpa::KPA_STABLE_PANIC,
            RelationId::KpaBounds => &crate::autoscale::kpa::KPA_BOUNDS,
            RelationId::MinuteQuantile => &crate::queueing::MINUTE_QUANTILE,
            RelationId::MaglevTable => &crate::balance::maglev::MAGLEV_TABLE,
            RelationId::RingHash => &crate::balance::ring::RING_HASH,
            RelationId::HashKeysMoved => &crate::balance::KEYS_MOVED,
            RelationId::RequestEngine => &crate::requests::REQUEST_ENGINE,
            RelationId::Supermarket => &crate::queueing::SUPERMARKET,
            RelationId::RoutedShares => &crate::queueing::routing::ROUTED_SHARES,
            RelationId::RoundRobinQueue => &crate::queueing::routing::ROUND_ROBIN_QUEUE,
            RelationId::SupermarketLatency => &crate::queueing::routing::SUPERMARKET_LATENCY,
            RelationId::RoutedMixture => &crate::queueing::routing::ROUTED_MIXTURE,
            RelationId::ZipfKeys => &crate::requests::keys::ZIPF_KEYS,
            RelationId::LognormalService => &crate::requests::keys::LOGNORMAL_SERVICE,
            RelationId::HedgeTokenBucket => &crate::requests::hedging::TOKEN_BUCKET,
            RelationId::HealthProbes => &crate::health::PROBES,
            RelationId::HealthAggregation => &crate::health::AGGREGATION,
            RelationId::CompositeHealth => &crate::health::COMPOSITE,
            RelationId::Failover => &crate::regions::failover::PROPAGATION,
            RelationId::OutlierDetection => &crate::outlier::OUTLIER_DETECTION,
            RelationId::RegionDemand => &crate::regions::REGION_DEMAND,
            RelationId::Calibration => &crate::params::CALIBRATION,
            RelationId::ScenarioTwists => &crate::scenario::SCENARIO_TWISTS,
            RelationId::Randomness => &crate::relations::RANDOMNESS,
        }
    }
}

/// Every relation, in the order the sources panel shows them: [`RelationId::ALL`] mapped
/// through [`Relation::of`], so no relation can be left out.
pub const ALL: &[&Relation] = &{
    let mut out = [&RANDOMNESS; RelationId::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = Relation::of(RelationId::ALL[i]);
        i += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_appears_once_in_order_and_names_its_constant() {
        assert_eq!(ALL.len(), RelationId::ALL.len());
        for (relation, id) in ALL.iter().zip(RelationId::ALL) {
            assert_eq!(relation.id, *id);
            assert_eq!(Relation::of(*id).id, *id);
        }
        let mut keys: Vec<&str> = RelationId::ALL.iter().map(|id| id.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), RelationId::ALL.len(), "keys are unique");
        for r in ALL {
            assert!(!r.citations.is_empty(), "{}", r.id);
        }
    }

    #[test]
    fn every_policy_relation_reaches_the_panel() {
        // Every relation reachable from the policy registry is in the panel's list.
        for policy in crate::autoscale::PolicyId::ALL {
            for relation in crate::autoscale::relations(*policy) {
                assert!(
                    ALL.iter().any(|r| r == relation),
                    "{} of {} is missing from the panel",
                    relation.id,
                    policy
                );
            }
        }
    }
}
