//! The database as a health source: its replicas are the endpoints, and they all fail their
//! probes while the region's database has failed.

use super::{Endpoints, Probe, ProbeScene, Source};
use crate::health::{EndpointHealth, Resource, SourceKind};
use crate::params::ModelParams;
use crate::regions::Region;

/// The region's database replicas.
pub struct Database;

impl Source for Database {
    fn kind(&self) -> SourceKind {
        SourceKind::Database
    }

    fn key(&self) -> &'static str {
        "database"
    }

    /// `db_replicas` replicas, each ready.
    fn endpoints(&self, params: &ModelParams) -> Endpoints {
        (0..params.db_replicas)
            .map(|k| (k, EndpointHealth::READY))
            .collect()
    }

    fn probe(&self, _id: u32, region: &Region, _scene: &ProbeScene) -> Probe {
        Probe {
            passes: !region.db_failed,
            down: region.db_failed,
        }
    }

    fn calm(&self, region: &Region, _scene: &ProbeScene) -> bool {
        !region.db_failed
    }

    fn resource(&self, id: u32) -> Resource {
        Resource::Replica { replica: id }
    }
}
