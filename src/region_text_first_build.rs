//! The first build's stand-in for the regions' words (`region_text.rs`): its runs have one
//! region and no regional events, so regional actions read as the core words them, and
//! nothing is hidden while playing.

use oncall_sim::event::{Event, EventKind};
use oncall_sim::regions::RegionAction;

/// A regional action in the core's words (a link of the first build never holds one).
pub fn action_text(action: &RegionAction) -> String {
    crate::i18n::core_text(&action.message())
}

/// No regional events in the first build.
pub fn event_text(_kind: &EventKind) -> String {
    String::new()
}

/// One region: the text as it is.
pub fn in_region(_event: &Event, text: String) -> String {
    text
}

/// No twist the seed draws is hidden in the first build.
pub fn hidden_while_playing(_kind: &EventKind) -> bool {
    false
}
