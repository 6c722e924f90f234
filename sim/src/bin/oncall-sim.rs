//! Command-line runner of the on-call simulator: headless runs, queue calculations, the
//! request-level engine.
//!
//! Every argument is checked before anything is printed: bad input gives one line on stderr
//! naming the argument and what is allowed, and exit status 2.

use oncall_sim::autoscale::{self, elastic, PolicyId, PolicySettings};
use oncall_sim::catalog::en;
use oncall_sim::exercise::{file as exercise_file, Exercise};
use oncall_sim::ids::ScenarioId;
use oncall_sim::message::{Message, MessageId as M};
use oncall_sim::params::{parse_number, parse_whole};
use oncall_sim::requests::{self, Routing};
use oncall_sim::setup::{RunSetup, SetError};
use oncall_sim::{compare, params::ModelParams, queueing, scenario, sweep, Action};
use std::io::Write;
use std::process::ExitCode;

/// Why a command fails. Its text comes from the English catalog.
enum Failure {
    /// Bad input: the message names the argument and what is allowed (exit status 2).
    Usage(Message),
    /// The command ran but could not finish: output that cannot be written, a run cut short
    /// (exit status 1).
    Failed(Message),
}

impl Failure {
    /// `id` with the argument `name` as the person typed it.
    fn named(id: M, name: &str) -> Self {
        Failure::Usage(Message::new(id).given("name", name))
    }
}

/// "field: problem", for the core's errors that name a field.
fn field_problem(field: &str, problem: Message) -> Message {
    Message::new(M::FieldProblem)
        .given("field", field)
        .msg("problem", problem)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(printed) => match write_stdout(&printed.output) {
            // A closed pipe (`| head`): the reader has what it wanted.
            Ok(()) => notes_then_success(printed.notes),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                notes_then_success(printed.notes)
            }
            // Anything else (a closed standard output, a full disk, /dev/full) lost output:
            // the command failed.
            Err(e) => {
                let error = Message::new(M::CliCannotWriteOutput).given("error", e.to_string());
                say(&format!("oncall-sim: {error}"));
                ExitCode::from(1)
            }
        },
        Err(Failure::Usage(message)) => {
            say(&format!("oncall-sim: {message}"));
            ExitCode::from(2)
        }
        Err(Failure::Failed(message)) => {
            say(&format!("oncall-sim: {message}"));
            ExitCode::from(1)
        }
    }
}

/// Prints the notes on stderr; the command succeeded.
fn notes_then_success(notes: Vec<Message>) -> ExitCode {
    for note in notes {
        say(&note.to_string());
    }
    ExitCode::SUCCESS
}

/// Writes the command's output to the standard output, reporting a standard output that was
/// closed when the program started as the error it is (EBADF).
fn write_stdout(output: &str) -> std::io::Result<()> {
    if stdout_was_closed() {
        return Err(std::io::Error::from_raw_os_error(EBADF));
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(output.as_bytes())?;
    stdout.flush()
}

/// "Bad file descriptor" on Linux (and the other Unix systems).
const EBADF: i32 = 9;

/// Whether the standard output was closed when the program started. The Rust runtime opens
/// /dev/null, for reading and writing, in place of a standard descriptor that is closed, so
/// that writes to it succeed and the output is lost silently; a /dev/null the shell opens for
/// `>/dev/null` is open for writing only. On Linux the descriptor's target and flags tell
/// them apart; elsewhere this cannot be told and the answer is no.
fn stdout_was_closed() -> bool {
    #[cfg(target_os = "linux")]
    {
        let null = std::fs::read_link("/proc/self/fd/1")
            .is_ok_and(|target| target == std::path::Path::new("/dev/null"));
        if !null {
            return false;
        }
        // "flags:\t0100002": octal; the access mode is the last digit's two low bits
        // (O_RDWR = 2).
        std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("flags:"))
                .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
                .is_some_and(|flags| flags & 0o3 == 0o2)
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Writes a line to stderr. When stderr itself cannot be written there is nowhere left to
/// say so; the exit status still tells.
fn say(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
}

/// What a command prints: its output, and the notes for stderr (printed once the output is
/// written, so that lost output is reported in one line).
struct Printed {
    output: String,
    notes: Vec<Message>,
}

impl From<String> for Printed {
    fn from(output: String) -> Self {
        Printed {
            output,
            notes: Vec::new(),
        }
    }
}

fn dispatch(args: &[String]) -> Result<Printed, Failure> {
    if let Some(usage) = help(args) {
        return Ok(Printed::from(usage));
    }
    match args.first().map(String::as_str) {
        Some("config") => return config(&args[1..]),
        Some("scenario") => return scenario_command(&args[1..]).map(Printed::from),
        _ => {}
    }
    command(args).map(Printed::from)
}

/// The usage asked for, if it is: `oncall-sim COMMAND --help` (or `-h`) as the command's
/// first argument, and `oncall-sim help COMMAND`, give that command's usage lines (those of
/// the whole usage text); `oncall-sim help`, `--help` and `-h` give the whole text.
fn help(args: &[String]) -> Option<String> {
    let first = args.first().map(String::as_str)?;
    let second = args.get(1).map(String::as_str);
    let command = match (first, second) {
        ("help" | "--help" | "-h", None) => {
            return Some(format!("{}\n", Message::new(M::CliUsage)));
        }
        ("help", Some(command)) if args.len() == 2 => command,
        (command, Some("--help" | "-h")) => command,
        _ => return None,
    };
    if !oncall_sim::message::CLI_COMMANDS.contains(&command) {
        return None;
    }
    let usage = Message::new(M::CliUsage).to_string();
    Some(format!(
        "{}\n",
        oncall_sim::message::command_usage(&usage, command)
    ))
}

fn command(args: &[String]) -> Result<String, Failure> {
    match args.first().map(String::as_str) {
        Some("scenarios") => {
            no_more(&args[1..])?;
            Ok(scenarios())
        }
        Some("run") => run(&args[1..]),
        Some("compare") => compare_policies(&args[1..]),
        Some("queue") => queue(&args[1..]),
        Some("par") => par(&args[1..]),
        Some("postmortem") => postmortem(&args[1..]),
        Some("sweep") => sweep(&args[1..]),
        Some("lb") => lb(&args[1..]),
        Some("des") => des(&args[1..]),
        Some("health") => health(&args[1..]),
        Some("help" | "--help" | "-h") => Ok(format!("{}\n", Message::new(M::CliUsage))),
        Some(other) => Err(Failure::Usage(
            Message::new(M::CliUnknownCommand).given("given", other),
        )),
        None => Err(Failure::Usage(Message::new(M::CliNoCommand))),
    }
}

fn no_more(rest: &[String]) -> Result<(), Failure> {
    match rest.first() {
        Some(extra) => Err(Failure::Usage(
            Message::new(M::CliUnexpected).given("given", extra.as_str()),
        )),
        None => Ok(()),
    }
}

/// Splits `--flag value` pairs, checking each flag against `allowed`.
fn flags<'a>(args: &'a [String], allowed: &[&str]) -> Result<Vec<(&'a str, &'a str)>, Failure> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (flag.as_str(), None),
        };
        if !allowed.contains(&name) {
            return Err(Failure::Usage(
                Message::new(M::CliUnknownFlag)
                    .given("given", flag.as_str())
                    .given("allowed", allowed.join(", ")),
            ));
        }
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .map(String::as_str)
                .ok_or_else(|| Failure::named(M::CliNeedsValue, name))?,
        };
        out.push((name, value));
    }
    Ok(out)
}

fn single<'a>(pairs: &[(&str, &'a str)], name: &str) -> Result<Option<&'a str>, Failure> {
    let mut found = pairs.iter().filter(|(n, _)| *n == name).map(|(_, v)| *v);
    let first = found.next();
    if found.next().is_some() {
        return Err(Failure::named(M::CliGivenTwice, name));
    }
    Ok(first)
}

fn required<'a>(pairs: &[(&str, &'a str)], name: &str) -> Result<&'a str, Failure> {
    single(pairs, name)?.ok_or_else(|| Failure::named(M::CliRequired, name))
}

fn parse_u32(name: &str, v: &str, lo: u32, hi: u32) -> Result<u32, Failure> {
    parse_whole(v)
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| {
            let whole = Message::new(M::ActionAllowedWhole)
                .int("lo", lo)
                .int("hi", hi);
            not_allowed(name, v, whole)
        })
}

fn parse_f64(name: &str, v: &str, lo: f64, hi: f64, what: M) -> Result<f64, Failure> {
    parse_number(v)
        .filter(|x| x.is_finite() && *x >= lo && *x <= hi)
        .ok_or_else(|| not_allowed(name, v, Message::new(what)))
}

/// "NAME "VALUE" is not allowed; use WHAT".
fn not_allowed(name: &str, given: &str, what: Message) -> Failure {
    Failure::Usage(
        Message::new(M::CliNotAllowed)
            .given("name", name)
            .given("given", given)
            .msg("what", what),
    )
}

fn scenarios() -> String {
    let mut out = String::new();
    for s in oncall_sim::exercise::scenarios() {
        out.push_str(&format!("{}\t{}\n", s.id, en::scenario_title(s.id)));
    }
    out
}

/// Longest run the CLI accepts: 30 days.
const MAX_MINUTES: u32 = 43_200;

/// Longest `par` or `compare` the CLI accepts in request mode: a day. Every request is
/// simulated there (a minute costs about a thousand times a minute of the formulas, and as
/// many times more as there are regions), and these commands run the scenario several times.
const MAX_REQUEST_MODE_MINUTES: u32 = 1_440;

/// The work of one simulated minute, in minutes of the formulas in one region: a thousand
/// per region in request mode. A deterministic estimate, so that what is said about a run
/// depends only on its arguments.
fn minute_weight(setup: &RunSetup) -> Result<u64, Failure> {
    let regions = regions(setup)?;
    let scenario = setup.definition();
    let requests =
        setup.params.engine.unwrap_or(scenario.engine) == oncall_sim::params::EngineKind::Requests;
    Ok(if requests { 1_000 * regions } else { regions })
}

/// The regions of `setup`'s runs.
fn regions(setup: &RunSetup) -> Result<u64, Failure> {
    let sim = setup
        .build()
        .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?;
    Ok(u64::try_from(sim.region_count().max(1)).unwrap_or(u64::MAX))
}

/// Refuses `par` and `compare` past [`MAX_REQUEST_MODE_MINUTES`] in request mode.
fn check_long_minutes(command: &str, minutes: u32, weight: u64) -> Result<(), Failure> {
    if weight >= 1_000 && minutes > MAX_REQUEST_MODE_MINUTES {
        return Err(Failure::Usage(
            Message::new(M::CliMinutesRequestMode)
                .int("given", minutes)
                .int("max", MAX_REQUEST_MODE_MINUTES)
                .given("command", command),
        ));
    }
    Ok(())
}

/// Work (runs × minutes × [`minute_weight`]) past which a command says on stderr that it will
/// take a while, and shows its progress: some 5 s of this machine's formulas or request mode.
const LONG_WORK: u64 = 500_000;

/// What a long command says on stderr while it runs: a line when it starts, then one per run
/// done (for `run`, one per tenth of its minutes). Silent for the others.
struct Progress {
    command: &'static str,
    long: bool,
    said: u32,
}

impl Progress {
    fn new(command: &'static str, runs: u32, minutes: u32, weight: u64) -> Self {
        let work = u64::from(runs) * u64::from(minutes) * weight;
        let long = work > LONG_WORK;
        if long {
            let start = if command == "run" {
                Message::new(M::CliProgressStartRun).int("minutes", minutes)
            } else {
                Message::new(M::CliProgressStart)
                    .given("command", command)
                    .int("runs", runs)
                    .int("minutes", minutes)
            };
            say(&format!("oncall-sim: {start}"));
        }
        Progress {
            command,
            long,
            said: 0,
        }
    }

    /// `done` runs of `total` are over.
    fn runs_done(&mut self, done: u32, total: u32) {
        if self.long && done > self.said {
            self.said = done;
            say(&format!(
                "oncall-sim: {}",
                Message::new(M::CliProgressRuns)
                    .given("command", self.command)
                    .int("done", done)
                    .int("total", total)
            ));
        }
    }

    /// `run`: `done` minutes of `total` simulated; said at each tenth.
    fn minutes_done(&mut self, done: u32, total: u32) {
        let tenth = u64::from(done) * 10 / u64::from(total.max(1));
        let tenth = u32::try_from(tenth).unwrap_or(u32::MAX);
        if self.long && tenth > self.said {
            self.said = tenth;
            say(&format!(
                "oncall-sim: {}",
                Message::new(M::CliProgressMinutes)
                    .int("done", done)
                    .int("total", total)
            ));
        }
    }
}

fn run(args: &[String]) -> Result<String, Failure> {
    let pairs = flags(
        args,
        &[
            "--scenario",
            "--scenario-file",
            "--seed",
            "--minutes",
            "--action",
            "--set",
            "--elastic-config",
            "--format",
            "--events",
            "--regions",
        ],
    )?;
    let seed = parse_u32("--seed", required(&pairs, "--seed")?, 0, u32::MAX)?;
    let minutes = parse_u32("--minutes", required(&pairs, "--minutes")?, 1, MAX_MINUTES)?;
    let csv = match single(&pairs, "--format")?.unwrap_or("jsonl") {
        "jsonl" => false,
        "csv" => true,
        other => return Err(not_allowed("--format", other, Message::new(M::CliFormats))),
    };
    let mut setup = setup(&pairs, seed)?;
    setup.actions = actions_arg(&pairs, minutes)?;
    // The events file is created before the run, so that a path that cannot be written is
    // reported at once rather than after the whole run.
    let events_file = single(&pairs, "--events")?
        .map(|path| {
            std::fs::File::create(path)
                .map(|file| (path, file))
                .map_err(|e| cannot_write("--events", path, &e))
        })
        .transpose()?;
    // Each region's minute, one JSON line per region and minute (with `minute`).
    let regions_file = single(&pairs, "--regions")?
        .map(|path| {
            std::fs::File::create(path)
                .map(|file| (path, file))
                .map_err(|e| cannot_write("--regions", path, &e))
        })
        .transpose()?;

    let mut sim = setup
        .build()
        .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?;
    let mut out = String::new();
    let mut events = String::new();
    let mut seen = 0;
    // The CSV's rows, written once the run is over (the console's export writes the same).
    let mut records = Vec::new();
    let mut progress = Progress::new("run", 1, minutes, minute_weight(&setup)?);
    for minute in 0..minutes {
        progress.minutes_done(minute, minutes);
        let record = sim.step();
        if csv {
            records.push(record.clone());
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
    if csv {
        out = oncall_sim::run_file::records_csv(&records);
    }
    // The debrief closes the events: the run's summary with its worst minute and warnings.
    let sink = if events_file.is_some() || csv {
        &mut events
    } else {
        &mut out
    };
    sink.push_str(&debrief_line(&setup, &sim, minutes)?);
    sink.push('\n');
    if let Some((path, mut file)) = events_file {
        file.write_all(events.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| lost_output("--events", path, &e))?;
    }
    if let Some((path, mut file)) = regions_file {
        let mut lines = String::new();
        for (minute, regions) in sim.region_history().iter().enumerate() {
            for region in regions {
                let mut value = serde_json::to_value(region).unwrap_or_default();
                if let serde_json::Value::Object(map) = &mut value {
                    map.insert("minute".into(), serde_json::Value::from(minute));
                }
                lines.push_str(&serde_json::to_string(&value).unwrap_or_default());
                lines.push('\n');
            }
        }
        file.write_all(lines.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| lost_output("--regions", path, &e))?;
    }
    Ok(out)
}

/// The `debrief` line that ends a run's events: `summary` holds the run's summary plus
/// `worst_minute` (minute, clock, error_rate, p99_ms, cause) and `warnings` (each with its
/// id under `warning` and its figures). A run with actions is replayed once without them,
/// for the warning of spending more than doing nothing.
fn debrief_line(
    setup: &RunSetup,
    sim: &oncall_sim::Simulation,
    minutes: u32,
) -> Result<String, Failure> {
    use oncall_sim::coach;
    use oncall_sim::par::{ParKind, ParLine};
    let summary = sim.summary();
    let mut par = Vec::new();
    if !setup.actions.is_empty() {
        let mut bare = setup.clone();
        bare.actions.clear();
        let nothing = bare
            .run(minutes)
            .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?;
        par.push(ParLine::of(ParKind::NothingDone, &nothing, bare.params.slo));
    }
    let opening_ttl_s = setup.definition().settings.cache_ttl_s;
    let warnings = coach::warnings(&summary, opening_ttl_s, &par);
    let mut fields = match serde_json::to_value(&summary) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let worst = coach::worst_minute(sim.history()).map(|w| {
        serde_json::json!({
            "minute": w.minute,
            "clock": w.clock,
            "error_rate": w.error_rate,
            "p99_ms": w.p99_ms,
            "cause": w.cause.as_str(),
        })
    });
    fields.insert("worst_minute".into(), worst.into());
    fields.insert(
        "warnings".into(),
        serde_json::to_value(&warnings).unwrap_or_default(),
    );
    let line = serde_json::json!({
        "minute": minutes,
        "clock": sim.clock_at(minutes),
        "event": "debrief",
        "summary": fields,
    });
    Ok(line.to_string())
}

/// "FLAG "PATH" cannot be written: ERROR".
fn cannot_write(flag: &str, path: &str, error: &std::io::Error) -> Failure {
    Failure::Usage(
        Message::new(M::CliCannotWrite)
            .given("flag", flag)
            .given("path", path)
            .given("error", error.to_string()),
    )
}

/// "FLAG "PATH" cannot be written: ERROR" for a file that was created but could not be
/// written in full (a full disk): the run's output is lost, exit status 1.
fn lost_output(flag: &str, path: &str, error: &std::io::Error) -> Failure {
    match cannot_write(flag, path, error) {
        Failure::Usage(message) | Failure::Failed(message) => Failure::Failed(message),
    }
}

/// A configuration file's text, refused unread past [`elastic::MAX_CONFIG_BYTES`] (as the
/// console's editor does), so that `/dev/zero` cannot fill the memory.
fn read_config(flag: &str, path: &str) -> Result<String, Failure> {
    read_limited(flag, path, elastic::MAX_CONFIG_BYTES)
}

/// A file's text, refused unread past `max` bytes.
fn read_limited(flag: &str, path: &str, max: usize) -> Result<String, Failure> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| cannot_read(flag, path, &e))?;
    let mut bytes = Vec::new();
    let limit = u64::try_from(max).unwrap_or(u64::MAX);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot_read(flag, path, &e))?;
    if bytes.len() > max {
        return Err(Failure::Usage(
            Message::new(M::CliFileTooLarge)
                .given("flag", flag)
                .given("path", path)
                .int("max", i64::try_from(limit).unwrap_or(i64::MAX)),
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        let e = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        );
        cannot_read(flag, path, &e)
    })
}

/// `--minutes`, or the length of the exercise (240 for an endless one).
fn minutes_arg(pairs: &[(&str, &str)], setup: &RunSetup) -> Result<u32, Failure> {
    match single(pairs, "--minutes")? {
        Some(v) => parse_u32("--minutes", v, 1, MAX_MINUTES),
        None => Ok(setup.length()),
    }
}

/// The exercise a run plays, as a set-up with `seed`: a built-in one (`--scenario ID`) or an
/// author's file (`--scenario-file FILE`, its run parameters set), exactly one of them.
fn exercise_arg(pairs: &[(&str, &str)], seed: u32) -> Result<RunSetup, Failure> {
    match (
        single(pairs, "--scenario")?,
        single(pairs, "--scenario-file")?,
    ) {
        (Some(_), Some(_)) => Err(Failure::Usage(Message::new(M::CliScenarioOrFile))),
        (None, Some(path)) => {
            let (text, exercise) = read_exercise("--scenario-file", path)?;
            RunSetup::for_exercise(exercise, seed)
                .map_err(|(name, e)| exercise_param_refused(path, &text, &name, e))
        }
        (_, None) => Ok(RunSetup::new(scenario_arg(pairs)?.id, seed)),
    }
}

/// An exercise file's text and what it reads to; a refusal names the file, the line and
/// column, the field and what is allowed.
fn read_exercise(flag: &str, path: &str) -> Result<(String, Exercise), Failure> {
    let text = read_limited(flag, path, exercise_file::MAX_BYTES)?;
    let exercise = exercise_file::read(&text)
        .map_err(|e| exercise_refused(path, e.line, e.column, &e.field, e.message))?;
    Ok((text, exercise))
}

/// A run parameter of an exercise file that `--set` would refuse too, with its place.
fn exercise_param_refused(path: &str, text: &str, name: &str, e: SetError) -> Failure {
    let at = [
        oncall_sim::json::Step::Key("params".into()),
        oncall_sim::json::Step::Key(name.into()),
    ];
    let (line, column) = oncall_sim::json::locate(text, &at);
    let value = match &e {
        SetError::NotANumber { given, .. } => given.clone(),
        _ => String::new(),
    };
    let field = format!("params.{name}");
    exercise_refused(path, line, column, &field, set_refused(name, &value, e))
}

/// "PATH: line L, column C, FIELD: PROBLEM" for an exercise file the core refused.
fn exercise_refused(
    path: &str,
    line: usize,
    column: usize,
    field: &str,
    problem: Message,
) -> Failure {
    let id = if field.is_empty() {
        M::CliExerciseErrorAt
    } else {
        M::CliExerciseError
    };
    Failure::Usage(
        Message::new(id)
            .given("path", path)
            .int("line", i64::try_from(line).unwrap_or(i64::MAX))
            .int("column", i64::try_from(column).unwrap_or(i64::MAX))
            .given("field", field)
            .msg("error", problem),
    )
}

/// `oncall-sim scenario check FILE`, `oncall-sim scenario link FILE` (the fragment that
/// carries the exercise in the console's link) and `oncall-sim scenario export ID`.
fn scenario_command(args: &[String]) -> Result<String, Failure> {
    let (command, rest) = match args.first().map(String::as_str) {
        Some("check") => ("check", &args[1..]),
        // The link's compression is the extended build's (as the console's reader is).
        #[cfg(feature = "extended")]
        Some("link") => ("link", &args[1..]),
        Some("export") => ("export", &args[1..]),
        Some(other) => {
            return Err(Failure::Usage(
                Message::new(M::CliScenarioUnknown).given("given", other),
            ))
        }
        None => return Err(Failure::Usage(Message::new(M::CliScenarioNeedsSubcommand))),
    };
    let what = if command == "export" { "ID" } else { "FILE" };
    let arg = match rest {
        [arg] => arg.as_str(),
        [] => {
            return Err(Failure::Usage(
                Message::new(M::CliScenarioNeedsArgument)
                    .code("command", command)
                    .code("what", what),
            ))
        }
        [_, extra, ..] => {
            return Err(Failure::Usage(
                Message::new(M::CliUnexpected).given("given", extra.as_str()),
            ))
        }
    };
    if command == "export" {
        let id: ScenarioId = arg.parse().map_err(|_| {
            Failure::Usage(
                Message::new(M::CliUnknownScenario)
                    .given("given", arg)
                    .codes("allowed", ScenarioId::NAMES.to_vec()),
            )
        })?;
        return Ok(oncall_sim::exercise::builtin_text(id).to_string());
    }
    let (text, exercise) = read_exercise(&format!("scenario {command}"), arg)?;
    #[cfg(feature = "extended")]
    if command == "link" {
        RunSetup::for_exercise(exercise.clone(), 1)
            .map_err(|(name, e)| exercise_param_refused(arg, &text, &name, e))?;
        let fragment = oncall_sim::exercise::link::fragment(&exercise)
            .map_err(|why| exercise_refused(arg, 1, 1, "", why))?;
        return Ok(format!("{fragment}\n"));
    }
    let injects = exercise.scenario.timeline.len();
    let (hints, minutes, title) = (
        exercise.hints.len(),
        exercise.scenario.minutes,
        exercise.title.clone(),
    );
    RunSetup::for_exercise(exercise, 1)
        .map_err(|(name, e)| exercise_param_refused(arg, &text, &name, e))?;
    Ok(format!(
        "{}\n",
        Message::new(M::CliExerciseChecked)
            .given("path", arg)
            .given("title", title)
            .given(
                "minutes",
                minutes.map_or_else(|| "endless".to_string(), |m| m.to_string())
            )
            .int("injects", injects as i64)
            .int("hints", hints as i64)
    ))
}

fn scenario_arg(pairs: &[(&str, &str)]) -> Result<scenario::Scenario, Failure> {
    let id = required(pairs, "--scenario")?;
    oncall_sim::exercise::scenario_by_id(id).ok_or_else(|| {
        Failure::Usage(
            Message::new(M::CliUnknownScenario)
                .given("given", id)
                .codes("allowed", ScenarioId::NAMES.to_vec()),
        )
    })
}

fn actions_arg(pairs: &[(&str, &str)], minutes: u32) -> Result<Vec<Action>, Failure> {
    let mut actions = Vec::new();
    for (_, v) in pairs.iter().filter(|(n, _)| *n == "--action") {
        let action = Action::parse(v, minutes - 1)
            .map_err(|e| Failure::Usage(Message::new(M::CliAction).msg("error", e.message())))?;
        actions.push(action);
    }
    Ok(actions)
}

/// The run's set-up: model parameters, the policy and the policies' parameters, from `--set`
/// and `--elastic-config`.
fn setup(pairs: &[(&str, &str)], seed: u32) -> Result<RunSetup, Failure> {
    let mut setup = exercise_arg(pairs, seed)?;
    if let Some(path) = single(pairs, "--elastic-config")? {
        let text = read_config("--elastic-config", path)?;
        let (config, _) =
            elastic::parse(&text).map_err(|e| config_error("--elastic-config", path, e))?;
        // The file's lb_policy selects the request engine's policy (a `--set lb=` given
        // too wins, being applied after).
        setup.params.lb = Some(config.lb_policy);
        setup.policies.elastic = config;
    }
    let mut given: Vec<(&str, &str)> = Vec::new();
    for (_, v) in pairs.iter().filter(|(n, _)| *n == "--set") {
        let (name, value) = v
            .split_once('=')
            .ok_or_else(|| Failure::Usage(Message::new(M::CliSetShape).given("given", *v)))?;
        if let Some((_, first)) = given.iter().find(|(n, _)| *n == name) {
            return Err(Failure::Usage(
                Message::new(M::CliSetTwice)
                    .given("name", name)
                    .given("first", *first)
                    .given("second", value),
            ));
        }
        given.push((name, value));
        setup
            .set(name, value)
            .map_err(|e| Failure::Usage(set_refused(name, value, e)))?;
    }
    // The rules between parameters, once every one is set: the order of the --set
    // arguments never matters, and the error names one the person gave.
    let names: Vec<&str> = given.iter().map(|(n, _)| *n).collect();
    setup
        .check_rules(&names)
        .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?;
    Ok(setup)
}

/// Why `--set NAME=VALUE` (or an exercise's run parameter) was refused, naming what is allowed.
fn set_refused(name: &str, value: &str, e: SetError) -> Message {
    match e {
        SetError::UnknownId(e) if e.kind != "autoscaler" => Message::new(M::CliSetUnknownChoice)
            .given("name", name)
            .given("given", value)
            .codes("allowed", e.allowed.to_vec()),
        SetError::UnknownId(_) => Message::new(M::CliSetUnknownPolicy)
            .given("given", value)
            .codes("allowed", PolicyId::NAMES.to_vec()),
        SetError::UnknownName { .. } => Message::new(M::CliSetUnknownName)
            .given("name", name)
            .codes("model", ModelParams::SPECS.iter().map(|s| s.name).collect())
            .given(
                "prefixes",
                PolicySettings::prefixes()
                    .iter()
                    .map(|p| format!("{p}.*"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        SetError::NotANumber { spec, .. } => Message::new(M::CliSetNotANumber)
            .given("name", name)
            .given("given", value)
            .msg("allowed", spec.allowed()),
        SetError::Param(e) => Message::new(M::CliSet).msg("error", e.message()),
    }
}

/// The debrief's par lines for a scenario and seed: one JSON line each.
fn par(args: &[String]) -> Result<String, Failure> {
    let pairs = flags(
        args,
        &[
            "--scenario",
            "--scenario-file",
            "--seed",
            "--minutes",
            "--set",
            "--elastic-config",
        ],
    )?;
    let seed = parse_u32("--seed", required(&pairs, "--seed")?, 0, u32::MAX)?;
    let setup = setup(&pairs, seed)?;
    let minutes = minutes_arg(&pairs, &setup)?;
    let weight = minute_weight(&setup)?;
    check_long_minutes("par", minutes, weight)?;
    // With regions, two more runs follow the search: failover off, outlier detection only.
    let regional_runs = if regions(&setup)? > 1 { 2 } else { 0 };
    let mut progress = Progress::new(
        "par",
        oncall_sim::par::most_replays_of(&setup) + regional_runs,
        minutes,
        weight,
    );
    let mut search = oncall_sim::par::ParSearch::new(&setup, minutes);
    while !search
        .step()
        .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?
    {
        let (done, total) = search.progress();
        progress.runs_done(done, total + regional_runs);
    }
    let (done, total) = search.progress();
    progress.runs_done(done, total + regional_runs);
    let lines = search.lines().to_vec();
    let mut out = String::new();
    for line in lines {
        out.push_str(&serde_json::to_string(&line).unwrap_or_default());
        out.push('\n');
    }
    // With regions: the same run with failover off, and with outlier detection only.
    let regional = oncall_sim::par::regions::comparison(&setup, minutes)
        .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?;
    progress.runs_done(done + regional_runs, total + regional_runs);
    for line in regional {
        out.push_str(&serde_json::to_string(&line).unwrap_or_default());
        out.push('\n');
    }
    Ok(out)
}

/// A run's postmortem draft in Markdown, from the options `run` takes (`--minutes` defaults
/// to the scenario's length): the run, then its par lines for the comparisons.
fn postmortem(args: &[String]) -> Result<String, Failure> {
    let pairs = flags(
        args,
        &[
            "--scenario",
            "--scenario-file",
            "--seed",
            "--minutes",
            "--action",
            "--set",
            "--elastic-config",
        ],
    )?;
    let seed = parse_u32("--seed", required(&pairs, "--seed")?, 0, u32::MAX)?;
    let mut setup = setup(&pairs, seed)?;
    let minutes = minutes_arg(&pairs, &setup)?;
    setup.actions = actions_arg(&pairs, minutes)?;
    let weight = minute_weight(&setup)?;
    check_long_minutes("postmortem", minutes, weight)?;
    let refused = |e: oncall_sim::params::ParamError| {
        Failure::Usage(Message::new(M::CliSet).msg("error", e.message()))
    };
    let runs = 1 + oncall_sim::par::most_replays_of(&setup);
    let mut progress = Progress::new("postmortem", runs, minutes, weight);
    let outcome = setup.run(minutes).map_err(refused)?;
    progress.runs_done(1, runs);
    let mut search = oncall_sim::par::ParSearch::new(&setup, minutes);
    while !search.step().map_err(refused)? {
        let (done, total) = search.progress();
        progress.runs_done(1 + done, 1 + total);
    }
    let (done, total) = search.progress();
    progress.runs_done(1 + done, 1 + total);
    let draft = oncall_sim::postmortem::Postmortem::new(&setup, &outcome, search.lines());
    Ok(draft.to_string())
}

fn compare_policies(args: &[String]) -> Result<String, Failure> {
    let pairs = flags(
        args,
        &[
            "--scenario",
            "--scenario-file",
            "--seed",
            "--minutes",
            "--policies",
            "--action",
            "--set",
            "--elastic-config",
        ],
    )?;
    let seed = parse_u32("--seed", required(&pairs, "--seed")?, 0, u32::MAX)?;
    let mut setup = setup(&pairs, seed)?;
    let minutes = minutes_arg(&pairs, &setup)?;
    let policies = policies_arg(&pairs)?;
    if setup.policy != autoscale::DEFAULT_POLICY {
        return Err(Failure::Usage(Message::new(M::CliAutoscalerWithCompare)));
    }
    setup.actions = actions_arg(&pairs, minutes)?;
    let weight = minute_weight(&setup)?;
    check_long_minutes("compare", minutes, weight)?;
    let n = u32::try_from(policies.len()).unwrap_or(u32::MAX);
    let mut progress = Progress::new("compare", n, minutes, weight);
    let mut runs = Vec::new();
    for policy in &policies {
        // One policy at a time (each run is independent of the others), so that progress
        // can be told.
        let run = compare::compare(&setup, &[*policy], minutes)
            .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?;
        runs.extend(run);
        progress.runs_done(u32::try_from(runs.len()).unwrap_or(u32::MAX), n);
    }
    let mut out = String::new();
    for (variant, outcome) in runs {
        let row = compare::PolicyRun::of(&variant, &outcome);
        out.push_str(&serde_json::to_string(&row).unwrap_or_default());
        out.push('\n');
    }
    Ok(out)
}

/// `--policies A,B,...` (each once), or every policy.
fn policies_arg(pairs: &[(&str, &str)]) -> Result<Vec<PolicyId>, Failure> {
    let policies: Vec<PolicyId> = match single(pairs, "--policies")? {
        Some(list) => list
            .split(',')
            .map(str::trim)
            .map(|id| {
                id.parse().map_err(|_| {
                    Failure::Usage(
                        Message::new(M::CliPolicies)
                            .given("given", id)
                            .codes("allowed", PolicyId::NAMES.to_vec()),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        None => PolicyId::ALL.to_vec(),
    };
    if let Some((_, twice)) = policies
        .iter()
        .enumerate()
        .find(|(i, p)| policies[..*i].contains(p))
    {
        return Err(Failure::Usage(
            Message::new(M::CliPoliciesTwice).given("given", twice.as_str()),
        ));
    }
    Ok(policies)
}

/// A strategy over many seeds: one JSON line per strategy and seed, or the summary; a shard
/// of the seeds; or (`--merge FILE...`) the summary of shards' lines.
fn sweep(args: &[String]) -> Result<String, Failure> {
    if args.first().map(String::as_str) == Some("--merge") {
        return merge_sweep(&args[1..]);
    }
    if let Some(merge) = args.iter().find(|a| a.as_str() == "--merge") {
        return Err(Failure::Usage(
            Message::new(M::CliMergeAlone).given("given", merge.as_str()),
        ));
    }
    let summary = args.iter().any(|a| a == "--summary");
    let rest: Vec<String> = args.iter().filter(|a| *a != "--summary").cloned().collect();
    let pairs = flags(
        &rest,
        &[
            "--scenario",
            "--scenario-file",
            "--seed",
            "--seeds",
            "--minutes",
            "--action",
            "--policies",
            "--set",
            "--elastic-config",
            "--shard",
        ],
    )?;
    let seed = match single(&pairs, "--seed")? {
        Some(v) => parse_u32("--seed", v, 0, u32::MAX)?,
        None => 0,
    };
    let seeds = match single(&pairs, "--seeds")? {
        Some(v) => parse_u32("--seeds", v, 1, sweep::MAX_SEEDS)?,
        None => 1_000,
    };
    let mut setup = setup(&pairs, seed)?;
    let minutes = minutes_arg(&pairs, &setup)?;
    setup.actions = actions_arg(&pairs, minutes)?;
    let policies = policies_arg(&pairs)?;
    let shard = match single(&pairs, "--shard")? {
        Some(v) => Some(shard_arg(v, seeds)?),
        None => None,
    };
    if summary && shard.is_some() {
        return Err(Failure::Usage(Message::new(M::CliSummaryWithShard)));
    }
    let weight = minute_weight(&setup)?;
    check_long_minutes("sweep", minutes, weight)?;
    let plan = sweep::SweepPlan::new(setup, minutes, seeds, policies)
        .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?;
    let indices = match shard {
        Some((i, n)) => plan.shard(i, n),
        None => 0..seeds,
    };
    let per_seed = plan.runs_per_seed();
    let total = (indices.end - indices.start).saturating_mul(per_seed);
    let mut progress = Progress::new("sweep", total, minutes, weight);
    // A slice of seeds at a time across the cores, so that a long sweep tells its progress.
    let chunk = (indices.end - indices.start).div_ceil(20).max(1);
    let mut lines = Vec::new();
    let mut from = indices.start;
    while from < indices.end {
        let to = from.saturating_add(chunk).min(indices.end);
        let done = plan
            .run(from..to)
            .map_err(|e| Failure::Usage(Message::new(M::CliSet).msg("error", e.message())))?;
        lines.extend(done);
        progress.runs_done((to - indices.start).saturating_mul(per_seed), total);
        from = to;
    }
    if summary {
        let summary = sweep::summarize(&lines).map_err(incomplete_sweep)?;
        return Ok(sweep::summary_lines(&summary));
    }
    let mut out = String::new();
    for line in &lines {
        out.push_str(&line.to_json());
        out.push('\n');
    }
    Ok(out)
}

/// `--shard I/N`: the `I`-th (from 0) of `N` slices, `N` at most the seeds.
fn shard_arg(v: &str, seeds: u32) -> Result<(u32, u32), Failure> {
    let refused = || {
        Failure::Usage(
            Message::new(M::CliShard)
                .given("given", v)
                .int("seeds", seeds),
        )
    };
    let (i, n) = v.split_once('/').ok_or_else(refused)?;
    let whole = |t: &str| parse_whole(t).and_then(|x| u32::try_from(x).ok());
    match (whole(i), whole(n)) {
        (Some(i), Some(n)) if i < n && n <= seeds => Ok((i, n)),
        _ => Err(refused()),
    }
}

/// The largest file of a sweep's lines `--merge` reads (a million seeds of eight runs is
/// some 2 GB).
const MAX_SWEEP_FILE: u64 = 8 << 30;

/// `sweep --merge FILE...`: the summary of the lines in the files, refused unless they make
/// one whole sweep.
fn merge_sweep(files: &[String]) -> Result<String, Failure> {
    use std::io::BufRead;
    if files.is_empty() {
        return Err(Failure::Usage(Message::new(M::CliMergeNoFiles)));
    }
    if let Some(flag) = files.iter().find(|f| f.starts_with("--")) {
        return Err(Failure::Usage(
            Message::new(M::CliMergeAlone).given("given", flag.as_str()),
        ));
    }
    let mut lines = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).map_err(|e| cannot_read("--merge", path, &e))?;
        let reader = std::io::BufReader::new(std::io::Read::take(file, MAX_SWEEP_FILE));
        for (n, text) in reader.lines().enumerate() {
            let text = text.map_err(|e| cannot_read("--merge", path, &e))?;
            if text.trim().is_empty() {
                continue;
            }
            let line = sweep::SweepLine::from_json(&text).map_err(|e| {
                Failure::Usage(
                    Message::new(M::CliMergeNotALine)
                        .given("path", path.as_str())
                        .int("line", i64::try_from(n + 1).unwrap_or(i64::MAX))
                        .given("error", e),
                )
            })?;
            lines.push(line);
        }
    }
    let summary = sweep::summarize(&lines).map_err(incomplete_sweep)?;
    Ok(sweep::summary_lines(&summary))
}

/// Why lines do not make a whole sweep, said as the command line says it.
fn incomplete_sweep(e: sweep::IncompleteSweep) -> Failure {
    use sweep::IncompleteSweep as I;
    Failure::Usage(match e {
        I::Empty => Message::new(M::CliMergeEmpty),
        I::Mixed { first, other } => Message::new(M::CliMergeMixed)
            .given("first", first)
            .given("other", other),
        I::OutOfRange { index, seeds } => Message::new(M::CliMergeOutOfRange)
            .int("index", index)
            .int("seeds", seeds),
        I::Twice {
            strategy,
            policy,
            index,
        } => Message::new(M::CliMergeTwice)
            .given("strategy", strategy.as_str())
            .given("policy", policy.as_str())
            .int("index", index),
        I::Missing {
            strategy,
            policy,
            first_index,
            count,
        } => Message::new(M::CliMergeMissing)
            .int("count", count)
            .given("strategy", strategy.as_str())
            .given("policy", policy.as_str())
            .int("first", first_index),
    })
}

fn config(args: &[String]) -> Result<Printed, Failure> {
    let (with_ignored, rest) = match args.first().map(String::as_str) {
        Some("check") => (false, &args[1..]),
        Some("export") => (true, &args[1..]),
        Some(other) => {
            return Err(Failure::Usage(
                Message::new(M::CliConfigUnknown).given("given", other),
            ))
        }
        None => return Err(Failure::Usage(Message::new(M::CliConfigNeedsSubcommand))),
    };
    let path = match rest {
        [path] => path,
        [] => return Err(Failure::Usage(Message::new(M::CliConfigNeedsFile))),
        [_, extra, ..] => {
            return Err(Failure::Usage(
                Message::new(M::CliUnexpected).given("given", extra.as_str()),
            ))
        }
    };
    let text = read_config("config", path)?;
    let (cfg, notes) = elastic::parse(&text).map_err(|e| config_error("config", path, e))?;
    let notes = notes
        .into_iter()
        .map(|note| Message::new(M::CliNote).msg("note", field_problem(&note.field, note.message)))
        .collect();
    Ok(Printed {
        output: cfg.to_json_text(with_ignored),
        notes,
    })
}

/// "FLAG "PATH" cannot be read: ERROR".
fn cannot_read(flag: &str, path: &str, error: &std::io::Error) -> Failure {
    Failure::Usage(
        Message::new(M::CliCannotRead)
            .given("flag", flag)
            .given("path", path)
            .given("error", error.to_string()),
    )
}

/// "FLAG "PATH": FIELD: PROBLEM" for a configuration the core refused.
fn config_error(flag: &str, path: &str, e: elastic::ConfigError) -> Failure {
    Failure::Usage(
        Message::new(M::CliConfigError)
            .given("flag", flag)
            .given("path", path)
            .msg("error", field_problem(&e.field, e.message)),
    )
}

fn queue(args: &[String]) -> Result<String, Failure> {
    let pairs = flags(
        args,
        &[
            "--servers",
            "--arrival-rate",
            "--service-time",
            "--within",
            "--timeout",
        ],
    )?;
    let servers = parse_u32("--servers", required(&pairs, "--servers")?, 1, 100_000)?;
    let lambda = parse_f64(
        "--arrival-rate",
        required(&pairs, "--arrival-rate")?,
        0.0,
        1e9,
        M::CliRateRange,
    )?;
    let service = parse_f64(
        "--service-time",
        required(&pairs, "--service-time")?,
        1e-9,
        1e6,
        M::CliServiceTimeRange,
    )?;
    let seconds = |flag: &str| {
        single(&pairs, flag)?
            .map(|v| parse_f64(flag, v, 0.0, 1e9, M::CliWithinRange))
            .transpose()
    };
    let within = seconds("--within")?;
    let timeout = seconds("--timeout")?;

    let a = lambda * service;
    let mut obj = serde_json::Map::new();
    obj.insert("offered_load".into(), a.into());
    obj.insert("erlang_b".into(), queueing::erlang_b(a, servers).into());
    if let Some(timeout) = timeout {
        // M/M/N+D: requests give up after waiting the timeout.
        let q = queueing::solve(lambda, service, servers, timeout);
        obj.insert("utilization".into(), q.utilization.into());
        obj.insert("abandon_share".into(), q.timeout_share.into());
        obj.insert("p_wait".into(), q.p_wait.into());
        obj.insert("mean_wait_s".into(), q.mean_wait_s.into());
        if let Some(t) = within {
            obj.insert("p_wait_gt_within".into(), q.tail.wait_over(t).into());
        }
        obj.insert("p99_sojourn_s".into(), q.p99_s.into());
        return Ok(format!("{}\n", serde_json::Value::Object(obj)));
    }
    let c = queueing::erlang_c(a, servers);
    let theta = queueing::drain_rate(servers, service, lambda);
    let stable = a < f64::from(servers);
    obj.insert("erlang_c".into(), c.into());
    // Utilization is a fraction of the workers; the offered load above may exceed them.
    obj.insert(
        "utilization".into(),
        queueing::utilization(lambda, service, servers)
            .min(1.0)
            .into(),
    );
    // Without a steady state (an offered load at or above the workers) the waits grow
    // without bound: the mean wait and the p99s are left out rather than printed as null.
    if stable {
        obj.insert("mean_wait_s".into(), (c / theta).into());
    }
    if let Some(t) = within {
        let p = if stable {
            queueing::waiting_tail(c, theta, t)
        } else {
            1.0
        };
        obj.insert("p_wait_gt_within".into(), p.into());
    }
    if stable {
        obj.insert(
            "p99_sojourn_s".into(),
            queueing::sojourn_p99_exact(c, service, servers, lambda).into(),
        );
        obj.insert(
            "p99_sojourn_approx_s".into(),
            queueing::sojourn_p99_approx(c, service, servers, lambda).into(),
        );
    }
    if !stable {
        // Without a timeout the workers complete at most N/S requests per second; the rest
        // of the arrivals can never be served.
        obj.insert(
            "saturated_failed_share".into(),
            (1.0 - f64::from(servers) / a).into(),
        );
    }
    Ok(format!("{}\n", serde_json::Value::Object(obj)))
}

/// Hash load balancing: each host's share of a Maglev table or a ring, and the keys that move
/// when the last hosts leave.
/// Seed 003's rules on the command line: a health source's state from its endpoints and its
/// aggregation policy, or a composite state from its sources' states. The state comes first
/// on the line, then why.
fn health(args: &[String]) -> Result<String, Failure> {
    /// Most endpoints a health source counts (and the most --min-healthy asks for).
    const MAX_ENDPOINTS: u32 = 1_000_000;
    use oncall_sim::regions::health::{
        composite_state, source_state, AggregationPolicy, HealthState,
    };
    let pairs = flags(
        args,
        &[
            "--endpoints",
            "--healthy-percent",
            "--min-healthy",
            "--sources",
        ],
    )?;
    let endpoints = single(&pairs, "--endpoints")?;
    let sources = single(&pairs, "--sources")?;
    let percent = single(&pairs, "--healthy-percent")?;
    let min = single(&pairs, "--min-healthy")?;
    match (endpoints, sources) {
        (Some(text), None) => {
            let bad = || {
                not_allowed(
                    "--endpoints",
                    text,
                    Message::new(M::CliHealthEndpoints).int("max", MAX_ENDPOINTS),
                )
            };
            let (h, t) = text.split_once('/').ok_or_else(bad)?;
            let whole = |v: &str| {
                parse_whole(v.trim())
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|n| *n <= MAX_ENDPOINTS)
            };
            let (healthy, total) = (whole(h).ok_or_else(bad)?, whole(t).ok_or_else(bad)?);
            if healthy > total {
                return Err(bad());
            }
            let defaults = AggregationPolicy::default();
            let policy = AggregationPolicy {
                healthy_percent: match percent {
                    Some(v) => parse_u32("--healthy-percent", v, 0, 100)?,
                    None => defaults.healthy_percent,
                },
                min_healthy: match min {
                    Some(v) => parse_u32("--min-healthy", v, 0, MAX_ENDPOINTS)?,
                    None => defaults.min_healthy,
                },
            };
            let state = source_state(healthy, total, policy);
            let why = if total == 0 {
                // Seed 003: a source is UNHEALTHY when its healthy endpoints fall below either
                // threshold; with none, the share asks for none and only min_healthy decides.
                Message::new(M::CliHealthNoEndpoints)
                    .int("percent", policy.healthy_percent)
                    .int("min", policy.min_healthy)
            } else {
                Message::new(M::HealthReasonPolicy)
                    .int("healthy", healthy)
                    .int("total", total)
                    .int("percent", policy.healthy_percent)
                    .int("min", policy.min_healthy)
            };
            Ok(format!("{state}: {why}\n"))
        }
        (None, Some(text)) => {
            if let Some((flag, _)) = pairs.iter().find(|(n, _)| *n != "--sources") {
                return Err(Failure::Usage(
                    Message::new(M::CliHealthSourcesAlone).given("given", *flag),
                ));
            }
            // A composite health check cannot be a source of another (seed 003).
            if text
                .split(',')
                .any(|s| s.trim().eq_ignore_ascii_case("composite"))
            {
                return Err(Failure::Usage(field_problem(
                    "--sources",
                    oncall_sim::regions::health::ConfigError::CompositeAsSource.message(),
                )));
            }
            let states = text
                .split(',')
                .map(HealthState::parse)
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| not_allowed("--sources", text, Message::new(M::CliHealthSources)))?;
            Ok(format!("{}\n", composite_state(&states)))
        }
        _ => Err(Failure::Usage(Message::new(M::CliHealthNeedsOne))),
    }
}

fn lb(args: &[String]) -> Result<String, Failure> {
    use oncall_sim::balance::{self, maglev, ReportError};
    let pairs = flags(
        args,
        &["--policy", "--hosts", "--remove", "--keys", "--table-size"],
    )?;
    let name = required(&pairs, "--policy")?;
    // Only the hash policies have a table, and a size for it.
    let (policy, (default_size, min_size, max_size)) = name
        .parse::<Routing>()
        .ok()
        .and_then(|p| Some((p, balance::table_sizes(p)?)))
        .ok_or_else(|| not_allowed("--policy", name, Message::new(M::CliLbPolicies)))?;
    let hosts = parse_u32("--hosts", required(&pairs, "--hosts")?, 1, 10_000)?;
    let remove = single(&pairs, "--remove")?
        .map(|v| parse_u32("--remove", v, 0, hosts - 1))
        .transpose()?;
    let keys = match single(&pairs, "--keys")? {
        Some(v) => u64::from(parse_u32("--keys", v, 1, 10_000_000)?),
        None => balance::DEFAULT_KEYS,
    };
    let size = match single(&pairs, "--table-size")? {
        None => default_size,
        Some(v) => parse_u32("--table-size", v, min_size, max_size)?,
    };
    let to_usize = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
    let report = balance::report(policy, to_usize(hosts), size, remove.map(to_usize), keys)
        .map_err(|e| {
            Failure::Usage(match e {
                ReportError::Table(maglev::TableError::MoreBackendsThanSlots) => {
                    Message::new(M::CliLbTooManyHosts)
                        .int("hosts", hosts)
                        .int("size", size)
                }
                // A size that is not prime; the other refusals cannot follow from the
                // ranges above.
                _ => Message::new(M::CliLbTableSizeNotPrime)
                    .given("given", size.to_string())
                    .int("max", maglev::MAX_TABLE_SIZE),
            })
        })?;
    Ok(format!(
        "{}\n",
        serde_json::to_string(&report).unwrap_or_default()
    ))
}

/// Longest time `des` takes in its arguments (timeouts, the slow window), seconds.
const MAX_DES_TIME_S: f64 = 1e9;

/// Largest number of workers or instances the request-level engine takes.
const MAX_DES_WORKERS: u32 = 100_000;

/// The request-level engine on one workload: one JSON object. Every field but
/// `events_per_s` (wall clock) is fixed by the arguments and the seed. The fields the issue
/// lists are always there; `rejected_share` only with per-node limits, `hedges_cancelled` and
/// `tokens_left` only with hedging.
fn des(args: &[String]) -> Result<String, Failure> {
    let pairs = flags(
        args,
        &[
            "--servers",
            "--arrival-rate",
            "--service-time",
            "--customers",
            "--instances",
            "--lb",
            "--choice-count",
            "--timeout",
            "--keys",
            "--zipf",
            "--sigma",
            "--max-requests",
            "--max-pending",
            "--slow",
            "--hedge-delay-ms",
            "--max-tokens",
            "--refill-ratio",
            "--initial-tokens",
            "--total-timeout",
            "--ordering-keys",
            "--seed",
        ],
    )?;
    let workload = des_workload(&pairs)?;
    let options = des_options(&pairs, &workload)?;
    let config = workload.config;
    let started = std::time::Instant::now();
    let out = requests::run_with(&config, &options).map_err(des_refusal)?;
    let seconds = started.elapsed().as_secs_f64();
    let events_per_s = if seconds > 0.0 {
        out.events as f64 / seconds
    } else {
        0.0
    };
    Ok(des_output(&out, &options, events_per_s))
}

/// `des`'s workload: the run's configuration from the required flags and the policy's.
struct DesWorkload {
    config: requests::RunConfig,
}

/// The workload's flags: servers, arrival rate, service time, customers, instances, the
/// policy, the timeout and the seed.
fn des_workload(pairs: &[(&str, &str)]) -> Result<DesWorkload, Failure> {
    let servers = parse_u32(
        "--servers",
        required(pairs, "--servers")?,
        1,
        MAX_DES_WORKERS,
    )?;
    let lambda = parse_f64(
        "--arrival-rate",
        required(pairs, "--arrival-rate")?,
        1e-9,
        1e9,
        M::CliPositiveRateRange,
    )?;
    let service = parse_f64(
        "--service-time",
        required(pairs, "--service-time")?,
        1e-9,
        1e6,
        M::CliServiceTimeRange,
    )?;
    let max_customers = u32::try_from(requests::RunConfig::MAX_CUSTOMERS).unwrap_or(u32::MAX);
    let customers = parse_u32(
        "--customers",
        required(pairs, "--customers")?,
        1,
        max_customers,
    )?;
    let instances = match single(pairs, "--instances")? {
        Some(v) => parse_u32("--instances", v, 1, MAX_DES_WORKERS)?,
        None => 1,
    };
    let routing = match single(pairs, "--lb")? {
        Some(v) => v.parse::<Routing>().map_err(|_| {
            not_allowed(
                "--lb",
                v,
                Message::new(M::OneOfList).codes("allowed", Routing::NAMES.to_vec()),
            )
        })?,
        None => Routing::RoundRobin,
    };
    let timeout = single(pairs, "--timeout")?
        .map(|v| parse_f64("--timeout", v, 0.0, 1e9, M::CliWithinRange))
        .transpose()?;
    let seed = match single(pairs, "--seed")? {
        Some(v) => parse_u32("--seed", v, 0, u32::MAX)?,
        None => 1,
    };
    if servers % instances != 0 {
        return Err(Failure::Usage(
            Message::new(M::CliServersNotSplit)
                .int("servers", servers)
                .int("instances", instances),
        ));
    }
    let workers = servers / instances;

    let config = requests::RunConfig {
        instances,
        workers_per_instance: workers,
        arrival_rate: lambda,
        service_s: service,
        customers: u64::from(customers),
        warmup: 0,
        routing,
        timeout_s: timeout,
        seed,
    };
    Ok(DesWorkload { config })
}

/// `des`'s options beyond the workload: the key space, least request's choices, the service
/// shape, node limits, a slow instance, ordering keys and hedging.
fn des_options(
    pairs: &[(&str, &str)],
    workload: &DesWorkload,
) -> Result<requests::Options, Failure> {
    use requests::keys::{self, KeySpace, ServiceShape};
    let routing = workload.config.routing;
    let instances = workload.config.instances;
    let mut options = requests::Options::default();
    let mut space = KeySpace::default();
    if let Some(v) = single(pairs, "--keys")? {
        space.keys = parse_u32("--keys", v, 1, keys::MAX_KEYS)?;
    }
    if let Some(v) = single(pairs, "--zipf")? {
        space.exponent = parse_f64("--zipf", v, 0.0, keys::MAX_EXPONENT, M::CliZipfRange)?;
    }
    options.keys = space;
    if let Some(v) = single(pairs, "--choice-count")? {
        if routing != Routing::LeastRequest {
            return Err(Failure::Usage(
                Message::new(M::CliChoiceCountLeastRequest)
                    .given("given", v)
                    .code("lb", routing.as_str()),
            ));
        }
        options.choice_count = parse_u32(
            "--choice-count",
            v,
            requests::DEFAULT_CHOICE_COUNT,
            requests::MAX_CHOICE_COUNT,
        )?;
    }
    if let Some(v) = single(pairs, "--sigma")? {
        let sigma = parse_f64("--sigma", v, 0.0, keys::MAX_SIGMA, M::CliSigmaRange)?;
        options.service = ServiceShape::Lognormal { sigma };
    }
    if let Some(v) = single(pairs, "--max-requests")? {
        options.limits.max_requests = Some(parse_u32("--max-requests", v, 1, 1_000_000)?);
    }
    if let Some(v) = single(pairs, "--max-pending")? {
        options.limits.max_pending = Some(parse_u32("--max-pending", v, 0, 1_000_000)?);
    }
    if let Some(v) = single(pairs, "--slow")? {
        options.slow = Some(des_slow(v, instances)?);
    }
    options.ordering_keys = match single(pairs, "--ordering-keys")? {
        None | Some("off") => false,
        Some("on") => true,
        Some(other) => {
            return Err(not_allowed(
                "--ordering-keys",
                other,
                Message::new(M::ActionAllowedOnOff),
            ))
        }
    };
    options.hedging = des_hedging(pairs)?;
    Ok(options)
}

/// `--slow instance,factor,from,to`: one instance serving `factor` times slower in a window.
fn des_slow(v: &str, instances: u32) -> Result<requests::SlowInstance, Failure> {
    let shape = || {
        not_allowed(
            "--slow",
            v,
            Message::new(M::CliSlowShape)
                .int("instances", instances)
                .given("max_factor", format!("{}", requests::MAX_SLOW_FACTOR))
                .given("max_s", format!("{MAX_DES_TIME_S:e}")),
        )
    };
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    let [instance, factor, from, to] = parts[..] else {
        return Err(shape());
    };
    let number = |text: &str| parse_number(text).filter(|x| x.is_finite());
    let slow = (|| {
        Some(requests::SlowInstance {
            instance: parse_whole(instance).and_then(|n| u32::try_from(n).ok())?,
            factor: number(factor)?,
            from_s: number(from)?,
            to_s: number(to)?,
        })
    })()
    .filter(|s| {
        s.instance < instances
            && s.factor > 0.0
            && s.factor <= requests::MAX_SLOW_FACTOR
            && s.from_s >= 0.0
            && s.to_s >= s.from_s
            && s.to_s <= MAX_DES_TIME_S
    })
    .ok_or_else(shape)?;
    Ok(slow)
}

/// Hedging, when any of its flags is given.
fn des_hedging(pairs: &[(&str, &str)]) -> Result<Option<requests::hedging::Hedging>, Failure> {
    use requests::hedging::{self, Hedging};
    let hedge_flags = [
        "--hedge-delay-ms",
        "--max-tokens",
        "--refill-ratio",
        "--initial-tokens",
        "--total-timeout",
    ];
    if !hedge_flags
        .iter()
        .any(|f| pairs.iter().any(|(n, _)| n == f))
    {
        return Ok(None);
    }
    let mut h = Hedging::default();
    if let Some(v) = single(pairs, "--hedge-delay-ms")? {
        let (lo, hi) = hedging::HEDGE_DELAY_RANGE_MS;
        let ms = parse_f64("--hedge-delay-ms", v, lo, hi, M::CliHedgeDelayRange)?;
        h.delay_s = hedging::delay_seconds(ms);
    }
    if let Some(v) = single(pairs, "--max-tokens")? {
        let (lo, hi) = hedging::MAX_TOKENS_RANGE;
        h.max_tokens = parse_u32("--max-tokens", v, lo, hi)?;
    }
    if let Some(v) = single(pairs, "--refill-ratio")? {
        let (lo, hi) = hedging::REFILL_RATIO_RANGE;
        h.refill_ratio = parse_f64("--refill-ratio", v, lo, hi, M::CliRefillRatioRange)?;
    }
    if let Some(v) = single(pairs, "--initial-tokens")? {
        let max = f64::from(h.max_tokens);
        let what = Message::new(M::CliInitialTokensRange).int("max", h.max_tokens);
        let b0 = parse_number(v)
            .filter(|x| x.is_finite() && (0.0..=max).contains(x))
            .ok_or_else(|| not_allowed("--initial-tokens", v, what))?;
        h.initial_tokens = Some(b0);
    }
    if let Some(v) = single(pairs, "--total-timeout")? {
        h.total_timeout_s = Some(parse_f64(
            "--total-timeout",
            v,
            1e-9,
            1e9,
            M::CliTotalTimeoutRange,
        )?);
    }
    Ok(Some(h))
}

/// Why the engine refused a `des` run, or stopped it.
fn des_refusal(e: requests::RunError) -> Failure {
    Failure::Usage(match e {
        requests::RunError::Config(e) => Message::new(M::CliDesRefused).code("field", e.field),
        requests::RunError::Hedge(requests::HedgeError::DelayNotBelowTimeouts {
            delay_s,
            request_timeout_s,
            total_timeout_s,
        }) => {
            let seconds = |t: f64| {
                if t.is_finite() {
                    format!("{t} s")
                } else {
                    "none".to_string()
                }
            };
            Message::new(M::CliHedgeDelayNotBelow)
                .given("delay_ms", format!("{}", delay_s * 1e3))
                .given("request", seconds(request_timeout_s))
                .given("total", seconds(total_timeout_s))
        }
        requests::RunError::Hedge(requests::HedgeError::WithOrderingKeys) => {
            Message::new(M::CliHedgeWithOrderingKeys)
        }
        requests::RunError::Hedge(requests::HedgeError::Field(field)) => {
            Message::new(M::CliDesRefused).code("field", field)
        }
        requests::RunError::EventCap { cap } => {
            return Failure::Failed(
                Message::new(M::CliDesEventCap)
                    .int("cap", i64::try_from(cap).unwrap_or(i64::MAX))
                    .int(
                        "per",
                        i64::try_from(requests::EVENTS_PER_REQUEST).unwrap_or(i64::MAX),
                    )
                    .int(
                        "base",
                        i64::try_from(requests::EVENT_CAP_BASE).unwrap_or(i64::MAX),
                    ),
            )
        }
    })
}

/// `des`'s JSON object: every field the run gives, hedging's and the limits' only when on.
fn des_output(
    out: &requests::RunOutcome,
    options: &requests::Options,
    events_per_s: f64,
) -> String {
    let mut obj = serde_json::Map::new();
    obj.insert("p_wait".into(), out.p_wait.into());
    obj.insert("mean_wait_s".into(), out.mean_wait_s.into());
    if out.tokens_left.is_some() {
        // With hedging: the time before the winning copy was sent, apart from the queue's.
        obj.insert("mean_hedge_wait_s".into(), out.mean_hedge_wait_s.into());
    }
    obj.insert("mean_sojourn_s".into(), out.mean_sojourn_s.into());
    obj.insert("p50_s".into(), out.p50_s.into());
    obj.insert("p95_s".into(), out.p95_s.into());
    obj.insert("p99_s".into(), out.p99_s.into());
    obj.insert("p999_s".into(), out.p999_s.into());
    obj.insert("timeout_share".into(), out.timeout_share.into());
    if options.limits != requests::NodeLimits::default() {
        obj.insert("rejected_share".into(), out.rejected_share.into());
    }
    obj.insert("utilization".into(), out.utilization.into());
    obj.insert(
        "per_instance_served".into(),
        out.per_instance_served.clone().into(),
    );
    obj.insert("hedges_sent".into(), out.hedges_sent.into());
    obj.insert("hedges_won".into(), out.hedges_won.into());
    obj.insert("duplicates".into(), out.duplicates.into());
    if let Some(tokens) = out.tokens_left {
        obj.insert("hedges_cancelled".into(), out.hedges_cancelled.into());
        obj.insert("tokens_left".into(), tokens.into());
    }
    obj.insert("customers".into(), out.customers.into());
    obj.insert("events_per_s".into(), events_per_s.into());
    format!("{}\n", serde_json::Value::Object(obj))
}
