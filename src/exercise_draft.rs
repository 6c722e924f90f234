//! The exercise editor's draft (the extended build): an exercise file as the form's fields,
//! each as the text a person typed, written back into the file's JSON and checked by the
//! core's one reader, so that the editor's errors are `oncall-sim scenario check`'s (the
//! field, its line and column, what is allowed). A number field holds one number or a range
//! `lo, hi`; text that is neither is written as a string, for the reader to name.

use oncall_sim::exercise::{faults, file, Exercise};
use oncall_sim::json::{self, Map, Number, Value};

/// One inject of the timeline: its fault kind and its fields' text, in the kind's order.
#[derive(Clone, Debug, PartialEq)]
pub struct InjectDraft {
    pub fault: String,
    pub fields: Vec<(String, String)>,
}

impl InjectDraft {
    /// A new inject of kind `fault` (its fields at their lowest allowed values, `at` at 10).
    pub fn new(fault: &str) -> Self {
        let fields = faults::kind(fault)
            .map(|k| {
                k.fields
                    .iter()
                    .map(|f| {
                        let value = if f.name == "at" { 10.0 } else { f.lo.max(0.0) };
                        (f.name.to_string(), number_text(value))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self {
            fault: fault.to_string(),
            fields,
        }
    }

    /// Another kind: the fields both kinds have keep their text.
    pub fn with_kind(&self, fault: &str) -> Self {
        let mut next = Self::new(fault);
        for (name, text) in &mut next.fields {
            if let Some((_, old)) = self.fields.iter().find(|(n, _)| n == name) {
                text.clone_from(old);
            }
        }
        next
    }
}

/// One hint: `at`, `paged_without_action` or `budget_below`, its number and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct HintDraft {
    pub when: String,
    pub value: String,
    pub text: String,
}

/// One step of the expected response: `page` or `first_errors`, and the action.
#[derive(Clone, Debug, PartialEq)]
pub struct StepDraft {
    pub when: String,
    pub action: String,
}

/// The objectives' fields, in the file's order.
pub const OBJECTIVES: [&str; 4] = [
    "budget_left_at_least",
    "minutes_paging_at_most",
    "cost_at_most",
    "minutes_to_mitigate_at_most",
];

/// An exercise as the editor's fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    /// The file's other members (format, version, id, budget, service, controls), kept.
    base: Map,
    pub title: String,
    pub briefing: String,
    pub lesson: String,
    pub start: String,
    pub minutes: String,
    /// Run parameters, `NAME=VALUE` one per line.
    pub params: String,
    pub timeline: Vec<InjectDraft>,
    pub objectives: [String; 4],
    pub hints: Vec<HintDraft>,
    pub expected: Vec<StepDraft>,
}

/// A number as the form shows it.
fn number_text(x: f64) -> String {
    format!("{x}")
}

/// A value of the file as the form shows it: a number, a range as `lo, hi`, a string.
fn value_text(v: &Value) -> String {
    match v {
        Value::Number(n) => number_text(n.value),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(", "),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

/// The text of a number field as the file's value: a number, a range `[lo, hi]`, or the
/// text itself (which the reader then names as not a number).
fn field_value(text: &str) -> Value {
    let number = |t: &str| {
        let t = t.trim();
        t.parse::<f64>().ok().filter(|x| x.is_finite()).map(|x| {
            Value::Number(Number {
                value: x,
                whole: x.fract() == 0.0,
            })
        })
    };
    if let Some(n) = number(text) {
        return n;
    }
    if let Some((lo, hi)) = text.split_once(',') {
        if let (Some(lo), Some(hi)) = (number(lo), number(hi)) {
            return Value::Array(vec![lo, hi]);
        }
    }
    Value::String(text.trim().to_string())
}

fn text_of(map: &Map, key: &str) -> String {
    map.get(key).map(value_text).unwrap_or_default()
}

impl Draft {
    /// The draft of `exercise`.
    pub fn of(exercise: &Exercise) -> Self {
        let text = file::write(exercise);
        let root = match json::parse(&text) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let list = |key: &str| {
            root.get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let objects = |key: &str| -> Vec<Map> {
            list(key)
                .into_iter()
                .filter_map(|v| v.as_object().cloned())
                .collect()
        };
        let timeline = objects("timeline")
            .into_iter()
            .map(|m| InjectDraft {
                fault: text_of(&m, "fault"),
                fields: m
                    .iter()
                    .filter(|(k, _)| *k != "fault")
                    .map(|(k, v)| (k.clone(), value_text(v)))
                    .collect(),
            })
            .collect();
        let hints = objects("hints")
            .into_iter()
            .map(|m| {
                let (when, value) = if m.contains_key("at") {
                    ("at".to_string(), text_of(&m, "at"))
                } else {
                    let when = text_of(&m, "when");
                    let value = text_of(
                        &m,
                        if when == "budget_below" {
                            "share"
                        } else {
                            "minutes"
                        },
                    );
                    (when, value)
                };
                HintDraft {
                    when,
                    value,
                    text: text_of(&m, "text"),
                }
            })
            .collect();
        let expected = objects("expected_response")
            .into_iter()
            .map(|m| StepDraft {
                when: text_of(&m, "when"),
                action: text_of(&m, "action"),
            })
            .collect();
        let objectives = root.get("objectives").and_then(Value::as_object);
        let params = root
            .get("params")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| format!("{k}={}", value_text(v)))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        let mut base = Map::new();
        for (key, value) in root.iter() {
            if !EDITED.contains(&key.as_str()) {
                base.insert(key.clone(), value.clone());
            }
        }
        Self {
            base,
            title: text_of(&root, "title"),
            briefing: text_of(&root, "briefing"),
            lesson: text_of(&root, "lesson"),
            start: text_of(&root, "start"),
            minutes: text_of(&root, "minutes"),
            params,
            timeline,
            objectives: OBJECTIVES.map(|o| objectives.map(|m| text_of(m, o)).unwrap_or_default()),
            hints,
            expected,
        }
    }

    /// The file's text: the kept members and the edited ones, in the file's order.
    pub fn to_text(&self) -> String {
        let mut map = Map::new();
        let s = |t: &str| Value::String(t.to_string());
        for key in file::TOP_FIELDS {
            let value = match *key {
                "title" => Some(s(&self.title)),
                "briefing" => Some(s(&self.briefing)),
                "lesson" => Some(s(&self.lesson)),
                "start" => Some(s(self.start.trim())),
                // Empty: an endless exercise (free play's `null`).
                "minutes" => Some(if self.minutes.trim().is_empty() {
                    Value::Null
                } else {
                    field_value(&self.minutes)
                }),
                "params" => {
                    let mut params = Map::new();
                    for line in self.params.lines().map(str::trim).filter(|l| !l.is_empty()) {
                        let (name, value) = line.split_once('=').unwrap_or((line, ""));
                        let value = match field_value(value) {
                            Value::Number(n) => Value::Number(n),
                            _ => s(value.trim()),
                        };
                        params.insert(name.trim().to_string(), value);
                    }
                    (!params.is_empty()).then_some(Value::Object(params))
                }
                "timeline" => Some(Value::Array(
                    self.timeline
                        .iter()
                        .map(|i| {
                            let mut m = Map::new();
                            m.insert("fault".into(), s(&i.fault));
                            for (name, text) in &i.fields {
                                m.insert(name.clone(), field_value(text));
                            }
                            Value::Object(m)
                        })
                        .collect(),
                )),
                "expected_response" => Some(Value::Array(
                    self.expected
                        .iter()
                        .map(|step| {
                            let mut m = Map::new();
                            m.insert("when".into(), s(&step.when));
                            m.insert("action".into(), s(step.action.trim()));
                            Value::Object(m)
                        })
                        .collect(),
                )),
                "objectives" => {
                    let mut m = Map::new();
                    for (name, text) in OBJECTIVES.iter().zip(&self.objectives) {
                        if !text.trim().is_empty() {
                            m.insert(name.to_string(), field_value(text));
                        }
                    }
                    (!m.is_empty()).then_some(Value::Object(m))
                }
                "hints" => (!self.hints.is_empty()).then(|| {
                    Value::Array(
                        self.hints
                            .iter()
                            .map(|h| {
                                let mut m = Map::new();
                                match h.when.as_str() {
                                    "at" => m.insert("at".into(), field_value(&h.value)),
                                    when => {
                                        m.insert("when".into(), s(when));
                                        let key = if when == "budget_below" {
                                            "share"
                                        } else {
                                            "minutes"
                                        };
                                        m.insert(key.into(), field_value(&h.value));
                                    }
                                }
                                m.insert("text".into(), s(&h.text));
                                Value::Object(m)
                            })
                            .collect(),
                    )
                }),
                other => self.base.get(other).cloned(),
            };
            if let Some(value) = value {
                map.insert(key.to_string(), value);
            }
        }
        let mut text = Value::Object(map).to_readable();
        text.push('\n');
        text
    }

    /// The exercise, or where and why the reader refuses it.
    pub fn check(&self) -> Result<Exercise, file::ExerciseError> {
        file::read(&self.to_text())
    }
}

/// The members the form edits.
const EDITED: &[&str] = &[
    "title",
    "briefing",
    "lesson",
    "start",
    "minutes",
    "params",
    "timeline",
    "expected_response",
    "objectives",
    "hints",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str) -> Exercise {
        let text = match name {
            "cache" => include_str!("../sim/tests/data/exercises/good/cache-flush-at-14.json"),
            _ => include_str!("../sim/tests/data/exercises/good/dependency-and-neighbour.json"),
        };
        file::read(text).unwrap()
    }

    #[test]
    fn a_draft_left_alone_is_its_exercise() {
        for name in ["cache", "dependency"] {
            let exercise = example(name);
            let draft = Draft::of(&exercise);
            assert_eq!(draft.check().unwrap(), exercise, "{name}");
            assert_eq!(draft.to_text(), file::write(&exercise), "{name}");
        }
        for id in oncall_sim::ids::ScenarioId::ALL {
            let mut exercise = oncall_sim::exercise::builtin(*id);
            let mut back = Draft::of(&exercise).check().unwrap();
            back.scenario.id = *id;
            exercise.scenario.id = *id;
            assert_eq!(back, exercise, "{id}");
        }
    }

    #[test]
    fn edits_reach_the_exercise_and_mistakes_are_named_by_the_reader() {
        let mut draft = Draft::of(&example("cache"));
        draft.title = "Flush at two".into();
        draft.timeline[0].fields[0].1 = "20, 30".into();
        draft
            .timeline
            .push(InjectDraft::new("slow_instance").with_kind("dependency_latency"));
        draft.objectives[1] = "40".into();
        draft.hints.push(HintDraft {
            when: "budget_below".into(),
            value: "0.5".into(),
            text: "Half the budget is gone.".into(),
        });
        let exercise = draft.check().unwrap();
        assert_eq!(exercise.title, "Flush at two");
        assert_eq!(exercise.scenario.timeline.len(), 2);
        assert_eq!(exercise.objectives.minutes_paging_at_most, Some(40));
        assert_eq!(exercise.hints.len(), 2);
        // A minute past the end, a word for a number, an unknown kind: the reader's errors.
        draft.timeline[0].fields[0].1 = "500".into();
        let e = draft.check().unwrap_err();
        assert_eq!(e.field, "timeline[0].at");
        draft.timeline[0].fields[0].1 = "soon".into();
        assert_eq!(draft.check().unwrap_err().field, "timeline[0].at");
        draft.timeline[0].fields[0].1 = "12".into();
        draft.timeline[1].fault = "meteor".into();
        assert!(draft
            .check()
            .unwrap_err()
            .to_string()
            .contains("unknown fault kind"));
    }
}
