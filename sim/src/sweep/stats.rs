//! The statistics of a sweep's summary: order statistics of a sample and the Wilson score
//! interval of a share.

/// The nearest-rank `p`-quantile (`0 < p ≤ 1`) of `sorted`, a sample in ascending order: the
/// smallest value with at least a share `p` of the sample at or below it, ⌈p·n⌉-th of n.
/// Hyndman & Fan (1996), "Sample quantiles in statistical packages", The American
/// Statistician 50(4), 361–365, definition 1 (the inverse of the empirical distribution).
/// `NaN` for an empty sample.
pub fn nearest_rank(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let n = sorted.len();
    let rank = (p * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

/// The mean of `values`, summed in the order given (a sweep gives them in seed order, so that
/// the sum, and its rounding, do not depend on how the runs were spread over workers).
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

/// The normal quantile of a two-sided 95 % interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of a share: `wins` of `n` trials, at the normal quantile `z`.
/// Centre (p̂ + z²/2n) / (1 + z²/n), half-width z / (1 + z²/n) · √(p̂(1−p̂)/n + z²/4n²).
/// Wilson (1927), "Probable inference, the law of succession, and statistical inference",
/// Journal of the American Statistical Association 22(158), 209–212. Unlike the normal
/// approximation it stays within [0, 1] and is not empty at 0 or n wins. `(0, 1)` when `n` is
/// 0.
pub fn wilson_interval(wins: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = wins as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and at n wins the bound on that side is exactly 0 (or 1); rounding would leave
    // it a hair inside.
    let low = if wins == 0 { 0.0 } else { centre - half };
    let high = if p == 1.0 { 1.0 } else { centre + half };
    (low.max(0.0), high.min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_takes_the_ceiling_rank() {
        let sample: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(nearest_rank(&sample, 0.05), 1.0);
        assert_eq!(nearest_rank(&sample, 0.5), 10.0);
        assert_eq!(nearest_rank(&sample, 0.95), 19.0);
        assert_eq!(nearest_rank(&sample, 1.0), 20.0);
        // Hyndman & Fan's example sample of 5: the 0.3-quantile is the 2nd value.
        assert_eq!(nearest_rank(&[3.0, 6.0, 7.0, 8.0, 8.0], 0.3), 6.0);
        assert!(nearest_rank(&[], 0.5).is_nan());
    }

    /// Figures from Newcombe (1998), "Two-sided confidence intervals for the single
    /// proportion", Statistics in Medicine 17, 857–872, table I (method 3, Wilson without
    /// continuity correction): 81 of 263 gives 0.2553–0.3662; 15 of 148 gives 0.0624–0.1605;
    /// 0 of 20 gives 0–0.1611; 1 of 29 gives 0.0061–0.1718.
    #[test]
    fn wilson_interval_matches_newcombes_table() {
        let cases = [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ];
        for (wins, n, low, high) in cases {
            let (l, h) = wilson_interval(wins, n, Z_95);
            assert!((l - low).abs() < 6e-5, "{wins}/{n}: low {l}, table {low}");
            assert!(
                (h - high).abs() < 6e-5,
                "{wins}/{n}: high {h}, table {high}"
            );
        }
        assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
        let (l, h) = wilson_interval(10, 10, Z_95);
        assert!(l > 0.69 && h == 1.0, "{l} {h}");
    }
}
