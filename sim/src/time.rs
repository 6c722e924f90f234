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

/// A time of day to the minute, shown "HH:MM" (the run's one clock: see
/// [`crate::world::journal::Journal::clock_at`]). Kept as a number, so that a record or an
/// event carries its clock without building text until it is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Clock(u16);

impl Clock {
    /// The time `minutes` after midnight, wrapping at a day.
    pub const fn of_minutes(minutes: u32) -> Self {
        Clock((minutes % 1440) as u16)
    }
}

impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}:{:02}", self.0 / 60, self.0 % 60)
    }
}

impl From<Clock> for String {
    fn from(clock: Clock) -> Self {
        clock.to_string()
    }
}

impl std::str::FromStr for Clock {
    type Err = ();

    /// Reads "HH:MM" (hours 00–23, minutes 00–59).
    fn from_str(text: &str) -> Result<Self, ()> {
        let (h, m) = text.split_once(':').ok_or(())?;
        let (h, m): (u32, u32) = (h.parse().map_err(|_| ())?, m.parse().map_err(|_| ())?);
        if h < 24 && m < 60 {
            Ok(Clock::of_minutes(h * 60 + m))
        } else {
            Err(())
        }
    }
}

impl serde::Serialize for Clock {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
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

    #[test]
    fn a_clock_reads_hours_and_minutes_and_wraps_at_midnight() {
        assert_eq!(Clock::of_minutes(9 * 60 + 8).to_string(), "09:08");
        assert_eq!(Clock::of_minutes(1439).to_string(), "23:59");
        assert_eq!(Clock::of_minutes(1440 + 5).to_string(), "00:05");
        assert_eq!("10:05".parse(), Ok(Clock::of_minutes(605)));
        assert_eq!("24:00".parse::<Clock>(), Err(()));
        assert_eq!(
            serde_json::to_string(&Clock::of_minutes(605)).unwrap(),
            "\"10:05\""
        );
    }
}
