//! The health checks of the regions: endpoint probes, the health sources and the composite
//! check of seed 003, and the events of their transitions.

use super::{code, policy_of, RegionHealth};
use crate::event::EventKind;
use crate::fleet::InstanceState;
use crate::health::{
    composite_state, probe_passes, probe_step, source_state, EndpointHealth, HealthState,
    ProbeConfig, Resource, SourceKind,
};
use crate::message::{Message, MessageId};
use crate::sim::Simulation;

impl Simulation {
    /// Health checks start (the first failure or health control of a one-region run).
    pub(super) fn start_health(&mut self) {
        if !self.health_on {
            self.health_on = true;
            let replicas = self.params.db_replicas;
            for r in &mut self.regions {
                r.health = RegionHealth::new(replicas);
            }
            self.shared_min = self.settings.min_instances;
        }
    }

    /// A changed aggregation policy takes effect at once: the sources and the composite
    /// checks go back to UNKNOWN until their next evaluation.
    pub(super) fn reconfigured(&mut self) {
        let second = self.tick_second;
        self.tick_second = Some(0);
        for r in 0..self.regions.len() {
            let h = &mut self.regions[r].health;
            let changes = [
                (
                    Resource::Source {
                        source: SourceKind::AppFleet,
                    },
                    h.app_state,
                ),
                (
                    Resource::Source {
                        source: SourceKind::Database,
                    },
                    h.db_state,
                ),
                (Resource::Composite, h.composite),
            ];
            h.app_state = HealthState::Unknown;
            h.db_state = HealthState::Unknown;
            h.composite = HealthState::Unknown;
            let at_s = self.minute * 60;
            h.propagation
                .send(at_s, HealthState::Unknown, self.params.propagation_delay_s);
            for (resource, from) in changes {
                if from != HealthState::Unknown {
                    self.health_event(
                        r,
                        resource,
                        from,
                        HealthState::Unknown,
                        Message::new(MessageId::HealthReasonReconfigured),
                    );
                }
            }
        }
        self.tick_second = second;
    }

    pub(super) fn health_event(
        &mut self,
        r: usize,
        resource: Resource,
        from: HealthState,
        to: HealthState,
        reason: Message,
    ) {
        self.journal.region = Some(code(r));
        self.emit(EventKind::HealthTransition {
            resource,
            from,
            to,
            reason,
        });
        self.journal.region = (self.regions.len() > 1).then(|| code(self.at));
    }

    /// The endpoints of each region's app source: its serving instances, its crashed ones
    /// and those of a zone that came back still booting (a new endpoint enters healthy: an
    /// instance's boot ends when it passes its readiness checks; a returning one stays
    /// unhealthy until its probes pass).
    pub(super) fn sync_endpoints(&mut self) {
        for r in 0..self.regions.len() {
            if !self.regions[r].restoring.is_empty() {
                // A returning instance that serves now is an endpoint like the others (one
                // stopped meanwhile leaves the backend).
                let Some(fleet) = self.region_fleet(r) else {
                    continue;
                };
                let booting: Vec<u32> = self.regions[r]
                    .restoring
                    .iter()
                    .copied()
                    .filter(|id| {
                        fleet.instances.iter().any(|i| {
                            i.id == *id && !i.rollback && i.state != InstanceState::Serving
                        })
                    })
                    .collect();
                self.regions[r].restoring = booting;
            }
            let Some(fleet) = self.region_fleet(r) else {
                continue;
            };
            let region = &self.regions[r];
            // Unchanged since the last minute (the usual case): nothing to do.
            let mut serving = fleet
                .instances
                .iter()
                .filter(|i| !i.rollback && i.state == InstanceState::Serving)
                .map(|i| i.id)
                .chain(region.crashed.iter().copied())
                .chain(region.restoring.iter().copied());
            let app = &region.health.app;
            let same =
                app.iter().all(|(id, _)| serving.next() == Some(*id)) && serving.next().is_none();
            if same {
                continue;
            }
            let mut ids = fleet.serving_ids();
            ids.extend(self.regions[r].crashed.iter().copied());
            ids.extend(self.regions[r].restoring.iter().copied());
            let old = core::mem::take(&mut self.regions[r].health.app);
            self.regions[r].health.app = ids
                .into_iter()
                .map(|id| {
                    let e = old
                        .iter()
                        .find(|(i, _)| *i == id)
                        .map_or(EndpointHealth::READY, |(_, e)| *e);
                    (id, e)
                })
                .collect();
        }
    }

    /// One round of probes in every region at second `t` of the run.
    pub(super) fn probe_all(&mut self, t: u32, cfg: &ProbeConfig) {
        let policy = policy_of(&self.params);
        let delay = self.params.propagation_delay_s;
        let (request_timeout, probe_timeout) = (self.params.timeout_s, f64::from(cfg.timeout_s));
        for r in 0..self.regions.len() {
            let timeout_share = self.regions[r].last_timeout_share;
            let mut changes = Vec::new();
            let region = &mut self.regions[r];
            for (id, e) in region.health.app.iter_mut() {
                let crashed = region.crashed.contains(id) || region.restoring.contains(id);
                let next = probe_step(
                    *e,
                    probe_passes(!crashed, timeout_share, request_timeout, probe_timeout),
                    cfg,
                );
                if next.healthy != e.healthy {
                    changes.push((Resource::Endpoint { instance: *id }, e.healthy, crashed));
                }
                *e = next;
            }
            let db_down = region.db_failed;
            for (k, e) in region.health.db.iter_mut().enumerate() {
                let next = probe_step(*e, !db_down, cfg);
                if next.healthy != e.healthy {
                    changes.push((Resource::Replica { replica: k as u32 }, e.healthy, db_down));
                }
                *e = next;
            }
            for (resource, was, down) in changes {
                let (from, to) = if was {
                    (HealthState::Healthy, HealthState::Unhealthy)
                } else {
                    (HealthState::Unhealthy, HealthState::Healthy)
                };
                let reason = match (to, down) {
                    (HealthState::Healthy, _) => MessageId::HealthReasonProbesPassed,
                    (_, true) => MessageId::HealthReasonDown,
                    _ => MessageId::HealthReasonProbeTimeout,
                };
                let threshold = if to == HealthState::Healthy {
                    cfg.healthy_threshold
                } else {
                    cfg.unhealthy_threshold
                };
                self.health_event(
                    r,
                    resource,
                    from,
                    to,
                    Message::new(reason).int("probes", threshold),
                );
            }
            let ((ah, at), (dh, dt)) = self.regions[r].health.counts();
            let app = source_state(ah, at, policy);
            let db = source_state(dh, dt, policy);
            let composite = composite_state(&[app, db]);
            let h = &self.regions[r].health;
            let before = [h.app_state, h.db_state, h.composite];
            let h = &mut self.regions[r].health;
            h.app_state = app;
            h.db_state = db;
            h.composite = composite;
            if composite != before[2] {
                h.propagation.send(t, composite, delay);
            }
            let sources = [
                (SourceKind::AppFleet, before[0], app, ah, at),
                (SourceKind::Database, before[1], db, dh, dt),
            ];
            for (source, from, to, healthy, total) in sources {
                if from != to {
                    self.health_event(
                        r,
                        Resource::Source { source },
                        from,
                        to,
                        Message::new(MessageId::HealthReasonPolicy)
                            .int("healthy", healthy)
                            .int("total", total)
                            .int("percent", policy.healthy_percent)
                            .int("min", policy.min_healthy),
                    );
                }
            }
            if composite != before[2] {
                self.health_event(
                    r,
                    Resource::Composite,
                    before[2],
                    composite,
                    Message::new(MessageId::HealthReasonSources)
                        .code("app", app.as_str())
                        .code("database", db.as_str()),
                );
            }
        }
    }

    /// Whether a round of probes would change nothing in region `r`: nothing crashed, its
    /// database up, no probe can time out, every endpoint healthy with no failure counted,
    /// and its sources and composite already what their counts give.
    pub(super) fn quiet(&self, r: usize, cfg: &ProbeConfig) -> bool {
        let region = &self.regions[r];
        let h = &region.health;
        let steady = |e: &EndpointHealth| e.healthy && e.streak == 0;
        if !region.crashed.is_empty()
            || region.db_failed
            || !probe_passes(
                true,
                region.last_timeout_share,
                self.params.timeout_s,
                f64::from(cfg.timeout_s),
            )
            || !h.app.iter().all(|(_, e)| steady(e))
            || !h.db.iter().all(steady)
        {
            return false;
        }
        let policy = policy_of(&self.params);
        let app = source_state(h.app.len() as u32, h.app.len() as u32, policy);
        let db = source_state(h.db.len() as u32, h.db.len() as u32, policy);
        h.app_state == app && h.db_state == db && h.composite == composite_state(&[app, db])
    }
}
