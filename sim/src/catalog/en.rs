//! English: the catalog the command line prints from and the console's default language.
//!
//! The texts are in `locales/en/` (`scenarios.json`, `policies.json`, `core*.json`,
//! `cli.json`); the build compiles them into the `match`es included here (see
//! [`super::files`]), so a key that names no id does not compile.

use crate::autoscale::PolicyId;
use crate::balance::Routing;
use crate::ids::ScenarioId;
use crate::message::MessageId;

/// A scenario's title.
pub fn scenario_title(id: ScenarioId) -> &'static str {
    include!(concat!(env!("OUT_DIR"), "/scenario_title_en.rs"))
}

/// A scenario's briefing.
pub fn scenario_briefing(id: ScenarioId) -> &'static str {
    include!(concat!(env!("OUT_DIR"), "/scenario_briefing_en.rs"))
}

/// A policy's line on how it decides, with the parameters in force.
pub fn policy_summary(
    id: PolicyId,
    model: &crate::params::ModelParams,
    policies: &crate::autoscale::PolicySettings,
) -> String {
    fill_policy_summary(
        policy_text(id).map_or("", |(_, summary)| summary),
        model,
        policies,
    )
}

/// A policy's summary `template` (in any language) with the parameters in force filled in.
pub fn fill_policy_summary(
    template: &str,
    model: &crate::params::ModelParams,
    policies: &crate::autoscale::PolicySettings,
) -> String {
    super::relations_en::fill(template, |name| {
        model.get(name).or_else(|| policies.get(name))
    })
}

/// A policy's name and a line on how it decides (placeholders name the parameters, see
/// [`policy_summary`]). A policy missing here shows its id: adding
/// one to the registry compiles at once, and a test asks for its text.
pub fn policy_text(id: PolicyId) -> Option<(&'static str, &'static str)> {
    include!(concat!(env!("OUT_DIR"), "/policy_text_en.rs"))
}

/// A load-balancing policy's name. A policy missing here shows its id: adding one to the
/// registry compiles at once, and a test asks for its name.
pub fn lb_text(id: Routing) -> Option<&'static str> {
    include!(concat!(env!("OUT_DIR"), "/lb_text_en.rs"))
}

/// The English template of message `id`: `core.json`, and the areas of what each build
/// shows: the postmortem (`core-postmortem.json`) and the exercise files
/// (`core-exercise.json`) natively and in the extended build, the extended models
/// (`core-extended.json`) in the extended build, the command line's sentences (`cli.json`) and
/// the elastic configuration's notes (`core-config.json`, which the page renders through
/// [`config_template`] in its policy module only) natively. Elsewhere `""`.
pub fn template(id: MessageId) -> &'static str {
    include!(concat!(env!("OUT_DIR"), "/template_en.rs"))
}

/// The templates of the elastic scaler's configuration file's notes and errors (the command
/// line's `config check`, the policy panel's editor); `""` for other ids.
pub fn config_template(id: MessageId) -> &'static str {
    include!(concat!(env!("OUT_DIR"), "/config_template_en.rs"))
}
