//! A fresh seed for a run whose link names none (or a malformed one).
//!
//! Reading the seed from the link is the core's `ShareState`; this module only draws one:
//! from the browser's `crypto.getRandomValues` (through getrandom) on wasm and the OS
//! elsewhere.

/// A fresh random seed.
///
/// Falls back to a seed mixed from the clock if the platform has no random source, so a page
/// always starts.
pub fn random_seed() -> u32 {
    getrandom::u32().unwrap_or_else(|_| clock_seed())
}

#[cfg(target_arch = "wasm32")]
fn clock_seed() -> u32 {
    let now = js_sys::Date::now();
    // The low bits of the millisecond clock change fastest; fold in the high bits too.
    let bits = now.to_bits();
    (bits as u32) ^ ((bits >> 32) as u32)
}

#[cfg(not(target_arch = "wasm32"))]
fn clock_seed() -> u32 {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (nanos as u32) ^ ((nanos >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_seeds_come_from_a_working_source() {
        // Two draws from a 32-bit source are equal with probability 2^-32 per pair; five equal
        // draws in a row mean the source is broken.
        let first = random_seed();
        assert!((0..4).any(|_| random_seed() != first));
    }
}
