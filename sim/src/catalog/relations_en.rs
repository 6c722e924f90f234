//! English texts of the model's relations: name, formula, what each symbol means and caveats,
//! looked up by [`RelationId`], and [`render`], which fills in the values in force.
//!
//! # Placeholders
//!
//! Where a text states the value of a parameter, it names the parameter in braces instead,
//! so the text follows the value when it changes:
//!
//! | written            | rendered as                                   | default |
//! |--------------------|-----------------------------------------------|---------|
//! | `{timeout_s}`      | the value                                     | `2`     |
//! | `{hpa.tolerance}`  | the value (policy parameters by full name)    | `0.1`   |
//! | `{slo%}`           | the value × 100, for a share written with `%` | `99.9`  |
//! | `{1-slo%}`         | (1 − value) × 100: the complement of a share  | `0.1`   |
//!
//! The name is any parameter [`ModelParams::get`] or [`PolicySettings::get`] knows. Braces
//! are reserved for placeholders: a text never contains a literal brace, so a brace left in
//! rendered text is a placeholder that did not resolve (the tests check there are none).
//!
//! Numbers are written plainly: whole numbers without decimals (`4000`, `16`), others in the
//! shortest form that reads back as the same value (`0.4`, `1.25`). A value scaled by `%` or
//! complemented by `1-` is first rounded to ten significant digits, so that binary rounding
//! (0.07 × 100 = 7.000000000000001) does not show.

use crate::autoscale::PolicySettings;
use crate::params::ModelParams;
use crate::relations::{Citation, Relation, RelationId};

/// The English texts of one relation, placeholders unfilled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelationTexts {
    /// Short name.
    pub name: &'static str,
    /// The formula in plain Unicode.
    pub formula: &'static str,
    /// What each symbol of [`Relation::symbols`] means, in the same order.
    pub symbols: &'static [&'static str],
    /// Caveats: where the relation is an approximation or a choice of this model; may be
    /// empty.
    pub note: &'static str,
}

/// A relation with its texts rendered for the values in force, ready to show.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderedRelation {
    /// Which relation.
    pub id: RelationId,
    /// Short name.
    pub name: String,
    /// The formula.
    pub formula: String,
    /// Each symbol with what it means.
    pub symbols: Vec<(&'static str, String)>,
    /// Caveats; empty when there are none.
    pub note: String,
    /// Sources (bibliographic data, shown as they are).
    pub citations: &'static [Citation],
    /// Whether the relation is an assumption of this model rather than a law.
    pub assumption: bool,
}

/// Renders `relation`'s texts with the values of `model` and `policies` filled in.
pub fn render(
    relation: &Relation,
    model: &ModelParams,
    policies: &PolicySettings,
) -> RenderedRelation {
    let texts = texts(relation.id);
    let value = |name: &str| model.get(name).or_else(|| policies.get(name));
    RenderedRelation {
        id: relation.id,
        name: fill(texts.name, value),
        formula: fill(texts.formula, value),
        symbols: relation
            .symbols
            .iter()
            .zip(texts.symbols)
            .map(|(glyph, meaning)| (*glyph, fill(meaning, value)))
            .collect(),
        note: fill(texts.note, value),
        citations: relation.citations,
        assumption: relation.assumption,
    }
}

/// One placeholder of a text (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placeholder<'a> {
    /// The parameter's name.
    pub name: &'a str,
    /// `1-`: one minus the value.
    pub complement: bool,
    /// `%`: the value × 100.
    pub percent: bool,
}

impl<'a> Placeholder<'a> {
    /// Reads the inside of a pair of braces; `None` when it is not a placeholder.
    fn parse(inside: &'a str) -> Option<Self> {
        let (complement, rest) = match inside.strip_prefix("1-") {
            Some(rest) => (true, rest),
            None => (false, inside),
        };
        let (percent, name) = match rest.strip_suffix('%') {
            Some(name) => (true, name),
            None => (false, rest),
        };
        let well_formed = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
        well_formed.then_some(Self {
            name,
            complement,
            percent,
        })
    }

    /// The number to show for the parameter's value `x`.
    fn apply(&self, x: f64) -> String {
        let mut shown = x;
        if self.complement {
            shown = 1.0 - shown;
        }
        if self.percent {
            shown *= 100.0;
        }
        if self.complement || self.percent {
            shown = round_significant(shown);
        }
        format_number(shown)
    }
}

/// The placeholders of `text`, in order.
pub fn placeholders(text: &str) -> Vec<Placeholder<'_>> {
    super::braces(text).filter_map(Placeholder::parse).collect()
}

/// `text` with each placeholder replaced by the value `value` gives for its name. A
/// placeholder whose name has no value, or braces that hold no placeholder, stay as written.
pub fn fill(text: &str, value: impl Fn(&str) -> Option<f64>) -> String {
    let mut out = String::with_capacity(text.len());
    super::substitute(&mut out, text, |out, inside| {
        match Placeholder::parse(inside).and_then(|p| Some(p.apply(value(p.name)?))) {
            Some(number) => {
                out.push_str(&number);
                true
            }
            None => false,
        }
    });
    out
}

/// Whole numbers without decimals, others in their shortest round-trip form.
fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// `x` rounded to ten significant digits: written with the decimals that leave ten (the
/// standard library rounds the exact value, as `{:.9e}` would) and read back. Numbers of ten
/// digits or more before the point keep their whole part. (Not `{:.9e}` itself: the page
/// would download the exponent formatting for this one use.)
fn round_significant(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let mut magnitude = libm::floor(libm::log10(x.abs())) as i32;
    // log10 may miss by one next to a power of ten.
    if libm::pow(10.0, f64::from(magnitude + 1)) <= x.abs() {
        magnitude += 1;
    } else if libm::pow(10.0, f64::from(magnitude)) > x.abs() {
        magnitude -= 1;
    }
    let decimals = usize::try_from(9 - magnitude).unwrap_or(0);
    crate::decimal::parse_decimal(&format!("{x:.decimals$}")).unwrap_or(x)
}

/// The English texts of relation `id`, placeholders unfilled: its name, symbol meanings and
/// note from `locales/en/relations.json`, its formula from [`formula`].
pub const fn texts(id: RelationId) -> RelationTexts {
    let (name, symbols, note): (&str, &[&str], &str) =
        include!(concat!(env!("OUT_DIR"), "/relation_words_en.rs"));
    RelationTexts {
        name,
        formula: formula(id),
        symbols,
        note,
    }
}

/// The formula of relation `id` in plain Unicode, as published: formulas are not translated.
pub const fn formula(id: RelationId) -> &'static str {
    match id {
        RelationId::Arrivals => "λ(t) = base × (1 + {diurnal_amplitude}·sin(2π(t + clock − 6 h)/24 h)) × surge(t) × drift(t);  requests in a minute ≈ Normal(60λ, √(60λ)) × (1 + Normal(0, {traffic_drift_cv}))",
        RelationId::OfferedLoad => "N = instances × workers per instance;  a = λ·S",
        RelationId::ErlangB => "B(a, 0) = 1;  B(a, k) = a·B(a, k−1) / (k + a·B(a, k−1))",
        RelationId::ErlangC => "C(a, N) = B / (1 − (a/N)(1 − B)),  B = Erlang B(a, N)",
        RelationId::WaitingTail => "P(W > t) = C·e^(−(N/S − λ)·t)",
        RelationId::Abandonment => "P(V = 0) = π / B(a, N−1);  density of V: λπ·e^(−δx) for 0 < x ≤ τ, then λπ·e^(−δτ)·e^(−(N/S)(x − τ));  timeout share = P(V ≥ τ) = λπ·e^(−δτ)·S/N;  served: V < τ, latency T = V + service;  utilization = λ·S·(1 − timeout share)/N",
        RelationId::SojournP99Exact => "without a timeout: P(T > t) = (1 − C)·e^(−μt) + C·(θ·e^(−μt) − μ·e^(−θt)) / (θ − μ);  with it: P(T > t | served) from the M/M/N+D waits;  p99: P(T > t) = 0.01, solved numerically",
        RelationId::SojournP99Approx => "p99 ≈ S·ln 100 + ln(C/0.01) / (N/S − λ)",
        RelationId::Utilization => "L = λ·S busy workers;  utilization = λ·S / N",
        RelationId::TtlHit => "hit = warm × rT / (1 + rT),  r = λ / {hot_objects} objects;  mean age ≈ T/2",
        RelationId::CacheRefill => "warm ← warm + (1 − warm)(1 − e^(−Δt·f/τ)),  τ = {refill_tau_min} min,  f = min(1, DB capacity / DB demand);  warm-up job: +{warmup_gain_per_min%} % per minute for {warmup_minutes} minutes, +{warmup_db_qps} queries/s",
        RelationId::DbLoad => "load = λ·q·(1 − hit) (+ {warmup_db_qps} queries/s while warming);  ρ_db = load / {db_capacity_qps}",
        RelationId::QueryTime => "query time = {db_query_ms} ms / (1 − ρ_db), at most {db_query_cap_ms} ms",
        RelationId::ServiceTime => "S = S_app + (1 − hit)·q·query time;  S_app = {app_time_ms} ms (+{heavy_feature_ms} ms with the heavy feature, ×{bad_build_cpu_factor} on a bad build)",
        RelationId::ErrorBudget => "budget = 1 − SLO = {1-slo%} %;  burn = error rate / {1-slo%} %;  budget spent per minute = burn / 43,200",
        RelationId::ErrorBudgetRequests => "budget spent in a minute = errors / ({1-slo%} % × month's expected requests);  month's expected requests = base × 60 s × 43,200 min;  errors = error rate × admitted requests/s × 60 s",
        RelationId::BurnRate1h => "burn(1 h) = mean error rate over the last 60 minutes / {1-slo%} %  (likewise over 5 minutes)",
        RelationId::MultiwindowPage => "page ⇔ burn(1 h) ≥ 14.4 and burn(5 min) ≥ 14.4",
        RelationId::ErrorsCounted => "error rate = timeouts (requests that give up, M/M/N+D) + (1 − timeouts) × bad-build share × severity × {bad_build_error_rate%} % + overflow rejections (429/503)",
        RelationId::TargetTracking => "desired = ⌈serving × utilization / target⌉, within [minimum, {max_instances}];  no scale-out while instances boot;  scale-in by ≤ {scale_in_max_share%} % of the fleet after {scale_in_quiet_minutes} quiet minutes",
        RelationId::CloudRunCpu => "instances = ⌈(average CPU usage per second over the past {cloud_run.window_s} s / CPUs per instance) / CPU target⌉",
        RelationId::CloudRunConcurrency => "instances = ⌈(max(average concurrent requests over {cloud_run.window_s} s, over {cloud_run.long_window_s} s) / maximum concurrency) / concurrency target⌉;  while no instance serves, the requests held in the pending queue count as concurrent requests at the demand they bring, a = λ·S",
        RelationId::CloudRunAct => "instances = ⌈(average concurrent requests over {cloud_run.window_s} s / ACT) / concurrency target⌉;  each second: CPU > {cloud_run.act_cpu_high%} % ⇒ ACT − 1;  at ACT and CPU < {cloud_run.act_cpu_low%} % ⇒ ACT + 1 (up to the maximum concurrency)",
        RelationId::CloudRunTolerance => "hold while |utilization / target − 1| ≤ {cloud_run.tolerance%} % (a 10 % band around a 60 % target, for example, holds from 54 to 66 %);  otherwise recompute from measured utilization and target, rounded up (4.1 → 5)",
        RelationId::CloudRunScaleIn => "the recommendation drops only when utilization is more than {cloud_run.tolerance%} % below target;  the balancer prefers recommended instances;  the other serving instances shut down after {cloud_run.scale_in_after_s} s under {cloud_run.scale_in_utilization%} % utilization, or else after an idle timeout of {cloud_run.idle_timeout_s} s;  instances still starting are not idle and stay",
        RelationId::CloudRunOnDemand => "demand a = λ·S > (serving + starting) × maximum concurrency ⇒ start ⌈a / maximum concurrency⌉ at once;  a request waits in the pending queue at most max({cloud_run.pending_min_s} s, {cloud_run.pending_cold_start_factor} × expected cold start);  at the maximum instances with no slot free in that time: 429 (share 1 − maximum × concurrency / a)",
        RelationId::ElasticTrend => "every {elastic.acq_frequency} s: rate = growth of active requests over the last 60 s;  active + rate × 60 s > nodes × max_requests ⇒ nodes = ⌈active / safe capacity⌉, safe capacity = max_requests − rate × 60 s (≤ 0 ⇒ max_nodes);  then cooling ({elastic.trend_expansion.expand_cooling_time} s)",
        RelationId::ElasticDelay => "every {elastic.acq_frequency} s: predicted time = (new + in service + queued) / completions per second over the last minute;  ≥ delay_time ({elastic.delay_prediction.delay_time} s) ⇒ add max(⌈nodes × {elastic.delay_prediction.expansion_ratio}⌉, {elastic.delay_prediction.min_expansion});  ignored below min_sample_size ({elastic.delay_prediction.min_sample_size}) requests in the last minute;  then cooling ({elastic.delay_prediction.expand_cooling_time} s)",
        RelationId::ElasticP95 => "every {elastic.acq_frequency} s: more than 5 % of the last minute's requests slower than threshold ({elastic.p95_expansion.threshold} ms) for threshold_duration ({elastic.p95_expansion.threshold_duration} s) ⇒ add max(⌈nodes × {elastic.p95_expansion.expansion_ratio}⌉, {elastic.p95_expansion.min_expansion});  the same rules of sample size (min_sample_size {elastic.p95_expansion.min_sample_size}) and cooling ({elastic.p95_expansion.expand_cooling_time} s)",
        RelationId::ElasticShrink => "all strategies healthy for shrinkage_delay_time ({elastic.shrinkage_delay_time} s) ⇒ remove min(nodes − max(trend's ⌈active / safe capacity⌉, min_nodes ({elastic.min_nodes})), shrinkage_number ({elastic.shrinkage_number}));  the node takes no new traffic and leaves when its active requests reach zero or after drain_timeout ({elastic.drain_timeout} s)",
        RelationId::EnvoyOverflow => "room R = nodes × (min(max_connections, max_requests) − workers)⁺ + max_pending_requests;  if R < (N/S)·timeout:  rejected = P_K of M/M/N/K = ρ^R / (1/B + Σ_(j=1..R) ρ^j), admitted requests never wait past the timeout;  else the room never fills before requests time out, and the M/M/N formulas apply",
        RelationId::HpaRatio => "desired = ⌈current × metric / target⌉;  no change while |metric / target − 1| ≤ {hpa.tolerance};  when scaling up, pods not yet ready count as 0 % and the ratio is recomputed (no change if that reverses the direction or falls within the tolerance)",
        RelationId::HpaBehavior => "every {hpa.sync_period_s} s;  scale-down: the highest recommendation of the last {hpa.scale_down_stabilization_s} s, at most {hpa.scale_down_percent} % of the pods per {hpa.scale_down_period_s} s;  scale-up: the lowest recommendation of the last {hpa.scale_up_stabilization_s} s (0: no stabilization), at most max(current × (1 + {hpa.scale_up_percent} %), current + {hpa.scale_up_pods}) per {hpa.scale_up_period_s} s;  a new HPA's first recommendation is the current replica count",
        RelationId::KpaStablePanic => "target = container concurrency × {kpa.target_utilization%} %;  stable pods = ⌈average concurrency over {kpa.stable_window_s} s / target⌉;  panic pods = ⌈average over the panic window ({kpa.panic_window_percentage} % of {kpa.stable_window_s} s) / target⌉;  panic when panic pods / ready pods ≥ {kpa.panic_threshold_percentage} %;  in panic: the larger of the two, never decreasing;  panic ends {kpa.stable_window_s} s after the last tick over the threshold",
        RelationId::KpaBounds => "⌊ready / {kpa.max_scale_down_rate}⌋ ≤ desired ≤ ⌈{kpa.max_scale_up_rate} × ready⌉ (ready taken as at least 1);  desired 0 only after the {kpa.scale_to_zero_grace_s} s scale-to-zero grace period",
        RelationId::MinuteQuantile => "P(T > t) over the minute = Σₖ wₖ·Pₖ(T > t) / Σₖ wₖ;  p99: the t where it equals 0.01 (Newton's method between the steps' own p99s)",
        RelationId::MaglevTable => "offset = h₁(host) mod M,  skip = h₂(host) mod (M − 1) + 1,  permutation[j] = (offset + j · skip) mod M;  the hosts take turns, each claiming the next empty slot of its permutation, until the M slots are full;  a key goes to the host of slot h(key) mod M;  each host holds ⌊M/N⌋ or ⌈M/N⌉ slots",
        RelationId::RingHash => "V = ⌈minimum ring size / N⌉ points per host, at xxHash64(\"host_j\") for j = 0 … V − 1, sorted;  a key goes to the first point at or after h(key), wrapping past the top of the ring (binary search);  a host's share is the sum of the arcs ending at its points;  relative standard deviation of the shares √((N − 1)/(N·V + 1)) ≈ 1/√V",
        RelationId::HashKeysMoved => "ring hash with the same points per host: exactly the keys of the K hosts that leave, their share of the ring ≈ K/N;  Envoy's ring, rebuilt with ⌈minimum ring size / (N − K)⌉ points per host: those keys and the arcs the new points take;  Maglev: the leaving hosts' keys and a few more, since the table is populated anew (≥ K/N)",
        RelationId::HealthProbes => "a probe every I = 5 s (timeout 5 s);  a healthy endpoint becomes unhealthy after k_u = 2 consecutive failed probes, an unhealthy one healthy after k_h = 2 consecutive passed probes;  a probe fails when the instance crashed or is not serving, or when it cannot answer within the probe's timeout (it waits in the same queue, whose requests give up after {timeout_s} s: only with a request timeout of at least 5 s and most requests timing out);  the consumer stops routing at most I × k_u + d = 10 s + {propagation_delay_s} s after a failure",
        RelationId::HealthAggregation => "HEALTHY when h × 100 ≥ p × n and h ≥ m, else UNHEALTHY;  now p = {healthy_percent} %, m = {min_healthy}",
        RelationId::CompositeHealth => "HEALTHY when every source is HEALTHY;  UNHEALTHY when any source is UNHEALTHY;  otherwise (none unhealthy, one or more unknown) UNKNOWN",
        RelationId::Failover => "the consumer learns a composite state d = {propagation_delay_s} s after it is evaluated;  an UNHEALTHY region leaves routing and its users go to the nearest region in routing (a → b → c), each request paying Δ = {cross_region_ms} ms more;  a failed-over request reaches the far queue Δ after it was sent, so of the timeout τ = {timeout_s} s it has τ − Δ left to wait: P(V > τ − Δ) of them time out (every one when Δ > τ);  when the region is no longer UNHEALTHY they come back",
        RelationId::OutlierDetection => "at each sweep (every 10 s) an instance is ejected when its n requests since the last sweep, each failing with probability e, more likely than not held k = 5 failures in a row: λ = e^k · (1 + (n − k)(1 − e)) ≥ ln 2;  at most while ejected × 100 < 10 % × hosts;  for 30 s × the times it was ejected (≤ 300 s)",
        RelationId::RegionDemand => "λ_r = λ × w_r · D(t, clock + o_r) / Σ_s w_s · D(t, clock + o_s);  with 2 regions w = 60 %, 40 %; with 3, 50 %, 30 %, 20 %;  o = 0, −60, −180 min",
        RelationId::Calibration => "{workers_per_instance} workers/instance · app time {app_time_ms} ms (+{heavy_feature_ms} ms and +{heavy_feature_queries} queries per miss with the heavy feature) · {queries_per_miss} queries per miss · database {db_capacity_qps} queries/s, {db_query_ms} ms idle, ≤ {db_query_cap_ms} ms · {hot_objects} hot objects · refill τ = {refill_tau_min} min · warm-up +{warmup_gain_per_min%} %/min for {warmup_minutes} min, +{warmup_db_qps} queries/s · timeout {timeout_s} s · {low_priority_share%} % low-priority traffic · bad build +{bad_build_error_rate%} % errors, ×{bad_build_cpu_factor} CPU · rollback {rollback_minutes} min · ${price_per_instance_hour} per instance-hour · scale-in ≤ {scale_in_max_share%} % after {scale_in_quiet_minutes} quiet minutes · up to {max_instances} instances · daily swing ±{diurnal_amplitude%} %, drift {traffic_drift_cv%} % · SLO {slo%} %",
        RelationId::ScenarioTwists => "each scenario draws its twist from its own generator, mulberry32(seed ⊕ a constant per twist), uniformly within these ranges:  viral surge: start at minute 20–150, peak ×2–×4, ramp 4–15 min, hold 30–90 min, then decay with τ = 45 min;  bad deploy: rollout starts at minute 7–13 (09:07–09:13), lasts 3–6 min, and the bad build fails 0.6–2 × the model's {bad_build_error_rate%} % extra error share;  cache flush: at minute 12–20 (11:57–12:05), 60–100 % of the cache;  slow instance: one of 10 instances at minute 8–15 (11:58–12:05) for 15–30 min, service times ×8–×20;  hot key: a key of rank 10–99 at minute 8–15 (11:48–11:55) for 20–40 min, carrying 15–30 % of the requests;  free play: drift(t) = 1 + level × (1 − e^(−t/τ)), level −15 % to +20 %, τ 120–600 min;  regional outage: at minute 25–40 (11:55–12:10) region a loses 50–80 % of its instances to a zone outage (3 seeds in 4) or its database fails, back after 30–60 min",
        RelationId::RequestEngine => "arrivals Poisson at λ; instance chosen by the policy; start = max(arrival, earliest free worker of the instance); deadline = arrival + τ; if start > deadline it gives up at the deadline without a worker; otherwise it is served until min(start + service, deadline) (service exponential, mean S), and fails with a timeout, its worker freed, when the deadline comes first",
        RelationId::Supermarket => "s_i = ρ^(2^i − 1);  E[T] = S · Σ over i ≥ 1 of ρ^(2^i − 2)",
        RelationId::RoutedShares => "round robin, random, least request: wᵢ = 1/I;  ring hash, Maglev: wᵢ = Σ P(key) over the keys whose hash the ring or table sends to instance i;  λᵢ = wᵢ·λ;  random and the hash policies: each instance is M/M/c+D at λᵢ",
        RelationId::RoundRobinQueue => "every I-th request: gaps Erlang-I of rate λ/I, A*(s) = (λ/(λ + s))^I;  σ = A*(cμ(1 − σ)), 0 < σ < 1;  P(wait) from the chain of (requests held, arrival phase), geometric of ratio σ beyond c − 1 (matrix-geometric);  a request that waits waits Exp(θ), θ = cμ(1 − σ);  with the timeout τ: the waits below τ keep this law, and each request that lifts the wait past τ is followed by A*(cμ)/(1 − A*(cμ)) that give up",
        RelationId::SupermarketLatency => "one worker: s_k = ρ^((d^k − 1)/(d − 1));  c workers: cρ·s_(k−1)^d = k·s_k + Σ_(j=k+1..c) s_j for k ≤ c, s_k = ρ·s_(k−1)^d beyond (solved numerically);  the d choices drawn independently with replacement, as Envoy draws them, so a request finds at least k requests with probability s_k^d;  with k ≥ c it waits Erlang(k − c + 1, cμ), then its service:  P(W > τ) = Σ_(m≥0) Pois(m; cμτ)·s_(c+m)^d;  one worker: P(T > t) = Σ_(m≥0) Pois(m; μt)·s_m^d, E[T] = S·Σ_(k≥0) s_k^d",
        RelationId::RoutedMixture => "timeouts = Σᵢ wᵢ·timeoutsᵢ;  P(T > t) over the served = Σᵢ wᵢ·servedᵢ·Pᵢ(T > t) / Σᵢ wᵢ·servedᵢ;  p99: the t where it equals 0.01",
        RelationId::ZipfKeys => "P(key of rank i) = i^(−s) / Σ_(j=1..K) j^(−s);  drawn by one uniform and a binary search of the cumulative probabilities",
        RelationId::LognormalService => "S_req = e^(μ + σ·Z), Z normal;  μ = ln S − σ²/2, so E[S_req] = S;  coefficient of variation √(e^(σ²) − 1)",
        RelationId::HedgeTokenBucket => "no success d after the last copy and b ≥ 1 ⇒ b := b − 1, a copy to another instance (same policy), again every d until the total timeout;  each successful request: b := min(B, b + r);  first success wins, waiting copies are cancelled, copies in service finish (duplicates);  hedges ≤ b₀ + r × successes, so the hedged share ≤ r + b₀ / requests",
        RelationId::Randomness => "mulberry32(seed); uniform u; exponential of mean m by the ziggurat: 8 bits pick one of 256 layers of equal area under e^(−x), 24 bits a point x in it, kept at once when it lies under the layer above (98.9 %), else tested against e^(−x) in its wedge, and beyond r = 7.697 the tail r − ln(1 − u); normal √(−2 ln u₁)·cos(2π u₂) (Box–Muller); Poisson by Knuth's product of uniforms",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::registry::ALL;

    fn is_parameter(name: &str) -> bool {
        ModelParams::SPECS
            .iter()
            .chain(PolicySettings::all_specs())
            .any(|s| s.name == name)
    }

    fn all_texts(r: &RenderedRelation) -> Vec<&str> {
        let mut out = vec![r.name.as_str(), r.formula.as_str(), r.note.as_str()];
        out.extend(r.symbols.iter().map(|(_, meaning)| meaning.as_str()));
        out
    }

    #[test]
    fn every_relation_renders_with_the_defaults() {
        let model = ModelParams::default();
        let policies = PolicySettings::default();
        for relation in ALL {
            let t = texts(relation.id);
            assert!(
                !t.name.is_empty() && !t.formula.is_empty(),
                "{}",
                relation.id
            );
            assert_eq!(
                t.symbols.len(),
                relation.symbols.len(),
                "{}: one meaning per symbol",
                relation.id
            );
            let mut templates = vec![t.name, t.formula, t.note];
            templates.extend(t.symbols);
            for template in templates {
                for p in placeholders(template) {
                    assert!(is_parameter(p.name), "{}: {{{}}}", relation.id, p.name);
                }
            }
            let rendered = render(relation, &model, &policies);
            for text in all_texts(&rendered) {
                assert!(
                    !text.contains('{') && !text.contains('}'),
                    "{}: unfilled placeholder in {text:?}",
                    relation.id
                );
            }
        }
    }

    #[test]
    fn the_defaults_read_as_before() {
        let model = ModelParams::default();
        let policies = PolicySettings::default();
        let formula = |r: &Relation| render(r, &model, &policies).formula;
        assert_eq!(
            formula(&crate::budget::ERROR_BUDGET),
            "budget = 1 − SLO = 0.1 %;  burn = error rate / 0.1 %;  budget spent per minute = burn / 43,200"
        );
        assert!(formula(&crate::autoscale::hpa::HPA_RATIO).contains("|metric / target − 1| ≤ 0.1;"));
        let patience = render(&crate::queueing::ABANDONMENT, &model, &policies).symbols;
        assert_eq!(
            patience[0],
            ("τ", "patience: the 2 s request timeout".to_owned())
        );
        let kpa = formula(&crate::autoscale::kpa::KPA_STABLE_PANIC);
        assert!(
            kpa.starts_with("target = container concurrency × 70 %;"),
            "{kpa}"
        );
        assert!(kpa.contains("≥ 200 %"), "{kpa}");
        let calibration = formula(&crate::params::CALIBRATION);
        assert!(calibration.starts_with("16 workers/instance · app time 50 ms"));
        assert!(
            calibration.contains("$0.4 per instance-hour"),
            "{calibration}"
        );
        assert!(calibration.contains("scale-in ≤ 20 % after 10 quiet minutes"));
        let slo = render(&crate::budget::ERROR_BUDGET, &model, &policies).symbols;
        assert_eq!(
            slo,
            vec![("SLO", "99.9 % of requests succeed over 30 days".to_owned())]
        );
    }

    #[test]
    fn a_changed_parameter_shows_in_the_text() {
        let mut model = ModelParams::default();
        let mut policies = PolicySettings::default();
        model.set("timeout_s", 3.0).unwrap();
        model.set("slo", 0.995).unwrap();
        policies.set("hpa.tolerance", 0.2).unwrap();
        policies.set("kpa.target_utilization", 0.07).unwrap();
        let hpa = render(&crate::autoscale::hpa::HPA_RATIO, &model, &policies);
        assert!(
            hpa.formula.contains("|metric / target − 1| ≤ 0.2;"),
            "{}",
            hpa.formula
        );
        let tail = render(&crate::queueing::ABANDONMENT, &model, &policies);
        assert_eq!(tail.symbols[0].1, "patience: the 3 s request timeout");
        let budget = render(&crate::budget::ERROR_BUDGET, &model, &policies);
        assert!(
            budget.formula.contains("1 − SLO = 0.5 %"),
            "{}",
            budget.formula
        );
        assert_eq!(
            budget.symbols[0].1,
            "99.5 % of requests succeed over 30 days"
        );
        let kpa = render(&crate::autoscale::kpa::KPA_STABLE_PANIC, &model, &policies);
        assert!(kpa.formula.contains("× 7 %;"), "{}", kpa.formula);
        let calibration = render(&crate::params::CALIBRATION, &model, &policies);
        assert!(
            calibration.formula.contains("timeout 3 s"),
            "{}",
            calibration.formula
        );
    }

    #[test]
    fn placeholder_syntax() {
        let value = |name: &str| match name {
            "a" => Some(0.999),
            "b.c" => Some(4000.0),
            "d" => Some(0.07),
            _ => None,
        };
        assert_eq!(fill("{a} {a%} {1-a%} {b.c}", value), "0.999 99.9 0.1 4000");
        assert_eq!(fill("{d%} %", value), "7 %");
        assert_eq!(
            fill("{unknown} {Not A Name} {", value),
            "{unknown} {Not A Name} {"
        );
        assert_eq!(fill("no braces", value), "no braces");
        assert_eq!(
            placeholders("x {1-a%} y {b.c} {j = 1}"),
            vec![
                Placeholder {
                    name: "a",
                    complement: true,
                    percent: true
                },
                Placeholder {
                    name: "b.c",
                    complement: false,
                    percent: false
                },
            ]
        );
        assert_eq!(format_number(0.4), "0.4");
        assert_eq!(format_number(1.25), "1.25");
        assert_eq!(format_number(-3.0), "-3");
    }
}

#[cfg(test)]
mod rounding_tests {
    #[test]
    fn rounding_to_ten_digits_agrees_with_the_exponent_form() {
        let mut x = 1.234_567_890_123e-7_f64;
        let mut seen = 0;
        while x < 1e9 {
            for y in [x, -x, x * 1.000_000_000_5, x * 9.999_999_999_7] {
                let by_exponent = crate::decimal::parse_decimal(&format!("{y:.9e}")).unwrap();
                assert_eq!(super::round_significant(y), by_exponent, "{y}");
                seen += 1;
            }
            x *= 3.7;
        }
        assert!(seen > 100);
        for k in -7..9 {
            let p = libm::pow(10.0, f64::from(k));
            for y in [p, p * 0.999_999_999_99, p * 1.000_000_000_01] {
                let by_exponent = crate::decimal::parse_decimal(&format!("{y:.9e}")).unwrap();
                assert_eq!(super::round_significant(y), by_exponent, "{y}");
            }
        }
        assert_eq!(super::round_significant(0.0), 0.0);
    }
}
