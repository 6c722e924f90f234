//! The machinery behind the load-balancing registry: a policy is a type implementing
//! [`Balancer`], and the one list in `balance/mod.rs` (`lb_policies! { … }`) generates from it
//! [`Routing`] (the id as links and the command line spell it, with its Envoy spelling and
//! what the policy is) and the request engine's per-policy state, whose `match` is the only
//! dispatch per request. Adding a policy is one file plus one line of that list.
//!
//! [`Routing`]: super::Routing

use super::{HashBalancer, Hosts, QueueModel};
use crate::relations::RelationId;
use crate::rng::Mulberry32;

/// A load-balancing policy: how it routes in the request engine, and what the minute model's
/// formulas and the settings need to know of it.
pub(crate) trait Balancer: Clone + core::fmt::Debug {
    /// Whether it routes by the request's key (the engine then draws keys, and the formulas
    /// read the keys' popularity).
    const HASHES_KEYS: bool = false;
    /// Whether slow start weighs its hosts (Envoy's weighted scheduler: round robin and
    /// least request).
    const WEIGHTED: bool = false;
    /// Whether it reads how many requests each instance holds.
    const READS_HELD: bool = false;
    /// The queue the routed formulas solve for its instances.
    const QUEUE: QueueModel;
    /// The parameters (as `--set` and links name them) that tune it.
    const PARAMS: &'static [&'static str] = &[];
    /// Its relations in the sources panel.
    const RELATIONS: &'static [RelationId];

    /// The policy over the instances `hosts` (ascending), each hashed by
    /// [`super::host_name`] of its index: a hash policy builds its table here, and only here.
    fn build(hosts: &[u32]) -> Self;

    /// A hash policy's table (`None` for the others, or when none could be built).
    fn table(&self) -> Option<&dyn HashBalancer> {
        None
    }

    /// The instance of a new request among `hosts.active` (two or more), `key_hash` the
    /// request's key (ignored by the policies that do not hash).
    fn pick(
        &mut self,
        hosts: &mut Hosts,
        rng: &mut Mulberry32,
        key_hash: u64,
        held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize>;

    /// The instance of a hedge of a request that already went to the instances in `used`
    /// (some instance is unused); `key_hash` is the key's hash.
    fn pick_other(
        &mut self,
        hosts: &mut Hosts,
        rng: &mut Mulberry32,
        key_hash: u64,
        used: &[u32],
        held: &mut impl FnMut(usize) -> usize,
    ) -> Option<usize>;
}

/// Generates the registry from one line per policy:
/// `Variant = "spelling", "ENVOY_SPELLING", module::Type;` declares the module, the id, the
/// Envoy spelling and the engine's state.
macro_rules! lb_policies {
    ($(#[$meta:meta])* { $( $(#[$vmeta:meta])* $variant:ident = $text:literal, $envoy:literal, $module:ident :: $ty:ident; )* }) => {
        $( pub mod $module; )*

        $crate::ids::ids! {
            $(#[$meta])*
            Routing, "lb" { $( $(#[$vmeta])* $variant = $text, )* }
        }

        impl Routing {
            /// Envoy's spellings (`ROUND_ROBIN`, …), in listing order.
            pub const ENVOY_NAMES: &'static [&'static str] = &[$($envoy),*];

            /// Envoy's spelling, as its configuration (the elastic scaler's `lb_policy`)
            /// writes it.
            pub const fn envoy_name(self) -> &'static str {
                match self {
                    $( Routing::$variant => $envoy, )*
                }
            }

            /// The policy Envoy's configuration spells `text`.
            pub fn from_envoy(text: &str) -> Option<Self> {
                match text {
                    $( $envoy => Some(Routing::$variant), )*
                    _ => None,
                }
            }

            /// Whether it routes by the request's key (ring hash, Maglev).
            pub const fn hashes_keys(self) -> bool {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Routing::$variant => <$module::$ty>::HASHES_KEYS, )*
                }
            }

            /// Whether slow start weighs its hosts (round robin, least request).
            pub const fn weighted(self) -> bool {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Routing::$variant => <$module::$ty>::WEIGHTED, )*
                }
            }

            /// Whether it reads how many requests each instance holds (least request).
            pub const fn reads_held(self) -> bool {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Routing::$variant => <$module::$ty>::READS_HELD, )*
                }
            }

            /// The queue the routed formulas solve for its instances.
            pub const fn queue_model(self) -> QueueModel {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Routing::$variant => <$module::$ty>::QUEUE, )*
                }
            }

            /// The parameters that tune it, as `--set` and links name them.
            pub const fn params(self) -> &'static [&'static str] {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Routing::$variant => <$module::$ty>::PARAMS, )*
                }
            }

            /// Its relations, in the order the sources panel shows them.
            pub const fn relations(self) -> &'static [RelationId] {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Routing::$variant => <$module::$ty>::RELATIONS, )*
                }
            }
        }

        /// The request engine's state of each policy (a hash policy's table); the request
        /// engine routes through its `match`, without dynamic dispatch.
        #[derive(Clone, Debug)]
        pub(crate) enum Picker {
            $( $variant($module::$ty), )*
        }

        impl Picker {
            /// Policy `routing` over the instances `hosts` (ascending).
            pub(crate) fn build(routing: Routing, hosts: &[u32]) -> Self {
                use $crate::balance::registry::Balancer;
                match routing {
                    $( Routing::$variant => Picker::$variant(<$module::$ty>::build(hosts)), )*
                }
            }

            /// A hash policy's table, when it has one.
            pub(crate) fn table(&self) -> Option<&dyn HashBalancer> {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Picker::$variant(p) => p.table(), )*
                }
            }

            /// See [`Balancer::pick`](registry::Balancer::pick).
            #[inline]
            pub(crate) fn pick(
                &mut self,
                hosts: &mut Hosts,
                rng: &mut $crate::rng::Mulberry32,
                key_hash: u64,
                held: &mut impl FnMut(usize) -> usize,
            ) -> Option<usize> {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Picker::$variant(p) => p.pick(hosts, rng, key_hash, held), )*
                }
            }

            /// See [`Balancer::pick_other`](registry::Balancer::pick_other).
            pub(crate) fn pick_other(
                &mut self,
                hosts: &mut Hosts,
                rng: &mut $crate::rng::Mulberry32,
                key_hash: u64,
                used: &[u32],
                held: &mut impl FnMut(usize) -> usize,
            ) -> Option<usize> {
                use $crate::balance::registry::Balancer;
                match self {
                    $( Picker::$variant(p) => p.pick_other(hosts, rng, key_hash, used, held), )*
                }
            }
        }
    };
}
pub(crate) use lb_policies;
