//! The page's handle on the run: the [`Console`] (not reactive, it is large and changes every
//! frame), a [`Snapshot`] signal the components read, and the clock (playing, speed).
//!
//! Components get it from context and change the run only through its methods; each method
//! publishes a new snapshot, marks the charts and the link as out of date and asks the frame
//! loop for a frame, where charts are redrawn (once) and the link rewritten.

use leptos::prelude::*;
use oncall_sim::autoscale::PolicyId;
use oncall_sim::ids::ScenarioId;
use oncall_sim::share::ShareState;
use oncall_sim::ActionKind;

use crate::console::{Console, Snapshot};
use crate::hooks::FrameLoop;
use crate::link::link_query;
use crate::url_state;

/// Simulated minutes per real second the speed control offers: from one minute per second to
/// a whole day in two seconds.
pub const SPEEDS: [u32; 6] = [1, 5, 15, 60, 240, 720];

/// The default speed (index into [`SPEEDS`]).
pub const DEFAULT_SPEED: usize = 0;

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
}

/// A copyable handle on the run, provided through context.
#[derive(Clone, Copy)]
pub struct RunHandle {
    console: StoredValue<Console, LocalStorage>,
    /// What the page shows; replaced after every change.
    pub snapshot: RwSignal<Snapshot>,
    pub playing: RwSignal<bool>,
    /// Index into [`SPEEDS`].
    pub speed: RwSignal<usize>,
    pub help_open: RwSignal<bool>,
    /// Counts the runs: changes when a reset or restart replaces the run, so what depends
    /// only on the run's set-up (parameters, legends) is recomputed then and not every frame.
    pub generation: RwSignal<u64>,
    /// Link parameters the core does not own, kept in the link as they came.
    rest: StoredValue<Vec<(String, String)>>,
    pub book: StoredValue<FrameBook, LocalStorage>,
    frame: StoredValue<Option<FrameLoop>, LocalStorage>,
}

impl RunHandle {
    pub fn new(console: Console, rest: Vec<(String, String)>) -> Self {
        let snapshot = console.snapshot();
        Self {
            console: StoredValue::new_local(console),
            snapshot: RwSignal::new(snapshot),
            playing: RwSignal::new(false),
            speed: RwSignal::new(DEFAULT_SPEED),
            help_open: RwSignal::new(false),
            generation: RwSignal::new(0),
            rest: StoredValue::new(rest),
            book: StoredValue::new_local(FrameBook {
                charts_dirty: true,
                link_dirty: true,
                ..FrameBook::default()
            }),
            frame: StoredValue::new_local(None),
        }
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
        self.playing.set(true);
        self.wake();
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

    /// The one place the page starts a run over, paused: the console restarts with its
    /// set-up changed by `edit` (and `seed`, if given); then the page's state, charts and
    /// link follow. A set-up the core refuses leaves the run as it is.
    pub fn restart(&self, seed: Option<u32>, edit: impl FnOnce(&mut ShareState)) {
        self.playing.set(false);
        if let Some(Ok(())) = self.update(|c| c.restart(seed, edit)) {
            self.generation.update(|g| *g += 1);
            self.publish();
            self.charts_changed();
            self.write_link();
        }
    }

    /// Starts the scenario over (same seed and parameters, no actions), paused.
    pub fn reset(&self) {
        self.restart(None, |_| {});
    }

    /// A new run of another scenario, autoscaler or seed, paused.
    pub fn restart_with(
        &self,
        scenario: Option<ScenarioId>,
        policy: Option<PolicyId>,
        seed: Option<u32>,
    ) {
        self.restart(seed, |state| {
            if let Some(id) = scenario {
                state.scenario = id;
            }
            if let Some(id) = policy {
                state.autoscaler = id;
            }
        });
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
