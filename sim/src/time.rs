//! Simulated time as an integer: milliseconds since the start of the run. Ticks and every
//! window, period and cool-down compare exactly, with no tolerance; formulas that need
//! seconds convert at the point of use (exactly, for whole and decimal seconds down to the
//! millisecond).

/// Milliseconds since the start of the run, or a duration in milliseconds.
pub type Millis = u64;

/// Whole seconds as milliseconds.
pub const fn secs(s: u32) -> Millis {
    s as u64 * 1000
}

/// A duration given in seconds (a parameter), to the nearest millisecond.
pub fn millis_of(s: f64) -> Millis {
    if s > 0.0 {
        libm::round(s * 1000.0) as Millis
    } else {
        0
    }
}

/// A duration in seconds rounded up to the millisecond: a deadline `now + d` falls on or
/// before a later whole-millisecond instant exactly when `d` does.
pub fn millis_ceil(s: f64) -> Millis {
    if s > 0.0 {
        libm::ceil(s * 1000.0) as Millis
    } else {
        0
    }
}

/// Milliseconds as seconds, for the formulas.
pub fn seconds(ms: Millis) -> f64 {
    ms as f64 / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_exact_to_the_millisecond() {
        assert_eq!(secs(15), 15_000);
        assert_eq!(millis_of(6.1), 6_100);
        assert_eq!(millis_of(-1.0), 0);
        assert_eq!(seconds(2_000), 2.0);
        assert_eq!(seconds(millis_of(0.001)), 0.001);
    }
}
