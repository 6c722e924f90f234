//! The key each request carries, drawn from a Zipf popularity over a key space, and the
//! lognormal option of the service time.
//!
//! Key k (k = 0 … K − 1, rank k + 1) has probability (k + 1)^(−s) / H(K, s), with
//! H(K, s) = Σ_{r=1..K} r^(−s). The cumulative probabilities are computed once per run; a
//! draw is one uniform and a binary search over them (⌈log₂ K⌉ steps, nothing allocated).

use crate::relations::{Relation, RelationId, BRESLAU_1999, JOHNSON_KOTZ_1994, ZIPF_1949};
use crate::rng::Mulberry32;

/// Default number of keys: a key space large enough that no single key is the whole load.
pub const DEFAULT_KEYS: u32 = 10_000;

/// Default Zipf exponent: inside the range Breslau et al. measured on web proxy traces
/// (α from 0.64 to 0.83).
pub const DEFAULT_EXPONENT: f64 = 0.8;

/// Largest key space (the table holds 8 bytes per key).
pub const MAX_KEYS: u32 = 1_000_000;

/// Largest Zipf exponent accepted.
pub const MAX_EXPONENT: f64 = 10.0;

/// Default shape σ of the lognormal service time: a coefficient of variation of
/// √(e^(σ²) − 1) ≈ 1.31, a tail heavier than the exponential's (1).
pub const DEFAULT_SIGMA: f64 = 1.0;

/// Largest lognormal shape accepted.
pub const MAX_SIGMA: f64 = 4.0;

/// The keys' popularity, with citations, for the sources panel.
pub const ZIPF_KEYS: Relation = Relation {
    id: RelationId::ZipfKeys,
    symbols: &["K", "s"],
    citations: &[ZIPF_1949, BRESLAU_1999],
    assumption: false,
};

/// The lognormal service time that keeps the model's mean, for the sources panel.
pub const LOGNORMAL_SERVICE: Relation = Relation {
    id: RelationId::LognormalService,
    symbols: &["S", "σ"],
    citations: &[JOHNSON_KOTZ_1994],
    assumption: false,
};

/// The key space: how many keys and how unequal their popularity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeySpace {
    /// Number of keys K (at least 1, at most [`MAX_KEYS`]).
    pub keys: u32,
    /// Zipf exponent s (0: every key equally popular).
    pub exponent: f64,
}

impl Default for KeySpace {
    fn default() -> Self {
        KeySpace {
            keys: DEFAULT_KEYS,
            exponent: DEFAULT_EXPONENT,
        }
    }
}

impl KeySpace {
    /// Whether the engine can draw from it.
    pub fn is_valid(&self) -> bool {
        (1..=MAX_KEYS).contains(&self.keys)
            && self.exponent.is_finite()
            && (0.0..=MAX_EXPONENT).contains(&self.exponent)
    }

    /// The probability of key `key` (0-based; rank key + 1): (key + 1)^(−s) / H(K, s).
    pub fn pmf(&self, key: u32) -> f64 {
        if key >= self.keys {
            return 0.0;
        }
        let weight = |rank: u32| libm::pow(f64::from(rank), -self.exponent);
        let total: f64 = (1..=self.keys).map(weight).sum();
        weight(key + 1) / total
    }

    /// The probability of every key, in key order (the same as [`KeySpace::pmf`] of each,
    /// computed in one pass).
    pub fn probabilities(&self) -> Vec<f64> {
        let weights: Vec<f64> = (1..=self.keys)
            .map(|rank| libm::pow(f64::from(rank), -self.exponent))
            .collect();
        let total: f64 = weights.iter().sum();
        weights.into_iter().map(|w| w / total).collect()
    }
}

/// Draws keys of a [`KeySpace`]: the cumulative probabilities, computed once.
#[derive(Clone, Debug)]
pub struct ZipfKeys {
    cdf: Vec<f64>,
}

impl ZipfKeys {
    /// The sampler of `space` (which [`KeySpace::is_valid`] accepts).
    pub fn new(space: KeySpace) -> Self {
        let mut cdf = Vec::with_capacity(space.keys as usize);
        let mut sum = 0.0;
        for rank in 1..=space.keys {
            sum += libm::pow(f64::from(rank), -space.exponent);
            cdf.push(sum);
        }
        for c in &mut cdf {
            *c /= sum;
        }
        // The last cumulative probability is 1 exactly, so every uniform below 1 finds a key.
        if let Some(last) = cdf.last_mut() {
            *last = 1.0;
        }
        ZipfKeys { cdf }
    }

    /// The key (0-based) of the uniform `u` in [0, 1): the first key whose cumulative
    /// probability exceeds u.
    pub fn key_of(&self, u: f64) -> u32 {
        let at = self.cdf.partition_point(|&c| c <= u);
        at.min(self.cdf.len() - 1) as u32
    }

    /// One key drawn from `rng`.
    pub fn draw(&self, rng: &mut Mulberry32) -> u32 {
        self.key_of(rng.uniform())
    }
}

/// The same Zipf popularity sampled in constant time by Walker's alias method (Walker 1977,
/// "An efficient method for generating discrete random variables with general
/// distributions", ACM TOMS 3(3); the table built as in Vose 1991, IEEE TSE 17(9)): key i
/// is taken with probability prob\[i\] and its alias otherwise. The minute model's request
/// engine draws its keys this way (one 32-bit draw per key, no search).
#[derive(Clone, Debug)]
pub struct AliasKeys {
    prob: Vec<f64>,
    alias: Vec<u32>,
}

impl AliasKeys {
    pub fn new(space: KeySpace) -> Self {
        let k = space.keys.max(1) as usize;
        let weights: Vec<f64> = (1..=k)
            .map(|rank| libm::pow(rank as f64, -space.exponent))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut scaled: Vec<f64> = weights.iter().map(|w| w * k as f64 / total).collect();
        let mut prob = vec![1.0; k];
        let mut alias: Vec<u32> = (0..k as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..k).partition(|&i| scaled[i] < 1.0);
        while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
            small.pop();
            prob[s] = scaled[s];
            alias[s] = l as u32;
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // What is left has (up to rounding) probability one of itself.
        Self { prob, alias }
    }

    /// The key (0-based rank) for a uniform draw u in [0, 1).
    pub fn key_of(&self, u: f64) -> u32 {
        let k = self.prob.len();
        let x = u * k as f64;
        let i = (x as usize).min(k - 1);
        if x - (i as f64) < self.prob[i] {
            i as u32
        } else {
            self.alias[i]
        }
    }
}

/// How service times are distributed around the model's mean S (the run's `service_shape`
/// and `service_sigma`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum ServiceShape {
    /// Exponential with mean S.
    #[default]
    Exponential,
    /// Lognormal with shape σ and mean S: ln X is normal with mean ln S − σ²/2 and standard
    /// deviation σ.
    Lognormal { sigma: f64 },
}

impl ServiceShape {
    /// Whether the engine can draw from it.
    pub fn is_valid(&self) -> bool {
        match *self {
            ServiceShape::Exponential => true,
            ServiceShape::Lognormal { sigma } => {
                sigma.is_finite() && (0.0..=MAX_SIGMA).contains(&sigma)
            }
        }
    }

    /// One service time of mean `mean`.
    pub fn draw(&self, rng: &mut Mulberry32, mean: f64) -> f64 {
        match *self {
            ServiceShape::Exponential => rng.exponential(mean),
            ServiceShape::Lognormal { sigma } => lognormal(rng, mean, sigma),
        }
    }
}

/// The location μ of a lognormal of mean `mean` and shape σ: E[X] = e^(μ + σ²/2) = mean gives
/// μ = ln mean − σ²/2 (Johnson, Kotz & Balakrishnan, ch. 14).
pub fn lognormal_location(mean: f64, sigma: f64) -> f64 {
    libm::log(mean) - sigma * sigma / 2.0
}

/// A lognormal draw of mean `mean` and shape σ: e^(μ + σ·Z) with Z normal (Box–Muller, two
/// uniforms).
pub fn lognormal(rng: &mut Mulberry32, mean: f64, sigma: f64) -> f64 {
    libm::exp(rng.normal(lognormal_location(mean, sigma), sigma))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alias_table_gives_each_key_its_zipf_probability() {
        // The probability of key i under the alias method is (prob[i] + Σ over j aliased to
        // i of (1 − prob[j])) / K, which must be the Zipf pmf.
        let space = KeySpace {
            keys: 50,
            exponent: 1.1,
        };
        let a = AliasKeys::new(space);
        let k = 50.0;
        let mut p = vec![0.0; 50];
        for i in 0..50 {
            p[i] += a.prob[i] / k;
            p[a.alias[i] as usize] += (1.0 - a.prob[i]) / k;
        }
        for (i, pi) in p.iter().enumerate() {
            assert!((pi - space.pmf(i as u32)).abs() < 1e-12, "{i}: {pi}");
        }
        assert_eq!(a.key_of(0.0), 0);
    }

    #[test]
    fn the_cumulative_probabilities_end_at_one_and_rank_one_leads() {
        let space = KeySpace {
            keys: 4,
            exponent: 1.0,
        };
        let z = ZipfKeys::new(space);
        // H(4, 1) = 1 + 1/2 + 1/3 + 1/4 = 25/12: rank 1 has 12/25 = 0.48.
        assert!((space.pmf(0) - 0.48).abs() < 1e-15);
        assert_eq!(z.key_of(0.0), 0);
        assert_eq!(z.key_of(0.479), 0);
        assert_eq!(z.key_of(0.481), 1);
        assert_eq!(z.key_of(0.999_999), 3);
        assert_eq!(z.cdf.last(), Some(&1.0));
    }

    #[test]
    fn exponent_zero_is_uniform() {
        let z = ZipfKeys::new(KeySpace {
            keys: 10,
            exponent: 0.0,
        });
        assert_eq!(z.key_of(0.05), 0);
        assert_eq!(z.key_of(0.15), 1);
        assert_eq!(z.key_of(0.95), 9);
    }

    #[test]
    fn lognormal_location_keeps_the_mean() {
        // σ = 1, mean 1: μ = −1/2.
        assert_eq!(lognormal_location(1.0, 1.0), -0.5);
        assert!((lognormal_location(2.0, 0.0) - libm::log(2.0)).abs() < 1e-15);
    }
}
