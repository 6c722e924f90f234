//! Decimal text to `f64`, correctly rounded (to nearest, ties to even), by exact decimal
//! arithmetic on the digits: the conversion of Go's `strconv` ("simple decimal conversion",
//! described by Nigel Tao, 2020), written for this crate.
//!
//! Why not `str::parse::<f64>`: its fast algorithm (Eisel–Lemire) carries a 10 KB table of
//! powers of five that does not compress, and the page downloads every byte of it. Numbers are
//! read rarely here (links, typed values, configuration files), so exactness matters and speed
//! does not. The result is the same `f64` as the standard library's for every input; the
//! tests compare the two over hundreds of thousands of inputs, ties included.

/// A whole number as the command line and links both write it: ASCII digits only (no sign,
/// no blanks, no decimal point), at most 19 of them.
pub fn parse_whole(text: &str) -> Option<u64> {
    let plain = !text.is_empty() && text.len() <= 19 && text.bytes().all(|b| b.is_ascii_digit());
    plain.then(|| text.parse().ok()).flatten()
}

/// Longest number read: `format!("{x}")` writes at most 327 characters for a finite `f64`
/// (all the digits of the smallest subnormal, 5e-324).
pub const NUMBER_CHARS: usize = 400;

/// A decimal number as the command line and links both write it: an optional minus, digits
/// with an optional decimal point, an optional exponent (`1e3`, `2.5E-2`). No plus sign in
/// front, no blanks, no `inf` or `NaN`; at most [`NUMBER_CHARS`] characters, enough for any
/// number as a link writes it (`format!("{x}")` of a tiny number spells out its zeros).
pub fn parse_number(text: &str) -> Option<f64> {
    let body = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let digits_and_point = mantissa.bytes().filter(|b| *b == b'.').count() <= 1
        && mantissa.bytes().any(|b| b.is_ascii_digit())
        && mantissa.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let exponent_ok = exponent.is_none_or(|e| {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    });
    (text.len() <= NUMBER_CHARS && digits_and_point && exponent_ok)
        .then(|| parse_decimal(text))
        .flatten()
}

/// Longest text [`parse_typed`] reads: a field's number, not a link's.
pub const TYPED_CHARS: usize = 40;

/// A finite number as a person types it into a field: blanks around it ignored, an optional
/// `+` in front, `decimal` as the decimal separator and `minus` as the minus sign (the page's
/// language's); the rest is [`parse_number`]'s grammar. At most [`TYPED_CHARS`] characters.
pub fn parse_typed(text: &str, decimal: char, minus: char) -> Option<f64> {
    let text = text.trim();
    if text.len() > TYPED_CHARS {
        return None;
    }
    let plain: String = text
        .chars()
        .map(|c| match c {
            c if c == decimal => '.',
            c if c == minus => '-',
            '.' | '-' => ',',
            c => c,
        })
        .collect();
    let unsigned = plain.strip_prefix('+').unwrap_or(&plain);
    parse_number(unsigned).filter(|x| x.is_finite())
}

/// Digits kept exactly; beyond them, whether any non-zero digit was dropped is remembered,
/// which is all that correct rounding needs from them.
const MAX_DIGITS: usize = 800;
/// Largest shift applied at once: 9 · 2^60 + carry still fits in a `u64`.
const MAX_SHIFT: u32 = 60;
/// Binary shifts that move the decimal point by about 0, 1, 2, … 8 places.
const POWERS: [u32; 9] = [1, 3, 6, 9, 13, 16, 19, 23, 26];
const MANTISSA_BITS: u32 = 52;
const BIAS: i32 = -1023;

/// A non-negative decimal 0.d₁d₂…dₙ × 10^point, digits without trailing zeros.
struct Decimal {
    digits: Vec<u8>,
    point: i32,
    /// A non-zero digit beyond [`MAX_DIGITS`] was dropped.
    truncated: bool,
}

/// Reads an optional sign, digits with at most one decimal point (at least one digit), and an
/// optional exponent (`e` or `E`, optional sign, digits): the syntax of `str::parse::<f64>`
/// without its words (`inf`, `NaN`). `None` for anything else. Too large a number gives
/// ±infinity and too small a zero of its sign, as the standard library does.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let exponent = match exponent {
        None => 0,
        Some(e) => read_exponent(e)?,
    };
    let mut d = Decimal {
        digits: Vec::new(),
        point: 0,
        truncated: false,
    };
    let (mut seen_point, mut seen_digit) = (false, false);
    for b in mantissa.bytes() {
        match b {
            b'.' if !seen_point => seen_point = true,
            b'0'..=b'9' => {
                seen_digit = true;
                let digit = b - b'0';
                if d.digits.is_empty() && digit == 0 {
                    // A leading zero: after the point it moves the point.
                    if seen_point {
                        d.point -= 1;
                    }
                    continue;
                }
                if d.digits.len() < MAX_DIGITS {
                    d.digits.push(digit);
                } else if digit != 0 {
                    d.truncated = true;
                }
                if !seen_point {
                    d.point += 1;
                }
            }
            _ => return None,
        }
    }
    if !seen_digit {
        return None;
    }
    d.trim();
    let magnitude = if d.digits.is_empty() {
        0.0
    } else {
        d.point = d.point.saturating_add(exponent);
        f64::from_bits(d.into_bits())
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The exponent's value, clamped far beyond any that changes the result.
fn read_exponent(text: &str) -> Option<i32> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = digits.bytes().fold(0i32, |acc, b| {
        acc.saturating_mul(10)
            .saturating_add(i32::from(b - b'0'))
            .min(1_000_000)
    });
    Some(if negative { -value } else { value })
}

impl Decimal {
    fn trim(&mut self) {
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.point = 0;
        }
    }

    /// Multiplies by 2^k (k > 0) or divides by 2^−k, exactly up to [`MAX_DIGITS`] digits.
    fn shift(&mut self, k: i32) {
        let mut k = k;
        while k > 0 {
            let step = k.unsigned_abs().min(MAX_SHIFT);
            self.shift_left(step);
            k -= step as i32;
        }
        while k < 0 {
            let step = k.unsigned_abs().min(MAX_SHIFT);
            self.shift_right(step);
            k += step as i32;
        }
    }

    fn shift_left(&mut self, k: u32) {
        if self.digits.is_empty() {
            return;
        }
        let before = self.digits.len();
        // The digits of the product, least significant first.
        let mut out = Vec::with_capacity(before + 20);
        let mut n: u64 = 0;
        for &digit in self.digits.iter().rev() {
            n += u64::from(digit) << k;
            out.push((n % 10) as u8);
            n /= 10;
        }
        while n > 0 {
            out.push((n % 10) as u8);
            n /= 10;
        }
        self.point += (out.len() - before) as i32;
        out.reverse();
        if out.len() > MAX_DIGITS {
            if out[MAX_DIGITS..].iter().any(|&d| d != 0) {
                self.truncated = true;
            }
            out.truncate(MAX_DIGITS);
        }
        self.digits = out;
        self.trim();
    }

    fn shift_right(&mut self, k: u32) {
        let len = self.digits.len();
        let mut read = 0;
        let mut n: u64 = 0;
        // Enough leading digits to give a first quotient digit.
        while n >> k == 0 {
            if read < len {
                n = n * 10 + u64::from(self.digits[read]);
            } else if n == 0 {
                self.digits.clear();
                self.point = 0;
                return;
            } else {
                n *= 10;
            }
            read += 1;
        }
        self.point -= read as i32 - 1;
        let mask = (1u64 << k) - 1;
        let mut out = Vec::with_capacity(len + 20);
        while read < len {
            out.push((n >> k) as u8);
            n = (n & mask) * 10 + u64::from(self.digits[read]);
            read += 1;
        }
        while n > 0 {
            let digit = (n >> k) as u8;
            if out.len() < MAX_DIGITS {
                out.push(digit);
            } else if digit > 0 {
                self.truncated = true;
            }
            n = (n & mask) * 10;
        }
        self.digits = out;
        self.trim();
    }

    /// Whether the integer part, cut before digit `cut`, rounds up (ties to even).
    fn rounds_up(&self, cut: i32) -> bool {
        if cut < 0 || cut as usize >= self.digits.len() {
            return false;
        }
        let cut = cut as usize;
        if self.digits[cut] == 5 && cut + 1 == self.digits.len() {
            // Exactly half, unless digits were dropped.
            return self.truncated || (cut > 0 && self.digits[cut - 1] % 2 == 1);
        }
        self.digits[cut] >= 5
    }

    /// The integer part, rounded.
    fn rounded_integer(&self) -> u64 {
        if self.point > 20 {
            return u64::MAX;
        }
        let point = self.point.max(0) as usize;
        let mut n: u64 = 0;
        for i in 0..point {
            n = n * 10 + u64::from(self.digits.get(i).copied().unwrap_or(0));
        }
        if self.rounds_up(self.point) {
            n += 1;
        }
        n
    }

    /// The bits of the nearest `f64` (positive, non-zero digits).
    fn into_bits(mut self) -> u64 {
        const INFINITY: u64 = 0x7ff << 52;
        if self.point > 310 {
            return INFINITY;
        }
        if self.point < -330 {
            return 0;
        }
        let mut exp: i32 = 0;
        // Scale into [0.5, 1), counting the powers of two.
        while self.point > 0 {
            let n = POWERS.get(self.point as usize).copied().unwrap_or(27);
            self.shift(-(n as i32));
            exp += n as i32;
        }
        while self.point < 0 || (self.point == 0 && self.digits[0] < 5) {
            let n = POWERS
                .get(self.point.unsigned_abs() as usize)
                .copied()
                .unwrap_or(27);
            self.shift(n as i32);
            exp -= n as i32;
        }
        // [1, 2) × 2^exp.
        exp -= 1;
        if exp < BIAS + 1 {
            // Subnormal: denormalize.
            let n = BIAS + 1 - exp;
            self.shift(-n);
            exp += n;
        }
        if exp - BIAS >= 0x7ff {
            return INFINITY;
        }
        self.shift(1 + MANTISSA_BITS as i32);
        let mut mantissa = self.rounded_integer();
        if mantissa == 2 << MANTISSA_BITS {
            // Rounding carried into a new bit.
            mantissa >>= 1;
            exp += 1;
            if exp - BIAS >= 0x7ff {
                return INFINITY;
            }
        }
        if mantissa & (1 << MANTISSA_BITS) == 0 {
            exp = BIAS;
        }
        (mantissa & ((1 << MANTISSA_BITS) - 1)) | (((exp - BIAS) as u64 & 0x7ff) << MANTISSA_BITS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_take_blanks_a_plus_and_the_languages_separator() {
        assert_eq!(parse_typed(" 0.2 ", '.', '-'), Some(0.2));
        assert_eq!(parse_typed("+1e+3", '.', '-'), Some(1000.0));
        assert_eq!(parse_typed("-3e2", '.', '-'), Some(-300.0));
        assert_eq!(parse_typed("2,5", ',', '-'), Some(2.5));
        assert_eq!(parse_typed("−2,5", ',', '−'), Some(-2.5));
        for bad in [
            "", "abc", "1,5", "inf", "NaN", "0x10", "1e999", "1 000", "++1",
        ] {
            assert_eq!(parse_typed(bad, '.', '-'), None, "{bad}");
        }
        assert_eq!(
            parse_typed("2.5", ',', '-'),
            None,
            "a point is not this language's separator"
        );
        assert_eq!(parse_typed(&"1".repeat(TYPED_CHARS + 1), '.', '-'), None);
    }

    fn same(text: &str) {
        let ours = parse_decimal(text).map(f64::to_bits);
        let std = text.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(ours, std, "{text:?}");
    }

    #[test]
    fn agrees_with_the_standard_library_on_chosen_cases() {
        for text in [
            "0",
            "-0",
            "0.0",
            "00.000",
            ".5",
            "5.",
            "1",
            "-1",
            "+2.5",
            "0.1",
            "0.2",
            "0.3",
            "0.30000000000000004",
            "1e3",
            "2.5E-2",
            "1e308",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "2e308",
            "1e-320",
            "5e-324",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "9007199254740993",
            "9007199254740992",
            "9007199254740994",
            "9007199254740995",
            "123456789012345678901234567890",
            "1e-400",
            "1e400",
            "-1e400",
            "0e999999999",
            "1e99999999999",
            "1e-99999999999",
            "0.000001",
            "1000000",
            "3.141592653589793",
            "2.718281828459045",
            "899.775",
            "897.978",
            "0.178",
            "43200",
            "1e22",
            "1e23",
            "8.98846567431158e307",
        ] {
            same(text);
        }
    }

    #[test]
    fn refuses_what_is_not_a_number() {
        for text in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1 ", " 1", "--1", "inf", "NaN", "0x10",
            "1_000", "1,5", "١",
        ] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
    }

    #[test]
    fn every_digit_of_a_long_number_counts() {
        // Exactly halfway between 1 and the next f64, then a hair above it far down.
        let half = "1.00000000000000011102230246251565404236316680908203125";
        same(half);
        let above = format!("{half}{}1", "0".repeat(900));
        same(&above);
        assert!(parse_decimal(&above).unwrap() > 1.0);
        assert_eq!(parse_decimal(half), Some(1.0));
    }
}
