//! One service: its fleet, the autoscaler that sizes it, the model of how it serves
//! requests, and its cache. The database has no state of its own (its load is a function of
//! the minute). A region, when there are several, owns one of these.

use crate::autoscale::Autoscaler;
use crate::engine::ServiceModel;
use crate::fleet::Fleet;
use crate::ids::DriverId;

/// The cache's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CacheState {
    /// Share of the working set in the cache (1 = warm).
    pub warm: f64,
    /// Minutes the warm-up job still runs.
    pub warmup_left: u32,
}

impl Default for CacheState {
    fn default() -> Self {
        Self {
            warm: 1.0,
            warmup_left: 0,
        }
    }
}

/// A service unit.
pub struct ServiceUnit {
    pub fleet: Fleet,
    pub autoscaler: Box<dyn Autoscaler>,
    pub model: Box<dyn ServiceModel>,
    pub cache: CacheState,
    /// Driver of the latest scaling decision.
    pub active_driver: Option<DriverId>,
}
