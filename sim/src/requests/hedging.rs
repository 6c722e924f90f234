//! Hedged requests limited by a token bucket, as the publish-hedging source describes them.
//!
//! When a request has not completed within the hedge delay and at least one token is in the
//! bucket, one token is spent and a copy is sent to another instance while the first stays
//! outstanding; more copies follow every hedge delay while tokens last and the total timeout
//! has not expired. A hedge that falls due while the bucket holds less than a whole token
//! waits for the token the successes bring: the requests waiting for one take them first come,
//! first served, each as soon as it is there (the source does not say when a hedge held back
//! for want of a token goes; this model does not look again every delay, which behind a copy
//! that never ends would cost work without end). The first copy to succeed completes the
//! request; the others are cancelled best-effort: a copy still waiting in a queue leaves it, a
//! copy already in service runs to the end (a duplicate). Each successful request adds the
//! refill ratio to the bucket, never above the maximum.
//!
//! Since the bucket never goes below zero and gains only r per success, over any run
//! hedges ≤ initial tokens + r · successes ≤ initial + r · requests: the hedged share is at
//! most r + initial / requests.

use crate::relations::{Relation, RelationId, DEAN_BARROSO_2013, PUBSUB_HEDGING};

/// Default hedge delay, milliseconds (source: 1 s): the default of the parameter
/// `hedge_delay_ms`, whose row reads it from here.
pub const DEFAULT_HEDGE_DELAY_MS: f64 = 1000.0;
/// Allowed hedge delays, milliseconds (source: 100 ms to 10 s): the range of the parameter
/// `hedge_delay_ms` and of the command line's `--hedge-delay-ms`.
pub const HEDGE_DELAY_RANGE_MS: (f64, f64) = (100.0, 10_000.0);

/// A hedge delay given in milliseconds (as the parameter and the command line give it), in
/// the seconds the engine counts in.
pub fn delay_seconds(delay_ms: f64) -> f64 {
    delay_ms / 1000.0
}

/// The source's rule (seed 002): the hedge delay below both the request timeout and the
/// total timeout, all in seconds (an absent timeout is infinite).
pub fn delay_below_timeouts(delay_s: f64, request_timeout_s: f64, total_timeout_s: f64) -> bool {
    delay_s < request_timeout_s && delay_s < total_timeout_s
}
/// Default maximum tokens (source: 50).
pub const DEFAULT_MAX_TOKENS: u32 = 50;
/// Allowed maximum tokens (source: 1 to 250).
pub const MAX_TOKENS_RANGE: (u32, u32) = (1, 250);
/// Default refill ratio, tokens per successful request (source: 0.1).
pub const DEFAULT_REFILL_RATIO: f64 = 0.1;
/// Allowed refill ratios (source: 0.001 to 0.2).
pub const REFILL_RATIO_RANGE: (f64, f64) = (0.001, 0.2);

/// The token bucket and the hedging rules, with citations, for the sources panel. The
/// initial tokens are this model's assumption (the source does not say): a full bucket.
pub const TOKEN_BUCKET: Relation = Relation {
    id: RelationId::HedgeTokenBucket,
    symbols: &["d", "B", "r", "b₀"],
    citations: &[PUBSUB_HEDGING, DEAN_BARROSO_2013],
    assumption: false,
};

/// Hedging's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hedging {
    /// Hedge delay d, seconds: a copy is sent when no copy has completed d after the last
    /// was sent.
    pub delay_s: f64,
    /// Maximum tokens B.
    pub max_tokens: u32,
    /// Tokens added per successful request r.
    pub refill_ratio: f64,
    /// Tokens at the start b₀. The source does not say whether the bucket starts full; this
    /// model assumes it does (`None`: B).
    pub initial_tokens: Option<f64>,
    /// The total timeout, seconds: no copy is sent after it, and a request without a success
    /// by then fails. `None`: no limit. (The request timeout is the patience of each copy: a
    /// copy not taken up by a worker within it gives up.)
    pub total_timeout_s: Option<f64>,
}

impl Default for Hedging {
    fn default() -> Self {
        Hedging {
            delay_s: delay_seconds(DEFAULT_HEDGE_DELAY_MS),
            max_tokens: DEFAULT_MAX_TOKENS,
            refill_ratio: DEFAULT_REFILL_RATIO,
            initial_tokens: None,
            total_timeout_s: None,
        }
    }
}

/// Why hedging cannot run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HedgeError {
    /// A setting outside its allowed range: the field's name.
    Field(&'static str),
    /// The hedge delay is not below both the request timeout and the total timeout.
    DelayNotBelowTimeouts {
        delay_s: f64,
        request_timeout_s: f64,
        total_timeout_s: f64,
    },
    /// Hedging cannot be combined with ordering keys.
    WithOrderingKeys,
}

impl Hedging {
    /// The total timeout in force (infinite when not set).
    pub fn total_timeout(&self) -> f64 {
        self.total_timeout_s.unwrap_or(f64::INFINITY)
    }

    /// The tokens at the start: b₀, or B when not given (the assumption of a full bucket).
    pub fn initial(&self) -> f64 {
        self.initial_tokens
            .unwrap_or_else(|| f64::from(self.max_tokens))
    }

    /// The source's rules: each setting in its range, and the hedge delay below both the
    /// request timeout and the total timeout; no hedging with ordering keys.
    pub fn check(
        &self,
        request_timeout_s: Option<f64>,
        ordering_keys: bool,
    ) -> Result<(), HedgeError> {
        let (lo, hi) = HEDGE_DELAY_RANGE_MS;
        if !(self.delay_s >= delay_seconds(lo) && self.delay_s <= delay_seconds(hi)) {
            return Err(HedgeError::Field("hedge_delay_s"));
        }
        let (lo, hi) = MAX_TOKENS_RANGE;
        if !(lo..=hi).contains(&self.max_tokens) {
            return Err(HedgeError::Field("max_tokens"));
        }
        let (lo, hi) = REFILL_RATIO_RANGE;
        if !(self.refill_ratio >= lo && self.refill_ratio <= hi) {
            return Err(HedgeError::Field("refill_ratio"));
        }
        if let Some(b0) = self.initial_tokens {
            if !(b0 >= 0.0 && b0 <= f64::from(self.max_tokens)) {
                return Err(HedgeError::Field("initial_tokens"));
            }
        }
        if let Some(t) = self.total_timeout_s {
            if !(t > 0.0 && t.is_finite()) {
                return Err(HedgeError::Field("total_timeout_s"));
            }
        }
        let request = request_timeout_s.unwrap_or(f64::INFINITY);
        let total = self.total_timeout();
        if !delay_below_timeouts(self.delay_s, request, total) {
            return Err(HedgeError::DelayNotBelowTimeouts {
                delay_s: self.delay_s,
                request_timeout_s: request,
                total_timeout_s: total,
            });
        }
        if ordering_keys {
            return Err(HedgeError::WithOrderingKeys);
        }
        Ok(())
    }
}

/// The bucket of hedging tokens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenBucket {
    tokens: f64,
    max: f64,
    refill: f64,
}

impl TokenBucket {
    /// A bucket of at most `max` tokens holding `initial` (clamped to 0..=max), refilled by
    /// `refill` per success.
    pub fn new(max: u32, refill: f64, initial: f64) -> Self {
        let max = f64::from(max);
        TokenBucket {
            tokens: initial.clamp(0.0, max),
            max,
            refill,
        }
    }

    /// The bucket of `hedging`'s settings.
    pub fn of(hedging: &Hedging) -> Self {
        Self::new(hedging.max_tokens, hedging.refill_ratio, hedging.initial())
    }

    /// Tokens now.
    pub fn tokens(&self) -> f64 {
        self.tokens
    }

    /// Spends one token for a hedge if at least one is there.
    pub fn try_take(&mut self) -> bool {
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// A request succeeded: r tokens more, never above the maximum.
    pub fn on_success(&mut self) {
        self.tokens = (self.tokens + self.refill).min(self.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_sources() {
        let h = Hedging::default();
        assert_eq!(h.delay_s, 1.0);
        assert_eq!(h.max_tokens, 50);
        assert_eq!(h.refill_ratio, 0.1);
        assert_eq!(h.initial(), 50.0);
        assert_eq!(h.check(Some(5.0), false), Ok(()));
    }
}
