//! Small inline icons (decorative: every button that shows one also has a text label).

use leptos::prelude::*;

/// Which icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    Play,
    Pause,
    Step,
    Reset,
    Share,
    /// A frame's code: angle brackets.
    Embed,
    Keyboard,
}

impl Icon {
    fn path(self) -> &'static str {
        match self {
            Icon::Play => "M4 2.5v11l9-5.5z",
            Icon::Pause => "M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z",
            Icon::Step => "M2.5 2.5v11l8-5.5zM11 2.5h2.5v11H11z",
            Icon::Reset => "M8 2.5a5.5 5.5 0 1 1-5.2 3.7l1.9.6A3.5 3.5 0 1 0 8 4.5v2L4.5 3.5 8 .5z",
            Icon::Share => {
                "M11.5 1.5a2.5 2.5 0 1 1-2 4l-3.2 1.7a2.5 2.5 0 0 1 0 1.6l3.2 1.7a2.5 2.5 0 1 1-.7 \
                 1.4L5.6 10.2a2.5 2.5 0 1 1 0-4.4l3.2-1.7a2.5 2.5 0 0 1 2.7-2.6z"
            }
            Icon::Embed => {
                "M5.2 3.6 6.6 5 3.6 8l3 3-1.4 1.4L.8 8zM10.8 3.6 9.4 5l3 3-3 3 1.4 1.4L15.2 8z"
            }
            Icon::Keyboard => {
                "M1.5 4h13v8h-13zM3 5.5v1.5h1.5V5.5zM5.5 5.5v1.5H7V5.5zM8 5.5v1.5h1.5V5.5zM10.5 \
                 5.5v1.5H12V5.5zM4 9.5V11h8V9.5z"
            }
        }
    }
}

/// An icon, hidden from assistive technology.
#[component]
pub fn IconView(icon: Icon) -> impl IntoView {
    view! {
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d=icon.path() fill="currentColor" fill-rule="evenodd"></path>
        </svg>
    }
}
