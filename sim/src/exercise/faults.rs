//! The registry of fault kinds an exercise's timeline can inject: each kind's name in the
//! file, its fields (what they mean, whether the seed may draw them from a range, and what
//! is allowed), what it needs (the request engine, regions), and the conversion between its
//! fields and the scenario's [`Inject`].

use crate::scenario::{
    DeployDraw, DriftDraw, FailureDraw, FlushDraw, HotKeyDraw, Inject, SlowDraw, SurgeDraw,
    WindowDraw,
};

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

fn whole(span: Span) -> (u32, u32) {
    (span.0 as u32, span.1 as u32)
}

/// The inject of kind `kind` with field values `v` (in the kind's field order, checked).
pub fn inject(kind: &FaultKind, v: &[Span]) -> Inject {
    let region = |s: Span| s.0 as u8;
    match kind.name {
        "bad_deploy" => Inject::BadDeploy(DeployDraw {
            start_min: whole(v[0]),
            rollout_min: whole(v[1]),
            severity: v[2],
        }),
        "traffic_surge" => Inject::TrafficSurge(SurgeDraw {
            start_min: v[0],
            peak: v[1],
            ramp_min: v[2],
            hold_min: v[3],
            decay_min: v[4].0,
        }),
        "traffic_drift" => Inject::TrafficDrift(DriftDraw {
            level: v[0],
            tau_min: v[1],
        }),
        "cache_flush" => Inject::CacheFlush(FlushDraw {
            minute: whole(v[0]),
            share: v[1],
        }),
        "slow_instance" => Inject::SlowInstance(SlowDraw {
            start_min: whole(v[0]),
            minutes: whole(v[1]),
            factor: v[2],
            among: v[3].0 as u32,
        }),
        "hot_key" => Inject::HotKey(HotKeyDraw {
            start_min: whole(v[0]),
            minutes: whole(v[1]),
            share: v[2],
        }),
        "zone_outage" => Inject::RegionFailure(FailureDraw {
            region: region(v[0]),
            start_min: whole(v[1]),
            zone_outage_chance: 1.0,
            share: v[2],
            duration_min: whole(v[3]),
        }),
        "database_failure" => Inject::RegionFailure(FailureDraw {
            region: region(v[0]),
            start_min: whole(v[1]),
            zone_outage_chance: 0.0,
            share: (0.0, 0.0),
            duration_min: whole(v[2]),
        }),
        "zone_outage_or_database_failure" => Inject::RegionFailure(FailureDraw {
            region: region(v[0]),
            start_min: whole(v[1]),
            zone_outage_chance: v[2].0,
            share: v[3],
            duration_min: whole(v[4]),
        }),
        name => {
            let w = WindowDraw {
                start_min: whole(v[0]),
                minutes: whole(v[1]),
                level: v[2],
            };
            match name {
                "dependency_latency" => Inject::DependencyLatency(w),
                "capacity_cut" => Inject::CapacityCut(w),
                _ => Inject::NoisyNeighbour(w),
            }
        }
    }
}

/// The fault kind and field values of `inject` (the inverse of [`inject`]).
pub fn fields_of(inject: &Inject) -> (&'static FaultKind, Vec<Span>) {
    let w = |(lo, hi): (u32, u32)| (f64::from(lo), f64::from(hi));
    let one = |x: f64| (x, x);
    let (name, values) = match inject {
        Inject::BadDeploy(d) => (
            "bad_deploy",
            vec![w(d.start_min), w(d.rollout_min), d.severity],
        ),
        Inject::TrafficSurge(d) => (
            "traffic_surge",
            vec![
                d.start_min,
                d.peak,
                d.ramp_min,
                d.hold_min,
                one(d.decay_min),
            ],
        ),
        Inject::TrafficDrift(d) => ("traffic_drift", vec![d.level, d.tau_min]),
        Inject::CacheFlush(d) => ("cache_flush", vec![w(d.minute), d.share]),
        Inject::SlowInstance(d) => (
            "slow_instance",
            vec![
                w(d.start_min),
                w(d.minutes),
                d.factor,
                one(f64::from(d.among)),
            ],
        ),
        Inject::HotKey(d) => ("hot_key", vec![w(d.start_min), w(d.minutes), d.share]),
        Inject::RegionFailure(d) => {
            let region = one(f64::from(d.region));
            if d.zone_outage_chance >= 1.0 {
                (
                    "zone_outage",
                    vec![region, w(d.start_min), d.share, w(d.duration_min)],
                )
            } else if d.zone_outage_chance <= 0.0 {
                (
                    "database_failure",
                    vec![region, w(d.start_min), w(d.duration_min)],
                )
            } else {
                (
                    "zone_outage_or_database_failure",
                    vec![
                        region,
                        w(d.start_min),
                        one(d.zone_outage_chance),
                        d.share,
                        w(d.duration_min),
                    ],
                )
            }
        }
        Inject::DependencyLatency(d) => ("dependency_latency", window(d)),
        Inject::CapacityCut(d) => ("capacity_cut", window(d)),
        Inject::NoisyNeighbour(d) => ("noisy_neighbour", window(d)),
    };
    let kind = kind(name).expect("every inject has its kind in the registry");
    (kind, values)
}

fn window(d: &WindowDraw) -> Vec<Span> {
    vec![
        (f64::from(d.start_min.0), f64::from(d.start_min.1)),
        (f64::from(d.minutes.0), f64::from(d.minutes.1)),
        d.level,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_converts_both_ways() {
        for kind in FAULT_KINDS {
            let values: Vec<Span> = kind
                .fields
                .iter()
                .map(|f| {
                    let mid = (f.lo + f.hi) / 2.0;
                    let mid = if f.kind == FieldKind::Number {
                        mid
                    } else {
                        mid.floor()
                    };
                    (mid, if f.drawn { f.hi } else { mid })
                })
                .collect();
            let inject = inject(kind, &values);
            let (back, again) = fields_of(&inject);
            assert_eq!(back.name, kind.name);
            assert_eq!(again, values, "{}", kind.name);
        }
    }
}
