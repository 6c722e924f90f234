//! Command-line runner of the on-call simulator: headless runs, queue calculations.
//!
//! Every argument is checked before anything is printed: bad input gives one line on stderr
//! naming the argument and what is allowed, and exit status 2.

use oncall_sim::autoscale::{self, elastic, PolicyId, PolicySettings};
use oncall_sim::catalog::en;
use oncall_sim::ids::ScenarioId;
use oncall_sim::setup::{RunSetup, SetError};
use oncall_sim::{compare, params::ModelParams, queueing, scenario, Action};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "\
usage:
  oncall-sim scenarios
  oncall-sim run --scenario ID --seed N --minutes M [--action MINUTE:NAME[=VALUE]]...
                 [--set NAME=VALUE]... [--elastic-config FILE] [--format jsonl|csv] [--events FILE]
  oncall-sim compare --scenario ID --seed N [--policies A,B,...] [--minutes M]
                 [--action MINUTE:NAME[=VALUE]]... [--set NAME=VALUE]... [--elastic-config FILE]
  oncall-sim config check FILE
  oncall-sim config export FILE
  oncall-sim queue --servers N --arrival-rate L --service-time S [--within T]

  --set autoscaler=target-tracking|cloud-run|elastic|hpa|kpa picks the policy; model
  parameters and the policies' parameters (cloud_run.*, elastic.*, hpa.*, kpa.*) are set
  by name.";

/// A usage error: the message names the argument and what is allowed.
struct Usage(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            if stdout
                .write_all(output.as_bytes())
                .and_then(|()| stdout.flush())
                .is_err()
            {
                // A closed pipe (e.g. `| head`) is not an error worth a panic.
                return ExitCode::SUCCESS;
            }
            ExitCode::SUCCESS
        }
        Err(Usage(message)) => {
            eprintln!("oncall-sim: {message}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(args: &[String]) -> Result<String, Usage> {
    match args.first().map(String::as_str) {
        Some("scenarios") => {
            no_more(&args[1..])?;
            Ok(scenarios())
        }
        Some("run") => run(&args[1..]),
        Some("compare") => compare_policies(&args[1..]),
        Some("config") => config(&args[1..]),
        Some("queue") => queue(&args[1..]),
        Some("help" | "--help" | "-h") => Ok(format!("{USAGE}\n")),
        Some(other) => Err(Usage(format!(
            "unknown command {other:?}; allowed: scenarios, run, compare, config, queue (see oncall-sim help)"
        ))),
        None => Err(Usage(
            "a command is needed: scenarios, run, compare, config or queue (see oncall-sim help)"
                .into(),
        )),
    }
}

fn no_more(rest: &[String]) -> Result<(), Usage> {
    match rest.first() {
        Some(extra) => Err(Usage(format!("unexpected argument {extra:?}"))),
        None => Ok(()),
    }
}

/// Splits `--flag value` pairs, checking each flag against `allowed`.
fn flags<'a>(args: &'a [String], allowed: &[&str]) -> Result<Vec<(&'a str, &'a str)>, Usage> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (flag.as_str(), None),
        };
        if !allowed.contains(&name) {
            return Err(Usage(format!(
                "unknown argument {flag:?}; allowed: {}",
                allowed.join(", ")
            )));
        }
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .map(String::as_str)
                .ok_or_else(|| Usage(format!("{name} needs a value")))?,
        };
        out.push((name, value));
    }
    Ok(out)
}

fn single<'a>(pairs: &[(&str, &'a str)], name: &str) -> Result<Option<&'a str>, Usage> {
    let mut found = pairs.iter().filter(|(n, _)| *n == name).map(|(_, v)| *v);
    let first = found.next();
    if found.next().is_some() {
        return Err(Usage(format!("{name} given more than once")));
    }
    Ok(first)
}

fn required<'a>(pairs: &[(&str, &'a str)], name: &str) -> Result<&'a str, Usage> {
    single(pairs, name)?.ok_or_else(|| Usage(format!("{name} is required")))
}

fn parse_u32(name: &str, v: &str, lo: u32, hi: u32) -> Result<u32, Usage> {
    v.parse::<u32>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| {
            Usage(format!(
                "{name} {v:?} is not allowed; use a whole number from {lo} to {hi}"
            ))
        })
}

fn parse_f64(name: &str, v: &str, lo: f64, hi: f64, what: &str) -> Result<f64, Usage> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= lo && *x <= hi)
        .ok_or_else(|| Usage(format!("{name} {v:?} is not allowed; use {what}")))
}

fn scenarios() -> String {
    let mut out = String::new();
    for s in scenario::all() {
        out.push_str(&format!("{}\t{}\n", s.id, en::scenario_title(s.id)));
    }
    out
}

/// Longest run the CLI accepts: 30 days.
const MAX_MINUTES: u32 = 43_200;

fn run(args: &[String]) -> Result<String, Usage> {
    let pairs = flags(
        args,
        &[
            "--scenario",
            "--seed",
            "--minutes",
            "--action",
            "--set",
            "--elastic-config",
            "--format",
            "--events",
        ],
    )?;
    let scenario = scenario_arg(&pairs)?;
    let seed = parse_u32("--seed", required(&pairs, "--seed")?, 0, u32::MAX)?;
    let minutes = parse_u32("--minutes", required(&pairs, "--minutes")?, 1, MAX_MINUTES)?;
    let csv = match single(&pairs, "--format")?.unwrap_or("jsonl") {
        "jsonl" => false,
        "csv" => true,
        other => {
            return Err(Usage(format!(
                "--format {other:?} is not allowed; use jsonl or csv"
            )))
        }
    };
    let mut setup = setup(&pairs, scenario.id, seed)?;
    setup.actions = actions_arg(&pairs, minutes)?;
    let events_file = single(&pairs, "--events")?;

    let mut sim = setup.build().map_err(|e| Usage(format!("--set {e}")))?;
    let mut out = String::new();
    let mut events = String::new();
    let mut seen = 0;
    for _ in 0..minutes {
        let record = sim.step();
        if csv {
            let value = serde_json::to_value(record).unwrap_or_default();
            if let serde_json::Value::Object(map) = value {
                if out.is_empty() {
                    let header: Vec<&str> = map.keys().map(String::as_str).collect();
                    out.push_str(&header.join(","));
                    out.push('\n');
                }
                let cells: Vec<String> = map.values().map(csv_cell).collect();
                out.push_str(&cells.join(","));
                out.push('\n');
            }
        } else {
            out.push_str(&serde_json::to_string(record).unwrap_or_default());
            out.push('\n');
        }
        for event in &sim.events()[seen..] {
            let line = serde_json::to_string(event).unwrap_or_default();
            let sink = if events_file.is_some() || csv {
                &mut events
            } else {
                &mut out
            };
            sink.push_str(&line);
            sink.push('\n');
        }
        seen = sim.events().len();
    }
    if let Some(path) = events_file {
        std::fs::write(path, events)
            .map_err(|e| Usage(format!("--events {path:?} cannot be written: {e}")))?;
    }
    Ok(out)
}

fn scenario_arg(pairs: &[(&str, &str)]) -> Result<scenario::Scenario, Usage> {
    let id = required(pairs, "--scenario")?;
    scenario::by_id(id).ok_or_else(|| {
        Usage(format!(
            "--scenario {id:?} is unknown; allowed: {}",
            ScenarioId::NAMES.join(", ")
        ))
    })
}

fn actions_arg(pairs: &[(&str, &str)], minutes: u32) -> Result<Vec<Action>, Usage> {
    let mut actions = Vec::new();
    for (_, v) in pairs.iter().filter(|(n, _)| *n == "--action") {
        let action = Action::parse(v, minutes - 1).map_err(|e| Usage(format!("--action {e}")))?;
        actions.push(action);
    }
    Ok(actions)
}

/// The run's set-up: model parameters, the policy and the policies' parameters, from `--set`
/// and `--elastic-config`.
fn setup(pairs: &[(&str, &str)], scenario: ScenarioId, seed: u32) -> Result<RunSetup, Usage> {
    let mut setup = RunSetup::new(scenario, seed);
    if let Some(path) = single(pairs, "--elastic-config")? {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Usage(format!("--elastic-config {path:?} cannot be read: {e}")))?;
        let (config, _) =
            elastic::parse(&text).map_err(|e| Usage(format!("--elastic-config {path:?}: {e}")))?;
        setup.policies.elastic = config;
    }
    for (_, v) in pairs.iter().filter(|(n, _)| *n == "--set") {
        let (name, value) = v
            .split_once('=')
            .ok_or_else(|| Usage(format!("--set {v:?} must be NAME=VALUE")))?;
        // The scenario has its own flag; `--set` takes the policy and the parameters.
        let result = if name == "scenario" {
            Err(SetError::UnknownName {
                name: name.to_string(),
            })
        } else {
            setup.set(name, value)
        };
        result.map_err(|e| {
            Usage(match e {
                SetError::UnknownId(_) => format!(
                    "--set autoscaler: {value:?} is not allowed; use one of {}",
                    PolicyId::NAMES.join(", ")
                ),
                SetError::UnknownName { .. } => format!(
                    "--set {name}: unknown parameter; use autoscaler, a model parameter ({}) or a policy parameter ({})",
                    ModelParams::SPECS
                        .iter()
                        .map(|s| s.name)
                        .collect::<Vec<_>>()
                        .join(", "),
                    PolicySettings::prefixes()
                        .iter()
                        .map(|p| format!("{p}.*"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                SetError::NotANumber { spec, .. } => format!(
                    "--set {name}: {value:?} is not a number; it {}",
                    spec.allowed()
                ),
                SetError::Param(e) => format!("--set {e}"),
            })
        })?;
    }
    Ok(setup)
}

fn compare_policies(args: &[String]) -> Result<String, Usage> {
    let pairs = flags(
        args,
        &[
            "--scenario",
            "--seed",
            "--minutes",
            "--policies",
            "--action",
            "--set",
            "--elastic-config",
        ],
    )?;
    let scenario = scenario_arg(&pairs)?;
    let seed = parse_u32("--seed", required(&pairs, "--seed")?, 0, u32::MAX)?;
    let minutes = match single(&pairs, "--minutes")? {
        Some(v) => parse_u32("--minutes", v, 1, MAX_MINUTES)?,
        None => scenario.minutes.unwrap_or(240),
    };
    let policies: Vec<PolicyId> = match single(&pairs, "--policies")? {
        Some(list) => list
            .split(',')
            .map(str::trim)
            .map(|id| {
                id.parse().map_err(|_| {
                    Usage(format!(
                        "--policies: {id:?} is not a policy; use a comma-separated list of {}",
                        PolicyId::NAMES.join(", ")
                    ))
                })
            })
            .collect::<Result<_, _>>()?,
        None => PolicyId::ALL.to_vec(),
    };
    let mut setup = setup(&pairs, scenario.id, seed)?;
    if setup.policy != autoscale::DEFAULT_POLICY {
        return Err(Usage(
            "--set autoscaler is not allowed with compare; list the policies with --policies"
                .into(),
        ));
    }
    setup.actions = actions_arg(&pairs, minutes)?;
    let runs =
        compare::compare(&setup, &policies, minutes).map_err(|e| Usage(format!("--set {e}")))?;
    let mut out = String::new();
    for (variant, outcome) in runs {
        let row = compare::PolicyRun::of(&variant, &outcome);
        out.push_str(&serde_json::to_string(&row).unwrap_or_default());
        out.push('\n');
    }
    Ok(out)
}

fn config(args: &[String]) -> Result<String, Usage> {
    let (with_ignored, rest) = match args.first().map(String::as_str) {
        Some("check") => (false, &args[1..]),
        Some("export") => (true, &args[1..]),
        Some(other) => {
            return Err(Usage(format!(
                "config {other:?} is unknown; allowed: config check FILE, config export FILE"
            )))
        }
        None => {
            return Err(Usage(
                "config needs a subcommand: config check FILE or config export FILE".into(),
            ))
        }
    };
    let path = match rest {
        [path] => path,
        [] => return Err(Usage("config: a FILE is required".into())),
        [_, extra, ..] => return Err(Usage(format!("unexpected argument {extra:?}"))),
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Usage(format!("config {path:?} cannot be read: {e}")))?;
    let (cfg, notes) = elastic::parse(&text).map_err(|e| Usage(format!("config {path:?}: {e}")))?;
    for note in notes {
        eprintln!("note: {note}");
    }
    Ok(cfg.to_json_text(with_ignored))
}

fn csv_cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) if s.contains([',', '"', '\n']) => {
            format!("\"{}\"", s.replace('"', "\"\""))
        }
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn queue(args: &[String]) -> Result<String, Usage> {
    let pairs = flags(
        args,
        &["--servers", "--arrival-rate", "--service-time", "--within"],
    )?;
    let servers = parse_u32("--servers", required(&pairs, "--servers")?, 1, 100_000)?;
    let lambda = parse_f64(
        "--arrival-rate",
        required(&pairs, "--arrival-rate")?,
        0.0,
        1e9,
        "a rate in requests per second from 0 to 1e9",
    )?;
    let service = parse_f64(
        "--service-time",
        required(&pairs, "--service-time")?,
        1e-9,
        1e6,
        "a mean service time in seconds, above 0 and at most 1e6",
    )?;
    let within = single(&pairs, "--within")?
        .map(|v| parse_f64("--within", v, 0.0, 1e9, "a time in seconds from 0 to 1e9"))
        .transpose()?;

    let a = lambda * service;
    let c = queueing::erlang_c(a, servers);
    let theta = queueing::drain_rate(servers, service, lambda);
    let stable = a < f64::from(servers);
    let mut obj = serde_json::Map::new();
    obj.insert("erlang_b".into(), queueing::erlang_b(a, servers).into());
    obj.insert("erlang_c".into(), c.into());
    obj.insert(
        "utilization".into(),
        queueing::utilization(lambda, service, servers).into(),
    );
    let mean_wait = if stable { Some(c / theta) } else { None };
    obj.insert("mean_wait_s".into(), mean_wait.into());
    if let Some(t) = within {
        let p = if stable {
            queueing::waiting_tail(c, theta, t)
        } else {
            1.0
        };
        obj.insert("p_wait_gt_within".into(), p.into());
    }
    obj.insert(
        "p99_sojourn_s".into(),
        queueing::sojourn_p99_exact(c, service, servers, lambda).into(),
    );
    obj.insert(
        "p99_sojourn_approx_s".into(),
        queueing::sojourn_p99_approx(c, service, servers, lambda).into(),
    );
    if !stable {
        obj.insert(
            "saturated_failed_share".into(),
            queueing::saturated_failed_share(a, servers).into(),
        );
    }
    Ok(format!("{}\n", serde_json::Value::Object(obj)))
}
