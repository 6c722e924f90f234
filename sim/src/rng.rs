//! The only source of randomness in the core: mulberry32, seeded by a 32-bit seed.
//!
//! mulberry32 is a small 32-bit generator by Tommy Ettinger; its state is one `u32`, so a
//! run is reproducible from the seed alone, natively and in WebAssembly alike. The
//! distributions are the textbook ones named in the specification: uniform, exponential
//! (inverse CDF), normal (Box–Muller) and Poisson (Knuth's multiplication method).

use rand_core::{impls, RngCore};

/// Seeded mulberry32 generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mulberry32 {
    state: u32,
}

impl Mulberry32 {
    /// A generator whose whole future is fixed by `seed`.
    pub fn new(seed: u32) -> Self {
        Self { state: seed }
    }

    /// Stream `index` (0 to 3) of `seed`: a quarter of the generator's one cycle, so that
    /// streams of the same seed never overlap within 2^30 draws each.
    ///
    /// The state is a Weyl sequence, state_n = seed + n·γ (mod 2^32) with γ = 0x6D2B79F5 odd,
    /// so every seed is the same cycle entered at another place. Starting at
    /// seed + index·2^30 = seed + (index·2^30·γ⁻¹)·γ enters it index·2^30·γ⁻¹ draws later,
    /// and as γ ≡ γ⁻¹ ≡ 1 (mod 4) that is exactly index·2^30 draws: four disjoint stretches
    /// of 2^30 draws.
    pub fn stream(seed: u32, index: u32) -> Self {
        Self::new(seed.wrapping_add((index & 3) << 30))
    }

    /// Uniform on [0, 1), with 32 bits of resolution.
    pub fn uniform(&mut self) -> f64 {
        f64::from(self.next_u32()) / 4_294_967_296.0
    }

    /// Uniform on [lo, hi).
    pub fn uniform_range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Exponential with the given mean, by inverting the CDF: x = −mean·ln(1 − u).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * libm::log(1.0 - self.uniform())
    }

    /// Normal by the Box–Muller transform (one of the pair is used, which keeps the stream
    /// simple to reason about: each call consumes exactly two draws).
    pub fn normal(&mut self, mean: f64, std_dev: f64) -> f64 {
        // 1 − u lies in (0, 1], so the logarithm is finite.
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        let radius = libm::sqrt(-2.0 * libm::log(u1));
        mean + std_dev * radius * libm::cos(2.0 * core::f64::consts::PI * u2)
    }

    /// Poisson by Knuth's method: multiply uniforms until the product drops below e^(−mean).
    /// Cost grows with the mean; for means above 500 the normal approximation is used.
    pub fn poisson(&mut self, mean: f64) -> u64 {
        if !(mean > 0.0) {
            return 0;
        }
        if mean > 500.0 {
            let x = self.normal(mean, libm::sqrt(mean));
            return if x <= 0.0 { 0 } else { libm::round(x) as u64 };
        }
        let limit = libm::exp(-mean);
        let mut product = self.uniform();
        let mut count = 0;
        while product > limit {
            count += 1;
            product *= self.uniform();
        }
        count
    }
}

impl RngCore for Mulberry32 {
    fn next_u32(&mut self) -> u32 {
        self.state = self.state.wrapping_add(0x6D2B_79F5);
        let mut t = self.state;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }

    fn next_u64(&mut self) -> u64 {
        impls::next_u64_via_u32(self)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        impls::fill_bytes_via_next(self, dest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_reference_sequence() {
        // Reference outputs of the published JavaScript mulberry32 for seed 1:
        // (t = a += 0x6D2B79F5; ... ; (t ^ t >>> 14) >>> 0)
        let mut rng = Mulberry32::new(1);
        let first: Vec<u32> = (0..3).map(|_| rng.next_u32()).collect();
        assert_eq!(first, vec![2_693_262_067, 11_749_833, 2_265_367_787]);
    }

    #[test]
    fn a_seed_is_the_cycle_entered_elsewhere() {
        // Seeding at seed + k·γ is the seed advanced by k draws.
        const GAMMA: u32 = 0x6D2B_79F5;
        let mut ahead = Mulberry32::new(77);
        for _ in 0..5 {
            ahead.next_u32();
        }
        let mut jumped = Mulberry32::new(77u32.wrapping_add(5u32.wrapping_mul(GAMMA)));
        for _ in 0..100 {
            assert_eq!(ahead.next_u32(), jumped.next_u32());
        }
        // Adding 2^30 to the state is 2^30·γ⁻¹ (mod 2^32) draws ahead, and γ ≡ 1 (mod 4)
        // makes that exactly 2^30 draws: stream i starts i quarters of the cycle ahead.
        let inverse = (0..5).fold(GAMMA, |x, _| {
            x.wrapping_mul(2u32.wrapping_sub(GAMMA.wrapping_mul(x)))
        });
        assert_eq!(inverse.wrapping_mul(GAMMA), 1);
        let draws = (1u32 << 30).wrapping_mul(inverse);
        assert_eq!(draws, 1 << 30);
        assert_eq!(
            Mulberry32::stream(9, 2),
            Mulberry32::new(9u32.wrapping_add(1 << 31))
        );
    }

    #[test]
    fn same_seed_same_stream() {
        let mut a = Mulberry32::new(7);
        let mut b = Mulberry32::new(7);
        for _ in 0..1000 {
            assert_eq!(a.next_u32(), b.next_u32());
        }
    }

    #[test]
    fn distributions_have_expected_moments() {
        let mut rng = Mulberry32::new(12345);
        let n = 200_000;
        let mean_u: f64 = (0..n).map(|_| rng.uniform()).sum::<f64>() / n as f64;
        assert!((mean_u - 0.5).abs() < 0.005, "uniform mean {mean_u}");
        let mean_e: f64 = (0..n).map(|_| rng.exponential(3.0)).sum::<f64>() / n as f64;
        assert!((mean_e - 3.0).abs() < 0.05, "exponential mean {mean_e}");
        let xs: Vec<f64> = (0..n).map(|_| rng.normal(10.0, 2.0)).collect();
        let m = xs.iter().sum::<f64>() / n as f64;
        let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
        assert!(
            (m - 10.0).abs() < 0.03 && (v.sqrt() - 2.0).abs() < 0.03,
            "normal {m} {v}"
        );
        let mean_p: f64 = (0..50_000).map(|_| rng.poisson(4.0) as f64).sum::<f64>() / 50_000.0;
        assert!((mean_p - 4.0).abs() < 0.05, "poisson mean {mean_p}");
    }
}
