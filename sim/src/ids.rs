//! Typed identifiers of the model's extension points. Each is an enum whose text form is the
//! stable spelling the command line, links and catalogs use; text is parsed once, at the edge,
//! and everything inside the core compares enums.

/// Text that names no known id; carries what was given so the edge can say what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownId {
    /// What kind of id was expected ("scenario", "autoscaler", …).
    pub kind: &'static str,
    pub given: String,
    /// The spellings that are allowed, in their listing order.
    pub allowed: &'static [&'static str],
}

/// Declares an id enum with its stable spellings, `ALL` in listing order, `as_str`,
/// `FromStr`, `Display` and serialization as the spelling.
macro_rules! ids {
    ($(#[$meta:meta])* $name:ident, $kind:literal { $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every id, in listing order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            /// The spellings, in listing order.
            pub const NAMES: &'static [&'static str] = &[$($text),*];

            /// The stable spelling.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )*
                }
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::ids::UnknownId;
            fn from_str(text: &str) -> Result<Self, $crate::ids::UnknownId> {
                match text {
                    $( $text => Ok($name::$variant), )*
                    _ => Err($crate::ids::UnknownId { kind: $kind, given: text.to_string(), allowed: Self::NAMES }),
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                text.parse().map_err(|e: $crate::ids::UnknownId| {
                    <D::Error as serde::de::Error>::custom(format_args!(
                        "{:?} is not a {}; use one of {}",
                        e.given,
                        e.kind,
                        e.allowed.join(", ")
                    ))
                })
            }
        }
    };
}
pub(crate) use ids;

ids! {
    /// A scenario of the exercise list.
    ScenarioId, "scenario" {
        FreePlay = "free-play",
        BadDeploy = "bad-deploy",
        ViralSurge = "viral-surge",
        CacheFlush = "cache-flush",
        SlowInstance = "slow-instance",
        HotKey = "hot-key",
        RegionalOutage = "regional-outage",
    }
}

ids! {
    /// What fired a scaling decision: a policy's driver, strategy or bound.
    DriverId, "driver" {
        /// Target tracking and the HPA's utilization ratio.
        Utilization = "utilization",
        /// The HPA's CPU metric.
        Cpu = "cpu",
        /// Cloud Run's concurrency driver.
        Concurrency = "concurrency",
        /// Cloud Run's ACT (adaptive concurrency target) driver.
        Act = "act",
        /// Cloud Run's on-demand instances for requests that found no slot.
        OnDemand = "on-demand",
        /// A policy bringing the fleet down to its maximum.
        Maximum = "maximum",
        /// The elastic scaler's floor and ceiling.
        MinNodes = "min_nodes",
        MaxNodes = "max_nodes",
        /// The elastic scaler's strategies.
        Trend = "trend",
        Delay = "delay",
        P95 = "p95",
        Shrink = "shrink",
        /// Knative's stable and panic modes, and its scale to zero.
        Stable = "stable",
        Panic = "panic",
        ScaleToZero = "scale-to-zero",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip_and_unknowns_list_the_allowed() {
        for id in ScenarioId::ALL {
            assert_eq!(id.as_str().parse::<ScenarioId>().unwrap(), *id);
            assert_eq!(id.to_string(), id.as_str());
        }
        for id in DriverId::ALL {
            assert_eq!(id.as_str().parse::<DriverId>().unwrap(), *id);
        }
        let err = "nope".parse::<ScenarioId>().unwrap_err();
        assert_eq!(err.kind, "scenario");
        assert_eq!(err.allowed, ScenarioId::NAMES);
    }
}
