//! A small JSON reader and writer for the elastic scaler's configuration file: values, objects
//! that keep their keys in the order written, errors with line and column. The page loads
//! this core, and a general-purpose JSON library costs it about 8 KB of its 300 KB transfer
//! budget for one small file; the command line's JSON output still goes through serde.

use core::fmt::{self, Write};

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

/// A JSON number, and whether it was written as a whole number (so that it is written back
/// the same way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number {
    pub value: f64,
    pub whole: bool,
}

impl From<f64> for Value {
    /// A number the program computed (written with a decimal point).
    fn from(value: f64) -> Self {
        Value::Number(Number {
            value,
            whole: false,
        })
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_string())
    }
}

/// A JSON object: its members in the order written (a repeated key keeps its first place
/// and its last value, as JSON readers usually do).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map(Vec<(String, Value)>);

impl Map {
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key` to `value`.
    pub fn insert(&mut self, key: String, value: Value) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.0.push((key, value)),
        }
    }

    /// The members in order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Removes every member.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = core::iter::Map<
        core::slice::Iter<'a, (String, Value)>,
        fn(&'a (String, Value)) -> (&'a String, &'a Value),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl Value {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(n.value),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// Indented JSON, two spaces a level.
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        write_value(&mut out, self, Some(0), false);
        out
    }

    /// Indented JSON, two spaces a level, with arrays of numbers, strings and booleans on
    /// one line (`[7, 13]`).
    pub fn to_readable(&self) -> String {
        let mut out = String::new();
        write_value(&mut out, self, Some(0), true);
        out
    }
}

impl fmt::Display for Value {
    /// Compact JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_value(&mut out, self, None, false);
        f.write_str(&out)
    }
}

/// A number as JSON writes it: as it was read (whole numbers without a decimal point), and
/// computed ones with at least one decimal.
fn write_number(out: &mut String, n: Number) {
    let x = n.value;
    if !x.is_finite() {
        out.push_str("null");
    } else if n.whole && x.fract() == 0.0 && x.abs() < 1e15 {
        let _ = write!(out, "{}", x as i64);
    } else {
        let _ = write!(out, "{x:?}");
    }
}

/// A string as a JSON literal.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn newline(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_value(out: &mut String, v: &Value, indent: Option<usize>, inline: bool) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, *n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Array(items)
            if inline
                && !items
                    .iter()
                    .any(|i| matches!(i, Value::Array(_) | Value::Object(_))) =>
        {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, item, None, false);
            }
            out.push(']');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if let Some(level) = indent {
                    newline(out, level + 1);
                }
                write_value(out, item, indent.map(|l| l + 1), inline);
            }
            if let Some(level) = indent {
                newline(out, level);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if let Some(level) = indent {
                    newline(out, level + 1);
                }
                write_string(out, k);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                write_value(out, item, indent.map(|l| l + 1), inline);
            }
            if let Some(level) = indent {
                newline(out, level);
            }
            out.push('}');
        }
    }
}

/// Why a text is not JSON, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub what: &'static str,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.what, self.line, self.column
        )
    }
}

/// Deepest nesting read, so that a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 128;

/// Reads one JSON value (with nothing but white space around it).
pub fn parse(text: &str) -> Result<Value, SyntaxError> {
    let mut r = Reader {
        text: text.as_bytes(),
        at: 0,
    };
    let v = r.value(0)?;
    r.blank();
    if r.at < r.text.len() {
        return Err(r.error("trailing characters"));
    }
    Ok(v)
}

/// One step of a path into a JSON document: a member's key or an item's index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Where the value at `path` starts in `text` (line and column, from 1), or where the
/// deepest part of the path that exists starts: so that an error about a value, or about a
/// member that is missing, points into the file.
pub fn locate(text: &str, path: &[Step]) -> (usize, usize) {
    let mut r = Reader {
        text: text.as_bytes(),
        at: 0,
    };
    r.find(path);
    let e = r.error("");
    (e.line, e.column)
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, what: &'static str) -> SyntaxError {
        let upto = &self.text[..self.at.min(self.text.len())];
        let line = 1 + upto.iter().filter(|&&b| b == b'\n').count();
        let start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = core::str::from_utf8(&upto[start..])
            .map_or(upto.len() - start, |s| s.chars().count())
            + 1;
        SyntaxError { what, line, column }
    }

    /// Moves to the start of the value at `path` (or of the deepest value on it that
    /// exists); the text has been read as valid JSON before.
    fn find(&mut self, path: &[Step]) {
        self.blank();
        let Some((first, rest)) = path.split_first() else {
            return;
        };
        let start = self.at;
        let found = match (first, self.peek()) {
            (Step::Key(key), Some(b'{')) => self.member(key),
            (Step::Index(index), Some(b'[')) => self.item(*index),
            _ => false,
        };
        if found {
            self.find(rest);
        } else {
            self.at = start;
        }
    }

    /// From an object's `{`, moves to the value of `key`; false if it has none.
    fn member(&mut self, key: &str) -> bool {
        self.at += 1;
        loop {
            self.blank();
            let Ok(k) = self.string() else {
                return false;
            };
            self.blank();
            self.eat(b':');
            self.blank();
            if k == key {
                return true;
            }
            if self.value(0).is_err() {
                return false;
            }
            self.blank();
            if !self.eat(b',') {
                return false;
            }
        }
    }

    /// From an array's `[`, moves to its item `index`; false if it is shorter.
    fn item(&mut self, index: usize) -> bool {
        self.at += 1;
        for _ in 0..index {
            self.blank();
            if self.value(0).is_err() {
                return false;
            }
            self.blank();
            if !self.eat(b',') {
                return false;
            }
        }
        self.blank();
        self.peek() != Some(b']')
    }

    fn blank(&mut self) {
        while self
            .text
            .get(self.at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, word: &[u8], v: Value) -> Result<Value, SyntaxError> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(v)
        } else {
            Err(self.error("expected value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.blank();
        match self.peek() {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'n') => self.word(b"null", Value::Null),
            Some(b't') => self.word(b"true", Value::Bool(true)),
            Some(b'f') => self.word(b"false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::String),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.blank();
                if self.eat(b']') {
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.blank();
                    if self.eat(b',') {
                        continue;
                    }
                    if self.eat(b']') {
                        return Ok(Value::Array(items));
                    }
                    return Err(self.error("expected `,` or `]`"));
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut map = Map::new();
                self.blank();
                if self.eat(b'}') {
                    return Ok(Value::Object(map));
                }
                loop {
                    self.blank();
                    if self.peek() != Some(b'"') {
                        return Err(self.error("key must be a string"));
                    }
                    let key = self.string()?;
                    self.blank();
                    if !self.eat(b':') {
                        return Err(self.error("expected `:`"));
                    }
                    let v = self.value(depth + 1)?;
                    map.insert(key, v);
                    self.blank();
                    if self.eat(b',') {
                        continue;
                    }
                    if self.eat(b'}') {
                        return Ok(Value::Object(map));
                    }
                    return Err(self.error("expected `,` or `}`"));
                }
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected value")),
        }
    }

    fn number(&mut self) -> Result<Value, SyntaxError> {
        let start = self.at;
        self.eat(b'-');
        let digits = |r: &mut Self| {
            let from = r.at;
            while r.peek().is_some_and(|b| b.is_ascii_digit()) {
                r.at += 1;
            }
            r.at > from
        };
        if !digits(self) {
            return Err(self.error("invalid number"));
        }
        if self.eat(b'.') && !digits(self) {
            return Err(self.error("invalid number"));
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _ = self.eat(b'+') || self.eat(b'-');
            if !digits(self) {
                return Err(self.error("invalid number"));
            }
        }
        let text = core::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        let whole = !text.contains(['.', 'e', 'E']);
        match crate::decimal::parse_decimal(text) {
            Some(value) if value.is_finite() => Ok(Value::Number(Number { value, whole })),
            _ => Err(self.error("number out of range")),
        }
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error("EOF while parsing a string"));
            };
            self.at += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let c = self.unicode_escape()?;
                            let mut buf = [0; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            continue;
                        }
                        _ => return Err(self.error("invalid escape")),
                    };
                    self.at += 1;
                    let mut buf = [0; 4];
                    out.extend_from_slice(escaped.encode_utf8(&mut buf).as_bytes());
                }
                b if b < 0x20 => return Err(self.error("control character in a string")),
                b => out.push(b),
            }
        }
        // The input is a `str`, and only whole characters were copied or added.
        String::from_utf8(out).map_err(|_| self.error("invalid unicode"))
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let hex = self
            .text
            .get(self.at..self.at + 4)
            .and_then(|h| core::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.error("invalid escape"))?;
        self.at += 4;
        Ok(hex)
    }

    fn unicode_escape(&mut self) -> Result<char, SyntaxError> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if !(self.eat(b'\\') && self.eat(b'u')) {
                return Err(self.error("lone leading surrogate"));
            }
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.error("invalid surrogate pair"));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid unicode"))
    }
}

impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) if n.whole && n.value.fract() == 0.0 && n.value.abs() < 1e15 => {
                s.serialize_i64(n.value as i64)
            }
            Value::Number(n) => s.serialize_f64(n.value),
            Value::String(v) => s.serialize_str(v),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut m = s.serialize_map(Some(map.0.len()))?;
                for (k, v) in map {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_values_in_order() {
        let v = parse(r#" {"b": [1, 2.5, -3e2], "a": {"x": null, "y": true}, "s": "q\"\n\u00e9\ud83d\ude00"} "#)
            .unwrap();
        let m = v.as_object().unwrap();
        let keys: Vec<&String> = m.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["b", "a", "s"]);
        assert_eq!(m.get("s").unwrap().as_str(), Some("q\"\né😀"));
        assert_eq!(
            v.to_string(),
            r#"{"b":[1,2.5,-300.0],"a":{"x":null,"y":true},"s":"q\"\né😀"}"#
        );
        assert_eq!(
            Value::Array(vec![Value::from(1.0), Value::Object(Map::new())]).to_pretty(),
            "[\n  1.0,\n  {}\n]"
        );
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = parse("{\n  \"a\": 1\n  \"b\": 2\n}").unwrap_err();
        assert_eq!((e.line, e.column), (3, 3), "{e}");
        assert_eq!(e.to_string(), "expected `,` or `}` at line 3 column 3");
        for bad in [
            "",
            "[1,]",
            "{\"a\" 1}",
            "01x",
            "\"abc",
            "[1] 2",
            "nul",
            "1e999",
            "\"\\x\"",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let deep = "[".repeat(1000);
        assert!(parse(&deep).is_err());
    }
}
