//! The clock's speeds: what the speed control offers, and what a link's `speed` and a host
//! page's `speed` command may ask for.

/// Simulated minutes per real second the speed control offers: from one minute per second to
/// a whole day in two seconds.
pub const SPEEDS: [u32; 6] = [1, 5, 15, 60, 240, 720];

/// The index into [`SPEEDS`] of `minutes_per_second`, if it is one of the speeds.
pub fn speed_index(minutes_per_second: f64) -> Option<usize> {
    SPEEDS
        .iter()
        .position(|&s| minutes_per_second == f64::from(s))
}

/// The speeds as a list for a person ("1, 5, 15, …").
pub fn speeds_list() -> String {
    let list: Vec<String> = SPEEDS.iter().map(u32::to_string).collect();
    list.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_listed_speeds_have_an_index() {
        assert_eq!(speed_index(60.0), Some(3));
        assert_eq!(speed_index(2.0), None);
        assert_eq!(speed_index(f64::NAN), None);
        assert_eq!(speeds_list(), "1, 5, 15, 60, 240, 720");
    }
}
