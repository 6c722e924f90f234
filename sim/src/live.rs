//! Relations with the current minute's values in them: what the sources panel shows under a
//! formula when a metric row opens it, so the row's number can be checked by hand.
//!
//! Each live relation takes its inputs from the minute's record and the run's parameters, and
//! computes its result from those inputs with the model's own function, so the result equals
//! the row it explains (`sim/tests/live.rs` checks it minute by minute).

use crate::message::{Message, MessageId};
use crate::queueing;
use crate::record::MinuteRecord;
use crate::relations::RelationId;
use crate::ModelParams;

/// The metrics rows (by record field) whose relation has live values, and that relation.
const LIVE: &[(&str, RelationId)] = &[("utilization", RelationId::Utilization)];

/// The relation that explains the metrics row of record field `field`, where one has its
/// values on screen.
pub fn relation_of_field(field: &str) -> Option<RelationId> {
    LIVE.iter().find(|(f, _)| *f == field).map(|(_, id)| *id)
}

/// Whether relation `id` is shown with live values ([`live`] gives them).
pub fn has_live(id: RelationId) -> bool {
    LIVE.iter().any(|(_, r)| *r == id)
}

/// Relation `id` with the values of minute `r` substituted, and its result; `None` for a
/// relation without live values (or a minute without servers).
pub fn live(id: RelationId, r: &MinuteRecord, p: &ModelParams) -> Option<Message> {
    match id {
        RelationId::Utilization => {
            // The requests the fleet admits (shed traffic never reaches it), the minute's
            // mean service time and the workers of the serving instances.
            let lambda = r.requests_per_s * (1.0 - r.shed_share);
            let service_s = r.service_time_ms / 1000.0;
            let servers = r.serving * p.workers();
            if servers == 0 {
                return None;
            }
            // Little's law, and the share of the workers busy: at most all of them (above 1
            // the queue grows and requests time out).
            let rho = queueing::utilization(lambda, service_s, servers);
            let busy = rho.min(1.0);
            Some(
                Message::new(MessageId::LiveUtilization)
                    .num("lambda", lambda)
                    .num("service", service_s)
                    .int("servers", servers)
                    .num("rho", rho)
                    .num("busy", 100.0 * busy),
            )
        }
        _ => None,
    }
}
