//! Hooks that own a piece of the outside world (timers) together with its cleanup.

mod use_interval;

pub use use_interval::use_interval;
