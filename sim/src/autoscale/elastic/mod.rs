//! The elastic multi-strategy scaler in front of Envoy: every `acq_frequency` (10 s) it
//! samples the active requests, the last minute's requests and completions and its latency,
//! and runs three independent expansion strategies (trend, delay prediction, p95), each
//! with its own cooling time. After every strategy has been healthy for
//! `shrinkage_delay_time` (600 s) it removes at most `shrinkage_number` (1) node, draining
//! it first. Its Envoy holds at most `max_requests` per node plus `max_pending_requests`
//! and rejects the rest.
//!
//! Nodes are instances. "Active requests" are the requests in flight (in service and
//! waiting), from Little's law on the queue of each tick.

pub mod config;

use super::{ceil_count, tick_dividing_minute, Admission, Autoscaler, Decision, Observation, Removal};
use super::registry::Policy;
use super::PolicyId;
use crate::ids::DriverId;
use crate::message::{Message, MessageId};
use crate::relations::{Relation, RelationId, ELASTIC_SCALER_DOC, ENVOY_CIRCUIT_BREAKING};
use config::ElasticConfig;
use crate::time::{self, millis_of, secs, Millis};
use std::collections::VecDeque;

/// The strategies look back over the last minute.
const MINUTE_MS: Millis = 60_000;

pub use config::{parse, ConfigError, Note, MAX_CONFIG_BYTES};

pub const TREND_EXPANSION: Relation = Relation {
    id: RelationId::ElasticTrend,
    symbols: &["active"],
    citations: &[ELASTIC_SCALER_DOC],
    assumption: false,
};

/// What the trend rule computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// active + rate × 60 s.
    pub projected: f64,
    /// max_requests − rate × 60 s.
    pub safe_capacity: f64,
    /// ⌈active / safe capacity⌉, or `None` when the safe capacity is not positive.
    pub needed: Option<u32>,
}

/// The trend rule for `active` requests growing at `rate` per second against a per-node
/// limit of `max_requests`.
pub fn trend(active: f64, rate: f64, max_requests: f64) -> Trend {
    let safe_capacity = max_requests - rate * 60.0;
    Trend {
        projected: active + rate * 60.0,
        safe_capacity,
        needed: (safe_capacity > 0.0).then(|| ceil_count(active / safe_capacity)),
    }
}

pub const DELAY_PREDICTION: Relation = Relation {
    id: RelationId::ElasticDelay,
    symbols: &[],
    citations: &[ELASTIC_SCALER_DOC],
    assumption: false,
};

pub const P95_EXPANSION: Relation = Relation {
    id: RelationId::ElasticP95,
    symbols: &[],
    citations: &[ELASTIC_SCALER_DOC],
    assumption: false,
};

/// Nodes one delay-prediction or p95 expansion adds: max(⌈nodes × ratio⌉, min_expansion).
pub fn expansion_size(nodes: u32, ratio: f64, min_expansion: u32) -> u32 {
    ceil_count(f64::from(nodes) * ratio).max(min_expansion)
}

pub const SHRINKAGE: Relation = Relation {
    id: RelationId::ElasticShrink,
    symbols: &[],
    citations: &[ELASTIC_SCALER_DOC, ENVOY_CIRCUIT_BREAKING],
    assumption: false,
};

/// Seconds a node the scaler adds needs before it serves: the configuration's cold start
/// (the source: a node needs 60 s to cold-start), whatever the scenario's boot delay, which
/// stays for the fleet's own instances.
pub fn node_boot_s(c: &ElasticConfig) -> u32 {
    c.node_cold_start_time
}

/// One sample of the metrics.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sample {
    t_ms: Millis,
    seconds: f64,
    active: f64,
    arrivals: f64,
    completions: f64,
    slow: f64,
}

/// The elastic multi-strategy scaler.
#[derive(Clone, Debug, PartialEq)]
pub struct Elastic {
    c: ElasticConfig,
    samples: VecDeque<Sample>,
    /// Totals since the last sample.
    pending: Sample,
    last_sample: Millis,
    /// Per strategy (trend, delay, p95): no expansion before this time.
    cool_until: [Millis; 3],
    p95_breach_since: Option<Millis>,
    healthy_since: Option<Millis>,
    started: bool,
}

impl Elastic {
    pub fn new(c: ElasticConfig) -> Self {
        Self {
            c,
            samples: VecDeque::new(),
            pending: empty_sample(0),
            last_sample: 0,
            cool_until: [0; 3],
            p95_breach_since: None,
            healthy_since: None,
            started: false,
        }
    }

    pub fn config(&self) -> &ElasticConfig {
        &self.c
    }
}

impl Autoscaler for Elastic {
    fn id(&self) -> PolicyId {
        PolicyId::Elastic
    }

    fn tick_s(&self) -> u32 {
        tick_dividing_minute(self.c.acq_frequency)
    }

    fn node_boot_s(&self) -> Option<u32> {
        Some(node_boot_s(&self.c))
    }

    fn admission(&self) -> Option<Admission> {
        Some(Admission {
            per_node_requests: self.c.per_node_limit(),
            pending: self.c.max_pending_requests,
        })
    }

    fn decide(&mut self, obs: &Observation) -> Option<Decision> {
        let nodes = obs.live();
        let floor = self.c.min_nodes.max(obs.min_instances);
        let ceiling = self.c.max_nodes.min(obs.max_instances).max(floor);
        if let Some(decision) = self.keep_within_bounds(nodes, floor, ceiling) {
            return Some(decision);
        }
        self.accumulate(obs);
        let sample = self.take_sample(obs)?;
        let minute = self.last_minute(sample);
        let readings = self.read_strategies(&minute, nodes);
        let fired = self.expansions(&minute, &readings, nodes, ceiling);
        let healthy = readings.healthy();
        if !healthy {
            self.healthy_since = None;
        }
        if !fired.is_empty() {
            return self.expand(fired, nodes, floor, ceiling);
        }
        // Shrink after the healthy period, one drained node at a time.
        if !healthy {
            return None;
        }
        self.shrink(obs, &minute, &readings.trend, nodes, floor)
    }
}

/// The last minute's metrics, as the strategies read them at a sample.
#[derive(Clone, Copy, Debug)]
struct Minute {
    t_ms: Millis,
    /// Active requests at the sample.
    active: f64,
    /// Growth of the active requests per second since the oldest sample kept.
    rate: f64,
    arrivals: f64,
    completion_rate: f64,
    /// Arrivals slower than the p95 threshold.
    slow: f64,
}

/// What the three strategies read from the last minute, and which of them are hot.
#[derive(Clone, Copy, Debug)]
struct Readings {
    /// The per-node limit.
    limit: f64,
    trend: Trend,
    trend_hot: bool,
    /// Seconds the active requests would take at the completion rate.
    predicted: f64,
    delay_hot: bool,
    slow_share: f64,
    breach: bool,
    breach_for: Millis,
    p95_hot: bool,
}

impl Readings {
    /// Every strategy is healthy: none is hot and p95 is not in breach.
    fn healthy(&self) -> bool {
        !self.trend_hot && !self.delay_hot && !self.breach
    }
}

/// An expansion a strategy asks for: its driver, the node count and how it got there.
type Expansion = (DriverId, u32, Message);

fn empty_sample(t_ms: Millis) -> Sample {
    Sample {
        t_ms,
        seconds: 0.0,
        active: 0.0,
        arrivals: 0.0,
        completions: 0.0,
        slow: 0.0,
    }
}

impl Elastic {
    /// At start, and whenever the bounds move: min_nodes ≤ nodes ≤ max_nodes.
    fn keep_within_bounds(&mut self, nodes: u32, floor: u32, ceiling: u32) -> Option<Decision> {
        if self.started && nodes >= floor && nodes <= ceiling {
            return None;
        }
        self.started = true;
        if nodes < floor {
            return Some(Decision {
                desired: floor,
                driver: DriverId::MinNodes,
                detail: Message::new(MessageId::ElasticBelowMinNodes)
                    .int("nodes", nodes)
                    .int("floor", floor),
                removal: Removal::Stop,
            });
        }
        if nodes > ceiling {
            return Some(Decision {
                desired: ceiling,
                driver: DriverId::MaxNodes,
                detail: Message::new(MessageId::ElasticAboveMaxNodes)
                    .int("nodes", nodes)
                    .int("ceiling", ceiling),
                removal: Removal::Stop,
            });
        }
        None
    }

    /// Adds the tick's requests, completions and slow requests to the totals since the last
    /// sample.
    fn accumulate(&mut self, obs: &Observation) {
        let requests = obs.arrival_rate * obs.dt_s();
        let threshold_s = self.c.p95_expansion.threshold / 1000.0;
        self.pending.seconds += obs.dt_s();
        self.pending.arrivals += requests;
        self.pending.completions += obs.completions_per_s * obs.dt_s();
        self.pending.slow += requests * obs.tail.share_over(threshold_s);
    }

    /// Every acq_frequency seconds: the sample of the totals and the active requests, kept
    /// for a minute.
    fn take_sample(&mut self, obs: &Observation) -> Option<Sample> {
        let t = obs.t_ms;
        if t - self.last_sample < secs(self.c.acq_frequency) {
            return None;
        }
        self.last_sample = t;
        let mut sample = self.pending;
        sample.t_ms = t;
        sample.active = obs.concurrency();
        self.pending = empty_sample(t);
        self.samples.push_back(sample);
        while self.samples.front().is_some_and(|s| s.t_ms + MINUTE_MS < t) {
            self.samples.pop_front();
        }
        Some(sample)
    }

    /// The last minute's metrics, up to `sample`.
    fn last_minute(&self, sample: Sample) -> Minute {
        let t = sample.t_ms;
        let active = sample.active;
        let oldest = self.samples.front().copied().unwrap_or(sample);
        let rate = if t > oldest.t_ms {
            (active - oldest.active) / time::seconds(t - oldest.t_ms)
        } else {
            0.0
        };
        let minute: Vec<&Sample> = self
            .samples
            .iter()
            .filter(|s| s.t_ms + MINUTE_MS > t)
            .collect();
        let seconds: f64 = minute.iter().map(|s| s.seconds).sum();
        let arrivals: f64 = minute.iter().map(|s| s.arrivals).sum();
        let completions: f64 = minute.iter().map(|s| s.completions).sum();
        let slow: f64 = minute.iter().map(|s| s.slow).sum();
        let completion_rate = if seconds > 0.0 {
            completions / seconds
        } else {
            0.0
        };
        Minute {
            t_ms: t,
            active,
            rate,
            arrivals,
            completion_rate,
            slow,
        }
    }

    /// The trend, delay-prediction and p95 rules on the last minute; p95's breach must last
    /// its threshold duration.
    fn read_strategies(&mut self, m: &Minute, nodes: u32) -> Readings {
        let c = &self.c;
        let t = m.t_ms;
        let limit = f64::from(c.per_node_limit());
        let tr = trend(m.active, m.rate, limit);
        let trend_hot = c.enabled("trend_expansion") && tr.projected > f64::from(nodes) * limit;
        let d = &c.delay_prediction;
        let predicted = if m.completion_rate > 0.0 {
            m.active / m.completion_rate
        } else if m.active > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        let delay_hot = c.enabled("delay_prediction")
            && m.arrivals >= f64::from(d.min_sample_size)
            && predicted >= d.delay_time;
        let p = &c.p95_expansion;
        let slow_share = if m.arrivals > 0.0 {
            m.slow / m.arrivals
        } else {
            0.0
        };
        let breach = c.enabled("p95_expansion")
            && m.arrivals >= f64::from(p.min_sample_size)
            && slow_share > 0.05;
        if breach {
            self.p95_breach_since.get_or_insert(t);
        } else {
            self.p95_breach_since = None;
        }
        let breach_for = self.p95_breach_since.map_or(0, |s| t - s);
        let p95_hot = breach && breach_for >= millis_of(p.threshold_duration);
        Readings {
            limit,
            trend: tr,
            trend_hot,
            predicted,
            delay_hot,
            slow_share,
            breach,
            breach_for,
            p95_hot,
        }
    }

    /// Expansions: independent, each hot strategy past its cooling time fires and cools.
    fn expansions(&mut self, m: &Minute, r: &Readings, nodes: u32, ceiling: u32) -> Vec<Expansion> {
        let t = m.t_ms;
        let mut fired: Vec<Expansion> = Vec::new();
        if r.trend_hot && t >= self.cool_until[0] {
            self.cool_until[0] = t + millis_of(self.c.trend_expansion.expand_cooling_time);
            fired.push(trend_expansion(m, r, nodes, ceiling));
        }
        if r.delay_hot && t >= self.cool_until[1] {
            self.cool_until[1] = t + millis_of(self.c.delay_prediction.expand_cooling_time);
            fired.push(self.delay_expansion(m, r, nodes));
        }
        if r.p95_hot && t >= self.cool_until[2] {
            self.cool_until[2] = t + millis_of(self.c.p95_expansion.expand_cooling_time);
            fired.push(self.p95_expansion(m, r, nodes));
        }
        fired
    }

    /// Delay prediction's expansion: by the expansion ratio, at least the minimum.
    fn delay_expansion(&self, m: &Minute, r: &Readings, nodes: u32) -> Expansion {
        let d = &self.c.delay_prediction;
        let size = expansion_size(nodes, d.expansion_ratio, d.min_expansion);
        (
            DriverId::Delay,
            nodes + size,
            Message::new(MessageId::ElasticDelay)
                .num("active", m.active)
                .num("completion_rate", m.completion_rate)
                .num("predicted", r.predicted)
                .num("delay_time", d.delay_time)
                .num("arrivals", m.arrivals)
                .int("nodes", nodes)
                .num("ratio", d.expansion_ratio)
                .int("min", d.min_expansion)
                .int("size", size),
        )
    }

    /// p95's expansion: by the expansion ratio, at least the minimum.
    fn p95_expansion(&self, m: &Minute, r: &Readings, nodes: u32) -> Expansion {
        let p = &self.c.p95_expansion;
        let size = expansion_size(nodes, p.expansion_ratio, p.min_expansion);
        (
            DriverId::P95,
            nodes + size,
            Message::new(MessageId::ElasticP95)
                .num("slow", r.slow_share * 100.0)
                .num("arrivals", m.arrivals)
                .num("threshold", p.threshold)
                .num("breach_for", time::seconds(r.breach_for))
                .num("duration", p.threshold_duration)
                .int("nodes", nodes)
                .num("ratio", p.expansion_ratio)
                .int("min", p.min_expansion)
                .int("size", size),
        )
    }

    /// The largest expansion that fired, within the bounds, led by its strategy.
    fn expand(
        &self,
        fired: Vec<Expansion>,
        nodes: u32,
        floor: u32,
        ceiling: u32,
    ) -> Option<Decision> {
        let c = &self.c;
        let &(driver, _, _) = fired.iter().max_by_key(|(_, to, _)| *to)?;
        let want = fired.iter().map(|(_, to, _)| *to).max().unwrap_or(nodes);
        let desired = want.clamp(floor, ceiling);
        if desired <= nodes {
            return None;
        }
        let cooling = match driver {
            DriverId::Trend => c.trend_expansion.expand_cooling_time,
            DriverId::Delay => c.delay_prediction.expand_cooling_time,
            _ => c.p95_expansion.expand_cooling_time,
        };
        let strategies = fired.into_iter().map(|(_, _, m)| m).collect();
        let detail = if desired < want {
            Message::new(MessageId::ElasticExpandCapped)
                .msgs("strategies", strategies)
                .int("ceiling", ceiling)
        } else {
            Message::new(MessageId::ElasticExpand).msgs("strategies", strategies)
        };
        Some(Decision {
            desired,
            driver,
            detail: detail.num("cooling", cooling),
            removal: Removal::Stop,
        })
    }

    /// Shrinkage: once every strategy has been healthy for the shrinkage delay, at most
    /// shrinkage_number nodes beyond what the trend needs, drained first.
    fn shrink(
        &mut self,
        obs: &Observation,
        m: &Minute,
        tr: &Trend,
        nodes: u32,
        floor: u32,
    ) -> Option<Decision> {
        let c = &self.c;
        let t = m.t_ms;
        let since = *self.healthy_since.get_or_insert(t);
        if t - since < millis_of(c.shrinkage_delay_time) {
            return None;
        }
        let needed = tr.needed.unwrap_or(nodes);
        let keep = needed.max(floor);
        let remove = nodes.saturating_sub(keep).min(c.shrinkage_number);
        if remove == 0 {
            return None;
        }
        self.healthy_since = Some(t);
        let drain_s = obs.p99_s.min(c.drain_timeout);
        Some(Decision {
            desired: nodes - remove,
            driver: DriverId::Shrink,
            detail: Message::new(MessageId::ElasticShrink)
                .num("healthy", time::seconds(t - since))
                .num("active", m.active)
                .num("safe", tr.safe_capacity)
                .int("needed", needed)
                .int("floor", floor)
                .int("remove", remove)
                .int("most", c.shrinkage_number)
                .num("p99", obs.p99_s)
                .num("drain_timeout", c.drain_timeout),
            removal: Removal::Drain(drain_s),
        })
    }
}

/// The trend's expansion: to the nodes the safe capacity needs (at least one more), or to
/// the ceiling when no capacity is safe.
fn trend_expansion(m: &Minute, r: &Readings, nodes: u32, ceiling: u32) -> Expansion {
    let (limit, rate, tr) = (r.limit, m.rate, &r.trend);
    let (to, how) = match tr.needed {
        Some(n) => (
            n.max(nodes + 1),
            Message::new(MessageId::ElasticTrendNodes)
                .num("limit", limit)
                .num("rate", rate)
                .num("safe", tr.safe_capacity)
                .num("active", m.active)
                .int("needed", n),
        ),
        None => (
            ceiling,
            Message::new(MessageId::ElasticTrendNoCapacity)
                .num("limit", limit)
                .num("rate", rate)
                .num("safe", tr.safe_capacity)
                .int("ceiling", ceiling),
        ),
    };
    (
        DriverId::Trend,
        to,
        Message::new(MessageId::ElasticTrend)
            .num("active", m.active)
            .num("rate", rate)
            .num("projected", tr.projected)
            .int("nodes", nodes)
            .num("limit", limit)
            .msg("how", how),
    )
}


impl Policy for Elastic {
    type Params = ElasticConfig;
    const RELATIONS: &'static [&'static Relation] = &[
        &TREND_EXPANSION,
        &DELAY_PREDICTION,
        &P95_EXPANSION,
        &SHRINKAGE,
        &crate::queueing::ENVOY_OVERFLOW,
    ];
    fn build(params: &ElasticConfig, _model: &crate::params::ModelParams) -> Self {
        Elastic::new(params.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::obs;
    use super::*;

    #[test]
    fn trend_worked_examples() {
        // 1,000 requests growing 5/s: safe capacity 700, 1000 / 700 = 1.43 → 2 nodes.
        let t = trend(1000.0, 5.0, 1000.0);
        assert_eq!(t.safe_capacity, 700.0);
        assert_eq!(t.needed, Some(2));
        // 820 active growing 4/s: 820 + 240 = 1060 > 1000, so scale out early → 2 nodes.
        let t = trend(820.0, 4.0, 1000.0);
        assert_eq!(t.projected, 1060.0);
        assert!(t.projected > 1000.0);
        assert_eq!(t.needed, Some(2));
        // Growing 20/s: the safe capacity is not positive.
        assert_eq!(trend(900.0, 20.0, 1000.0).needed, None);
    }

    #[test]
    fn expansion_sizes() {
        assert_eq!(expansion_size(5, 0.2, 2), 2);
        assert_eq!(expansion_size(10, 0.2, 2), 2);
        assert_eq!(expansion_size(12, 0.2, 2), 3);
        assert_eq!(expansion_size(20, 0.2, 2), 4);
    }

    /// The source's example limits: 1000 requests per node.
    fn source_limits() -> ElasticConfig {
        ElasticConfig {
            max_connections: config::SOURCE_PER_NODE_LIMIT,
            max_requests: config::SOURCE_PER_NODE_LIMIT,
            ..ElasticConfig::default()
        }
    }

    /// A single node with a per-node limit of 1000, driven through the policy.
    fn one_node(t: f64, active: f64) -> Observation {
        let mut o = obs(t, 10.0, 1, 0, active.min(16.0));
        o.waiting = (active - 16.0).max(0.0);
        // 1,000 completions per second: under a second of backlog, so only the trend acts.
        o.arrival_rate = 1000.0;
        o.completions_per_s = 1000.0;
        o.min_instances = 1;
        o
    }

    #[test]
    fn trend_fires_through_the_policy() {
        let mut e = Elastic::new(ElasticConfig {
            min_nodes: 1,
            ..source_limits()
        });
        // 600 active for a minute, then 820: (820 − 600) / 60 s = 3.7/s, and
        // 820 + 3.7 × 60 = 1040 > 1000, so scale out now: ⌈820 / (1000 − 220)⌉ = 2.
        for k in 1..=6 {
            assert!(e.decide(&one_node(10.0 * f64::from(k), 600.0)).is_none());
        }
        let last = e.decide(&one_node(70.0, 820.0));
        let d = last.expect("trend fires at 820");
        assert_eq!((d.desired, d.driver), (2, DriverId::Trend), "{}", d.detail);
        assert!(d.detail.to_string().contains("active 820"), "{}", d.detail);
    }

    /// `nodes` overloaded nodes: 2.5 s of backlog at 100 completions per second.
    fn slow(t: f64, nodes: u32) -> Observation {
        let mut o = obs(t, 10.0, nodes, 0, f64::from(nodes) * 16.0);
        o.arrival_rate = 100.0;
        o.completions_per_s = 100.0;
        o.waiting = 250.0 - o.in_service;
        o
    }

    #[test]
    fn delay_prediction_expands_by_a_fifth_or_two_and_cools() {
        let mut e = Elastic::new(ElasticConfig {
            expansion_strategies: vec!["delay_prediction".into()],
            ..ElasticConfig::default()
        });
        let mut fires = Vec::new();
        for k in 1..=40 {
            let t = 10.0 * f64::from(k);
            if let Some(d) = e.decide(&slow(t, 10)) {
                fires.push((t, d));
            }
        }
        // 250 / 100 = 2.5 s ≥ 2 s: fires once 100 requests have been seen (t = 10 s: 1,000),
        // adds max(⌈10 × 0.2⌉, 2) = 2, then not again for 180 s.
        assert_eq!(fires[0].0, 10.0);
        assert_eq!((fires[0].1.desired, fires[0].1.driver), (12, DriverId::Delay));
        assert_eq!(fires[1].0, 190.0, "cooling blocks a second expansion");
        assert_eq!(fires.len(), 3);
    }

    #[test]
    fn p95_needs_the_breach_to_last_and_respects_sample_size() {
        let mut e = Elastic::new(ElasticConfig {
            expansion_strategies: vec!["p95_expansion".into()],
            ..ElasticConfig::default()
        });
        let breach = |t: f64| {
            let mut o = obs(t, 10.0, 10, 0, 100.0);
            o.arrival_rate = 100.0;
            o.completions_per_s = 100.0;
            // Saturated tail: five times what 10 workers serve, so every request waits
            // about the whole 2 s timeout, slower than 500 ms.
            o.tail = crate::queueing::SojournTail::new(1000.0, 0.05, 10, 2.0);
            o
        };
        let mut first = None;
        for k in 1..=10 {
            let t = 10.0 * f64::from(k);
            if let Some(d) = e.decide(&breach(t)) {
                first = Some((t, d));
                break;
            }
        }
        let (t, d) = first.unwrap();
        // Breach from the first sample at 10 s; fires once it has lasted 30 s.
        assert_eq!(t, 40.0);
        assert_eq!((d.desired, d.driver), (12, DriverId::P95), "{}", d.detail);
        // Too few requests: ignored.
        let mut e = Elastic::new(ElasticConfig::default());
        for k in 1..=10 {
            let mut o = breach(10.0 * f64::from(k));
            o.arrival_rate = 0.1;
            assert!(e.decide(&o).is_none());
        }
    }

    #[test]
    fn shrinks_one_drained_node_after_the_healthy_period() {
        let mut e = Elastic::new(ElasticConfig::default());
        let calm = |t: f64| {
            let mut o = obs(t, 10.0, 6, 0, 20.0);
            o.min_instances = 2;
            o.p99_s = 0.3;
            o
        };
        let mut shrinks = Vec::new();
        for k in 1..=130 {
            let t = 10.0 * f64::from(k);
            if let Some(d) = e.decide(&calm(t)) {
                shrinks.push((t, d));
            }
        }
        // First sample at 10 s starts the healthy period; 600 s later one node goes, drained
        // for ≈ p99 (not the 60 s timeout); then 600 s more for the next.
        assert_eq!(shrinks.len(), 2);
        assert_eq!(shrinks[0].0, 610.0);
        assert_eq!(shrinks[0].1.desired, 5);
        assert_eq!(shrinks[0].1.removal, Removal::Drain(0.3));
        assert_eq!(shrinks[1].0, 1210.0);
    }

    #[test]
    fn min_nodes_at_start_and_limits() {
        let mut e = Elastic::new(ElasticConfig::default());
        let d = e.decide(&obs(10.0, 10.0, 1, 0, 1.0)).unwrap();
        assert_eq!((d.desired, d.driver), (2, DriverId::MinNodes));
        // The per-node limits start from the simulated node's 16 workers.
        assert_eq!(
            e.admission(),
            Some(Admission {
                per_node_requests: 16,
                pending: 100
            })
        );
        assert_eq!(
            f64::from(e.config().per_node_limit()),
            crate::params::DEFAULT_WORKERS_PER_INSTANCE
        );
        assert_eq!(
            crate::params::ModelParams::default().workers(),
            e.config().per_node_limit()
        );
        let e = Elastic::new(source_limits());
        assert_eq!(e.admission().unwrap().per_node_requests, 1000);
        assert_eq!(e.tick_s(), 10);
    }
}
