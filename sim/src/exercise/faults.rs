//! The registry of fault kinds an exercise's timeline can inject: each kind's name in the
//! file, its fields (what they mean, whether the seed may draw them from a range, and what
//! is allowed) and what it needs (the request engine, regions). The conversion between its
//! fields and the scenario's injects is [`super::injects`]'s: the registry stands below the
//! scenario, so that an action (an injected fault) can name a kind.

/// What a field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A minute of the run (checked against the exercise's length).
    Minute,
    /// A whole number.
    Whole,
    /// Any number.
    Number,
}

/// One field of a fault kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub kind: FieldKind,
    /// Smallest and largest allowed value.
    pub lo: f64,
    pub hi: f64,
    /// Whether the seed may draw it from a range `[lo, hi]` (otherwise one number).
    pub drawn: bool,
}

/// What a fault kind needs of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    /// The request engine (`service.engine` `requests`).
    RequestEngine,
    /// A region (the field `region` names one of the run's regions).
    Region,
}

/// A fault kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaultKind {
    pub name: &'static str,
    pub fields: &'static [Field],
    pub needs: Needs,
    /// Whether two of this kind may overlap in time.
    pub stacks: bool,
    /// The field giving its length in minutes, if it lasts (`at` starts it).
    pub lasts: Option<&'static str>,
}

const fn drawn(name: &'static str, kind: FieldKind, lo: f64, hi: f64) -> Field {
    Field {
        name,
        kind,
        lo,
        hi,
        drawn: true,
    }
}

const fn fixed(name: &'static str, kind: FieldKind, lo: f64, hi: f64) -> Field {
    Field {
        name,
        kind,
        lo,
        hi,
        drawn: false,
    }
}

use FieldKind::{Minute, Number, Whole};

const AT: Field = drawn("at", Minute, 0.0, 1439.0);
const MINUTES: Field = drawn("minutes", Whole, 1.0, 1440.0);
const REGION: Field = fixed("region", Whole, 0.0, 2.0);

/// Every fault kind, in the order the documentation lists them.
pub const FAULT_KINDS: &[FaultKind] = &[
    FaultKind {
        name: "bad_deploy",
        fields: &[
            AT,
            drawn("rollout_minutes", Whole, 1.0, 120.0),
            drawn("severity", Number, 0.0, 20.0),
        ],
        needs: Needs::Nothing,
        stacks: false,
        lasts: Some("rollout_minutes"),
    },
    FaultKind {
        name: "traffic_surge",
        fields: &[
            AT,
            drawn("peak", Number, 1.0, 20.0),
            drawn("ramp_minutes", Number, 0.1, 600.0),
            drawn("hold_minutes", Number, 0.0, 1440.0),
            fixed("decay_minutes", Number, 0.1, 1440.0),
        ],
        needs: Needs::Nothing,
        stacks: true,
        lasts: None,
    },
    FaultKind {
        name: "traffic_drift",
        fields: &[
            drawn("level", Number, -0.9, 5.0),
            drawn("tau_minutes", Number, 1.0, 10000.0),
        ],
        needs: Needs::Nothing,
        stacks: true,
        lasts: None,
    },
    FaultKind {
        name: "cache_flush",
        fields: &[AT, drawn("share", Number, 0.0, 1.0)],
        needs: Needs::Nothing,
        stacks: true,
        lasts: None,
    },
    FaultKind {
        name: "slow_instance",
        fields: &[
            AT,
            MINUTES,
            drawn("factor", Number, 1.0, 100.0),
            fixed("among", Whole, 1.0, 1000.0),
        ],
        needs: Needs::RequestEngine,
        stacks: false,
        lasts: Some("minutes"),
    },
    FaultKind {
        name: "hot_key",
        fields: &[AT, MINUTES, drawn("share", Number, 0.0, 1.0)],
        needs: Needs::RequestEngine,
        stacks: false,
        lasts: Some("minutes"),
    },
    FaultKind {
        name: "zone_outage",
        fields: &[REGION, AT, drawn("share", Number, 0.0, 1.0), MINUTES],
        needs: Needs::Region,
        stacks: false,
        lasts: Some("minutes"),
    },
    FaultKind {
        name: "database_failure",
        fields: &[REGION, AT, MINUTES],
        needs: Needs::Region,
        stacks: false,
        lasts: Some("minutes"),
    },
    FaultKind {
        name: "zone_outage_or_database_failure",
        fields: &[
            REGION,
            AT,
            fixed("zone_outage_chance", Number, 0.0, 1.0),
            drawn("share", Number, 0.0, 1.0),
            MINUTES,
        ],
        needs: Needs::Region,
        stacks: false,
        lasts: Some("minutes"),
    },
    FaultKind {
        name: "dependency_latency",
        fields: &[AT, MINUTES, drawn("extra_ms", Number, 0.0, 60000.0)],
        needs: Needs::Nothing,
        stacks: true,
        lasts: Some("minutes"),
    },
    FaultKind {
        name: "capacity_cut",
        fields: &[AT, MINUTES, drawn("share", Number, 0.0, 0.95)],
        needs: Needs::Nothing,
        stacks: true,
        lasts: Some("minutes"),
    },
    FaultKind {
        name: "noisy_neighbour",
        fields: &[AT, MINUTES, drawn("share", Number, 0.0, 0.9)],
        needs: Needs::Nothing,
        stacks: true,
        lasts: Some("minutes"),
    },
];

/// The names of the fault kinds, in listing order.
pub fn names() -> Vec<&'static str> {
    FAULT_KINDS.iter().map(|k| k.name).collect()
}

/// The fault kind called `name`.
pub fn kind(name: &str) -> Option<&'static FaultKind> {
    FAULT_KINDS.iter().find(|k| k.name == name)
}

/// A field's value: `(lo, hi)`, equal for one number.
pub type Span = (f64, f64);
