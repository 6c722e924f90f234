use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::components::charts_panel::{draw_charts, CHART_COUNT};
use crate::components::host::use_host_messages;
use crate::components::icons::{Icon, IconView};
use crate::components::run::RunHandle;
use crate::components::{opens_start_view, Shared, StartView};
use crate::components::{
    ChartsPanel, Controls, DebriefPanel, EventLog, HelpDialog, MetricsTable, Notices,
    RelationDialog, SetupPanel, ShareButton, SourcesPanel, StatusStrip,
};
use crate::console::Console;
use crate::embed::{full_page_rest, read_embed, EmbedOptions, Theme};
use crate::hooks::{use_frame_loop, use_media_query};
use crate::i18n::{t, tf, Msg};
use crate::link::{minute_beyond_text, read_page_link};
use crate::policy::{ComparisonSlot, PolicySlot};
use crate::seed::random_seed;
use crate::url_state::current_search;

/// Longest gap between two frames the clock catches up on (a hidden tab, a slow frame):
/// beyond it the simulation just resumes.
const MAX_FRAME_GAP_MS: f64 = 250.0;
/// Time a frame spends replaying a link before it lets the page paint its progress and
/// handle input (while a link replays only the status strip changes and its Stop button
/// works). The clock is read after every minute: a request-mode minute takes milliseconds,
/// one of the formulas tens of microseconds.
const REPLAY_BUDGET_MS: f64 = 50.0;
/// Time a playing frame spends simulating: the minutes the clock owes beyond it are carried
/// to the next frame (up to the catch-up limit), so that a key press or a click waits at
/// most about one simulated minute, whatever the speed and the engine. At least one minute
/// is simulated a frame.
const PLAY_BUDGET_MS: f64 = 10.0;
/// While playing, the link is rewritten at most this often (browsers throttle the history
/// API, and nobody reads a link that changes 60 times a second).
const LINK_INTERVAL_MS: f64 = 1000.0;
/// "frame" measures kept for measuring tools before they are cleared.
const MAX_FRAME_MEASURES: u32 = 5000;

/// The whole page: reads the link, reports what was wrong with it, and runs the console.
#[component]
pub fn App() -> impl IntoView {
    let link = read_page_link(&current_search());
    let mut notices = link.notices;
    #[cfg(feature = "languages")]
    notices.extend(crate::i18n::loaded::take_notice());
    let (embedding, embed_notices) = read_embed(&link.rest);
    notices.extend(embed_notices);
    mark_document(&embedding);
    provide_context(embedding);
    let seed = link.state.seed.unwrap_or_else(random_seed);
    let length = link.state.definition().minutes;
    if let (Some(minute), Some(length)) = (link.state.minute, length) {
        if minute > length {
            notices.push(minute_beyond_text(minute, length));
        }
    }
    match Console::start(link.state, seed) {
        Ok(console) => {
            let run = RunHandle::new(console, link.rest);
            provide_context(run);
            crate::components::extended::provide_trainer(run, &mut notices);
            crate::components::extended::facilitator_view(run)
                .unwrap_or_else(|| view! { <ConsolePage notices=notices /> }.into_any())
        }
        Err(e) => {
            notices.push(tf(Msg::StartFailed, &[("reason", &e.to_string())]));
            view! {
                <main class="console">
                    <h1>{t(Msg::AppTitle)}</h1>
                    <Notices notices=notices />
                </main>
            }
            .into_any()
        }
    }
}

/// The console around a run (from context).
#[component]
fn ConsolePage(notices: Vec<String>) -> impl IntoView {
    let run = crate::components::use_run();
    let embedding = expect_context::<EmbedOptions>();
    crate::components::reference::provide_reference();
    // A theme the link fixes is a query that always or never matches.
    let dark = use_media_query(match embedding.theme {
        Theme::System => "(prefers-color-scheme: dark)",
        Theme::Dark => "all",
        Theme::Light | Theme::Projector => "not all",
    });
    let canvases: [NodeRef<Canvas>; CHART_COUNT] = std::array::from_fn(|_| NodeRef::new());
    let frame = use_frame_loop(frame_tick(run, canvases, dark));
    run.attach(frame);
    use_shortcuts(run);
    use_history(run);
    run.pause_on_page.set(embedding.pause_on_page);
    if let Some(speed) = embedding.speed {
        run.set_speed(speed);
    }
    if embedding.autoplay {
        run.play_when_ready();
    }
    run.lock(embedding.locks);
    use_host_messages(run, embedding);
    // On a phone the console is a set of tabs (the stylesheet shows one area at a time).
    let tab = RwSignal::new(PHONE_TABS[0].0);
    Effect::new(move |asked: Option<u32>| {
        let now = run.responding.get();
        if asked.is_some_and(|before| before != now) {
            tab.set("controls");
            // Once the controls' tab shows.
            request_animation_frame(focus_first_action);
        }
        now
    });
    // The bare link opens the start view (decided before the link names the seed).
    let starting = RwSignal::new(
        opens_start_view(&current_search()) && !crate::components::extended::plays_exercise(run),
    );
    Effect::new(move |_| {
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        if let Some(root) = root {
            let _ = if starting.get() {
                root.set_attribute("data-view", "start")
            } else {
                root.remove_attribute("data-view")
            };
        }
    });
    // The link names the seed in use (and the minute) from the start, so copying the address
    // bar reproduces the run too.
    run.write_link();

    view! {
        <a class="skip-link" href="#controls">
            {t(Msg::SkipToControls)}
        </a>
        <header class="app-header">
            <div class="brand">
                <h1>{t(Msg::AppTitle)}</h1>
                <p class="tagline">{t(Msg::AppTagline)}</p>
            </div>
            <div class="header-actions">
                <crate::components::language::LanguagePicker />
                // Each layout shows its own (the stylesheet hides the other's).
                <FullSimulatorLink />
                <ShareButton shared=Shared::Link />
                <ShareButton shared=Shared::Frame />
                <button
                    type="button"
                    data-action="help"
                    title=t(Msg::HelpButton)
                    aria-keyshortcuts="?"
                    on:click=move |_| run.help_open.set(true)
                >
                    <IconView icon=Icon::Keyboard />
                    <span>{t(Msg::HelpButton)}</span>
                </button>
            </div>
        </header>
        <StatusStrip />
        <main class="console">
            {move || starting.get().then(|| view! { <StartView shown=starting /> })}
            <Notices notices=notices />
            <DebriefPanel />
            <PhoneTabs tab=tab />
            <div class="layout" data-tab=move || tab.get()>
                <div class="area-setup">
                    <SetupPanel />
                </div>
                <div class="area-side">
                    <Controls />
                </div>
                <div class="area-charts">
                    <ChartsPanel canvases=canvases dark=dark />
                </div>
                <div class="area-metrics">
                    <MetricsTable />
                </div>
                <div class="area-log">
                    <EventLog />
                </div>
            </div>
            <crate::components::extended::ExtendedPanels />
            <PolicySlot />
            <ComparisonSlot />
            <SourcesPanel />
        </main>
        <footer class="app-footer">
            <p>{t(Msg::AssumptionsNote)}</p>
        </footer>
        <HelpDialog />
        <RelationDialog />
    }
}

/// The controls that answer a page: the actions (Roll back first, as a runbook lists them),
/// else the other controls; the first that can be used takes the focus, brought into view
/// clear of the sticky strip (the controls' `scroll-margin-top`).
const FIRST_ACTIONS: [&str; 2] = [
    "#controls .control.action:not([hidden]) button:not([disabled])",
    "#controls .control:not([hidden]) :is(button, input):not([disabled])",
];

fn focus_first_action() {
    let first = FIRST_ACTIONS
        .iter()
        .find_map(|selector| crate::dom::html_element(selector))
        .or_else(|| crate::dom::html_element("#controls-heading"));
    if let Some(element) = first {
        element.scroll_into_view();
        let _ = element.focus();
    }
}

/// The phone's tabs: the area each shows (the layout's `data-tab`) and its label.
const PHONE_TABS: [(&str, Msg); 4] = [
    ("controls", Msg::TabControls),
    ("metrics", Msg::TabMetrics),
    ("charts", Msg::TabCharts),
    ("log", Msg::TabLog),
];

/// On a phone (the stylesheet shows them below 640 px): one button per area, under the status
/// strip, so that a control and its effect are one tap apart.
#[component]
fn PhoneTabs(tab: RwSignal<&'static str>) -> impl IntoView {
    let buttons = PHONE_TABS
        .iter()
        .map(|&(id, label)| {
            view! {
                <button
                    type="button"
                    data-tab=id
                    aria-pressed=move || (tab.get() == id).to_string()
                    on:click=move |_| tab.set(id)
                >
                    {t(label)}
                </button>
            }
        })
        .collect_view();
    view! {
        <nav class="phone-tabs" aria-label=t(Msg::TabsLabel)>
            {buttons}
        </nav>
    }
}

/// Tells the stylesheet which layout and theme the link asks for (`data-layout="embed"`,
/// `data-theme` on the document element).
fn mark_document(embedding: &EmbedOptions) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    if embedding.compact {
        let _ = root.set_attribute("data-layout", "embed");
    }
    if let Some(theme) = embedding.theme.attribute() {
        let _ = root.set_attribute("data-theme", theme);
    }
}

/// In the compact layout: the same run in the full simulator, in a new tab. The address is
/// written when the link is followed, so it carries the run at that minute.
#[component]
fn FullSimulatorLink() -> impl IntoView {
    let run = crate::components::use_run();
    let refresh = move |ev: leptos::ev::MouseEvent| {
        let anchor = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlAnchorElement>().ok());
        if let (Some(anchor), Some(href)) = (anchor, run.href_with_rest(full_page_rest)) {
            anchor.set_href(&href);
        }
    };
    view! {
        <a
            class="button-link"
            data-action="full-simulator"
            href="."
            target="_blank"
            rel="noopener"
            on:click=refresh
        >
            {t(Msg::OpenFullSimulator)}
        </a>
    }
}

/// The frame loop's work, once per animation frame: replay a link (a slice at a time),
/// or run as many minutes as the speed owes (fixed steps, independent of the frame rate);
/// then publish once, redraw the charts once if the history changed, and rewrite the link.
/// The work is measured as "frame" in the page's performance timeline.
fn frame_tick(
    run: RunHandle,
    canvases: [NodeRef<Canvas>; CHART_COUNT],
    dark: ReadSignal<bool>,
) -> impl FnMut(f64) -> bool {
    let performance = web_sys::window().and_then(|w| w.performance());
    let mut measures = 0u32;
    let mut was_finished = false;
    let mut minutes = crate::components::extended::MinuteTimer::new(MAX_FRAME_MEASURES);
    move |now: f64| {
        let clock = |p: &web_sys::Performance| p.now();
        let started = performance.as_ref().map(clock).unwrap_or(now);
        if let Some(p) = &performance {
            p.clear_marks_with_mark_name("frame-start");
            let _ = p.mark("frame-start");
        }
        let spent =
            |p: &Option<web_sys::Performance>| p.as_ref().map_or(0.0, |p| p.now() - started);
        let mut replayed = false;
        // Where the focus goes once this frame's updates are on the page: the controls when
        // the page fires and the clock stops for the trainee (on a phone showing another
        // tab, the strip's Respond, one tap from them), the debrief when the run ends.
        let mut focus: Option<&[&str]> = None;
        // The host page's commands first (a burst of them is coalesced: see `commands`).
        let mut simulated = run.run_commands(&|| spent(&performance) < PLAY_BUDGET_MS);
        if run.with(Console::replay_left).unwrap_or(0) > 0 {
            replayed = true;
            while run.update(|c| c.replay(1)).unwrap_or(0) > 0 {
                simulated = true;
                if spent(&performance) >= REPLAY_BUDGET_MS {
                    break;
                }
            }
        } else if run.take_play_when_ready() {
            run.play();
        } else if run.playing.get_untracked() {
            let speed = f64::from(run.minutes_per_second());
            let cap = (speed * MAX_FRAME_GAP_MS / 1000.0).ceil().max(1.0);
            let owed = run
                .book
                .try_update_value(|b| {
                    let dt = b
                        .last_frame_ms
                        .map_or(0.0, |last| (now - last).clamp(0.0, MAX_FRAME_GAP_MS));
                    b.last_frame_ms = Some(now);
                    b.owed_minutes = (b.owed_minutes + dt / 1000.0 * speed).min(cap);
                    let steps = b.owed_minutes.floor();
                    b.owed_minutes -= steps;
                    steps as u32
                })
                .unwrap_or(0);
            let stop_at_page = run.pause_on_page.get_untracked();
            for done in 0..owed {
                if done > 0 && spent(&performance) >= PLAY_BUDGET_MS {
                    // The frame's time is up: the rest is owed to the next frames.
                    let left = f64::from(owed - done);
                    run.book
                        .try_update_value(|b| b.owed_minutes = (b.owed_minutes + left).min(cap));
                    break;
                }
                let was_paging = run.with(Console::paging).unwrap_or(false);
                // The extended build times each simulated minute ("minute" in the page's
                // performance timeline): request mode's cost per minute is measured there.
                minutes.start(&performance);
                if !run.update(Console::step).unwrap_or(false) {
                    break;
                }
                minutes.end(&performance);
                simulated = true;
                if stop_at_page && !was_paging && run.with(Console::paging).unwrap_or(false) {
                    // The page fired: the clock stops at its minute, for the trainee to act.
                    run.pause();
                    run.paused_by_page.set(true);
                    focus = Some(&["controls-heading", "respond-button"]);
                    break;
                }
            }
            if run.with(Console::finished).unwrap_or(true) {
                run.pause();
            }
        }
        // A run that ends while the page is open (played or stepped to its last minute; not
        // a link that opens at its end) sends the focus to its debrief.
        let finished = run.with(Console::finished).unwrap_or(false);
        if finished && !was_finished && !replayed {
            focus = Some(&["debrief-heading"]);
        }
        was_finished = finished;
        let replaying = run.with(Console::replay_left).unwrap_or(0) > 0;
        // A request-mode replay takes seconds: it shows only its progress until its end. The
        // first build's links (the formulas, tens of microseconds a minute) replay within a
        // frame or two, and it keeps its size by publishing as it goes.
        crate::components::extended::publish_frame(run, simulated, replaying);
        let playing = run.playing.get_untracked();
        // While a link replays, the charts wait for its last minute: drawing each slice
        // would only slow the replay down.
        let redraw = !replaying
            && run
                .book
                .try_update_value(|b| std::mem::take(&mut b.charts_dirty))
                .unwrap_or(false);
        if redraw {
            draw_charts(&run, &canvases, dark.get_untracked());
        }
        let link_due = run
            .book
            .try_with_value(|b| {
                b.link_dirty && (!playing || now - b.link_written_ms >= LINK_INTERVAL_MS)
            })
            .unwrap_or(false);
        if link_due && !replaying {
            run.write_link();
            run.book.try_update_value(|b| b.link_written_ms = now);
        }
        if simulated || redraw {
            if let Some(p) = performance.clone() {
                measures += 1;
                if measures > MAX_FRAME_MEASURES {
                    p.clear_measures_with_measure_name("frame");
                    measures = 1;
                }
                // After the reactive updates of this frame (queued before this task) ran:
                // the debrief of a run that ended in this frame is on the page.
                leptos::task::spawn_local(async move {
                    let _ = p.measure_with_start_mark("frame", "frame-start");
                    // The first that is on screen: a hidden element cannot take the focus.
                    let shown = focus.unwrap_or_default().iter().find_map(|id| {
                        document()
                            .get_element_by_id(id)
                            .filter(|e| e.client_height() > 0)
                    });
                    if let Some(h) = shown {
                        let _ = h.unchecked_into::<web_sys::HtmlElement>().focus();
                    }
                });
            }
        }
        let (link_pending, autoplay) = run
            .book
            .try_with_value(|b| (b.link_dirty, b.play_when_ready))
            .unwrap_or((false, false));
        playing || replaying || link_pending || autoplay || run.commands_waiting()
    }
}

/// Back and Forward: the page shows the run of the entry's link (each new run has its own
/// entry, written by the run handle).
fn use_history(run: RunHandle) {
    let handle = window_event_listener(leptos::ev::popstate, move |_| {
        run.follow_link(&current_search());
    });
    on_cleanup(move || handle.remove());
}

/// Whether a key pressed on an element is the element's own rather than a shortcut: every key
/// belongs to a text field, list or editable element; a slider keeps its arrows, Home, End and
/// Page keys (and every other key), but not Space, which moves no slider and stays play/pause.
fn key_belongs_to_field(tag: &str, input_type: &str, editable: bool, key: &str) -> bool {
    if editable {
        return true;
    }
    match tag {
        "input" if input_type == "range" => !matches!(key, " " | "Spacebar"),
        "input" | "textarea" | "select" => true,
        _ => false,
    }
}

/// Keyboard shortcuts: Space play/pause, → or S step, + and − speed, R reset, A respond (to
/// the actions), ? help.
/// They do nothing while a text field, list or editable element has the focus (keys belong
/// to it then; on a slider only Space is a shortcut), with a modifier held, or while the help
/// dialog is open (except ?).
fn use_shortcuts(run: RunHandle) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.default_prevented()
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
            || ev.is_composing()
        {
            return;
        }
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let tag = target
            .as_ref()
            .map(|e| e.tag_name().to_ascii_lowercase())
            .unwrap_or_default();
        let editable = target
            .as_ref()
            .and_then(|e| e.dyn_ref::<web_sys::HtmlElement>())
            .is_some_and(|e| e.is_content_editable());
        let input_type = target
            .as_ref()
            .and_then(|e| e.get_attribute("type"))
            .unwrap_or_default()
            .to_ascii_lowercase();
        let key = ev.key();
        if key_belongs_to_field(&tag, &input_type, editable, &key) {
            return;
        }
        if run.relation_open.get_untracked().is_some() {
            // The relation dialog has the focus; it handles Escape itself.
            return;
        }
        if run.help_open.get_untracked() {
            // The dialog handles Escape itself.
            if key == "?" {
                ev.prevent_default();
                run.help_open.set(false);
            }
            return;
        }
        // Space plays and pauses wherever the focus is, but in a field that takes it (Enter
        // still activates a button, a link or a summary).
        let handled = match key.as_str() {
            " " | "Spacebar" => {
                run.toggle_play();
                true
            }
            "ArrowRight" | "s" | "S" => {
                run.step();
                true
            }
            "+" | "=" | "Add" => {
                run.faster();
                true
            }
            "-" | "_" | "Subtract" | "−" => {
                run.slower();
                true
            }
            "r" | "R" => {
                run.reset();
                true
            }
            "a" | "A" => {
                run.respond();
                true
            }
            "?" => {
                run.help_open.set(true);
                true
            }
            _ => false,
        };
        if handled {
            ev.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
}

#[cfg(test)]
mod tests {
    use super::key_belongs_to_field;

    #[test]
    fn space_on_a_slider_plays_and_its_arrows_move_it() {
        assert!(!key_belongs_to_field("input", "range", false, " "));
        assert!(!key_belongs_to_field("input", "range", false, "Spacebar"));
        for key in [
            "ArrowRight",
            "ArrowLeft",
            "ArrowUp",
            "Home",
            "End",
            "PageUp",
            "s",
            "r",
        ] {
            assert!(key_belongs_to_field("input", "range", false, key), "{key}");
        }
    }

    #[test]
    fn text_fields_lists_and_editable_elements_keep_every_key() {
        for (tag, kind) in [
            ("input", "text"),
            ("input", "number"),
            ("input", ""),
            ("input", "checkbox"),
        ] {
            assert!(key_belongs_to_field(tag, kind, false, " "), "{tag} {kind}");
        }
        assert!(key_belongs_to_field("textarea", "", false, " "));
        assert!(key_belongs_to_field("select", "", false, "ArrowRight"));
        assert!(key_belongs_to_field("div", "", true, " "));
        assert!(!key_belongs_to_field("body", "", false, " "));
        assert!(!key_belongs_to_field("canvas", "", false, "ArrowRight"));
    }
}
