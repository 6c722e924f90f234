//! Autoscaling policies behind one interface. The simulation observes the fleet at each
//! policy's own cadence (its tick, which divides the minute), asks the policy for a fleet
//! size and applies it; each decision is logged with the driver or strategy that fired, the
//! inputs it saw and the numbers it computed.
//!
//! The five policies: [`target_tracking`] (the default), [`cloud_run`], [`elastic`] (the
//! multi-strategy scaler in front of Envoy), [`hpa`] (Kubernetes) and [`kpa`] (Knative).
//! The registry below (one line per policy, see [`registry`]) generates [`PolicyId`], which
//! lists them, [`PolicySettings`], which holds every policy's parameters with their specs,
//! [`build`], which makes a policy from its id, and [`relations`].

#[macro_use]
pub mod registry;

use crate::params::{ModelParams, ParamError, ParamSpec};
use crate::queueing::SojournTail;
use crate::relations::Relation;
use crate::time::{seconds, Millis};

// The registry: one line per policy, the default first.
registry::policies! {
    TargetTracking = "target-tracking", target_tracking: target_tracking::TargetTracking;
    CloudRun = "cloud-run", cloud_run: cloud_run::CloudRun;
    Elastic = "elastic", elastic: elastic::Elastic;
    Hpa = "hpa", hpa: hpa::Hpa;
    Kpa = "kpa", kpa: kpa::Kpa;
}

/// The default policy.
pub const DEFAULT_POLICY: PolicyId = PolicyId::TargetTracking;

/// The lowest minimum instances policy `id` allows: 0 where it holds requests while the
/// first instance starts, so that it can scale to zero; 1 elsewhere.
pub fn lowest_minimum(id: PolicyId) -> u32 {
    let holds = build(id, &PolicySettings::default(), &ModelParams::default())
        .is_ok_and(|p| p.holds_at_zero_s(0.0).is_some());
    u32::from(!holds)
}

/// What a policy sees at a decision point: the fleet and the queue of the tick that just
/// ended. Every figure comes from the queue formulas of the core, never from the policy.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Observation {
    /// Simulated time at the end of the tick.
    pub t_ms: Millis,
    pub serving: u32,
    /// Booting instances of the live fleet.
    pub booting: u32,
    /// Measured utilization of the serving fleet's workers (saturates at 1).
    pub utilization: f64,
    /// Admitted arrival rate, req/s.
    pub arrival_rate: f64,
    /// Mean service time, s.
    pub service_s: f64,
    pub min_instances: u32,
    pub max_instances: u32,
    /// The target-utilization control (used by target tracking and the HPA).
    pub target_utilization: f64,
    /// Time the observation covers (the policy's tick).
    pub dt_ms: Millis,
    /// Worker slots per instance: the most requests one instance serves at once.
    pub workers_per_instance: u32,
    /// Share of the service time spent on CPU (application time / service time); the rest
    /// is spent waiting for the database.
    pub cpu_share: f64,
    /// Mean requests in service (busy workers): utilization × N, which is λ·S below
    /// saturation (Little's law).
    pub in_service: f64,
    /// Mean requests waiting for a worker: λ·W_q (Little's law), none waiting longer than
    /// the timeout.
    pub waiting: f64,
    /// Requests completed per second.
    pub completions_per_s: f64,
    /// Share of admitted requests that timed out waiting.
    pub timeout_share: f64,
    /// Share of arrivals rejected by a per-node limit (the elastic scaler's Envoy).
    pub rejected_share: f64,
    /// p95 of the time in the system as the service stage measured it, s (the request
    /// engine, in a minute split into ticks); 0 when it did not: [`Observation::p95_s`]
    /// then reads it from the tail, only for a policy that asks.
    pub measured_p95_s: f64,
    /// p99 of the time in the system, s (capped at the timeout).
    pub p99_s: f64,
    /// The time-in-system distribution of the tick.
    pub tail: SojournTail,
    /// Request timeout, s.
    pub timeout_s: f64,
    /// Seconds a new instance needs before it serves (the expected cold start).
    pub boot_s: f64,
    /// Instances draining: no new traffic, still billed.
    pub draining: u32,
}

impl Observation {
    /// p95 of the time in the system, s: the measured one, else the tail's quantile (a
    /// root search, left to the policies that read it).
    pub fn p95_s(&self) -> f64 {
        if self.measured_p95_s > 0.0 {
            self.measured_p95_s
        } else {
            self.tail.quantile(0.05)
        }
    }

    /// Seconds the observation covers.
    pub fn dt_s(&self) -> f64 {
        seconds(self.dt_ms)
    }

    /// Serving plus booting instances.
    pub fn live(&self) -> u32 {
        self.serving + self.booting
    }

    /// Requests in flight: in service plus waiting.
    pub fn concurrency(&self) -> f64 {
        self.in_service + self.waiting
    }

    /// Offered load a = λ·S in Erlangs: the workers the demand needs, whether or not the
    /// fleet has them.
    pub fn offered_load(&self) -> f64 {
        self.arrival_rate * self.service_s
    }

    /// CPU utilization of the serving instances: the busy share of the workers times the CPU
    /// share of the service time (each worker is one CPU's worth, an assumption).
    pub fn cpu_utilization(&self) -> f64 {
        self.utilization * self.cpu_share
    }
}

/// A scaling decision: the desired live fleet size and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub desired: u32,
    /// Which driver or strategy fired.
    pub driver: crate::ids::DriverId,
    /// The inputs and the computation, as a message for the catalogs to put in words.
    pub detail: crate::message::Message,
    /// For a scale-in: which instances go, and how.
    pub removal: Removal,
}

/// Which instances a scale-in takes out of the live fleet, and how.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Removal {
    /// Booting ones first, then serving ones, newest first; they stop at once.
    #[default]
    Stop,
    /// Booting ones stop at once; serving ones drain for this many seconds (no new
    /// traffic, still billed).
    Drain(f64),
    /// Serving ones only, newest first, stopped at once: the instances that ran idle.
    /// Booting ones stay, since they have not run yet.
    Idle,
}

/// Limits a policy puts in front of the fleet (the elastic scaler's Envoy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admission {
    /// Requests one node takes at once (in service and queued inside it).
    pub per_node_requests: u32,
    /// Requests the balancer holds beyond the nodes' limits; the rest are rejected.
    pub pending: u32,
}

/// An autoscaling policy.
pub trait Autoscaler {
    /// Policy id as the CLI and the link spell it.
    fn id(&self) -> PolicyId;
    /// Seconds between observations; divides 60. The minute is split into ticks of this
    /// length, each with its own queue.
    fn tick_s(&self) -> u32 {
        60
    }
    /// Decides after each observation; `None` keeps the fleet as it is.
    fn decide(&mut self, obs: &Observation) -> Option<Decision>;
    /// Limits in front of the fleet, if the policy brings any.
    fn admission(&self) -> Option<Admission> {
        None
    }
    /// When no instance serves, how long a request is held for one to start (Cloud Run's
    /// pending queue, Knative's activator), given the instances' boot time; `None`: it
    /// fails at once. Only a policy that holds requests can scale to zero.
    fn holds_at_zero_s(&self, _boot_s: f64) -> Option<f64> {
        None
    }
    /// Seconds an instance this policy starts needs before it serves, when the policy's own
    /// platform sets it (the elastic scaler's nodes); `None`: the scenario's boot delay.
    fn node_boot_s(&self) -> Option<u32> {
        None
    }
}

/// Largest divisor of 60 that also divides `seconds` (so that a cadence of 7 s is observed
/// every second and 15 s every 15 s).
pub fn tick_dividing_minute(seconds: u32) -> u32 {
    let (mut a, mut b) = (seconds.max(1), 60);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// ⌈x⌉ with a hair of tolerance, so that 10 × 0.6 / 0.6 does not round up to 11.
pub fn ceil_count(x: f64) -> u32 {
    if !(x > 0.0) {
        return 0;
    }
    libm::ceil(x - 1e-9).clamp(0.0, f64::from(u32::MAX)) as u32
}

/// Time-weighted means over sliding windows ("average over the past minute") of samples
/// taken together: `C` values per sample (the channels), `W` windows, each over one channel
/// and its own length. The samples are kept once, for the longest window; each window keeps
/// its running sum, recomputed exactly every few hundred samples so that rounding cannot
/// drift. A window's mean is, bit for bit, what a window kept alone would give.
#[derive(Clone, Debug, PartialEq)]
pub struct SlidingMeans<const C: usize, const W: usize> {
    /// (end, length in seconds, values) of each sample still in a window.
    samples: std::collections::VecDeque<(Millis, f64, [f64; C])>,
    /// Samples ever dropped from the front: the first sample's number.
    dropped: u64,
    windows: [SlidingWindow; W],
    /// The last sample's length in milliseconds and in seconds (samples keep one length).
    dt: (Millis, f64),
}

/// One window of [`SlidingMeans`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct SlidingWindow {
    window_ms: Millis,
    channel: usize,
    /// Number of the window's first sample (counting every sample ever pushed).
    first: u64,
    sum: f64,
    weight: f64,
    since_exact: u32,
}

impl<const C: usize, const W: usize> SlidingMeans<C, W> {
    /// Windows of the given lengths, each over the given channel (below `C`).
    pub fn new(windows: [(Millis, usize); W]) -> Self {
        Self {
            samples: std::collections::VecDeque::new(),
            dropped: 0,
            windows: windows.map(|(window_ms, channel)| SlidingWindow {
                window_ms,
                channel,
                first: 0,
                sum: 0.0,
                weight: 0.0,
                since_exact: 0,
            }),
            dt: (0, 0.0),
        }
    }

    /// Adds `values` held for `dt_ms` ending at `t_ms`; each window forgets what ended its
    /// length or more before.
    pub fn push(&mut self, t_ms: Millis, dt_ms: Millis, values: [f64; C]) {
        if self.dt.0 != dt_ms {
            self.dt = (dt_ms, seconds(dt_ms));
        }
        let dt = self.dt.1;
        self.samples.push_back((t_ms, dt, values));
        let end = self.dropped + self.samples.len() as u64;
        for w in &mut self.windows {
            let v = values[w.channel];
            w.sum += v * dt;
            w.weight += dt;
            while w.first < end {
                let (at, dt, values) = self.samples[(w.first - self.dropped) as usize];
                if at + w.window_ms > t_ms {
                    break;
                }
                w.sum -= values[w.channel] * dt;
                w.weight -= dt;
                w.first += 1;
            }
            w.since_exact += 1;
            if w.since_exact >= 256 || end - w.first <= 1 {
                w.since_exact = 0;
                let kept = self.samples.range((w.first - self.dropped) as usize..);
                w.sum = kept.clone().map(|&(_, dt, v)| v[w.channel] * dt).sum();
                w.weight = kept.map(|&(_, dt, _)| dt).sum();
            }
        }
        let first = self.windows.iter().map(|w| w.first).min().unwrap_or(end);
        while self.dropped < first {
            self.samples.pop_front();
            self.dropped += 1;
        }
    }

    /// The time-weighted mean of window `i` (0 before any sample).
    pub fn mean(&self, i: usize) -> f64 {
        match self.windows.get(i) {
            Some(w) if w.weight > 1e-12 => w.sum / w.weight,
            _ => 0.0,
        }
    }
}

/// Declares a policy's parameter struct: fields, defaults, ranges and unit codes in one
/// place, with specs named `prefix.field` as `--set` and the link spell them. The rows carry
/// no product text: the catalogs key each parameter's doc by its spec's name.
macro_rules! policy_params {
    ($(#[$meta:meta])* $name:ident, $prefix:literal, {
        $( $field:ident : $ty:ty = $default:expr, $min:expr, $max:expr, $unit:expr; )*
    }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        pub struct $name {
            $(
                #[doc = concat!("Parameter `", $prefix, ".", stringify!($field), "`; its doc is in the catalogs ([`crate::catalog::params_en`]).")]
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $( $field: <$ty as $crate::params::ParamValue>::from_checked($default), )* }
            }
        }

        impl $crate::autoscale::registry::PolicyParams for $name {
            const SPECS: &'static [$crate::params::ParamSpec] = &[
                $( $crate::params::ParamSpec {
                    name: concat!($prefix, ".", stringify!($field)),
                    default: $default, min: $min, max: $max, unit: $unit,
                    integer: <$ty as $crate::params::ParamValue>::INTEGER,
                }, )*
            ];

            fn set(&mut self, name: &str, value: f64) -> Result<(), $crate::params::ParamError> {
                let spec = $crate::autoscale::find_spec(Self::SPECS, name)?;
                let value = spec.check(value)?;
                let field = name.strip_prefix(concat!($prefix, ".")).unwrap_or(name);
                match field {
                    $( stringify!($field) => self.$field = <$ty as $crate::params::ParamValue>::from_checked(value), )*
                    _ => unreachable!("find_spec accepted only known names"),
                }
                Ok(())
            }

            fn get(&self, name: &str) -> Option<f64> {
                match name.strip_prefix(concat!($prefix, "."))? {
                    $( stringify!($field) => Some($crate::params::ParamValue::to_f64(self.$field)), )*
                    _ => None,
                }
            }

            fn validate(&self) -> Result<(), $crate::params::ParamError> {
                for spec in Self::SPECS {
                    spec.check(self.get(spec.name).unwrap_or(f64::NAN))?;
                }
                match self.broken_rule() {
                    Some(rule) => Err(rule.blame(rule.field)),
                    None => Ok(()),
                }
            }

            fn broken_rule(&self) -> Option<$crate::params::BrokenRule> {
                $name::broken_rule(self)
            }
        }
    };
}
pub(crate) use policy_params;

/// The spec called `name` among `specs`, or an error listing the known names.
pub fn find_spec(
    specs: &'static [ParamSpec],
    name: &str,
) -> Result<&'static ParamSpec, ParamError> {
    specs
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| ParamError::unknown(name, specs))
}

/// Observations for the policies' tests (the crate's and the integration tests').
#[doc(hidden)]
pub mod test_support {
    use super::Observation;

    /// An observation of `serving` instances with `workers` slots each, `busy` requests in
    /// service and nothing waiting, at time `t_s` after a tick of `dt_s`.
    pub fn obs(t_s: f64, dt_s: f64, serving: u32, booting: u32, busy: f64) -> Observation {
        use crate::time::millis_of;
        let workers = 16;
        let n = f64::from(serving * workers);
        let utilization = if n > 0.0 { (busy / n).min(1.0) } else { 0.0 };
        Observation {
            t_ms: millis_of(t_s),
            dt_ms: millis_of(dt_s),
            serving,
            booting,
            utilization,
            arrival_rate: busy / 0.05,
            service_s: 0.05,
            min_instances: 0,
            max_instances: 100,
            target_utilization: 0.6,
            workers_per_instance: workers,
            cpu_share: 1.0,
            in_service: busy.min(n),
            waiting: 0.0,
            completions_per_s: busy.min(n) / 0.05,
            measured_p95_s: 0.15,
            p99_s: 0.23,
            timeout_s: 2.0,
            boot_s: 60.0,
            ..Observation::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{millis_of, secs};

    /// Windows kept together give, bit for bit, what each kept alone gives, and each is the
    /// time-weighted mean of the samples that ended within its length.
    #[test]
    fn sliding_windows_kept_together_are_each_the_window_alone() {
        let lengths = [
            (secs(60), 0),
            (secs(600), 0),
            (secs(60), 1),
            (millis_of(6.1), 1),
        ];
        let mut together = SlidingMeans::<2, 4>::new(lengths);
        let mut alone = lengths.map(|(ms, _)| SlidingMeans::<1, 1>::new([(ms, 0)]));
        let mut rng = crate::rng::Mulberry32::new(11);
        let mut log: Vec<(Millis, Millis, [f64; 2])> = Vec::new();
        let mut t = 0;
        for k in 0..2_000 {
            // Runs of equal values, a cadence that changes, and jumps of several minutes.
            let dt = if k % 700 < 350 { 1_000 } else { 2_000 };
            t += if k % 450 == 449 { secs(900) } else { dt };
            let values = [libm::floor(rng.uniform() * 4.0) * 7.5, rng.uniform() * 1e6];
            together.push(t, dt, values);
            for (w, (_, channel)) in alone.iter_mut().zip(lengths) {
                w.push(t, dt, [values[channel]]);
            }
            log.push((t, dt, values));
            for (i, (ms, channel)) in lengths.into_iter().enumerate() {
                assert_eq!(
                    together.mean(i).to_bits(),
                    alone[i].mean(0).to_bits(),
                    "{k} {i}"
                );
                let kept = log.iter().filter(|(end, _, _)| end + ms > t);
                let (sum, weight) = kept.fold((0.0, 0.0), |(s, w), (_, dt, v)| {
                    (s + v[channel] * seconds(*dt), w + seconds(*dt))
                });
                let want = sum / weight;
                assert!(
                    (together.mean(i) - want).abs() <= 1e-9 * want.abs().max(1.0),
                    "{k} {i}"
                );
            }
        }
        assert_eq!(together.mean(9), 0.0);
    }

    #[test]
    fn the_p95_is_the_measured_one_or_the_tails() {
        let q = crate::queueing::solve(180.0, 0.05, 10, 2.0);
        let mut obs = Observation {
            tail: q.tail,
            ..Observation::default()
        };
        assert_eq!(obs.p95_s(), q.tail.quantile(0.05));
        assert!(obs.p95_s() > 0.0 && obs.p95_s() < q.p99_s);
        obs.measured_p95_s = 0.3;
        assert_eq!(obs.p95_s(), 0.3);
    }

    #[test]
    fn ticks_divide_the_minute() {
        assert_eq!(tick_dividing_minute(10), 10);
        assert_eq!(tick_dividing_minute(15), 15);
        assert_eq!(tick_dividing_minute(7), 1);
        assert_eq!(tick_dividing_minute(45), 15);
        assert_eq!(tick_dividing_minute(60), 60);
        assert_eq!(tick_dividing_minute(0), 1);
    }

    #[test]
    fn every_policy_builds_and_lists_specs() {
        let settings = PolicySettings::default();
        settings.validate().unwrap();
        for id in PolicyId::ALL {
            let p = build(*id, &settings, &ModelParams::default()).unwrap();
            assert_eq!(p.id(), *id);
            assert_eq!(60 % p.tick_s(), 0, "{id}");
            assert!(!PolicySettings::specs(*id).is_empty(), "{id}");
            for spec in PolicySettings::specs(*id) {
                spec.check(spec.default).unwrap();
            }
            assert!(!relations(*id).is_empty(), "{id}");
            assert!(crate::catalog::en::policy_text(*id).is_some(), "{id}");
            let summary = crate::catalog::en::policy_summary(
                *id,
                &ModelParams::default(),
                &PolicySettings::default(),
            );
            assert!(!summary.contains('{'), "{id}: {summary}");
        }
        let mut tuned = PolicySettings::default();
        tuned.set("hpa.tolerance", 0.25).unwrap();
        let summary =
            crate::catalog::en::policy_summary(PolicyId::Hpa, &ModelParams::default(), &tuned);
        assert!(summary.contains("0.25 tolerance"), "{summary}");
        let err = "magic".parse::<PolicyId>().unwrap_err();
        assert_eq!(err.kind, "autoscaler");
        assert!(err.allowed.contains(&"kpa"), "{err:?}");
    }

    #[test]
    fn settings_set_checks_names_and_ranges() {
        let mut s = PolicySettings::default();
        s.set("hpa.tolerance", 0.2).unwrap();
        assert_eq!(s.get("hpa.tolerance"), Some(0.2));
        let e = s.set("kpa.stable_window_s", 1.0).unwrap_err();
        assert_eq!(e.field, "kpa.stable_window_s");
        assert!(e.to_string().contains("6 to 3600"), "{e}");
        let e = s.set("cloud_run.nope", 1.0).unwrap_err();
        assert!(e.to_string().contains("cloud_run.cpu_target"), "{e}");
        assert!(s.set("nothing", 1.0).is_err());
        assert_eq!(s.get("hpa.tolerance"), Some(0.2));
        for spec in PolicySettings::all_specs() {
            assert!(s.get(spec.name).is_some(), "{}", spec.name);
        }
    }
}
