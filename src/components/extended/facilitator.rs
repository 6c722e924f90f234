//! The facilitator's console (`?facilitate=1&session=CODE`): the Wheel of Misfortune with a
//! live run. The facilitator's window and the trainee's (the same link without `facilitate`,
//! with the same `session`) talk over a `BroadcastChannel` named by the session code, in one
//! browser (across machines it would need a server: a trainer shares the facilitator's screen
//! instead). The facilitator sees the plan (the faults the seed drew, with their minutes) and
//! the trainee's minute, budget, page and actions as they happen; injects a fault at the
//! trainee's next minute (an `inject` action: the run's log and its link carry it), pauses,
//! resumes, shows a hint and ends the exercise. The trainee's view shows none of the plan.
//!
//! Messages, each an object with `source: "oncall-sim"` and a `type`: from the facilitator
//! `inject` (`action`: `inject=…`), `pause`, `play`, `hint` (`text`) and `end`; from the
//! trainee `state` (`minute`, `clock`, `budget_left`, `paging`, `actions`, `link`,
//! `finished`).

use js_sys::{Array, Reflect};
use leptos::prelude::*;
use oncall_sim::exercise::faults;
use oncall_sim::fault_action::{FaultInject, KINDS};
use oncall_sim::ActionKind;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::commands::HostCommand;
use crate::components::host::{message, SOURCE};
use crate::components::run::RunHandle;
use crate::i18n::{scenario_title_text, t, tf, Msg};

/// A session code: 1 to 32 letters, digits and hyphens.
pub fn session_code(rest: &[(String, String)]) -> Option<String> {
    rest.iter()
        .rev()
        .find(|(k, _)| k == "session")
        .map(|(_, v)| v.clone())
        .filter(|v| {
            (1..=32).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// Whether the link asks for the facilitator's view.
pub fn facilitating(rest: &[(String, String)]) -> bool {
    rest.iter().any(|(k, v)| k == "facilitate" && v == "1")
}

fn channel(code: &str) -> Option<web_sys::BroadcastChannel> {
    web_sys::BroadcastChannel::new(&format!("oncall-sim:session:{code}")).ok()
}

fn field(data: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(data, &name.into()).ok()
}

/// Listens on `channel` for this side's messages.
fn listen(channel: &web_sys::BroadcastChannel, on: impl Fn(String, JsValue) + 'static) {
    let handler =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let data = ev.data();
            if field(&data, "source")
                .and_then(|s| s.as_string())
                .as_deref()
                != Some(SOURCE)
            {
                return;
            }
            if let Some(kind) = field(&data, "type").and_then(|k| k.as_string()) {
                on(kind, data);
            }
        });
    channel.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
}

/// The trainee's side of a session: obeys the facilitator and tells it the run as it goes.
/// Hints and the end arrive in `said`.
pub fn use_session(run: RunHandle, code: &str, said: RwSignal<Vec<String>>) {
    let Some(channel) = channel(code) else {
        return;
    };
    listen(&channel, move |kind, data| {
        let command = match kind.as_str() {
            "inject" => field(&data, "action")
                .and_then(|a| a.as_string())
                .and_then(|a| ActionKind::parse(&a).ok())
                .filter(|a| matches!(a, ActionKind::Inject(_)))
                .map(HostCommand::Act),
            "pause" => Some(HostCommand::Pause),
            "play" => Some(HostCommand::Play),
            "hint" => {
                if let Some(text) = field(&data, "text").and_then(|t| t.as_string()) {
                    let text = oncall_sim::message::clip(&text);
                    said.update(|s| s.push(text));
                }
                None
            }
            "end" => {
                said.update(|s| s.push(t(Msg::FacilitatorEnded).to_owned()));
                Some(HostCommand::Pause)
            }
            _ => None,
        };
        if let Some(command) = command {
            let _ = run.queue_command(command);
            run.wake();
        }
    });
    let channel = StoredValue::new_local(channel);
    Effect::new(move |_| {
        run.snapshot.track();
        let Some(state) = run.with(|c| {
            let actions: Array = c
                .share_state()
                .actions
                .iter()
                .map(|a| JsValue::from(a.encode()))
                .collect();
            let snapshot = run.snapshot.get_untracked();
            message(
                "state",
                &[
                    ("minute", snapshot.minutes.into()),
                    ("clock", snapshot.next_clock.clone().into()),
                    ("budget_left", snapshot.budget_left.into()),
                    ("paging", snapshot.record.paging.into()),
                    ("error_rate", snapshot.record.error_rate.into()),
                    ("actions", actions.into()),
                    ("finished", snapshot.finished.into()),
                ],
            )
        }) else {
            return;
        };
        if let Some(href) = run.share_href() {
            let _ = Reflect::set(&state, &"link".into(), &href.into());
        }
        channel.with_value(|c| {
            let _ = c.post_message(&state);
        });
    });
}

/// What the trainee's window last told.
#[derive(Clone, Debug, Default, PartialEq)]
struct Trainee {
    minute: u32,
    clock: String,
    budget_left: f64,
    paging: bool,
    error_rate: f64,
    actions: Vec<String>,
    link: String,
    finished: bool,
}

/// The facilitator's view of session `code`, for the run of its link.
#[component]
pub fn FacilitatorView(run: RunHandle, code: String) -> impl IntoView {
    let trainee = RwSignal::new(None::<Trainee>);
    let channel = channel(&code);
    if let Some(c) = &channel {
        listen(c, move |kind, data| {
            if kind != "state" {
                return;
            }
            let num = |n: &str| field(&data, n).and_then(|v| v.as_f64()).unwrap_or(0.0);
            let text = |n: &str| {
                field(&data, n)
                    .and_then(|v| v.as_string())
                    .unwrap_or_default()
            };
            let flag = |n: &str| field(&data, n).and_then(|v| v.as_bool()).unwrap_or(false);
            let actions = field(&data, "actions")
                .map(|a| {
                    Array::from(&a)
                        .iter()
                        .filter_map(|x| x.as_string())
                        .collect()
                })
                .unwrap_or_default();
            trainee.set(Some(Trainee {
                minute: num("minute") as u32,
                clock: text("clock"),
                budget_left: num("budget_left"),
                paging: flag("paging"),
                error_rate: num("error_rate"),
                actions,
                link: text("link"),
                finished: flag("finished"),
            }));
        });
    }
    let channel = StoredValue::new_local(channel);
    let send = move |m: JsValue| {
        channel.with_value(|c| {
            if let Some(c) = c {
                let _ = c.post_message(&m);
            }
        })
    };
    let (title, plan, trainee_link) = run
        .with(|c| {
            let title = c.exercise().map_or_else(
                || scenario_title_text(c.base().scenario),
                |e| e.title.clone(),
            );
            let sim = c.sim();
            let plan: Vec<(u32, String, String)> = sim
                .plan()
                .into_iter()
                .map(|p| (p.minute, sim.clock_at(p.minute).to_string(), p.fault))
                .collect();
            let link = run
                .href_with_rest(|rest| {
                    rest.iter()
                        .filter(|(k, _)| k != "facilitate")
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            (title, plan, link)
        })
        .unwrap_or_default();
    let plan_view = if plan.is_empty() {
        view! { <p class="muted">{t(Msg::FacilitatorNoPlan)}</p> }.into_any()
    } else {
        plan.into_iter()
            .map(|(minute, clock, text)| {
                view! {
                    <li data-minute=minute>
                        {tf(Msg::FacilitatorPlanItem, &[("clock", &clock), ("minute", &minute.to_string())])}
                        " "
                        <code>{text}</code>
                    </li>
                }
            })
            .collect_view()
            .into_any()
    };
    // The inject form: a kind and its fields.
    let kind = RwSignal::new(KINDS[1].to_string());
    let values = RwSignal::new(Vec::<(String, String)>::new());
    let reset_values = move |name: &str| {
        let fields = faults::kind(name)
            .map(|k| {
                k.fields
                    .iter()
                    .filter(|f| f.name != "at")
                    .map(|f| (f.name.to_string(), format!("{}", f.hi.min(f.lo.max(1.0)))))
                    .collect()
            })
            .unwrap_or_default();
        values.set(fields);
    };
    reset_values(KINDS[1]);
    let inject_text = move || {
        let mut text = kind.get();
        for (name, value) in values.get() {
            text.push_str(&format!("/{name}={}", value.trim()));
        }
        text
    };
    let problem = RwSignal::new(None::<String>);
    let inject = move |_| {
        let text = inject_text();
        if FaultInject::parse(&text).is_none() {
            problem.set(Some(tf(Msg::FacilitatorInjectRefused, &[("value", &text)])));
            return;
        }
        problem.set(None);
        send(message(
            "inject",
            &[("action", format!("inject={text}").into())],
        ));
    };
    let hint = RwSignal::new(String::new());
    view! {
        <main class="console facilitator" data-panel="facilitator">
            <h1>{tf(Msg::FacilitatorHeading, &[("title", &title)])}</h1>
            <p>
                {tf(Msg::FacilitatorSession, &[("code", &code)])}
                " "
                <a href=trainee_link.clone() target="_blank" data-field="trainee-link">
                    {t(Msg::FacilitatorTraineeLink)}
                </a>
            </p>
            <section class="panel">
                <h2>{t(Msg::FacilitatorPlan)}</h2>
                <ol class="plan" data-field="plan">{plan_view}</ol>
            </section>
            <section class="panel" data-field="trainee">
                <h2>{t(Msg::FacilitatorTrainee)}</h2>
                {move || match trainee.get() {
                    None => view! { <p class="muted" data-field="waiting">{t(Msg::FacilitatorWaiting)}</p> }.into_any(),
                    Some(s) => {
                        let actions = s.actions.join(", ");
                        view! {
                            <p data-field="trainee-state" data-minute=s.minute>
                                {tf(
                                    Msg::FacilitatorTraineeState,
                                    &[
                                        ("minute", &s.minute.to_string()),
                                        ("clock", &s.clock),
                                        ("budget", &format!("{:.1}", s.budget_left * 100.0)),
                                        ("errors", &format!("{:.2}", s.error_rate * 100.0)),
                                        ("page", t(if s.paging { Msg::FacilitatorPaging } else { Msg::FacilitatorNotPaging })),
                                    ],
                                )}
                            </p>
                            <p data-field="trainee-actions">
                                {tf(Msg::FacilitatorActions, &[("actions", &actions)])}
                            </p>
                            {s.finished.then(|| view! { <p>{t(Msg::FacilitatorFinished)}</p> })}
                            <label class="editor-field">
                                {t(Msg::FacilitatorReplay)}
                                <input type="text" readonly class="editor-link" data-field="session-link" prop:value=s.link />
                            </label>
                        }
                            .into_any()
                    }
                }}
            </section>
            <section class="panel">
                <h2>{t(Msg::FacilitatorInject)}</h2>
                <div class="editor-item">
                    <select
                        data-field="inject-kind"
                        on:change=move |ev| {
                            let k = event_target_value(&ev);
                            reset_values(&k);
                            kind.set(k);
                        }
                    >
                        {KINDS
                            .iter()
                            .map(|k| view! { <option value=*k selected=*k == KINDS[1]>{*k}</option> })
                            .collect_view()}
                    </select>
                    {move || {
                        values
                            .get()
                            .into_iter()
                            .enumerate()
                            .map(|(i, (name, value))| {
                                view! {
                                    <label class="editor-field">
                                        <code>{name.clone()}</code>
                                        <input
                                            type="text"
                                            class="short"
                                            data-field=format!("inject-{name}")
                                            prop:value=value
                                            on:input=move |ev| {
                                                let v = event_target_value(&ev);
                                                values.update_untracked(|vs| if let Some(x) = vs.get_mut(i) { x.1 = v });
                                            }
                                        />
                                    </label>
                                }
                            })
                            .collect_view()
                    }}
                    <button type="button" class="primary" data-action="inject" on:click=inject>
                        {t(Msg::FacilitatorInjectNow)}
                    </button>
                </div>
                <p class="editor-status" data-status="error">{move || problem.get()}</p>
            </section>
            <section class="panel">
                <h2>{t(Msg::FacilitatorControls)}</h2>
                <div class="editor-actions">
                    <button type="button" data-action="session-pause" on:click=move |_| send(message("pause", &[]))>
                        {t(Msg::FacilitatorPause)}
                    </button>
                    <button type="button" data-action="session-play" on:click=move |_| send(message("play", &[]))>
                        {t(Msg::FacilitatorResume)}
                    </button>
                    <button type="button" data-action="session-end" on:click=move |_| send(message("end", &[]))>
                        {t(Msg::FacilitatorEnd)}
                    </button>
                </div>
                <div class="editor-item">
                    <input
                        type="text"
                        data-field="session-hint"
                        aria-label=t(Msg::FacilitatorHint)
                        prop:value=move || hint.get()
                        on:input=move |ev| hint.set(event_target_value(&ev))
                    />
                    <button
                        type="button"
                        data-action="session-hint"
                        on:click=move |_| {
                            let text = hint.get_untracked();
                            if !text.trim().is_empty() {
                                send(message("hint", &[("text", text.into())]));
                                hint.set(String::new());
                            }
                        }
                    >
                        {t(Msg::FacilitatorShowHint)}
                    </button>
                </div>
            </section>
        </main>
    }
}
