//! An exercise's file: reading it (every error names the field, its line and column, and
//! what is allowed) and writing it (the canonical form `scenario export` prints and the
//! built-in files are in). The format is documented in `docs/scenario.md` and
//! `docs/scenario.schema.json`.

use core::fmt;

use super::faults::{self, FaultKind, FieldKind, Span};
use super::injects;
use super::{Exercise, Hint, HintTrigger, Objectives, Step, When};
use crate::action::{ActionKind, Settings};
use crate::ids::ScenarioId;
use crate::json::{self, Map, Number, Value};
use crate::message::{Message, MessageId};
use crate::params::EngineKind;
use crate::scenario::{Inject, Scenario};

/// What the file says it is.
pub const FORMAT: &str = "oncall-sim exercise";
/// The version of the format this program reads and writes.
pub const VERSION: u32 = 1;
/// Largest file read, bytes.
pub const MAX_BYTES: usize = 64 * 1024;
/// Longest title, briefing, lesson and hint, characters.
pub const MAX_TITLE: usize = 80;
pub const MAX_TEXT: usize = 2000;
/// Most injects and hints.
pub const MAX_ITEMS: usize = 50;

/// The members of a file, in the order the format writes them.
pub const TOP_FIELDS: &[&str] = &[
    "format",
    "version",
    "id",
    "title",
    "briefing",
    "lesson",
    "start",
    "minutes",
    "budget_left",
    "service",
    "controls",
    "params",
    "timeline",
    "expected_response",
    "objectives",
    "hints",
];
const SERVICE_FIELDS: &[&str] = &["instances", "base_rps", "boot_minutes", "engine", "regions"];
const OBJECTIVE_FIELDS: &[&str] = &[
    "budget_left_at_least",
    "minutes_paging_at_most",
    "cost_at_most",
    "minutes_to_mitigate_at_most",
];
const HINT_WHEN: &[&str] = &["paged_without_action", "budget_below"];
const STEP_WHEN: &[&str] = &["page", "first_errors"];
const STEP_FIELDS: &[&str] = &["when", "action"];
/// The controls an exercise may set at the start (the actions that set a value).
const CONTROLS: &[&str] = &[
    "min_instances",
    "autoscaling",
    "target_utilization",
    "cache_ttl_s",
    "shed_low_priority",
    "heavy_feature",
    "lb",
    "hedge",
];

/// Why a file is not a valid exercise, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct ExerciseError {
    /// The field, as a path (`timeline[1].at`); empty for the whole file.
    pub field: String,
    /// Line and column in the file, from 1.
    pub line: usize,
    pub column: usize,
    pub message: Message,
}

impl fmt::Display for ExerciseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)?;
        if !self.field.is_empty() {
            write!(f, ", {}", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ExerciseError {}

/// A problem found at `path` (located in the text once reading stops).
struct Problem {
    path: Vec<json::Step>,
    message: Message,
}

type Read<T> = Result<T, Problem>;

fn problem(path: &[json::Step], message: Message) -> Problem {
    Problem {
        path: path.to_vec(),
        message,
    }
}

fn key(path: &[json::Step], name: &str) -> Vec<json::Step> {
    let mut p = path.to_vec();
    p.push(json::Step::Key(name.to_string()));
    p
}

fn index(path: &[json::Step], i: usize) -> Vec<json::Step> {
    let mut p = path.to_vec();
    p.push(json::Step::Index(i));
    p
}

/// `timeline[1].at`.
pub(crate) fn path_text(path: &[json::Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            json::Step::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            json::Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Reads an exercise from its file's text.
pub fn read(text: &str) -> Result<Exercise, ExerciseError> {
    if text.len() > MAX_BYTES {
        return Err(ExerciseError {
            field: String::new(),
            line: 1,
            column: 1,
            message: Message::new(MessageId::ExerciseTooLarge)
                .int("size", text.len() as i64)
                .int("max", MAX_BYTES as i64),
        });
    }
    let value = json::parse(text).map_err(syntax_error)?;
    exercise(&value).map_err(|p| {
        let (line, column) = json::locate(text, &p.path);
        ExerciseError {
            field: path_text(&p.path),
            line,
            column,
            message: p.message,
        }
    })
}

/// A text that is not JSON, as a file's error: where and why.
pub(crate) fn syntax_error(e: json::SyntaxError) -> ExerciseError {
    ExerciseError {
        field: String::new(),
        line: e.line,
        column: e.column,
        message: Message::new(MessageId::JsonSyntax).given("detail", e.what.to_string()),
    }
}

fn object<'a>(v: &'a Value, path: &[json::Step], allowed: &[&'static str]) -> Read<&'a Map> {
    let map = v
        .as_object()
        .ok_or_else(|| problem(path, wrong_type("object")))?;
    for (k, _) in map.iter() {
        if !allowed.contains(&k.as_str()) {
            return Err(problem(
                &key(path, k),
                Message::new(MessageId::ExerciseUnknownField)
                    .given("field", k.clone())
                    .codes("allowed", allowed.to_vec()),
            ));
        }
    }
    Ok(map)
}

fn wrong_type(expected: &'static str) -> Message {
    Message::new(MessageId::ExerciseWrongType).code("expected", expected)
}

fn required<'a>(map: &'a Map, path: &[json::Step], name: &'static str) -> Read<&'a Value> {
    map.get(name).ok_or_else(|| {
        problem(
            path,
            Message::new(MessageId::ExerciseMissing).code("field", name),
        )
    })
}

fn string(v: &Value, path: &[json::Step], max: usize) -> Read<String> {
    let s = v
        .as_str()
        .ok_or_else(|| problem(path, wrong_type("string")))?;
    if s.chars().count() > max {
        return Err(problem(
            path,
            Message::new(MessageId::ExerciseTooLong).int("max", max as i64),
        ));
    }
    Ok(s.to_string())
}

fn text(map: &Map, path: &[json::Step], name: &'static str, max: usize) -> Read<String> {
    let p = key(path, name);
    let s = string(required(map, path, name)?, &p, max)?;
    if s.trim().is_empty() {
        return Err(problem(&p, Message::new(MessageId::ExerciseEmpty)));
    }
    Ok(s)
}

fn number(v: &Value, path: &[json::Step], lo: f64, hi: f64, whole: bool) -> Read<f64> {
    let x = v
        .as_f64()
        .ok_or_else(|| problem(path, wrong_type("number")))?;
    if x < lo || x > hi || (whole && x.fract() != 0.0) {
        let range = if whole {
            MessageId::RangeWhole
        } else {
            MessageId::RangeNumber
        };
        return Err(problem(
            path,
            Message::new(MessageId::ExerciseOutOfRange)
                .given("given", json_text(v))
                .msg("allowed", Message::new(range).num("min", lo).num("max", hi)),
        ));
    }
    Ok(x)
}

fn json_text(v: &Value) -> String {
    v.to_string()
}

fn optional_number(
    map: &Map,
    path: &[json::Step],
    name: &str,
    (lo, hi): (f64, f64),
    whole: bool,
) -> Read<Option<f64>> {
    map.get(name)
        .map(|v| number(v, &key(path, name), lo, hi, whole))
        .transpose()
}

fn exercise(v: &Value) -> Read<Exercise> {
    let root: &[json::Step] = &[];
    let top = object(v, root, TOP_FIELDS)?;
    let format = string(required(top, root, "format")?, &key(root, "format"), 100)?;
    if format != FORMAT {
        return Err(problem(
            &key(root, "format"),
            Message::new(MessageId::ExerciseFormat).code("expected", FORMAT),
        ));
    }
    let version = number(
        required(top, root, "version")?,
        &key(root, "version"),
        1.0,
        f64::from(u32::MAX),
        true,
    )?;
    if version > f64::from(VERSION) {
        return Err(problem(
            &key(root, "version"),
            Message::new(MessageId::ExerciseNewer)
                .num("version", version)
                .int("supported", i64::from(VERSION)),
        ));
    }
    let id = text(top, root, "id", 40)?;
    if !id
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(problem(
            &key(root, "id"),
            Message::new(MessageId::ExerciseId),
        ));
    }
    let title = text(top, root, "title", MAX_TITLE)?;
    let briefing = text(top, root, "briefing", MAX_TEXT)?;
    let lesson = match top.get("lesson") {
        Some(v) => string(v, &key(root, "lesson"), MAX_TEXT)?,
        None => String::new(),
    };
    let clock_min = start(required(top, root, "start")?, &key(root, "start"))?;
    let minutes = match required(top, root, "minutes")? {
        Value::Null => None,
        v => Some(number(v, &key(root, "minutes"), 1.0, 1440.0, true)? as u32),
    };
    let budget_left = number(
        required(top, root, "budget_left")?,
        &key(root, "budget_left"),
        0.0,
        1.0,
        false,
    )?;
    let mut scenario = Scenario {
        id: id.parse().unwrap_or(ScenarioId::FreePlay),
        clock_min,
        budget_left,
        boot_minutes: 2,
        base_rps: 900.0,
        instances: 10,
        settings: Settings::default(),
        timeline: Vec::new(),
        minutes,
        engine: EngineKind::Formulas,
        regions: 1,
    };
    if let Some(v) = top.get("service") {
        service(v, &key(root, "service"), &mut scenario)?;
    }
    if let Some(v) = top.get("controls") {
        controls(v, &key(root, "controls"), &mut scenario.settings)?;
    }
    let params = match top.get("params") {
        Some(v) => params(v, &key(root, "params"))?,
        None => Vec::new(),
    };
    if let Some(v) = top.get("timeline") {
        scenario.timeline = timeline(v, &key(root, "timeline"), &scenario)?;
    }
    let expected = match top.get("expected_response") {
        Some(v) => expected(v, &key(root, "expected_response"))?,
        None => Vec::new(),
    };
    let objectives = match top.get("objectives") {
        Some(v) => objectives(v, &key(root, "objectives"))?,
        None => Objectives::default(),
    };
    let hints = match top.get("hints") {
        Some(v) => hints(v, &key(root, "hints"), minutes)?,
        None => Vec::new(),
    };
    Ok(Exercise {
        id,
        title,
        briefing,
        lesson,
        scenario,
        params,
        expected,
        objectives,
        hints,
    })
}

/// `"HH:MM"` → minutes after midnight.
fn start(v: &Value, path: &[json::Step]) -> Read<u32> {
    let s = v
        .as_str()
        .ok_or_else(|| problem(path, wrong_type("string")))?;
    let parsed = s.split_once(':').and_then(|(h, m)| {
        let whole = |t: &str| {
            (t.len() == 2 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u32>().ok())
                .flatten()
        };
        Some((whole(h)?, whole(m)?))
    });
    match parsed {
        Some((h, m)) if h < 24 && m < 60 => Ok(h * 60 + m),
        _ => Err(problem(
            path,
            Message::new(MessageId::ExerciseStart).given("given", s.to_string()),
        )),
    }
}

fn service(v: &Value, path: &[json::Step], s: &mut Scenario) -> Read<()> {
    let map = object(v, path, SERVICE_FIELDS)?;
    if let Some(x) = optional_number(map, path, "instances", (1.0, 200.0), true)? {
        s.instances = x as u32;
    }
    if let Some(x) = optional_number(map, path, "base_rps", (1.0, 100_000.0), false)? {
        s.base_rps = x;
    }
    if let Some(x) = optional_number(map, path, "boot_minutes", (0.0, 60.0), true)? {
        s.boot_minutes = x as u32;
    }
    if let Some(x) = optional_number(map, path, "regions", (1.0, 3.0), true)? {
        s.regions = x as u32;
    }
    if let Some(v) = map.get("engine") {
        let p = key(path, "engine");
        let name = string(v, &p, 40)?;
        s.engine = name.parse().map_err(|_| {
            problem(
                &p,
                Message::new(MessageId::ExerciseUnknownValue)
                    .given("given", name.clone())
                    .codes("allowed", EngineKind::NAMES.to_vec()),
            )
        })?;
    }
    Ok(())
}

/// A value written as a control's or a parameter's text: numbers as written, `true` and
/// `false` as `on` and `off`.
fn value_text(v: &Value, path: &[json::Step]) -> Read<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(_) => Ok(v.to_string()),
        Value::Bool(b) => Ok(if *b { "on" } else { "off" }.to_string()),
        _ => Err(problem(path, wrong_type("number, string, true or false"))),
    }
}

fn controls(v: &Value, path: &[json::Step], settings: &mut Settings) -> Read<()> {
    let map = object(v, path, CONTROLS)?;
    for (name, value) in map.iter() {
        let p = key(path, name);
        let action =
            ActionKind::parse(&format!("{name}={}", value_text(value, &p)?)).map_err(|e| {
                problem(
                    &p,
                    Message::new(MessageId::ExerciseBadControl).msg("detail", e.message()),
                )
            })?;
        settings.start_with(&action);
    }
    Ok(())
}

/// The run parameters by name; their names and values are checked when a run is set up
/// from the exercise (`RunSetup::for_exercise`), which knows every parameter.
fn params(v: &Value, path: &[json::Step]) -> Read<Vec<(String, String)>> {
    let map = v
        .as_object()
        .ok_or_else(|| problem(path, wrong_type("object")))?;
    map.iter()
        .map(|(name, value)| Ok((name.clone(), value_text(value, &key(path, name))?)))
        .collect()
}

fn list<'a>(v: &'a Value, path: &[json::Step]) -> Read<&'a Vec<Value>> {
    let items = v
        .as_array()
        .ok_or_else(|| problem(path, wrong_type("array")))?;
    if items.len() > MAX_ITEMS {
        return Err(problem(
            path,
            Message::new(MessageId::ExerciseTooMany).int("max", MAX_ITEMS as i64),
        ));
    }
    Ok(items)
}

fn timeline(v: &Value, path: &[json::Step], s: &Scenario) -> Read<Vec<Inject>> {
    let mut injects: Vec<(Inject, &'static FaultKind, Vec<Span>)> = Vec::new();
    for (i, item) in list(v, path)?.iter().enumerate() {
        let p = index(path, i);
        let map = item
            .as_object()
            .ok_or_else(|| problem(&p, wrong_type("object")))?;
        let name = string(required(map, &p, "fault")?, &key(&p, "fault"), 60)?;
        let kind = faults::kind(&name).ok_or_else(|| {
            problem(
                &key(&p, "fault"),
                Message::new(MessageId::ExerciseUnknownFault)
                    .given("given", name.clone())
                    .codes("allowed", faults::names()),
            )
        })?;
        let mut allowed = vec!["fault"];
        allowed.extend(kind.fields.iter().map(|f| f.name));
        object(item, &p, &allowed)?;
        let mut values = Vec::new();
        for field in kind.fields {
            let fp = key(&p, field.name);
            let span = span(required(map, &p, field.name)?, &fp, field)?;
            if field.kind == FieldKind::Minute {
                if let Some(end) = s.minutes.filter(|end| span.1 >= f64::from(*end)) {
                    return Err(problem(
                        &fp,
                        Message::new(MessageId::ExerciseAfterEnd)
                            .int("minute", span.1 as i64)
                            .int("minutes", end)
                            .int("last", end.saturating_sub(1)),
                    ));
                }
            }
            if field.name == "region" && span.0 >= f64::from(s.regions) {
                return Err(problem(
                    &fp,
                    Message::new(MessageId::ExerciseNoRegion)
                        .num("region", span.0)
                        .int("regions", s.regions),
                ));
            }
            values.push(span);
        }
        if kind.needs == faults::Needs::RequestEngine && s.engine != EngineKind::Requests {
            return Err(problem(
                &key(&p, "fault"),
                Message::new(MessageId::ExerciseNeedsRequests).code("fault", kind.name),
            ));
        }
        let window = when_in_force(kind, &values);
        let clash = injects.iter().position(|(other, _, v)| {
            !kind.stacks
                && other.same_kind(&injects::inject(kind, &values))
                && same_region(kind, v, &values)
                && overlap(when_in_force(kind, v), window)
        });
        if let Some(j) = clash {
            return Err(problem(
                &p,
                Message::new(MessageId::ExerciseOverlap)
                    .code("fault", kind.name)
                    .int("other", j as i64),
            ));
        }
        injects.push((injects::inject(kind, &values), kind, values));
    }
    Ok(injects.into_iter().map(|(inject, _, _)| inject).collect())
}

/// Minutes an inject may hold, from its earliest start to its latest end.
fn when_in_force(kind: &FaultKind, values: &[Span]) -> Option<(f64, f64)> {
    let at = kind.fields.iter().position(|f| f.name == "at")?;
    let lasts = kind
        .fields
        .iter()
        .position(|f| Some(f.name) == kind.lasts)?;
    Some((values[at].0, values[at].1 + values[lasts].1))
}

fn overlap(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.0 < b.1 && b.0 < a.1,
        _ => false,
    }
}

fn same_region(kind: &FaultKind, a: &[Span], b: &[Span]) -> bool {
    match kind.fields.iter().position(|f| f.name == "region") {
        Some(r) => a[r] == b[r],
        None => true,
    }
}

/// A field's value: one number, or `[lo, hi]` for a field the seed draws.
fn span(v: &Value, path: &[json::Step], field: &faults::Field) -> Read<Span> {
    let whole = field.kind != FieldKind::Number;
    match v {
        Value::Array(items) if field.drawn => {
            let [lo, hi] = items.as_slice() else {
                return Err(problem(path, Message::new(MessageId::ExerciseRange)));
            };
            let lo = number(lo, &index(path, 0), field.lo, field.hi, whole)?;
            let hi = number(hi, &index(path, 1), field.lo, field.hi, whole)?;
            if hi < lo {
                return Err(problem(path, Message::new(MessageId::ExerciseRange)));
            }
            Ok((lo, hi))
        }
        Value::Array(_) => Err(problem(path, wrong_type("number"))),
        _ => {
            let x = number(v, path, field.lo, field.hi, whole)?;
            Ok((x, x))
        }
    }
}

fn expected(v: &Value, path: &[json::Step]) -> Read<Vec<Step>> {
    list(v, path)?
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let p = index(path, i);
            let map = object(item, &p, STEP_FIELDS)?;
            let when = match string(required(map, &p, "when")?, &key(&p, "when"), 40)?.as_str() {
                "page" => When::AtPage,
                "first_errors" => When::AtFirstErrors,
                other => {
                    return Err(problem(
                        &key(&p, "when"),
                        Message::new(MessageId::ExerciseUnknownValue)
                            .given("given", other.to_string())
                            .codes("allowed", STEP_WHEN.to_vec()),
                    ))
                }
            };
            let code = string(required(map, &p, "action")?, &key(&p, "action"), 100)?;
            let action = ActionKind::parse(&code).map_err(|e| {
                problem(
                    &key(&p, "action"),
                    Message::new(MessageId::ExerciseBadControl).msg("detail", e.message()),
                )
            })?;
            Ok(Step { when, action })
        })
        .collect()
}

fn objectives(v: &Value, path: &[json::Step]) -> Read<Objectives> {
    let map = object(v, path, OBJECTIVE_FIELDS)?;
    Ok(Objectives {
        budget_left_at_least: optional_number(map, path, OBJECTIVE_FIELDS[0], (0.0, 1.0), false)?,
        minutes_paging_at_most: optional_number(
            map,
            path,
            OBJECTIVE_FIELDS[1],
            (0.0, 1440.0),
            true,
        )?
        .map(|x| x as u32),
        cost_at_most: optional_number(map, path, OBJECTIVE_FIELDS[2], (0.0, 1e9), false)?,
        minutes_to_mitigate_at_most: optional_number(
            map,
            path,
            OBJECTIVE_FIELDS[3],
            (0.0, 1440.0),
            true,
        )?
        .map(|x| x as u32),
    })
}

fn hints(v: &Value, path: &[json::Step], minutes: Option<u32>) -> Read<Vec<Hint>> {
    list(v, path)?
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let p = index(path, i);
            let map = item
                .as_object()
                .ok_or_else(|| problem(&p, wrong_type("object")))?;
            let trigger = if map.contains_key("at") {
                object(item, &p, &["at", "text"])?;
                let at = map.get("at").unwrap_or(&Value::Null);
                let minute = number(at, &key(&p, "at"), 0.0, 1439.0, true)?;
                if let Some(end) = minutes.filter(|end| minute >= f64::from(*end)) {
                    return Err(problem(
                        &key(&p, "at"),
                        Message::new(MessageId::ExerciseAfterEnd)
                            .int("minute", minute as i64)
                            .int("minutes", end)
                            .int("last", end.saturating_sub(1)),
                    ));
                }
                HintTrigger::At(minute as u32)
            } else {
                let name = string(required(map, &p, "when")?, &key(&p, "when"), 40)?;
                match name.as_str() {
                    "paged_without_action" => {
                        object(item, &p, &["when", "minutes", "text"])?;
                        let m = number(
                            required(map, &p, "minutes")?,
                            &key(&p, "minutes"),
                            1.0,
                            1440.0,
                            true,
                        )?;
                        HintTrigger::PagedWithoutAction(m as u32)
                    }
                    "budget_below" => {
                        object(item, &p, &["when", "share", "text"])?;
                        let x = number(
                            required(map, &p, "share")?,
                            &key(&p, "share"),
                            0.0,
                            1.0,
                            false,
                        )?;
                        HintTrigger::BudgetBelow(x)
                    }
                    other => {
                        return Err(problem(
                            &key(&p, "when"),
                            Message::new(MessageId::ExerciseUnknownValue)
                                .given("given", other.to_string())
                                .codes("allowed", HINT_WHEN.to_vec()),
                        ))
                    }
                }
            };
            let text = text(map, &p, "text", MAX_TEXT)?;
            Ok(Hint { trigger, text })
        })
        .collect()
}

// ---- Writing -------------------------------------------------------------------------------

fn num(x: f64) -> Value {
    Value::Number(Number {
        value: x,
        whole: true,
    })
}

fn span_value((lo, hi): Span) -> Value {
    if lo == hi {
        num(lo)
    } else {
        Value::Array(vec![num(lo), num(hi)])
    }
}

fn put(map: &mut Map, k: &str, v: Value) {
    map.insert(k.to_string(), v);
}

/// The file of `exercise`, in canonical form: the fields in the documented order, controls
/// that differ from the defaults, and each value as one number or a `[lo, hi]` range.
pub fn write(exercise: &Exercise) -> String {
    let s = &exercise.scenario;
    let mut top = Map::new();
    put(&mut top, "format", FORMAT.into());
    put(&mut top, "version", num(f64::from(VERSION)));
    put(&mut top, "id", exercise.id.as_str().into());
    put(&mut top, "title", exercise.title.as_str().into());
    put(&mut top, "briefing", exercise.briefing.as_str().into());
    if !exercise.lesson.is_empty() {
        put(&mut top, "lesson", exercise.lesson.as_str().into());
    }
    let clock = format!("{:02}:{:02}", s.clock_min / 60, s.clock_min % 60);
    put(&mut top, "start", clock.as_str().into());
    put(
        &mut top,
        "minutes",
        s.minutes.map_or(Value::Null, |m| num(f64::from(m))),
    );
    put(&mut top, "budget_left", num(s.budget_left));
    let mut service = Map::new();
    put(&mut service, "instances", num(f64::from(s.instances)));
    put(&mut service, "base_rps", num(s.base_rps));
    put(&mut service, "boot_minutes", num(f64::from(s.boot_minutes)));
    put(&mut service, "engine", s.engine.as_str().into());
    put(&mut service, "regions", num(f64::from(s.regions)));
    put(&mut top, "service", Value::Object(service));
    let controls = controls_value(&s.settings);
    if !controls.is_empty() {
        put(&mut top, "controls", Value::Object(controls));
    }
    if !exercise.params.is_empty() {
        let mut params = Map::new();
        for (k, v) in &exercise.params {
            let value = match v.parse::<f64>() {
                Ok(x) if x.is_finite() => num(x),
                _ => v.as_str().into(),
            };
            put(&mut params, k, value);
        }
        put(&mut top, "params", Value::Object(params));
    }
    let timeline = s.timeline.iter().map(inject_value).collect();
    put(&mut top, "timeline", Value::Array(timeline));
    if !exercise.expected.is_empty() {
        let steps = exercise.expected.iter().map(step_value).collect();
        put(&mut top, "expected_response", Value::Array(steps));
    }
    let objectives = objectives_value(&exercise.objectives);
    if !objectives.is_empty() {
        put(&mut top, "objectives", Value::Object(objectives));
    }
    if !exercise.hints.is_empty() {
        let hints = exercise.hints.iter().map(hint_value).collect();
        put(&mut top, "hints", Value::Array(hints));
    }
    let mut out = Value::Object(top).to_readable();
    out.push('\n');
    out
}

fn controls_value(settings: &Settings) -> Map {
    let s = settings;
    let mut map = Map::new();
    for action in [
        ActionKind::MinInstances(s.min_instances),
        ActionKind::Autoscaling(s.autoscaling),
        ActionKind::TargetUtilization(s.target_utilization),
        ActionKind::CacheTtlS(s.cache_ttl_s),
        ActionKind::ShedLowPriority(s.shed_low_priority),
        ActionKind::HeavyFeature(s.heavy_feature),
        ActionKind::Lb(s.lb),
        ActionKind::Hedge(s.hedge),
    ] {
        // Only the controls that differ from the defaults are written.
        let mut set = Settings::default();
        set.start_with(&action);
        if set == Settings::default() {
            continue;
        }
        let code = action.encode();
        let value = code.split_once('=').map_or("", |(_, v)| v);
        let value = match value.parse::<f64>() {
            Ok(x) => num(x),
            Err(_) => value.into(),
        };
        put(&mut map, action.name(), value);
    }
    map
}

fn inject_value(inject: &Inject) -> Value {
    let (kind, values) = injects::fields_of(inject);
    let mut map = Map::new();
    put(&mut map, "fault", kind.name.into());
    for (field, span) in kind.fields.iter().zip(values) {
        put(&mut map, field.name, span_value(span));
    }
    Value::Object(map)
}

fn step_value(step: &Step) -> Value {
    let mut map = Map::new();
    let when = match step.when {
        When::AtPage => STEP_WHEN[0],
        When::AtFirstErrors => STEP_WHEN[1],
    };
    put(&mut map, "when", when.into());
    put(&mut map, "action", step.action.encode().as_str().into());
    Value::Object(map)
}

fn objectives_value(o: &Objectives) -> Map {
    let mut map = Map::new();
    let values = [
        o.budget_left_at_least,
        o.minutes_paging_at_most.map(f64::from),
        o.cost_at_most,
        o.minutes_to_mitigate_at_most.map(f64::from),
    ];
    for (name, value) in OBJECTIVE_FIELDS.iter().zip(values) {
        if let Some(x) = value {
            put(&mut map, name, num(x));
        }
    }
    map
}

fn hint_value(hint: &Hint) -> Value {
    let mut map = Map::new();
    match hint.trigger {
        HintTrigger::At(m) => put(&mut map, "at", num(f64::from(m))),
        HintTrigger::PagedWithoutAction(m) => {
            put(&mut map, "when", HINT_WHEN[0].into());
            put(&mut map, "minutes", num(f64::from(m)));
        }
        HintTrigger::BudgetBelow(x) => {
            put(&mut map, "when", HINT_WHEN[1].into());
            put(&mut map, "share", num(x));
        }
    }
    put(&mut map, "text", hint.text.as_str().into());
    Value::Object(map)
}
