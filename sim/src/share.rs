//! A run as a link: scenario, seed, parameters and the action log as query parameters, so
//! that opening the link replays exactly the same run.
//!
//! Parsing never fails as a whole: each malformed parameter gives a [`Notice`] naming it and
//! what is allowed, falls back to its default, and every valid parameter is kept.

use crate::action::Action;
use crate::params::ModelParams;
use crate::scenario;

/// Longest run a link can ask for (30 days of minutes).
pub const MAX_MINUTE: u32 = 43_200;

/// Everything that determines a run, plus how far it had got.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareState {
    pub scenario: String,
    /// `None` when the link has none (the page then draws one).
    pub seed: Option<u32>,
    /// Model parameters that differ from the defaults.
    pub params: ModelParams,
    pub actions: Vec<Action>,
    /// Minutes simulated when the link was made.
    pub minute: Option<u32>,
}

impl Default for ShareState {
    fn default() -> Self {
        Self {
            scenario: "free-play".into(),
            seed: None,
            params: ModelParams::default(),
            actions: Vec::new(),
            minute: None,
        }
    }
}

/// A parameter that was not understood, and what is allowed instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub param: String,
    pub value: String,
    pub allowed: String,
}

/// Query parameters this module owns (besides the model parameters' names).
pub const KEYS: &[&str] = &["scenario", "seed", "actions", "t"];

impl ShareState {
    /// Reads decoded query pairs. Returns the state, the notices, and the pairs it does not
    /// own (for the page to interpret: language, embedding, speed…).
    pub fn from_pairs(pairs: &[(String, String)]) -> (Self, Vec<Notice>, Vec<(String, String)>) {
        let mut state = Self::default();
        let mut notices = Vec::new();
        let mut rest = Vec::new();
        let mut notice = |param: &str, value: &str, allowed: String| {
            notices.push(Notice {
                param: param.into(),
                value: value.into(),
                allowed,
            });
        };
        for (key, value) in pairs {
            match key.as_str() {
                "scenario" => match scenario::by_id(value) {
                    Some(s) => state.scenario = s.id.into(),
                    None => notice(key, value, format!("one of {}", scenario::IDS.join(", "))),
                },
                "seed" => match value.parse::<u32>() {
                    Ok(seed) => state.seed = Some(seed),
                    Err(_) => notice(key, value, "a whole number from 0 to 4294967295".into()),
                },
                "t" => match value.parse::<u32>().ok().filter(|m| *m <= MAX_MINUTE) {
                    Some(m) => state.minute = Some(m),
                    None => notice(
                        key,
                        value,
                        format!("a whole number of minutes from 0 to {MAX_MINUTE}"),
                    ),
                },
                "actions" => {
                    for item in value.split(',').filter(|s| !s.trim().is_empty()) {
                        match Action::parse(item, MAX_MINUTE) {
                            Ok(a) => state.actions.push(a),
                            Err(e) => notice(key, item, e.0),
                        }
                    }
                }
                name if ModelParams::spec(name).is_ok() => {
                    let spec = ModelParams::spec(name).expect("checked just above");
                    match value
                        .parse::<f64>()
                        .map_err(|_| ())
                        .and_then(|x| state.params.set(name, x).map_err(|_| ()))
                    {
                        Ok(()) => {}
                        Err(()) => notice(key, value, spec.allowed()),
                    }
                }
                _ => rest.push((key.clone(), value.clone())),
            }
        }
        // Replay needs actions in time order; keep the given order within a minute.
        state.actions.sort_by_key(|a| a.minute);
        (state, notices, rest)
    }

    /// The pairs that reproduce this state (parameters only where they differ from defaults).
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut pairs = vec![("scenario".to_string(), self.scenario.clone())];
        if let Some(seed) = self.seed {
            pairs.push(("seed".into(), seed.to_string()));
        }
        let defaults = ModelParams::default();
        for spec in ModelParams::SPECS {
            let (v, d) = (self.params.get(spec.name), defaults.get(spec.name));
            if v != d {
                if let Some(v) = v {
                    pairs.push((spec.name.into(), format!("{v}")));
                }
            }
        }
        if !self.actions.is_empty() {
            let list: Vec<String> = self.actions.iter().map(Action::encode).collect();
            pairs.push(("actions".into(), list.join(",")));
        }
        if let Some(m) = self.minute {
            pairs.push(("t".into(), m.to_string()));
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
        q.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn round_trip() {
        let mut params = ModelParams::default();
        params.set("timeout_s", 3.0).unwrap();
        let state = ShareState {
            scenario: "bad-deploy".into(),
            seed: Some(77),
            params,
            actions: vec![
                Action::parse("3:min_instances=12", 100).unwrap(),
                Action::parse("14:rollback", 100).unwrap(),
            ],
            minute: Some(30),
        };
        let (back, notices, rest) = ShareState::from_pairs(&state.to_pairs());
        assert_eq!(back, state);
        assert!(notices.is_empty() && rest.is_empty());
    }

    #[test]
    fn bad_values_are_reported_and_the_rest_kept() {
        let (s, notices, rest) = ShareState::from_pairs(&pairs(&[
            ("seed", "abc"),
            ("scenario", "nope"),
            ("timeout_s", "999"),
            ("workers_per_instance", "8"),
            ("actions", "3:rollback,zz,5:min_instances=500,7:warm_cache"),
            ("lang", "es"),
        ]));
        let named: Vec<&str> = notices.iter().map(|n| n.param.as_str()).collect();
        assert_eq!(
            named,
            ["seed", "scenario", "timeout_s", "actions", "actions"]
        );
        assert_eq!(s.seed, None);
        assert_eq!(s.scenario, "free-play");
        assert_eq!(s.params.timeout_s, 2.0);
        assert_eq!(s.params.workers_per_instance, 8.0);
        let kept: Vec<String> = s.actions.iter().map(Action::encode).collect();
        assert_eq!(kept, ["3:rollback", "7:warm_cache"]);
        assert_eq!(rest, pairs(&[("lang", "es")]));
        assert!(
            notices[2].allowed.contains("0.05 to 60"),
            "{:?}",
            notices[2]
        );
    }
}
