//! The health sources a region's composite check combines (seed 003). Each kind is a type
//! implementing [`Source`] in a file of its own: which endpoints it has, when their probes
//! pass, and the policy that judges it. The one list of kinds is the registry in
//! [`crate::health`] (`source_registry!`), which generates [`SourceKind`] there and
//! [`ALL`] here from the same line.

use super::{policy_of, Region};
use crate::fleet::Fleet;
use crate::health::{AggregationPolicy, EndpointHealth, ProbeConfig, Resource, SourceKind};
use crate::params::ModelParams;

/// A source's endpoints: each one's id (an instance's, a replica's index) and health.
pub type Endpoints = Vec<(u32, EndpointHealth)>;

/// What a probe of an endpoint found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub passes: bool,
    /// The endpoint is down (crashed, not serving, failed), rather than too slow to answer.
    pub down: bool,
}

/// What every probe of a round knows besides the region.
#[derive(Clone, Copy, Debug)]
pub struct ProbeScene {
    pub cfg: ProbeConfig,
    /// The requests' timeout, s (the queue holds a probe no longer than that).
    pub request_timeout_s: f64,
}

/// A kind of health source.
pub trait Source: Sync {
    /// Its kind in the registry.
    fn kind(&self) -> SourceKind;

    /// Its name among the composite's reasons and in the regions' minute (`app`).
    fn key(&self) -> &'static str;

    /// Its endpoints when health checks start.
    fn endpoints(&self, _params: &ModelParams) -> Endpoints {
        Vec::new()
    }

    /// Its endpoints as the region's fleet now has them, or `None` when they are unchanged
    /// (a new endpoint enters healthy, one that stays keeps its health).
    fn synced(
        &self,
        _endpoints: &Endpoints,
        _region: &Region,
        _fleet: &Fleet,
    ) -> Option<Endpoints> {
        None
    }

    /// A probe of endpoint `id` now.
    fn probe(&self, id: u32, region: &Region, scene: &ProbeScene) -> Probe;

    /// Whether every probe passes now: with every endpoint steady, a round of probes then
    /// changes nothing.
    fn calm(&self, region: &Region, scene: &ProbeScene) -> bool;

    /// Endpoint `id` as a health transition names it.
    fn resource(&self, id: u32) -> Resource {
        Resource::SourceEndpoint {
            source: self.kind(),
            endpoint: id,
        }
    }

    /// The aggregation policy that judges it: the run's (`healthy_percent`, `min_healthy`).
    fn policy(&self, params: &ModelParams) -> AggregationPolicy {
        policy_of(params)
    }
}

/// Generates the modules and [`ALL`] from the registry's lines.
macro_rules! sources {
    ($( $(#[$meta:meta])* $variant:ident = $code:literal, $module:ident :: $ty:ident; )*) => {
        $( pub mod $module; )*

        /// Every kind a region's composite check combines, in the registry's order.
        pub const ALL: &[&dyn Source] = &[$( &$module::$ty, )*];

        /// The endpoints of source `kind` when health checks start, by a static call: a
        /// run's regions start with it, while only the health checks (the extended build's)
        /// reach the rest of a source's rules through [`ALL`].
        pub fn starting_endpoints(kind: SourceKind, params: &ModelParams) -> Endpoints {
            match kind {
                $( SourceKind::$variant => Source::endpoints(&$module::$ty, params), )*
                SourceKind::Composite => Vec::new(),
            }
        }
    };
}

crate::health::source_registry!(sources);

/// The rules of source `kind`; `None` for a kind a region does not combine (another
/// composite).
pub fn rule(kind: SourceKind) -> Option<&'static dyn Source> {
    ALL.iter().copied().find(|s| s.kind() == kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::health::{check_sources, HealthSource};

    #[test]
    fn the_registry_lists_every_regional_kind_once_in_order() {
        let kinds: Vec<SourceKind> = ALL.iter().map(|s| s.kind()).collect();
        assert_eq!(kinds, SourceKind::REGIONAL);
        let params = ModelParams::default();
        let sources: Vec<HealthSource> = ALL
            .iter()
            .map(|s| HealthSource {
                kind: s.kind(),
                policy: s.policy(&params),
            })
            .collect();
        assert_eq!(check_sources(&sources), Ok(()));
        let mut keys: Vec<&str> = ALL.iter().map(|s| s.key()).collect();
        keys.dedup();
        assert_eq!(keys.len(), ALL.len());
    }
}
