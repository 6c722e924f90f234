//! No command that succeeds prints a number it could not compute: over random inputs to
//! `des`, `run` and `par`, from the ordinary to far past every stated limit, each one is
//! either refused (exit status 2, one line) or printed with every field a finite number,
//! never `null` (serde_json's way of writing a NaN or an infinity).
//!
//! `FINITE_CASES` sets the number of random `des` inputs (default 150) and `FINITE_SEED` the
//! seed (default 0).

mod common;
use common::cli;
use oncall_sim::params::ModelParams;

/// A small generator, enough to pick among candidate values (SplitMix64).
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Where `value` holds a null or a number that is not finite: the path to it.
fn non_finite_at(value: &serde_json::Value, path: &str) -> Option<String> {
    match value {
        serde_json::Value::Null => Some(path.to_string()),
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(x) if x.is_finite() => None,
            _ => Some(path.to_string()),
        },
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| non_finite_at(v, &format!("{path}[{i}]"))),
        serde_json::Value::Object(map) => map
            .iter()
            .find_map(|(k, v)| non_finite_at(v, &format!("{path}.{k}"))),
        _ => None,
    }
}

/// Runs the CLI with `args`: refused in one line (exit 2), or every line of its output a JSON
/// value without a null or a non-finite number. The error names the input.
fn check(args: &[String]) -> Result<(), String> {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = cli(&refs);
    match code {
        0 => {}
        2 if out.is_empty() && err.lines().count() == 1 => return Ok(()),
        _ => return Err(format!("{args:?}: exit {code}, stderr {err:?}")),
    }
    if out.trim().is_empty() {
        return Err(format!("{args:?}: exit 0 without output"));
    }
    for line in out.lines() {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{args:?}: not JSON ({e}): {line}"))?;
        if let Some(path) = non_finite_at(&value, "") {
            return Err(format!("{args:?}: {path} is null or not finite in {line}"));
        }
    }
    Ok(())
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// A `des` input: every argument drawn from values inside its range, at its edges and far
/// past them.
fn des_input(d: &mut Draws) -> Vec<String> {
    let instances = d.pick(&["1", "2", "5", "10"]);
    let per_instance = d.pick(&["1", "2", "7", "100"]);
    let servers =
        (instances.parse::<u32>().unwrap() * per_instance.parse::<u32>().unwrap()).to_string();
    let mut args = strings(&[
        "des",
        "--servers",
        &servers,
        "--instances",
        instances,
        "--arrival-rate",
        d.pick(&["1e-9", "0.5", "30", "800", "1e9", "1e308"]),
        "--service-time",
        d.pick(&["1e-9", "0.05", "1", "100000", "1e6", "1e308"]),
        "--customers",
        d.pick(&["1", "5", "200", "2000"]),
        "--seed",
        &d.below(1000).to_string(),
    ]);
    let mut maybe = |d: &mut Draws, flag: &str, values: &[&str]| {
        if d.coin() {
            let v = d.pick(values);
            args.push(flag.to_string());
            args.push(v.to_string());
        }
    };
    maybe(
        d,
        "--lb",
        &[
            "round-robin",
            "random",
            "least-request",
            "ring-hash",
            "maglev",
        ],
    );
    maybe(d, "--timeout", &["0", "0.5", "3", "1e9", "1e308"]);
    maybe(d, "--keys", &["1", "1000"]);
    maybe(d, "--zipf", &["0", "1.2", "10"]);
    maybe(d, "--sigma", &["0", "1", "4", "1e308"]);
    maybe(d, "--max-requests", &["1", "10", "1000000"]);
    maybe(d, "--max-pending", &["0", "5", "1000000"]);
    let factor = d.pick(&["0.5", "20", "1000", "1e300", "1e308"]);
    let from = d.pick(&["0", "60", "1e9", "1e308"]);
    let to = d.pick(&["60", "1e9", "1e308"]);
    maybe(d, "--slow", &[&format!("0,{factor},{from},{to}")]);
    if d.coin() {
        maybe(d, "--hedge-delay-ms", &["100", "1000", "10000"]);
        maybe(d, "--max-tokens", &["1", "50", "250"]);
        maybe(d, "--refill-ratio", &["0.001", "0.2"]);
        maybe(d, "--initial-tokens", &["0", "1"]);
        maybe(d, "--total-timeout", &["1", "600", "1e9", "1e308"]);
        if !args
            .iter()
            .any(|a| a.starts_with("--hedge") || a.ends_with("-tokens"))
        {
            args.extend(strings(&["--hedge-delay-ms", "100"]));
        }
    }
    args
}

#[test]
fn a_huge_slow_factor_is_refused_or_printed_finite() {
    // Once printed with "mean_wait_s":null and exit status 0.
    let args = strings(&[
        "des",
        "--servers",
        "1",
        "--arrival-rate",
        "1",
        "--service-time",
        "1",
        "--customers",
        "5",
        "--slow",
        "0,1e308,0,1e308",
    ]);
    check(&args).unwrap();
}

#[test]
fn random_des_inputs_are_refused_or_printed_finite() {
    let mut d = Draws(env_u64("FINITE_SEED", 0));
    let cases = env_u64("FINITE_CASES", 150);
    let mut printed = 0;
    for _ in 0..cases {
        let args = des_input(&mut d);
        check(&args).unwrap();
        if cli(&args.iter().map(String::as_str).collect::<Vec<_>>()).0 == 0 {
            printed += 1;
        }
    }
    // The draws reach the printing path, not only the refusals.
    assert!(printed * 4 >= cases, "{printed} of {cases} printed");
}

/// `--set NAME=VALUE` for a model parameter drawn at random, at an edge of its range or
/// past it.
fn set_arg(d: &mut Draws) -> Vec<String> {
    let spec = &ModelParams::SPECS[d.below(ModelParams::SPECS.len())];
    let value = match d.below(4) {
        0 => spec.min,
        1 => spec.max,
        2 => spec.default,
        _ => spec.max * 1e300,
    };
    let text = if spec.integer && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    };
    strings(&["--set", &format!("{}={text}", spec.name)])
}

#[test]
fn random_run_and_par_inputs_are_refused_or_printed_finite() {
    let mut d = Draws(env_u64("FINITE_SEED", 0) ^ 0x5eed);
    let scenarios = [
        "free-play",
        "bad-deploy",
        "viral-surge",
        "cache-flush",
        "slow-instance",
        "hot-key",
        "regional-outage",
    ];
    for (i, scenario) in scenarios.iter().enumerate() {
        for round in 0..3 {
            let seed = d.below(100_000).to_string();
            let mut args = strings(&["run", "--scenario", scenario, "--seed", &seed]);
            args.extend(strings(&["--minutes", d.pick(&["1", "17", "60"])]));
            for _ in 0..d.below(3) {
                args.extend(set_arg(&mut d));
            }
            if round == 0 {
                args.extend(strings(&["--set", "engine=requests"]));
            }
            check(&args).unwrap();
            if round == 0 || i % 2 == 0 {
                let mut par = strings(&["par", "--scenario", scenario, "--seed", &seed]);
                par.extend(strings(&["--minutes", d.pick(&["1", "12"])]));
                par.extend(set_arg(&mut d));
                check(&par).unwrap();
            }
        }
    }
}

#[test]
fn random_queue_and_compare_inputs_are_refused_or_printed_finite() {
    let mut d = Draws(env_u64("FINITE_SEED", 0) ^ 0x9e3e);
    for _ in 0..200 {
        let mut args = strings(&[
            "queue",
            "--servers",
            d.pick(&["1", "2", "14", "100000"]),
            "--arrival-rate",
            d.pick(&["0", "1e-9", "8", "13.99", "30", "1e9", "1e308"]),
            "--service-time",
            d.pick(&["1e-9", "0.05", "1", "1e6", "1e308"]),
        ]);
        if d.coin() {
            args.extend(strings(&[
                "--within",
                d.pick(&["0", "0.5", "1e9", "1e308"]),
            ]));
        }
        if d.coin() {
            args.extend(strings(&["--timeout", d.pick(&["0", "2", "1e9", "1e308"])]));
        }
        check(&args).unwrap();
    }
    // Saturated without a timeout: the waits have no steady state and are left out.
    let saturated = strings(&[
        "queue",
        "--servers",
        "2",
        "--arrival-rate",
        "3",
        "--service-time",
        "1",
    ]);
    check(&saturated).unwrap();
    for scenario in ["bad-deploy", "viral-surge", "hot-key", "regional-outage"] {
        let seed = d.below(1000).to_string();
        let mut args = strings(&["compare", "--scenario", scenario, "--seed", &seed]);
        args.extend(strings(&["--minutes", d.pick(&["1", "15"])]));
        args.extend(strings(&[
            "--policies",
            d.pick(&["hpa", "kpa,cloud-run", "elastic"]),
        ]));
        args.extend(set_arg(&mut d));
        check(&args).unwrap();
    }
}
