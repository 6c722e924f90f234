//! English: the catalog the command line prints from and the console's default language.

use crate::autoscale::PolicyId;
use crate::balance::Routing;
use crate::ids::ScenarioId;
use crate::message::MessageId;

/// A scenario's title.
pub fn scenario_title(id: ScenarioId) -> &'static str {
    match id {
        ScenarioId::FreePlay => "Free play",
        ScenarioId::BadDeploy => "Bad deploy",
        ScenarioId::ViralSurge => "Viral surge",
        ScenarioId::CacheFlush => "Cache flush at peak",
        ScenarioId::SlowInstance => "Slow instance at peak",
        ScenarioId::HotKey => "Hot key",
        ScenarioId::RegionalOutage => "Regional outage",
    }
}

/// A scenario's briefing.
pub fn scenario_briefing(id: ScenarioId) -> &'static str {
    match id {
        ScenarioId::FreePlay => "A normal day at the midday peak: no incident is scripted, though the usual traffic drifts slowly, somewhere between 15 % down and 20 % up depending on the seed. Try the controls and watch what each one costs.",
        ScenarioId::BadDeploy => "A new build goes out between 09:07 and 09:13 and rolls out over 3 to 6 minutes; how soon, how fast and how bad it is depend on the seed. The month has been hard: only 20 % of the error budget is left. Minutes after the deploy the burn-rate page fires. Protect the budget.",
        ScenarioId::ViralSurge => "A link to the service is spreading. A traffic surge is expected sometime this morning; nobody knows when or how big. New instances need 8 minutes to boot today. Keep errors and latency low without paying for idle capacity.",
        ScenarioId::SlowInstance => "Request mode. At the midday peak, between 11:58 and 12:05, one of the ten instances turns 8 to 20 times slower for 15 to 30 minutes (which one, when and how slow depend on the seed). Round robin keeps sending it its share, and its requests wait until they time out. Bring the tail back before the page: hedging sends a copy to another instance after the hedge delay, at the cost of some extra load.",
        ScenarioId::HotKey => "Request mode. The service routes by key with Maglev, so every request for a key lands on the same instance. From 11:48 to 11:55, one key's share of the requests jumps to 15 % to 30 % for 20 to 40 minutes (which key, when and how much depend on the seed). Find where the load went and spread it.",
        ScenarioId::CacheFlush => "At the midday peak, between 11:57 and 12:05, a maintenance script flushes 60 % to 100 % of the cache; when and how much depend on the seed. Most requests now go to a database sized for the usual 85 % hit rate. Bring the service back without overloading the database.",
        ScenarioId::RegionalOutage => "The service runs in two regions: a (60 % of the users) and b (40 %, an hour behind). At region a's midday peak, between 11:55 and 12:10, it loses 50 % to 80 % of its instances to a zone outage (its other zones have no capacity to spare), or (one seed in four) its database fails, for 30 to 60 minutes; which, when and how big depend on the seed. Composite health should fail a's users over to b, whose fleet must scale out through cold starts and whose cache has never seen a's keys. Keep the budget.",
    }
}

/// A policy's line on how it decides, with the parameters in force.
pub fn policy_summary(
    id: PolicyId,
    model: &crate::params::ModelParams,
    policies: &crate::autoscale::PolicySettings,
) -> String {
    let text = policy_text(id).map_or("", |(_, summary)| summary);
    super::relations_en::fill(text, |name| model.get(name).or_else(|| policies.get(name)))
}

/// A policy's name and a line on how it decides (placeholders name the parameters, see
/// [`policy_summary`]). A policy missing here shows its id: adding
/// one to the registry compiles at once, and a test asks for its text.
pub fn policy_text(id: PolicyId) -> Option<(&'static str, &'static str)> {
    Some(match id {
        PolicyId::TargetTracking => ("Target tracking", "Every minute, ⌈serving × utilization / target⌉; waits for booting instances; scales in slowly."),
        PolicyId::CloudRun => ("Cloud Run", "The largest of the CPU, concurrency and ACT recommendations with a ±{cloud_run.tolerance%} % band, plus on-demand instances when requests find no slot."),
        PolicyId::Elastic => ("Elastic multi-strategy (Envoy)", "Every {elastic.acq_frequency} s: trend, delay-prediction and p95 expansion with cooling; shrinks at most {elastic.shrinkage_number} drained node at a time after {elastic.shrinkage_delay_time} s of health."),
        PolicyId::Hpa => ("Kubernetes HPA", "Every {hpa.sync_period_s} s, ⌈current × CPU / target⌉ with a {hpa.tolerance} tolerance; scale-up at most max({hpa.scale_up_percent} %, {hpa.scale_up_pods} pods) per {hpa.scale_up_period_s} s; scale-down after a {hpa.scale_down_stabilization_s} s stabilization window."),
        PolicyId::Kpa => ("Knative KPA", "Every {kpa.tick_interval_s} s, in-flight requests over {kpa.target_utilization%} % of the container concurrency, averaged over {kpa.stable_window_s} s, or over {kpa.panic_window_percentage} % of that window in panic mode."),
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

/// A load-balancing policy's name. A policy missing here shows its id: adding one to the
/// registry compiles at once, and a test asks for its name.
pub fn lb_text(id: Routing) -> Option<&'static str> {
    Some(match id {
        Routing::RoundRobin => "Round robin",
        Routing::Random => "Random",
        Routing::LeastRequest => "Least request",
        Routing::RingHash => "Ring hash (by key)",
        Routing::Maglev => "Maglev (by key)",
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

/// The English template of message `id`.
pub fn template(id: MessageId) -> &'static str {
    use MessageId::*;
    match id {
        MustBe => "must be {range}",
        RangeWhole => "a whole number from {min} to {max}",
        RangeNumber => "a number from {min} to {max}",
        RangeWholeUnit => "a whole number from {min} to {max} {unit}",
        RangeNumberUnit => "a number from {min} to {max} {unit}",
        UnknownParam => "unknown parameter; known: {known}",
        UnknownPolicyParam => "unknown policy parameter; policy parameters start with {prefixes}",
        OneOf => "must be one of {allowed}",
        MustBeBelow => "must be below {other} ({value})",
        MustNotExceed => "must not exceed {other} ({value})",
        MustBeAbove => "must be above {other} ({value})",
        MustBeAtLeast => "must be at least {other} ({value})",
        AllowedMinutes => "a whole number of minutes from 0 to {max}",
        OneOfList => "one of {allowed}",
        HedgeDelayNotBelowTimeouts => "must be below both the request timeout (timeout_s: {timeout_s} s) and the total timeout (total_timeout_s: {total_timeout_s} s), or hedging cannot start; it is {delay_ms} ms",
        HedgeWithOrderingKeys => "cannot be on while ordering_keys is on: hedged copies of a request could be processed out of order",
        LinkTooLong => "the link is {given} bytes long; only the first {max} are read, and what comes after is left out",
        LinkMoreNotices => "and {count} more problems with the link, not listed",
        ActionMalformed => "action {text:?} must be MINUTE:NAME[=VALUE], e.g. 12:rollback",
        ActionBadMinute => "action {text:?}: minute {minute:?} must be a whole number from 0 to {max}",
        ActionUnknown => "unknown action {name:?}; allowed: {allowed}, or a regional action (zone_outage, failover, …: see help)",
        ActionNeedsValue => "action {name} needs a value: {name}=VALUE with VALUE {allowed}",
        ActionTakesNoValue => "action {name} takes no value",
        ActionBadValue => "action {name}: value {value:?} is not allowed; use {allowed}",
        ActionAllowedWhole => "a whole number from {lo} to {hi}",
        ActionAllowedSeconds => "a whole number of seconds from {lo} to {hi}",
        ActionAllowedFraction => "a fraction from {lo} to {hi}",
        ActionAllowedOnOff => "on or off",
        UnknownField => "unknown field; known: {known}",
        JsonSyntax => "{detail}",
        // The elastic scaler's configuration file's notes and errors: the page's policy
        // module renders them with [`config_template`]; the console's own modules leave them
        // out of their download.
        ElasticNotAnObject | ElasticStrategyList | ElasticUnknownStrategy | ElasticStrategyObject | ElasticDiffers | ElasticStrategyInactive | ElasticNoStrategy | ElasticLbPolicyKept | ElasticIgnoredApiAddress | ElasticIgnoredApiKey | ElasticIgnoredScaleUpRequest | ElasticIgnoredDashboard => {
            if cfg!(target_arch = "wasm32") {
                ""
            } else {
                config_template(id)
            }
        }
        FieldProblem => "{field}: {problem}",
        // The command line's sentences; the page never shows them.
        CliUsage | CliUnknownCommand | CliNoCommand | CliUnexpected | CliUnknownFlag
        | CliNeedsValue | CliGivenTwice | CliRequired | CliNotAllowed | CliFormats
        | CliRateRange | CliServiceTimeRange | CliWithinRange | CliSet | CliSetShape
        | CliSetUnknownPolicy | CliSetUnknownChoice | CliSetUnknownName | CliSetNotANumber
        | CliAction | CliCannotWrite | CliCannotRead | CliConfigError | CliUnknownScenario | CliPolicies
        | CliAutoscalerWithCompare | CliConfigUnknown | CliConfigNeedsSubcommand
        | CliConfigNeedsFile | CliNote | CliSetTwice | CliPoliciesTwice | CliCannotWriteOutput
        | CliFileTooLarge | CliPositiveRateRange | CliServersNotSplit
        | CliDesRefused | CliHedgeDelayRange | CliRefillRatioRange | CliInitialTokensRange
        | CliTotalTimeoutRange | CliZipfRange | CliSigmaRange | CliSlowShape
        | CliHedgeDelayNotBelow | CliHedgeWithOrderingKeys => cli_template(id),
        CliLbPolicies | CliLbTableSizeNotPrime | CliLbTooManyHosts => cli_template(id),
        CliHealthEndpoints | CliHealthSources | CliHealthNeedsOne => cli_template(id),
        CliDesEventCap | CliMinutesRequestMode | CliProgressStart | CliProgressStartRun
        | CliProgressRuns | CliProgressMinutes => cli_template(id),
        CliScenarioUnknown | CliScenarioNeedsSubcommand | CliScenarioNeedsArgument
        | CliScenarioOrFile | CliExerciseError | CliExerciseErrorAt | CliExerciseChecked => {
            cli_template(id)
        }
        CliHealthSourcesAlone | CliHealthNoEndpoints | CliChoiceCountLeastRequest => {
            cli_template(id)
        }
        ExerciseTooLarge | ExerciseUnknownField | ExerciseWrongType | ExerciseMissing | ExerciseTooLong | ExerciseEmpty | ExerciseOutOfRange | ExerciseFormat | ExerciseNewer | ExerciseId | ExerciseStart | ExerciseUnknownValue | ExerciseBadControl | ExerciseBadParam | ExerciseTooMany | ExerciseUnknownFault | ExerciseAfterEnd | ExerciseNoRegion | ExerciseNeedsRequests | ExerciseOverlap | ExerciseRange | ExerciseLinkTooLong | ExerciseLinkBroken => exercise_template(id),
        ScaleUpPodsNeeded => "must be at least 1 when {other} is {value} (otherwise the HPA never scales up)",
        ScaleUpPercentNeeded => "must be above 0 when {other} is {value} (otherwise the HPA never scales up)",
        // Scaling decisions. Percentages arrive already multiplied by 100; the decimals
        // shown are part of the text (the golden output pins them).
        // Target tracking.
        TargetTrackingComputed => "⌈{serving} × {utilization:.1} % / {target:.0} %⌉ = {wanted}",
        TargetTrackingScaleOut => "scale out: {computed} → {desired} instances",
        TargetTrackingScaleIn => "scale in after {quiet} quiet minutes: {computed}, at most {share:.0} % of {live} → {to} instances",
        // Cloud Run. The drivers' line separates the three drivers with ";  " (two spaces).
        CloudRunDrivers => "concurrency max({concurrency_1m:.1}, {concurrency_10m:.1}) / {workers} / {concurrency_target:.0} % = {concurrency_utilization:.0} % of {live} → {concurrency};  CPU {cpu:.2} CPUs / {cpu_target:.0} % = {cpu_utilization:.0} % → {cpu_count};  ACT {act:.0}: {concurrency_1m:.1} / {act:.0} / {concurrency_target:.0} % = {act_utilization:.0} % → {act_count}",
        CloudRunHolds => "holds (in band)",
        CloudRunRoundsUp => "⌈{exact:.2}⌉ = {count}",
        CloudRunOnDemand => "on-demand: demand λ·S = {arrival_rate:.0} × {service:.3} s = {demand:.1} requests > {live} instances × {workers} slots → ⌈{demand:.1} / {workers}⌉ = {count}",
        CloudRunOnDemandCapped => "{on_demand}, capped at the maximum {ceiling}: requests wait up to max({pending_min:.0} s, {factor:.1} × {cold_start:.0} s) = {pending:.0} s for a slot, then 429 ({rejected:.1} % of them; the {timeout:.0} s request timeout ends them first)",
        CloudRunScaleOut => "scale out, {driver} drives: {drivers} → {desired}",
        CloudRunScaleIn => "scale in: {drivers}; {why} → {desired}",
        CloudRunRanLow => "the {extras} {extras|instance|instances} no longer recommended ran at {utilization:.0} % < {threshold:.0} % for {after:.0} s",
        CloudRunIdleTimeout => "the {extras} {extras|instance|instances} no longer recommended reached the {minutes:.0}-minute idle timeout",
        CloudRunAboveMaximum => "{live} instances exceed the maximum {ceiling}",
        // The elastic scaler; the strategies that fired are listed with "; ".
        ElasticBelowMinNodes => "{nodes} nodes < min_nodes {floor}: scale up at once",
        ElasticAboveMaxNodes => "{nodes} nodes > max_nodes {ceiling}",
        ElasticTrend => "trend: active {active:.0} + {rate:.1}/s × 60 s = {projected:.0} > {nodes} × {limit:.0} → {how}",
        ElasticTrendNodes => "safe capacity {limit:.0} − {rate:.1} × 60 s = {safe:.0}, ⌈{active:.0} / {safe:.0}⌉ = {needed} nodes",
        ElasticTrendNoCapacity => "safe capacity {limit:.0} − {rate:.1} × 60 s = {safe:.0} ≤ 0: go to max_nodes {ceiling}",
        ElasticDelay => "delay prediction: {active:.0} in flight / {completion_rate:.0} completed per s = {predicted:.2} s ≥ {delay_time} s over {arrivals:.0} requests → add max(⌈{nodes} × {ratio}⌉, {min}) = {size}",
        ElasticP95 => "p95: {slow:.1} % of {arrivals:.0} requests over {threshold:.0} ms for {breach_for:.0} s ≥ {duration:.0} s → add max(⌈{nodes} × {ratio}⌉, {min}) = {size}",
        ElasticExpand => "{strategies}; cooling {cooling:.0} s",
        ElasticExpandCapped => "{strategies}; capped at max_nodes {ceiling}; cooling {cooling:.0} s",
        ElasticShrink => "shrink: healthy for {healthy:.0} s; trend allows ⌈{active:.0} / {safe:.0}⌉ = {needed} nodes, min_nodes {floor} → remove {remove} (at most {most}); drain until its requests finish (≈ {p99:.2} s) or drain_timeout {drain_timeout:.0} s",
        // The HPA.
        HpaRatio => "⌈{ready} × {cpu:.1} % / {target:.0} %⌉ = {recommended}",
        HpaWithinTolerance => "CPU {cpu:.1} % / target {target:.0} % = {ratio:.3}, within the tolerance {tolerance}",
        HpaUnreadyNoScaleUp => "CPU {cpu:.1} % on {ready} ready pods, {unready} not ready counted at 0 %: {adjusted:.1} % / {target:.0} % = {ratio:.3}, no scale-up",
        HpaUnreadyRatio => "CPU {cpu:.1} % on {ready} ready pods, {unready} not ready counted at 0 %: ⌈{all} × {ratio:.3}⌉ = {recommended}",
        HpaScaleUp => "scale up {current} → {desired}: {how}",
        HpaScaleDown => "scale down {current} → {desired}: {how}",
        HpaHeldAtHighest => "{decision}; held at {held}, the highest recommendation of the last {window:.0} s",
        HpaHeldByWindow => "{decision}; held at {held} by the {window:.0} s stabilization window",
        HpaScaleUpLimited => "{decision}; limited to max({start} × {percent:.0} %, {start} + {pods:.0}) = {limit} per {period:.0} s",
        HpaScaleDownLimited => "{decision}; limited to {limit}: at most {percent:.0} % per {period:.0} s",
        // The KPA: its mode, then the computation.
        KpaStable => "stable",
        KpaPanicEnded => "stable (panic ended)",
        KpaPanic => "panic",
        KpaPanicEntered => "panic (entered)",
        KpaDecision => "{mode}: concurrency {stable_average:.1} over {stable_window:.0} s, {panic_average:.1} over {panic_window:.0} s; target {workers} × {target_utilization:.0} % = {target:.1} per pod → stable ⌈{stable_ratio:.3}⌉ = {stable}, panic ⌈{panic_ratio:.3}⌉ = {panic} ({panic_share:.0} % of {ready} ready, threshold {threshold:.0} %) → {desired}",
        KpaGrace => "{decision}; the last pod stays for the {grace:.0} s scale-to-zero grace period",
        MinInstancesZeroRefused => "minimum instances 0 (scale to zero) needs a policy that holds requests while the first instance starts: cloud-run or kpa; {policy} keeps at least 1 instance, so the minimum stays as it was",
        RollbackNothingEarlier => "nothing to roll back to; build {build} is the only build that has gone out",
        // The debrief. Shares arrive as percentages.
        WorstMinute => "Worst minute: minute {minute} ({clock}), {error_rate:.1} % of requests failed, p99 {p99_ms:.0} ms; {cause}",
        CauseNoErrors => "no request failed",
        CauseTimeouts => "requests timed out waiting for a worker ({timeouts:.1} % of them): the workers were saturated, {utilization:.0} % busy",
        CauseDatabase => "the database was overloaded, at {db_utilization:.0} % of its capacity with the cache answering {cache_hit:.0} % of requests: waiting for queries made requests take {service_time_ms:.0} ms, {timeouts:.1} % timed out waiting for a worker and {failed:.1} % failed their queries",
        CauseBadBuild => "a bad build served {bad_build_share:.0} % of the fleet and failed {failed:.1} % of requests",
        CauseRejected => "the nodes' limits and the overflow queue were full: {rejected:.1} % of requests were rejected (503)",
        WarningBudgetOverspent => "budget overspent: the run spent {budget_spent:.1} % of the month's error budget and ended {overspent:.1} % below zero",
        WarningSpentMoreThanDoingNothing => "the run spent {budget_spent:.1} % of the month's error budget, more than doing nothing ({nothing_done:.1} %)",
        WarningStaleCache => "stale cache: cached answers were {mean_age_s:.0} s old on average, above {threshold_s:.0} s (the opening TTL of {opening_ttl_s:.0} s, twice the mean age it gives)",
        WarningPagedLong => "paged for long: the page fired for {minutes_paging} of {minutes} {minutes|minute|minutes}, more than {threshold:.0} % of the run",
        VerdictBetterThanEveryPar => "Better than the textbook response and the best single action: you spent {budget_spent:.1} % of the budget, the textbook {textbook:.1} %, the best single action {best:.1} %.",
        VerdictBetterThanTextbook => "Better than the textbook response: you spent {budget_spent:.1} % of the budget against its {textbook:.1} %; one well-timed action spent {best:.1} %.",
        VerdictMatchesTextbook => "As good as the textbook response: you spent {budget_spent:.1} % of the budget, the textbook {textbook:.1} %.",
        VerdictMatchesTextbookAtMoreCost => "As good as the textbook response on the budget, at {extra_cost:.0} % more cost: you spent {budget_spent:.1} % of the budget and {cost:.2} $, the textbook {textbook:.1} % and {textbook_cost:.2} $.",
        VerdictBetweenTextbookAndNothing => "Between doing nothing and the textbook response: you spent {budget_spent:.1} % of the budget, doing nothing {nothing_done:.1} %, the textbook {textbook:.1} %.",
        VerdictBetterThanNothing => "Better than doing nothing: you spent {budget_spent:.1} % of the budget, doing nothing {nothing_done:.1} %.",
        VerdictSameAsNothing => "No better than doing nothing: you spent {budget_spent:.1} % of the budget, doing nothing {nothing_done:.1} %.",
        VerdictSameAsNothingAtMoreCost => "Kept the budget like doing nothing would, at {extra_cost:.0} % more cost: you spent {budget_spent:.1} % of the budget and {cost:.2} $, doing nothing {nothing_done:.1} % and {nothing_cost:.2} $.",
        VerdictWorseThanNothing => "Worse than doing nothing: you spent {budget_spent:.1} % of the budget, doing nothing {nothing_done:.1} %.",
        LiveUtilization => "Now: ρ = λ·S / N = {lambda:.1} req/s × {service:.4} s / {servers} workers = {rho:.3}; busy workers min(ρ, 1) = {busy:.1} %",
        LiveTimeouts => "Now: λ = {lambda:.1} req/s, S = {service:.4} s, N = {servers} workers, D = {timeout:.2} s, so a = λ·S = {load:.1} erlangs. A request waits with probability {p_wait:.3} %; of those, {beyond:.3} % would wait past D and give up: timeouts = {timeouts:.3} %",
        LiveP99 => "Now: λ = {lambda:.1} req/s, S = {service:.4} s, N = {servers} workers, D = {timeout:.2} s (a = {load:.1} erlangs): the p99 of the answered requests' time in the system is {p99:.0} ms",
        LiveBurn1h => "Now: the mean error rate of the last {minutes} {minutes|minute|minutes} (the window starts filled with the first minute's rate) is {mean:.4} %; ÷ (1 − SLO {slo:.2} %) = {burn:.2}×",
        LivePageFires => "Now: 1 h burn {long:.1}× {long_vs} {threshold:.1} and 5 min burn {short:.1}× {short_vs} {threshold:.1}: both windows are at or above the threshold, so the page fires",
        LivePageQuiet => "Now: 1 h burn {long:.1}× {long_vs} {threshold:.1} and 5 min burn {short:.1}× {short_vs} {threshold:.1}: the page needs both at or above the threshold, so it does not fire",
        LiveTtlHit => "Now: r = λ / objects = {lambda:.1} / {objects:.0} = {rate:.4} per s, T = {ttl:.0} s, warm = {warm:.1} %: hit = warm × rT / (1 + rT) = {hit:.1} %",
        LiveDbLoad => "Now: (λ × q × miss + warm-up) / capacity = ({lambda:.1} × {queries:.1} × {miss:.1} % + {warmup:.0}) / {capacity:.0} = {demand:.0} / {capacity:.0} queries per s = {rho:.1} %",
        LiveSplitMinute => "This minute was served in {ticks} ticks of {tick} s, the autoscaler's cadence, and the row is their mean: no single substitution gives it.",
        LiveNodeLimits => "Envoy's per-node limits bound the queue this minute (M/M/N/K, see the overflow relation): this formula alone does not give the row.",
        LiveNoServers => "No instance served this minute, so there is no queue to put numbers in.",
        LessonFreePlay => "Every control has a price: capacity costs money, a longer TTL serves older answers, shedding turns users away. Read the cost before you pull the lever.",
        LessonBadDeploy => "When errors start right after a deploy, roll back first and diagnose later: the rollback is the fastest fix, and every minute on the bad build spends budget.",
        LessonViralSurge => "New capacity arrives only after it boots: raise the floor as soon as the surge shows, and make each request cheaper while the fleet catches up.",
        // Regions and their health checks: only the extended build runs them.
        EventHealthTransition | EventRerouted | EventEjected | EventUnejected | EventInstancesCrashed | EventFailure | HealthCompositeAsSource | HealthNoSource | HealthReasonReconfigured | HealthReasonProbesPassed | HealthReasonDown | HealthReasonProbeTimeout | HealthReasonPolicy | HealthReasonSources | HealthReasonPropagated | HealthChangesApplyAtOnce => extended_template(id),
        LiveMeasured | LiveRouted | LessonSlowInstance | LessonHotKey | LessonRegionalOutage => extended_template(id),
        ActionAllowedInject => extended_template(id),
        RegionAction => "{name}={value}",
        RegionAllowedShare => "REGION:SHARE, a region of {regions} and a share from 0 to 1",
        RegionAllowedOnOff => "REGION:on or REGION:off, a region of {regions}",
        RegionAllowedCount => "REGION:N, a region of {regions} and a whole number from {lo} to {hi}",
        RegionNoSuchRegion => "the run has no region {region}; it has {regions}",
        LessonCacheFlush => "A cold cache sends its misses to the database: take load off the database (shed, turn off the heavy feature) while the cache refills, or warm it on purpose.",
        PostmortemTitle | PostmortemHeadSummary | PostmortemHeadImpact | PostmortemHeadDetection
        | PostmortemHeadTimeline | PostmortemHeadWentWell | PostmortemHeadWentPoorly
        | PostmortemHeadActionItems | PostmortemHeadSources | PostmortemNothingToNote
        | PostmortemSummaryFault | PostmortemSummaryNoFault | PostmortemSummaryErrors
        | PostmortemSummaryNoErrors | PostmortemSummaryPage | PostmortemSummaryNoPage
        | PostmortemSummaryFirstAction | PostmortemSummaryNoAction | PostmortemSummaryWorst
        | PostmortemImpactBudget | PostmortemImpactFailed | PostmortemImpactShed
        | PostmortemImpactPaging | PostmortemImpactCost | PostmortemImpactP99
        | PostmortemFaultStart | PostmortemNoFaultStart | PostmortemFirstSymptom
        | PostmortemNoSymptom | PostmortemPage | PostmortemNoPage | PostmortemFirstAction
        | PostmortemNoAction | PostmortemFromFault | PostmortemFromSymptom
        | PostmortemTimeToDetect | PostmortemTimeToDetectNoPage | PostmortemTimeToRespond
        | PostmortemTimeToMitigate | PostmortemNotMitigated | PostmortemNothingToMitigate
        | PostmortemBadDeploy | PostmortemDeploy | PostmortemCacheFlush | PostmortemSurge
        | PostmortemFailure | PostmortemZoneOutage | PostmortemZoneBack
        | PostmortemDatabaseFailed | PostmortemDatabaseBack | PostmortemSlowInstance
        | PostmortemSlowInstanceBack | PostmortemHotKey | PostmortemHotKeyBack
        | PostmortemErrorsAbove | PostmortemErrorsBack | PostmortemPageFired
        | PostmortemPageResolved | PostmortemAction | PostmortemActionRefused
        | PostmortemRollbackStarted | PostmortemRollbackFinished | PostmortemWarmupStarted
        | PostmortemWarmupFinished | PostmortemRerouted | PostmortemReroutedBack
        | PostmortemRunEnded | PostmortemActionAt | PostmortemSavedBudget
        | PostmortemNoBudgetSpent | PostmortemBestSingleBetter | PostmortemBestSingleMatched
        | PostmortemMoreCost | PostmortemActedAfterPage | PostmortemNoActionAfterPage
        | PostmortemItemBadBuild | PostmortemItemTimeouts | PostmortemItemUnevenTimeouts
        | PostmortemItemDatabase | PostmortemItemRejected | PostmortemItemBudgetOverspent
        | PostmortemItemSpentMore | PostmortemItemStaleCache | PostmortemItemPagedLong
        | PostmortemItemNone | PostmortemSources => postmortem_template(id),
    }
}

/// The templates of the postmortem draft ([`crate::postmortem`]), in its order. Shares
/// arrive as percentages; clocks as "HH:MM"; actions as `NAME[=VALUE]`, in backticks (the
/// draft is Markdown). The first download writes no postmortem, so it leaves them out.
#[cfg(any(not(target_arch = "wasm32"), feature = "extended"))]
fn postmortem_template(id: MessageId) -> &'static str {
    use MessageId::*;
    match id {
        PostmortemTitle => "Postmortem: {scenario}, seed {seed}, {start}–{end}",
        PostmortemHeadSummary => "Summary",
        PostmortemHeadImpact => "Impact",
        PostmortemHeadDetection => "Detection",
        PostmortemHeadTimeline => "Timeline",
        PostmortemHeadWentWell => "What went well",
        PostmortemHeadWentPoorly => "What went poorly",
        PostmortemHeadActionItems => "Action items",
        PostmortemHeadSources => "Sources",
        PostmortemNothingToNote => "Nothing to note.",
        PostmortemSummaryFault => "{fault} at {clock}.",
        PostmortemSummaryNoFault => "The scenario scripted no fault.",
        PostmortemSummaryErrors => "Requests failed above the rate the SLO allows in {minutes} of the run's {run} minutes, between {first} and {end}.",
        PostmortemSummaryNoErrors => "No minute failed requests above the rate the SLO allows.",
        PostmortemSummaryPage => "The page fired at {clock}.",
        PostmortemSummaryNoPage => "The page never fired.",
        PostmortemSummaryFirstAction => "The first action, `{action}`, came at {clock}.",
        PostmortemSummaryNoAction => "No action was taken.",
        PostmortemSummaryWorst => "{worst}.",
        PostmortemImpactBudget => "Error budget spent: {spent:.1} % of the month's, leaving {left:.1} %",
        PostmortemImpactFailed => "Failed requests: about {failed:.0}",
        PostmortemImpactShed => "Requests shed on purpose: about {shed:.0}",
        PostmortemImpactPaging => "Minutes paging: {minutes}",
        PostmortemImpactCost => "Fleet cost: {cost:.2} $",
        PostmortemImpactP99 => "Worst p99: {p99_ms:.0} ms",
        PostmortemFaultStart => "Fault start: {clock}",
        PostmortemNoFaultStart => "Fault start: none scripted",
        PostmortemFirstSymptom => "First symptom: {clock}, {error_rate:.1} % of requests failed, more than the SLO allows",
        PostmortemNoSymptom => "First symptom: none; no minute failed requests above the rate the SLO allows",
        PostmortemPage => "Page: {clock}",
        PostmortemNoPage => "Page: never fired",
        PostmortemFirstAction => "First action: {clock}, `{action}`",
        PostmortemNoAction => "First action: none was taken",
        PostmortemFromFault => "the fault's start",
        PostmortemFromSymptom => "the first symptom",
        PostmortemTimeToDetect => "Time to detect: {minutes} {minutes|minute|minutes}, from {from} to the page",
        PostmortemTimeToDetectNoPage => "Time to detect: not measured; the page never fired",
        PostmortemTimeToRespond => "Time to respond: {minutes} {minutes|minute|minutes}, from the page to the first action",
        PostmortemTimeToMitigate => "Time to mitigate: {minutes} {minutes|minute|minutes}, from {from} to errors back within the SLO at {clock}",
        PostmortemNotMitigated => "Time to mitigate: not mitigated; errors were still above the rate the SLO allows when the run ended at {clock}",
        PostmortemNothingToMitigate => "Time to mitigate: nothing to mitigate",
        PostmortemBadDeploy => "Build {build}, a bad build, started rolling out",
        PostmortemDeploy => "Build {build} started rolling out",
        PostmortemCacheFlush => "{share:.0} % of the cache was flushed",
        PostmortemSurge => "A traffic surge of up to {peak:.1} × the usual traffic began",
        PostmortemFailure => "Failure injected: {failure}",
        PostmortemZoneOutage => "{share:.0} % of region {region}'s instances crashed in a zone outage",
        PostmortemZoneBack => "The zone of region {region} came back",
        PostmortemDatabaseFailed => "The database of region {region} failed",
        PostmortemDatabaseBack => "The database of region {region} came back",
        PostmortemSlowInstance => "Instance {instance} turned {factor:.1} times slower",
        PostmortemSlowInstanceBack => "Instance {instance} back to its usual speed",
        PostmortemHotKey => "One key's share of the requests jumped to {share:.0} %",
        PostmortemHotKeyBack => "The hot key back to its usual share of the requests",
        PostmortemErrorsAbove => "Errors above the rate the SLO allows: {error_rate:.1} % of requests failed",
        PostmortemErrorsBack => "Errors back within the SLO",
        PostmortemPageFired => "The page fired: burn rate {burn_1h:.1}× over 1 h and {burn_5m:.1}× over 5 min",
        PostmortemPageResolved => "The page resolved",
        PostmortemAction => "Action: `{action}`",
        PostmortemActionRefused => "Action `{action}` refused: {reason}",
        PostmortemRollbackStarted => "Rollback to build {build} started: {instances} {instances|instance|instances} booting, to take traffic at {ready}",
        PostmortemRollbackFinished => "Traffic switched to the rollback fleet on build {build}",
        PostmortemWarmupStarted => "Cache warm-up started, for {minutes} minutes",
        PostmortemWarmupFinished => "Cache warm-up finished",
        PostmortemRerouted => "Users of region {users} sent to region {to}",
        PostmortemReroutedBack => "Users of region {users} back in their own region",
        PostmortemRunEnded => "The run ended",
        PostmortemActionAt => "`{action}` at {clock}",
        PostmortemSavedBudget => "Against doing nothing ({nothing_done:.1} % of the budget, {nothing_paging} {nothing_paging|minute|minutes} paging), the response saved {saved:.1} points of the budget and paged for {paging} {paging|minute|minutes}.",
        PostmortemNoBudgetSpent => "The run spent no error budget worth counting: {budget_spent:.1} % of the month's.",
        PostmortemBestSingleBetter => "The best single action found, {actions}, would have spent {best:.1} % of the budget, {less:.1} points less.",
        PostmortemBestSingleMatched => "As good as the best single action found, {actions}, which spent {best:.1} % of the budget.",
        PostmortemMoreCost => "The run cost {extra_cost:.0} % more than doing nothing: {cost:.2} $ against {nothing_cost:.2} $.",
        PostmortemActedAfterPage => "The first action came {minutes} {minutes|minute|minutes} after the page.",
        PostmortemNoActionAfterPage => "The page fired at {clock} and no action followed.",
        PostmortemItemBadBuild => "Stop a bad build before it reaches the whole fleet: roll out in stages, and roll back at the first errors after a deploy rather than at the page (at {clock} the bad build served {bad_build_share:.0} % of the fleet and failed {failed:.1} % of requests).",
        PostmortemItemTimeouts => "Add capacity before the workers saturate: raise the minimum instances as soon as the load climbs (at {clock} the workers were {utilization:.0} % busy and {timeouts:.1} % of requests timed out).",
        PostmortemItemUnevenTimeouts => "Find where requests wait while other workers have room: a slow instance calls for hedging, a hot key for spreading the load by request rather than by key (at {clock}, {timeouts:.1} % of requests timed out with the workers {utilization:.0} % busy on average).",
        PostmortemItemDatabase => "Protect the database while the cache is cold: shed low-priority requests, turn off the heavy feature and warm the cache (at {clock} the database ran at {db_utilization:.0} % of its capacity, the cache answering {cache_hit:.0} % of requests).",
        PostmortemItemRejected => "Give the fleet room before the nodes' limits fill: add instances or raise the limits (at {clock}, {rejected:.1} % of requests were rejected with 503).",
        PostmortemItemBudgetOverspent => "Hold risky changes until the error budget recovers: the month's budget ended {overspent:.1} % below zero.",
        PostmortemItemSpentMore => "Review what each action cost before using it again: the run spent {budget_spent:.1} % of the budget, more than doing nothing ({nothing_done:.1} %).",
        PostmortemItemStaleCache => "Bring the cache TTL back towards its opening {opening_ttl_s:.0} s once the incident is over: answers were {mean_age_s:.0} s old on average.",
        PostmortemItemPagedLong => "Act on the page sooner, with a runbook step for this alert: it fired for {minutes_paging} of the run's {minutes} minutes.",
        PostmortemItemNone => "None: the coach saw nothing to follow up.",
        PostmortemSources => "The structure follows {chapter} ({chapter_url}) and the book's appendix D, \"Example Postmortem\" ({example_url}).",
        _ => "",
    }
}

#[cfg(not(any(not(target_arch = "wasm32"), feature = "extended")))]
fn postmortem_template(_id: MessageId) -> &'static str {
    ""
}

/// The templates of the elastic scaler's configuration file's notes and errors (the command
/// line's `config check`, the policy panel's editor).
pub fn config_template(id: MessageId) -> &'static str {
    use MessageId::*;
    match id {
        ElasticNotAnObject => "the configuration must be a JSON object { … }",
        ElasticStrategyList => "must be a list of strategy names from {allowed}",
        ElasticUnknownStrategy => "unknown strategy {given}; allowed: {allowed}",
        ElasticStrategyObject => "must be an object { … } of the strategy's settings",
        ElasticDiffers => "differs from {other} ({value}); the strategy's own value is used",
        ElasticStrategyInactive => "configured but not listed in expansion_strategies, so inactive",
        ElasticNoStrategy => "empty: the scaler never expands, it only shrinks",
        ElasticLbPolicyKept => "{policy} is the run's load-balancing policy (lb, which the link carries) and is exported: the request engine routes by it, and under any policy but least request the formulas split the queue over the instances",
        ElasticIgnoredApiAddress => "cloud-specific (the cloud's API address): accepted and ignored; the simulator starts and stops its own instances",
        ElasticIgnoredApiKey => "cloud-specific (the cloud's API key): accepted and ignored; the simulator starts and stops its own instances",
        ElasticIgnoredScaleUpRequest => "cloud-specific (the task the cloud starts per node): accepted and ignored; the simulator starts its own instances",
        ElasticIgnoredDashboard => "accepted and ignored: the simulator's charts show the node history",
        _ => "",
    }
}

/// The templates of what only the extended build runs: regions and their health checks, the
/// request engine's and the routed fleet's notes, and the lessons of the exercises built on
/// them. The first download leaves them out (they would only add to its transfer; a run that
/// needs them opens the extended build).
#[cfg(feature = "extended")]
fn extended_template(id: MessageId) -> &'static str {
    use MessageId::*;
    match id {
        ActionAllowedInject => "KIND/FIELD=VALUE/… with KIND one of {kinds} and each of its fields but at (docs/scenario.md lists them), e.g. cache_flush/share=0.8",
        LiveMeasured => "In request mode this row is measured on the simulated requests; the request panel shows the formula's value beside it.",
        LiveRouted => "Under {lb} each instance has its own queue: the row comes from the routed fleet's relations (each instance's share of the arrivals, mixed over the instances), not from one pooled queue.",
        LessonSlowInstance => "One slow instance is a tail problem, not a capacity problem: hedging sends a copy elsewhere after the hedge delay and cuts the p99 for a few percent of extra load; under a sustained overload the copies only add load, and the token bucket drains and stops them.",
        LessonHotKey => "A hash policy sends every request of a key to the same instance: when one key surges, that instance overloads while the others idle. Least request spreads the load; consistent hashing is worth its price only when the cache locality it buys matters.",
        LessonRegionalOutage => "A region that declares itself unhealthy lets its users fail over within a minute; the region that takes them needs capacity and a warm cache it does not have: raise its floor as soon as the failover starts, and make each request cheaper while it scales.",
        EventHealthTransition => "{resource} {from} → {to}: {reason}",
        EventRerouted => "users of region {users} now go to region {to} (were on {from})",
        EventEjected => "outlier detection ejected instance {instance} for {seconds} s",
        EventUnejected => "instance {instance} returned from ejection",
        EventInstancesCrashed => "{count} {count|instance|instances} crashed",
        EventFailure => "failure injected: {failure}",
        HealthCompositeAsSource => "a composite health check cannot use another composite health check as a source",
        HealthNoSource => "a composite health check needs at least one health source",
        HealthReasonReconfigured => "the health policy changed: state unknown until the next evaluation",
        HealthReasonProbesPassed => "{probes} consecutive probes passed",
        HealthReasonDown => "{probes} consecutive probes failed: not answering",
        HealthReasonProbeTimeout => "{probes} consecutive probes failed: no answer within the probe timeout",
        HealthReasonPolicy => "{healthy} of {total} endpoints healthy (policy: at least {percent} % and at least {min})",
        HealthReasonSources => "sources: app fleet {app}, database {database}",
        HealthReasonPropagated => "the composite state reached the consumer's load balancer after {delay} s",
        HealthChangesApplyAtOnce => "Health changes apply at once: there is no test mode, and a change can fail a region over immediately.",
        _ => "",
    }
}

#[cfg(not(feature = "extended"))]
fn extended_template(_id: MessageId) -> &'static str {
    ""
}

/// The templates of an exercise file's errors. The first download reads no exercise file
/// (the extended build imports them), so it leaves them out.
#[cfg(any(not(target_arch = "wasm32"), feature = "extended"))]
fn exercise_template(id: MessageId) -> &'static str {
    use MessageId::*;
    match id {
        ExerciseTooLarge => "the file has {size} bytes; an exercise file may have at most {max}",
        ExerciseUnknownField => "unknown field \"{field}\"; allowed: {allowed}",
        ExerciseWrongType => "must be a {expected}",
        ExerciseMissing => "the field \"{field}\" is missing",
        ExerciseTooLong => "is too long: at most {max} characters",
        ExerciseEmpty => "must not be empty",
        ExerciseOutOfRange => "{given} is not allowed: must be {allowed}",
        ExerciseFormat => "must be \"{expected}\"",
        ExerciseNewer => "version {version} is newer than this program reads (version {supported}): open it with a newer simulator",
        ExerciseId => "may contain only lower-case letters, digits and hyphens (at most 40)",
        ExerciseStart => "\"{given}\" is not a time of day: write HH:MM, from 00:00 to 23:59",
        ExerciseUnknownValue => "\"{given}\" is not allowed; allowed: {allowed}",
        ExerciseBadControl => "{detail}",
        ExerciseBadParam => "{detail}",
        ExerciseTooMany => "has too many items: at most {max}",
        ExerciseUnknownFault => "unknown fault kind \"{given}\"; allowed: {allowed}",
        ExerciseAfterEnd => "minute {minute} is past the end of the exercise: it lasts {minutes} minutes, 0 to {last}",
        ExerciseNoRegion => "region {region} does not exist: the exercise runs {regions} region(s), numbered from 0",
        ExerciseNeedsRequests => "the fault {fault} needs the request engine: set service.engine to \"requests\"",
        ExerciseOverlap => "this {fault} may overlap in time with timeline[{other}]: two of this kind cannot hold at once",
        ExerciseRange => "a range is written [lo, hi] with lo ≤ hi",
        ExerciseLinkTooLong => "the exercise makes a link of {given} characters; a link may carry at most {max}: share the file instead, or shorten the briefing, lesson and hints",
        ExerciseLinkBroken => "the exercise in this link cannot be read ({detail}): ask for the link again, or for the file",
        _ => "",
    }
}

#[cfg(not(any(not(target_arch = "wasm32"), feature = "extended")))]
fn exercise_template(_id: MessageId) -> &'static str {
    ""
}

/// The command line's templates. The page runs no command line, so its build leaves them
/// out (they would only add to its transfer).
#[cfg(not(target_arch = "wasm32"))]
fn cli_template(id: MessageId) -> &'static str {
    use MessageId::*;
    match id {
        CliUsage => "usage:
  oncall-sim scenarios
  oncall-sim run (--scenario ID | --scenario-file FILE) --seed N --minutes M
                 [--action MINUTE:NAME[=VALUE]]...
                 [--set NAME=VALUE]... [--elastic-config FILE] [--format jsonl|csv] [--events FILE]
                 [--regions FILE]
  oncall-sim compare (--scenario ID | --scenario-file FILE) --seed N [--policies A,B,...] [--minutes M]
                 [--action MINUTE:NAME[=VALUE]]... [--set NAME=VALUE]... [--elastic-config FILE]
  oncall-sim config check FILE
  oncall-sim config export FILE
  oncall-sim scenario check FILE
  oncall-sim scenario link FILE
  oncall-sim scenario export ID
  oncall-sim health --endpoints HEALTHY/TOTAL [--healthy-percent P] [--min-healthy M]
  oncall-sim health --sources STATE,STATE,...
  oncall-sim queue --servers N --arrival-rate L --service-time S [--within T] [--timeout T]
  oncall-sim par (--scenario ID | --scenario-file FILE) --seed N [--minutes M] [--set NAME=VALUE]...
                 [--elastic-config FILE]
  oncall-sim postmortem (--scenario ID | --scenario-file FILE) --seed N [--minutes M]
                 [--action MINUTE:NAME[=VALUE]]...
                 [--set NAME=VALUE]... [--elastic-config FILE]
  oncall-sim lb --policy ring-hash|maglev --hosts N [--remove K] [--keys K] [--table-size M]
  oncall-sim des --servers N --arrival-rate L --service-time S --customers K [--instances I]
                 [--lb round-robin|random|least-request|ring-hash|maglev] [--timeout T]
                 [--choice-count D (least-request only)] [--keys K --zipf S] [--sigma SIGMA] [--max-requests M] [--max-pending P]
                 [--slow INSTANCE,FACTOR,FROM_S,TO_S]
                 [--hedge-delay-ms D --max-tokens T --refill-ratio R] [--initial-tokens B]
                 [--total-timeout T] [--ordering-keys on|off] [--seed N]

  --set autoscaler=target-tracking|cloud-run|elastic|hpa|kpa picks the policy;
  --set regions=1|2|3 runs the service in that many regions; regional actions:
  zone_outage=REGION:SHARE, db_failure=REGION:on|off, bad_build=REGION:SHARE,
  drain_region=REGION:on|off, region_min_instances=REGION:N, outlier_detection=REGION:on|off,
  failover=on|off, healthy_percent=P, min_healthy=M (regions a, b, c).
  --set budget_accounting=time|requests picks how errors spend the error budget (time, the
  default: burn / 43,200 a minute; requests: errors over the month's allowed errors); model
  parameters and the policies' parameters (cloud_run.*, elastic.*, hpa.*, kpa.*) are set
  by name.

  lb prints each host's share of the Maglev table (--table-size, a prime, default 65537) or
  of the ring (--table-size is the minimum ring size, default 1024), and with --remove K the
  share of --keys sampled keys (default 100000) that move when the last K hosts leave.

  des simulates requests one by one. --keys and --zipf set the keys' Zipf popularity (default
  10000 keys, exponent 0.8), which ring-hash and maglev route by; --sigma makes service times
  lognormal with that shape and the same mean; --max-requests and --max-pending are per-node
  limits (the excess is rejected with 503); --slow multiplies one instance's service times by
  FACTOR (at most 1000) from FROM_S to TO_S. Any hedging argument turns hedging on, the others
  at the source's defaults (delay 1000 ms, 50 tokens, refill ratio 0.1; the bucket starts
  full); a hedge due while the bucket is empty waits for the next token.

  scenario link prints the fragment (#exercise=...) that carries the exercise in the
  console's link: add it to the page's address (full.html?seed=7#exercise=...).

  postmortem prints a Markdown postmortem draft of the run (summary, impact, detection,
  timeline, what went well and poorly, action items), compared with the run's par lines.

  par, compare and postmortem take at most 1440 minutes in request mode; a long command shows
  its progress on stderr. Output that cannot be written (a closed or full standard output, a full disk)
  exits 1; bad input exits 2.",
        CliUnknownCommand => "unknown command {given:?}; allowed: scenarios, run, compare, config, queue, par, postmortem, des, lb, health (see oncall-sim help)",
        CliNoCommand => "a command is needed: scenarios, run, compare, config, queue, par, postmortem, des, lb or health (see oncall-sim help)",
        CliUnexpected => "unexpected argument {given:?}",
        CliUnknownFlag => "unknown argument {given:?}; allowed: {allowed}",
        CliNeedsValue => "{name} needs a value",
        CliGivenTwice => "{name} given more than once",
        CliRequired => "{name} is required",
        CliNotAllowed => "{name} {given:?} is not allowed; use {what}",
        CliFormats => "jsonl or csv",
        CliRateRange => "a rate in requests per second from 0 to 1e9",
        CliServiceTimeRange => "a mean service time in seconds, above 0 and at most 1e6",
        CliWithinRange => "a time in seconds from 0 to 1e9",
        CliSet => "--set {error}",
        CliSetShape => "--set {given:?} must be NAME=VALUE",
        CliSetUnknownPolicy => "--set autoscaler: {given:?} is not allowed; use one of {allowed}",
        CliSetUnknownChoice => "--set {name}: {given:?} is not allowed; use one of {allowed}",
        CliSetUnknownName => "--set {name}: unknown parameter; use autoscaler, budget_accounting, a model parameter ({model}) or a policy parameter ({prefixes})",
        CliSetNotANumber => "--set {name}: {given:?} is not a number; it {allowed}",
        CliAction => "--action {error}",
        CliCannotWrite => "{flag} {path:?} cannot be written: {error}",
        CliCannotRead => "{flag} {path:?} cannot be read: {error}",
        CliConfigError => "{flag} {path:?}: {error}",
        CliUnknownScenario => "--scenario {given:?} is unknown; allowed: {allowed}",
        CliPolicies => "--policies: {given:?} is not a policy; use a comma-separated list of {allowed}",
        CliAutoscalerWithCompare => "--set autoscaler is not allowed with compare; list the policies with --policies",
        CliConfigUnknown => "config {given:?} is unknown; allowed: config check FILE, config export FILE",
        CliConfigNeedsSubcommand => "config needs a subcommand: config check FILE or config export FILE",
        CliConfigNeedsFile => "config: a FILE is required",
        CliScenarioUnknown => "scenario {given:?} is unknown; allowed: scenario check FILE, scenario link FILE, scenario export ID",
        CliScenarioNeedsSubcommand => "scenario needs a subcommand: scenario check FILE, scenario link FILE or scenario export ID",
        CliScenarioNeedsArgument => "scenario {command}: {what} is required",
        CliScenarioOrFile => "give --scenario ID or --scenario-file FILE, not both",
        CliExerciseError => "{path}: line {line}, column {column}, {field}: {error}",
        CliExerciseErrorAt => "{path}: line {line}, column {column}: {error}",
        CliExerciseChecked => "{path}: a valid exercise, \"{title}\": {minutes} minutes, {injects} injects, {hints} hints",
        CliNote => "note: {note}",
        CliSetTwice => "--set {name} given more than once ({first:?} and {second:?}); give each parameter once",
        CliPoliciesTwice => "--policies lists {given:?} more than once; list each policy once",
        CliCannotWriteOutput => "cannot write the output: {error}",
        CliFileTooLarge => "{flag} {path:?} is larger than {max} bytes; a configuration or an exercise file is a few kilobytes",
        CliLbPolicies => "ring-hash or maglev",
        CliLbTableSizeNotPrime => "--table-size {given:?} is not a prime number; Maglev's table size must be a prime from 2 to {max} (Envoy's default is 65537)",
        CliLbTooManyHosts => "--hosts {hosts} is more than the Maglev table's {size} slots; every host needs a slot: use at most {size} hosts or a larger prime --table-size",
        CliPositiveRateRange => "a rate in requests per second from 1e-9 to 1e9",
        CliDesRefused => "des: the request-level engine cannot run with this {field}",
        CliServersNotSplit => "--servers {servers} cannot be split evenly across --instances {instances}; give a multiple of {instances} workers",
        CliHedgeDelayRange => "a hedge delay in milliseconds from 100 to 10000",
        CliRefillRatioRange => "a refill ratio (tokens per successful request) from 0.001 to 0.2",
        CliInitialTokensRange => "a number of tokens from 0 to --max-tokens ({max})",
        CliTotalTimeoutRange => "a time in seconds above 0, at most 1e9",
        CliZipfRange => "a Zipf exponent from 0 to 10",
        CliSigmaRange => "a lognormal shape from 0 to 4",
        CliSlowShape => "INSTANCE,FACTOR,FROM_S,TO_S: an instance below {instances}, a factor above 0 and at most {max_factor}, and times in seconds with 0 ≤ FROM_S ≤ TO_S ≤ {max_s}",
        CliHedgeDelayNotBelow => "--hedge-delay-ms {delay_ms} must be below both the request timeout (--timeout: {request}) and the total timeout (--total-timeout: {total}); hedging cannot start otherwise",
        CliHedgeWithOrderingKeys => "--ordering-keys on cannot be combined with hedging (--hedge-delay-ms, --max-tokens, --refill-ratio): hedged copies of a request could be processed out of order",
        CliHealthEndpoints => "HEALTHY/TOTAL, two whole numbers from 0 to {max} with HEALTHY at most TOTAL (e.g. 6/10)",
        CliHealthSources => "a comma-separated list of HEALTHY, UNHEALTHY or UNKNOWN",
        CliHealthNeedsOne => "health needs --endpoints HEALTHY/TOTAL or --sources STATE,STATE,... (one of them)",
        CliDesEventCap => "des: the run reached its cap of {cap} events ({per} per request and {base} more) before its last request ended; its figures would be incomplete",
        CliMinutesRequestMode => "--minutes {given} is more than {max} for {command} in request mode: every request is simulated and {command} runs the scenario several times, so a day ({max} minutes) is the most it takes; use --set engine=formulas for longer runs",
        CliProgressStart => "{command}: {runs} runs of {minutes} minutes at most; this takes a while, progress follows here (Ctrl-C stops it; nothing is printed until the end)",
        CliProgressStartRun => "run: {minutes} minutes; this takes a while, progress follows here (Ctrl-C stops it; nothing is printed until the end)",
        CliHealthSourcesAlone => "{given} is not allowed with --sources: --healthy-percent and --min-healthy are a source's policy and go with --endpoints HEALTHY/TOTAL; --sources STATE,... combines states and takes no other argument",
        CliHealthNoEndpoints => "no endpoints: at least {percent} % of none is none, so only min_healthy ({min}) decides (a source is UNHEALTHY when its healthy endpoints fall below either threshold)",
        CliChoiceCountLeastRequest => "--choice-count {given:?} applies only to --lb least-request (the instances it draws for each request); --lb {lb} does not use it: drop --choice-count or use --lb least-request",
        CliProgressRuns => "{command}: {done} of {total} runs done",
        CliProgressMinutes => "run: {done} of {total} minutes simulated",
        _ => "",
    }
}

#[cfg(target_arch = "wasm32")]
fn cli_template(_id: MessageId) -> &'static str {
    ""
}
