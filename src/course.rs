//! Courses that grade (the extended build): the link parameters a lesson page writes into a
//! frame's address, and the trainee's progress kept in the browser.
//!
//! | parameter  | values                                   | effect                                   |
//! |------------|------------------------------------------|------------------------------------------|
//! | `course`   | a list of scenario ids (at most 12)      | the exercises of a course, in order      |
//! | `reveal`   | `always`, `after-pass`, `never`          | when the answer shows (textbook line, best single action, lesson, postmortem) |
//! | `attempts` | a whole number from 1 to 99              | attempts per exercise; the answer shows once they are used up (unless `never`) |
//! | `briefing` | `1`, `0`                                 | the briefing shows in the compact layout |
//!
//! Progress is per course (or per page without one) and per exercise: best score, attempts,
//! passed. Pure functions, tested natively; `docs/course.md` documents the same.

use oncall_sim::ids::ScenarioId;
use oncall_sim::json::{self, Value};
use oncall_sim::message::clip;

use crate::i18n::{t, tf, Msg};

/// The link parameters this module owns.
pub const COURSE_PARAMS: [&str; 4] = ["course", "reveal", "attempts", "briefing"];

/// Most exercises in a course.
pub const MAX_EXERCISES: usize = 12;
/// Most attempts `attempts` may allow.
pub const MAX_ATTEMPTS: u32 = 99;

/// When the answer (the textbook line, the best single action, the lesson, the postmortem's
/// comparisons) shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reveal {
    #[default]
    Always,
    /// Once the exercise is passed, or its attempts are used up.
    AfterPass,
    Never,
}

impl Reveal {
    pub const NAMES: [&'static str; 3] = ["always", "after-pass", "never"];

    fn parse(text: &str) -> Option<Self> {
        match text {
            "always" => Some(Reveal::Always),
            "after-pass" => Some(Reveal::AfterPass),
            "never" => Some(Reveal::Never),
            _ => None,
        }
    }
}

/// What a lesson page's link asks of the frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CourseOptions {
    /// The course's exercises, in order (empty: no course).
    pub exercises: Vec<ScenarioId>,
    /// The `course` parameter as written (the key progress is kept under).
    pub key: String,
    pub reveal: Reveal,
    /// Attempts per exercise (`None`: as many as the trainee likes).
    pub attempts: Option<u32>,
    /// The briefing shows in the compact layout.
    pub briefing: bool,
}

impl CourseOptions {
    /// Whether the answer shows for an exercise with `progress`.
    pub fn reveals(&self, progress: &Entry) -> bool {
        match self.reveal {
            Reveal::Always => true,
            Reveal::Never => false,
            Reveal::AfterPass => progress.passed || self.used_up(progress),
        }
    }

    /// Whether the exercise's attempts are used up.
    pub fn used_up(&self, progress: &Entry) -> bool {
        self.attempts.is_some_and(|n| progress.attempts >= n)
    }

    /// Whether the course is done: every exercise passed.
    pub fn complete(&self, progress: &Progress) -> bool {
        !self.exercises.is_empty()
            && self
                .exercises
                .iter()
                .all(|id| progress.entry(id.as_str()).passed)
    }
}

/// Reads the course's parameters among the link's pairs the core does not own. Each wrong
/// value gives a notice naming it and what is allowed; every valid part is kept.
pub fn read_course(rest: &[(String, String)]) -> (CourseOptions, Vec<String>) {
    let mut options = CourseOptions::default();
    let mut notices = Vec::new();
    let mut refuse = |param: &str, value: &str, allowed: String| {
        notices.push(tf(
            Msg::NoticeInvalid,
            &[
                ("param", param),
                ("value", &clip(value)),
                ("allowed", &allowed),
                ("fallback", t(Msg::CourseFallback)),
            ],
        ));
    };
    for (key, value) in rest {
        match key.as_str() {
            "course" => {
                options.exercises.clear();
                options.key = value.clone();
                for id in value.split(',').filter(|s| !s.is_empty()) {
                    match id.parse::<ScenarioId>() {
                        Ok(id) if options.exercises.len() < MAX_EXERCISES => {
                            if !options.exercises.contains(&id) {
                                options.exercises.push(id);
                            }
                        }
                        Ok(_) => refuse(
                            "course",
                            id,
                            tf(Msg::CourseTooMany, &[("max", &MAX_EXERCISES.to_string())]),
                        ),
                        Err(_) => refuse(
                            "course",
                            id,
                            tf(Msg::OneOf, &[("list", &ScenarioId::NAMES.join(", "))]),
                        ),
                    }
                }
            }
            "reveal" => match Reveal::parse(value) {
                Some(reveal) => options.reveal = reveal,
                None => refuse(
                    "reveal",
                    value,
                    tf(Msg::OneOf, &[("list", &Reveal::NAMES.join(", "))]),
                ),
            },
            "attempts" => match value.parse::<u32>() {
                Ok(n) if (1..=MAX_ATTEMPTS).contains(&n) && !value.starts_with('+') => {
                    options.attempts = Some(n)
                }
                _ => refuse(
                    "attempts",
                    value,
                    tf(
                        Msg::CourseAttemptsAllowed,
                        &[("max", &MAX_ATTEMPTS.to_string())],
                    ),
                ),
            },
            "briefing" => match value.as_str() {
                "1" => options.briefing = true,
                "0" => options.briefing = false,
                _ => refuse("briefing", value, tf(Msg::OneOf, &[("list", "1, 0")])),
            },
            _ => {}
        }
    }
    (options, notices)
}

/// One exercise's progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub best: u32,
    pub attempts: u32,
    pub passed: bool,
}

/// A course's progress: each exercise's, by its id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    entries: Vec<(String, Entry)>,
}

/// The version of the stored form.
const VERSION: f64 = 1.0;

impl Progress {
    /// Exercise `id`'s progress (nothing yet: all zero).
    pub fn entry(&self, id: &str) -> Entry {
        self.entries
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, e)| *e)
            .unwrap_or_default()
    }

    /// A finished attempt at exercise `id`: its score and whether it passed. Returns the
    /// attempt's number.
    pub fn record(&mut self, id: &str, score: u32, passed: bool) -> u32 {
        let index = match self.entries.iter().position(|(k, _)| k == id) {
            Some(i) => i,
            None => {
                self.entries.push((id.to_string(), Entry::default()));
                self.entries.len() - 1
            }
        };
        let entry = &mut self.entries[index].1;
        entry.attempts = entry.attempts.saturating_add(1);
        entry.best = entry.best.max(score);
        entry.passed |= passed;
        entry.attempts
    }

    /// The stored form: `{"version":1,"exercises":{"bad-deploy":{"best":…,"attempts":…,"passed":…}}}`.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"version\":1,\"exercises\":{");
        for (i, (id, e)) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json::write_string(&mut out, id);
            out.push_str(&format!(
                ":{{\"best\":{},\"attempts\":{},\"passed\":{}}}",
                e.best, e.attempts, e.passed
            ));
        }
        out.push_str("}}");
        out
    }

    /// Reads the stored form; anything else (another version, a damaged entry) reads as no
    /// progress for what it cannot read.
    pub fn from_json(text: &str) -> Self {
        let mut progress = Progress::default();
        let Ok(value) = json::parse(text) else {
            return progress;
        };
        let Some(root) = value.as_object() else {
            return progress;
        };
        if root.get("version").and_then(Value::as_f64) != Some(VERSION) {
            return progress;
        }
        let Some(exercises) = root.get("exercises").and_then(Value::as_object) else {
            return progress;
        };
        for (id, e) in exercises.iter() {
            let Some(e) = e.as_object() else { continue };
            let count = |k: &str| {
                e.get(k)
                    .and_then(Value::as_f64)
                    .filter(|x| x.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(x))
                    .map(|x| x as u32)
            };
            let passed = matches!(e.get("passed"), Some(Value::Bool(true)));
            if let (Some(best), Some(attempts)) = (count("best"), count("attempts")) {
                progress.entries.push((
                    id.clone(),
                    Entry {
                        best: best.min(100),
                        attempts,
                        passed,
                    },
                ));
            }
        }
        progress
    }
}

/// The browser storage key of a course's progress (`course` as written; empty for a page
/// without a course).
pub fn storage_key(course: &str) -> String {
    format!("oncall-sim:progress:{course}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &str) -> Vec<(String, String)> {
        crate::link::parse_query(q)
    }

    #[test]
    fn a_lesson_pages_parameters_are_read_and_wrong_values_named() {
        let (o, notices) = read_course(&pairs(
            "course=bad-deploy,viral-surge,bad-deploy&reveal=after-pass&attempts=3&briefing=1",
        ));
        assert_eq!(o.exercises, [ScenarioId::BadDeploy, ScenarioId::ViralSurge]);
        assert_eq!(o.key, "bad-deploy,viral-surge,bad-deploy");
        assert_eq!(
            (o.reveal, o.attempts, o.briefing),
            (Reveal::AfterPass, Some(3), true)
        );
        assert!(notices.is_empty(), "{notices:?}");
        let (o, notices) = read_course(&pairs(
            "course=bad-deploy,nope&reveal=later&attempts=0&briefing=yes",
        ));
        assert_eq!(o.exercises, [ScenarioId::BadDeploy]);
        assert_eq!(
            (o.reveal, o.attempts, o.briefing),
            (Reveal::Always, None, false)
        );
        assert_eq!(notices.len(), 4, "{notices:?}");
        assert!(notices[0].contains("course") && notices[0].contains("nope"));
        assert!(notices[1].contains("always, after-pass, never"));
        assert!(notices[2].contains("1 to 99"));
        assert!(notices[3].contains("1, 0"));
    }

    #[test]
    fn the_answer_shows_after_a_pass_or_when_the_attempts_are_used_up() {
        let (o, _) = read_course(&pairs("reveal=after-pass&attempts=2"));
        let mut p = Progress::default();
        assert!(!o.reveals(&p.entry("bad-deploy")));
        assert_eq!(p.record("bad-deploy", 40, false), 1);
        assert!(!o.reveals(&p.entry("bad-deploy")));
        assert_eq!(p.record("bad-deploy", 55, false), 2);
        assert!(o.reveals(&p.entry("bad-deploy")), "attempts used up");
        let mut q = Progress::default();
        q.record("bad-deploy", 80, true);
        assert!(o.reveals(&q.entry("bad-deploy")));
        let (never, _) = read_course(&pairs("reveal=never"));
        assert!(!never.reveals(&q.entry("bad-deploy")));
        assert!(CourseOptions::default().reveals(&Entry::default()));
    }

    #[test]
    fn progress_keeps_the_best_score_and_counts_attempts_through_storage() {
        let mut p = Progress::default();
        p.record("bad-deploy", 70, true);
        p.record("bad-deploy", 40, false);
        p.record("viral-surge", 20, false);
        let e = p.entry("bad-deploy");
        assert_eq!((e.best, e.attempts, e.passed), (70, 2, true));
        let text = p.to_json();
        assert_eq!(
            text,
            "{\"version\":1,\"exercises\":{\"bad-deploy\":{\"best\":70,\"attempts\":2,\"passed\":true},\
             \"viral-surge\":{\"best\":20,\"attempts\":1,\"passed\":false}}}"
        );
        assert_eq!(Progress::from_json(&text), p);
        for damaged in [
            "",
            "[]",
            "{\"version\":2,\"exercises\":{}}",
            "{\"version\":1}",
        ] {
            assert_eq!(
                Progress::from_json(damaged),
                Progress::default(),
                "{damaged}"
            );
        }
        let (course, _) = read_course(&pairs("course=bad-deploy,viral-surge"));
        assert!(!course.complete(&p));
        p.record("viral-surge", 90, true);
        assert!(course.complete(&p));
    }
}
