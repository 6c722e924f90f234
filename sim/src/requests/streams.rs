//! The run's random draws: a stream of the seed each for arrivals, service times, routing and
//! keys, so that what one kind of draw does never shifts another.

use crate::rng::Mulberry32;

/// Each kind of draw has its own stream of the seed ([`Mulberry32::stream`]): disjoint for
/// 2^30 draws, and a run draws at most two per request for any of them (hedges aside).
pub(crate) const ARRIVAL_STREAM: u32 = 0;
pub(crate) const SERVICE_STREAM: u32 = 1;
pub(crate) const ROUTING_STREAM: u32 = 2;
pub(crate) const KEY_STREAM: u32 = 3;

/// The four streams of one seed.
#[derive(Clone, Debug)]
pub(crate) struct Streams {
    /// The gaps between arrivals.
    pub(crate) arrivals: Mulberry32,
    /// Service times (a hedge's copy draws its own).
    pub(crate) services: Mulberry32,
    /// The routing policies' choices.
    pub(crate) routing: Mulberry32,
    /// The requests' keys.
    pub(crate) keys: Mulberry32,
}

impl Streams {
    /// The streams of `seed`.
    pub(crate) fn of(seed: u32) -> Self {
        Self {
            arrivals: Mulberry32::stream(seed, ARRIVAL_STREAM),
            services: Mulberry32::stream(seed, SERVICE_STREAM),
            routing: Mulberry32::stream(seed, ROUTING_STREAM),
            keys: Mulberry32::stream(seed, KEY_STREAM),
        }
    }

    /// The arrival after one at `after`, of a Poisson process whose mean gap is `mean_gap`.
    #[inline]
    pub(crate) fn next_arrival(&mut self, after: f64, mean_gap: f64) -> f64 {
        after + self.arrivals.exponential(mean_gap)
    }
}
