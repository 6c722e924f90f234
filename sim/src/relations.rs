//! The relations the model uses, as data for the sources panel.
//!
//! Each formula of the model is one function; beside it sits a [`Relation`] constant with what
//! is language-neutral about it: its [`RelationId`], the glyphs of its symbols, its citations
//! and whether it is an assumption. The words (name, formula, what each symbol means, caveats)
//! live in the catalogs of [`crate::catalog`], keyed by [`RelationId`], with placeholders
//! where they state a parameter's value, so the text always shows the values in force.
//! [`RelationId::ALL`] lists the relations in the order the panel presents them; the registry
//! that maps each to its constant, beside its formula in its module, is
//! [`crate::catalog::registry`], above the modules that declare them.

use core::fmt;
use core::str::FromStr;

/// A published source.
///
/// Citation texts stay here as data rather than in a catalog: they are bibliographic
/// references (authors, titles as published, venue, year) that are quoted, not translated,
/// and the model never composes them from its own values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Citation {
    /// Author, title, venue and year.
    pub text: &'static str,
    /// Where to read it.
    pub url: &'static str,
}

/// Declares [`RelationId`] with its stable string keys and the list of every variant, so the
/// list cannot miss one.
macro_rules! relation_ids {
    ($( $variant:ident => $key:literal, )*) => {
        /// Which relation of the model; the stable key of its texts in every catalog, of its
        /// entry in the sources panel (`data-relation`) and of links to it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RelationId {
            $( #[doc = concat!("`", $key, "`")] $variant, )*
        }

        impl RelationId {
            /// Every relation, in the order the sources panel shows them.
            pub const ALL: &'static [RelationId] = &[ $( RelationId::$variant, )* ];

            /// The stable string key (what [`fmt::Display`] writes and [`FromStr`] reads).
            pub const fn key(self) -> &'static str {
                match self {
                    $( RelationId::$variant => $key, )*
                }
            }
        }
    };
}

relation_ids! {
    Arrivals => "arrivals",
    OfferedLoad => "offered_load",
    ErlangB => "erlang_b",
    ErlangC => "erlang_c",
    WaitingTail => "waiting_tail",
    Abandonment => "abandonment",
    SojournP99Exact => "sojourn_p99_exact",
    SojournP99Approx => "sojourn_p99_approx",
    Utilization => "utilization",
    TtlHit => "ttl_hit",
    CacheRefill => "cache_refill",
    DbLoad => "db_load",
    QueryTime => "query_time",
    ServiceTime => "service_time",
    ErrorBudget => "error_budget",
    ErrorBudgetRequests => "error_budget_requests",
    BurnRate1h => "burn_rate_1h",
    MultiwindowPage => "multiwindow_page",
    ErrorsCounted => "errors_counted",
    TargetTracking => "target_tracking",
    CloudRunCpu => "cloud_run_cpu",
    CloudRunConcurrency => "cloud_run_concurrency",
    CloudRunAct => "cloud_run_act",
    CloudRunTolerance => "cloud_run_tolerance",
    CloudRunScaleIn => "cloud_run_scale_in",
    CloudRunOnDemand => "cloud_run_on_demand",
    ElasticTrend => "elastic_trend",
    ElasticDelay => "elastic_delay",
    ElasticP95 => "elastic_p95",
    ElasticShrink => "elastic_shrink",
    EnvoyOverflow => "envoy_overflow",
    HpaRatio => "hpa_ratio",
    HpaBehavior => "hpa_behavior",
    KpaStablePanic => "kpa_stable_panic",
    KpaBounds => "kpa_bounds",
    MinuteQuantile => "minute_quantile",
    MaglevTable => "maglev_table",
    RingHash => "ring_hash",
    HashKeysMoved => "hash_keys_moved",
    RequestEngine => "request_engine",
    Supermarket => "supermarket",
    RoutedShares => "routed_shares",
    RoundRobinQueue => "round_robin_queue",
    SupermarketLatency => "supermarket_latency",
    RoutedMixture => "routed_mixture",
    ZipfKeys => "zipf_keys",
    LognormalService => "lognormal_service",
    HedgeTokenBucket => "hedge_token_bucket",
    HealthProbes => "health_probes",
    HealthAggregation => "health_aggregation",
    CompositeHealth => "composite_health",
    Failover => "failover",
    OutlierDetection => "outlier_detection",
    RegionDemand => "region_demand",
    Calibration => "calibration",
    ScenarioTwists => "scenario_twists",
    Randomness => "randomness",
}

impl fmt::Display for RelationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A string that is not the key of any relation (it carries the string).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRelation(pub String);

impl FromStr for RelationId {
    type Err = UnknownRelation;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RelationId::ALL
            .iter()
            .copied()
            .find(|id| id.key() == s)
            .ok_or_else(|| UnknownRelation(s.to_owned()))
    }
}

impl serde::Serialize for RelationId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

/// One relation of the model, as shown in the sources panel. Its texts come from a catalog
/// (see [`crate::catalog::relations_en::render`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Relation {
    /// Which relation this is.
    pub id: RelationId,
    /// The symbols the formula uses, as written in it, in the order the panel explains them;
    /// the catalog gives one meaning per symbol.
    pub symbols: &'static [&'static str],
    /// Sources.
    pub citations: &'static [Citation],
    /// True when the relation (or its constants) is an assumption of this model rather than
    /// a law: an example calibration that real sites replace with their own measurements.
    pub assumption: bool,
}

pub const ERLANG_1917: Citation = Citation {
    text: "A. K. Erlang, \"Solution of some problems in the theory of probabilities of significance in automatic telephone exchanges\", Elektroteknikeren 13 (1917)",
    url: "https://en.wikipedia.org/wiki/Erlang_(unit)",
};
pub const KLEINROCK_1975: Citation = Citation {
    text: "L. Kleinrock, Queueing Systems, Volume 1: Theory, Wiley (1975), §3.5–3.6 (M/M/m)",
    url: "https://www.wiley.com/en-us/Queueing+Systems%2C+Volume+1%3A+Theory-p-9780471491101",
};
pub const KLEINROCK_1975_GM: Citation = Citation {
    text: "L. Kleinrock, Queueing Systems, Volume 1: Theory, Wiley (1975), ch. 6 (the queue G/M/m: σ = A*(mμ − mμσ), the number an arrival finds geometric beyond m − 1, the wait of those who wait exponential of rate mμ(1 − σ))",
    url: "https://www.wiley.com/en-us/Queueing+Systems%2C+Volume+1%3A+Theory-p-9780471491101",
};
pub const GROSS_HARRIS_2008: Citation = Citation {
    text: "D. Gross, J. F. Shortle, J. M. Thompson, C. M. Harris, Fundamentals of Queueing Theory, 4th ed., Wiley (2008), ch. 6 (general input: G/M/1 and G/M/c)",
    url: "https://doi.org/10.1002/9781118625651",
};
pub const NEUTS_1981: Citation = Citation {
    text: "M. F. Neuts, Matrix-Geometric Solutions in Stochastic Models: An Algorithmic Approach, Johns Hopkins University Press (1981), ch. 1 (matrix-geometric invariant vectors)",
    url: "",
};
pub const GRASSMANN_TAKSAR_HEYMAN_1985: Citation = Citation {
    text: "W. K. Grassmann, M. I. Taksar, D. P. Heyman, \"Regenerative Analysis and Steady State Distributions for Markov Chains\", Operations Research 33(5), 1107–1116 (1985) (elimination without subtraction)",
    url: "https://doi.org/10.1287/opre.33.5.1107",
};
pub const HARCHOL_BALTER_2013: Citation = Citation {
    text: "M. Harchol-Balter, Performance Modeling and Design of Computer Systems, Cambridge University Press (2013), ch. 14 (M/M/k)",
    url: "https://www.cs.cmu.edu/~harchol/PerformanceModeling/book.html",
};
pub const BACCELLI_HEBUTERNE_1981: Citation = Citation {
    text: "F. Baccelli, G. Hébuterne, \"On Queues with Impatient Customers\", in Performance '81 (F. J. Kylstra, ed.), North-Holland (1981), 159–179",
    url: "",
};
pub const ZELTYN_MANDELBAUM_2005: Citation = Citation {
    text: "S. Zeltyn, A. Mandelbaum, \"Call Centers with Impatient Customers: Many-Server Asymptotics of the M/M/n + G Queue\", Queueing Systems 51(3–4), 361–402 (2005), §2 (exact results)",
    url: "https://doi.org/10.1007/s11134-005-3699-8",
};
pub const LITTLE_1961: Citation = Citation {
    text: "J. D. C. Little, \"A Proof for the Queuing Formula: L = λW\", Operations Research 9(3), 383–387 (1961)",
    url: "https://doi.org/10.1287/opre.9.3.383",
};
pub const JUNG_2003: Citation = Citation {
    text: "J. Jung, A. W. Berger, H. Balakrishnan, \"Modeling TTL-based Internet Caches\", IEEE INFOCOM (2003)",
    url: "https://doi.org/10.1109/INFCOM.2003.1208693",
};
pub const SRE_BOOK_SLO: Citation = Citation {
    text: "B. Beyer et al., Site Reliability Engineering, O'Reilly (2016), ch. 4 \"Service Level Objectives\"",
    url: "https://sre.google/sre-book/service-level-objectives/",
};
pub const SRE_BOOK_POSTMORTEM: Citation = Citation {
    text: "B. Beyer, C. Jones, J. Petoff, N. R. Murphy (eds.), Site Reliability Engineering, O'Reilly (2016), ch. 15 \"Postmortem Culture: Learning from Failure\"",
    url: "https://sre.google/sre-book/postmortem-culture/",
};
pub const SRE_BOOK_EXAMPLE_POSTMORTEM: Citation = Citation {
    text: "B. Beyer, C. Jones, J. Petoff, N. R. Murphy (eds.), Site Reliability Engineering, O'Reilly (2016), appendix D \"Example Postmortem\"",
    url: "https://sre.google/sre-book/example-postmortem/",
};
pub const SRE_WORKBOOK_IMPLEMENTING_SLOS: Citation = Citation {
    text: "B. Beyer et al., The Site Reliability Workbook, O'Reilly (2018), ch. 2 \"Implementing SLOs\" (request-based SLIs: good events over valid events; the error budget as a number of allowed bad events)",
    url: "https://sre.google/workbook/implementing-slos/",
};
pub const SRE_WORKBOOK_ALERTING: Citation = Citation {
    text: "B. Beyer et al., The Site Reliability Workbook, O'Reilly (2018), ch. 5 \"Alerting on SLOs\" (multiwindow, multi-burn-rate alerts)",
    url: "https://sre.google/workbook/alerting-on-slos/",
};
pub const AWS_TARGET_TRACKING: Citation = Citation {
    text: "Amazon EC2 Auto Scaling User Guide, \"Target tracking scaling policies\"",
    url: "https://docs.aws.amazon.com/autoscaling/ec2/userguide/as-scaling-target-tracking.html",
};
pub const CLOUD_RUN_AUTOSCALING: Citation = Citation {
    text: "Google Cloud, Cloud Run documentation, \"About instance autoscaling in Cloud Run services\" (metrics-based and on-demand scaling, ACT, scale-in, maximum instances)",
    url: "https://cloud.google.com/run/docs/about-instance-autoscaling",
};
pub const K8S_HPA: Citation = Citation {
    text: "Kubernetes documentation, \"Horizontal Pod Autoscaling\" (algorithm details, tolerance, stabilization window, scaling policies)",
    url: "https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/",
};
pub const K8S_HPA_STABILIZATION: Citation = Citation {
    text: "Kubernetes documentation, \"Horizontal Pod Autoscaling\", section \"Stabilization window\" (scale-down takes the highest recommendation of the window, 300 s by default)",
    url: "https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/#stabilization-window",
};
pub const K8S_HPA_CONTROLLER: Citation = Citation {
    text: "Kubernetes, pkg/controller/podautoscaler/horizontal.go (recordInitialRecommendation: a new HPA's first recommendation is the current replica count; stabilizeRecommendationWithBehaviors)",
    url: "https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/podautoscaler/horizontal.go",
};
pub const KNATIVE_AUTOSCALING: Citation = Citation {
    text: "Knative documentation, Serving → \"Autoscaling\" (KPA, concurrency target and utilization, stable and panic windows, scale rates, scale to zero)",
    url: "https://knative.dev/docs/serving/autoscaling/",
};
pub const KNATIVE_KPA_SOURCE: Citation = Citation {
    text: "Knative Serving, pkg/autoscaler/scaling/autoscaler.go (the KPA decision: stable and panic pod counts, panic mode, scale-rate bounds)",
    url: "https://github.com/knative/serving/blob/main/pkg/autoscaler/scaling/autoscaler.go",
};
pub const ENVOY_CIRCUIT_BREAKING: Citation = Citation {
    text: "Envoy documentation, \"Circuit breaking\" (max_connections, max_pending_requests, max_requests) and the cluster circuit-breaker thresholds",
    url: "https://www.envoyproxy.io/docs/envoy/latest/intro/arch_overview/upstream/circuit_breaking",
};
pub const ELASTIC_SCALER_DOC: Citation = Citation {
    text: "\"弹性扩缩容 - 多策略负载均衡最佳实践\" (Elastic scaling: multi-strategy load-balancing best practice), the documentation of an Envoy-based elastic scaler: trend, delay-prediction and p95 expansion, shrink with drain, its JSON configuration",
    url: "",
};
pub const JAIN_1991: Citation = Citation {
    text: "R. Jain, The Art of Computer Systems Performance Analysis, Wiley (1991), ch. 31 (M/M/1: response time S/(1 − ρ))",
    url: "https://www.cse.wustl.edu/~jain/books/perfbook.htm",
};
pub const KNUTH_TAOCP2: Citation = Citation {
    text: "D. E. Knuth, The Art of Computer Programming, Vol. 2: Seminumerical Algorithms, 3rd ed. (1997), §3.4.1 (exponential, normal, Poisson deviates)",
    url: "https://www-cs-faculty.stanford.edu/~knuth/taocp.html",
};
pub const BOX_MULLER_1958: Citation = Citation {
    text: "G. E. P. Box, M. E. Muller, \"A Note on the Generation of Random Normal Deviates\", Ann. Math. Statist. 29(2) (1958)",
    url: "https://doi.org/10.1214/aoms/1177706645",
};
pub const MULBERRY32: Citation = Citation {
    text: "T. Ettinger, mulberry32 (2017), a 32-bit-state generator",
    url: "https://gist.github.com/tommyettinger/46a874533244883189143505d203312c",
};
pub const EISENBUD_2016: Citation = Citation {
    text: "D. E. Eisenbud, C. Yi, C. Contavalli, C. Smith, R. Kononov, E. Mann-Hielscher, A. Cilingiroglu, B. Cheyney, W. Shang, J. D. Hosein, \"Maglev: A Fast and Reliable Software Network Load Balancer\", 13th USENIX NSDI (2016), §3.4 (consistent hashing, Pseudocode 1, Table 1)",
    url: "https://www.usenix.org/conference/nsdi16/technical-sessions/presentation/eisenbud",
};
pub const KARGER_1997: Citation = Citation {
    text: "D. Karger, E. Lehman, T. Leighton, R. Panigrahy, M. Levine, D. Lewin, \"Consistent Hashing and Random Trees: Distributed Caching Protocols for Relieving Hot Spots on the World Wide Web\", 29th ACM STOC (1997), 654–663",
    url: "https://doi.org/10.1145/258533.258660",
};
pub const ENVOY_LOAD_BALANCERS: Citation = Citation {
    text: "Envoy documentation, \"Supported load balancers\" (weighted round robin; weighted least request by power of two choices, choice_count 2; random; ring hash: minimum_ring_size 1,024, maximum_ring_size 8,388,608, xxHash; Maglev: table_size 65,537, a prime)",
    url: "https://www.envoyproxy.io/docs/envoy/latest/intro/arch_overview/upstream/load_balancing/load_balancers",
};
pub const ENVOY_LEAST_REQUEST_SOURCE: Citation = Citation {
    text: "Envoy source, least_request_lb.cc, unweightedHostPickNChoices (each of the choice_count choices drawn as random() % size, with replacement, so two choices can be the same host; the host with fewer active requests wins, a tie going to the first drawn)",
    url: "https://github.com/envoyproxy/envoy/blob/main/source/extensions/load_balancing_policies/least_request/least_request_lb.cc",
};
pub const ENVOY_HOST_SELECTION_SOURCE: Citation = Citation {
    text: "Envoy source, outlier_detection_impl.cc (putHttpResponseCode, onConsecutiveErrorWorker, ejectHost: eject while 100 × (ejected + 1) / hosts ≤ max_ejection_percent, or one host with always_eject_one_host; onIntervalTimer and checkHostForUneject: back after min(base_ejection_time × backoff, max_ejection_time)) and load_balancer_impl.cc (isHostSetInPanic; EdfLoadBalancerBase::refresh and applySlowStartFactor: weight × max(min_weight_percent, (age / slow_start_window)^(1/aggression)) by the EDF scheduler while a host is in its window)",
    url: "https://github.com/envoyproxy/envoy/blob/main/source/common/upstream/outlier_detection_impl.cc",
};
pub const XXHASH_SPEC: Citation = Citation {
    text: "Y. Collet, \"xxHash fast digest algorithm\", XXH64 specification (doc/xxhash_spec.md of the xxHash project)",
    url: "https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md",
};
pub const KIEFER_WOLFOWITZ_1955: Citation = Citation {
    text: "J. Kiefer, J. Wolfowitz, \"On the Theory of Queues with Many Servers\", Transactions of the American Mathematical Society 78(1), 1–18 (1955) (the FIFO many-server queue through its vector of workers' free times)",
    url: "",
};
pub const MITZENMACHER_2001: Citation = Citation {
    text: "M. Mitzenmacher, \"The Power of Two Choices in Randomized Load Balancing\", IEEE Transactions on Parallel and Distributed Systems 12(10), 1094–1104 (2001) (the supermarket model)",
    url: "https://doi.org/10.1109/71.963420",
};
pub const ZIPF_1949: Citation = Citation {
    text: "G. K. Zipf, Human Behavior and the Principle of Least Effort, Addison-Wesley (1949) (rank-frequency law)",
    url: "",
};
pub const BRESLAU_1999: Citation = Citation {
    text: "L. Breslau, P. Cao, L. Fan, G. Phillips, S. Shenker, \"Web Caching and Zipf-like Distributions: Evidence and Implications\", IEEE INFOCOM (1999) (request popularity ∝ 1/i^α, α 0.64–0.83 in the traces)",
    url: "https://doi.org/10.1109/INFCOM.1999.749260",
};
pub const JOHNSON_KOTZ_1994: Citation = Citation {
    text: "N. L. Johnson, S. Kotz, N. Balakrishnan, Continuous Univariate Distributions, Vol. 1, 2nd ed., Wiley (1994), ch. 14 (lognormal: E[X] = e^(μ + σ²/2))",
    url: "",
};
pub const PUBSUB_HEDGING: Citation = Citation {
    text: "Google Cloud, Pub/Sub documentation, \"Publish hedging\" (hedge delay 1 s, 100 ms–10 s; max tokens 50, 1–250; refill ratio 0.1, 0.001–0.2; the delay below the initial request timeout and the total timeout; not with ordering keys)",
    url: "",
};
pub const DEAN_BARROSO_2013: Citation = Citation {
    text: "J. Dean, L. A. Barroso, \"The Tail at Scale\", Communications of the ACM 56(2), 74–80 (2013) (hedged requests)",
    url: "https://doi.org/10.1145/2408776.2408794",
};
pub const THIS_MODEL: Citation = Citation {
    text: "This simulator's calibration: example values for a mid-size web service (an assumption, not a measurement)",
    url: "",
};

pub const MARSAGLIA_TSANG_2000: Citation = Citation {
    text: "G. Marsaglia, W. W. Tsang, \"The Ziggurat Method for Generating Random Variables\", Journal of Statistical Software 5(8) (2000) (the request engine's exponentials, 256 layers)",
    url: "https://doi.org/10.18637/jss.v005.i08",
};

pub const RANDOMNESS: Relation = Relation {
    id: RelationId::Randomness,
    symbols: &["seed", "u"],
    citations: &[
        MULBERRY32,
        MARSAGLIA_TSANG_2000,
        BOX_MULLER_1958,
        KNUTH_TAOCP2,
    ],
    assumption: false,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_and_print_as_their_stable_keys() {
        for id in RelationId::ALL {
            assert_eq!(id.to_string().parse::<RelationId>(), Ok(*id));
        }
        assert_eq!("hpa_ratio".parse(), Ok(RelationId::HpaRatio));
        assert_eq!(RelationId::ErlangC.to_string(), "erlang_c");
        assert_eq!(RelationId::BurnRate1h.to_string(), "burn_rate_1h");
        assert_eq!(
            "nope".parse::<RelationId>(),
            Err(UnknownRelation("nope".into()))
        );
        assert_eq!(
            serde_json::to_string(&RelationId::CloudRunCpu).unwrap(),
            "\"cloud_run_cpu\""
        );
    }
}
