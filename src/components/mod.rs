//! The page's components. They show what the core computes and send it the user's actions;
//! they never compute model numbers themselves.

mod app;
pub mod charts_panel;
mod controls;
mod debrief;
mod engine_settings;
mod event_log;
#[cfg(feature = "extended")]
pub(crate) mod extended;
#[cfg(not(feature = "extended"))]
#[path = "first_build.rs"]
pub(crate) mod extended;
mod help;
pub mod host;
mod icons;
mod language;
mod metrics_table;
mod notices;
mod outcome_table;
pub mod reference;
pub mod run;
mod setup_panel;
mod share;
mod sources;
mod start;
mod status_strip;

pub use crate::speed::SPEEDS;
pub use app::App;
pub use charts_panel::ChartsPanel;
pub use controls::{ttl_position, Controls, TTL_STOPS};
pub use debrief::DebriefPanel;
pub use event_log::{EventLog, LOG_LIMIT};
pub use help::HelpDialog;
pub use metrics_table::MetricsTable;
pub use notices::Notices;
pub use run::{use_run, RunHandle};
pub use setup_panel::{parse_seed_input, SetupPanel};
pub use share::{ShareButton, Shared};
pub use sources::{RelationDialog, SourcesPanel};
pub use start::{opens_start_view, StartView, FIRST_SCENARIO};
pub use status_strip::{StatusStrip, TimeControls};
