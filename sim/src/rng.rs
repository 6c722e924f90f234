//! The only source of randomness in the core: mulberry32, seeded by a 32-bit seed.
//!
//! mulberry32 is a small 32-bit generator by Tommy Ettinger; its state is one `u32`, so a
//! run is reproducible from the seed alone, natively and in WebAssembly alike. The
//! distributions are the textbook ones named in the specification: uniform, exponential
//! (Marsaglia and Tsang's ziggurat, its tail by the inverse CDF with a table-driven
//! logarithm), normal (Box–Muller) and Poisson (Knuth's multiplication method).

use rand_core::{impls, RngCore};
use std::sync::OnceLock;

/// Sub-intervals of [1, 2) in the logarithm's table.
const LN_TABLE_BITS: u32 = 8;

/// For each sub-interval [1 + i/256, 1 + (i + 1)/256) of [1, 2): 1/c rounded, and −ln of that
/// rounded value, c the sub-interval's centre.
fn ln_table() -> &'static [(f64, f64); 1 << LN_TABLE_BITS] {
    static TABLE: OnceLock<[(f64, f64); 1 << LN_TABLE_BITS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let n = f64::from(1u32 << LN_TABLE_BITS);
        core::array::from_fn(|i| {
            let inverse = 1.0 / (1.0 + (i as f64 + 0.5) / n);
            (inverse, -libm::log(inverse))
        })
    })
}

/// −ln(1 − x/2³²) for a 32-bit draw x: the unit exponential by inversion, of the same draw
/// [`Mulberry32::uniform`] gives.
///
/// With m = 2³² − x in [1, 2³²] written m = 2^e·f, f in [1, 2): ln(1 − u) = (e − 32)·ln 2 +
/// ln f, and ln f = −ln(1/c) + ln(1 + r) with c the centre of f's sub-interval in a table of
/// 256, r = f·(1/c) − 1 (|r| < 1/511) and ln(1 + r) by its series to r⁵, whose remainder is
/// below 10⁻¹⁷, evaluated as r + r²·(−1/2 + r/3) + r⁴·(−1/4 + r/5) (Estrin's scheme: its
/// parts do not wait for each other as Horner's steps do). This is Tang's table-driven logarithm (P. T. P. Tang, "Table-driven
/// implementation of the logarithm function in IEEE floating-point arithmetic", ACM TOMS
/// 16(4), 1990), specialised to the draws: a multiplication and a short polynomial instead of
/// a general logarithm's division, exact to a few units in the last place, and the same in
/// every build as it uses only IEEE additions and multiplications.
fn neg_ln_complement(x: u32) -> f64 {
    if x < 1 << 24 {
        // u < 2⁻⁸: −ln(1 − u) = u + u²/2 + … + u⁷/7 directly (remainder below u⁸/8 <
        // 10⁻²⁰), which keeps the small draws' relative precision.
        let u = f64::from(x) / 4_294_967_296.0;
        return u
            * (1.0
                + u * (0.5
                    + u * (1.0 / 3.0
                        + u * (0.25 + u * (0.2 + u * (1.0 / 6.0 + u * (1.0 / 7.0)))))));
    }
    let m = (1u64 << 32) - u64::from(x);
    let e = 63 - m.leading_zeros();
    // f = m / 2^e in [1, 2), exact: m's bits below its leading one become the mantissa of a
    // float with exponent 0 (e ≤ 32, so none is lost).
    const MANTISSA: u64 = (1 << 52) - 1;
    let f = f64::from_bits(((m << (52 - e)) & MANTISSA) | 1.0f64.to_bits());
    let index = ((m << (63 - e)) >> (63 - LN_TABLE_BITS)) as usize & ((1 << LN_TABLE_BITS) - 1);
    let (inverse, ln_centre) = ln_table()[index];
    let r = f * inverse - 1.0;
    // ln(1 + r) = r − r²/2 + r³/3 − r⁴/4 + r⁵/5 − …
    let r2 = r * r;
    let series = r + r2 * (-0.5 + r * (1.0 / 3.0)) + (r2 * r2) * (-0.25 + r * 0.2);
    let ln = (f64::from(e) - 32.0) * core::f64::consts::LN_2 + ln_centre + series;
    (-ln).max(0.0)
}

/// Layers of the exponential's ziggurat.
const LAYERS: usize = 256;
/// For f(x) = e^(−x) and 256 layers: the base layer's right edge r and the area v that every
/// layer has (G. Marsaglia and W. W. Tsang, "The ziggurat method for generating random
/// variables", Journal of Statistical Software 5(8), 2000, section 4).
const ZIGGURAT_R: f64 = 7.697_117_470_131_05;
const ZIGGURAT_V: f64 = 3.949_659_822_581_557e-3;
/// Bits of a draw that place a point within its layer (the other 8 pick the layer).
const ZIGGURAT_BITS: u32 = 24;

/// The exponential's ziggurat: 256 layers of equal area v under e^(−x), stacked from the
/// base (layer 0: [0, v·e^r) of height e^(−r), whose part beyond r stands for the tail) to
/// the top (the peak at x = 0). Layer i ≥ 1 spans [0, xᵢ) between heights e^(−xᵢ) and
/// e^(−xᵢ₊₁), with x₁ = r, xᵢ₊₁ = −ln(e^(−xᵢ) + v/xᵢ) and x₂₅₆ = 0.
struct Ziggurat {
    /// For each layer: the 24-bit positions below this lie under the curve at once
    /// (x < xᵢ₊₁).
    inner: [u32; LAYERS],
    /// For each layer: its width over 2²⁴ (a position times this is x).
    scale: [f64; LAYERS],
    /// e^(−xᵢ) at each layer's outer edge, and 1 at the peak (for the wedges' test).
    height: [f64; LAYERS + 1],
}

impl Ziggurat {
    /// The layers' edges x₀ (the base's width v·e^r) to x₂₅₆ = 0.
    fn edges() -> [f64; LAYERS + 1] {
        let mut x = [0.0; LAYERS + 1];
        x[0] = ZIGGURAT_V * libm::exp(ZIGGURAT_R);
        x[1] = ZIGGURAT_R;
        for i in 1..LAYERS - 1 {
            x[i + 1] = -libm::log(libm::exp(-x[i]) + ZIGGURAT_V / x[i]);
        }
        x
    }

    fn get() -> &'static Ziggurat {
        static TABLE: OnceLock<Ziggurat> = OnceLock::new();
        TABLE.get_or_init(|| {
            let x = Self::edges();
            let positions = f64::from(1u32 << ZIGGURAT_BITS);
            Ziggurat {
                inner: core::array::from_fn(|i| (positions * x[i + 1] / x[i]) as u32),
                scale: core::array::from_fn(|i| x[i] / positions),
                height: core::array::from_fn(|i| libm::exp(-x[i])),
            }
        })
    }
}

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

    /// Exponential with the given mean, by the ziggurat (Marsaglia and Tsang 2000): one
    /// 32-bit draw picks a layer (8 bits) and a place in it (24 bits), and 98.9 % of the
    /// time that place lies under the curve and is the value; otherwise a wedge is tested
    /// with a second draw, or the tail beyond r is r plus a unit exponential by inverting
    /// the CDF, x = −ln(1 − u) (the exponential forgets how far it has come). Exact in
    /// distribution; values are multiples of a layer's width over 2²⁴.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        mean * self.unit_exponential()
    }

    fn unit_exponential(&mut self) -> f64 {
        let table = Ziggurat::get();
        loop {
            let draw = self.next_u32();
            let layer = (draw & (LAYERS as u32 - 1)) as usize;
            let place = draw >> (32 - ZIGGURAT_BITS);
            if place < table.inner[layer] {
                return f64::from(place) * table.scale[layer];
            }
            if let Some(x) = self.outside_the_core(table, layer, place) {
                return x;
            }
        }
    }

    /// A place beyond a layer's inner edge: the tail (layer 0) or its wedge under the
    /// curve, else `None` (the draw starts over).
    #[cold]
    fn outside_the_core(&mut self, table: &Ziggurat, layer: usize, place: u32) -> Option<f64> {
        if layer == 0 {
            return Some(ZIGGURAT_R + neg_ln_complement(self.next_u32()));
        }
        let x = f64::from(place) * table.scale[layer];
        let (low, high) = (table.height[layer], table.height[layer + 1]);
        let y = low + self.uniform() * (high - low);
        (y < libm::exp(-x)).then_some(x)
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

    /// The table-driven logarithm of the tail's draw against the general one, on the edges of
    /// the draws and on a million draws: within 3·10⁻¹⁵ absolute (ln(1 − u) ranges over
    /// [−22.2, 0]) and within a 10⁻¹³ relatively (the small draws by their own series).
    #[test]
    fn the_tail_draw_is_the_inverse_cdf() {
        let reference = |x: u32| -libm::log(1.0 - f64::from(x) / 4_294_967_296.0);
        let mut draws: Vec<u32> = vec![0, 1, 2, 255, 256, 1 << 31, u32::MAX - 1, u32::MAX];
        let mut rng = Mulberry32::new(11);
        draws.extend((0..1_000_000).map(|_| rng.next_u32()));
        for x in draws {
            let (ours, exact) = (neg_ln_complement(x), reference(x));
            let error = (ours - exact).abs();
            assert!(error <= 3e-15, "x = {x}: {ours} against {exact}");
            assert!(error <= 1e-13 * exact, "x = {x}: {ours} against {exact}");
        }
        assert_eq!(neg_ln_complement(0), 0.0);
        // The largest draw, 1 − u = 2⁻³²: 32 ln 2.
        assert!((neg_ln_complement(u32::MAX) - 32.0 * core::f64::consts::LN_2).abs() < 1e-14);
    }

    /// The ziggurat's layers: the recursion from r with area v closes at the peak (the 256th
    /// edge lands on 0, as Marsaglia and Tsang's constants are chosen for), and every layer
    /// has area v.
    #[test]
    fn the_ziggurat_closes_at_the_peak() {
        let x = Ziggurat::edges();
        let last = -libm::log(libm::exp(-x[LAYERS - 1]) + ZIGGURAT_V / x[LAYERS - 1]);
        assert!(last.abs() < 1e-9, "{last}");
        for i in 1..LAYERS {
            let area = x[i] * (libm::exp(-x[i + 1]) - libm::exp(-x[i]));
            assert!((area / ZIGGURAT_V - 1.0).abs() < 1e-6, "layer {i}: {area}");
        }
        // The base: its rectangle under e^(−r) and the tail beyond r.
        let base = ZIGGURAT_R * libm::exp(-ZIGGURAT_R) + libm::exp(-ZIGGURAT_R);
        assert!((base / ZIGGURAT_V - 1.0).abs() < 1e-12, "{base}");
    }

    /// A million exponential draws against the distribution: the Kolmogorov–Smirnov distance
    /// below its 1 % critical value 1.63/√n, the mean and second moment within five standard
    /// errors, and as many beyond r (the tail) and beyond 3 as e^(−r) and e^(−3) predict.
    #[test]
    fn the_exponential_draws_follow_the_distribution() {
        let n = 1_000_000;
        let mut rng = Mulberry32::new(5);
        let mut draws: Vec<f64> = (0..n).map(|_| rng.exponential(1.0)).collect();
        let mean = draws.iter().sum::<f64>() / f64::from(n);
        let second = draws.iter().map(|v| v * v).sum::<f64>() / f64::from(n);
        // Standard errors: 1/√n for the mean, √20/√n for the second moment.
        assert!((mean - 1.0).abs() < 5e-3, "{mean}");
        assert!(
            (second - 2.0).abs() < 5.0 * 20f64.sqrt() / 1000.0,
            "{second}"
        );
        let beyond = |t: f64| draws.iter().filter(|&&v| v > t).count() as f64;
        let expected_tail = f64::from(n) * libm::exp(-ZIGGURAT_R);
        assert!(
            (beyond(ZIGGURAT_R) - expected_tail).abs() < 5.0 * expected_tail.sqrt(),
            "{} beyond r, {expected_tail} expected",
            beyond(ZIGGURAT_R)
        );
        let expected_3 = f64::from(n) * libm::exp(-3.0);
        assert!((beyond(3.0) - expected_3).abs() < 5.0 * expected_3.sqrt());
        draws.sort_by(f64::total_cmp);
        let ks = draws
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let cdf = 1.0 - libm::exp(-v);
                let (below, above) = (i as f64 / f64::from(n), (i + 1) as f64 / f64::from(n));
                (cdf - below).abs().max((above - cdf).abs())
            })
            .fold(0.0, f64::max);
        assert!(ks < 1.63 / f64::from(n).sqrt(), "KS distance {ks}");
    }

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
