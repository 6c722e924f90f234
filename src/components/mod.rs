//! The page's components. They show what the core computes and send it the user's actions;
//! they never compute model numbers themselves.

mod app;
mod free_play;
mod metrics_table;
mod notice;
mod run_facts;

pub use app::App;
pub use free_play::FreePlay;
pub use metrics_table::MetricsTable;
pub use notice::Notice;
pub use run_facts::RunFacts;
