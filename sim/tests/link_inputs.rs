//! Links at their edges: the order of the parameters never matters, rules between parameters
//! are named with what is allowed, and the work and the notices stay bounded.

use oncall_sim::autoscale::PolicyId;
use oncall_sim::ids::ScenarioId;
use oncall_sim::message::QUOTE_CHARS;
use oncall_sim::params::{parse_number, parse_whole};
use oncall_sim::share::{owned_pairs, Notice, NoticeKind, ShareState, MAX_LINK_CHARS, MAX_NOTICES};
use oncall_sim::{Action, ActionKind, Simulation};

fn read(pairs: &[(&str, &str)]) -> (ShareState, Vec<Notice>) {
    let (state, notices, rest) = ShareState::from_pairs(&owned_pairs(pairs));
    assert!(rest.is_empty(), "{rest:?}");
    (state, notices)
}

/// Reads `pairs` in the order given and reversed: the same state and notices either way.
fn read_both_orders(pairs: &[(&str, &str)]) -> (ShareState, Vec<Notice>) {
    let forward = read(pairs);
    let reversed: Vec<(&str, &str)> = pairs.iter().rev().copied().collect();
    let backward = read(&reversed);
    assert_eq!(forward.0, backward.0, "{pairs:?}");
    let named = |n: &[Notice]| {
        let mut v: Vec<(String, String)> = n
            .iter()
            .map(|n| (n.param.clone(), n.value.clone()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(named(&forward.1), named(&backward.1), "{pairs:?}");
    forward
}

#[test]
fn elastic_min_and_max_nodes_equal_survive_a_round_trip_in_any_order() {
    let (state, notices) = read_both_orders(&[
        ("autoscaler", "elastic"),
        ("seed", "1"),
        ("elastic.min_nodes", "1"),
        ("elastic.max_nodes", "1"),
    ]);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(state.autoscaler, PolicyId::Elastic);
    assert_eq!(
        (
            state.policy.elastic.min_nodes,
            state.policy.elastic.max_nodes
        ),
        (1, 1)
    );
    // The link the page writes puts max_nodes before min_nodes; reopened, it is the same.
    let written = state.to_pairs();
    let names: Vec<&str> = written.iter().map(|(k, _)| k.as_str()).collect();
    let (max_at, min_at) = (
        names
            .iter()
            .position(|n| *n == "elastic.max_nodes")
            .unwrap(),
        names
            .iter()
            .position(|n| *n == "elastic.min_nodes")
            .unwrap(),
    );
    assert!(max_at < min_at, "{names:?}");
    let (again, notices, _) = ShareState::from_pairs(&written);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(again, state);
    state.simulation(1).unwrap();
}

#[test]
fn cloud_run_act_thresholds_survive_a_round_trip_in_any_order() {
    let (state, notices) = read_both_orders(&[
        ("autoscaler", "cloud-run"),
        ("cloud_run.act_cpu_high", "0.6"),
        ("cloud_run.act_cpu_low", "0.5"),
    ]);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(state.policy.cloud_run.act_cpu_high, 0.6);
    assert_eq!(state.policy.cloud_run.act_cpu_low, 0.5);
    let (again, notices, _) = ShareState::from_pairs(&state.to_pairs());
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(again, state);
}

#[test]
fn a_broken_rule_names_the_rule_and_keeps_every_other_value() {
    // max_nodes 1 with the default min_nodes 2: the link's max_nodes is blamed, with what it
    // must be, and falls back; the seed, the policy and the other setting are kept.
    let (state, notices) = read_both_orders(&[
        ("autoscaler", "elastic"),
        ("seed", "1"),
        ("elastic.acq_frequency", "5"),
        ("elastic.max_nodes", "1"),
    ]);
    assert_eq!(notices.len(), 1, "{notices:?}");
    let n = &notices[0];
    assert_eq!(n.kind, NoticeKind::Rule);
    assert_eq!(
        (n.param.as_str(), n.value.as_str()),
        ("elastic.max_nodes", "1")
    );
    let text = n.allowed.to_string();
    assert_eq!(text, "must be at least elastic.min_nodes (2)");
    assert_eq!(state.policy.elastic.max_nodes, 20);
    assert_eq!(state.policy.elastic.acq_frequency, 5);
    assert_eq!(state.seed, Some(1));
    assert_eq!(state.autoscaler, PolicyId::Elastic);

    // Both given and contradicting: each is named with the other's value, and both fall back.
    let (state, notices) = read_both_orders(&[
        ("cloud_run.act_cpu_low", "0.8"),
        ("cloud_run.act_cpu_high", "0.6"),
        ("cloud_run.tolerance", "0.2"),
    ]);
    let texts: Vec<String> = notices
        .iter()
        .map(|n| format!("{} {} {}", n.param, n.value, n.allowed))
        .collect();
    assert_eq!(notices.len(), 2, "{texts:?}");
    assert!(
        texts.contains(
            &"cloud_run.act_cpu_low 0.8 must be below cloud_run.act_cpu_high (0.6)".to_string()
        ),
        "{texts:?}"
    );
    assert!(
        texts.contains(
            &"cloud_run.act_cpu_high 0.6 must be above cloud_run.act_cpu_low (0.8)".to_string()
        ),
        "{texts:?}"
    );
    assert_eq!(state.policy.cloud_run.act_cpu_low, 0.7);
    assert_eq!(state.policy.cloud_run.act_cpu_high, 0.9);
    assert_eq!(state.policy.cloud_run.tolerance, 0.2);
    // What the link gives is always a run that builds.
    for id in PolicyId::ALL {
        let mut s = state.clone();
        s.autoscaler = *id;
        s.simulation(3).unwrap();
    }
}

#[test]
fn a_long_action_log_is_applied_in_linear_time() {
    // 150,000 actions at minute 0: applied one after another from the front of the queue.
    let scenario = oncall_sim::exercise::scenario(ScenarioId::FreePlay);
    let mut sim = Simulation::new(&scenario, 1, Default::default());
    let n = 150_000;
    sim.schedule((0..n).map(|i| Action {
        minute: 0,
        kind: ActionKind::CacheTtlS(1 + i % 3600),
    }));
    sim.step();
    assert_eq!(sim.actions().len(), n as usize);
    assert_eq!(sim.settings().cache_ttl_s, 1 + (n - 1) % 3600);
}

#[test]
fn a_link_longer_than_the_limit_is_read_up_to_it_with_a_notice() {
    let actions: Vec<String> = (0..150_000)
        .map(|i| format!("{}:warm_cache", i % 1000))
        .collect();
    let list = actions.join(",");
    let (state, notices) = read(&[
        ("scenario", "bad-deploy"),
        ("seed", "4"),
        ("actions", &list),
    ]);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].kind, NoticeKind::TooLong);
    let text = notices[0].allowed.to_string();
    assert!(text.contains(&MAX_LINK_CHARS.to_string()), "{text}");
    // What fits is kept, whole actions only.
    assert_eq!(state.scenario, ScenarioId::BadDeploy);
    assert_eq!(state.seed, Some(4));
    let kept = state.actions.len();
    assert!(
        kept > 1000 && kept * "0:warm_cache,".len() <= MAX_LINK_CHARS + 1000,
        "{kept}"
    );
    assert!(state
        .actions
        .iter()
        .all(|a| a.kind == ActionKind::WarmCache));
    // Under the limit, nothing is left out.
    let fits = actions[..1000].join(",");
    let (state, notices) = read(&[("actions", &fits)]);
    assert!(notices.is_empty());
    assert_eq!(state.actions.len(), 1000);
}

#[test]
fn notices_are_bounded_and_count_the_rest() {
    let bad = vec!["x"; 100_000].join(",");
    let (_, notices) = read(&[("actions", &bad)]);
    // The length first, then the entries up to the limit of notices, then the rest counted.
    assert_eq!(notices.len(), MAX_NOTICES + 1);
    assert_eq!(notices[0].kind, NoticeKind::TooLong);
    assert!(notices[1..MAX_NOTICES]
        .iter()
        .all(|n| n.kind == NoticeKind::Invalid));
    let last = notices.last().unwrap();
    assert_eq!(last.kind, NoticeKind::More);
    // The entries that fit within the limit: "x," each; 20 - 1 listed (one slot went to the
    // length notice).
    let read_entries = (MAX_LINK_CHARS - "actions".len() - 2) / 2;
    let expected = read_entries - (MAX_NOTICES - 1);
    assert_eq!(
        last.allowed.to_string(),
        format!("and {expected} more problems with the link, not listed")
    );
    // Under the size limit: 1000 bad entries give 20 notices and one that counts 980 more.
    let bad = vec!["x"; 1000].join(",");
    let (_, notices) = read(&[("actions", &bad)]);
    assert_eq!(notices.len(), MAX_NOTICES + 1);
    assert!(notices[MAX_NOTICES]
        .allowed
        .to_string()
        .starts_with("and 980 more"));
}

#[test]
fn a_long_entry_is_quoted_short() {
    let entry = format!("3:{}", "z".repeat(20_000));
    let (_, notices) = read(&[("actions", &entry)]);
    assert_eq!(notices.len(), 1);
    assert!(notices[0].value.chars().count() <= QUOTE_CHARS + 1);
    let text = notices[0].allowed.to_string();
    assert!(
        text.chars().count() < 2 * QUOTE_CHARS + 100,
        "{} chars",
        text.chars().count()
    );
    assert!(
        text.contains("unknown action") && text.contains('…'),
        "{text}"
    );
    // The same for a malformed entry and a bad minute.
    for entry in [
        "q".repeat(20_000),
        format!("{}:rollback", "9".repeat(20_000)),
    ] {
        let (_, notices) = read(&[("actions", &entry)]);
        let text = notices[0].allowed.to_string();
        assert!(
            text.chars().count() < 3 * QUOTE_CHARS + 150,
            "{} chars",
            text.chars().count()
        );
    }
}

#[test]
fn links_and_the_command_line_read_numbers_with_one_parser() {
    // No plus sign, no blanks, no words: "+5" is refused in a link as on the command line.
    for text in ["+5", " 5", "5 ", "", "0x10", "1_000", "-1", "5.0", "1e3"] {
        assert_eq!(parse_whole(text), None, "{text:?}");
    }
    assert_eq!(parse_whole("0"), Some(0));
    assert_eq!(parse_whole("4294967295"), Some(4_294_967_295));
    for text in [
        "+5", "+0.5", " 1", "inf", "NaN", "infinity", "1e", "e5", ".", "-", "1.2.3", "--1", "0x1",
    ] {
        assert_eq!(parse_number(text), None, "{text:?}");
    }
    for (text, x) in [
        ("5", 5.0),
        ("-0.5", -0.5),
        (".5", 0.5),
        ("5.", 5.0),
        ("1e3", 1000.0),
        ("2.5E-2", 0.025),
        ("1e+2", 100.0),
    ] {
        assert_eq!(parse_number(text), Some(x), "{text:?}");
    }
    // Every number a link writes reads back, the longest included.
    for x in [
        5e-324,
        f64::MIN_POSITIVE,
        1e-320,
        f64::MAX,
        -f64::MAX,
        0.1 + 0.2,
    ] {
        let text = format!("{x}");
        assert_eq!(parse_number(&text), Some(x), "{text}");
    }
    let (state, notices) = read(&[("price_per_instance_hour", "1e-320")]);
    assert!(notices.is_empty());
    let (again, notices, _) = ShareState::from_pairs(&state.to_pairs());
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(again, state);
    let (state, notices) = read(&[
        ("seed", "+5"),
        ("t", "+5"),
        ("workers_per_instance", "+8"),
        (
            "actions",
            "+3:rollback,3:min_instances=+4,4:shed_low_priority=+0.5",
        ),
    ]);
    let named: Vec<&str> = notices.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(
        named,
        [
            "seed",
            "t",
            "workers_per_instance",
            "actions",
            "actions",
            "actions"
        ]
    );
    assert_eq!(state.seed, None);
    assert_eq!(state.params.workers_per_instance, 16);
    assert!(state.actions.is_empty());
}
