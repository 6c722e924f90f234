//! What the core has to say, as data: a [`Message`] is a [`MessageId`] plus named, typed
//! arguments. The core never builds a sentence; the catalogs at the edge (the command line's
//! and the console's) turn a message into text in their language, from a template per id
//! (see [`crate::catalog`]).

use crate::ids::ids;

/// One argument of a message.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A quantity; the template says how many decimals it shows.
    Num(f64),
    /// A count.
    Int(i64),
    /// An identifier or code the person types or reads as is (a parameter's name, a driver,
    /// an action's `NAME=VALUE`): never translated.
    Code(&'static str),
    /// Text given by the person (echoed back as is).
    Given(String),
    /// A list of codes (for "allowed: a, b, c").
    Codes(Vec<&'static str>),
    /// A unit's code (`workers`, `share_of_cache`, `s`): each language's catalog gives its
    /// text (see [`crate::catalog::params_en::param_unit`]).
    Unit(&'static str),
    /// Another message, rendered in place.
    Msg(Box<Message>),
    /// Messages rendered one after another, separated as the template's list separator says.
    Msgs(Vec<Message>),
}

/// A message id and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub id: MessageId,
    pub args: Vec<(&'static str, Arg)>,
}

impl Message {
    /// A message without arguments.
    pub fn new(id: MessageId) -> Self {
        Self {
            id,
            args: Vec::new(),
        }
    }

    /// Adds a quantity.
    pub fn num(mut self, name: &'static str, x: f64) -> Self {
        self.args.push((name, Arg::Num(x)));
        self
    }

    /// Adds a count.
    pub fn int(mut self, name: &'static str, n: impl Into<i64>) -> Self {
        self.args.push((name, Arg::Int(n.into())));
        self
    }

    /// Adds an identifier shown as is.
    pub fn code(mut self, name: &'static str, code: &'static str) -> Self {
        self.args.push((name, Arg::Code(code)));
        self
    }

    /// Adds text the person gave.
    pub fn given(mut self, name: &'static str, text: impl Into<String>) -> Self {
        self.args.push((name, Arg::Given(text.into())));
        self
    }

    /// Adds a list of identifiers.
    pub fn codes(mut self, name: &'static str, codes: Vec<&'static str>) -> Self {
        self.args.push((name, Arg::Codes(codes)));
        self
    }

    /// Adds a unit, by its code; the catalog puts it in words.
    pub fn unit(mut self, name: &'static str, code: &'static str) -> Self {
        self.args.push((name, Arg::Unit(code)));
        self
    }

    /// Adds a nested message.
    pub fn msg(mut self, name: &'static str, message: Message) -> Self {
        self.args.push((name, Arg::Msg(Box::new(message))));
        self
    }

    /// Adds a sequence of messages.
    pub fn msgs(mut self, name: &'static str, messages: Vec<Message>) -> Self {
        self.args.push((name, Arg::Msgs(messages)));
        self
    }

    /// The argument called `name`.
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
    }
}

/// Most characters of a person's text a message repeats; the rest shows as "…", so that a
/// 20,000-character entry gives a one-line message.
pub const QUOTE_CHARS: usize = 120;

/// `text` shortened to [`QUOTE_CHARS`] characters, "…" marking the cut.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// Serializes a message as its English text (the command line's JSON and the golden output
/// carry the text, not the id).
pub fn serialize_english<S: serde::Serializer>(message: &Message, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(message)
}

ids! {
    /// Every message the core can say. The spelling is the catalog key.
    MessageId, "message" {
        // Parameters and their values.
        FieldProblem = "field_problem",
        MustBe = "param.must_be",
        RangeWhole = "param.range_whole",
        RangeNumber = "param.range_number",
        RangeWholeUnit = "param.range_whole_unit",
        RangeNumberUnit = "param.range_number_unit",
        UnknownParam = "param.unknown",
        UnknownPolicyParam = "param.unknown_policy_param",
        OneOf = "param.one_of",
        MustBeBelow = "param.must_be_below",
        MustNotExceed = "param.must_not_exceed",
        MustBeAbove = "param.must_be_above",
        MustBeAtLeast = "param.must_be_at_least",
        ScaleUpPodsNeeded = "param.hpa_scale_up_pods_needed",
        ScaleUpPercentNeeded = "param.hpa_scale_up_percent_needed",
        AllowedMinutes = "param.allowed_minutes",
        OneOfList = "param.one_of_list",
        HedgeDelayNotBelowTimeouts = "param.hedge_delay_not_below_timeouts",
        HedgeWithOrderingKeys = "param.hedge_with_ordering_keys",
        // Links.
        LinkTooLong = "link.too_long",
        LinkMoreNotices = "link.more_notices",
        // Actions.
        ActionMalformed = "action.malformed",
        ActionBadMinute = "action.bad_minute",
        ActionUnknown = "action.unknown",
        ActionNeedsValue = "action.needs_value",
        ActionTakesNoValue = "action.takes_no_value",
        ActionBadValue = "action.bad_value",
        ActionAllowedWhole = "action.allowed_whole",
        ActionAllowedSeconds = "action.allowed_seconds",
        ActionAllowedFraction = "action.allowed_fraction",
        ActionAllowedOnOff = "action.allowed_on_off",
        // The elastic scaler's JSON configuration.
        UnknownField = "config.unknown_field",
        JsonSyntax = "config.json_syntax",
        ElasticNotAnObject = "config.not_an_object",
        ElasticStrategyList = "config.strategy_list",
        ElasticUnknownStrategy = "config.unknown_strategy",
        ElasticStrategyObject = "config.strategy_object",
        ElasticDiffers = "config.differs",
        ElasticStrategyInactive = "config.strategy_inactive",
        ElasticNoStrategy = "config.no_strategy",
        ElasticLbPolicyKept = "config.lb_policy_kept",
        ElasticIgnoredApiAddress = "config.ignored_api_address",
        ElasticIgnoredApiKey = "config.ignored_api_key",
        ElasticIgnoredScaleUpRequest = "config.ignored_scale_up_request",
        ElasticIgnoredDashboard = "config.ignored_dashboard",
        // An exercise's file.
        ExerciseTooLarge = "exercise.too_large",
        ExerciseUnknownField = "exercise.unknown_field",
        ExerciseWrongType = "exercise.wrong_type",
        ExerciseMissing = "exercise.missing",
        ExerciseTooLong = "exercise.too_long",
        ExerciseEmpty = "exercise.empty",
        ExerciseOutOfRange = "exercise.out_of_range",
        ExerciseFormat = "exercise.format",
        ExerciseNewer = "exercise.newer",
        ExerciseId = "exercise.id",
        ExerciseStart = "exercise.start",
        ExerciseUnknownValue = "exercise.unknown_value",
        ExerciseBadControl = "exercise.bad_control",
        ExerciseBadParam = "exercise.bad_param",
        ExerciseTooMany = "exercise.too_many",
        ExerciseUnknownFault = "exercise.unknown_fault",
        ExerciseAfterEnd = "exercise.after_end",
        ExerciseNoRegion = "exercise.no_region",
        ExerciseNeedsRequests = "exercise.needs_requests",
        ExerciseOverlap = "exercise.overlap",
        ExerciseRange = "exercise.range",
        ExerciseLinkTooLong = "exercise.link_too_long",
        ExerciseLinkBroken = "exercise.link_broken",
        ActionAllowedInject = "action.allowed_inject",
        // The command line.
        CliUsage = "cli.usage",
        CliUnknownCommand = "cli.unknown_command",
        CliNoCommand = "cli.no_command",
        CliUnexpected = "cli.unexpected",
        CliUnknownFlag = "cli.unknown_flag",
        CliNeedsValue = "cli.needs_value",
        CliGivenTwice = "cli.given_twice",
        CliRequired = "cli.required",
        CliNotAllowed = "cli.not_allowed",
        CliFormats = "cli.formats",
        CliRateRange = "cli.rate_range",
        CliServiceTimeRange = "cli.service_time_range",
        CliWithinRange = "cli.within_range",
        CliSet = "cli.set",
        CliSetShape = "cli.set_shape",
        CliSetUnknownPolicy = "cli.set_unknown_policy",
        CliSetUnknownChoice = "cli.set_unknown_choice",
        CliSetUnknownName = "cli.set_unknown_name",
        CliSetNotANumber = "cli.set_not_a_number",
        CliAction = "cli.action",
        CliCannotWrite = "cli.cannot_write",
        CliCannotRead = "cli.cannot_read",
        CliConfigError = "cli.config_error",
        CliUnknownScenario = "cli.unknown_scenario",
        CliScenarioUnknown = "cli.scenario_unknown",
        CliScenarioNeedsSubcommand = "cli.scenario_needs_subcommand",
        CliScenarioNeedsArgument = "cli.scenario_needs_argument",
        CliScenarioOrFile = "cli.scenario_or_file",
        CliExerciseError = "cli.exercise_error",
        CliExerciseErrorAt = "cli.exercise_error_at",
        CliExerciseChecked = "cli.exercise_checked",
        CliPolicies = "cli.policies",
        CliAutoscalerWithCompare = "cli.autoscaler_with_compare",
        CliConfigUnknown = "cli.config_unknown",
        CliConfigNeedsSubcommand = "cli.config_needs_subcommand",
        CliConfigNeedsFile = "cli.config_needs_file",
        CliNote = "cli.note",
        CliSetTwice = "cli.set_twice",
        CliPoliciesTwice = "cli.policies_twice",
        CliCannotWriteOutput = "cli.cannot_write_output",
        CliFileTooLarge = "cli.file_too_large",
        // The command line: hash load balancing (lb).
        CliLbPolicies = "cli.lb_policies",
        CliLbTableSizeNotPrime = "cli.lb_table_size_not_prime",
        CliLbTooManyHosts = "cli.lb_too_many_hosts",
        CliPositiveRateRange = "cli.positive_rate_range",
        CliServersNotSplit = "cli.servers_not_split",
        CliDesRefused = "cli.des_refused",
        CliHedgeDelayRange = "cli.hedge_delay_range",
        CliRefillRatioRange = "cli.refill_ratio_range",
        CliInitialTokensRange = "cli.initial_tokens_range",
        CliTotalTimeoutRange = "cli.total_timeout_range",
        CliZipfRange = "cli.zipf_range",
        CliSigmaRange = "cli.sigma_range",
        CliSlowShape = "cli.slow_shape",
        CliHedgeDelayNotBelow = "cli.hedge_delay_not_below",
        CliHedgeWithOrderingKeys = "cli.hedge_with_ordering_keys",
        // Scaling decisions: what each policy saw and computed (a decision's detail).
        // Target tracking.
        TargetTrackingComputed = "decision.target_tracking.computed",
        TargetTrackingScaleOut = "decision.target_tracking.scale_out",
        TargetTrackingScaleIn = "decision.target_tracking.scale_in",
        // Cloud Run.
        CloudRunDrivers = "decision.cloud_run.drivers",
        CloudRunHolds = "decision.cloud_run.holds",
        CloudRunRoundsUp = "decision.cloud_run.rounds_up",
        CloudRunOnDemand = "decision.cloud_run.on_demand",
        CloudRunOnDemandCapped = "decision.cloud_run.on_demand_capped",
        CloudRunScaleOut = "decision.cloud_run.scale_out",
        CloudRunScaleIn = "decision.cloud_run.scale_in",
        CloudRunRanLow = "decision.cloud_run.ran_low",
        CloudRunIdleTimeout = "decision.cloud_run.idle_timeout",
        CloudRunAboveMaximum = "decision.cloud_run.above_maximum",
        // The elastic scaler.
        ElasticBelowMinNodes = "decision.elastic.below_min_nodes",
        ElasticAboveMaxNodes = "decision.elastic.above_max_nodes",
        ElasticTrend = "decision.elastic.trend",
        ElasticTrendNodes = "decision.elastic.trend_nodes",
        ElasticTrendNoCapacity = "decision.elastic.trend_no_capacity",
        ElasticDelay = "decision.elastic.delay",
        ElasticP95 = "decision.elastic.p95",
        ElasticExpand = "decision.elastic.expand",
        ElasticExpandCapped = "decision.elastic.expand_capped",
        ElasticShrink = "decision.elastic.shrink",
        // The HPA.
        HpaRatio = "decision.hpa.ratio",
        HpaWithinTolerance = "decision.hpa.within_tolerance",
        HpaUnreadyNoScaleUp = "decision.hpa.unready_no_scale_up",
        HpaUnreadyRatio = "decision.hpa.unready_ratio",
        HpaScaleUp = "decision.hpa.scale_up",
        HpaScaleDown = "decision.hpa.scale_down",
        HpaHeldAtHighest = "decision.hpa.held_at_highest",
        HpaHeldByWindow = "decision.hpa.held_by_window",
        HpaScaleUpLimited = "decision.hpa.scale_up_limited",
        HpaScaleDownLimited = "decision.hpa.scale_down_limited",
        // The KPA.
        KpaStable = "decision.kpa.stable",
        KpaPanicEnded = "decision.kpa.panic_ended",
        KpaPanic = "decision.kpa.panic",
        KpaPanicEntered = "decision.kpa.panic_entered",
        KpaDecision = "decision.kpa.decision",
        KpaGrace = "decision.kpa.grace",
        // Actions the run refuses.
        MinInstancesZeroRefused = "action.min_instances_zero_refused",
        RollbackNothingEarlier = "action.rollback_nothing_earlier",
        // The debrief: the worst minute and its cause.
        WorstMinute = "debrief.worst_minute",
        CauseNoErrors = "debrief.cause.no_errors",
        CauseTimeouts = "debrief.cause.timeouts",
        CauseDatabase = "debrief.cause.database",
        CauseBadBuild = "debrief.cause.bad_build",
        CauseRejected = "debrief.cause.rejected",
        // The debrief's warnings.
        WarningBudgetOverspent = "debrief.warning.budget_overspent",
        WarningSpentMoreThanDoingNothing = "debrief.warning.spent_more_than_doing_nothing",
        WarningStaleCache = "debrief.warning.stale_cache",
        WarningPagedLong = "debrief.warning.paged_long",
        // The debrief's verdict against the par lines.
        VerdictBetterThanEveryPar = "debrief.verdict.better_than_every_par",
        VerdictBetterThanTextbook = "debrief.verdict.better_than_textbook",
        VerdictMatchesTextbook = "debrief.verdict.matches_textbook",
        VerdictMatchesTextbookAtMoreCost = "debrief.verdict.matches_textbook_at_more_cost",
        VerdictBetweenTextbookAndNothing = "debrief.verdict.between_textbook_and_nothing",
        VerdictBetterThanNothing = "debrief.verdict.better_than_nothing",
        VerdictSameAsNothing = "debrief.verdict.same_as_nothing",
        VerdictSameAsNothingAtMoreCost = "debrief.verdict.same_as_nothing_at_more_cost",
        VerdictWorseThanNothing = "debrief.verdict.worse_than_nothing",
        // Each scenario's lesson.
        LessonFreePlay = "lesson.free_play",
        LiveUtilization = "live.utilization",
        LiveTimeouts = "live.timeouts",
        LiveP99 = "live.p99",
        LiveBurn1h = "live.burn_1h",
        LivePageFires = "live.page_fires",
        LivePageQuiet = "live.page_quiet",
        LiveTtlHit = "live.ttl_hit",
        LiveDbLoad = "live.db_load",
        LiveSplitMinute = "live.split_minute",
        LiveNodeLimits = "live.node_limits",
        LiveNoServers = "live.no_servers",
        LiveMeasured = "live.measured",
        LiveRouted = "live.routed",
        LessonBadDeploy = "lesson.bad_deploy",
        LessonViralSurge = "lesson.viral_surge",
        LessonCacheFlush = "lesson.cache_flush",
        LessonSlowInstance = "lesson.slow_instance",
        LessonHotKey = "lesson.hot_key",
        LessonRegionalOutage = "lesson.regional_outage",
        // Regions and health.
        HealthCompositeAsSource = "health.composite_as_source",
        HealthNoSource = "health.no_source",
        HealthReasonReconfigured = "health.reason.reconfigured",
        HealthReasonProbesPassed = "health.reason.probes_passed",
        HealthReasonDown = "health.reason.down",
        HealthReasonProbeTimeout = "health.reason.probe_timeout",
        HealthReasonPolicy = "health.reason.policy",
        HealthReasonSources = "health.reason.sources",
        HealthReasonPropagated = "health.reason.propagated",
        HealthChangesApplyAtOnce = "health.changes_apply_at_once",
        RegionAction = "region.action",
        RegionAllowedShare = "region.allowed_share",
        RegionAllowedOnOff = "region.allowed_on_off",
        RegionAllowedCount = "region.allowed_count",
        RegionNoSuchRegion = "region.no_such_region",
        EventHealthTransition = "event.health_transition",
        EventRerouted = "event.rerouted",
        EventEjected = "event.ejected",
        EventUnejected = "event.unejected",
        EventInstancesCrashed = "event.instances_crashed",
        EventFailure = "event.failure",
        CliHealthEndpoints = "cli.health_endpoints",
        CliHealthSources = "cli.health_sources",
        CliHealthNeedsOne = "cli.health_needs_one",
        CliDesEventCap = "cli.des_event_cap",
        CliMinutesRequestMode = "cli.minutes_request_mode",
        CliProgressStart = "cli.progress_start",
        CliProgressStartRun = "cli.progress_start_run",
        CliProgressRuns = "cli.progress_runs",
        CliProgressMinutes = "cli.progress_minutes",
        CliHealthSourcesAlone = "cli.health_sources_alone",
        CliHealthNoEndpoints = "cli.health_no_endpoints",
        CliChoiceCountLeastRequest = "cli.choice_count_least_request",
        // The command line: a strategy over many seeds (sweep).
        CliShard = "cli.shard",
        CliSummaryWithShard = "cli.summary_with_shard",
        CliMergeAlone = "cli.merge_alone",
        CliMergeNoFiles = "cli.merge_no_files",
        CliMergeNotALine = "cli.merge_not_a_line",
        CliMergeEmpty = "cli.merge_empty",
        CliMergeMixed = "cli.merge_mixed",
        CliMergeTwice = "cli.merge_twice",
        CliMergeMissing = "cli.merge_missing",
        CliMergeOutOfRange = "cli.merge_out_of_range",
        // The postmortem draft: its title and section headings.
        PostmortemTitle = "postmortem.title",
        PostmortemHeadSummary = "postmortem.head.summary",
        PostmortemHeadImpact = "postmortem.head.impact",
        PostmortemHeadDetection = "postmortem.head.detection",
        PostmortemHeadTimeline = "postmortem.head.timeline",
        PostmortemHeadWentWell = "postmortem.head.went_well",
        PostmortemHeadWentPoorly = "postmortem.head.went_poorly",
        PostmortemHeadActionItems = "postmortem.head.action_items",
        PostmortemHeadSources = "postmortem.head.sources",
        PostmortemNothingToNote = "postmortem.nothing_to_note",
        // The postmortem's summary.
        PostmortemSummaryFault = "postmortem.summary.fault",
        PostmortemSummaryNoFault = "postmortem.summary.no_fault",
        PostmortemSummaryErrors = "postmortem.summary.errors",
        PostmortemSummaryNoErrors = "postmortem.summary.no_errors",
        PostmortemSummaryPage = "postmortem.summary.page",
        PostmortemSummaryNoPage = "postmortem.summary.no_page",
        PostmortemSummaryFirstAction = "postmortem.summary.first_action",
        PostmortemSummaryNoAction = "postmortem.summary.no_action",
        PostmortemSummaryWorst = "postmortem.summary.worst",
        // The postmortem's impact.
        PostmortemImpactBudget = "postmortem.impact.budget",
        PostmortemImpactFailed = "postmortem.impact.failed",
        PostmortemImpactShed = "postmortem.impact.shed",
        PostmortemImpactPaging = "postmortem.impact.paging",
        PostmortemImpactCost = "postmortem.impact.cost",
        PostmortemImpactP99 = "postmortem.impact.p99",
        // The postmortem's detection.
        PostmortemFaultStart = "postmortem.detection.fault_start",
        PostmortemNoFaultStart = "postmortem.detection.no_fault_start",
        PostmortemFirstSymptom = "postmortem.detection.first_symptom",
        PostmortemNoSymptom = "postmortem.detection.no_symptom",
        PostmortemPage = "postmortem.detection.page",
        PostmortemNoPage = "postmortem.detection.no_page",
        PostmortemFirstAction = "postmortem.detection.first_action",
        PostmortemNoAction = "postmortem.detection.no_action",
        PostmortemFromFault = "postmortem.detection.from_fault",
        PostmortemFromSymptom = "postmortem.detection.from_symptom",
        PostmortemTimeToDetect = "postmortem.detection.time_to_detect",
        PostmortemTimeToDetectNoPage = "postmortem.detection.time_to_detect_no_page",
        PostmortemTimeToRespond = "postmortem.detection.time_to_respond",
        PostmortemTimeToMitigate = "postmortem.detection.time_to_mitigate",
        PostmortemNotMitigated = "postmortem.detection.not_mitigated",
        PostmortemNothingToMitigate = "postmortem.detection.nothing_to_mitigate",
        // The postmortem's timeline.
        PostmortemBadDeploy = "postmortem.timeline.bad_deploy",
        PostmortemDeploy = "postmortem.timeline.deploy",
        PostmortemCacheFlush = "postmortem.timeline.cache_flush",
        PostmortemSurge = "postmortem.timeline.surge",
        PostmortemFailure = "postmortem.timeline.failure",
        PostmortemZoneOutage = "postmortem.timeline.zone_outage",
        PostmortemZoneBack = "postmortem.timeline.zone_back",
        PostmortemDatabaseFailed = "postmortem.timeline.database_failed",
        PostmortemDatabaseBack = "postmortem.timeline.database_back",
        PostmortemSlowInstance = "postmortem.timeline.slow_instance",
        PostmortemSlowInstanceBack = "postmortem.timeline.slow_instance_back",
        PostmortemHotKey = "postmortem.timeline.hot_key",
        PostmortemHotKeyBack = "postmortem.timeline.hot_key_back",
        PostmortemErrorsAbove = "postmortem.timeline.errors_above",
        PostmortemErrorsBack = "postmortem.timeline.errors_back",
        PostmortemPageFired = "postmortem.timeline.page_fired",
        PostmortemPageResolved = "postmortem.timeline.page_resolved",
        PostmortemAction = "postmortem.timeline.action",
        PostmortemActionRefused = "postmortem.timeline.action_refused",
        PostmortemRollbackStarted = "postmortem.timeline.rollback_started",
        PostmortemRollbackFinished = "postmortem.timeline.rollback_finished",
        PostmortemWarmupStarted = "postmortem.timeline.warmup_started",
        PostmortemWarmupFinished = "postmortem.timeline.warmup_finished",
        PostmortemRerouted = "postmortem.timeline.rerouted",
        PostmortemReroutedBack = "postmortem.timeline.rerouted_back",
        PostmortemRunEnded = "postmortem.timeline.run_ended",
        // What went well and poorly, against the par lines.
        PostmortemActionAt = "postmortem.lessons.action_at",
        PostmortemSavedBudget = "postmortem.lessons.saved_budget",
        PostmortemNoBudgetSpent = "postmortem.lessons.no_budget_spent",
        PostmortemBestSingleBetter = "postmortem.lessons.best_single_better",
        PostmortemBestSingleMatched = "postmortem.lessons.best_single_matched",
        PostmortemMoreCost = "postmortem.lessons.more_cost",
        PostmortemActedAfterPage = "postmortem.lessons.acted_after_page",
        PostmortemNoActionAfterPage = "postmortem.lessons.no_action_after_page",
        // Action items, from what the coach saw.
        PostmortemItemBadBuild = "postmortem.item.bad_build",
        PostmortemItemTimeouts = "postmortem.item.timeouts",
        PostmortemItemUnevenTimeouts = "postmortem.item.uneven_timeouts",
        PostmortemItemDatabase = "postmortem.item.database",
        PostmortemItemRejected = "postmortem.item.rejected",
        PostmortemItemBudgetOverspent = "postmortem.item.budget_overspent",
        PostmortemItemSpentMore = "postmortem.item.spent_more",
        PostmortemItemStaleCache = "postmortem.item.stale_cache",
        PostmortemItemPagedLong = "postmortem.item.paged_long",
        PostmortemItemNone = "postmortem.item.none",
        PostmortemSources = "postmortem.sources",
    }
}

/// The command line's commands, in the order its usage lists them: `oncall-sim COMMAND
/// --help` prints the usage lines of each (see [`command_usage`]).
pub const CLI_COMMANDS: [&str; 12] = [
    "scenarios",
    "run",
    "compare",
    "config",
    "scenario",
    "health",
    "queue",
    "par",
    "postmortem",
    "sweep",
    "lb",
    "des",
];

/// `command`'s part of a usage text (the text of [`MessageId::CliUsage`] in a language): its
/// first line ("usage:"), then each line `  oncall-sim COMMAND …` and the continuation lines
/// indented under it, the text's own words. Just the first line when the text has none.
pub fn command_usage(usage: &str, command: &str) -> String {
    let head = format!("  oncall-sim {command}");
    let mut lines = usage.lines();
    let mut out: Vec<&str> = lines.next().into_iter().collect();
    let mut inside = false;
    for line in lines {
        if line.starts_with("  oncall-sim ") {
            inside = line == head || line.starts_with(&format!("{head} "));
        } else if !line.starts_with("    ") {
            inside = false;
        }
        if inside {
            out.push(line);
        }
    }
    out.join("\n")
}
