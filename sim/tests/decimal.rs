//! The core's decimal reader gives the standard library's `f64` for every input: numbers as
//! the program writes them (shortest, fixed, exponent), random digit strings with random
//! exponents, and exact halfway points between neighbouring `f64`s with a digit added far
//! below, where only exact arithmetic rounds right.

use oncall_sim::decimal::parse_decimal;
use proptest::prelude::*;

fn same(text: &str) -> Result<(), TestCaseError> {
    let ours = parse_decimal(text).map(f64::to_bits);
    let std = text.parse::<f64>().ok().map(f64::to_bits);
    prop_assert_eq!(ours, std, "{:?}", text);
    Ok(())
}

/// The exact decimal expansion of the point halfway between `x` and the next f64 up
/// (finite, positive `x`): x + ulp/2 = (2m + 1) · 2^(e−1), written out in full.
fn halfway(x: f64) -> String {
    let bits = x.to_bits();
    let exp_field = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp_field == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp_field - 1075)
    };
    // (2m + 1) · 2^(e − 1) as a big decimal: digits of 2m + 1, then × 2 or ÷ 2 repeatedly.
    let mut digits: Vec<u8> = (2 * m + 1).to_string().bytes().map(|b| b - b'0').collect();
    let mut point = digits.len() as i64; // value = 0.digits × 10^point
    let mut k = e - 1;
    while k > 0 {
        let mut carry = 0u8;
        for d in digits.iter_mut().rev() {
            let v = *d * 2 + carry;
            *d = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            digits.insert(0, carry);
            point += 1;
        }
        k -= 1;
    }
    while k < 0 {
        // ÷ 2 = × 5 ÷ 10: value = D × 10^(point − len) becomes 5D × 10^(point − len − 1).
        let before = digits.len() as i64;
        let mut carry = 0u8;
        for d in digits.iter_mut().rev() {
            let v = *d * 5 + carry;
            *d = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            digits.insert(0, carry);
        }
        point = point - before - 1 + digits.len() as i64;
        k += 1;
    }
    let text: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    format!("0.{text}e{point}")
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("DECIMAL_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(5_000),
        ..ProptestConfig::default()
    })]

    #[test]
    fn numbers_as_the_program_writes_them(bits in any::<u64>(), decimals in 0usize..30) {
        let x = f64::from_bits(bits);
        if x.is_finite() {
            same(&format!("{x}"))?;
            same(&format!("{x:e}"))?;
            same(&format!("{x:.decimals$e}"))?;
            if x.abs() < 1e30 {
                same(&format!("{x:.decimals$}"))?;
            }
        }
    }

    #[test]
    fn random_digits_and_exponents(
        negative in any::<bool>(),
        int in "[0-9]{0,30}",
        frac in proptest::option::of("[0-9]{0,40}"),
        exp in proptest::option::of(-400i32..400),
    ) {
        let mut text = String::new();
        if negative { text.push('-'); }
        text.push_str(&int);
        if let Some(f) = &frac { text.push('.'); text.push_str(f); }
        if let Some(e) = exp { text.push_str(&format!("e{e}")); }
        same(&text)?;
    }

    #[test]
    fn halfway_points_round_to_even_and_a_far_digit_tips_them(bits in 1u64..0x7fef_ffff_ffff_ffff) {
        let x = f64::from_bits(bits);
        let half = halfway(x);
        same(&half)?;
        let (mantissa, exponent) = half.split_once('e').unwrap();
        same(&format!("{mantissa}{}1e{exponent}", "0".repeat(50)))?;
    }
}
