//! The app fleet as a health source: the region's instances are its endpoints, serving ones
//! and those a zone outage crashed or whose zone came back still booting.

use super::{Endpoints, Probe, ProbeScene, Source};
use crate::fleet::{Fleet, InstanceState};
use crate::health::{probe_passes, EndpointHealth, Resource, SourceKind};
use crate::regions::Region;

/// The region's app fleet.
pub struct AppFleet;

impl Source for AppFleet {
    fn kind(&self) -> SourceKind {
        SourceKind::AppFleet
    }

    fn key(&self) -> &'static str {
        "app"
    }

    /// Its serving instances, its crashed ones and those of a zone that came back still
    /// booting (a new endpoint enters healthy: an instance's boot ends when it passes its
    /// readiness checks; a returning one stays unhealthy until its probes pass).
    fn synced(&self, endpoints: &Endpoints, region: &Region, fleet: &Fleet) -> Option<Endpoints> {
        // Unchanged since the last minute (the usual case): nothing to do.
        let mut serving = fleet
            .instances
            .iter()
            .filter(|i| !i.rollback && i.state == InstanceState::Serving)
            .map(|i| i.id)
            .chain(region.crashed.iter().copied())
            .chain(region.restoring.iter().copied());
        let same =
            endpoints.iter().all(|(id, _)| serving.next() == Some(*id)) && serving.next().is_none();
        if same {
            return None;
        }
        let mut ids = fleet.serving_ids();
        ids.extend(region.crashed.iter().copied());
        ids.extend(region.restoring.iter().copied());
        Some(
            ids.into_iter()
                .map(|id| {
                    let e = endpoints
                        .iter()
                        .find(|(i, _)| *i == id)
                        .map_or(EndpointHealth::READY, |(_, e)| *e);
                    (id, e)
                })
                .collect(),
        )
    }

    /// A crashed or returning instance does not answer; a serving one may answer too late.
    fn probe(&self, id: u32, region: &Region, scene: &ProbeScene) -> Probe {
        let down = region.crashed.contains(&id) || region.restoring.contains(&id);
        Probe {
            passes: probe_passes(
                !down,
                region.last_timeout_share,
                scene.request_timeout_s,
                f64::from(scene.cfg.timeout_s),
            ),
            down,
        }
    }

    fn calm(&self, region: &Region, scene: &ProbeScene) -> bool {
        region.crashed.is_empty()
            && probe_passes(
                true,
                region.last_timeout_share,
                scene.request_timeout_s,
                f64::from(scene.cfg.timeout_s),
            )
    }

    fn resource(&self, id: u32) -> Resource {
        Resource::Endpoint { instance: id }
    }
}
