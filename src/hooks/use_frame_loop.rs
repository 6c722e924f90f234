//! `use_frame_loop`: a `requestAnimationFrame` loop that runs only while it has work.
//!
//! The loop calls `tick(timestamp_ms)` once per animation frame; `tick` returns whether it
//! wants another frame (playing, replaying, a chart to redraw). When it says no, the loop stops
//! asking for frames, and [`FrameLoop::request`] starts it again. The pending frame is
//! cancelled and the closure released when the calling component is cleaned up.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The animation-frame callback, given the frame's timestamp in ms.
type FrameCallback = Closure<dyn FnMut(f64)>;

struct LoopState {
    callback: RefCell<Option<FrameCallback>>,
    /// The id of the requested frame, while one is requested.
    requested: Cell<Option<i32>>,
}

impl LoopState {
    fn request(&self) {
        if self.requested.get().is_some() {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        if let Some(callback) = self.callback.borrow().as_ref() {
            if let Ok(id) = window.request_animation_frame(callback.as_ref().unchecked_ref()) {
                self.requested.set(Some(id));
            }
        }
    }

    fn cancel(&self) {
        if let (Some(id), Some(window)) = (self.requested.take(), web_sys::window()) {
            let _ = window.cancel_animation_frame(id);
        }
    }
}

/// A handle on the loop: copy it into event handlers to ask for a frame.
#[derive(Clone, Copy)]
pub struct FrameLoop {
    state: StoredValue<Option<Rc<LoopState>>, LocalStorage>,
}

impl FrameLoop {
    /// Asks for a frame (once, however often it is called before the frame comes).
    pub fn request(&self) {
        if let Some(Some(state)) = self.state.try_get_value() {
            state.request();
        }
    }
}

/// Starts a frame loop owned by the calling component. The first frame is requested at once.
pub fn use_frame_loop(mut tick: impl FnMut(f64) -> bool + 'static) -> FrameLoop {
    let state = Rc::new(LoopState {
        callback: RefCell::new(None),
        requested: Cell::new(None),
    });
    let weak: Weak<LoopState> = Rc::downgrade(&state);
    let callback: FrameCallback = Closure::new(move |timestamp: f64| {
        let Some(state) = weak.upgrade() else {
            return;
        };
        state.requested.set(None);
        if tick(timestamp) {
            state.request();
        }
    });
    *state.callback.borrow_mut() = Some(callback);
    state.request();
    let handle = FrameLoop {
        state: StoredValue::new_local(Some(state)),
    };
    on_cleanup(move || {
        if let Some(Some(state)) = handle.state.try_get_value() {
            state.cancel();
            // Dropping the closure ends the loop for good.
            state.callback.borrow_mut().take();
        }
        handle.state.try_set_value(None);
    });
    handle
}
