//! The state the simulation steps through, one plain struct per concern: the service unit
//! (fleet, autoscaler, service model, cache), deploys and rollbacks, the error budget and its
//! alerts, the ledger, and the journal of what happened. A later region owns one service unit.

pub mod budget;
pub mod deploys;
pub mod journal;
pub mod ledger;
pub mod service;
