//! The relations the model uses, as data for the sources panel.
//!
//! Each formula of the model is one function; beside it sits a [`Relation`] constant with the
//! text the sources panel shows (formula, symbols, citation). [`ALL`] lists them in the order
//! the panel presents them, so the panel is generated from the same place as the code.

/// A published source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Citation {
    /// Author, title, venue and year.
    pub text: &'static str,
    /// Where to read it.
    pub url: &'static str,
}

/// One relation of the model, as shown in the sources panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Relation {
    /// Stable identifier (also the message-catalog key prefix in the UI).
    pub id: &'static str,
    /// Short name.
    pub name: &'static str,
    /// The formula in plain Unicode.
    pub formula: &'static str,
    /// What each symbol means.
    pub symbols: &'static [(&'static str, &'static str)],
    /// Caveats: where the relation is an approximation or a choice of this model.
    pub note: &'static str,
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
pub const HARCHOL_BALTER_2013: Citation = Citation {
    text: "M. Harchol-Balter, Performance Modeling and Design of Computer Systems, Cambridge University Press (2013), ch. 14 (M/M/k)",
    url: "https://www.cs.cmu.edu/~harchol/PerformanceModeling/book.html",
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
pub const THIS_MODEL: Citation = Citation {
    text: "This simulator's calibration: example values for a mid-size web service (an assumption, not a measurement)",
    url: "",
};

pub const RANDOMNESS: Relation = Relation {
    id: "randomness",
    name: "Randomness",
    formula: "mulberry32(seed); uniform u; exponential −m·ln(1 − u); normal √(−2 ln u₁)·cos(2π u₂) (Box–Muller); Poisson by Knuth's product of uniforms",
    symbols: &[("seed", "32-bit seed shown on screen and in the link"), ("u", "uniform draw on [0, 1)")],
    note: "The seed is the only source of randomness: the same seed, settings and actions give the same run.",
    citations: &[MULBERRY32, BOX_MULLER_1958, KNUTH_TAOCP2],
    assumption: false,
};

/// Every relation, in the order the sources panel shows them.
pub const ALL: &[&Relation] = &[
    &crate::traffic::ARRIVALS,
    &crate::queueing::OFFERED_LOAD,
    &crate::queueing::ERLANG_B,
    &crate::queueing::ERLANG_C,
    &crate::queueing::WAITING_TAIL,
    &crate::queueing::SATURATED_FAILURES,
    &crate::queueing::SOJOURN_P99_EXACT,
    &crate::queueing::SOJOURN_P99_APPROX,
    &crate::queueing::UTILIZATION,
    &crate::cache::TTL_HIT,
    &crate::cache::CACHE_REFILL,
    &crate::database::DB_LOAD,
    &crate::database::QUERY_TIME,
    &crate::database::SERVICE_TIME,
    &crate::budget::ERROR_BUDGET,
    &crate::budget::BURN_RATE_1H,
    &crate::budget::MULTIWINDOW_PAGE,
    &crate::budget::ERRORS_COUNTED,
    &crate::autoscale::target_tracking::TARGET_TRACKING,
    &crate::autoscale::cloud_run::CPU_DRIVER,
    &crate::autoscale::cloud_run::CONCURRENCY_DRIVER,
    &crate::autoscale::cloud_run::ACT_DRIVER,
    &crate::autoscale::cloud_run::TOLERANCE_BAND,
    &crate::autoscale::cloud_run::SCALE_IN,
    &crate::autoscale::cloud_run::ON_DEMAND,
    &crate::autoscale::elastic::TREND_EXPANSION,
    &crate::autoscale::elastic::DELAY_PREDICTION,
    &crate::autoscale::elastic::P95_EXPANSION,
    &crate::autoscale::elastic::SHRINKAGE,
    &crate::queueing::ENVOY_OVERFLOW,
    &crate::autoscale::hpa::HPA_RATIO,
    &crate::autoscale::hpa::HPA_BEHAVIOR,
    &crate::autoscale::kpa::KPA_STABLE_PANIC,
    &crate::autoscale::kpa::KPA_BOUNDS,
    &crate::queueing::MINUTE_QUANTILE,
    &crate::params::CALIBRATION,
    &RANDOMNESS,
];

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_unique_and_texts_present() {
        let mut ids: Vec<&str> = super::ALL.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n);
        for r in super::ALL {
            assert!(!r.formula.is_empty() && !r.citations.is_empty(), "{}", r.id);
        }
    }
}
