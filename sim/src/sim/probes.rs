//! The health checks of the regions: endpoint probes, the health sources and the composite
//! check of seed 003, and the events of their transitions. What differs between kinds of
//! source (their endpoints, when a probe passes) is in [`crate::regions::sources`]; the rounds and
//! the aggregation are the same for all.

use super::Simulation;
use crate::event::EventKind;
use crate::fleet::InstanceState;
use crate::health::{
    composite_state, probe_step, source_state, EndpointHealth, HealthState, ProbeConfig, Resource,
    SourceKind,
};
use crate::message::{Message, MessageId};
use crate::regions::sources::{Endpoints, ProbeScene};
use crate::regions::{code, RegionHealth};

/// An endpoint whose probes changed its health: the endpoint, whether it was healthy, and
/// whether it is down (rather than too slow to answer).
type EndpointChange = (Resource, bool, bool);

/// A source whose policy gave another state: its kind, the states, its healthy and total
/// endpoints and the policy's two figures.
type SourceChange = (SourceKind, HealthState, HealthState, u32, u32, (u32, u32));

impl Simulation {
    /// Health checks start (the first failure or health control of a one-region run).
    pub(super) fn start_health(&mut self) {
        if !self.health_on {
            self.health_on = true;
            for r in &mut self.regions {
                r.health = RegionHealth::new(&self.params);
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
            let mut changes: Vec<(Resource, HealthState)> = h
                .sources
                .iter()
                .map(|s| (Resource::Source { source: s.kind }, s.state))
                .collect();
            changes.push((Resource::Composite, h.composite));
            for s in &mut h.sources {
                s.state = HealthState::Unknown;
            }
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

    /// Each region's sources follow its fleet at the minute's start (the app fleet's
    /// endpoints come and go with its instances).
    pub(super) fn sync_endpoints(&mut self) {
        for r in 0..self.regions.len() {
            if !self.regions[r].restoring.is_empty() && !self.settle_restoring(r) {
                continue;
            }
            let Some(fleet) = self.region_fleet(r) else {
                continue;
            };
            let region = &self.regions[r];
            let synced: Vec<(usize, Endpoints)> = region
                .health
                .sources
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some((i, s.rule().synced(&s.endpoints, region, fleet)?)))
                .collect();
            for (i, endpoints) in synced {
                self.regions[r].health.sources[i].endpoints = endpoints;
            }
        }
    }

    /// A returning instance of region `r` that serves now is an endpoint like the others
    /// (one stopped meanwhile leaves the backend); `false` when the region has no fleet.
    fn settle_restoring(&mut self, r: usize) -> bool {
        let Some(fleet) = self.region_fleet(r) else {
            return false;
        };
        let booting: Vec<u32> = self.regions[r]
            .restoring
            .iter()
            .copied()
            .filter(|id| {
                fleet
                    .instances
                    .iter()
                    .any(|i| i.id == *id && !i.rollback && i.state != InstanceState::Serving)
            })
            .collect();
        self.regions[r].restoring = booting;
        true
    }

    /// One round of probes in every region at second `t` of the run.
    pub(super) fn probe_all(&mut self, t: u32, cfg: &ProbeConfig) {
        let scene = ProbeScene {
            cfg: *cfg,
            request_timeout_s: self.params.timeout_s,
        };
        for r in 0..self.regions.len() {
            for change in self.probe_endpoints(r, &scene) {
                self.endpoint_event(r, change, cfg);
            }
            self.evaluate_sources(r, t);
        }
    }

    /// Probes every endpoint of region `r`'s sources once: the endpoints whose health
    /// changed, in order.
    fn probe_endpoints(&mut self, r: usize, scene: &ProbeScene) -> Vec<EndpointChange> {
        let mut changes = Vec::new();
        for i in 0..self.regions[r].health.sources.len() {
            let rule = self.regions[r].health.sources[i].rule();
            let mut endpoints = core::mem::take(&mut self.regions[r].health.sources[i].endpoints);
            let region = &self.regions[r];
            for (id, e) in endpoints.iter_mut() {
                let probe = rule.probe(*id, region, scene);
                let next = probe_step(*e, probe.passes, &scene.cfg);
                if next.healthy != e.healthy {
                    changes.push((rule.resource(*id), e.healthy, probe.down));
                }
                *e = next;
            }
            self.regions[r].health.sources[i].endpoints = endpoints;
        }
        changes
    }

    /// The event of an endpoint of region `r` that `cfg`'s threshold of probes turned.
    fn endpoint_event(&mut self, r: usize, change: EndpointChange, cfg: &ProbeConfig) {
        let (resource, was, down) = change;
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

    /// Each source of region `r` judged by its policy, and the composite over them (seed
    /// 003), at second `t`: a new composite state starts towards the consumer.
    fn evaluate_sources(&mut self, r: usize, t: u32) {
        let delay = self.params.propagation_delay_s;
        let params = &self.params;
        let h = &mut self.regions[r].health;
        let mut changes: Vec<SourceChange> = Vec::new();
        for s in &mut h.sources {
            let (healthy, total) = s.counts();
            let policy = s.rule().policy(params);
            let to = source_state(healthy, total, policy);
            if to != s.state {
                let figures = (policy.healthy_percent, policy.min_healthy);
                changes.push((s.kind, s.state, to, healthy, total, figures));
            }
            s.state = to;
        }
        let states: Vec<HealthState> = h.states().collect();
        let composite = composite_state(&states);
        let before = h.composite;
        h.composite = composite;
        if composite != before {
            h.propagation.send(t, composite, delay);
        }
        for (source, from, to, healthy, total, (percent, min)) in changes {
            self.health_event(
                r,
                Resource::Source { source },
                from,
                to,
                Message::new(MessageId::HealthReasonPolicy)
                    .int("healthy", healthy)
                    .int("total", total)
                    .int("percent", percent)
                    .int("min", min),
            );
        }
        if composite != before {
            let mut reason = Message::new(MessageId::HealthReasonSources);
            for s in &self.regions[r].health.sources {
                reason = reason.code(s.rule().key(), s.state.as_str());
            }
            self.health_event(r, Resource::Composite, before, composite, reason);
        }
    }

    /// Whether a round of probes would change nothing in region `r`: every probe would
    /// pass, every endpoint is healthy with no failure counted, and its sources and
    /// composite are already what their counts give.
    pub(super) fn quiet(&self, r: usize, cfg: &ProbeConfig) -> bool {
        let region = &self.regions[r];
        let h = &region.health;
        let scene = ProbeScene {
            cfg: *cfg,
            request_timeout_s: self.params.timeout_s,
        };
        let steady = |e: &EndpointHealth| e.healthy && e.streak == 0;
        let settled = h
            .sources
            .iter()
            .all(|s| s.rule().calm(region, &scene) && s.endpoints.iter().all(|(_, e)| steady(e)));
        if !settled {
            return false;
        }
        let mut states = Vec::with_capacity(h.sources.len());
        for s in &h.sources {
            let n = s.endpoints.len() as u32;
            let state = source_state(n, n, s.rule().policy(&self.params));
            if s.state != state {
                return false;
            }
            states.push(state);
        }
        h.composite == composite_state(&states)
    }
}
