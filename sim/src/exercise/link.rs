//! An exercise carried by a link: its canonical file ([`super::file::write`]) compressed
//! with DEFLATE (RFC 1951) and written in the URL-safe base64 alphabet without padding
//! (RFC 4648 §5), after `#exercise=` in the link's fragment. The fragment never reaches a
//! server, and the query keeps the run's own pairs (seed, actions, minute), so a shared link
//! replays the same run of the same exercise.
//!
//! A link carries at most [`MAX_CHARS`] characters of exercise. Reading one inflates at most
//! [`super::file::MAX_BYTES`] bytes, so a crafted link cannot make the page decompress
//! without end, and the file it gives is read by the same reader as an imported file.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use super::file::{self, ExerciseError};
use super::Exercise;
use crate::message::{Message, MessageId};

/// The fragment's key: `#exercise=…`.
pub const FRAGMENT_KEY: &str = "exercise";

/// Longest exercise a link carries, in characters of its encoded form (16,000: a link of
/// that length still opens in every current browser and survives chat and mail clients that
/// keep long links; the built-in exercises take 620 to 1,000, an authored one with three
/// injects and hints about 1,300).
pub const MAX_CHARS: usize = 16_000;

/// DEFLATE level: the smallest links; the output is the same for the same file and library
/// version, so a link written twice is the same link.
const LEVEL: u8 = 9;

/// The exercise's encoded form (what follows `#exercise=`), or why it cannot travel in a
/// link.
pub fn encode(exercise: &Exercise) -> Result<String, Message> {
    let text = file::write(exercise);
    if text.len() > file::MAX_BYTES {
        return Err(Message::new(MessageId::ExerciseTooLarge)
            .int("size", i64::try_from(text.len()).unwrap_or(i64::MAX))
            .int("max", file::MAX_BYTES as i64));
    }
    let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), LEVEL);
    let encoded = URL_SAFE_NO_PAD.encode(packed);
    if encoded.len() > MAX_CHARS {
        return Err(Message::new(MessageId::ExerciseLinkTooLong)
            .int("given", i64::try_from(encoded.len()).unwrap_or(i64::MAX))
            .int("max", MAX_CHARS as i64));
    }
    Ok(encoded)
}

/// The `#exercise=…` fragment of `exercise`.
pub fn fragment(exercise: &Exercise) -> Result<String, Message> {
    encode(exercise).map(|e| format!("#{FRAGMENT_KEY}={e}"))
}

/// The encoded exercise in a link's fragment (with or without its `#`), if it has one.
pub fn in_fragment(fragment: &str) -> Option<&str> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    fragment
        .split('&')
        .find_map(|pair| pair.strip_prefix(FRAGMENT_KEY)?.strip_prefix('='))
}

/// Reads an encoded exercise. Every refusal is one message: too long, not the link's
/// alphabet, not compressed data, larger than an exercise file may be, or a file the reader
/// refuses (with its field, line and column).
pub fn decode(encoded: &str) -> Result<Exercise, ExerciseError> {
    let whole = |message: Message| ExerciseError {
        field: String::new(),
        line: 1,
        column: 1,
        message,
    };
    let broken =
        |detail: &str| whole(Message::new(MessageId::ExerciseLinkBroken).given("detail", detail));
    if encoded.len() > MAX_CHARS {
        return Err(whole(
            Message::new(MessageId::ExerciseLinkTooLong)
                .int("given", i64::try_from(encoded.len()).unwrap_or(i64::MAX))
                .int("max", MAX_CHARS as i64),
        ));
    }
    let packed = URL_SAFE_NO_PAD
        .decode(encoded.trim_end_matches('='))
        .map_err(|_| broken("not base64url"))?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, file::MAX_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => whole(
                Message::new(MessageId::ExerciseTooLarge)
                    .int("size", (file::MAX_BYTES + 1) as i64)
                    .int("max", file::MAX_BYTES as i64),
            ),
            _ => broken("not DEFLATE data"),
        })?;
    let text = String::from_utf8(bytes).map_err(|_| broken("not UTF-8 text"))?;
    file::read(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ScenarioId;

    #[test]
    fn every_built_in_exercise_travels_in_a_link_and_comes_back_the_same() {
        for id in ScenarioId::ALL {
            let exercise = crate::exercise::builtin(*id);
            let encoded = encode(&exercise).expect("a built-in exercise fits in a link");
            assert!(encoded.len() < 2_500, "{id}: {} characters", encoded.len());
            assert!(encoded
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
            let mut back = decode(&encoded).expect("its link reads");
            back.scenario.id = *id;
            assert_eq!(back, exercise, "{id}");
            assert_eq!(encode(&back).unwrap(), encoded, "{id}: the same link twice");
        }
    }

    #[test]
    fn the_fragment_key_is_found_among_other_pairs() {
        assert_eq!(in_fragment("#exercise=abc"), Some("abc"));
        assert_eq!(in_fragment("exercise=abc&x=1"), Some("abc"));
        assert_eq!(in_fragment("#x=1&exercise=abc"), Some("abc"));
        assert_eq!(in_fragment("#exercises=abc"), None);
        assert_eq!(in_fragment(""), None);
    }

    #[test]
    fn a_broken_link_is_refused_with_one_clear_message() {
        let text = |e: ExerciseError| e.message.to_string();
        assert!(text(decode("!!!").unwrap_err()).contains("not base64url"));
        assert!(text(decode("AAAA").unwrap_err()).contains("not DEFLATE"));
        let long = "A".repeat(MAX_CHARS + 1);
        assert!(text(decode(&long).unwrap_err()).contains("at most 16000"));
        // A bomb: a megabyte of spaces compresses to about a kilobyte.
        let bomb = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
            &vec![b' '; 1 << 20],
            9,
        ));
        assert!(bomb.len() < MAX_CHARS);
        assert!(text(decode(&bomb).unwrap_err()).contains("at most 65536"));
        // Valid compression of a file the reader refuses: its own message, with the place.
        let bad =
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"format\": 3}", 9));
        let e = decode(&bad).unwrap_err();
        assert_eq!(e.field, "format");
    }

    #[test]
    fn an_exercise_too_large_for_a_link_says_so_and_names_the_way_out() {
        let mut exercise = crate::exercise::builtin(ScenarioId::BadDeploy);
        // Text that does not compress well: pseudo-random letters (about 4.7 bits each).
        let mut x: u32 = 1;
        let mut noise = || -> String {
            (0..file::MAX_TEXT)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    char::from(b'a' + ((x >> 16) % 26) as u8)
                })
                .collect()
        };
        exercise.briefing = noise();
        exercise.lesson = noise();
        for minute in 0..10 {
            exercise.hints.push(crate::exercise::Hint {
                trigger: crate::exercise::HintTrigger::At(minute),
                text: noise(),
            });
        }
        assert!(file::write(&exercise).len() < file::MAX_BYTES);
        let message = encode(&exercise).unwrap_err().to_string();
        assert!(message.contains("at most 16000"), "{message}");
        assert!(message.contains("share the file"), "{message}");
    }
}
