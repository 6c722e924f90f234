//! The machinery behind the policy registry: a policy is a type implementing [`Policy`], and
//! the one list in `autoscale/mod.rs` (`policies! { … }`) generates from it [`PolicyId`],
//! [`PolicySettings`] (every policy's parameters), the parameter look-ups by name,
//! [`build`] and [`relations`]. Adding a policy is one file plus one line of that list.
//!
//! [`PolicyId`]: super::PolicyId
//! [`PolicySettings`]: super::PolicySettings
//! [`build`]: super::build
//! [`relations`]: super::relations

use super::Autoscaler;
use crate::params::{BrokenRule, ModelParams, ParamError, ParamSpec};
use crate::relations::Relation;

/// A policy's parameters as one typed struct, with specs named `prefix.field` as `--set` and
/// links spell them.
pub trait PolicyParams: Clone + core::fmt::Debug + Default + PartialEq + serde::Serialize {
    /// Every parameter with its default and allowed range.
    const SPECS: &'static [ParamSpec];
    /// Sets a parameter by its full name, checking its range (the rules between fields are
    /// checked on the whole set, by [`PolicyParams::validate`]); nothing changes on error.
    fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError>;
    /// Reads a parameter by its full name.
    fn get(&self, name: &str) -> Option<f64>;
    /// Checks every field and the rules between fields.
    fn validate(&self) -> Result<(), ParamError>;
    /// The first rule between fields that does not hold, if any.
    fn broken_rule(&self) -> Option<BrokenRule>;
}

/// A policy the registry can list and build.
pub trait Policy: Autoscaler + Sized + 'static {
    /// Its parameters, stored in `PolicySettings`.
    type Params: PolicyParams;
    /// Its relations in the sources panel.
    const RELATIONS: &'static [&'static Relation];
    /// The specs of the parameters that tune it (by default its own struct's).
    fn specs() -> Vec<&'static ParamSpec> {
        Self::Params::SPECS.iter().collect()
    }
    /// A new instance with these (already validated) parameters.
    fn build(params: &Self::Params, model: &ModelParams) -> Self;
}

/// For a policy whose parameters live elsewhere (target tracking's are model parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct NoParams;

impl PolicyParams for NoParams {
    const SPECS: &'static [ParamSpec] = &[];
    fn set(&mut self, name: &str, _value: f64) -> Result<(), ParamError> {
        Err(ParamError::unknown(name, Self::SPECS))
    }
    fn get(&self, _name: &str) -> Option<f64> {
        None
    }
    fn validate(&self) -> Result<(), ParamError> {
        Ok(())
    }
    fn broken_rule(&self) -> Option<BrokenRule> {
        None
    }
}

/// Generates the registry from one line per policy:
/// `Variant = "spelling", field: module::Type;` declares the module, the id, the settings
/// field and the constructor.
macro_rules! policies {
    ($( $(#[$vmeta:meta])* $variant:ident = $text:literal, $field:ident : $module:ident :: $ty:ident; )*) => {
        $( pub mod $module; )*

        $crate::ids::ids! {
            /// An autoscaling policy, as `--set autoscaler=ID` and links spell it.
            PolicyId, "autoscaler" { $( $(#[$vmeta])* $variant = $text, )* }
        }

        /// The parameters of every policy.
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
        pub struct PolicySettings {
            $( pub $field: <$module::$ty as $crate::autoscale::registry::Policy>::Params, )*
        }

        impl PolicySettings {
            /// The parameter specs of policy `id`.
            pub fn specs(id: PolicyId) -> Vec<&'static ParamSpec> {
                use $crate::autoscale::registry::Policy;
                match id {
                    $( PolicyId::$variant => <$module::$ty>::specs(), )*
                }
            }

            /// Every parameter this struct holds.
            pub fn all_specs() -> impl Iterator<Item = &'static ParamSpec> {
                use $crate::autoscale::registry::PolicyParams;
                [$( <<$module::$ty as $crate::autoscale::registry::Policy>::Params>::SPECS ),*]
                    .into_iter()
                    .flatten()
            }

            /// Whether `name` is a policy parameter held here.
            pub fn owns(name: &str) -> bool {
                Self::all_specs().any(|s| s.name == name)
                    || Self::dotted_prefixes().iter().any(|d| name.starts_with(d))
            }

            /// The name prefixes of the policies' parameters (`cloud_run`, `hpa`, …).
            pub fn prefixes() -> Vec<&'static str> {
                Self::dotted_prefixes()
                    .into_iter()
                    .map(|d| d.trim_end_matches('.'))
                    .collect()
            }

            /// The prefixes with their dot (`cloud_run.`, `hpa.`, …), as static text.
            pub fn dotted_prefixes() -> Vec<&'static str> {
                let mut out: Vec<&'static str> = Self::all_specs()
                    .filter_map(|s| s.name.find('.').map(|dot| &s.name[..=dot]))
                    .collect();
                out.dedup();
                out
            }

            /// Sets a policy parameter by its full name, checking its range; nothing changes
            /// on error. The rules between fields are checked once on the whole set
            /// ([`PolicySettings::broken_rule`], and when a policy is built), so the order in
            /// which parameters are set never matters.
            pub fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
                use $crate::autoscale::registry::PolicyParams;
                $(
                    if <<$module::$ty as $crate::autoscale::registry::Policy>::Params>::SPECS
                        .iter()
                        .any(|s| s.name.split_once('.').map(|(p, _)| p) == name.split_once('.').map(|(p, _)| p))
                    {
                        return self.$field.set(name, value);
                    }
                )*
                Err(ParamError::unknown_policy_param(name, Self::dotted_prefixes()))
            }

            /// Reads a policy parameter by its full name.
            pub fn get(&self, name: &str) -> Option<f64> {
                use $crate::autoscale::registry::PolicyParams;
                None $( .or_else(|| self.$field.get(name)) )*
            }

            /// Policy `id`'s own parameters back to their defaults.
            pub fn reset(&mut self, id: PolicyId) {
                match id {
                    $( PolicyId::$variant => self.$field = Default::default(), )*
                }
            }

            /// Checks every policy's parameters.
            pub fn validate(&self) -> Result<(), ParamError> {
                use $crate::autoscale::registry::PolicyParams;
                $( self.$field.validate()?; )*
                Ok(())
            }

            /// The first rule between one policy's parameters that does not hold, if any.
            pub fn broken_rule(&self) -> Option<$crate::params::BrokenRule> {
                use $crate::autoscale::registry::PolicyParams;
                None $( .or_else(|| self.$field.broken_rule()) )*
            }
        }

        /// Makes policy `id` with these settings; the error names the first parameter out of
        /// range, or the autoscaler when this build does not run it
        /// ([`runs_here`](crate::autoscale::registry::runs_here)).
        pub fn build(
            id: PolicyId,
            settings: &PolicySettings,
            model: &ModelParams,
        ) -> Result<Box<dyn Autoscaler>, ParamError> {
            use $crate::autoscale::registry::{Policy, PolicyParams};
            if !$crate::autoscale::registry::runs_here(id) {
                return Err($crate::autoscale::registry::not_run_here());
            }
            Ok(match id {
                $( PolicyId::$variant => {
                    settings.$field.validate()?;
                    Box::new(<$module::$ty>::build(&settings.$field, model))
                } )*
            })
        }

        /// The relations of policy `id`, in the order the sources panel shows them.
        pub fn relations(id: PolicyId) -> &'static [&'static Relation] {
            use $crate::autoscale::registry::Policy;
            match id {
                $( PolicyId::$variant => <$module::$ty>::RELATIONS, )*
            }
        }
    };
}
pub(crate) use policies;

/// Whether this build runs policy `id`: every policy with the `policies` feature, else the
/// default alone (its code is all the console's first download carries of them).
pub const fn runs_here(id: super::PolicyId) -> bool {
    cfg!(feature = "policies") || matches!(id, super::DEFAULT_POLICY)
}

/// The refusal of a policy this build does not run: the autoscaler is one of those it does.
pub(crate) fn not_run_here() -> ParamError {
    ParamError {
        field: "autoscaler".into(),
        problem: crate::message::Message::new(crate::message::MessageId::OneOfList).codes(
            "allowed",
            super::PolicyId::ALL
                .iter()
                .filter(|id| runs_here(**id))
                .map(|id| id.as_str())
                .collect(),
        ),
    }
}
