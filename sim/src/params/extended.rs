//! The accessors of the extended build's parameters (the request engine's key space,
//! service-time shape, least request's choices and host selection). The first build has
//! none of these parameters; its accessors ([`super::first_build`]) give the defaults.

use super::{
    ModelParams, ServiceDistribution, Switch, OUTLIER_DETECTION_PARAM, SERVICE_SHAPE_PARAM,
};
use crate::ids::UnknownId;

impl ModelParams {
    /// The key space requests draw their keys from (`keys`, `zipf`): the request engine's,
    /// and the hash policies' arrival shares in the routed formulas.
    pub fn key_space(&self) -> crate::requests::KeySpace {
        crate::requests::KeySpace {
            keys: self.keys,
            exponent: self.zipf,
        }
    }

    /// How the request engine draws service times (`service_shape`, `service_sigma`).
    pub fn service_shape(&self) -> crate::requests::ServiceShape {
        match self.service_shape {
            ServiceDistribution::Exponential => crate::requests::ServiceShape::Exponential,
            ServiceDistribution::Lognormal => crate::requests::ServiceShape::Lognormal {
                sigma: self.service_sigma,
            },
        }
    }

    /// Least request's number of choices (`choice_count`, Envoy's default 2).
    pub fn choices(&self) -> u32 {
        self.choice_count
    }

    /// Envoy's host selection around health these parameters configure for the request
    /// engine: outlier detection when `outlier_detection` is on (its interval and most
    /// ejection time Envoy's defaults, the latter at least the base ejection time, as Envoy
    /// takes it), the panic threshold, slow start when its window is above 0, and least
    /// request's `active_request_bias` (which its weighted choice during slow start reads).
    pub fn host_selection(&self) -> crate::requests::HostSelection {
        let outlier = self.outlier_detection.is_on().then(|| {
            let envoy = crate::outlier::OutlierConfig::default();
            crate::outlier::OutlierConfig {
                consecutive_5xx: self.consecutive_5xx,
                base_ejection_s: self.base_ejection_time_s,
                max_ejection_percent: self.max_ejection_percent,
                max_ejection_s: envoy.max_ejection_s.max(self.base_ejection_time_s),
                ..envoy
            }
        });
        crate::requests::HostSelection {
            outlier,
            panic_threshold_percent: self.healthy_panic_threshold,
            slow_start: (self.slow_start_window_s > 0.0)
                .then(|| crate::requests::SlowStart::window(self.slow_start_window_s)),
            active_request_bias: self.active_request_bias,
            ..crate::requests::HostSelection::default()
        }
    }

    /// Sets one of the extended build's switches (`outlier_detection`, `service_shape`)
    /// from its spelling; `None` when `name` is not one of them.
    pub fn set_extended_choice(&mut self, name: &str, text: &str) -> Option<Result<(), UnknownId>> {
        Some(match name {
            OUTLIER_DETECTION_PARAM => text.parse().map(|v| self.outlier_detection = v),
            SERVICE_SHAPE_PARAM => text.parse().map(|v| self.service_shape = v),
            _ => return None,
        })
    }

    /// The extended build's switches away from their defaults, as a link spells them.
    pub fn extended_choice_pairs(&self) -> Vec<(String, String)> {
        let mut pairs = Vec::new();
        if self.outlier_detection != Switch::default() {
            pairs.push((
                OUTLIER_DETECTION_PARAM.into(),
                self.outlier_detection.to_string(),
            ));
        }
        if self.service_shape != ServiceDistribution::default() {
            pairs.push((SERVICE_SHAPE_PARAM.into(), self.service_shape.to_string()));
        }
        pairs
    }

    /// Whether the service-time shape or one of the extended build's numbers
    /// ([`super::EXTENDED_PARAMS`]) is away from its default.
    pub fn sets_extended_params(&self) -> bool {
        let defaults = ModelParams::default();
        self.service_shape != defaults.service_shape
            || super::EXTENDED_PARAMS
                .iter()
                .any(|name| self.get(name) != defaults.get(name))
    }
}
