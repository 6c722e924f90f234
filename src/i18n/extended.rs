//! The English text of the extended build's messages: the request engine, hedging, host
//! selection and the regions. The first build leaves this module out, so none of its words
//! are in the first download.

use super::Msg;

/// The English text of an extended build's message; `""` for the others, whose text is in
/// the catalog's main table.
pub(super) fn en(msg: Msg) -> &'static str {
    use Msg::*;
    match msg {
        SeriesRegion => "Region {region}",
        RequestsHeading => "Requests this minute",
        RequestsSummary => "{arrivals} arrived, {served} served, {timeouts} timed out, {rejected} rejected",
        RequestsInstances => "Each instance's utilization",
        RequestsInstanceTitle => "Instance {n}: {served} served, {queue} waiting at the minute's end, {utilization} busy",
        RequestsInstancesAlt => "{serving} instances serving, from {low} to {high} busy; instance {busiest} served the most",
        RequestsLatency => "Time in the system of the served requests (log scale)",
        RequestsNoneServed => "No request was served this minute.",
        RequestsHistogramAlt => "Histogram of the time in the system: p50 {p50}, p99 {p99}; the formula's p99 {formula}",
        RequestsP50Mark => "p50 {value}",
        RequestsP99Mark => "p99 {value}",
        RequestsFormulaP99Mark => "formula p99 {value}",
        RequestsSideBySide => "The formulas beside the requests",
        RequestsFormula => "Formula",
        RequestsMeasured => "Requests",
        RequestsFormulaBaseline => "Formula (healthy fleet)",
        RequestsBaselineP99Mark => "healthy-fleet formula p99 {value}",
        RequestsGapSlow => "The formula is the healthy baseline: instance {n} serving {factor}× slower is not in it, and the gap to the requests is that fault's effect.",
        RequestsGapHotKey => "The formula is the healthy baseline, the load spread evenly: the hot key's {share} of the requests, all sent to one instance, is not in it, and the gap to the requests is that fault's effect.",
        RequestsPWait => "Requests that waited",
        RequestsRejected => "Rejected (503)",
        RequestsHedges => "Hedges: {sent} sent, {won} won, {cancelled} cancelled, {duplicates} duplicated; {tokens} tokens left",
        RequestsHedgingOff => "Hedging is off.",
        RequestsOutlier => "Outlier detection: {ejected} ejected now, {ejections} ejected this minute.",
        RequestsPanic => "Panic: fewer healthy instances than the panic threshold, so the balancer routes to every instance, ejected ones too.",
        RequestsSlowStart => "Slow start: {instances} in their window, taking a growing share.",
        RequestsSlowStartNone => "Slow start: no instance in its window.",
        RequestsHostSelectionOff => "Outlier detection and slow start are off.",
        LbLabel => "Load balancing",
        HedgeLabel => "Hedged requests",
        HedgeDelayLabel => "Hedge delay (ms)",
        HedgeTokensLabel => "Most tokens",
        HedgeRefillLabel => "Tokens per success",
        ServiceShapeLabel => "Service time",
        ServiceExponential => "Exponential",
        ServiceLognormal => "Lognormal",
        ServiceSigmaLabel => "Shape σ",
        KeysLabel => "Keys",
        ZipfLabel => "Zipf exponent",
        ChoicesLabel => "Choices",
        RegionsHeading => "Regions",
        RegionsRegion => "Region",
        RegionsComposite => "Composite health",
        RegionsConsumer => "Load balancer sees",
        RegionsApp => "App fleet",
        RegionsDatabase => "Database",
        RegionsShare => "Traffic served",
        RegionsUsers => "Its users go to",
        RegionsInstances => "Serving / crashed / ejected",
        RegionsSourceCounts => "{healthy} of {total} healthy (needs {percent} % and {min})",
        RegionsRoutedHome => "their own region",
        RegionsRoutedTo => "region {region}",
        RegionsOutOfRouting => "out of routing",
        RegionsApply => "Apply",
        RegionsHealthyPercent => "Healthy share needed (%)",
        RegionsMinHealthy => "Healthy endpoints needed",
        RegionsDrain => "Drain",
        RegionsUndrain => "Put back",
        RegionsOutlier => "Outlier detection",
        RegionsFailover => "Health-based failover",
        RegionsInjectZone => "Zone outage (half)",
        RegionsInjectDb => "Database failure",
        RegionsInjectHeading => "Inject a failure",
        RegionalHeading => "Failover",
        RegionalIntro => "The same scenario, seed and settings replayed without your actions: with health-based failover off, and with failover off but outlier detection on in every region.",
        RegionalAsPlayed => "As played",
        RegionalFailoverOff => "Failover off",
        RegionalOutlierOnly => "Outlier detection only",
        RegionalReplaying => "Replaying the run with failover off…",
        ActZoneOutage => "zone outage in region {region}: {share} of its instances down",
        ActZoneBack => "the zone of region {region} is back",
        ActDbFailure => "the database of region {region} fails",
        ActDbBack => "the database of region {region} is back",
        ActRegionBadBuild => "a bad build on {share} of region {region}'s instances",
        ActDrain => "region {region} drained, out of routing",
        ActUndrain => "region {region} put back in routing",
        ActRegionMinInstances => "minimum instances in region {region} → {value}",
        ActOutlierOn => "outlier detection on in region {region}",
        ActOutlierOff => "outlier detection off in region {region}",
        ActFailoverOn => "health-based failover on",
        ActFailoverOff => "health-based failover off",
        ActHealthyPercent => "healthy share needed → {value}",
        ActMinHealthy => "healthy endpoints needed → {value}",
        ResourceInstance => "Instance {instance}",
        ResourceReplica => "Database replica {replica}",
        ResourceConsumer => "Load balancer's view",
        EvInRegion => "Region {region}: {text}",
        EvScenarioFailure => "The scenario: {failure}.",
        DebriefTwist => "At {clock}: {failure}. The seed drew this failure; the log kept it to itself while you played.",
        KindHealth => "health",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::super::{en as text, Msg};

    #[test]
    fn every_message_has_its_english_text_in_the_extended_build() {
        let missing: Vec<&Msg> = Msg::ALL.iter().filter(|m| text(**m).is_empty()).collect();
        assert!(missing.is_empty(), "no English text: {missing:?}");
    }
}
