//! Autoscaling policies behind one interface. The simulation asks the policy for a fleet size
//! at the policy's own cadence and applies it; each decision is logged with the driver that
//! fired and the numbers it computed.

pub mod target_tracking;

/// What a policy sees at a decision point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    /// Simulated seconds since the start.
    pub t_s: f64,
    pub serving: u32,
    /// Booting instances of the live fleet.
    pub booting: u32,
    /// Measured utilization of the serving fleet (saturates at 1).
    pub utilization: f64,
    /// Admitted arrival rate, req/s.
    pub arrival_rate: f64,
    /// Mean service time, s.
    pub service_s: f64,
    pub min_instances: u32,
    pub max_instances: u32,
    pub target_utilization: f64,
}

/// A scaling decision: the desired live fleet size and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub desired: u32,
    /// Which driver or strategy fired.
    pub driver: &'static str,
    /// The inputs and the computation, in words and numbers.
    pub detail: String,
}

/// An autoscaling policy.
pub trait Autoscaler {
    /// Policy id as the CLI spells it.
    fn id(&self) -> &'static str;
    /// Decides after each observation; `None` keeps the fleet as it is.
    fn decide(&mut self, obs: &Observation) -> Option<Decision>;
}
