//! The first build's accessors of the extended build's parameters: it has none of them,
//! so each gives what the extended build gives at its defaults (the request engine does
//! not run in this build).

use super::ModelParams;
use crate::ids::UnknownId;

impl ModelParams {
    /// The default key space.
    pub fn key_space(&self) -> crate::requests::KeySpace {
        crate::requests::KeySpace::default()
    }

    /// Exponential service times, the formulas' own assumption.
    pub fn service_shape(&self) -> crate::requests::ServiceShape {
        crate::requests::ServiceShape::Exponential
    }

    /// Envoy's default number of choices.
    pub fn choices(&self) -> u32 {
        crate::requests::DEFAULT_CHOICE_COUNT
    }

    /// Envoy's defaults.
    pub fn host_selection(&self) -> crate::requests::HostSelection {
        crate::requests::HostSelection::default()
    }

    /// The first build has no switch of the extended build.
    pub fn set_extended_choice(
        &mut self,
        _name: &str,
        _text: &str,
    ) -> Option<Result<(), UnknownId>> {
        None
    }

    /// None to spell.
    pub fn extended_choice_pairs(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// None is set.
    pub fn sets_extended_params(&self) -> bool {
        false
    }
}
