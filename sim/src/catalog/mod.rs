//! The catalogs: the text of what the core says, one template per message id, per language.
//! The command line and the console both render from here (the console may put a language
//! of its own in front), so English is written once.
//!
//! Template syntax: `{name}` is replaced by the argument called `name`; `{name:.N}` shows a
//! quantity with N decimals (without it, the shortest text that reads back the same number).
//! Lists of codes are joined with ", ", sequences of messages with "; "; a unit's code is
//! replaced by the language's text for it. `{name|one|other}` writes `one` when the count
//! `name` is 1 and `other` otherwise (English's rule, the one language the core speaks), so
//! that a template reads "the {extras} {extras|instance|instances}".
//!
//! The parameters' texts (what each one does, and the units) are in `params_en.rs`, keyed by
//! the parameter's name and the unit's code.

pub mod en;
pub mod files;
pub mod params_en;
pub mod registry;
pub mod relations_en;
pub mod sheet;

use crate::message::{Arg, Message, MessageId};

/// A language's templates.
pub type Templates = fn(MessageId) -> &'static str;

/// A language's text of a unit code (`None` for a code it lacks).
pub type Units = fn(&str) -> Option<&'static str>;

/// What a language needs to render the core's messages: a template per message id and a
/// text per unit code.
#[derive(Clone, Copy)]
pub struct Catalog {
    /// The template of each message id.
    pub templates: Templates,
    /// The text of each unit code.
    pub units: Units,
}

/// The English catalog.
pub const EN: Catalog = Catalog {
    templates: en::template,
    units: params_en::param_unit,
};

/// `message` as text, with its arguments filled into the template of its id.
pub fn render(message: &Message, catalog: Catalog) -> String {
    let mut out = String::new();
    render_into(&mut out, message, catalog);
    out
}

/// `template` with each placeholder that names a parameter (the syntax of
/// [`relations_en::fill`]) replaced by that parameter's default. The parameters' docs state
/// defaults this way, so that a doc cannot disagree with its spec.
pub fn fill_defaults(template: &str) -> String {
    relations_en::fill(template, |name| {
        crate::setup::RunSetup::spec(name).map(|s| s.default)
    })
}

/// The one scan of a template that every catalog uses: copies `template` into `out` and
/// hands the inside of each `{…}` to `fill`, which writes the value and returns true, or
/// returns false to leave the braces as written (a missing value stays visible instead of
/// vanishing).
pub fn substitute(
    out: &mut String,
    template: &str,
    mut fill: impl FnMut(&mut String, &str) -> bool,
) {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return;
        };
        let inside = &after[..close];
        if !fill(out, inside) {
            out.push('{');
            out.push_str(inside);
            out.push('}');
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
}

/// The insides of the `{…}` of `template`, in order.
pub fn braces(template: &str) -> impl Iterator<Item = &str> {
    let mut rest = template;
    core::iter::from_fn(move || {
        let open = rest.find('{')?;
        let after = &rest[open + 1..];
        let close = after.find('}')?;
        rest = &after[close + 1..];
        Some(&after[..close])
    })
}

/// Which form `{name|one|other}` takes for `arg`: the first for exactly one, the second for
/// any other number (and for an argument that is not a number).
fn plural_form<'t>(arg: &Arg, one: &'t str, other: &'t str) -> &'t str {
    let is_one = match arg {
        Arg::Int(n) => *n == 1,
        Arg::Num(x) => *x == 1.0,
        _ => false,
    };
    if is_one {
        one
    } else {
        other
    }
}

fn render_into(out: &mut String, message: &Message, catalog: Catalog) {
    substitute(out, (catalog.templates)(message.id), |out, inside| {
        if let Some((name, forms)) = inside.split_once('|') {
            let (one, other) = forms.split_once('|').unwrap_or((forms, forms));
            return message
                .arg(name)
                .map(|arg| out.push_str(plural_form(arg, one, other)))
                .is_some();
        }
        let (name, spec) = inside.split_once(':').unwrap_or((inside, ""));
        let format = match spec.strip_prefix('.') {
            Some(d) => Format::Decimals(d.parse().unwrap_or(0)),
            None if spec == "?" => Format::Quoted,
            None => Format::Plain,
        };
        message
            .arg(name)
            .map(|arg| render_arg(out, arg, format, catalog))
            .is_some()
    });
}

/// How a placeholder shows its argument.
#[derive(Clone, Copy)]
enum Format {
    Plain,
    /// `{x:.N}`: N decimals.
    Decimals(usize),
    /// `{x:?}`: in quotes, with control characters escaped.
    Quoted,
}

fn render_arg(out: &mut String, arg: &Arg, format: Format, catalog: Catalog) {
    use core::fmt::Write;
    match arg {
        Arg::Num(x) => {
            let _ = match format {
                Format::Decimals(d) => write!(out, "{x:.d$}"),
                _ => write!(out, "{x}"),
            };
        }
        Arg::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Arg::Code(code) => out.push_str(code),
        // A person's text is shortened, and its control characters escaped even without
        // quotes, so that it cannot break the line or drive the terminal.
        Arg::Given(text) => {
            let text = crate::message::clip(text);
            match format {
                Format::Quoted => {
                    let _ = write!(out, "{text:?}");
                }
                _ => {
                    for c in text.chars() {
                        if c.is_control() {
                            out.extend(c.escape_default());
                        } else {
                            out.push(c);
                        }
                    }
                }
            }
        }
        Arg::Codes(codes) => out.push_str(&codes.join(", ")),
        // A code the language lacks shows as the code rather than vanishing.
        Arg::Unit(code) => out.push_str((catalog.units)(code).unwrap_or(code)),
        Arg::Msg(message) => render_into(out, message, catalog),
        Arg::Msgs(messages) => {
            for (i, message) in messages.iter().enumerate() {
                if i > 0 {
                    out.push_str("; ");
                }
                render_into(out, message, catalog);
            }
        }
    }
}

/// The names of the placeholders in `template`, in order.
pub fn placeholders(template: &str) -> Vec<&str> {
    braces(template)
        .map(|inner| inner.split([':', '|']).next().unwrap_or(inner))
        .collect()
}

/// A message's English text, from the core's English catalog (rendered here, above the
/// messages, so [`crate::message`] stays plain data at the bottom).
impl core::fmt::Display for crate::message::Message {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&render(self, EN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_has_an_english_template() {
        for id in MessageId::ALL {
            assert!(!en::template(*id).trim().is_empty(), "{id}");
        }
    }

    #[test]
    fn placeholders_take_decimals_and_nest() {
        let inner = Message::new(MessageId::RangeNumberUnit)
            .num("min", 0.05)
            .num("max", 60.0)
            .unit("unit", "s");
        let outer = Message::new(MessageId::MustBe).msg("range", inner);
        let text = render(&outer, EN);
        assert_eq!(text, "must be a number from 0.05 to 60 s");
        let shares = Message::new(MessageId::RangeNumberUnit)
            .num("min", 0.0)
            .num("max", 1.0)
            .unit("unit", "share_of_cache");
        assert_eq!(render(&shares, EN), "a number from 0 to 1 of the cache");
        // A code the language lacks shows as the code.
        let odd = Message::new(MessageId::RangeWholeUnit)
            .num("min", 1.0)
            .num("max", 2.0)
            .unit("unit", "furlongs");
        assert_eq!(render(&odd, EN), "a whole number from 1 to 2 furlongs");
        assert_eq!(placeholders("a {x:.2} b {y}"), ["x", "y"]);
        assert_eq!(placeholders("{n} {n|thing|things}"), ["n", "n"]);
    }

    #[test]
    fn a_counted_noun_agrees_with_its_count() {
        let ran_low = |extras: i64| {
            let m = Message::new(MessageId::CloudRunRanLow)
                .int("extras", extras)
                .num("utilization", 3.0)
                .num("threshold", 10.0)
                .num("after", 60.0);
            render(&m, EN)
        };
        assert_eq!(
            ran_low(1),
            "the 1 instance no longer recommended ran at 3 % < 10 % for 60 s"
        );
        assert_eq!(
            ran_low(2),
            "the 2 instances no longer recommended ran at 3 % < 10 % for 60 s"
        );
        assert!(ran_low(0).starts_with("the 0 instances "));
        let idle = |extras: i64| {
            let m = Message::new(MessageId::CloudRunIdleTimeout)
                .int("extras", extras)
                .num("minutes", 15.0);
            render(&m, EN)
        };
        assert_eq!(
            idle(1),
            "the 1 instance no longer recommended reached the 15-minute idle timeout"
        );
        assert_eq!(
            idle(9),
            "the 9 instances no longer recommended reached the 15-minute idle timeout"
        );
    }
}
