//! xxHash64, the 64-bit hash Envoy uses to place hosts on its ring and in its Maglev table.
//!
//! Written from Y. Collet's xxHash specification (doc/xxhash_spec.md of the xxHash project,
//! "XXH64 algorithm description"): four 64-bit accumulators over 32-byte stripes, then the
//! remaining 8-, 4- and 1-byte pieces, then an avalanche. Only integer arithmetic with
//! wrapping, little-endian reads: the same bytes and seed give the same hash on every platform,
//! natively and in WebAssembly.

const PRIME_1: u64 = 0x9E37_79B1_85EB_CA87;
const PRIME_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const PRIME_3: u64 = 0x1656_67B1_9E37_79F9;
const PRIME_4: u64 = 0x85EB_CA77_C2B2_AE63;
const PRIME_5: u64 = 0x27D4_EB2F_1656_67C5;

fn lane(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

fn half_lane(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u64::from(u32::from_le_bytes(word))
}

/// One accumulator step: the lane mixed in, rotated, multiplied.
fn round(acc: u64, input: u64) -> u64 {
    acc.wrapping_add(input.wrapping_mul(PRIME_2))
        .rotate_left(31)
        .wrapping_mul(PRIME_1)
}

fn merge(acc: u64, accumulator: u64) -> u64 {
    (acc ^ round(0, accumulator))
        .wrapping_mul(PRIME_1)
        .wrapping_add(PRIME_4)
}

/// The xxHash64 of `bytes` with `seed`.
pub fn xxh64(bytes: &[u8], seed: u64) -> u64 {
    let len = bytes.len();
    let mut at = 0;
    let mut acc = if len >= 32 {
        let mut v = [
            seed.wrapping_add(PRIME_1).wrapping_add(PRIME_2),
            seed.wrapping_add(PRIME_2),
            seed,
            seed.wrapping_sub(PRIME_1),
        ];
        while at + 32 <= len {
            for (i, acc) in v.iter_mut().enumerate() {
                *acc = round(*acc, lane(bytes, at + 8 * i));
            }
            at += 32;
        }
        let mut acc = v[0]
            .rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18));
        for accumulator in v {
            acc = merge(acc, accumulator);
        }
        acc
    } else {
        seed.wrapping_add(PRIME_5)
    };
    acc = acc.wrapping_add(len as u64);
    while at + 8 <= len {
        acc ^= round(0, lane(bytes, at));
        acc = acc
            .rotate_left(27)
            .wrapping_mul(PRIME_1)
            .wrapping_add(PRIME_4);
        at += 8;
    }
    if at + 4 <= len {
        acc ^= half_lane(bytes, at).wrapping_mul(PRIME_1);
        acc = acc
            .rotate_left(23)
            .wrapping_mul(PRIME_2)
            .wrapping_add(PRIME_3);
        at += 4;
    }
    for &byte in &bytes[at..] {
        acc ^= u64::from(byte).wrapping_mul(PRIME_5);
        acc = acc.rotate_left(11).wrapping_mul(PRIME_1);
    }
    acc ^= acc >> 33;
    acc = acc.wrapping_mul(PRIME_2);
    acc ^= acc >> 29;
    acc = acc.wrapping_mul(PRIME_3);
    acc ^ (acc >> 32)
}

#[cfg(test)]
mod tests {
    use super::xxh64;

    /// Reference values of the xxHash project's own implementation.
    #[test]
    fn matches_the_reference_implementation() {
        assert_eq!(xxh64(b"", 0), 0xEF46_DB37_51D8_E999);
        assert_eq!(xxh64(b"a", 0), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(xxh64(b"abc", 0), 0x44BC_2CF5_AD77_0999);
        assert_eq!(xxh64(b"abc", 1), 0xBEA9_CA81_9932_8908);
        assert_eq!(xxh64(b"host-0", 0), 0x671B_2E77_6FE4_C3CC);
        assert_eq!(xxh64(b"host-0", 1), 0xC84B_D825_9AE4_2A52);
        // One 32-byte stripe and an 8-byte tail; then 8-, 4- and 1-byte tails; then
        // several stripes with the largest seed.
        let text: &[u8] = b"0123456789abcdef0123456789abcdefXYZ12345abcdefg";
        assert_eq!(xxh64(&text[..40], 7), 0x164A_4CC5_08B0_1B09);
        assert_eq!(xxh64(text, 7), 0xDC0D_AB1B_F2C3_924E);
        assert_eq!(xxh64(&text.repeat(3), u64::MAX), 0x5B27_1147_938A_1D19);
    }
}
