//! The page's handle on the run: the [`Console`] (not reactive, it is large and changes every
//! frame), a [`Snapshot`] signal the components read, and the clock (playing, speed).
//!
//! Components get it from context and change the run only through its methods; each method
//! publishes a new snapshot, marks the charts and the link as out of date and asks the frame
//! loop for a frame, where charts are redrawn (once) and the link rewritten.

use leptos::prelude::*;
use oncall_sim::ids::ScenarioId;
use oncall_sim::share::ShareState;
use oncall_sim::ActionKind;

use crate::commands::{CommandQueue, HostCommand, QueueFull};
use crate::console::{Console, Snapshot};
use crate::embed::Locks;
use crate::hooks::FrameLoop;
use crate::link::{link_query, read_page_link};
use crate::speed::SPEEDS;
use crate::url_state;

/// The default speed (index into [`SPEEDS`]).
pub const DEFAULT_SPEED: usize = 0;

/// How long queued host commands wait for an animation frame before a timer carries them
/// out instead, ms.
pub const COMMANDS_TIMER_MS: u64 = 100;
/// Time the timer spends on queued steps, ms (as a playing frame does).
const COMMANDS_TIMER_BUDGET_MS: f64 = 10.0;

/// Bookkeeping of the frame loop and of what is out of date.
#[derive(Default)]
pub struct FrameBook {
    /// The charts no longer show the run (history, size or theme changed).
    pub charts_dirty: bool,
    /// The link no longer describes the run.
    pub link_dirty: bool,
    /// When the link was last written (frame timestamp, ms).
    pub link_written_ms: f64,
    /// Timestamp of the previous playing frame, ms.
    pub last_frame_ms: Option<f64>,
    /// Simulated minutes owed to the clock (fractional), while playing.
    pub owed_minutes: f64,
    /// The clock is to start once the link has replayed (`autoplay`).
    pub play_when_ready: bool,
    /// The host page's commands, waiting for the next frame.
    pub commands: CommandQueue,
}

/// What replaced the run a page offers back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoKind {
    Reset,
    /// Another scenario or seed.
    Restart,
}

/// A run left behind by a reset or restart, which the page offers back until another run
/// replaces the new one or the offer is dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct UndoOffer {
    pub kind: UndoKind,
    /// The run as it was left: its link's state, exact to the minute.
    pub run: ShareState,
}

/// A copyable handle on the run, provided through context.
#[derive(Clone, Copy)]
pub struct RunHandle {
    console: StoredValue<Console, LocalStorage>,
    /// What the page shows; replaced after every change.
    pub snapshot: RwSignal<Snapshot>,
    /// While a link replays: the minutes simulated so far. The status strip counts them; the
    /// rest of the page keeps the snapshot of before the replay until its last minute (drawing
    /// every slice of it would only slow the replay down). Request mode only: the first
    /// build's replays (the formulas) take a frame or two and publish as they go.
    pub replayed: crate::components::extended::ReplayProgress,
    pub playing: RwSignal<bool>,
    /// Index into [`SPEEDS`].
    pub speed: RwSignal<usize>,
    pub help_open: RwSignal<bool>,
    /// The relation a metric's name opened in the relation dialog (its key), if any.
    pub relation_open: RwSignal<Option<&'static str>>,
    /// Asks the console page to bring the actions into view and focus the first (counts the
    /// requests; [`RunHandle::respond`]).
    pub responding: RwSignal<u32>,
    /// The clock stops when the page fires (on unless the link says `pause_on_page=0`).
    pub pause_on_page: RwSignal<bool>,
    /// The charts follow the last hour rather than the whole run.
    pub charts_last_hour: RwSignal<bool>,
    /// The minute the charts' shared crosshair points at (pointer or keyboard), if any.
    pub crosshair: RwSignal<Option<u32>>,
    /// The clock was stopped by the page firing (until it plays again).
    pub paused_by_page: RwSignal<bool>,
    /// Counts the runs: changes when a reset or restart replaces the run, so what depends
    /// only on the run's set-up (parameters, legends) is recomputed then and not every frame.
    pub generation: RwSignal<u64>,
    /// The run a reset or restart replaced, offered back.
    pub undo: RwSignal<Option<UndoOffer>>,
    /// Link parameters the core does not own, kept in the link as they came.
    pub(crate) rest: StoredValue<Vec<(String, String)>>,
    /// The settings the link fixed (`locked=`): no control changes them.
    locks: StoredValue<Locks>,
    pub book: StoredValue<FrameBook, LocalStorage>,
    frame: StoredValue<Option<FrameLoop>, LocalStorage>,
}

impl RunHandle {
    pub fn new(console: Console, rest: Vec<(String, String)>) -> Self {
        let snapshot = console.snapshot();
        Self {
            console: StoredValue::new_local(console),
            snapshot: RwSignal::new(snapshot),
            replayed: crate::components::extended::ReplayProgress::new(),
            playing: RwSignal::new(false),
            speed: RwSignal::new(DEFAULT_SPEED),
            help_open: RwSignal::new(false),
            relation_open: RwSignal::new(None),
            responding: RwSignal::new(0),
            pause_on_page: RwSignal::new(true),
            paused_by_page: RwSignal::new(false),
            charts_last_hour: RwSignal::new(false),
            crosshair: RwSignal::new(None),
            generation: RwSignal::new(0),
            undo: RwSignal::new(None),
            rest: StoredValue::new(rest),
            locks: StoredValue::new(Locks::default()),
            book: StoredValue::new_local(FrameBook {
                charts_dirty: true,
                link_dirty: true,
                ..FrameBook::default()
            }),
            frame: StoredValue::new_local(None),
        }
    }

    /// Fixes the settings a lesson's link locked.
    pub fn lock(&self, locks: Locks) {
        self.locks.set_value(locks);
    }

    /// Connects the frame loop (done once, by the component that owns it).
    pub fn attach(&self, frame: FrameLoop) {
        self.frame.try_set_value(Some(frame));
    }

    /// Reads the console. `None` only after the page has been torn down.
    pub fn with<R>(&self, f: impl FnOnce(&Console) -> R) -> Option<R> {
        self.console.try_with_value(f)
    }

    /// Changes the console (the frame loop's steps and replays).
    pub fn update<R>(&self, f: impl FnOnce(&mut Console) -> R) -> Option<R> {
        self.console.try_update_value(f)
    }

    /// Asks the frame loop for a frame.
    pub fn wake(&self) {
        if let Some(Some(frame)) = self.frame.try_get_value() {
            frame.request();
        }
    }

    /// Marks the charts for a redraw at the next frame.
    pub fn charts_changed(&self) {
        self.book.try_update_value(|b| b.charts_dirty = true);
        self.wake();
    }

    /// Publishes the console's state: a new snapshot, the charts and the link out of date.
    pub fn publish(&self) {
        if let Some(snapshot) = self.with(Console::snapshot) {
            let minutes_changed = self.snapshot.with_untracked(|s| {
                s.minutes != snapshot.minutes
                    || s.scenario != snapshot.scenario
                    || s.policy != snapshot.policy
                    || s.seed != snapshot.seed
            });
            self.snapshot.set(snapshot);
            self.replayed.clear();
            self.book.try_update_value(|b| {
                b.link_dirty = true;
                b.charts_dirty |= minutes_changed;
            });
            self.wake();
        }
    }

    /// The user operated a control: the action waits for the next minute.
    pub fn act(&self, kind: ActionKind) {
        if self.update(|c| c.act(kind)).unwrap_or(false) {
            self.publish();
        }
    }

    /// Queues a command from the host page for the next frame. A frame the browser does not
    /// paint (scrolled out of its host page's view, in a hidden tab) gets no animation
    /// frames: a timer carries the queue out then, at most every [`COMMANDS_TIMER_MS`].
    pub fn queue_command(&self, command: HostCommand) -> Result<(), QueueFull> {
        let (queued, was_empty) = self
            .book
            .try_update_value(|b| {
                let was_empty = b.commands.is_empty();
                (b.commands.push(command), was_empty)
            })
            .unwrap_or((Ok(()), false));
        self.wake();
        if was_empty {
            self.run_commands_later();
        }
        queued
    }

    /// Carries out the queued commands from a timer, if no frame has done it by then.
    fn run_commands_later(&self) {
        let run = *self;
        set_timeout(
            move || {
                if !run.commands_waiting() {
                    return;
                }
                let clock = web_sys::window().and_then(|w| w.performance());
                let now = move || clock.as_ref().map_or(0.0, web_sys::Performance::now);
                let deadline = now() + COMMANDS_TIMER_BUDGET_MS;
                if run.run_commands(&|| now() < deadline) {
                    run.publish();
                }
                if run.commands_waiting() {
                    run.run_commands_later();
                }
            },
            std::time::Duration::from_millis(COMMANDS_TIMER_MS),
        );
    }

    /// Whether host commands wait for a frame.
    pub fn commands_waiting(&self) -> bool {
        self.book
            .try_with_value(|b| !b.commands.is_empty())
            .unwrap_or(false)
    }

    /// Carries out the host page's queued commands in order, the steps while `in_time()` says
    /// the frame has time left (the rest waits for the next frame). Actions and steps are
    /// published together: true when the console changed since the last publication, for
    /// the frame loop to publish once.
    // Called from the frame loop and from the timer: one copy of it, not one inlined in each.
    #[inline(never)]
    pub fn run_commands(&self, in_time: &dyn Fn() -> bool) -> bool {
        let mut changed = false;
        let commands = self
            .book
            .try_update_value(|b| b.commands.take_all())
            .unwrap_or_default();
        let mut commands = commands.into_iter();
        while let Some(command) = commands.next() {
            match command {
                HostCommand::Act(kind) => {
                    changed |= self.update(|c| c.act(kind)).unwrap_or(false);
                }
                HostCommand::Step => {
                    if !in_time() {
                        let rest: Vec<HostCommand> =
                            std::iter::once(command).chain(commands).collect();
                        self.book.try_update_value(|b| b.commands.put_back(rest));
                        break;
                    }
                    self.pause();
                    changed |= self.update(Console::step).unwrap_or(false);
                }
                HostCommand::Speed(index) => self.set_speed(index),
                HostCommand::Pause => self.pause(),
                other => {
                    // Play and reset read the published state: bring it up to date first.
                    if std::mem::take(&mut changed) {
                        self.publish();
                    }
                    if matches!(other, HostCommand::Reset) {
                        self.reset();
                    } else {
                        self.play();
                    }
                }
            }
        }
        changed
    }

    /// Simulates one minute (pausing first if playing).
    pub fn step(&self) {
        self.pause();
        if self.update(Console::step).unwrap_or(false) {
            self.publish();
        }
    }

    pub fn play(&self) {
        let blocked = self
            .snapshot
            .with_untracked(|s| s.finished || s.replay_left > 0);
        if blocked || self.playing.get_untracked() {
            return;
        }
        self.book.try_update_value(|b| {
            b.last_frame_ms = None;
            b.owed_minutes = 0.0;
        });
        self.paused_by_page.set(false);
        self.playing.set(true);
        self.wake();
    }

    /// Starts the clock as soon as the link has replayed.
    pub fn play_when_ready(&self) {
        self.book.try_update_value(|b| b.play_when_ready = true);
        self.wake();
    }

    /// Whether the clock was waiting for the replay to start (asked once, when it is over).
    pub fn take_play_when_ready(&self) -> bool {
        self.book
            .try_update_value(|b| std::mem::take(&mut b.play_when_ready))
            .unwrap_or(false)
    }

    pub fn pause(&self) {
        if self.playing.get_untracked() {
            self.playing.set(false);
            // A paused run's link is complete: write it now rather than at the next second.
            self.write_link();
        }
    }

    pub fn toggle_play(&self) {
        if self.playing.get_untracked() {
            self.pause();
        } else {
            self.play();
        }
    }

    /// The person answers the page: the actions come into view (on a phone, the controls'
    /// tab) with the focus on the first one that can be taken.
    pub fn respond(&self) {
        self.responding.update(|n| *n = n.wrapping_add(1));
    }

    pub fn set_speed(&self, index: usize) {
        self.speed.set(index.min(SPEEDS.len() - 1));
        self.book.try_update_value(|b| b.owed_minutes = 0.0);
    }

    pub fn faster(&self) {
        self.set_speed(self.speed.get_untracked() + 1);
    }

    pub fn slower(&self) {
        self.set_speed(self.speed.get_untracked().saturating_sub(1));
    }

    /// Simulated minutes per second at the current speed.
    pub fn minutes_per_second(&self) -> u32 {
        SPEEDS[self.speed.get_untracked().min(SPEEDS.len() - 1)]
    }

    /// The one place the page replaces its run, paused: `next` gives the new run's state from
    /// the console's; the console becomes it, then the page's state, charts and link follow.
    /// The run left behind keeps its history entry (its link is written out first, exact to
    /// the minute) and the new run gets a new one, so Back returns to it; `undo` offers it
    /// back on the page too. A change the core refuses leaves the run as it is.
    fn replace_run(&self, undo: Option<UndoKind>, next: impl FnOnce(&Console) -> ShareState) {
        self.playing.set(false);
        let Some((left, next)) = self.with(|c| (c.share_state(), next(c))) else {
            return;
        };
        self.write_link();
        // A run this build cannot simulate goes on the page that can, before it starts here.
        #[cfg(not(feature = "extended"))]
        if next.needs_extended() {
            let rest = self.rest.try_get_value().unwrap_or_default();
            if url_state::open_extended(&link_query(&next, &rest), false) {
                return;
            }
        }
        if let Some(Ok(())) = self.update(|c| c.become_run(next)) {
            let lost = left.minute.unwrap_or(0) > 1 || !left.actions.is_empty();
            self.undo.set(
                undo.filter(|_| lost)
                    .map(|kind| UndoOffer { kind, run: left }),
            );
            self.replaced();
            if let Some(query) = self.link_query() {
                // Without the history API the link simply stays as it was.
                let _ = url_state::push_query(&query);
                crate::components::extended::sync_fragment(*self);
                self.book.try_update_value(|b| b.link_dirty = false);
            }
        }
    }

    /// The page follows a run that replaced the one it showed.
    fn replaced(&self) {
        self.generation.update(|g| *g += 1);
        self.crosshair.set(None);
        self.publish();
        self.charts_changed();
    }

    /// Starts the run over from minute 0 without actions, with its set-up changed by `edit`
    /// (and `seed`, if given).
    fn restart(&self, undo: UndoKind, seed: Option<u32>, edit: impl FnOnce(&mut ShareState)) {
        self.replace_run(Some(undo), |c| c.restarted(seed, edit));
    }

    /// The same run under a changed set-up (autoscaler, policy parameters): its actions are
    /// replayed under it to the same minute.
    pub fn rerun(&self, edit: impl FnOnce(&mut ShareState)) {
        let locked = self.locks.get_value().autoscaler;
        self.replace_run(None, |c| {
            c.rerun_state(|state| {
                let autoscaler = state.autoscaler;
                edit(state);
                if locked {
                    state.autoscaler = autoscaler;
                }
            })
        });
    }

    /// Starts the scenario over (same seed and parameters, no actions), paused; it can be
    /// undone.
    pub fn reset(&self) {
        self.restart(UndoKind::Reset, None, |_| {});
    }

    /// A new run of another scenario or seed, paused (the autoscaler: [`RunHandle::rerun`]).
    pub fn restart_with(&self, scenario: Option<ScenarioId>, seed: Option<u32>) {
        let locks = self.locks.get_value();
        let scenario = scenario.filter(|_| !locks.scenario);
        let seed = seed.filter(|_| !locks.seed);
        if scenario.is_none() && seed.is_none() {
            return;
        }
        self.restart(UndoKind::Restart, seed, |state| {
            if let Some(id) = scenario {
                state.choose_scenario(id);
            }
        });
    }

    /// A new run of the author's exercise `state` plays (from [`ShareState::of_exercise`]),
    /// with this run's seed, paused; it can be undone. A page whose scenario is locked keeps
    /// its scenario.
    pub fn open_exercise(&self, state: ShareState) {
        if self.locks.get_value().scenario {
            return;
        }
        self.replace_run(Some(UndoKind::Restart), |_| state);
    }

    /// Brings back the run a reset or restart replaced (a new history entry, as any change of
    /// run).
    pub fn undo(&self) {
        if let Some(offer) = self.undo.get_untracked() {
            self.replace_run(None, move |_| offer.run);
        }
    }

    /// The browser went Back or Forward to another entry: the page shows the run of its link.
    /// A link that names the run already shown (a jump within the page) changes nothing.
    pub fn follow_link(&self, search: &str) {
        let link = read_page_link(search);
        let current = self.link_query();
        if current.as_deref() == Some(link_query(&link.state, &link.rest).as_str())
            && crate::components::extended::same_exercise(*self, &link.state)
        {
            return;
        }
        // A run this build cannot simulate (the policy panel's load-balancing policy, say)
        // goes on the page that can, in place of the entry just written.
        #[cfg(not(feature = "extended"))]
        if link.needs_extended() && url_state::open_extended(search, true) {
            return;
        }
        self.playing.set(false);
        if let Some(Ok(())) = self.update(|c| c.become_run(link.state)) {
            self.rest.set_value(link.rest);
            self.undo.set(None);
            self.replaced();
        }
    }

    /// The query string describing the run now.
    pub fn link_query(&self) -> Option<String> {
        let rest = self.rest.try_get_value().unwrap_or_default();
        self.with(|c| link_query(&c.share_state(), &rest))
    }

    /// The full address of the run now, for sharing.
    pub fn share_href(&self) -> Option<String> {
        url_state::href_with_query(&self.link_query()?).ok()
    }

    /// The address of the run now with the parameters the core does not own changed by
    /// `rest` (the compact layout for a frame, or the full page out of it).
    pub fn href_with_rest(
        &self,
        rest: impl FnOnce(&[(String, String)]) -> Vec<(String, String)>,
    ) -> Option<String> {
        let rest = rest(&self.rest.try_get_value()?);
        let query = self.with(|c| link_query(&c.share_state(), &rest))?;
        url_state::href_with_query(&query).ok()
    }

    /// Rewrites the page's address to describe the run (replaceState: no history entry, no
    /// scrolling).
    pub fn write_link(&self) {
        if let Some(query) = self.link_query() {
            // Without the history API the link simply stays as it was; the run is unaffected.
            let _ = url_state::replace_query(&query);
            self.book.try_update_value(|b| b.link_dirty = false);
        }
    }
}

/// The run handle from context. Components below the console always have one.
pub fn use_run() -> RunHandle {
    expect_context::<RunHandle>()
}
