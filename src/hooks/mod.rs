//! Hooks that own a piece of the outside world (animation frames, media queries) together
//! with its cleanup.

mod use_frame_loop;
mod use_media_query;

pub use use_frame_loop::{use_frame_loop, FrameLoop};
pub use use_media_query::use_media_query;
