//! Relations with the current minute's values in them: what the sources panel shows under a
//! formula when a metric row opens it, so the row's number can be checked by hand.
//!
//! Each live relation takes its inputs from the run's last minute (its record, the records
//! before it, the parameters and the controls) and computes its result with the model's own
//! function, so the result equals the row it explains (`sim/tests/live.rs` checks it minute by
//! minute). Where one substitution cannot give the row (a minute served in several ticks, the
//! per-node limits of the elastic scaler, no instance serving), the text says why instead.

use crate::budget;
use crate::cache;
use crate::database;
use crate::message::{Message, MessageId};
use crate::queueing;
use crate::relations::RelationId;
use crate::sim::Simulation;

/// The metrics rows (by record field) whose relation has live values, and that relation.
const LIVE: &[(&str, RelationId)] = &[
    ("burn_rate_1h", RelationId::BurnRate1h),
    ("paging", RelationId::MultiwindowPage),
    ("timeout_share", RelationId::Abandonment),
    ("p99_ms", RelationId::SojournP99Exact),
    ("utilization", RelationId::Utilization),
    ("cache_hit", RelationId::TtlHit),
    ("db_utilization", RelationId::DbLoad),
];

/// The relation that explains the metrics row of record field `field`, where one has its
/// values on screen.
pub fn relation_of_field(field: &str) -> Option<RelationId> {
    LIVE.iter().find(|(f, _)| *f == field).map(|(_, id)| *id)
}

/// Whether relation `id` is shown with live values ([`live`] gives them).
pub fn has_live(id: RelationId) -> bool {
    LIVE.iter().any(|(_, r)| *r == id)
}

/// Minutes of the long burn-rate window.
const LONG_WINDOW: usize = 60;

/// Relation `id` with the values of the run's last minute substituted, and its result;
/// `None` for a relation without live values or a run without a minute.
pub fn live(id: RelationId, sim: &Simulation) -> Option<Message> {
    if !has_live(id) {
        return None;
    }
    let history = sim.history();
    let r = history.last()?;
    let p = sim.params();
    // The requests the fleet admits (shed traffic never reaches it).
    let lambda = r.requests_per_s * (1.0 - r.shed_share);
    let service_s = r.service_time_ms / 1000.0;
    let servers = r.serving * p.workers();
    let message = match id {
        RelationId::Utilization => {
            if let Some(why) = no_single_queue(sim, servers) {
                return Some(why);
            }
            // Little's law, and the share of the workers busy: at most all of them (above 1
            // the queue grows and requests time out).
            let rho = queueing::utilization(lambda, service_s, servers);
            let busy = rho.min(1.0);
            Message::new(MessageId::LiveUtilization)
                .num("lambda", lambda)
                .num("service", service_s)
                .int("servers", servers)
                .num("rho", rho)
                .num("busy", 100.0 * busy)
        }
        RelationId::Abandonment | RelationId::SojournP99Exact => {
            if let Some(why) = no_single_queue(sim, servers) {
                return Some(why);
            }
            let q = queueing::solve(lambda, service_s, servers, p.timeout_s);
            let base = if id == RelationId::Abandonment {
                // Of the requests that wait, those whose wait would pass the timeout.
                let beyond = if q.p_wait > 0.0 {
                    q.timeout_share / q.p_wait
                } else {
                    0.0
                };
                Message::new(MessageId::LiveTimeouts)
                    .num("p_wait", 100.0 * q.p_wait)
                    .num("beyond", 100.0 * beyond)
                    .num("timeouts", 100.0 * q.timeout_share)
            } else {
                Message::new(MessageId::LiveP99).num("p99", 1000.0 * q.p99_s)
            };
            base.num("lambda", lambda)
                .num("service", service_s)
                .int("servers", servers)
                .num("timeout", p.timeout_s)
                .num("load", lambda * service_s)
        }
        RelationId::BurnRate1h => {
            // The window holds the last hour's minutes; until an hour has passed, the first
            // minute's rate fills the rest (as the model's window does).
            let first = history[0].error_rate;
            let filled = LONG_WINDOW.saturating_sub(history.len());
            let start = history.len().saturating_sub(LONG_WINDOW);
            let sum =
                first * filled as f64 + history[start..].iter().map(|m| m.error_rate).sum::<f64>();
            let mean = sum / LONG_WINDOW as f64;
            Message::new(MessageId::LiveBurn1h)
                .num("mean", 100.0 * mean)
                .num("slo", 100.0 * p.slo)
                .num("burn", budget::burn_rate(mean, p.slo))
                .int("minutes", LONG_WINDOW.min(history.len()) as u32)
        }
        RelationId::MultiwindowPage => {
            let id = if budget::page_fires(r.burn_rate_1h, r.burn_rate_5m) {
                MessageId::LivePageFires
            } else {
                MessageId::LivePageQuiet
            };
            let compare = |b: f64| if b >= budget::PAGE_BURN { "≥" } else { "<" };
            Message::new(id)
                .num("long", r.burn_rate_1h)
                .code("long_vs", compare(r.burn_rate_1h))
                .num("short", r.burn_rate_5m)
                .code("short_vs", compare(r.burn_rate_5m))
                .num("threshold", budget::PAGE_BURN)
        }
        RelationId::TtlHit => {
            // The record keeps the mean age of a cached answer, half the TTL in force.
            let ttl_s = 2.0 * r.cache_age_s;
            let rate = lambda / p.hot_objects;
            Message::new(MessageId::LiveTtlHit)
                .num("lambda", lambda)
                .num("objects", p.hot_objects)
                .num("rate", rate)
                .num("ttl", ttl_s)
                .num("warm", 100.0 * r.cache_warm)
                .num(
                    "hit",
                    100.0 * cache::ttl_hit(r.cache_warm, lambda, ttl_s, p.hot_objects),
                )
        }
        RelationId::DbLoad => {
            let heavy = r.feature_available > 0.0;
            let queries = p.queries_per_miss + if heavy { p.heavy_feature_queries } else { 0.0 };
            let warmup = if r.warmup_minutes_left > 0 {
                p.warmup_db_qps
            } else {
                0.0
            };
            let demand = database::db_load(lambda, queries, r.cache_hit, warmup);
            Message::new(MessageId::LiveDbLoad)
                .num("lambda", lambda)
                .num("queries", queries)
                .num("miss", 100.0 * (1.0 - r.cache_hit))
                .num("warmup", warmup)
                .num("capacity", p.db_capacity_qps)
                .num("demand", demand)
                .num("rho", 100.0 * demand / p.db_capacity_qps)
        }
        _ => return None,
    };
    Some(message)
}

/// Why the minute's utilization, timeouts and p99 are not those of one M/M/N+D queue, if
/// they are not.
fn no_single_queue(sim: &Simulation, servers: u32) -> Option<Message> {
    let engine = sim.params().engine.unwrap_or(sim.scenario().engine);
    if engine == crate::params::EngineKind::Requests {
        return Some(Message::new(MessageId::LiveMeasured));
    }
    if sim.settings().lb != crate::requests::Routing::LeastRequest {
        return Some(Message::new(MessageId::LiveRouted).code("lb", sim.settings().lb.as_str()));
    }
    let ticks = sim.ticks_per_minute();
    if ticks > 1 {
        return Some(
            Message::new(MessageId::LiveSplitMinute)
                .int("ticks", ticks)
                .int("tick", 60 / ticks),
        );
    }
    if sim.admission().is_some() {
        return Some(Message::new(MessageId::LiveNodeLimits));
    }
    if servers == 0 {
        return Some(Message::new(MessageId::LiveNoServers));
    }
    None
}
