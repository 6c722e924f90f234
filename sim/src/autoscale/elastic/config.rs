//! The elastic scaler's JSON configuration, in the source's own format: `//` and `/* */`
//! comments and trailing commas are allowed. [`parse`] checks every field against its range
//! and names the field in any error; nothing is applied unless the whole file is valid.
//! Cloud-specific fields (`token`, `openapi_base_url`, `scale_up_request`) and the
//! dashboard settings are accepted, reported as ignored, and kept for export.

use crate::balance::Routing;
use crate::params::{BrokenRule, ParamError, ParamSpec, ParamValue};
use crate::message::{Message, MessageId};
use core::fmt;
use crate::json::{self, Map, Value};

/// Largest configuration file read, in bytes (the source's example is about 5 kB); the
/// console's editor and the command line both refuse a larger one before reading it whole.
pub const MAX_CONFIG_BYTES: usize = 256 * 1024;

/// Load-balancing policies the source's Envoy supports, as its file spells and lists them.
pub const LB_POLICIES: &[&str] = &[
    Routing::RoundRobin.envoy_name(),
    Routing::LeastRequest.envoy_name(),
    Routing::Random.envoy_name(),
    Routing::RingHash.envoy_name(),
    Routing::Maglev.envoy_name(),
];

/// The per-node limits (`max_connections`, `max_requests`) of the source's example: 1000
/// requests per node, sized for the source's own nodes.
pub const SOURCE_PER_NODE_LIMIT: u32 = 1000;

/// The per-node limits the simulator starts from: the simulated node's concurrency, its
/// default workers per instance. At the source's 1000 a node of 16 workers never holds that
/// many requests before they time out, so the trend rule never fires and the shrink rule,
/// which keeps ⌈active / max_requests⌉ nodes, removes nodes until the fleet saturates. The
/// source's file still imports as it is, with its 1000.
pub const NODE_CONCURRENCY_LIMIT: f64 = crate::params::DEFAULT_WORKERS_PER_INSTANCE;

/// Expansion strategies, as `expansion_strategies` names them.
pub const STRATEGIES: &[&str] = &["trend_expansion", "delay_prediction", "p95_expansion"];

/// Top-level fields accepted and ignored, with the reason given in the note.
const IGNORED: &[(&str, MessageId)] = &[
    ("openapi_base_url", MessageId::ElasticIgnoredApiAddress),
    ("token", MessageId::ElasticIgnoredApiKey),
    ("scale_up_request", MessageId::ElasticIgnoredScaleUpRequest),
    ("dashboard", MessageId::ElasticIgnoredDashboard),
];

/// The ignored fields in the order [`ElasticConfig::to_json_text`] writes them (the source's
/// layout).
const IGNORED_EXPORT_ORDER: [&str; 4] = ["openapi_base_url", "token", "dashboard", "scale_up_request"];

/// Trend expansion settings.
#[derive(Clone, Debug, PartialEq)]
pub struct TrendExpansion {
    /// Seconds after an expansion before this strategy may expand again.
    pub expand_cooling_time: f64,
}

/// Delay-prediction expansion settings.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayPrediction {
    /// Ignored while the last minute had fewer requests than this.
    pub min_sample_size: u32,
    pub expand_cooling_time: f64,
    /// Seconds: scale out when the backlog would take this long or longer.
    pub delay_time: f64,
    pub expansion_ratio: f64,
    pub min_expansion: u32,
}

/// p95 expansion settings.
#[derive(Clone, Debug, PartialEq)]
pub struct P95Expansion {
    pub min_sample_size: u32,
    pub expand_cooling_time: f64,
    /// Milliseconds: more than 5 % of the last minute's requests slower than this is a breach.
    pub threshold: f64,
    /// Seconds the breach must last.
    pub threshold_duration: f64,
    pub expansion_ratio: f64,
    pub min_expansion: u32,
}

/// The elastic scaler's configuration (the source's defaults, but for the per-node limits,
/// which start from the simulated node's concurrency: [`NODE_CONCURRENCY_LIMIT`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ElasticConfig {
    /// One of [`LB_POLICIES`], read and written in Envoy's spelling.
    pub lb_policy: Routing,
    /// Per-node connection limit (Envoy circuit breaker).
    pub max_connections: u32,
    /// Per-node limit of requests at once.
    pub max_requests: u32,
    /// Requests the balancer queues beyond the nodes' limits; the rest are dropped.
    pub max_pending_requests: u32,
    pub max_nodes: u32,
    pub min_nodes: u32,
    /// Top-level p95 threshold, ms (the p95 strategy's own `threshold` takes precedence).
    pub p95_latency_threshold: f64,
    /// Top-level p95 duration, s (the p95 strategy's own `threshold_duration` takes precedence).
    pub p95_delay_duration: f64,
    /// Seconds every strategy must have been healthy before a node is removed.
    pub shrinkage_delay_time: f64,
    /// Nodes removed at most per shrink.
    pub shrinkage_number: u32,
    /// Seconds a removed node may drain before it is forced off.
    pub drain_timeout: f64,
    /// Seconds between samples.
    pub acq_frequency: u32,
    /// Seconds a new node needs before it serves (the source's cold start of a node). Not a
    /// field of the source's file: the platform's time, which the simulator lets you set.
    pub node_cold_start_time: u32,
    /// Active strategies, in the order given.
    pub expansion_strategies: Vec<String>,
    pub trend_expansion: TrendExpansion,
    pub delay_prediction: DelayPrediction,
    pub p95_expansion: P95Expansion,
    /// Fields accepted and ignored, kept verbatim so that an export gives them back.
    pub ignored: Map,
}

impl Default for ElasticConfig {
    /// The source's defaults with the per-node limits at the simulated node's concurrency,
    /// from the settings table ([`SPECS`]).
    fn default() -> Self {
        let mut c = Self {
            lb_policy: Routing::LeastRequest,
            max_connections: 0,
            max_requests: 0,
            max_pending_requests: 0,
            max_nodes: 0,
            min_nodes: 0,
            p95_latency_threshold: 0.0,
            p95_delay_duration: 0.0,
            shrinkage_delay_time: 0.0,
            shrinkage_number: 0,
            drain_timeout: 0.0,
            acq_frequency: 0,
            node_cold_start_time: 0,
            expansion_strategies: Vec::new(),
            trend_expansion: TrendExpansion {
                expand_cooling_time: 0.0,
            },
            delay_prediction: DelayPrediction {
                min_sample_size: 0,
                expand_cooling_time: 0.0,
                delay_time: 0.0,
                expansion_ratio: 0.0,
                min_expansion: 0,
            },
            p95_expansion: P95Expansion {
                min_sample_size: 0,
                expand_cooling_time: 0.0,
                threshold: 0.0,
                threshold_duration: 0.0,
                expansion_ratio: 0.0,
                min_expansion: 0,
            },
            ignored: Map::new(),
        };
        for spec in SPECS {
            set_path(&mut c, &spec.name["elastic.".len()..], spec.default);
        }
        c
    }
}

/// How a setting maps onto the configuration: a field, a field mirrored by another (the
/// top-level p95 settings and the strategy's own), or a strategy's membership in
/// `expansion_strategies` (0 or 1).
macro_rules! access {
    (get $c:ident, field($($f:ident).+)) => { ParamValue::to_f64($c.$($f).+) };
    (set $c:ident, $x:ident, $ty:ty, field($($f:ident).+)) => { $c.$($f).+ = <$ty as ParamValue>::from_checked($x) };
    (get $c:ident, mirror($($f:ident).+; $($g:ident).+)) => { $c.$($f).+ };
    (set $c:ident, $x:ident, $ty:ty, mirror($($f:ident).+; $($g:ident).+)) => {{
        $c.$($f).+ = $x;
        $c.$($g).+ = $x;
    }};
    (get $c:ident, switch($name:literal)) => { if $c.enabled($name) { 1.0 } else { 0.0 } };
    (set $c:ident, $x:ident, $ty:ty, switch($name:literal)) => { $c.switch_strategy($name, $x != 0.0) };
}

/// The settings table: each numeric setting in one row (its JSON path, type, default, range,
/// unit code and where it lives), from which the specs, the defaults, the reads and the
/// writes are generated. The rows carry no product text: the catalogs key each setting's doc
/// by its spec's name.
macro_rules! elastic_settings {
    ($( $path:literal : $ty:ty = $default:expr, $min:expr, $max:expr, $unit:expr, $kind:ident $args:tt; )*) => {
        /// Every numeric setting, named `elastic.` + its path in the JSON file. The on/off
        /// switches `elastic.expansion_strategies.NAME` (0 or 1) stand for membership in the
        /// list.
        pub const SPECS: &[ParamSpec] = &[
            $( ParamSpec {
                name: concat!("elastic.", $path),
                default: $default,
                min: $min,
                max: $max,
                unit: $unit,
                integer: <$ty as ParamValue>::INTEGER,
            }, )*
        ];

        /// Reads a setting by JSON path.
        fn get_path(c: &ElasticConfig, path: &str) -> Option<f64> {
            match path {
                $( $path => Some(access!(get c, $kind $args)), )*
                _ => None,
            }
        }

        /// Sets a value by JSON path (already checked against its spec).
        fn set_path(c: &mut ElasticConfig, path: &str, x: f64) {
            match path {
                $( $path => access!(set c, x, $ty, $kind $args), )*
                _ => {}
            }
        }
    };
}

elastic_settings! {
    "max_connections": u32 = NODE_CONCURRENCY_LIMIT, 1.0, 1e6, "connections", field(max_connections);
    "max_requests": u32 = NODE_CONCURRENCY_LIMIT, 1.0, 1e6, "requests", field(max_requests);
    "max_pending_requests": u32 = 100.0, 0.0, 1e6, "requests", field(max_pending_requests);
    "max_nodes": u32 = 20.0, 1.0, 200.0, "nodes", field(max_nodes);
    "min_nodes": u32 = 2.0, 0.0, 200.0, "nodes", field(min_nodes);
    "p95_latency_threshold": f64 = 500.0, 1.0, 60000.0, "ms", mirror(p95_latency_threshold; p95_expansion.threshold);
    "p95_delay_duration": f64 = 30.0, 0.0, 3600.0, "s", mirror(p95_delay_duration; p95_expansion.threshold_duration);
    "shrinkage_delay_time": f64 = 600.0, 0.0, 86400.0, "s", field(shrinkage_delay_time);
    "shrinkage_number": u32 = 1.0, 1.0, 200.0, "nodes", field(shrinkage_number);
    "drain_timeout": f64 = 60.0, 0.0, 3600.0, "s", field(drain_timeout);
    "acq_frequency": u32 = 10.0, 1.0, 60.0, "s", field(acq_frequency);
    "node_cold_start_time": u32 = 60.0, 0.0, 3600.0, "s", field(node_cold_start_time);
    "expansion_strategies.trend_expansion": u32 = 1.0, 0.0, 1.0, "", switch("trend_expansion");
    "expansion_strategies.delay_prediction": u32 = 1.0, 0.0, 1.0, "", switch("delay_prediction");
    "expansion_strategies.p95_expansion": u32 = 1.0, 0.0, 1.0, "", switch("p95_expansion");
    "trend_expansion.expand_cooling_time": f64 = 180.0, 60.0, 86400.0, "s", field(trend_expansion.expand_cooling_time);
    "delay_prediction.min_sample_size": u32 = 100.0, 0.0, 1e9, "requests", field(delay_prediction.min_sample_size);
    "delay_prediction.expand_cooling_time": f64 = 180.0, 60.0, 86400.0, "s", field(delay_prediction.expand_cooling_time);
    "delay_prediction.delay_time": f64 = 2.0, 0.01, 600.0, "s", field(delay_prediction.delay_time);
    "delay_prediction.expansion_ratio": f64 = 0.2, 0.0, 10.0, "share_of_nodes", field(delay_prediction.expansion_ratio);
    "delay_prediction.min_expansion": u32 = 2.0, 1.0, 200.0, "nodes", field(delay_prediction.min_expansion);
    "p95_expansion.min_sample_size": u32 = 100.0, 0.0, 1e9, "requests", field(p95_expansion.min_sample_size);
    "p95_expansion.expand_cooling_time": f64 = 180.0, 60.0, 86400.0, "s", field(p95_expansion.expand_cooling_time);
    "p95_expansion.threshold": f64 = 500.0, 1.0, 60000.0, "ms", mirror(p95_expansion.threshold; p95_latency_threshold);
    "p95_expansion.threshold_duration": f64 = 30.0, 0.0, 3600.0, "s", mirror(p95_expansion.threshold_duration; p95_delay_duration);
    "p95_expansion.expansion_ratio": f64 = 0.2, 0.0, 10.0, "share_of_nodes", field(p95_expansion.expansion_ratio);
    "p95_expansion.min_expansion": u32 = 2.0, 1.0, 200.0, "nodes", field(p95_expansion.min_expansion);
}

/// A remark about an accepted configuration (an ignored field, a setting without effect).
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub field: String,
    pub message: Message,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Why a configuration was rejected: the field (its JSON path) and what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub field: String,
    pub message: Message,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ConfigError {}

impl From<ParamError> for ConfigError {
    fn from(e: ParamError) -> Self {
        Self {
            field: e
                .field
                .strip_prefix("elastic.")
                .unwrap_or(&e.field)
                .to_string(),
            message: e.problem,
        }
    }
}

fn err(field: impl Into<String>, message: Message) -> ConfigError {
    ConfigError {
        field: field.into(),
        message,
    }
}

/// "unknown field; known: …".
fn unknown_field(field: impl Into<String>, known: Vec<&'static str>) -> ConfigError {
    err(
        field,
        Message::new(MessageId::UnknownField).codes("known", known),
    )
}

/// Turns the source's relaxed JSON into strict JSON: comments and trailing commas become
/// spaces, so line and column numbers in errors still point into the original text.
pub fn strip_relaxed(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' && *c != b'\r' {
                *c = b' ';
            }
        }
    };
    // End of the comment starting at `i`, if one starts there.
    let comment_end = |i: usize| -> Option<usize> {
        match (b.get(i), b.get(i + 1)) {
            (Some(b'/'), Some(b'/')) => Some(
                b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| i + p),
            ),
            (Some(b'/'), Some(b'*')) => Some(
                b[i + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(b.len(), |p| i + 2 + p + 2),
            ),
            _ => None,
        }
    };
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if let Some(end) = comment_end(i) {
            blank(&mut out, i, end);
            i = end;
            continue;
        }
        if c == b',' {
            // A comma followed (past blanks and comments) by a closing bracket is trailing.
            let mut j = i + 1;
            loop {
                if j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                } else if let Some(end) = comment_end(j) {
                    j = end;
                } else {
                    break;
                }
            }
            if matches!(b.get(j), Some(b'}' | b']')) {
                out[i] = b' ';
            }
        }
        i += 1;
    }
    // Only ASCII bytes were replaced by spaces, and only whole comments, so the text is
    // still UTF-8; the fallback never runs.
    String::from_utf8(out).unwrap_or_default()
}

/// The keys a configuration file may have at its top level: the scaler's settings, its
/// strategies' sections and the source's fields this model keeps but does not use.
pub fn top_level_keys() -> Vec<&'static str> {
    let mut known: Vec<&'static str> = SPECS
        .iter()
        .filter_map(|s| s.name.strip_prefix("elastic."))
        .filter(|n| !n.contains('.'))
        .collect();
    known.extend([
        "lb_policy",
        "expansion_strategies",
        "trend_expansion",
        "delay_prediction",
        "p95_expansion",
    ]);
    known.extend(IGNORED.iter().map(|(k, _)| *k));
    known
}

/// Parses a configuration in the source's format. Returns the effective configuration and
/// notes (ignored fields, settings without effect), or the first error with its field.
pub fn parse(text: &str) -> Result<(ElasticConfig, Vec<Note>), ConfigError> {
    let top = read_object(text)?;
    let mut reading = FileReading::new();
    for (key, v) in &top {
        reading.field(key, v)?;
    }
    reading.resolve_p95();
    let FileReading {
        mut cfg, mut notes, ..
    } = reading;
    order_ignored(&mut cfg);
    check_rules(&cfg)?;
    notes.extend(strategy_notes(&top, &cfg));
    Ok((cfg, notes))
}

/// The file's text, relaxed JSON, read as a JSON object.
fn read_object(text: &str) -> Result<Map, ConfigError> {
    let strict = strip_relaxed(text);
    let value: Value = json::parse(&strict).map_err(|e| {
        err(
            "json",
            Message::new(MessageId::JsonSyntax).given("detail", e.to_string()),
        )
    })?;
    let Value::Object(top) = value else {
        return Err(err("json", Message::new(MessageId::ElasticNotAnObject)));
    };
    Ok(top)
}

/// A file being read: the configuration so far, its notes, and the p95 settings given at
/// the top level and in the strategy's section, resolved once every field is read.
struct FileReading {
    cfg: ElasticConfig,
    notes: Vec<Note>,
    given_p95_threshold: bool,
    given_p95_duration: bool,
    top_threshold: Option<f64>,
    top_duration: Option<f64>,
}

impl FileReading {
    fn new() -> Self {
        Self {
            cfg: ElasticConfig::default(),
            notes: Vec::new(),
            given_p95_threshold: false,
            given_p95_duration: false,
            top_threshold: None,
            top_duration: None,
        }
    }

    /// Reads one top-level field.
    fn field(&mut self, key: &str, v: &Value) -> Result<(), ConfigError> {
        if let Some((_, why)) = IGNORED.iter().find(|(k, _)| *k == key) {
            self.notes.push(Note {
                field: key.to_string(),
                message: Message::new(*why),
            });
            self.cfg.ignored.insert(key.to_string(), v.clone());
            return Ok(());
        }
        match key {
            "lb_policy" => self.cfg.lb_policy = lb_policy(key, v)?,
            "expansion_strategies" => self.cfg.expansion_strategies = strategy_list(key, v)?,
            "trend_expansion" | "delay_prediction" | "p95_expansion" => {
                self.strategy_section(key, v)?
            }
            _ => self.setting(key, v)?,
        }
        Ok(())
    }

    /// A strategy's section: each of its settings, checked against its range.
    fn strategy_section(&mut self, key: &str, v: &Value) -> Result<(), ConfigError> {
        let block = v
            .as_object()
            .ok_or_else(|| err(key, Message::new(MessageId::ElasticStrategyObject)))?;
        for (field, fv) in block {
            let path = format!("{key}.{field}");
            let spec = SPECS
                .iter()
                .find(|s| s.name.strip_prefix("elastic.") == Some(path.as_str()))
                .ok_or_else(|| {
                    let known: Vec<&'static str> = SPECS
                        .iter()
                        .filter_map(|s| s.name.strip_prefix(&format!("elastic.{key}.")))
                        .collect();
                    unknown_field(&path, known)
                })?;
            let x = number(&path, fv, spec)?;
            set_path(&mut self.cfg, &path, x);
            self.given_p95_threshold |= path == "p95_expansion.threshold";
            self.given_p95_duration |= path == "p95_expansion.threshold_duration";
        }
        Ok(())
    }

    /// A top-level setting, checked against its range.
    fn setting(&mut self, key: &str, v: &Value) -> Result<(), ConfigError> {
        let spec = SPECS
            .iter()
            .filter(|s| !s.name.contains("expansion_strategies."))
            .find(|s| s.name.strip_prefix("elastic.") == Some(key))
            .ok_or_else(|| unknown_field(key, top_level_keys()))?;
        let x = number(key, v, spec)?;
        // The top-level p95 settings are resolved against the strategy's below.
        match key {
            "p95_latency_threshold" => self.top_threshold = Some(x),
            "p95_delay_duration" => self.top_duration = Some(x),
            _ => set_path(&mut self.cfg, key, x),
        }
        Ok(())
    }

    /// The top-level p95 settings fill in for the strategy's own when it omits them; a
    /// different value beside the strategy's is noted.
    fn resolve_p95(&mut self) {
        let cfg = &mut self.cfg;
        match (self.top_threshold, self.given_p95_threshold) {
            (Some(x), false) => cfg.p95_expansion.threshold = x,
            (Some(x), true) if x != cfg.p95_expansion.threshold => self.notes.push(Note {
                field: "p95_latency_threshold".into(),
                message: Message::new(MessageId::ElasticDiffers)
                    .code("other", "p95_expansion.threshold")
                    .num("value", cfg.p95_expansion.threshold),
            }),
            _ => {}
        }
        match (self.top_duration, self.given_p95_duration) {
            (Some(x), false) => cfg.p95_expansion.threshold_duration = x,
            (Some(x), true) if x != cfg.p95_expansion.threshold_duration => self.notes.push(Note {
                field: "p95_delay_duration".into(),
                message: Message::new(MessageId::ElasticDiffers)
                    .code("other", "p95_expansion.threshold_duration")
                    .num("value", cfg.p95_expansion.threshold_duration),
            }),
            _ => {}
        }
        cfg.p95_latency_threshold = cfg.p95_expansion.threshold;
        cfg.p95_delay_duration = cfg.p95_expansion.threshold_duration;
    }
}

/// The `lb_policy` field: one of [`LB_POLICIES`].
fn lb_policy(key: &str, v: &Value) -> Result<Routing, ConfigError> {
    v.as_str().and_then(Routing::from_envoy).ok_or_else(|| {
        err(
            key,
            Message::new(MessageId::OneOf).codes("allowed", LB_POLICIES.to_vec()),
        )
    })
}

/// The `expansion_strategies` field: known strategies, each once, in the order given.
fn strategy_list(key: &str, v: &Value) -> Result<Vec<String>, ConfigError> {
    let list = v.as_array().ok_or_else(|| {
        err(
            key,
            Message::new(MessageId::ElasticStrategyList).codes("allowed", STRATEGIES.to_vec()),
        )
    })?;
    let mut names = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let name = item
            .as_str()
            .filter(|s| STRATEGIES.contains(s))
            .ok_or_else(|| {
                err(
                    format!("{key}[{i}]"),
                    Message::new(MessageId::ElasticUnknownStrategy)
                        .given("given", item.to_string())
                        .codes("allowed", STRATEGIES.to_vec()),
                )
            })?;
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    Ok(names)
}

/// Puts the ignored fields in the order an export writes them, so that a configuration and
/// its export compare equal whatever order the file had.
fn order_ignored(cfg: &mut ElasticConfig) {
    let mut ordered = Map::new();
    for key in IGNORED_EXPORT_ORDER {
        if let Some(v) = cfg.ignored.get(key) {
            ordered.insert(key.to_string(), v.clone());
        }
    }
    cfg.ignored = ordered;
}

/// Checks the rule between settings, then every setting.
fn check_rules(cfg: &ElasticConfig) -> Result<(), ConfigError> {
    // A file names its settings by their JSON paths, without the `elastic.` prefix.
    if let Some(mut rule) = cfg.broken_rule() {
        let path = |name: &'static str| name.strip_prefix("elastic.").unwrap_or(name);
        rule.field = path(rule.field);
        rule.other = path(rule.other);
        return Err(rule.blame(rule.field).into());
    }
    cfg.validate()?;
    Ok(())
}

/// Notes on the strategies: sections of inactive strategies, no strategy at all, and the
/// load-balancing policy kept.
fn strategy_notes(top: &Map, cfg: &ElasticConfig) -> Vec<Note> {
    let mut notes = Vec::new();
    for name in STRATEGIES {
        if top.contains_key(name) && !cfg.enabled(name) {
            notes.push(Note {
                field: (*name).into(),
                message: Message::new(MessageId::ElasticStrategyInactive),
            });
        }
    }
    if cfg.expansion_strategies.is_empty() {
        notes.push(Note {
            field: "expansion_strategies".into(),
            message: Message::new(MessageId::ElasticNoStrategy),
        });
    }
    notes.push(Note {
        field: "lb_policy".into(),
        message: Message::new(MessageId::ElasticLbPolicyKept)
            .code("policy", cfg.lb_policy.envoy_name()),
    });
    notes
}

/// A JSON number checked against `spec`; the error names `path`.
fn number(path: &str, v: &Value, spec: &ParamSpec) -> Result<f64, ConfigError> {
    let x = v.as_f64().ok_or_else(|| err(path, spec.allowed()))?;
    spec.check(x).map_err(|_| err(path, spec.allowed()))
}

impl ElasticConfig {
    /// Whether strategy `name` is active.
    pub fn enabled(&self, name: &str) -> bool {
        self.expansion_strategies.iter().any(|s| s == name)
    }

    /// Requests one node takes at once: min(max_connections, max_requests).
    pub fn per_node_limit(&self) -> u32 {
        self.max_connections.min(self.max_requests)
    }

    /// Lists or unlists strategy `name`, keeping the source's order of strategies.
    fn switch_strategy(&mut self, name: &str, on: bool) {
        self.expansion_strategies.retain(|s| s != name);
        if on {
            self.expansion_strategies.push(name.to_string());
            // Names the source does not know first (as written), then the known ones in the
            // source's order.
            let listed = std::mem::take(&mut self.expansion_strategies);
            let known = |s: &String| STRATEGIES.contains(&s.as_str());
            self.expansion_strategies = listed.iter().filter(|s| !known(s)).cloned().collect();
            self.expansion_strategies.extend(
                STRATEGIES
                    .iter()
                    .filter(|k| listed.iter().any(|s| s == *k))
                    .map(|k| k.to_string()),
            );
        }
    }

    /// Reads a setting by its full name (`elastic.` + JSON path).
    pub fn get(&self, name: &str) -> Option<f64> {
        get_path(self, name.strip_prefix("elastic.")?)
    }

    /// Sets a setting by its full name, checking its range; nothing changes on error. The
    /// rule between settings (`min_nodes` ≤ `max_nodes`) is checked on the whole
    /// configuration ([`ElasticConfig::broken_rule`]), so the order of setting never matters.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let spec = super::super::find_spec(SPECS, name)?;
        let value = spec.check(value)?;
        set_path(self, name.strip_prefix("elastic.").unwrap_or(name), value);
        Ok(())
    }

    /// Checks every setting and the rule between them; the error names the field.
    pub fn validate(&self) -> Result<(), ParamError> {
        for spec in SPECS {
            spec.check(self.get(spec.name).unwrap_or(f64::NAN))?;
        }
        match self.broken_rule() {
            Some(rule) => Err(rule.blame(rule.field)),
            None => Ok(()),
        }
    }

    /// The rule between settings that does not hold, if any: `min_nodes` ≤ `max_nodes`.
    pub fn broken_rule(&self) -> Option<BrokenRule> {
        (self.min_nodes > self.max_nodes).then(|| BrokenRule {
            field: "elastic.min_nodes",
            value: f64::from(self.min_nodes),
            other: "elastic.max_nodes",
            other_value: f64::from(self.max_nodes),
            rule: MessageId::MustNotExceed,
            converse: MessageId::MustBeAtLeast,
        })
    }

    /// The effective settings as JSON, in the source's layout. With `with_ignored`, the
    /// ignored fields come back too (an export that can be imported into the real scaler).
    pub fn to_json_text(&self, with_ignored: bool) -> String {
        let ignored = |key: &str| -> Option<(String, String)> {
            with_ignored
                .then(|| self.ignored.get(key))
                .flatten()
                .map(|v| (key.to_string(), indent(&v.to_pretty())))
        };
        let mut fields: Vec<(String, String)> = Vec::new();
        for key in ["openapi_base_url", "token"] {
            fields.extend(ignored(key));
        }
        fields.extend(self.scaler_fields());
        fields.extend(ignored("dashboard"));
        fields.extend(self.strategy_fields());
        fields.extend(ignored("scale_up_request"));
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("  \"{k}\": {v}"))
            .collect();
        let mut out = String::from("{\n");
        out.push_str(&body.join(",\n"));
        out.push_str("\n}\n");
        out
    }

    /// The scaler's own settings as JSON fields, in the source's order.
    fn scaler_fields(&self) -> Vec<(String, String)> {
        let int = |x: u32| x.to_string();
        [
            (
                "lb_policy",
                Value::from(self.lb_policy.envoy_name()).to_string(),
            ),
            ("max_connections", int(self.max_connections)),
            ("max_requests", int(self.max_requests)),
            ("max_pending_requests", int(self.max_pending_requests)),
            ("max_nodes", int(self.max_nodes)),
            ("min_nodes", int(self.min_nodes)),
            (
                "p95_latency_threshold",
                json_num(self.p95_latency_threshold),
            ),
            ("p95_delay_duration", json_num(self.p95_delay_duration)),
            ("shrinkage_delay_time", json_num(self.shrinkage_delay_time)),
            ("shrinkage_number", int(self.shrinkage_number)),
            ("drain_timeout", json_num(self.drain_timeout)),
            ("acq_frequency", int(self.acq_frequency)),
            ("node_cold_start_time", int(self.node_cold_start_time)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// The strategies as JSON fields: the active list, then each strategy's section.
    fn strategy_fields(&self) -> Vec<(String, String)> {
        let int = |x: u32| x.to_string();
        let list: Vec<String> = self
            .expansion_strategies
            .iter()
            .map(|s| format!("    {}", Value::from(s.as_str())))
            .collect();
        let list = if list.is_empty() {
            "[]".into()
        } else {
            format!("[\n{}\n  ]", list.join(",\n"))
        };
        let t = &self.trend_expansion;
        let d = &self.delay_prediction;
        let p = &self.p95_expansion;
        vec![
            ("expansion_strategies".into(), list),
            (
                "trend_expansion".into(),
                json_block(&[("expand_cooling_time", json_num(t.expand_cooling_time))]),
            ),
            (
                "delay_prediction".into(),
                json_block(&[
                    ("min_sample_size", int(d.min_sample_size)),
                    ("expand_cooling_time", json_num(d.expand_cooling_time)),
                    ("delay_time", json_num(d.delay_time)),
                    ("expansion_ratio", json_num(d.expansion_ratio)),
                    ("min_expansion", int(d.min_expansion)),
                ]),
            ),
            (
                "p95_expansion".into(),
                json_block(&[
                    ("min_sample_size", int(p.min_sample_size)),
                    ("expand_cooling_time", json_num(p.expand_cooling_time)),
                    ("threshold", json_num(p.threshold)),
                    ("threshold_duration", json_num(p.threshold_duration)),
                    ("expansion_ratio", json_num(p.expansion_ratio)),
                    ("min_expansion", int(p.min_expansion)),
                ]),
            ),
        ]
    }
}

/// A number as the export writes it.
fn json_num(x: f64) -> String {
    Value::from(x).to_string()
}

/// A strategy's section: its fields, indented one level below the top.
fn json_block(pairs: &[(&str, String)]) -> String {
    let body: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("    \"{k}\": {v}"))
        .collect();
    format!("{{\n{}\n  }}", body.join(",\n"))
}

/// Indents the lines after the first by two spaces (a nested pretty-printed value).
fn indent(pretty: &str) -> String {
    pretty.replace('\n', "\n  ")
}

impl crate::autoscale::registry::PolicyParams for ElasticConfig {
    const SPECS: &'static [ParamSpec] = SPECS;
    fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        ElasticConfig::set(self, name, value)
    }
    fn get(&self, name: &str) -> Option<f64> {
        ElasticConfig::get(self, name)
    }
    fn validate(&self) -> Result<(), ParamError> {
        ElasticConfig::validate(self)
    }
    fn broken_rule(&self) -> Option<BrokenRule> {
        ElasticConfig::broken_rule(self)
    }
}

impl serde::Serialize for ElasticConfig {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v: Value = json::parse(&self.to_json_text(false)).unwrap_or(Value::Null);
        v.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxed_json_keeps_strings_and_positions() {
        let text = "{\n  \"a\": \"http://x//y\", // note\n  \"b\": [1, 2,], /* c, */\n}";
        let strict = strip_relaxed(text);
        assert_eq!(strict.len(), text.len());
        let v: Value = json::parse(&strict).unwrap();
        let m = v.as_object().unwrap();
        assert_eq!(m.get("a").and_then(Value::as_str), Some("http://x//y"));
        assert_eq!(m.get("b").map(Value::to_string).as_deref(), Some("[1,2]"));
        // An escaped quote does not end the string.
        let v: Value = json::parse(&strip_relaxed(r#"{"a": "q\"//", }"#)).unwrap();
        let m = v.as_object().unwrap();
        assert_eq!(m.get("a").and_then(Value::as_str), Some("q\"//"));
    }

    #[test]
    fn defaults_are_valid_and_round_trip() {
        let cfg = ElasticConfig::default();
        cfg.validate().unwrap();
        for s in SPECS {
            assert_eq!(cfg.get(s.name), Some(s.default), "{}", s.name);
        }
        let (back, _) = parse(&cfg.to_json_text(true)).unwrap();
        assert_eq!(back, cfg);
    }

    #[test]
    fn ignored_fields_compare_equal_in_any_order() {
        let (a, _) = parse(r#"{"scale_up_request": 0, "token": "t", "openapi_base_url": 1}"#).unwrap();
        let (b, _) = parse(r#"{"openapi_base_url": 1, "token": "t", "scale_up_request": 0}"#).unwrap();
        assert_eq!(a, b);
        let (back, _) = parse(&a.to_json_text(true)).unwrap();
        assert_eq!(back, a);
    }

    #[test]
    fn errors_name_the_field_and_range() {
        let e = parse(r#"{"max_nodes": 0}"#).unwrap_err();
        assert_eq!(e.field, "max_nodes");
        assert!(e.message.to_string().contains("1 to 200"), "{e}");
        let e = parse(r#"{"delay_prediction": {"delay_time": -1}}"#).unwrap_err();
        assert_eq!(e.field, "delay_prediction.delay_time");
        let e = parse(r#"{"p95_expansion": {"thresold": 5}}"#).unwrap_err();
        assert_eq!(e.field, "p95_expansion.thresold");
        assert!(e.message.to_string().contains("threshold_duration"), "{e}");
        let e = parse(r#"{"lb_policy": "FASTEST"}"#).unwrap_err();
        assert!(e.message.to_string().contains("MAGLEV"), "{e}");
        let e = parse(r#"{"expansion_strategies": ["trend_expansion", "guess"]}"#).unwrap_err();
        assert_eq!(e.field, "expansion_strategies[1]");
        let e = parse(r#"{"min_nodes": 5, "max_nodes": 3}"#).unwrap_err();
        assert_eq!(e.field, "min_nodes");
        let e = parse(r#"{"shrinkage_number": 1.5}"#).unwrap_err();
        assert!(e.message.to_string().contains("whole number"), "{e}");
        let e = parse(r#"{"acq_frequency": "10"}"#).unwrap_err();
        assert_eq!(e.field, "acq_frequency");
        let e = parse(r#"{"colour": 1}"#).unwrap_err();
        assert!(
            e.message.to_string().contains("unknown field") && e.message.to_string().contains("max_requests"),
            "{e}"
        );
        let e = parse("{\n  \"max_nodes\": 3\n  \"min_nodes\": 1\n}").unwrap_err();
        assert_eq!(e.field, "json");
        assert!(e.message.to_string().contains("line 3"), "{e}");
        assert_eq!(parse("[1]").unwrap_err().field, "json");
    }

    #[test]
    fn set_by_name() {
        let mut cfg = ElasticConfig::default();
        cfg.set("elastic.p95_expansion.threshold", 300.0).unwrap();
        assert_eq!(cfg.p95_expansion.threshold, 300.0);
        cfg.set("elastic.expansion_strategies.trend_expansion", 0.0)
            .unwrap();
        assert!(!cfg.enabled("trend_expansion"));
        cfg.set("elastic.expansion_strategies.trend_expansion", 1.0)
            .unwrap();
        assert_eq!(cfg.expansion_strategies, STRATEGIES);
        // A value out of its own range is refused at once and changes nothing.
        let e = cfg.set("elastic.min_nodes", 500.0).unwrap_err();
        assert_eq!(e.field, "elastic.min_nodes");
        assert_eq!(cfg.min_nodes, 2);
        // The rule between settings is checked on the whole configuration, so that either
        // order of setting min_nodes = max_nodes = 1 works.
        for order in [["elastic.max_nodes", "elastic.min_nodes"], ["elastic.min_nodes", "elastic.max_nodes"]] {
            let mut cfg = ElasticConfig::default();
            for name in order {
                cfg.set(name, 1.0).unwrap();
            }
            assert_eq!((cfg.min_nodes, cfg.max_nodes), (1, 1));
            cfg.validate().unwrap();
        }
        cfg.set("elastic.min_nodes", 50.0).unwrap();
        let rule = cfg.broken_rule().unwrap();
        let e = cfg.validate().unwrap_err();
        assert_eq!(e.field, "elastic.min_nodes");
        assert!(e.to_string().contains("must not exceed elastic.max_nodes (20)"), "{e}");
        let e = rule.blame("elastic.max_nodes");
        assert!(e.to_string().contains("elastic.max_nodes: must be at least elastic.min_nodes (50)"), "{e}");
    }
}
