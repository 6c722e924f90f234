//! The Monte Carlo debrief: the person's strategy replayed over many seeds, beside doing
//! nothing, the textbook response and each policy left alone, in Web Workers
//! (`assets/sweep-worker.js`, which runs the extended build's core: [`crate::sweep_worker`]).
//! The page hands out slices of seeds, collects the lines and summarizes them with the core
//! ([`oncall_sim::sweep::summarize`]): the same summary whatever the number of workers, and
//! the one `oncall-sim sweep --summary` prints.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use oncall_sim::share::ShareState;
use oncall_sim::sweep::{self, Distribution, Strategy, StrategySummary, SweepLine};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::files::data_url;
use crate::format::{format_value, Format, Value};
use crate::i18n::{policy_name_text, t, tf, Msg};

/// The choices of seeds; the first of them the default after [`DEFAULT_SEEDS`].
pub const SEED_CHOICES: [u32; 3] = [100, 1_000, 10_000];
/// Seeds a replay takes unless the person picks another number.
pub const DEFAULT_SEEDS: u32 = 1_000;
/// Seeds a worker is given at a time: small enough that the workers finish together and the
/// progress moves, large enough that messages cost nothing beside the runs.
const SLICE: u32 = 20;
/// The most workers: beyond it the machine's other work (and memory: each holds the extended
/// build) suffers more than the replay gains.
pub const MAX_WORKERS: u32 = 8;
/// The worker's script, relative to the page (the run's export and import use it too).
pub(super) const WORKER_SCRIPT: &str = "sweep-worker.js";

/// Workers for a machine that reports `cores` logical processors, for `jobs` slices.
pub fn workers_for(cores: f64, jobs: u32) -> u32 {
    let cores = if cores.is_finite() && cores >= 1.0 {
        cores as u32
    } else {
        1
    };
    cores.clamp(1, MAX_WORKERS).min(jobs.max(1))
}

/// The slices of `seeds` seeds handed out: `[from, to)` each, in order.
pub fn slices(seeds: u32) -> Vec<(u32, u32)> {
    (0..seeds.div_ceil(SLICE))
        .map(|i| (i * SLICE, ((i + 1) * SLICE).min(seeds)))
        .collect()
}

/// Where a replay is.
#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Idle,
    Running { done: u32, total: u32, workers: u32 },
    Done(Rc<Finished>),
    Cancelled,
    Failed(String),
}

/// A finished replay.
#[derive(Debug, PartialEq)]
struct Finished {
    summary: Vec<StrategySummary>,
    minutes: u32,
    runs: u32,
    seconds: f64,
    workers: u32,
}

/// The workers of a replay, with their message handlers (kept alive as long as the
/// workers). A replay that finished leaves its workers started, with the extended build
/// loaded, for the next replay; a cancelled or failed one stops them.
struct Pool {
    workers: Vec<web_sys::Worker>,
    _handlers: Vec<Closure<dyn FnMut(web_sys::MessageEvent)>>,
}

impl Pool {
    fn stop(&self) {
        for worker in &self.workers {
            worker.terminate();
        }
    }

    /// The workers, idle after a replay that finished, without their handlers (the next
    /// replay gives them its own).
    fn into_idle_workers(self) -> Vec<web_sys::Worker> {
        for worker in &self.workers {
            worker.set_onmessage(None);
        }
        self.workers
    }
}

/// What the workers bring back, and what is left to hand out.
struct Collect {
    /// Set once a worker fails: the answers still on their way are left unread.
    failed: bool,
    lines: Vec<Vec<SweepLine>>,
    next: usize,
    done_seeds: u32,
    started_ms: f64,
}

/// The panel: what is replayed, the number of seeds, the button, progress and cancel, then
/// the verdict, the table and its chart, and the downloads.
#[component]
pub fn MonteCarlo(
    /// The page's run, read when a replay starts (`None` when the link cannot be read).
    current: Callback<(), Option<ShareState>>,
    /// The page's query string and fragment, sent to the workers as they are.
    link: Callback<(), (String, String)>,
) -> impl IntoView {
    let seeds = RwSignal::new(DEFAULT_SEEDS);
    let phase = RwSignal::new_local(Phase::Idle);
    let pool: StoredValue<Option<Pool>, LocalStorage> = StoredValue::new_local(None);
    let stop = move || {
        pool.update_value(|p| {
            if let Some(p) = p.take() {
                p.stop();
            }
        })
    };
    on_cleanup(stop);
    let actions = move || {
        current
            .run(())
            .map(|s| s.actions.iter().map(|a| a.encode()).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let start = move || {
        // The workers of a finished replay are idle and ready: they take this one.
        let idle = match phase.get_untracked() {
            Phase::Done(_) => pool
                .try_update_value(Option::take)
                .flatten()
                .map(Pool::into_idle_workers),
            _ => None,
        };
        stop();
        let (search, fragment) = link.run(());
        let minutes = current.run(()).map_or(0, |s| s.setup(0).length());
        let seeds = seeds.get_untracked();
        match start_pool(seeds, minutes, (search, fragment), idle, phase) {
            Ok(p) => pool.set_value(Some(p)),
            Err(e) => phase.set(Phase::Failed(e)),
        }
    };
    let cancel = move || {
        stop();
        phase.set(Phase::Cancelled);
    };
    let running = move || matches!(phase.get(), Phase::Running { .. });
    let seed_options = SEED_CHOICES
        .iter()
        .map(|&n| {
            view! {
                <option value=n.to_string() selected=move || seeds.get() == n>
                    {format_value(Format::Count, Value::Number(f64::from(n)))}
                </option>
            }
        })
        .collect_view();
    view! {
        <section class="panel monte-carlo" data-monte-carlo aria-labelledby="monte-carlo-heading">
            <h2 id="monte-carlo-heading">{t(Msg::MonteCarloHeading)}</h2>
            <p class="muted">{t(Msg::MonteCarloIntro)}</p>
            <p data-field="monte-carlo-actions">
                {move || {
                    let list = actions();
                    if list.is_empty() {
                        t(Msg::MonteCarloNoActions).to_string()
                    } else {
                        tf(Msg::MonteCarloActions, &[("actions", &list.join(", "))])
                    }
                }}
            </p>
            <form
                class="compare-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    start();
                }
            >
                <div class="field">
                    <label for="monte-carlo-seeds">{t(Msg::MonteCarloSeedsLabel)}</label>
                    <select
                        id="monte-carlo-seeds"
                        data-field="monte-carlo-seeds"
                        prop:value=move || seeds.get().to_string()
                        on:change=move |ev| {
                            // Only the offered numbers; anything else (a tampered page) is ignored.
                            if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                                if SEED_CHOICES.contains(&n) {
                                    seeds.set(n);
                                }
                            }
                        }
                    >
                        {seed_options}
                    </select>
                </div>
                <button type="submit" data-action="run-monte-carlo" disabled=running>
                    {t(Msg::MonteCarloRun)}
                </button>
                <button
                    type="button"
                    data-action="cancel-monte-carlo"
                    hidden=move || !running()
                    on:click=move |_| cancel()
                >
                    {t(Msg::MonteCarloCancel)}
                </button>
            </form>
            <div aria-live="polite" data-field="monte-carlo-status">
                {move || match phase.get() {
                    Phase::Running { done, total, workers } => {
                        view! {
                            <p>
                                <progress max=total.to_string() value=done.to_string()></progress>
                                " "
                                {tf(
                                    Msg::MonteCarloProgress,
                                    &[
                                        ("done", &done.to_string()),
                                        ("total", &total.to_string()),
                                        ("workers", &workers.to_string()),
                                    ],
                                )}
                            </p>
                        }
                            .into_any()
                    }
                    Phase::Cancelled => view! { <p>{t(Msg::MonteCarloCancelled)}</p> }.into_any(),
                    Phase::Done(f) => view! { <p>{done_text(&f)}</p> }.into_any(),
                    _ => ().into_any(),
                }}
            </div>
            <p class="field-error" role="alert">
                {move || match phase.get() {
                    Phase::Failed(e) => Some(tf(Msg::MonteCarloFailed, &[("error", &e)])),
                    _ => None,
                }}
            </p>
            {move || match phase.get() {
                Phase::Done(f) => Some(results(&f)),
                _ => None,
            }}
        </section>
    }
}

/// "7000 runs of 120 minutes in 2.4 s on 2 workers."
fn done_text(f: &Finished) -> String {
    tf(
        Msg::MonteCarloDone,
        &[
            (
                "runs",
                &format_value(Format::Count, Value::Number(f64::from(f.runs))),
            ),
            ("minutes", &f.minutes.to_string()),
            ("seconds", &decimals(f.seconds, 1)),
            ("workers", &f.workers.to_string()),
        ],
    )
}

/// Starts the workers on a sweep of `seeds` seeds of `minutes` minutes over the link
/// (`search`, `fragment`), taking the `idle` workers of the replay before when there are as
/// many as this one needs (else they stop and new ones start).
fn start_pool(
    seeds: u32,
    minutes: u32,
    (search, fragment): (String, String),
    idle: Option<Vec<web_sys::Worker>>,
    phase: RwSignal<Phase, LocalStorage>,
) -> Result<Pool, String> {
    let window = web_sys::window().ok_or("no window")?;
    let jobs = slices(seeds);
    let count = workers_for(window.navigator().hardware_concurrency(), jobs.len() as u32);
    let mut idle = idle.unwrap_or_default();
    if idle.len() != count as usize {
        for worker in idle.drain(..) {
            worker.terminate();
        }
    }
    let collect = Rc::new(RefCell::new(Collect {
        failed: false,
        lines: vec![Vec::new(); jobs.len()],
        next: 0,
        done_seeds: 0,
        started_ms: now_ms(),
    }));
    let jobs = Rc::new(jobs);
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let mut workers = Vec::new();
    let mut handlers = Vec::new();
    for _ in 0..count {
        let worker = match idle.pop() {
            Some(worker) => worker,
            None => web_sys::Worker::new_with_options(WORKER_SCRIPT, &options)
                .map_err(|e| js_text(&e))?,
        };
        let (me, collect, jobs) = (worker.clone(), Rc::clone(&collect), Rc::clone(&jobs));
        let (search, fragment) = (search.clone(), fragment.clone());
        let handler =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                let data = ev.data();
                let mut c = collect.borrow_mut();
                if c.failed {
                    return;
                }
                if let Some(error) = field(&data, "error").and_then(|v| v.as_string()) {
                    c.failed = true;
                    phase.set(Phase::Failed(error));
                    return;
                }
                let job = field(&data, "job").and_then(|v| v.as_f64()).unwrap_or(-1.0);
                let text = field(&data, "lines")
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                let Some(slot) = usize::try_from(job as i64).ok().filter(|&j| j < jobs.len())
                else {
                    return;
                };
                let parsed: Result<Vec<SweepLine>, String> =
                    text.lines().map(SweepLine::from_json).collect();
                match parsed {
                    Ok(lines) => c.lines[slot] = lines,
                    Err(e) => {
                        c.failed = true;
                        phase.set(Phase::Failed(e));
                        return;
                    }
                }
                c.done_seeds += jobs[slot].1 - jobs[slot].0;
                if c.next < jobs.len() {
                    send(&me, &search, &fragment, seeds, c.next, jobs[c.next]);
                    c.next += 1;
                }
                if c.done_seeds < seeds {
                    phase.set(Phase::Running {
                        done: c.done_seeds,
                        total: seeds,
                        workers: count,
                    });
                    return;
                }
                let lines: Vec<SweepLine> =
                    std::mem::take(&mut c.lines).into_iter().flatten().collect();
                let seconds = (now_ms() - c.started_ms) / 1000.0;
                phase.set(match sweep::summarize(&lines) {
                    Ok(summary) => {
                        let per_seed = u32::try_from(summary.len()).unwrap_or(u32::MAX);
                        Phase::Done(Rc::new(Finished {
                            minutes,
                            runs: per_seed.saturating_mul(seeds),
                            seconds,
                            workers: count,
                            summary,
                        }))
                    }
                    Err(e) => Phase::Failed(format!("{e:?}")),
                });
            });
        worker.set_onmessage(Some(handler.as_ref().unchecked_ref()));
        workers.push(worker);
        handlers.push(handler);
    }
    {
        let mut c = collect.borrow_mut();
        for worker in &workers {
            if c.next < jobs.len() {
                send(worker, &search, &fragment, seeds, c.next, jobs[c.next]);
                c.next += 1;
            }
        }
    }
    phase.set(Phase::Running {
        done: 0,
        total: seeds,
        workers: count,
    });
    Ok(Pool {
        workers,
        _handlers: handlers,
    })
}

/// Sends slice `job` (seeds `from..to`) to `worker`.
fn send(
    worker: &web_sys::Worker,
    search: &str,
    fragment: &str,
    seeds: u32,
    job: usize,
    (from, to): (u32, u32),
) {
    let message = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str(k), &v);
    };
    set("job", JsValue::from_f64(job as f64));
    set("search", JsValue::from_str(search));
    set("fragment", JsValue::from_str(fragment));
    set("seeds", JsValue::from_f64(f64::from(seeds)));
    set("from", JsValue::from_f64(f64::from(from)));
    set("to", JsValue::from_f64(f64::from(to)));
    let _ = worker.post_message(&message);
}

pub(super) fn field(data: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(data, &JsValue::from_str(name))
        .ok()
        .filter(|v| !v.is_undefined())
}

pub(super) fn js_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &"message".into()).ok()?.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// `x` with `places` decimals in the page's language.
fn decimals(x: f64, places: usize) -> String {
    crate::format::fixed(crate::i18n::Locale::page(), x, places).unwrap_or_default()
}

/// The strategy's name in the table: the person's actions, doing nothing, the textbook
/// response, or a policy left alone.
fn strategy_text(s: &StrategySummary) -> String {
    match s.strategy {
        Strategy::Actions => t(Msg::MonteCarloYours).to_string(),
        Strategy::NothingDone => t(Msg::MonteCarloNothing).to_string(),
        Strategy::Textbook => t(Msg::MonteCarloTextbook).to_string(),
        Strategy::Policy => tf(
            Msg::MonteCarloPolicy,
            &[("policy", &policy_name_text(s.policy))],
        ),
    }
}

/// `data-strategy` of a row: `actions`, `nothing_done`, `textbook`, `policy-hpa`, ….
fn strategy_key(s: &StrategySummary) -> String {
    match s.strategy {
        Strategy::Policy => format!("policy-{}", s.policy.as_str()),
        other => other.as_str().to_string(),
    }
}

/// A figure's cell: median, 5th to 95th percentile, and the person's seed.
fn cell(d: &Distribution, format: Format) -> String {
    let w = |x: f64| format_value(format, Value::Number(x));
    tf(
        Msg::MonteCarloCell,
        &[
            ("p50", &w(d.p50)),
            ("p5", &w(d.p5)),
            ("p95", &w(d.p95)),
            ("at_seed", &w(d.at_seed)),
        ],
    )
}

fn share(x: f64) -> String {
    format_value(Format::Percent { decimals: 1 }, Value::Number(x))
}

/// The verdict, the table, the chart and the downloads of a finished replay.
fn results(f: &Finished) -> impl IntoView + use<> {
    let seeds = f.summary.first().map_or(0, |s| s.seeds);
    let first_seed = f.summary.first().map_or(0, |s| s.first_seed);
    let verdict = f
        .summary
        .iter()
        .find(|s| s.strategy == Strategy::Actions)
        .and_then(|s| s.beat_nothing.as_ref())
        .map(|b| {
            tf(
                Msg::MonteCarloVerdict,
                &[
                    ("wins", &b.wins.to_string()),
                    ("seeds", &seeds.to_string()),
                    ("share", &share(b.share)),
                    ("low", &share(b.low)),
                    ("high", &share(b.high)),
                ],
            )
        });
    let rows = f
        .summary
        .iter()
        .map(|s| {
            let beat = s.beat_nothing.as_ref().map(|b| {
                tf(
                    Msg::MonteCarloBeatCell,
                    &[("share", &share(b.share)), ("low", &share(b.low)), ("high", &share(b.high))],
                )
            });
            view! {
                <tr data-strategy=strategy_key(s)>
                    <th scope="row">{strategy_text(s)}</th>
                    <td data-figure="budget_spent">{cell(&s.budget_spent, Format::Percent { decimals: 2 })}</td>
                    <td data-figure="cost">{cell(&s.cost, Format::Dollars)}</td>
                    <td data-figure="minutes_paging">{cell(&s.minutes_paging, Format::Minutes)}</td>
                    <td data-figure="worst_p99_ms">{cell(&s.worst_p99_ms, Format::Milliseconds)}</td>
                    <td data-figure="beat_nothing">{beat.unwrap_or_default()}</td>
                </tr>
            }
        })
        .collect_view();
    let caption = tf(
        Msg::MonteCarloCaption,
        &[
            ("seeds", &seeds.to_string()),
            ("seed", &first_seed.to_string()),
        ],
    );
    let csv = sweep::summary_csv(&f.summary);
    let json = sweep::summary_lines(&f.summary);
    view! {
        {verdict.map(|v| view! { <p class="monte-carlo-verdict" data-field="monte-carlo-verdict">{v}</p> })}
        {budget_chart(&f.summary, seeds)}
        <div class="compare-summary" tabindex="0" role="region" aria-label=caption.clone()>
            <table class="compare-table monte-carlo-table" data-field="monte-carlo-table">
                <caption>{caption.clone()}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(Msg::MonteCarloStrategy)}</th>
                        <th scope="col">{t(Msg::CompareBudgetSpent)}</th>
                        <th scope="col">{t(Msg::CompareCost)}</th>
                        <th scope="col">{t(Msg::ComparePaging)}</th>
                        <th scope="col">{t(Msg::CompareWorstP99)}</th>
                        <th scope="col">{t(Msg::MonteCarloBeat)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="monte-carlo-downloads">
            <a class="button" data-action="download-monte-carlo-csv" download="monte-carlo.csv" href=data_url("text/csv", &csv)>
                {t(Msg::MonteCarloDownload)}
            </a>
            " "
            <a class="button" data-action="download-monte-carlo-json" download="monte-carlo.jsonl" href=data_url("application/x-ndjson", &json)>
                {t(Msg::MonteCarloDownloadJson)}
            </a>
        </p>
    }
}

/// The error budget spent per strategy: a bar from the 5th to the 95th percentile, a line at
/// the median and a diamond at the person's seed, on one axis from 0 to the largest 95th
/// percentile (or value on the person's seed), with ticks at its quarters; its text
/// alternative says what it shows.
fn budget_chart(summary: &[StrategySummary], seeds: u32) -> impl IntoView + use<> {
    let top = summary
        .iter()
        .map(|s| s.budget_spent.p95.max(s.budget_spent.at_seed))
        .fold(0.0_f64, f64::max)
        .max(1e-9);
    let at = move |v: f64| format!("{:.2}%", (v / top).clamp(0.0, 1.0) * 100.0);
    let percent = |v: f64| format_value(Format::Percent { decimals: 1 }, Value::Number(v));
    let rows = summary
        .iter()
        .map(|s| {
            let d = &s.budget_spent;
            let width = format!("{:.2}%", ((d.p95 - d.p5) / top).clamp(0.0, 1.0) * 100.0);
            view! {
                <li data-strategy=strategy_key(s)>
                    <span class="mc-label">{strategy_text(s)}</span>
                    <span class="mc-track">
                        <span class="mc-spread" style:left=at(d.p5) style:width=width></span>
                        <span class="mc-median" style:left=at(d.p50)></span>
                        <span class="mc-yours" style:left=at(d.at_seed)></span>
                    </span>
                </li>
            }
        })
        .collect_view();
    let ticks = (0..=4)
        .map(|k| {
            let v = top * f64::from(k) / 4.0;
            view! { <span class="mc-tick" style:left=at(v)>{percent(v)}</span> }
        })
        .collect_view();
    let alt = tf(Msg::MonteCarloChartAlt, &[("seeds", &seeds.to_string())]);
    view! {
        <figure class="monte-carlo-chart">
            <figcaption class="muted">{alt.clone()}</figcaption>
            <div role="img" aria-label=alt data-field="monte-carlo-chart">
                <ul class="mc-rows">{rows}</ul>
                <div class="mc-axis" aria-hidden="true">
                    <span class="mc-label"></span>
                    <span class="mc-track">{ticks}</span>
                </div>
            </div>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_every_seed_once_in_order() {
        for seeds in [1, 19, 20, 21, 100, 1_000, 10_000] {
            let s = slices(seeds);
            assert_eq!(s.first().map(|x| x.0), Some(0));
            assert_eq!(s.last().map(|x| x.1), Some(seeds));
            assert!(s.windows(2).all(|w| w[0].1 == w[1].0));
            assert!(s.iter().all(|(a, b)| b > a && b - a <= SLICE));
        }
    }

    #[test]
    fn workers_follow_the_machine_within_bounds() {
        assert_eq!(workers_for(2.0, 50), 2);
        assert_eq!(workers_for(64.0, 50), MAX_WORKERS);
        assert_eq!(workers_for(0.0, 50), 1);
        assert_eq!(workers_for(f64::NAN, 50), 1);
        assert_eq!(workers_for(8.0, 3), 3);
    }
}
