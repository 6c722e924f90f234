//! The regions' codes and their number: plain data at the bottom, which actions, events and
//! engines read without the regions' model.

/// Most regions a run may have.
pub const MAX_REGIONS: usize = 3;

/// The regions' codes, as actions and events spell them.
pub const REGION_CODES: [&str; MAX_REGIONS] = ["a", "b", "c"];

/// The code of region `r`.
pub fn code(r: usize) -> &'static str {
    REGION_CODES.get(r).copied().unwrap_or("?")
}

/// The index of the region spelled `code`, among `regions`.
pub fn index(code: &str, regions: usize) -> Option<usize> {
    REGION_CODES[..regions.min(MAX_REGIONS)]
        .iter()
        .position(|c| c.eq_ignore_ascii_case(code.trim()))
}
