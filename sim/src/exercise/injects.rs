//! The conversion between a fault kind's fields (the registry, [`super::faults`]) and the
//! scenario's [`Inject`], both ways: the reader builds a timeline with it, the writer reads
//! it back, and an injected fault ([`crate::fault_action`]) becomes the run's script.

use super::faults::{kind, FaultKind, Span};
use crate::scenario::{
    DeployDraw, DriftDraw, FailureDraw, FlushDraw, HotKeyDraw, Inject, SlowDraw, SurgeDraw,
    WindowDraw,
};

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
    use crate::exercise::faults::{FieldKind, FAULT_KINDS};
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
