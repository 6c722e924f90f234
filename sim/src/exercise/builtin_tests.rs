//! The built-in scenarios' draws: the same for a seed, spread over their ranges, and the
//! ranges the sources panel states.

use crate::exercise::scenario as get;
use crate::ids::ScenarioId;
use crate::region_action::RegionAction;
use crate::relations::RelationId;
use crate::scenario::*;

#[test]
fn every_id_resolves() {
    assert_eq!(crate::exercise::scenarios().len(), 7);
    for s in crate::exercise::scenarios() {
        assert_eq!(crate::exercise::scenario_by_id(s.id.as_str()).unwrap(), s);
    }
    assert!(crate::exercise::scenario_by_id("nope").is_none());
}

fn deploy(seed: u32) -> (u32, u32, f64) {
    match get(ScenarioId::BadDeploy)
        .first(|i| match i {
            Inject::BadDeploy(d) => Some(*d),
            _ => None,
        })
        .unwrap()
        .draw(seed)
    {
        Scripted::Deploy {
            minute,
            bad,
            rollout_minutes,
            severity,
        } => {
            assert!(bad);
            (minute, rollout_minutes, severity)
        }
        other => panic!("{other:?}"),
    }
}

fn flush(seed: u32) -> (u32, f64) {
    match get(ScenarioId::CacheFlush)
        .first(|i| match i {
            Inject::CacheFlush(d) => Some(*d),
            _ => None,
        })
        .unwrap()
        .draw(seed)
    {
        Scripted::CacheFlush { minute, share } => (minute, share),
        other => panic!("{other:?}"),
    }
}

#[test]
fn twists_are_the_same_for_a_seed_and_differ_across_seeds() {
    for seed in [7, 42, 1] {
        assert_eq!(deploy(seed), deploy(seed));
        assert_eq!(flush(seed), flush(seed));
        let drift = get(ScenarioId::FreePlay)
            .first(|i| match i {
                Inject::TrafficDrift(d) => Some(*d),
                _ => None,
            })
            .unwrap();
        assert_eq!(drift.draw(seed), drift.draw(seed));
        let s = get(ScenarioId::BadDeploy);
        assert_eq!(s.script(seed), s.script(seed));
    }
    // Seeds 7 and 42: the bad build goes out at 09:08 over 5 minutes failing 1.15 × the
    // model's share, or at 09:07 over 5 minutes failing 0.86 ×; the flush comes at
    // minute 19 (89 %) or 14 (83 %).
    assert_ne!(deploy(7), deploy(42));
    assert_ne!(deploy(7).0, deploy(42).0);
    assert_ne!(flush(7), flush(42));
    assert_ne!(flush(7).0, flush(42).0);
    let drift = get(ScenarioId::FreePlay)
        .first(|i| match i {
            Inject::TrafficDrift(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    assert_ne!(drift.draw(7), drift.draw(42));
    // The other scenarios have no script.
    assert!(get(ScenarioId::FreePlay).script(7).is_empty());
    assert!(get(ScenarioId::ViralSurge).script(7).is_empty());
}

#[test]
fn twists_stay_within_their_ranges_and_cover_them() {
    let d = get(ScenarioId::BadDeploy)
        .first(|i| match i {
            Inject::BadDeploy(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    let f = get(ScenarioId::CacheFlush)
        .first(|i| match i {
            Inject::CacheFlush(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    let r = get(ScenarioId::FreePlay)
        .first(|i| match i {
            Inject::TrafficDrift(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    let mut starts = std::collections::BTreeSet::new();
    let mut lengths = std::collections::BTreeSet::new();
    let mut flush_minutes = std::collections::BTreeSet::new();
    let (mut sev_lo, mut sev_hi) = (f64::MAX, f64::MIN);
    let (mut level_lo, mut level_hi) = (f64::MAX, f64::MIN);
    for seed in (0..20_000u32).map(|k| k.wrapping_mul(2_654_435_761)) {
        let (start, length, severity) = deploy(seed);
        assert!((d.start_min.0..=d.start_min.1).contains(&start), "{seed}");
        assert!(
            (d.rollout_min.0..=d.rollout_min.1).contains(&length),
            "{seed}"
        );
        assert!(
            severity >= d.severity.0 && severity < d.severity.1,
            "{seed}"
        );
        starts.insert(start);
        lengths.insert(length);
        (sev_lo, sev_hi) = (sev_lo.min(severity), sev_hi.max(severity));
        let (minute, share) = flush(seed);
        assert!((f.minute.0..=f.minute.1).contains(&minute), "{seed}");
        assert!(share >= f.share.0 && share < f.share.1, "{seed}");
        flush_minutes.insert(minute);
        let drift = r.draw(seed);
        assert!(drift.level >= r.level.0 && drift.level < r.level.1);
        assert!(drift.tau_min >= r.tau_min.0 && drift.tau_min < r.tau_min.1);
        (level_lo, level_hi) = (level_lo.min(drift.level), level_hi.max(drift.level));
    }
    // Every whole minute of each range comes up, and the shares spread over theirs.
    assert_eq!(starts.len() as u32, d.start_min.1 - d.start_min.0 + 1);
    assert_eq!(lengths.len() as u32, d.rollout_min.1 - d.rollout_min.0 + 1);
    assert_eq!(flush_minutes.len() as u32, f.minute.1 - f.minute.0 + 1);
    assert!(sev_lo < d.severity.0 + 0.01 && sev_hi > d.severity.1 - 0.01);
    assert!(level_lo < r.level.0 + 0.01 && level_hi > r.level.1 - 0.01);
}

#[test]
fn the_sources_panel_states_the_ranges_the_scenarios_draw_from() {
    let text = crate::catalog::relations_en::texts(RelationId::ScenarioTwists).formula;
    let d = get(ScenarioId::BadDeploy)
        .first(|i| match i {
            Inject::BadDeploy(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    let f = get(ScenarioId::CacheFlush)
        .first(|i| match i {
            Inject::CacheFlush(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    let r = get(ScenarioId::FreePlay)
        .first(|i| match i {
            Inject::TrafficDrift(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    let v = get(ScenarioId::ViralSurge)
        .first(|i| match i {
            Inject::TrafficSurge(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    let o = get(ScenarioId::RegionalOutage)
        .first(|i| match i {
            Inject::RegionFailure(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    assert_eq!(o.zone_outage_chance, 0.75, "3 seeds in 4");
    for needle in [
        format!(
            "rollout starts at minute {}–{}",
            d.start_min.0, d.start_min.1
        ),
        format!("lasts {}–{} min", d.rollout_min.0, d.rollout_min.1),
        format!("fails {}–{} ×", d.severity.0, d.severity.1),
        format!("at minute {}–{} (", f.minute.0, f.minute.1),
        format!("{}–{} % of the cache", f.share.0 * 100.0, f.share.1 * 100.0),
        format!("level {} % to +{} %", r.level.0 * 100.0, r.level.1 * 100.0),
        format!("τ {}–{} min", r.tau_min.0, r.tau_min.1),
        format!("start at minute {}–{}", v.start_min.0, v.start_min.1),
        format!("peak ×{}–×{}", v.peak.0, v.peak.1),
        format!("ramp {}–{} min", v.ramp_min.0, v.ramp_min.1),
        format!("hold {}–{} min", v.hold_min.0, v.hold_min.1),
        format!("τ = {} min", v.decay_min),
        format!(
            "regional outage: at minute {}–{}",
            o.start_min.0, o.start_min.1
        ),
        format!(
            "loses {}–{} % of its instances",
            o.share.0 * 100.0,
            o.share.1 * 100.0
        ),
        format!("back after {}–{} min", o.duration_min.0, o.duration_min.1),
        {
            let d = get(ScenarioId::SlowInstance)
                .first(|i| match i {
                    Inject::SlowInstance(d) => Some(*d),
                    _ => None,
                })
                .unwrap();
            format!(
                "one of {} instances at minute {}–{} (11:58–12:05) for {}–{} min, service times ×{}–×{}",
                d.among, d.start_min.0, d.start_min.1, d.minutes.0, d.minutes.1, d.factor.0, d.factor.1
            )
        },
        {
            let d = get(ScenarioId::HotKey)
                .first(|i| match i {
                    Inject::HotKey(d) => Some(*d),
                    _ => None,
                })
                .unwrap();
            format!(
                "at minute {}–{} (11:48–11:55) for {}–{} min, carrying {}–{} %",
                d.start_min.0,
                d.start_min.1,
                d.minutes.0,
                d.minutes.1,
                d.share.0 * 100.0,
                d.share.1 * 100.0
            )
        },
    ] {
        let needle = needle.replace('-', "−");
        assert!(text.contains(&needle), "{needle:?} not in {text:?}");
    }
}

#[test]
fn surge_depends_on_seed_only() {
    let d = get(ScenarioId::ViralSurge)
        .first(|i| match i {
            Inject::TrafficSurge(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    assert_eq!(d.draw(1), d.draw(1));
    assert_ne!(d.draw(1), d.draw(2));
}

#[test]
fn the_same_seed_gives_the_same_failure_and_others_differ() {
    let d = get(ScenarioId::RegionalOutage)
        .first(|i| match i {
            Inject::RegionFailure(d) => Some(*d),
            _ => None,
        })
        .unwrap();
    assert_eq!(d.draw(7), d.draw(7));
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..200u32 {
        let s = d.draw(seed);
        let Scripted::RegionFailure { minute, action } = s[0] else {
            panic!("{s:?}")
        };
        assert!((d.start_min.0..=d.start_min.1).contains(&minute));
        if let RegionAction::ZoneOutage { share, .. } = action {
            assert!(share >= d.share.0 && share < d.share.1);
        }
        let Scripted::RegionFailure { minute: back, .. } = s[1] else {
            panic!("{s:?}")
        };
        assert!(back >= minute + d.duration_min.0 && back <= minute + d.duration_min.1);
        kinds.insert(action.name());
    }
    assert_eq!(kinds.len(), 2, "both failures come up");
}

#[test]
fn the_built_in_files_are_in_canonical_form_and_say_what_the_catalog_says() {
    use crate::catalog::en;
    for id in ScenarioId::ALL {
        let exercise = crate::exercise::builtin(*id);
        assert_eq!(exercise.id, id.as_str());
        // Exporting a built-in exercise gives its file back, byte for byte.
        assert_eq!(
            crate::exercise::file::write(&exercise),
            crate::exercise::builtin_text(*id),
            "{id}"
        );
        // The console and the command line show the catalog's words for a built-in
        // exercise (so that they can be translated); its file carries the same English.
        assert_eq!(exercise.title, en::scenario_title(*id), "{id}");
        assert_eq!(exercise.briefing, en::scenario_briefing(*id), "{id}");
        assert_eq!(exercise.lesson, en::template(lesson(*id)), "{id}");
    }
}
