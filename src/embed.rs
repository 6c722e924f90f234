//! Embedding: the options a trainer writes once into the link of an `<iframe>`, in the style of
//! PhET's query parameters, read from the link parameters the core does not own.
//!
//! | parameter  | values                                   | effect                                   |
//! |------------|------------------------------------------|------------------------------------------|
//! | `embed`    | `1`, `0`                                 | the compact layout for a lesson's iframe |
//! | `locked`   | a list of `scenario`, `seed`, `autoscaler` | those settings cannot be changed       |
//! | `controls` | a list of control names (see [`CONTROLS`]) | only those controls are shown          |
//! | `autoplay` | `1`, `0`                                 | the clock starts on its own              |
//! | `speed`    | one of the speeds, minutes per second    | the clock's speed at the start           |
//! | `theme`    | `light`, `dark`, `projector`             | colours (projector: high contrast, large type) |
//! | `pause_on_page` | `1`, `0`                           | the clock stops when the page fires (on by default) |
//! | `origins`  | a list of origins (`https://host[:port]`) | host pages whose commands are obeyed    |
//!
//! Pure functions, tested natively. What was wrong comes back as notices written through the
//! catalog; every valid part of a parameter is kept.

use oncall_sim::message::clip;

use crate::i18n::{t, tf, Msg};
use crate::speed::{speed_index, speeds_list};

/// The link parameters this module owns.
pub const EMBED_PARAMS: [&str; 8] = [
    "embed",
    "locked",
    "controls",
    "autoplay",
    "speed",
    "theme",
    "origins",
    "pause_on_page",
];

/// The settings `locked` can fix.
pub const LOCKABLE: [&str; 3] = ["scenario", "seed", "autoscaler"];

/// The controls `controls` can choose, by the name of the action each one takes (the core's
/// action names, as links and the command line spell them).
pub const CONTROLS: &[&str] = oncall_sim::action::ACTION_NAMES;

/// How the page is coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Light or dark as the system prefers.
    #[default]
    System,
    Light,
    Dark,
    /// Light, high contrast, larger type: for a room's projector.
    Projector,
}

impl Theme {
    /// The names `theme` accepts.
    pub const NAMES: [&'static str; 3] = ["light", "dark", "projector"];

    /// The `data-theme` attribute of the document (none: follow the system).
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::System => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
            Theme::Projector => Some("projector"),
        }
    }

    fn parse(value: &str) -> Option<Theme> {
        match value {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            "projector" => Some(Theme::Projector),
            _ => None,
        }
    }
}

/// The settings a trainer fixed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Locks {
    pub scenario: bool,
    pub seed: bool,
    pub autoscaler: bool,
}

/// What the link asks of the page around the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedOptions {
    /// The compact layout.
    pub compact: bool,
    pub locks: Locks,
    /// The controls shown, by action name; `None`: all of them.
    pub controls: Option<Vec<&'static str>>,
    pub autoplay: bool,
    /// Index into [`crate::speed::SPEEDS`], when the link sets one.
    pub speed: Option<usize>,
    pub theme: Theme,
    /// The clock stops when the page fires (`pause_on_page`, on by default).
    pub pause_on_page: bool,
    /// Origins whose commands the page obeys (`scheme://host[:port]`, as the browser writes
    /// a message's origin).
    pub origins: Vec<String>,
    /// The link has an `origins` parameter (even one without a valid entry).
    pub origins_given: bool,
}

impl Default for EmbedOptions {
    fn default() -> Self {
        Self {
            compact: false,
            locks: Locks::default(),
            controls: None,
            autoplay: false,
            speed: None,
            theme: Theme::System,
            pause_on_page: true,
            origins: Vec::new(),
            origins_given: false,
        }
    }
}

impl EmbedOptions {
    /// Whether the page shows the control `name` (every control unless `controls=` leaves
    /// it out).
    pub fn shows_control(&self, name: &str) -> bool {
        self.controls
            .as_ref()
            .is_none_or(|shown| shown.contains(&name))
    }

    /// The origins the console's messages go to: those the link lists; any origin (`*`) when
    /// the link has no `origins` at all (the page that wrote the link sees the run anyway);
    /// the console's own origin when the link has `origins` but no valid entry in it, so that
    /// a list written wrong never widens to every page that frames the link.
    pub fn message_targets(&self, own_origin: &str) -> Vec<String> {
        if !self.origins.is_empty() {
            self.origins.clone()
        } else if self.origins_given {
            vec![own_origin.to_owned()]
        } else {
            vec!["*".to_owned()]
        }
    }

    /// Whether a command from `origin` is obeyed: one the link lists, or the page's own.
    pub fn obeys(&self, origin: &str, own_origin: &str) -> bool {
        origin == own_origin || self.origins.iter().any(|o| o == origin)
    }
}

/// Reads the embedding options from the link parameters the core does not own (the last of
/// a repeated parameter wins, as for the core's), with a notice for each value that was not
/// understood.
pub fn read_embed(rest: &[(String, String)]) -> (EmbedOptions, Vec<String>) {
    let mut options = EmbedOptions::default();
    let mut reader = Reader {
        rest,
        notices: Vec::new(),
    };
    reader.switches(&mut options);
    reader.speed(&mut options);
    reader.theme(&mut options);
    reader.locked(&mut options);
    reader.controls(&mut options);
    reader.origins(&mut options);
    (options, reader.notices)
}

/// The link parameters being read, and the notices about them so far.
struct Reader<'a> {
    rest: &'a [(String, String)],
    notices: Vec<String>,
}

impl<'a> Reader<'a> {
    /// The value of the last `name` in the link, trimmed.
    fn last(&self, name: &str) -> Option<&'a str> {
        self.rest
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
    }

    /// A notice that `value` of `param` is not one of `allowed`, and what the page does
    /// instead. The value is quoted clipped: a link may carry any amount of text.
    fn invalid(&mut self, param: &str, value: &str, allowed: &str, fallback: &str) {
        self.notices.push(tf(
            Msg::NoticeInvalid,
            &[
                ("param", param),
                ("value", &clip(value)),
                ("allowed", allowed),
                ("fallback", fallback),
            ],
        ));
    }

    /// `embed`, `autoplay` and `pause_on_page`: on (`1`, `true`) or off (`0`, `false`).
    fn switches(&mut self, options: &mut EmbedOptions) {
        let switch_allowed = || tf(Msg::OneOf, &[("list", "1, 0")]);
        for (name, slot, fallback) in [
            ("embed", &mut options.compact, Msg::EmbedOffFallback),
            ("autoplay", &mut options.autoplay, Msg::EmbedOffFallback),
            (
                "pause_on_page",
                &mut options.pause_on_page,
                Msg::StaysOnFallback,
            ),
        ] {
            if let Some(value) = self.last(name) {
                match value {
                    "1" | "true" => *slot = true,
                    "0" | "false" => *slot = false,
                    _ => self.invalid(name, value, &switch_allowed(), t(fallback)),
                }
            }
        }
    }

    /// `speed`: one of the speeds, in simulated minutes per second.
    fn speed(&mut self, options: &mut EmbedOptions) {
        let Some(value) = self.last("speed") else {
            return;
        };
        let found = value
            .parse::<u32>()
            .ok()
            .and_then(|v| speed_index(f64::from(v)));
        match found {
            Some(i) => options.speed = Some(i),
            None => self.invalid(
                "speed",
                value,
                &tf(Msg::OneOf, &[("list", &speeds_list())]),
                t(Msg::SpeedFallback),
            ),
        }
    }

    /// `theme`: one of [`Theme::NAMES`].
    fn theme(&mut self, options: &mut EmbedOptions) {
        let Some(value) = self.last("theme") else {
            return;
        };
        match Theme::parse(value) {
            Some(theme) => options.theme = theme,
            None => self.invalid(
                "theme",
                value,
                &tf(Msg::OneOf, &[("list", &Theme::NAMES.join(", "))]),
                t(Msg::ThemeFallback),
            ),
        }
    }

    /// `locked`: the settings of [`LOCKABLE`] that cannot be changed.
    fn locked(&mut self, options: &mut EmbedOptions) {
        let Some(value) = self.last("locked") else {
            return;
        };
        let (names, wrong) = pick(value, &LOCKABLE);
        for name in names {
            match name {
                "scenario" => options.locks.scenario = true,
                "seed" => options.locks.seed = true,
                _ => options.locks.autoscaler = true,
            }
        }
        if !wrong.is_empty() {
            let allowed = tf(Msg::OneOf, &[("list", &LOCKABLE.join(", "))]);
            self.invalid(
                "locked",
                &wrong.join(","),
                &allowed,
                t(Msg::ListItemsLeftOut),
            );
        }
    }

    /// `controls`: the controls of [`CONTROLS`] shown.
    fn controls(&mut self, options: &mut EmbedOptions) {
        let Some(value) = self.last("controls") else {
            return;
        };
        let (names, wrong) = pick(value, CONTROLS);
        options.controls = Some(names);
        if !wrong.is_empty() {
            let allowed = tf(Msg::OneOf, &[("list", &CONTROLS.join(", "))]);
            self.invalid(
                "controls",
                &wrong.join(","),
                &allowed,
                t(Msg::ListItemsLeftOut),
            );
        }
    }

    /// `origins`: the host pages whose commands are obeyed.
    fn origins(&mut self, options: &mut EmbedOptions) {
        let Some(value) = self.last("origins") else {
            return;
        };
        options.origins_given = true;
        let mut wrong = Vec::new();
        for item in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match origin(item) {
                Some(o) if !options.origins.contains(&o) => options.origins.push(o),
                Some(_) => {}
                None => wrong.push(item),
            }
        }
        if !wrong.is_empty() {
            self.invalid(
                "origins",
                &wrong.join(","),
                t(Msg::OriginsAllowed),
                t(Msg::ListItemsLeftOut),
            );
        }
    }
}

/// The items of a comma-separated list that are among `known` (each once, in the order
/// written), and those that are not.
fn pick<'a>(value: &'a str, known: &[&'static str]) -> (Vec<&'static str>, Vec<&'a str>) {
    let mut found = Vec::new();
    let mut wrong = Vec::new();
    for item in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match known.iter().find(|k| **k == item) {
            Some(k) if !found.contains(k) => found.push(*k),
            Some(_) => {}
            None => wrong.push(item),
        }
    }
    (found, wrong)
}

/// An origin as the browser writes a message's origin (`https://host[:port]`, lower case, no
/// path or trailing slash), or `None` when `text` is not one.
fn origin(text: &str) -> Option<String> {
    let lower = text.trim_end_matches('/').to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))?;
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) if !rest.ends_with(']') => (host, Some(port)),
        _ => (rest, None),
    };
    let host_ok = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => !v6.is_empty() && v6.bytes().all(|b| b.is_ascii_hexdigit() || b == b':'),
        None => {
            !host.is_empty()
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
        }
    };
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.parse::<u16>().is_ok());
    (host_ok && port_ok).then_some(lower)
}

/// The link parameters of the full simulator for the same run: the embedding options left out.
pub fn full_page_rest(rest: &[(String, String)]) -> Vec<(String, String)> {
    rest.iter()
        .filter(|(k, _)| !EMBED_PARAMS.contains(&k.as_str()))
        .cloned()
        .collect()
}

/// The link parameters of the same run in the compact layout (`embed=1`), the rest kept.
pub fn embedded_rest(rest: &[(String, String)]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> =
        rest.iter().filter(|(k, _)| k != "embed").cloned().collect();
    pairs.push(("embed".to_owned(), "1".to_owned()));
    pairs
}

/// The size of the frame the compact layout is made for, px.
pub const FRAME_SIZE: (u32, u32) = (820, 620);

/// `text` safe inside an HTML attribute's double quotes or an element's text.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

/// The HTML a lesson page includes to show the run at `href` (already in the compact layout).
pub fn iframe_snippet(href: &str, title: &str) -> String {
    let attribute = escape_html;
    format!(
        "<iframe src=\"{}\" width=\"{}\" height=\"{}\" title=\"{}\" style=\"border:0\" loading=\"lazy\"></iframe>",
        attribute(href),
        FRAME_SIZE.0,
        FRAME_SIZE.1,
        attribute(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speed::SPEEDS;

    fn pairs(query: &str) -> Vec<(String, String)> {
        crate::link::parse_query(query)
    }

    #[test]
    fn a_bare_link_embeds_nothing_and_locks_nothing() {
        let (options, notices) = read_embed(&[]);
        assert_eq!(options, EmbedOptions::default());
        assert!(notices.is_empty());
        assert!(CONTROLS.iter().all(|c| options.shows_control(c)));
        assert!(!options.compact);
    }

    #[test]
    fn a_trainers_link_is_read_whole() {
        let (options, notices) = read_embed(&pairs(
            "embed=1&locked=scenario,seed&controls=rollback,min_instances&autoplay=1&speed=60\
             &theme=projector&origins=https://lessons.example.org,http://127.0.0.1:8080/",
        ));
        assert!(notices.is_empty(), "{notices:?}");
        assert!(options.compact && options.autoplay);
        assert_eq!(
            options.locks,
            Locks {
                scenario: true,
                seed: true,
                autoscaler: false
            }
        );
        assert_eq!(options.controls, Some(vec!["rollback", "min_instances"]));
        assert!(options.shows_control("rollback") && options.shows_control("min_instances"));
        assert!(!options.shows_control("warm_cache") && !options.shows_control("autoscaling"));
        assert_eq!(SPEEDS[options.speed.unwrap()], 60);
        assert_eq!(options.theme, Theme::Projector);
        assert_eq!(
            options.origins,
            vec!["https://lessons.example.org", "http://127.0.0.1:8080"]
        );
    }

    #[test]
    fn wrong_values_are_named_and_the_valid_parts_kept() {
        let (options, notices) = read_embed(&pairs(
            "embed=yes&speed=7&theme=blue&locked=seed,colour&controls=rollback,teleport\
             &origins=ftp://x.org,https://ok.example,https://a.b/path",
        ));
        assert_eq!(notices.len(), 6, "{notices:?}");
        assert!(notices[0].contains("“embed”") && notices[0].contains("“yes”"));
        assert!(notices[1].contains("“speed”") && notices[1].contains("720"));
        assert!(notices[2].contains("“blue”") && notices[2].contains("projector"));
        assert!(notices[3].contains("“colour”") && notices[3].contains("autoscaler"));
        assert!(notices[4].contains("“teleport”") && notices[4].contains("warm_cache"));
        assert!(notices[5].contains("ftp://x.org") && notices[5].contains("https://a.b/path"));
        assert!(!options.compact);
        assert_eq!(options.speed, None);
        assert_eq!(options.theme, Theme::System);
        assert!(options.locks.seed && !options.locks.scenario);
        assert_eq!(options.controls, Some(vec!["rollback"]));
        assert_eq!(options.origins, vec!["https://ok.example"]);
    }

    #[test]
    fn commands_are_obeyed_from_the_page_itself_and_the_listed_origins_only() {
        let (options, _) = read_embed(&pairs("origins=https://lessons.example.org"));
        let own = "http://127.0.0.1:8080";
        assert!(options.obeys(own, own));
        assert!(options.obeys("https://lessons.example.org", own));
        assert!(!options.obeys("https://evil.example", own));
        assert!(!options.obeys("https://lessons.example.org.evil.example", own));
        assert!(!options.obeys("null", own));
    }

    #[test]
    fn messages_go_to_the_listed_origins_and_a_list_without_a_valid_entry_fails_closed() {
        let own = "http://127.0.0.1:8080";
        let (none, _) = read_embed(&pairs("embed=1"));
        assert_eq!(none.message_targets(own), vec!["*"]);
        let (listed, _) = read_embed(&pairs("origins=https://a.org,https://b.org:8443"));
        assert_eq!(
            listed.message_targets(own),
            vec!["https://a.org", "https://b.org:8443"]
        );
        for invalid_only in [
            "origins=lessons.example.org",
            "origins=",
            "origins=*",
            "origins=javascript:alert(1),ftp://x.org",
        ] {
            let (options, notices) = read_embed(&pairs(invalid_only));
            assert_eq!(options.message_targets(own), vec![own], "{invalid_only}");
            assert!(!options.obeys("https://lessons.example.org", own));
            if invalid_only != "origins=" {
                assert_eq!(notices.len(), 1, "{invalid_only}: {notices:?}");
            }
        }
    }

    #[test]
    fn text_quoted_from_the_link_is_clipped() {
        let long = "x".repeat(60_000);
        let (options, notices) = read_embed(&pairs(&format!(
            "controls=rollback,{long}&theme={long}&origins={long}"
        )));
        assert_eq!(options.controls, Some(vec!["rollback"]));
        assert_eq!(notices.len(), 3);
        for notice in &notices {
            assert!(
                notice.chars().count() < 600,
                "{} chars",
                notice.chars().count()
            );
            assert!(notice.contains('…'));
        }
    }

    #[test]
    fn origins_are_written_as_browsers_write_them() {
        assert_eq!(
            origin("HTTPS://Lessons.Example.org/").as_deref(),
            Some("https://lessons.example.org")
        );
        assert_eq!(
            origin("http://localhost:3000").as_deref(),
            Some("http://localhost:3000")
        );
        assert_eq!(
            origin("http://[::1]:8080").as_deref(),
            Some("http://[::1]:8080")
        );
        assert_eq!(origin("http://[::1]").as_deref(), Some("http://[::1]"));
        for bad in [
            "lessons.example.org",
            "https://",
            "https://a.org:99999",
            "https://a.org:",
            "https://a.org/x",
            "javascript:alert(1)",
            "*",
            "https://a:b:80",
        ] {
            assert_eq!(origin(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_snippet_frames_the_compact_layout_with_the_address_escaped() {
        let rest = embedded_rest(&pairs("embed=0&theme=dark"));
        assert_eq!(
            rest,
            vec![
                ("theme".to_owned(), "dark".to_owned()),
                ("embed".to_owned(), "1".to_owned())
            ]
        );
        let snippet = iframe_snippet("https://x.org/?seed=7&embed=1", "A \"quoted\" title");
        assert_eq!(
            snippet,
            "<iframe src=\"https://x.org/?seed=7&amp;embed=1\" width=\"820\" height=\"620\" \
             title=\"A &quot;quoted&quot; title\" style=\"border:0\" loading=\"lazy\"></iframe>"
        );
    }

    #[test]
    fn the_full_page_link_leaves_the_embedding_out_and_keeps_the_rest() {
        let rest = pairs("embed=1&theme=dark&utm_source=lesson&origins=https://a.org");
        assert_eq!(
            full_page_rest(&rest),
            vec![("utm_source".to_owned(), "lesson".to_owned())]
        );
    }
}
