//! A fault injected during a run (the facilitator's console, or a link): one of the fault
//! kinds of an exercise's timeline ([`crate::exercise::faults`]) with each field fixed, at the
//! minute the action applies. As an action it is `inject=KIND/FIELD=VALUE/…`
//! (`31:inject=cache_flush/share=0.8`), so the run's log, its link and its replay carry it.
//!
//! The kinds are those the minute model scripts whatever the engine: a bad deploy, a cache
//! flush, a slower dependency, a configuration change that cuts capacity, a noisy neighbour
//! (a zone outage or a database failure is injected with the regional actions).

use crate::exercise::faults::{self, FaultKind, Span};

/// The kinds a run can have injected.
pub const KINDS: &[&str] = &[
    "bad_deploy",
    "cache_flush",
    "dependency_latency",
    "capacity_cut",
    "noisy_neighbour",
];

/// A fault to inject: its kind and each field but `at`, in the kind's order.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultInject {
    pub kind: &'static FaultKind,
    pub values: Vec<f64>,
}

impl FaultInject {
    /// `KIND/FIELD=VALUE/…`: every field of the kind but `at`, each once, within its range
    /// (in any order). `None` when it is not.
    pub fn parse(text: &str) -> Option<Self> {
        let mut parts = text.split('/');
        let name = parts.next()?.trim();
        if !KINDS.contains(&name) {
            return None;
        }
        let kind = faults::kind(name)?;
        let fields: Vec<_> = kind.fields.iter().filter(|f| f.name != "at").collect();
        let mut values: Vec<Option<f64>> = vec![None; fields.len()];
        for part in parts {
            let (field, value) = part.split_once('=')?;
            let i = fields.iter().position(|f| f.name == field.trim())?;
            let x: f64 = value.trim().parse().ok().filter(|x: &f64| x.is_finite())?;
            let f = fields[i];
            let whole = !matches!(f.kind, faults::FieldKind::Number);
            if values[i].is_some() || x < f.lo || x > f.hi || (whole && x.fract() != 0.0) {
                return None;
            }
            values[i] = Some(x);
        }
        let values = values.into_iter().collect::<Option<Vec<f64>>>()?;
        Some(Self { kind, values })
    }

    /// The inverse of [`FaultInject::parse`].
    pub fn value(&self) -> String {
        let mut out = self.kind.name.to_string();
        let fields = self.kind.fields.iter().filter(|f| f.name != "at");
        for (f, x) in fields.zip(&self.values) {
            out.push_str(&format!("/{}={x}", f.name));
        }
        out
    }

    /// Its fields' values when it applies at `minute` (`at` is that minute; each value
    /// fixed, so the seed draws nothing), in the kind's order, as
    /// [`crate::exercise::injects::inject`] reads them.
    pub fn spans(&self, minute: u32) -> Vec<Span> {
        let mut others = self.values.iter();
        self.kind
            .fields
            .iter()
            .map(|f| {
                let x = if f.name == "at" {
                    f64::from(minute)
                } else {
                    others.next().copied().unwrap_or(f.lo)
                };
                (x, x)
            })
            .collect()
    }
}

/// What `inject`'s value must be.
pub fn allowed() -> crate::message::Message {
    crate::message::Message::new(crate::message::MessageId::ActionAllowedInject)
        .codes("kinds", KINDS.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inject_reads_back_as_written_and_scripts_its_fault_at_its_minute() {
        let flush = FaultInject::parse("cache_flush/share=0.8").unwrap();
        assert_eq!(flush.value(), "cache_flush/share=0.8");
        assert_eq!(
            crate::exercise::injects::inject(flush.kind, &flush.spans(31)).script(0),
            [crate::scenario::Scripted::CacheFlush {
                minute: 31,
                share: 0.8
            }]
        );
        let slow = FaultInject::parse("dependency_latency/extra_ms=150/minutes=20").unwrap();
        assert_eq!(slow.value(), "dependency_latency/minutes=20/extra_ms=150");
        assert_eq!(FaultInject::parse(&slow.value()), Some(slow));
        for bad in [
            "meteor/size=1",
            "hot_key/minutes=3/share=0.5",
            "cache_flush",
            "cache_flush/share=2",
            "cache_flush/share=0.5/share=0.6",
            "cache_flush/depth=1/share=0.5",
            "dependency_latency/minutes=2.5/extra_ms=100",
            "cache_flush/share=NaN",
        ] {
            assert_eq!(FaultInject::parse(bad), None, "{bad}");
        }
    }

    /// An injected flush in a run is the flush an exercise's timeline scripts at that minute:
    /// the same minutes, the same events.
    #[test]
    fn an_injected_flush_runs_as_a_scripted_one() {
        use crate::action::Action;
        use crate::ids::ScenarioId;
        use crate::setup::RunSetup;
        let mut injected = RunSetup::new(ScenarioId::FreePlay, 4);
        injected.actions = vec![Action::parse("30:inject=cache_flush/share=0.9", 100).unwrap()];
        let injected = injected.run(60).unwrap();
        let mut exercise = crate::exercise::builtin(ScenarioId::FreePlay);
        exercise
            .scenario
            .timeline
            .push(crate::scenario::Inject::CacheFlush(
                crate::scenario::FlushDraw {
                    minute: (30, 30),
                    share: (0.9, 0.9),
                },
            ));
        let scripted = RunSetup::for_exercise(exercise, 4)
            .unwrap()
            .run(60)
            .unwrap();
        assert!(injected.history[30].cache_hit < injected.history[29].cache_hit - 0.2);
        assert_eq!(injected.history, scripted.history);
        let kinds = |o: &crate::setup::RunOutcome| {
            o.events
                .iter()
                .filter(|e| !matches!(e.kind, crate::event::EventKind::Action { .. }))
                .map(|e| format!("{} {:?}", e.minute, e.kind))
                .collect::<Vec<_>>()
        };
        assert_eq!(kinds(&injected), kinds(&scripted));
    }
}
