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

/// The English texts of relation `id`, placeholders unfilled.
pub const fn texts(id: RelationId) -> RelationTexts {
    match id {
        RelationId::Arrivals => RelationTexts {
            name: "Arrival rate",
            formula: "λ(t) = base × (1 + {diurnal_amplitude}·sin(2π(t + clock − 6 h)/24 h)) × surge(t) × drift(t);  requests in a minute ≈ Normal(60λ, √(60λ)) × (1 + Normal(0, {traffic_drift_cv}))",
            symbols: &["mean daily rate (req/s); the peak at 12:00 is (1 + {diurnal_amplitude}) × base", "time of day when the run starts", "the scenario's traffic multiplier (1 when there is none)", "free play's slow drift of the usual traffic, 1 + level × (1 − e^(−t/τ)) (1 in the other scenarios; see the scenario twists)"],
            note: "The Normal(60λ, √(60λ)) term is the Poisson count's normal approximation; the {traffic_drift_cv%} % factor is day-to-day drift.",
        },
        RelationId::OfferedLoad => RelationTexts {
            name: "Servers and offered load",
            formula: "N = instances × workers per instance;  a = λ·S",
            symbols: &["worker slots serving requests", "arrival rate admitted by the load balancer (req/s)", "mean service time (s)", "offered load in Erlangs"],
            note: "{workers_per_instance} workers per instance is an example calibration.",
        },
        RelationId::ErlangB => RelationTexts {
            name: "Erlang B",
            formula: "B(a, 0) = 1;  B(a, k) = a·B(a, k−1) / (k + a·B(a, k−1))",
            symbols: &["probability that all N servers are busy in a loss system"],
            note: "Computed by the recursion, which never overflows.",
        },
        RelationId::ErlangC => RelationTexts {
            name: "Erlang C (probability of waiting)",
            formula: "C(a, N) = B / (1 − (a/N)(1 − B)),  B = Erlang B(a, N)",
            symbols: &["probability that a request waits for a worker"],
            note: "C = 1 when a ≥ N.",
        },
        RelationId::WaitingTail => RelationTexts {
            name: "Waiting-time tail without a timeout (M/M/N)",
            formula: "P(W > t) = C·e^(−(N/S − λ)·t)",
            symbols: &["time waiting for a worker", "threshold (for comparison: the {timeout_s} s request timeout)"],
            note: "Holds only when nobody gives up and a < N. With the timeout, requests that would wait past it leave, which changes the queue: see “Timeouts as abandonment (M/M/N+D)”.",
        },
        RelationId::Abandonment => RelationTexts {
            name: "Timeouts as abandonment (M/M/N+D)",
            formula: "P(V = 0) = π / B(a, N−1);  density of V: λπ·e^(−δx) for 0 < x ≤ τ, then λπ·e^(−δτ)·e^(−(N/S)(x − τ));  timeout share = P(V ≥ τ) = λπ·e^(−δτ)·S/N;  served: V < τ, latency T = V + service;  utilization = λ·S·(1 − timeout share)/N",
            symbols: &["patience: the {timeout_s} s request timeout", "N/S − λ, negative past saturation", "probability that exactly N − 1 workers are busy, fixed by the total probability 1", "the wait a request would have if it never gave up"],
            note: "A request that has not reached a worker within the timeout leaves and counts as an error; one that reaches a worker in time is served to the end, so the latency p99 is that of served requests and can pass the timeout by a service time. Finite for every load: past saturation the requests that give up keep the queue stable, and the timeout share tends to 1 − N/a. Computed scaled so that no exponential overflows, for thousands of workers.",
        },
        RelationId::SojournP99Exact => RelationTexts {
            name: "Latency p99 (exact)",
            formula: "without a timeout: P(T > t) = (1 − C)·e^(−μt) + C·(θ·e^(−μt) − μ·e^(−θt)) / (θ − μ);  with it: P(T > t | served) from the M/M/N+D waits;  p99: P(T > t) = 0.01, solved numerically",
            symbols: &["time in the system: waiting plus service", "1/S, service rate of one worker", "N/S − λ, rate at which the queue drains"],
            note: "Exponential service times. Without a timeout the wait of a delayed request is Exp(θ), so T mixes Exp(μ) and a hypoexponential (the command line's queue without --timeout). The console's p99 is that of the requests served before the {timeout_s} s timeout.",
        },
        RelationId::SojournP99Approx => RelationTexts {
            name: "Latency p99 (the source's approximation)",
            formula: "p99 ≈ S·ln 100 + ln(C/0.01) / (N/S − λ)",
            symbols: &[],
            note: "Adds the p99 of service and of waiting; the quantile of a sum is not the sum of quantiles, so this is only an approximation (it overestimates here). Kept beside the exact value for comparison.",
        },
        RelationId::Utilization => RelationTexts {
            name: "Utilization (Little's law)",
            formula: "L = λ·S busy workers;  utilization = λ·S / N",
            symbols: &["mean number of busy workers"],
            note: "Only served requests take a worker: requests that give up at the timeout do not count, so measured utilization never exceeds 100 %.",
        },
        RelationId::TtlHit => RelationTexts {
            name: "TTL cache hit rate and staleness",
            formula: "hit = warm × rT / (1 + rT),  r = λ / {hot_objects} objects;  mean age ≈ T/2",
            symbols: &["cache TTL (s)", "request rate per hot object (1/s)", "share of the working set in the cache (0 after a flush)"],
            note: "Uniform popularity over the working set is an assumption; {hot_objects} hot objects is an example calibration.",
        },
        RelationId::CacheRefill => RelationTexts {
            name: "Cache refill and warm-up job",
            formula: "warm ← warm + (1 − warm)(1 − e^(−Δt·f/τ)),  τ = {refill_tau_min} min,  f = min(1, DB capacity / DB demand);  warm-up job: +{warmup_gain_per_min%} % per minute for {warmup_minutes} minutes, +{warmup_db_qps} queries/s",
            symbols: &["how much of the refill the database can serve"],
            note: "Refill speed and the warm-up job's figures are example calibrations.",
        },
        RelationId::DbLoad => RelationTexts {
            name: "Database load",
            formula: "load = λ·q·(1 − hit) (+ {warmup_db_qps} queries/s while warming);  ρ_db = load / {db_capacity_qps}",
            symbols: &["queries per request that misses the cache: {queries_per_miss}, plus {heavy_feature_queries} with the heavy feature"],
            note: "Capacity {db_capacity_qps} queries/s is an example calibration.",
        },
        RelationId::QueryTime => RelationTexts {
            name: "Query time under load",
            formula: "query time = {db_query_ms} ms / (1 − ρ_db), at most {db_query_cap_ms} ms",
            symbols: &["database utilization"],
            note: "The M/M/1 response time; the {db_query_cap_ms} ms cap stands for the database's own queue limit.",
        },
        RelationId::ServiceTime => RelationTexts {
            name: "Service time",
            formula: "S = S_app + (1 − hit)·q·query time;  S_app = {app_time_ms} ms (+{heavy_feature_ms} ms with the heavy feature, ×{bad_build_cpu_factor} on a bad build)",
            symbols: &["application time per request"],
            note: "A saturated database lengthens every miss, which fills the workers: the feedback that turns a cache flush into an outage.",
        },
        RelationId::ErrorBudget => RelationTexts {
            name: "Error budget, spent by time (budget_accounting=time, the default)",
            formula: "budget = 1 − SLO = {1-slo%} %;  burn = error rate / {1-slo%} %;  budget spent per minute = burn / 43,200",
            symbols: &["{slo%} % of requests succeed over 30 days"],
            note: "A burn rate of 1 spends exactly the month's budget in 30 days. Every minute weighs the same, whatever its traffic: a minute of 5 % errors at night costs what it costs at the peak.",
        },
        RelationId::ErrorBudgetRequests => RelationTexts {
            name: "Error budget, spent by requests (budget_accounting=requests)",
            formula: "budget spent in a minute = errors / ({1-slo%} % × month's expected requests);  month's expected requests = base × 60 s × 43,200 min;  errors = error rate × admitted requests/s × 60 s",
            symbols: &[
                "the scenario's base rate (requests/s): the mean of its daily curve, whose ±{diurnal_amplitude%} % sine averages to zero over a day",
                "requests of the minute that failed (as counted for the SLO)",
            ],
            note: "The month's expected requests are 30 days at the base rate; the surge and the per-minute noise are left out, since nobody plans for them, so the count is the same for every seed. The rule equals burn × (admitted rate / base) / 43,200: a minute at the base rate costs what the time rule charges, a peak minute more, a night minute less, and a surge's errors cost in proportion to its traffic.",
        },
        RelationId::BurnRate1h => RelationTexts {
            name: "Burn rate over a window",
            formula: "burn(1 h) = mean error rate over the last 60 minutes / {1-slo%} %  (likewise over 5 minutes)",
            symbols: &[],
            note: "The windows are pre-filled with the opening minute, so a run does not start with a false page or a false calm.",
        },
        RelationId::MultiwindowPage => RelationTexts {
            name: "Burn-rate page",
            formula: "page ⇔ burn(1 h) ≥ 14.4 and burn(5 min) ≥ 14.4",
            symbols: &["burn that spends 2 % of a 30-day budget in one hour"],
            note: "",
        },
        RelationId::ErrorsCounted => RelationTexts {
            name: "What counts as an error",
            formula: "error rate = timeouts (requests that give up, M/M/N+D) + (1 − timeouts) × bad-build share × severity × {bad_build_error_rate%} % + overflow rejections (429/503)",
            symbols: &[],
            note: "The severity is the bad deploy's twist, drawn from the seed between 0.6 and 2 (see the scenario twists); the fleet's share on a bad build follows the rollout. Low-priority requests shed on purpose get \"try later\" and are reported as shed traffic, not as errors of the critical traffic; the error rate is a share of the admitted requests.",
        },
        RelationId::TargetTracking => RelationTexts {
            name: "Target tracking",
            formula: "desired = ⌈serving × utilization / target⌉, within [minimum, {max_instances}];  no scale-out while instances boot;  scale-in by ≤ {scale_in_max_share%} % of the fleet after {scale_in_quiet_minutes} quiet minutes",
            symbols: &["target utilization (the slider)"],
            note: "Measured utilization saturates at 100 %, so a saturated fleet grows only step by step. New instances serve only after the boot delay.",
        },
        RelationId::CloudRunCpu => RelationTexts {
            name: "Cloud Run: CPU driver",
            formula: "instances = ⌈(average CPU usage per second over the past {cloud_run.window_s} s / CPUs per instance) / CPU target⌉",
            symbols: &["the CPU utilization target: {cloud_run.cpu_target%} % here (Cloud Run's default is 60 %, allowed 10–95 %)"],
            note: "Here each worker is one CPU's worth: CPU utilization = busy workers' share × application time / service time.",
        },
        RelationId::CloudRunConcurrency => RelationTexts {
            name: "Cloud Run: concurrency driver",
            formula: "instances = ⌈(max(average concurrent requests over {cloud_run.window_s} s, over {cloud_run.long_window_s} s) / maximum concurrency) / concurrency target⌉;  while no instance serves, the requests held in the pending queue count as concurrent requests at the demand they bring, a = λ·S",
            symbols: &["requests one instance serves at once (here its {workers_per_instance} workers)"],
            note: "The long average (over {cloud_run.long_window_s} s) keeps instances for a while after traffic falls. Counting the held requests is this model's reading: while the first instances start, the drivers see the traffic that waits for them, not an idle fleet of none, so they neither recommend zero instances nor stop the ones starting.",
        },
        RelationId::CloudRunAct => RelationTexts {
            name: "Cloud Run: adaptive concurrency (ACT)",
            formula: "instances = ⌈(average concurrent requests over {cloud_run.window_s} s / ACT) / concurrency target⌉;  each second: CPU > {cloud_run.act_cpu_high%} % ⇒ ACT − 1;  at ACT and CPU < {cloud_run.act_cpu_low%} % ⇒ ACT + 1 (up to the maximum concurrency)",
            symbols: &["an instance's adaptive maximum concurrency, used as its capacity"],
            note: "The model has no CPU throttling for ACT to prevent, so the lowered maximum shapes only the recommendation; the workers keep serving.",
        },
        RelationId::CloudRunTolerance => RelationTexts {
            name: "Cloud Run: tolerance band and rounding",
            formula: "hold while |utilization / target − 1| ≤ {cloud_run.tolerance%} % (a 10 % band around a 60 % target, for example, holds from 54 to 66 %);  otherwise recompute from measured utilization and target, rounded up (4.1 → 5)",
            symbols: &[],
            note: "Because of the rounding a service can scale out while utilization is still under the target.",
        },
        RelationId::CloudRunScaleIn => RelationTexts {
            name: "Cloud Run: scale-in",
            formula: "the recommendation drops only when utilization is more than {cloud_run.tolerance%} % below target;  the balancer prefers recommended instances;  the other serving instances shut down after {cloud_run.scale_in_after_s} s under {cloud_run.scale_in_utilization%} % utilization, or else after an idle timeout of {cloud_run.idle_timeout_s} s;  instances still starting are not idle and stay",
            symbols: &[],
            note: "Here the spill-over the recommended instances cannot hold goes to the others as a group; a group still above {cloud_run.scale_in_utilization%} % stays until the idle timeout. Only an instance that has run can be found to have run under the threshold, or to be idle: the source lets an instance go to zero only once it is known to process no request. A starting instance is judged once it serves.",
        },
        RelationId::CloudRunOnDemand => RelationTexts {
            name: "Cloud Run: on-demand scaling and the pending queue",
            formula: "demand a = λ·S > (serving + starting) × maximum concurrency ⇒ start ⌈a / maximum concurrency⌉ at once;  a request waits in the pending queue at most max({cloud_run.pending_min_s} s, {cloud_run.pending_cold_start_factor} × expected cold start);  at the maximum instances with no slot free in that time: 429 (share 1 − maximum × concurrency / a)",
            symbols: &["here the scenario's boot time"],
            note: "The only way to scale from zero (minimum instances 0). Requests first queue for a starting or an existing instance. In this model the {timeout_s} s request timeout ends a waiting request if it comes before the pending bound, so a cold start longer than that fails the requests that arrive early in it, and the last served ones show it in the p99.",
        },
        RelationId::ElasticTrend => RelationTexts {
            name: "Elastic scaler: trend expansion",
            formula: "every {elastic.acq_frequency} s: rate = growth of active requests over the last 60 s;  active + rate × 60 s > nodes × max_requests ⇒ nodes = ⌈active / safe capacity⌉, safe capacity = max_requests − rate × 60 s (≤ 0 ⇒ max_nodes);  then cooling ({elastic.trend_expansion.expand_cooling_time} s)",
            symbols: &["requests in flight at the balancer"],
            note: "Example with max_requests = 1000: 1000 requests growing 5/s → safe capacity 1000 − 5 × 60 = 700 → ⌈1000 / 700⌉ = ⌈1.43⌉ = 2 nodes. A lesson in calibration: the source's example sets max_requests and max_connections to 1000 per node, sized for its own nodes. A simulated node serves {workers_per_instance} requests at once, and its requests time out long before it holds 1000, so at 1000 this rule never fires, and the shrink rule, which keeps ⌈active / safe capacity⌉ nodes, removes nodes until the fleet saturates. The simulator therefore starts with both limits at the simulated node's concurrency, its {workers_per_instance} workers (now {elastic.max_requests}); the source's file still imports with its 1000, to see the mismatch. Even at the node's concurrency the rules size the fleet to fill its nodes: the shrink rule keeps just enough nodes to hold the active requests at the limit, and any growth above limit / 60 s per second leaves no safe capacity and expands to max_nodes. The nodes any expansion adds serve after the configuration's cold start, node_cold_start_time ({elastic.node_cold_start_time} s; the source: a node needs 60 s to cold-start), not after the scenario's boot delay, which stays for the fleet's own instances.",
        },
        RelationId::ElasticDelay => RelationTexts {
            name: "Elastic scaler: delay-prediction expansion",
            formula: "every {elastic.acq_frequency} s: predicted time = (new + in service + queued) / completions per second over the last minute;  ≥ delay_time ({elastic.delay_prediction.delay_time} s) ⇒ add max(⌈nodes × {elastic.delay_prediction.expansion_ratio}⌉, {elastic.delay_prediction.min_expansion});  ignored below min_sample_size ({elastic.delay_prediction.min_sample_size}) requests in the last minute;  then cooling ({elastic.delay_prediction.expand_cooling_time} s)",
            symbols: &[],
            note: "By Little's law the predicted time is the mean time in the system, so with a delay_time near the {timeout_s} s request timeout it fires only when the fleet is overloaded. Rounding nodes × ratio up is this model's reading.",
        },
        RelationId::ElasticP95 => RelationTexts {
            name: "Elastic scaler: p95 expansion",
            formula: "every {elastic.acq_frequency} s: more than 5 % of the last minute's requests slower than threshold ({elastic.p95_expansion.threshold} ms) for threshold_duration ({elastic.p95_expansion.threshold_duration} s) ⇒ add max(⌈nodes × {elastic.p95_expansion.expansion_ratio}⌉, {elastic.p95_expansion.min_expansion});  the same rules of sample size (min_sample_size {elastic.p95_expansion.min_sample_size}) and cooling ({elastic.p95_expansion.expand_cooling_time} s)",
            symbols: &[],
            note: "The share of slow requests comes from the M/M/N time-in-system distribution of each tick, weighted by its requests.",
        },
        RelationId::ElasticShrink => RelationTexts {
            name: "Elastic scaler: shrink with drain",
            formula: "all strategies healthy for shrinkage_delay_time ({elastic.shrinkage_delay_time} s) ⇒ remove min(nodes − max(trend's ⌈active / safe capacity⌉, min_nodes ({elastic.min_nodes})), shrinkage_number ({elastic.shrinkage_number}));  the node takes no new traffic and leaves when its active requests reach zero or after drain_timeout ({elastic.drain_timeout} s)",
            symbols: &[],
            note: "The healthy period starts again after each shrink. A drained node's requests finish in about the p99 time in the system; it is billed until it leaves.",
        },
        RelationId::EnvoyOverflow => RelationTexts {
            name: "Per-node limits and the overflow queue (elastic scaler)",
            formula: "room R = nodes × (min(max_connections, max_requests) − workers)⁺ + max_pending_requests;  if R < (N/S)·timeout:  rejected = P_K of M/M/N/K = ρ^R / (1/B + Σ_(j=1..R) ρ^j), admitted requests never wait past the timeout;  else the room never fills before requests time out, and the M/M/N formulas apply",
            symbols: &["N + R: requests the nodes and the balancer's pending queue hold at once", "a/N", "Erlang B(a, N)"],
            note: "The balancer does not queue beyond its limits: requests past the sum of the nodes' limits wait in up to max_pending_requests places and the rest are rejected (503), counted as errors. A node never runs more requests at once than its limit, so a limit below the workers per instance also lowers N. Which of the two regimes applies is this model's simplification.",
        },
        RelationId::HpaRatio => RelationTexts {
            name: "Kubernetes HPA: desired replicas",
            formula: "desired = ⌈current × metric / target⌉;  no change while |metric / target − 1| ≤ {hpa.tolerance};  when scaling up, pods not yet ready count as 0 % and the ratio is recomputed (no change if that reverses the direction or falls within the tolerance)",
            symbols: &["average CPU utilization of the ready pods", "the target utilization"],
            note: "200m against a 100m target doubles the replicas; 50 replicas at 90 % with a 75 % target give ⌈50 × 0.9 / 0.75⌉ = 60.",
        },
        RelationId::HpaBehavior => RelationTexts {
            name: "Kubernetes HPA: scaling behavior",
            formula: "every {hpa.sync_period_s} s;  scale-down: the highest recommendation of the last {hpa.scale_down_stabilization_s} s, at most {hpa.scale_down_percent} % of the pods per {hpa.scale_down_period_s} s;  scale-up: the lowest recommendation of the last {hpa.scale_up_stabilization_s} s (0: no stabilization), at most max(current × (1 + {hpa.scale_up_percent} %), current + {hpa.scale_up_pods}) per {hpa.scale_up_period_s} s;  a new HPA's first recommendation is the current replica count",
            symbols: &[],
            note: "The stabilization window stops flapping when the metric wobbles; the scale-up policies let the HPA add the larger of {hpa.scale_up_percent} % of its pods and {hpa.scale_up_pods} pods every period. A new HPA records the replicas it finds as its first recommendation, as the controller does, so even a fleet far larger than needed holds for the first {hpa.scale_down_stabilization_s} s before it scales down.",
        },
        RelationId::KpaStablePanic => RelationTexts {
            name: "Knative KPA: stable and panic mode",
            formula: "target = container concurrency × {kpa.target_utilization%} %;  stable pods = ⌈average concurrency over {kpa.stable_window_s} s / target⌉;  panic pods = ⌈average over the panic window ({kpa.panic_window_percentage} % of {kpa.stable_window_s} s) / target⌉;  panic when panic pods / ready pods ≥ {kpa.panic_threshold_percentage} %;  in panic: the larger of the two, never decreasing;  panic ends {kpa.stable_window_s} s after the last tick over the threshold",
            symbols: &["requests in flight at the pods, in service and waiting"],
            note: "Counting waiting requests makes the KPA see overload that a utilization metric, which saturates at 100 %, hides.",
        },
        RelationId::KpaBounds => RelationTexts {
            name: "Knative KPA: scale rates and scale to zero",
            formula: "⌊ready / {kpa.max_scale_down_rate}⌋ ≤ desired ≤ ⌈{kpa.max_scale_up_rate} × ready⌉ (ready taken as at least 1);  desired 0 only after the {kpa.scale_to_zero_grace_s} s scale-to-zero grace period",
            symbols: &[],
            note: "Scale to zero happens only when the minimum instances is 0. With no pod, the activator holds arriving requests until the first pod is ready; in this model the {timeout_s} s request timeout ends a request's wait, so a cold start longer than that fails the requests that arrive early in it.",
        },
        RelationId::MinuteQuantile => RelationTexts {
            name: "Latency of a minute made of several steps",
            formula: "P(T > t) over the minute = Σₖ wₖ·Pₖ(T > t) / Σₖ wₖ;  p99: the t where it equals 0.01 (bisection between the steps' own p99s)",
            symbols: &["length of step k (arrivals are steady within the minute)"],
            note: "Policies that act faster than a minute split it into steps (ticks); the minute's p99 is the p99 of all its requests, not the largest step's.",
        },
        RelationId::MaglevTable => RelationTexts {
            name: "Maglev lookup table (hash policy)",
            formula: "offset = h₁(host) mod M,  skip = h₂(host) mod (M − 1) + 1,  permutation[j] = (offset + j · skip) mod M;  the hosts take turns, each claiming the next empty slot of its permutation, until the M slots are full;  a key goes to the host of slot h(key) mod M;  each host holds ⌊M/N⌋ or ⌈M/N⌉ slots",
            symbols: &["table size, a prime (Envoy's default 65,537)", "hosts", "two hashes of the host's name: xxHash64 with seeds 0 and 1"],
            note: "With M > 100·N every host's share is within 1 % of 1/N. The hosts are hashed by name, so the table depends only on which hosts there are.",
        },
        RelationId::RingHash => RelationTexts {
            name: "Ring hash (consistent hashing)",
            formula: "V = ⌈minimum ring size / N⌉ points per host, at xxHash64(\"host_j\") for j = 0 … V − 1, sorted;  a key goes to the first point at or after h(key), wrapping past the top of the ring (binary search);  a host's share is the sum of the arcs ending at its points;  relative standard deviation of the shares √((N − 1)/(N·V + 1)) ≈ 1/√V",
            symbols: &["hosts", "points per host (Envoy's minimum ring size 1,024 spread over the hosts)"],
            note: "Each share is a sum of V of the N·V gaps between random points (a Beta(V, (N − 1)·V) variable), so it varies around 1/N by about 1/√V of it: with 10 hosts on 1,024 entries (V = 103), about 9 %. A larger ring evens the shares at the cost of memory and build time.",
        },
        RelationId::HashKeysMoved => RelationTexts {
            name: "Keys that move when hosts leave (hash policies)",
            formula: "ring hash with the same points per host: exactly the keys of the K hosts that leave, their share of the ring ≈ K/N;  Envoy's ring, rebuilt with ⌈minimum ring size / (N − K)⌉ points per host: those keys and the arcs the new points take;  Maglev: the leaving hosts' keys and a few more, since the table is populated anew (≥ K/N)",
            symbols: &["hosts that leave", "hosts before"],
            note: "Consistent hashing moves only the keys that must move; Maglev gives up a little of that for shares that are even. A key that moves loses what its host had cached or held for it.",
        },
        RelationId::HealthProbes => RelationTexts {
            name: "Endpoint health checks",
            formula: "a probe every I = 5 s (timeout 5 s);  a healthy endpoint becomes unhealthy after k_u = 2 consecutive failed probes, an unhealthy one healthy after k_h = 2 consecutive passed probes;  a probe fails when the instance crashed or is not serving, or when it cannot answer within the probe's timeout (it waits in the same queue, whose requests give up after {timeout_s} s: only with a request timeout of at least 5 s and most requests timing out);  the consumer stops routing at most I × k_u + d = 10 s + {propagation_delay_s} s after a failure",
            symbols: &["seconds between probes", "failed probes that make an endpoint unhealthy", "passed probes that make it healthy", "propagation delay to the consumer, seconds"],
            note: "Google Cloud's defaults. A bad build that fails real requests but answers its probes passes them: the grey failure. Probes inside a minute judge the fleet of the minute's start and the queue of the minute before; a new instance enters healthy, its boot ending when it passes its readiness checks.",
        },
        RelationId::HealthAggregation => RelationTexts {
            name: "Health aggregation policy",
            formula: "HEALTHY when h × 100 ≥ p × n and h ≥ m, else UNHEALTHY;  now p = {healthy_percent} %, m = {min_healthy}",
            symbols: &["healthy endpoints", "endpoints of the backend service", "healthy_percent", "min_healthy"],
            note: "Seed 003's defaults are 60 % and 1: 6 of 10 healthy is HEALTHY, 5 of 10 UNHEALTHY. With no endpoint the count decides. Each region has two health sources under this policy: its app fleet and its database's {db_replicas} replicas.",
        },
        RelationId::CompositeHealth => RelationTexts {
            name: "Composite health check",
            formula: "HEALTHY when every source is HEALTHY;  UNHEALTHY when any source is UNHEALTHY;  otherwise (none unhealthy, one or more unknown) UNKNOWN",
            symbols: &[],
            note: "Sources and composites created or reconfigured start UNKNOWN until their first evaluation. A composite cannot be a source of another (a configuration error), and there is no test mode: a changed policy takes effect at once.",
        },
        RelationId::Failover => RelationTexts {
            name: "Cross-region failover",
            formula: "the consumer learns a composite state d = {propagation_delay_s} s after it is evaluated;  an UNHEALTHY region leaves routing and its users go to the nearest region in routing (a → b → c), each request paying Δ = {cross_region_ms} ms more;  a failed-over request reaches the far queue Δ after it was sent, so of the timeout τ = {timeout_s} s it has τ − Δ left to wait: P(V > τ − Δ) of them time out (every one when Δ > τ);  when the region is no longer UNHEALTHY they come back",
            symbols: &["propagation delay, seconds", "cross-region latency penalty, ms"],
            note: "Seed 003 gives neither figure; both defaults are this model's assumptions. UNKNOWN keeps a region in routing. With every region out of routing the users stay home. V is the wait of the M/M/N+D queue (Baccelli & Hébuterne; Zeltyn & Mandelbaum), the same law that gives the timeouts of the region's own users; the request engine times each failed-over request out the same way, by its own wait (once hedging has been on, it takes the formula's share). The minute's p99 is the largest of the regions' p99 (with Δ for a region serving failed-over users), an upper bound of the p99 of all requests.",
        },
        RelationId::OutlierDetection => RelationTexts {
            name: "Outlier detection (consecutive 5xx)",
            formula: "at each sweep (every 10 s) an instance is ejected when its n requests since the last sweep, each failing with probability e, more likely than not held k = 5 failures in a row: λ = e^k · (1 + (n − k)(1 − e)) ≥ ln 2;  at most while ejected × 100 < 10 % × hosts;  for 30 s × the times it was ejected (≤ 300 s)",
            symbols: &["requests since the last sweep", "share of its requests that fail", "consecutive_5xx", "expected runs of k failures"],
            note: "Envoy's defaults. Envoy ejects at the fifth failure in a row; this model finds it at the next sweep, from the chance of such a run (Poisson clumping). It catches the bad build that health checks miss, a few instances at a time, and cannot take a whole region out of routing.",
        },
        RelationId::RegionDemand => RelationTexts {
            name: "Regions' users",
            formula: "λ_r = λ × w_r · D(t, clock + o_r) / Σ_s w_s · D(t, clock + o_s);  with 2 regions w = 60 %, 40 %; with 3, 50 %, 30 %, 20 %;  o = 0, −60, −180 min",
            symbols: &["share of the users in region r", "region r's users' clock against the scenario's, minutes"],
            note: "Assumptions of this model. Each region's fleet, database (sized like the one region's, {db_capacity_qps} queries/s, so that it can take the others' users) and cache are its own; its users' keys are their share of the working set, and another region's cache starts cold for them. While a zone is down its region cannot grow past what it has left (its other zones have no capacity to spare).",
        },
        RelationId::Calibration => RelationTexts {
            name: "Constants (assumptions)",
            formula: "{workers_per_instance} workers/instance · app time {app_time_ms} ms (+{heavy_feature_ms} ms and +{heavy_feature_queries} queries per miss with the heavy feature) · {queries_per_miss} queries per miss · database {db_capacity_qps} queries/s, {db_query_ms} ms idle, ≤ {db_query_cap_ms} ms · {hot_objects} hot objects · refill τ = {refill_tau_min} min · warm-up +{warmup_gain_per_min%} %/min for {warmup_minutes} min, +{warmup_db_qps} queries/s · timeout {timeout_s} s · {low_priority_share%} % low-priority traffic · bad build +{bad_build_error_rate%} % errors, ×{bad_build_cpu_factor} CPU · rollback {rollback_minutes} min · ${price_per_instance_hour} per instance-hour · scale-in ≤ {scale_in_max_share%} % after {scale_in_quiet_minutes} quiet minutes · up to {max_instances} instances · daily swing ±{diurnal_amplitude%} %, drift {traffic_drift_cv%} % · SLO {slo%} %",
            symbols: &[],
            note: "Example calibrations for a mid-size web service. This is an educational model: real sites calibrate every constant to their own tools and data.",
        },
        RelationId::ScenarioTwists => RelationTexts {
            name: "Scenario twists",
            formula: "each scenario draws its twist from its own generator, mulberry32(seed ⊕ a constant per twist), uniformly within these ranges:  viral surge: start at minute 20–150, peak ×2–×4, ramp 4–15 min, hold 30–90 min, then decay with τ = 45 min;  bad deploy: rollout starts at minute 7–13 (09:07–09:13), lasts 3–6 min, and the bad build fails 0.6–2 × the model's {bad_build_error_rate%} % extra error share;  cache flush: at minute 12–20 (11:57–12:05), 60–100 % of the cache;  slow instance: one of 10 instances at minute 8–15 (11:58–12:05) for 15–30 min, service times ×8–×20;  hot key: a key of rank 10–99 at minute 8–15 (11:48–11:55) for 20–40 min, carrying 15–30 % of the requests;  free play: drift(t) = 1 + level × (1 − e^(−t/τ)), level −15 % to +20 %, τ 120–600 min;  regional outage: at minute 25–40 (11:55–12:10) region a loses 50–80 % of its instances to a zone outage (3 seeds in 4) or its database fails, back after 30–60 min",
            symbols: &["share of the usual traffic gained (or lost) in the long run", "time constant of free play's drift, minutes"],
            note: "The same seed gives the same twists; another seed, other ones. Each twist has its own generator, so it does not change the run's other draws (traffic noise, the other twists). Whole minutes are drawn uniformly among the whole numbers of their range. The ranges are this model's choice.",
        },
        RelationId::RequestEngine => RelationTexts {
            name: "Request-level engine (one request at a time)",
            formula: "arrivals Poisson at λ; instance chosen by the policy; start = max(arrival, earliest free worker of the instance); deadline = arrival + τ; if start > deadline it gives up at the deadline without a worker; otherwise it is served until min(start + service, deadline) (service exponential, mean S), and fails with a timeout, its worker freed, when the deadline comes first",
            symbols: &["the request timeout: a deadline on the whole call, queue and service", "arrival rate, requests per second", "mean service time"],
            note: "The timeout bounds the whole call, from the arrival to the response, as Envoy's route timeout does: no answered request takes longer than τ, and the instance stops working on a request whose deadline has passed. The formulas' M/M/N+D reads the same τ as a patience in the queue only (a request that reaches a worker in time is served to the end), so with long services the engine counts more timeouts than the formulas and a lower p99. With hedging τ is the deadline of each attempt from its sending (seed 002's request timeout) and the total timeout bounds the request. Each instance is FIFO, so a request's start and end are known when it arrives (no global event list). Policies: round robin in turn; random uniform; least request draws choice_count instances at random with replacement as Envoy does (two by default, Envoy's; two draws can be the same instance) and sends to the one holding the fewest requests (in service and waiting), a tie to the first drawn; ring hash and Maglev by the request's key. With hedging the engine keeps an event list instead. In request mode the minute model serves each tick this way with the state carried from tick to tick: the tick's Poisson arrivals, the first `serving` instances by index (one that stops serving drains), utilization, waits, timeouts and the p99 measured; the minute's p99 is that of all its served requests. With random routing each instance is an M/M/1 queue (one worker) or M/M/W; with one instance, M/M/N (Erlang C) or M/M/N+D with the timeout. Host selection around health, as Envoy does it: with outlier_detection on, an instance whose responses time out consecutive_5xx times in a row is ejected at once (a timeout is a 504 to Envoy; the balancer's own 503s at the per-node limits are not charged to an instance), within the max_ejection_percent cap, and comes back at the 10 s sweep once base_ejection_time_s × its ejections in a row (at most 300 s) have passed; a response counts only once its time has come. Below healthy_panic_threshold healthy instances the balancer routes across all of them. With slow_start_window_s, round robin and least request weigh an instance that starts serving by its age over the window and pick by earliest deadline (least request by its weight over its requests plus one) while one is in its window; the instances serving at the start are taken as warm.",
        },
        RelationId::Supermarket => RelationTexts {
            name: "Least request on many instances (supermarket model)",
            formula: "s_i = ρ^(2^i − 1);  E[T] = S · Σ over i ≥ 1 of ρ^(2^i − 2)",
            symbols: &["share of instances holding at least i requests", "load of each single-worker instance", "mean time in the system"],
            note: "For two choices and one worker per instance, in the limit of many instances; with a finite number of instances the request-level engine's figure is slightly higher.",
        },
        RelationId::RoutedShares => RelationTexts {
            name: "Each instance's share of the requests (load-balancing policy)",
            formula: "round robin, random, least request: wᵢ = 1/I;  ring hash, Maglev: wᵢ = Σ P(key) over the keys whose hash the ring or table sends to instance i;  λᵢ = wᵢ·λ;  random and the hash policies: each instance is M/M/c+D at λᵢ",
            symbols: &["instance i's share of the requests", "instance i's arrival rate"],
            note: "A Poisson stream split at random, or key by key, is independent Poisson streams, so random routing and the hash policies give every instance an exact M/M/c+D queue. With the hash policies a popular key loads one instance however many there are: the shares follow the keys' Zipf popularity, not only the table.",
        },
        RelationId::RoundRobinQueue => RelationTexts {
            name: "Round robin: each instance as E_I/M/c",
            formula: "every I-th request: gaps Erlang-I of rate λ/I, A*(s) = (λ/(λ + s))^I;  σ = A*(cμ(1 − σ)), 0 < σ < 1;  P(wait) from the chain of (requests held, arrival phase), geometric of ratio σ beyond c − 1 (matrix-geometric);  a request that waits waits Exp(θ), θ = cμ(1 − σ);  with the timeout τ: the waits below τ keep this law, and each request that lifts the wait past τ is followed by A*(cμ)/(1 − A*(cμ)) that give up",
            symbols: &["root of the G/M/c equation", "Laplace–Stieltjes transform of the gap between an instance's requests", "rate of the exponential wait"],
            note: "Turns make the arrivals at an instance more regular than Poisson (coefficient of variation 1/√I), so round robin waits less than random routing at the same load. Exact without timeouts. The timeouts are an approximation (exact for Poisson arrivals, where it is M/M/c+D): against the request-level engine the waits and the p99 agree within 2 %, and near or past saturation the share that gives up comes out 10–20 % too high.",
        },
        RelationId::SupermarketLatency => RelationTexts {
            name: "Least request: latency and timeouts (supermarket model)",
            formula: "one worker: s_k = ρ^((d^k − 1)/(d − 1));  c workers: cρ·s_(k−1)^d = k·s_k + Σ_(j=k+1..c) s_j for k ≤ c, s_k = ρ·s_(k−1)^d beyond (solved numerically);  the d choices drawn independently with replacement, as Envoy draws them, so a request finds at least k requests with probability s_k^d;  with k ≥ c it waits Erlang(k − c + 1, cμ), then its service:  P(W > τ) = Σ_(m≥0) Pois(m; cμτ)·s_(c+m)^d;  one worker: P(T > t) = Σ_(m≥0) Pois(m; μt)·s_m^d, E[T] = S·Σ_(k≥0) s_k^d",
            symbols: &["choices (Envoy's choice_count, default 2)", "share of instances holding at least k requests", "time in the system", "wait"],
            note: "The fixed point of the supermarket model's equations, with c workers draining an instance at min(k, c)·μ: the mean-field limit of infinitely many instances. Envoy draws each of the d choices as random() % size, with replacement: two choices can be the same instance, and then the request has fewer instances to choose from; given the shares, d draws with replacement all land on instances holding at least k with probability exactly s_k^d at any fleet size, so only the fixed point is the limit. With few instances, or near saturation, the request-level engine (which draws as Envoy does) gives higher figures (measured mean time in the system with single-worker instances, 2 choices: 2.4 % higher with 100 instances at load 0.9, 20 % with 10 and 78 % with 3; within 1.1 % with 1,000 at 0.99, 14 % higher with 100 at 0.99). Past saturation no fixed point exists: the pooled queue M/M/(I·c)+D stands in, an optimistic figure, and the request-level engine gives the real one. With the timeout, the waits below it keep this law and those who give up are counted as in M/M/c+D (an approximation: arrivals at an instance depend on its queue).",
        },
        RelationId::RoutedMixture => RelationTexts {
            name: "The fleet's latency and timeouts over its instances",
            formula: "timeouts = Σᵢ wᵢ·timeoutsᵢ;  P(T > t) over the served = Σᵢ wᵢ·servedᵢ·Pᵢ(T > t) / Σᵢ wᵢ·servedᵢ;  p99: the t where it equals 0.01",
            symbols: &["instance i's share of the requests", "time in the system at instance i"],
            note: "The fleet's p99 is that of all its requests, not the worst instance's: a hot instance under a hash policy raises it by its share of the requests.",
        },
        RelationId::ZipfKeys => RelationTexts {
            name: "Request keys: Zipf popularity (request-level engine)",
            formula: "P(key of rank i) = i^(−s) / Σ_(j=1..K) j^(−s);  drawn by one uniform and a binary search of the cumulative probabilities",
            symbols: &["number of keys (parameter keys, default 10,000)", "exponent (parameter zipf, default 0.8; 0: every key equally popular)"],
            note: "Ring hash and Maglev route a request by its key, so a popular key loads one instance however many there are. The default exponent lies within the range measured on web traces.",
        },
        RelationId::LognormalService => RelationTexts {
            name: "Lognormal service time (request-level engine)",
            formula: "S_req = e^(μ + σ·Z), Z normal;  μ = ln S − σ²/2, so E[S_req] = S;  coefficient of variation √(e^(σ²) − 1)",
            symbols: &["mean service time of the model", "shape (parameter service_sigma with service_shape=lognormal, default 1: coefficient of variation 1.31)"],
            note: "Keeps the load a = λ·S of the exponential model and widens the tail; Erlang C no longer holds exactly (an M/G/N queue has no closed form): the figure comes from the engine.",
        },
        RelationId::HedgeTokenBucket => RelationTexts {
            name: "Hedged requests and their token bucket",
            formula: "no success d after the last copy and b ≥ 1 ⇒ b := b − 1, a copy to another instance (same policy), again every d until the total timeout;  each successful request: b := min(B, b + r);  first success wins, waiting copies are cancelled, copies in service finish (duplicates);  hedges ≤ b₀ + r × successes, so the hedged share ≤ r + b₀ / requests",
            symbols: &["hedge delay (default 1 s, 100 ms–10 s; below the request timeout and the total timeout)", "maximum tokens (default 50, 1–250)", "refill ratio (default 0.1, 0.001–0.2)", "tokens at the start (assumed full, B: the source does not say)"],
            note: "Hedging cuts the tail of transient slowness at the cost of extra copies; under sustained overload the bucket drains and hedging stops by itself. A hedge that falls due with less than a whole token waits for the token that successes bring, first come, first served, and goes at once (the source does not say when a hedge held back for want of a token goes; looking again every delay would cost work without end behind a copy that never ends). Its effect on p99 has no closed form: the figure comes from the engine. Refused with ordering keys.",
        },
        RelationId::Randomness => RelationTexts {
            name: "Randomness",
            formula: "mulberry32(seed); uniform u; exponential of mean m by the ziggurat: 8 bits pick one of 256 layers of equal area under e^(−x), 24 bits a point x in it, kept at once when it lies under the layer above (98.9 %), else tested against e^(−x) in its wedge, and beyond r = 7.697 the tail r − ln(1 − u); normal √(−2 ln u₁)·cos(2π u₂) (Box–Muller); Poisson by Knuth's product of uniforms",
            symbols: &["32-bit seed shown on screen and in the link", "uniform draw on [0, 1)"],
            note: "The seed is the only source of randomness: the same seed, settings and actions give the same run.",
        },
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
