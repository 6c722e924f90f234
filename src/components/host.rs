//! The messages between the console and a page that embeds it in an `<iframe>`.
//!
//! Every message is a plain object with `source: "oncall-sim"` and a `type`. Minutes are the
//! one clock's ([`oncall_sim::world::journal::Journal::clock_at`]): minute M starts at
//! `clock`, the status strip reads M once M minutes are played, an action stamped M in a
//! link takes effect at M, and an event gives the minute it happened in (an event of minute
//! 15 is in the log once the strip shows 16).
//!
//! Out, to `window.parent` (only when the console is embedded; addressed to each origin of
//! the link's `origins`, or to any origin when the link has no `origins`, since the link
//! already shows the run to the page that wrote it; an `origins` without a valid entry never
//! widens to any origin: the messages then go to the console's own origin only):
//! - `ready`: a run is ready for commands (after the page loaded and replayed its link, and
//!   after every reset or new run): `scenario`, `autoscaler`, `seed`, `minute`, `length`;
//! - `minute`: a minute was simulated: `minute`, `clock` and `budget_left` as the strip
//!   shows them then, and `record`, the minute just played (the metrics by the record's field
//!   names, as the command line writes them; its `budget_left` is at that minute's start);
//! - `page`: the page fired or resolved: `state` (`fired` or `resolved`), `minute`, `clock`,
//!   `burn_rate_1h`, `burn_rate_5m`;
//! - `action`: an action took effect (or was refused: `refused` gives why): `action` written
//!   as in a link, `minute`, `clock`;
//! - `debrief`: the exercise ended: `summary`; in the extended build, once the par lines
//!   are known, also `exercise`, `score`, `passed`, `verdict`, `par` and `attempt`, followed
//!   by `progress` and, on a first pass or a finished course, `complete` (see
//!   `components/extended/trainer.rs` and `docs/embed.md`);
//! - `error`: a command was not understood: `message`.
//!
//! In, from the page itself or an origin the link's `origins` lists (others are ignored):
//! `play`, `pause`, `step`, `reset`, `speed` (`value`: minutes per second, one of the speeds)
//! and `act` (`action`: an action as written in a link, such as `rollback` or
//! `cache_ttl_s=120`), which waits for the next minute as a control's action does.
//! A command is checked when it arrives (an `error` names what was wrong, quoting at most a
//! clipped part of it) and queued; the frame loop carries the queue out (see
//! [`crate::commands`]), so that a burst of commands costs one rebuild of the run and one
//! `ready` a frame at most.

use js_sys::{Object, Reflect};
use leptos::prelude::*;
use oncall_sim::event::EventKind;
use oncall_sim::message::clip;
use oncall_sim::ActionKind;
use wasm_bindgen::{JsCast, JsValue};

use crate::commands::{HostCommand, QueueFull, MAX_QUEUED};
use crate::components::run::RunHandle;
use crate::embed::EmbedOptions;
use crate::i18n::{tf, Msg};
use crate::metrics::{Value, METRICS};
use crate::speed::{speed_index, speeds_list};

/// The `source` every message carries.
pub(crate) const SOURCE: &str = "oncall-sim";

/// What has been told to the host page about the run shown.
#[derive(Clone, Copy)]
struct Told {
    generation: u64,
    ready: bool,
    minutes: usize,
    events: usize,
    finished: bool,
}

impl Told {
    /// Nothing told yet about run `generation`.
    fn fresh(generation: u64) -> Self {
        Self {
            generation,
            ready: false,
            minutes: 0,
            events: 0,
            finished: false,
        }
    }
}

/// A message to or from the host page, as an object.
pub(crate) fn message(kind: &str, fields: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    let _ = Reflect::set(&object, &"source".into(), &SOURCE.into());
    let _ = Reflect::set(&object, &"type".into(), &kind.into());
    for (key, value) in fields {
        let _ = Reflect::set(&object, &(*key).into(), value);
    }
    object.into()
}

/// The window around the console's, if it is embedded.
pub(crate) fn host_window() -> Option<web_sys::Window> {
    let window = web_sys::window()?;
    let parent = window.parent().ok()??;
    (!Object::is(&parent, &window)).then_some(parent)
}

/// Connects the console to the page embedding it (see the module's documentation).
pub fn use_host_messages(run: RunHandle, options: EmbedOptions) {
    let host = host_window();
    let embedded = host.is_some();
    let own_origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let targets = options.message_targets(&own_origin);
    let post = move |data: JsValue| {
        if let Some(host) = &host {
            for target in &targets {
                let _ = host.post_message(&data, target);
            }
        }
    };
    if embedded {
        tell_host(run, post.clone());
    }
    obey_host(run, options, own_origin, post);
}

/// Tells the host page what happened in the run since it was last told, whenever the run
/// moves on (nothing while a link replays).
fn tell_host(run: RunHandle, post: impl Fn(JsValue) + 'static) {
    let told = StoredValue::new(Told::fresh(u64::MAX));
    Effect::new(move |_| {
        run.snapshot.track();
        let generation = run.generation.get_untracked();
        let Some(mut now) = told.try_get_value() else {
            return;
        };
        if now.generation != generation {
            now = Told::fresh(generation);
        }
        run.with(|c| {
            if c.replay_left() > 0 {
                return;
            }
            tell_news(run, c, &mut now, &post);
        });
        told.set_value(now);
    });
}

/// Posts what the host page was not told yet (`now`): that the run is ready, the minutes
/// played, the pages and actions, and the debrief once the exercise is over.
fn tell_news(run: RunHandle, c: &crate::console::Console, now: &mut Told, post: &impl Fn(JsValue)) {
    let sim = c.sim();
    let history = sim.history();
    let events = sim.events();
    if !now.ready {
        now.ready = true;
        now.minutes = history.len();
        now.events = events.len();
        post(ready_message(run, c));
    }
    for record in history.iter().skip(now.minutes) {
        post(minute_message(sim, record));
    }
    now.minutes = history.len();
    for event in events.iter().skip(now.events) {
        if let Some(message) = event_message(event) {
            post(message);
        }
    }
    now.events = events.len();
    // The extended build grades the run and tells the debrief once its par lines are known
    // (`components/extended/trainer.rs`).
    if c.finished() && !now.finished {
        now.finished = true;
        if !crate::components::extended::GRADES {
            post(message("debrief", &[("summary", summary_object(c))]));
        }
    }
}

/// `ready`: the run's scenario, autoscaler, seed, minute and length.
fn ready_message(run: RunHandle, c: &crate::console::Console) -> JsValue {
    let state = c.share_state();
    message(
        "ready",
        &[
            ("scenario", state.scenario.as_str().into()),
            ("autoscaler", state.autoscaler.as_str().into()),
            ("seed", c.seed().into()),
            ("minute", c.minutes().into()),
            ("length", run.snapshot.with_untracked(|s| s.length).into()),
        ],
    )
}

/// `minute`: the strip after `record`, and the record's metrics by their field names.
fn minute_message(sim: &oncall_sim::Simulation, record: &oncall_sim::MinuteRecord) -> JsValue {
    let values = Object::new();
    for spec in METRICS {
        let value = match (spec.read)(record) {
            Value::Number(x) => JsValue::from_f64(x),
            Value::Flag(b) => JsValue::from_bool(b),
        };
        let _ = Reflect::set(&values, &spec.field.into(), &value);
    }
    let (minute, clock, budget_left) = strip_after(sim, record);
    message(
        "minute",
        &[
            ("minute", minute.into()),
            ("clock", clock.into()),
            ("budget_left", budget_left.into()),
            ("record", values.into()),
        ],
    )
}

/// `page` or `action` for an event the host page hears of; `None` for the others.
fn event_message(event: &oncall_sim::Event) -> Option<JsValue> {
    let (minute, clock) = event_at(event);
    let at = [("minute", JsValue::from(minute)), ("clock", clock.into())];
    Some(match &event.kind {
        EventKind::PageFired {
            burn_rate_1h,
            burn_rate_5m,
        }
        | EventKind::PageResolved {
            burn_rate_1h,
            burn_rate_5m,
        } => {
            let state = if matches!(event.kind, EventKind::PageFired { .. }) {
                "fired"
            } else {
                "resolved"
            };
            message(
                "page",
                &[
                    ("state", state.into()),
                    at[0].clone(),
                    at[1].clone(),
                    ("burn_rate_1h", (*burn_rate_1h).into()),
                    ("burn_rate_5m", (*burn_rate_5m).into()),
                ],
            )
        }
        EventKind::Action { action } => message(
            "action",
            &[
                ("action", action.encode().into()),
                at[0].clone(),
                at[1].clone(),
            ],
        ),
        EventKind::ActionRefused { action, reason } => message(
            "action",
            &[
                ("action", action.encode().into()),
                at[0].clone(),
                at[1].clone(),
                ("refused", crate::i18n::core_text(reason).into()),
            ],
        ),
        _ => return None,
    })
}

/// Obeys the commands of the host page (or of the page itself) from the origins the link
/// allows: each is checked and queued, or answered with an `error`.
fn obey_host(
    run: RunHandle,
    options: EmbedOptions,
    own_origin: String,
    post: impl Fn(JsValue) + 'static,
) {
    let handle = window_event_listener(leptos::ev::message, move |ev: web_sys::MessageEvent| {
        if !options.obeys(&ev.origin(), &own_origin) {
            return;
        }
        let data = ev.data();
        let field = |name: &str| Reflect::get(&data, &name.into()).ok();
        if field("source").and_then(|s| s.as_string()).as_deref() == Some(SOURCE) {
            // The console's own messages (a host page echoing them back).
            return;
        }
        let Some(kind) = field("type").and_then(|k| k.as_string()) else {
            return;
        };
        let queued = read_command(&kind, field("action"), field("value")).and_then(|command| {
            run.queue_command(command)
                .map_err(|QueueFull| tf(Msg::HostQueueFull, &[("count", &MAX_QUEUED.to_string())]))
        });
        if let Err(problem) = queued {
            post(message("error", &[("message", problem.into())]));
        }
    });
    on_cleanup(move || handle.remove());
}

/// The strip once `record` has been played: its minute, time of day and budget left.
pub(crate) fn strip_after(
    sim: &oncall_sim::Simulation,
    record: &oncall_sim::MinuteRecord,
) -> (u32, String, f64) {
    let minute = record.minute + 1;
    let budget_left = sim.budget_left_at(minute).unwrap_or(record.budget_left);
    (minute, sim.clock_at(minute).to_string(), budget_left)
}

/// The minute and time of day an event message gives: the minute the event happened in.
pub(crate) fn event_at(event: &oncall_sim::Event) -> (u32, String) {
    (event.minute, event.clock.to_string())
}

/// Reads one command from the host page, checked; what was wrong with it, written for a
/// person (the text it quotes clipped).
fn read_command(
    kind: &str,
    action: Option<JsValue>,
    value: Option<JsValue>,
) -> Result<HostCommand, String> {
    Ok(match kind {
        "play" => HostCommand::Play,
        "pause" => HostCommand::Pause,
        "step" => HostCommand::Step,
        "reset" => HostCommand::Reset,
        "speed" => {
            let index = value
                .and_then(|v| v.as_f64())
                .and_then(speed_index)
                .ok_or_else(|| tf(Msg::HostSpeedInvalid, &[("list", &speeds_list())]))?;
            HostCommand::Speed(index)
        }
        "act" => {
            let text = action.and_then(|a| a.as_string()).unwrap_or_default();
            let kind = ActionKind::parse(&text).map_err(|e| {
                tf(
                    Msg::HostActionInvalid,
                    &[
                        ("value", &clip(&text)),
                        ("reason", &crate::i18n::core_text(&e.message())),
                    ],
                )
            })?;
            HostCommand::Act(kind)
        }
        other => {
            return Err(tf(
                Msg::HostCommandUnknown,
                &[
                    ("value", &clip(other)),
                    ("list", "play, pause, step, reset, speed, act"),
                ],
            ))
        }
    })
}

/// The run's summary as the debrief shows it, by the summary's field names.
pub(crate) fn summary_object(c: &crate::console::Console) -> JsValue {
    let s = c.summary();
    let object = Object::new();
    let numbers: [(&str, f64); 10] = [
        ("minutes", f64::from(s.minutes)),
        ("budget_spent", s.budget_spent),
        ("budget_left", s.budget_left),
        ("cost", s.cost),
        ("worst_p99_ms", s.worst_p99_ms),
        ("minutes_paging", f64::from(s.minutes_paging)),
        (
            "minutes_over_budget_rate",
            f64::from(s.minutes_over_budget_rate),
        ),
        ("failed_requests", s.failed_requests),
        ("shed_requests", s.shed_requests),
        ("mean_staleness_s", s.mean_staleness_s),
    ];
    for (key, value) in numbers {
        let _ = Reflect::set(&object, &key.into(), &value.into());
    }
    let actions: js_sys::Array = s
        .actions
        .iter()
        .map(|a| JsValue::from(a.as_str()))
        .collect();
    let _ = Reflect::set(&object, &"actions".into(), &actions);
    object.unchecked_into::<JsValue>()
}
