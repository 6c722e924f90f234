//! The run's seed: read from the link's `?seed=` parameter, or drawn at random.
//!
//! Parsing is pure so it is tested natively; drawing a random seed needs the browser's
//! `crypto.getRandomValues` (through getrandom) on wasm and the OS elsewhere.

/// The name of the URL parameter that carries the seed.
pub const SEED_PARAM: &str = "seed";

/// What the link said about the seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeedParam {
    /// No `seed` parameter: draw one.
    Absent,
    /// A valid seed.
    Given(u32),
    /// A `seed` parameter that is not an integer 0–4294967295 (kept to report it).
    Malformed(String),
}

/// Reads the raw value of the `seed` parameter, if any.
///
/// Only plain decimal digits are accepted (leading zeros allowed): no sign, no spaces, no
/// exponent, so a link means one thing and writes back unchanged.
pub fn parse_seed(raw: Option<&str>) -> SeedParam {
    let Some(raw) = raw else {
        return SeedParam::Absent;
    };
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return SeedParam::Malformed(raw.to_owned());
    }
    match raw.parse::<u32>() {
        Ok(seed) => SeedParam::Given(seed),
        Err(_) => SeedParam::Malformed(raw.to_owned()),
    }
}

/// The seed a run uses, and the rejected parameter value if the link's seed was malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedChoice {
    pub seed: u32,
    pub rejected: Option<String>,
}

/// Picks the run's seed: the link's when valid, otherwise one from `draw` (remembering a
/// malformed value so the page can say what was wrong).
pub fn choose_seed(param: SeedParam, draw: impl FnOnce() -> u32) -> SeedChoice {
    match param {
        SeedParam::Given(seed) => SeedChoice {
            seed,
            rejected: None,
        },
        SeedParam::Absent => SeedChoice {
            seed: draw(),
            rejected: None,
        },
        SeedParam::Malformed(raw) => SeedChoice {
            seed: draw(),
            rejected: Some(raw),
        },
    }
}

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
    fn absent_parameter_asks_for_a_random_seed() {
        assert_eq!(parse_seed(None), SeedParam::Absent);
    }

    #[test]
    fn the_whole_u32_range_is_accepted() {
        assert_eq!(parse_seed(Some("0")), SeedParam::Given(0));
        assert_eq!(parse_seed(Some("42")), SeedParam::Given(42));
        assert_eq!(parse_seed(Some("0042")), SeedParam::Given(42));
        assert_eq!(parse_seed(Some("4294967295")), SeedParam::Given(u32::MAX));
    }

    #[test]
    fn anything_else_is_malformed() {
        for raw in [
            "",
            " 42",
            "42 ",
            "+42",
            "-1",
            "4294967296",
            "99999999999999999999999",
            "4.2",
            "1e3",
            "abc",
            "0x2a",
            "４２",
        ] {
            assert_eq!(
                parse_seed(Some(raw)),
                SeedParam::Malformed(raw.to_owned()),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn a_valid_seed_is_kept_and_nothing_is_drawn() {
        let choice = choose_seed(SeedParam::Given(42), || panic!("must not draw"));
        assert_eq!(
            choice,
            SeedChoice {
                seed: 42,
                rejected: None
            }
        );
    }

    #[test]
    fn absent_or_malformed_seeds_are_drawn_and_malformed_ones_reported() {
        assert_eq!(choose_seed(SeedParam::Absent, || 7).rejected, None);
        assert_eq!(choose_seed(SeedParam::Absent, || 7).seed, 7);
        let choice = choose_seed(SeedParam::Malformed("x".into()), || 9);
        assert_eq!(choice.seed, 9);
        assert_eq!(choice.rejected.as_deref(), Some("x"));
    }

    #[test]
    fn random_seeds_come_from_a_working_source() {
        // Two draws from a 32-bit source are equal with probability 2^-32 per pair; five equal
        // draws in a row mean the source is broken.
        let first = random_seed();
        assert!((0..4).any(|_| random_seed() != first));
    }
}
