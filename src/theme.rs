//! The page's one palette.
//!
//! The colours are defined once, as CSS custom properties in `style/tokens.css`; this module
//! reads that file while the page is compiled (`include_str!` and `const fn`s) and gives the
//! charts the same colours as plain constants. That direction was chosen over the other two:
//!
//! - writing the properties from Rust at start-up would leave the page unstyled until the
//!   WebAssembly module has loaded, and would put the palette where a designer does not look;
//! - reading the computed CSS variables at draw time would cost a style look-up per frame,
//!   and the chart figures, which are pure data tested natively, could not carry colours.
//!
//! A colour the charts need and the file lacks (or writes as anything but `#rrggbb`) stops the
//! build with the property's name. The dark theme is the file's
//! `@media (prefers-color-scheme: dark)` block; a property it does not redefine keeps its
//! light value, as in the browser.

/// A colour: red, green and blue, 0–255.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// The design tokens, as the browser loads them.
const TOKENS: &str = include_str!("../style/tokens.css");

/// Where the dark theme's block starts in [`TOKENS`].
const DARK_BLOCK: usize = match find(TOKENS.as_bytes(), b"prefers-color-scheme: dark", 0) {
    Some(at) => at,
    None => panic!("style/tokens.css has no dark theme block"),
};

/// The first position of `needle` in `hay` at or after `from`.
const fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + needle.len() <= hay.len() {
        let mut j = 0;
        while j < needle.len() && hay[i + j] == needle[j] {
            j += 1;
        }
        if j == needle.len() {
            return Some(i);
        }
        i += 1;
    }
    None
}

const fn hex_digit(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => panic!("a palette colour in style/tokens.css is not written #rrggbb"),
    }
}

/// The byte written as two hex digits at `at`.
const fn hex_byte(css: &[u8], at: usize) -> u8 {
    hex_digit(css[at]) * 16 + hex_digit(css[at + 1])
}

/// The `#rrggbb` value of the declaration `name: #rrggbb` found in `css` between `from` and
/// `to`, if there is one.
const fn declared(css: &[u8], name: &str, from: usize, to: usize) -> Option<Rgb> {
    let name = name.as_bytes();
    let mut at = from;
    while let Some(found) = find(css, name, at) {
        if found >= to {
            return None;
        }
        // The whole name, followed by its colon (so "--k-page" does not match "--k-page-bg").
        let start_ok = found == 0 || css[found - 1] != b'-';
        let mut i = found + name.len();
        if start_ok && i < css.len() && css[i] == b':' {
            i += 1;
            while css[i] == b' ' {
                i += 1;
            }
            if css[i] != b'#' || css[i + 7] != b';' {
                panic!("a palette colour in style/tokens.css is not written #rrggbb;");
            }
            return Some(Rgb(
                hex_byte(css, i + 1),
                hex_byte(css, i + 3),
                hex_byte(css, i + 5),
            ));
        }
        at = found + 1;
    }
    None
}

/// The light theme's value of custom property `name` (e.g. `"--panel"`).
pub const fn light(name: &str) -> Rgb {
    match declared(TOKENS.as_bytes(), name, 0, DARK_BLOCK) {
        Some(c) => c,
        None => panic!("a colour the charts use is missing from style/tokens.css"),
    }
}

/// The dark theme's value of custom property `name`: its dark redefinition, else its light
/// value.
pub const fn dark(name: &str) -> Rgb {
    match declared(TOKENS.as_bytes(), name, DARK_BLOCK, TOKENS.len()) {
        Some(c) => c,
        None => light(name),
    }
}

/// The chart series' colours (`--chart-*`), the same in both themes.
pub mod series {
    use super::{light, Rgb};

    pub const BLUE: Rgb = light("--chart-blue");
    pub const GREEN: Rgb = light("--chart-green");
    pub const ORANGE: Rgb = light("--chart-orange");
    pub const RED: Rgb = light("--chart-red");
    pub const PURPLE: Rgb = light("--chart-purple");
    pub const TEAL: Rgb = light("--chart-teal");
    pub const GREY: Rgb = light("--chart-grey");
}

/// A colour as CSS writes it, for inline styles such as a legend's swatch.
pub fn css(c: Rgb) -> String {
    format!("rgb({}, {}, {})", c.0, c.1, c.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_read_from_the_tokens() {
        assert_eq!(light("--panel"), Rgb(255, 255, 255));
        assert_eq!(dark("--panel"), Rgb(0x18, 0x1b, 0x21));
        assert_eq!(light("--k-page"), Rgb(0xc4, 0x29, 0x1c));
        assert_eq!(series::BLUE, Rgb(45, 125, 210));
        // Not redefined for the dark theme: the light value holds.
        assert_eq!(dark("--chart-teal"), light("--chart-teal"));
    }

    #[test]
    fn names_match_whole() {
        let css = b":root { --k-page-bg: #000000; --k-page: #102030; }";
        assert_eq!(
            declared(css, "--k-page", 0, css.len()),
            Some(Rgb(0x10, 0x20, 0x30))
        );
        assert_eq!(declared(css, "--page", 0, css.len()), None);
    }

    #[test]
    fn inline_styles_write_rgb() {
        assert_eq!(super::css(Rgb(1, 2, 3)), "rgb(1, 2, 3)");
    }

    #[test]
    fn every_colour_the_stylesheets_use_is_a_token() {
        // Feature stylesheets take their colours from tokens.css: no literal colour outside it
        // but white (a switch's knob, text on a coloured badge) and black shadows and scrims.
        for (name, text) in STYLESHEETS {
            for (i, _) in text.match_indices('#') {
                let rest = &text[i + 1..];
                let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
                let ends = rest[hex..]
                    .bytes()
                    .next()
                    .is_none_or(|b| !b.is_ascii_alphanumeric() && b != b'-' && b != b'_');
                let colour = ends && matches!(hex, 3 | 4 | 6 | 8);
                assert!(
                    !colour || &rest[..hex] == "fff",
                    "{name}: literal colour #{}",
                    &rest[..hex]
                );
            }
        }
    }

    const STYLESHEETS: &[(&str, &str)] = &[
        ("base.css", include_str!("../style/base.css")),
        ("header.css", include_str!("../style/header.css")),
        ("layout.css", include_str!("../style/layout.css")),
        (
            "status-strip.css",
            include_str!("../style/status-strip.css"),
        ),
        ("notices.css", include_str!("../style/notices.css")),
        ("setup.css", include_str!("../style/setup.css")),
        ("controls.css", include_str!("../style/controls.css")),
        ("metrics.css", include_str!("../style/metrics.css")),
        ("charts.css", include_str!("../style/charts.css")),
        ("event-log.css", include_str!("../style/event-log.css")),
        ("debrief.css", include_str!("../style/debrief.css")),
        ("sources.css", include_str!("../style/sources.css")),
        ("help.css", include_str!("../style/help.css")),
        ("policy.css", include_str!("../style/policy.css")),
        ("start.css", include_str!("../style/start.css")),
    ];
}
