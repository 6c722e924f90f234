//! A run as a file: what the console's export writes and its import reads back, and the
//! minute records as CSV and JSON lines (the command line's `run` writes the same bytes).
//!
//! A run file names everything that determines the run (the scenario or the author's
//! exercise, the seed, the settings that differ from the defaults, the actions) and how far
//! it was played, in the link's own spellings, plus the records of the minutes played for
//! whoever reads the file without the simulator:
//!
//! ```json
//! { "format": "oncall-sim run", "version": 1, "scenario": "bad-deploy", "seed": 7,
//!   "minutes": 30, "settings": { "autoscaler": "hpa" }, "actions": ["13:rollback"],
//!   "records": [ { "minute": 0, "clock": "09:00", … }, … ] }
//! ```
//!
//! Importing replays the run from its set-up; the records are not read back (the same
//! set-up gives the same records, bit for bit). The settings and actions are read as a link's
//! are ([`crate::share::ShareState::from_pairs`]): one that is not allowed gives a notice
//! naming it, and every valid one is kept. What makes the file unreadable as a whole (not
//! JSON, another format, a newer version, a missing or mistyped field) is one error with its
//! line and column.

use crate::exercise::file::ExerciseError;
use crate::exercise::Exercise;
use crate::json::{self, Value};
use crate::message::{Message, MessageId};
use crate::record::MinuteRecord;
use crate::share::{ShareState, MAX_MINUTE};

/// The `format` field of a run file.
pub const FORMAT: &str = "oncall-sim run";
/// The version this program writes and the newest it reads.
pub const VERSION: u32 = 1;
/// Largest run file a reader should take (64 MiB: a month of minutes with their records);
/// [`read`] reads whatever it is given, and the console refuses a larger file before.
pub const MAX_BYTES: usize = 64 * 1024 * 1024;

/// The top-level fields of a run file, in the order written.
pub const FIELDS: &[&str] = &[
    "format", "version", "scenario", "exercise", "seed", "minutes", "settings", "actions",
    "records",
];

/// Why a run file cannot be read: where (line and column from 1, and the field's path) and
/// what is wrong, as an exercise file's errors say it.
pub type RunFileError = ExerciseError;

/// The minute records as CSV: a header of the records' field names, then one row per minute.
pub fn records_csv(records: &[MinuteRecord]) -> String {
    let mut out = String::new();
    for record in records {
        let value = serde_json::to_value(record).unwrap_or_default();
        if let serde_json::Value::Object(map) = value {
            if out.is_empty() {
                let header: Vec<&str> = map.keys().map(String::as_str).collect();
                out.push_str(&header.join(","));
                out.push('\n');
            }
            let cells: Vec<String> = map.values().map(csv_value).collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
    }
    out
}

/// The minute records as JSON lines, one object per minute.
pub fn records_json_lines(records: &[MinuteRecord]) -> String {
    let mut out = String::new();
    for record in records {
        out.push_str(&serde_json::to_string(record).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// A JSON value as a CSV cell (RFC 4180): a string as itself, quoted when it holds a comma,
/// a quote or a line break; anything else as its JSON text.
pub fn csv_value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => csv_text(s),
        other => other.to_string(),
    }
}

/// A text as a CSV cell (RFC 4180): quoted, its quotes doubled, when it holds a comma, a
/// quote or a line break.
pub fn csv_text(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// The event log as CSV: `minute,clock,second,region,event,text`, one row per event; `event`
/// is the event's name in the command line's JSON (`page_fired`, …) and `text` what `text`
/// says of it (the console's words, in the page's language). `second` and `region` are empty
/// where the event has none.
pub fn events_csv(
    events: &[crate::event::Event],
    text: impl Fn(&crate::event::Event) -> String,
) -> String {
    let mut out = String::from("minute,clock,second,region,event,text\n");
    for event in events {
        let name = serde_json::to_value(&event.kind)
            .ok()
            .and_then(|v| v.get("event").and_then(|n| n.as_str().map(str::to_owned)))
            .unwrap_or_default();
        let second = event.second.map(|s| s.to_string()).unwrap_or_default();
        let cells = [
            event.minute.to_string(),
            event.clock.to_string(),
            second,
            csv_text(event.region.unwrap_or("")),
            csv_text(&name),
            csv_text(&text(event)),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// The run file of the run `state` describes with `seed`, played for `records.len()` minutes.
pub fn write(state: &ShareState, seed: u32, records: &[MinuteRecord]) -> String {
    use serde_json::Value as J;
    let mut top = serde_json::Map::new();
    top.insert("format".into(), J::from(FORMAT));
    top.insert("version".into(), J::from(VERSION));
    top.insert("scenario".into(), J::from(state.scenario.as_str()));
    #[cfg(feature = "extended")]
    if let Some(exercise) = &state.exercise {
        let text = crate::exercise::file::write(exercise);
        // The canonical file is JSON; kept as its text should that ever change.
        let value = serde_json::from_str(&text).unwrap_or(J::String(text));
        top.insert("exercise".into(), value);
    }
    top.insert("seed".into(), J::from(seed));
    top.insert("minutes".into(), J::from(records.len()));
    let mut settings = serde_json::Map::new();
    let mut actions = Vec::new();
    for (key, value) in state.to_pairs() {
        match key.as_str() {
            "scenario" | "seed" | "t" => {}
            "actions" => actions = value.split(',').map(J::from).collect(),
            _ => {
                settings.insert(key, J::from(value));
            }
        }
    }
    top.insert("settings".into(), J::Object(settings));
    top.insert("actions".into(), J::Array(actions));
    let records = records
        .iter()
        .map(|r| serde_json::to_value(r).unwrap_or_default())
        .collect();
    top.insert("records".into(), J::Array(records));
    let mut text = serde_json::to_string_pretty(&J::Object(top)).unwrap_or_default();
    text.push('\n');
    text
}

/// A run file read: the link's pairs that replay it (`scenario`, `seed`, the settings, the
/// actions, `t`) and the author's exercise it plays, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadRun {
    pub pairs: Vec<(String, String)>,
    pub exercise: Option<Exercise>,
}

/// Reads a run file (of at most [`MAX_BYTES`], which the caller checks). The settings and
/// actions are not checked here: they go to the link's reader with the rest of the pairs,
/// which says what is wrong with each.
pub fn read(text: &str) -> Result<ReadRun, RunFileError> {
    let value = json::parse(text).map_err(crate::exercise::file::syntax_error)?;
    run(&value).map_err(|(path, message)| {
        let (line, column) = json::locate(text, &path);
        ExerciseError {
            field: crate::exercise::file::path_text(&path),
            line,
            column,
            message,
        }
    })
}

type Problem = (Vec<json::Step>, Message);

fn at(path: &[&str]) -> Vec<json::Step> {
    path.iter()
        .map(|k| json::Step::Key((*k).to_owned()))
        .collect()
}

fn wrong_type(path: &[&str], expected: &'static str) -> Problem {
    (
        at(path),
        Message::new(MessageId::ExerciseWrongType).code("expected", expected),
    )
}

fn run(value: &Value) -> Result<ReadRun, Problem> {
    let top = value.as_object().ok_or_else(|| wrong_type(&[], "object"))?;
    let required = |name: &'static str| {
        top.get(name).ok_or_else(|| {
            (
                Vec::new(),
                Message::new(MessageId::ExerciseMissing).code("field", name),
            )
        })
    };
    // The format and version first: a newer file is refused for what it is, not for a field
    // this version does not know.
    if required("format")?.as_str() != Some(FORMAT) {
        return Err((
            at(&["format"]),
            Message::new(MessageId::ExerciseFormat).code("expected", FORMAT),
        ));
    }
    let version = whole_number(required("version")?, "version", 1, u64::from(u32::MAX))?;
    if version > u64::from(VERSION) {
        return Err((
            at(&["version"]),
            Message::new(MessageId::ExerciseNewer)
                .int("version", i64::try_from(version).unwrap_or(i64::MAX))
                .int("supported", i64::from(VERSION)),
        ));
    }
    for (key, _) in top.iter() {
        if !FIELDS.contains(&key.as_str()) {
            return Err((
                at(&[key]),
                Message::new(MessageId::ExerciseUnknownField)
                    .given("field", key.clone())
                    .codes("allowed", FIELDS.to_vec()),
            ));
        }
    }
    let scenario = required("scenario")?
        .as_str()
        .ok_or_else(|| wrong_type(&["scenario"], "string"))?;
    let exercise = match top.get("exercise") {
        None => None,
        Some(v) => Some(exercise(v)?),
    };
    let seed = whole_number(required("seed")?, "seed", 0, u64::from(u32::MAX))?;
    let minutes = whole_number(required("minutes")?, "minutes", 0, u64::from(MAX_MINUTE))?;
    let mut pairs = vec![
        ("scenario".to_owned(), scenario.to_owned()),
        ("seed".to_owned(), seed.to_string()),
    ];
    if let Some(settings) = top.get("settings") {
        let settings = settings
            .as_object()
            .ok_or_else(|| wrong_type(&["settings"], "object"))?;
        for (key, value) in settings.iter() {
            pairs.push((key.clone(), setting_text(value, key)?));
        }
    }
    if let Some(actions) = top.get("actions") {
        let list = actions
            .as_array()
            .ok_or_else(|| wrong_type(&["actions"], "list"))?;
        let mut encoded = Vec::with_capacity(list.len());
        for (i, action) in list.iter().enumerate() {
            let text = action.as_str().ok_or_else(|| {
                (
                    vec![json::Step::Key("actions".into()), json::Step::Index(i)],
                    Message::new(MessageId::ExerciseWrongType).code("expected", "string"),
                )
            })?;
            encoded.push(text);
        }
        if !encoded.is_empty() {
            pairs.push(("actions".to_owned(), encoded.join(",")));
        }
    }
    if let Some(records) = top.get("records") {
        records
            .as_array()
            .ok_or_else(|| wrong_type(&["records"], "list"))?;
    }
    pairs.push(("t".to_owned(), minutes.to_string()));
    Ok(ReadRun { pairs, exercise })
}

/// A whole number in `lo..=hi`.
fn whole_number(v: &Value, name: &'static str, lo: u64, hi: u64) -> Result<u64, Problem> {
    let x = v.as_f64().ok_or_else(|| wrong_type(&[name], "number"))?;
    if x.fract() != 0.0 || x < lo as f64 || x > hi as f64 {
        return Err((
            at(&[name]),
            Message::new(MessageId::MustBe).msg(
                "range",
                Message::new(MessageId::RangeWhole)
                    .int("min", i64::try_from(lo).unwrap_or(i64::MAX))
                    .int("max", i64::try_from(hi).unwrap_or(i64::MAX)),
            ),
        ));
    }
    // In range, so exact.
    Ok(x as u64)
}

/// A setting's value as the link spells it: a text as itself, a number or a switch as its
/// JSON text.
fn setting_text(v: &Value, key: &str) -> Result<String, Problem> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(_) | Value::Bool(_) => Ok(v.to_pretty()),
        _ => Err((
            vec![
                json::Step::Key("settings".into()),
                json::Step::Key(key.to_owned()),
            ],
            Message::new(MessageId::ExerciseWrongType).code("expected", "string"),
        )),
    }
}

/// The author's exercise a run file carries: the exercise file itself, as an object (or as
/// its text), read by the exercise file's reader, whose error is given as is.
fn exercise(v: &Value) -> Result<Exercise, Problem> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Object(_) => v.to_pretty(),
        _ => return Err(wrong_type(&["exercise"], "object")),
    };
    crate::exercise::file::read(&text).map_err(|e| {
        let mut message = e.message;
        if !e.field.is_empty() {
            message = Message::new(MessageId::FieldProblem)
                .given("field", e.field)
                .msg("problem", message);
        }
        (at(&["exercise"]), message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::owned_pairs;

    fn played(pairs: &[(&str, &str)], minutes: u32) -> (ShareState, u32, Vec<MinuteRecord>) {
        let (state, notices, _) = ShareState::from_pairs(&owned_pairs(pairs));
        assert!(notices.is_empty(), "{notices:?}");
        let seed = state.seed.unwrap();
        let mut sim = state.simulation(seed).unwrap();
        let records = (0..minutes).map(|_| sim.step().clone()).collect();
        (state, seed, records)
    }

    #[test]
    fn a_run_file_reads_back_into_the_link_that_replays_it() {
        let (state, seed, records) = played(
            &[
                ("scenario", "bad-deploy"),
                ("seed", "7"),
                ("autoscaler", "hpa"),
                ("hpa.tolerance", "0.2"),
                ("actions", "13:rollback,20:min_instances=12"),
            ],
            30,
        );
        let text = write(&state, seed, &records);
        let read = read(&text).unwrap();
        assert!(read.exercise.is_none());
        let (back, notices, rest) = ShareState::from_pairs(&read.pairs);
        assert!(
            notices.is_empty() && rest.is_empty(),
            "{notices:?} {rest:?}"
        );
        assert_eq!(back.minute, Some(30));
        let mut expected = state.clone();
        expected.minute = Some(30);
        assert_eq!(back, expected);
        // Replayed, the same records, and so the same file.
        let mut sim = back.simulation(back.seed.unwrap()).unwrap();
        let again: Vec<MinuteRecord> = (0..30).map(|_| sim.step().clone()).collect();
        assert_eq!(write(&back, seed, &again), text);
    }

    #[cfg(feature = "extended")]
    #[test]
    fn an_authors_exercise_travels_in_the_file() {
        let text = crate::exercise::builtin_text(crate::ids::ScenarioId::CacheFlush);
        let exercise = std::sync::Arc::new(crate::exercise::file::read(text).unwrap());
        let mut state = ShareState::of_exercise(exercise.clone()).unwrap();
        state.seed = Some(3);
        let mut sim = state.simulation(3).unwrap();
        let records: Vec<MinuteRecord> = (0..5).map(|_| sim.step().clone()).collect();
        let file = write(&state, 3, &records);
        let read = read(&file).unwrap();
        assert_eq!(read.exercise.as_ref(), Some(exercise.as_ref()));
    }

    #[test]
    fn the_records_are_the_command_lines_csv_and_json_lines() {
        let (_, _, records) = played(&[("scenario", "bad-deploy"), ("seed", "7")], 3);
        let csv = records_csv(&records);
        let mut lines = csv.lines();
        let header = lines.next().unwrap();
        assert!(
            header.starts_with("minute,clock,requests_per_s,serving,"),
            "{header}"
        );
        assert_eq!(lines.count(), 3);
        assert_eq!(records_json_lines(&records).lines().count(), 3);
        assert_eq!(csv_text("a,\"b\""), "\"a,\"\"b\"\"\"");
        let (state, seed, _) = played(
            &[
                ("scenario", "bad-deploy"),
                ("seed", "7"),
                ("actions", "13:rollback"),
            ],
            0,
        );
        let mut sim = state.simulation(seed).unwrap();
        for _ in 0..20 {
            sim.step();
        }
        let events = events_csv(sim.events(), |e| {
            format!("at {}, \"{}\"", e.clock, e.minute)
        });
        let mut rows = events.lines();
        assert_eq!(rows.next(), Some("minute,clock,second,region,event,text"));
        let rows: Vec<&str> = rows.collect();
        assert_eq!(rows.len(), sim.events().len());
        let rollback = rows.iter().find(|r| r.starts_with("13,")).unwrap();
        assert!(
            rollback.contains(",action,\"at 09:13, \"\"13\"\"\""),
            "{rollback}"
        );
        assert_eq!(csv_text("plain"), "plain");
    }

    fn error_of(text: &str) -> RunFileError {
        read(text).unwrap_err()
    }

    #[test]
    fn what_makes_a_file_unreadable_is_named_with_its_place() {
        let e = error_of("{\"format\": \"oncall-sim run\", \"version\": 2}");
        assert_eq!(e.field, "version");
        assert_eq!(
            e.message.to_string(),
            "version 2 is newer than this program reads (version 1): open it with a newer simulator"
        );
        let e = error_of("{\"format\": \"oncall-sim exercise\", \"version\": 1}");
        assert_eq!(e.field, "format");
        assert!(e.message.to_string().contains("oncall-sim run"), "{e}");
        let e = error_of("[1, 2");
        assert_eq!(e.line, 1);
        let e = error_of(
            "{\"format\": \"oncall-sim run\", \"version\": 1, \"scenario\": \"bad-deploy\",\n \
             \"seed\": 7, \"minutes\": 3, \"colour\": 1}",
        );
        assert_eq!((e.field.as_str(), e.line), ("colour", 2));
        assert!(
            e.message.to_string().contains("allowed: format, version"),
            "{e}"
        );
        let e = error_of(
            "{\"format\": \"oncall-sim run\", \"version\": 1, \"scenario\": \"bad-deploy\", \
             \"seed\": -1, \"minutes\": 3}",
        );
        assert_eq!(e.field, "seed");
        let e = error_of("{\"format\": \"oncall-sim run\", \"version\": 1, \"seed\": 1}");
        assert!(e.message.to_string().contains("\"scenario\""), "{e}");
    }

    #[test]
    fn a_bad_setting_is_left_to_the_links_reader_which_keeps_the_rest() {
        let text =
            "{\"format\": \"oncall-sim run\", \"version\": 1, \"scenario\": \"bad-deploy\", \
                    \"seed\": 7, \"minutes\": 12, \"settings\": {\"autoscaler\": \"hpa\", \
                    \"hpa.tolerance\": 7}, \"actions\": [\"5:rollback\"]}";
        let read = read(text).unwrap();
        let (state, notices, _) = ShareState::from_pairs(&read.pairs);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].param, "hpa.tolerance");
        assert_eq!(state.autoscaler.as_str(), "hpa");
        assert_eq!(state.actions.len(), 1);
        assert_eq!((state.seed, state.minute), (Some(7), Some(12)));
    }
}
