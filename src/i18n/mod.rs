//! The message catalog: every piece of text the page shows a person comes from here.
//!
//! Components name a [`Msg`] and never spell text themselves, so adding a language means adding
//! one table below (the product is to speak Spanish, Chinese, Italian and Malayalam as well) and
//! a variant of [`Locale`]. Messages with parameters use `{name}` placeholders, filled by
//! [`fill`]; counted nouns go through [`plural`], whose rule is the locale's.
//!
//! What the core says arrives as data: scenario and policy ids ([`scenario_title_text`],
//! [`scenario_briefing_text`], [`policy_name_text`]), messages with typed arguments
//! ([`core_text`]), relation ids and parameter names ([`param_unit_text`]; what each parameter does comes with the reference sheet, see
//! `components::reference`).
//! Their text comes from the core's catalogs for the locale ([`core_catalog`]); English is
//! the core's own English catalog, so it is written once for the page and the command line.

#[cfg(feature = "extended")]
mod extended;

use oncall_sim::autoscale::PolicyId;
use oncall_sim::catalog::en as core_en;
use oncall_sim::catalog::params_en as core_params_en;
use oncall_sim::ids::ScenarioId;
use oncall_sim::message::Message as CoreMessage;

/// A language the page can speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Locale {
    /// English, the default and, for now, the only complete catalog.
    #[default]
    En,
}

impl Locale {
    /// Every locale with a catalog.
    pub const ALL: &'static [Locale] = &[Locale::En];

    /// The BCP 47 tag, for the document's `lang` attribute.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
        }
    }

    /// The locale for a BCP 47 tag such as "en-GB", if the page speaks it.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let primary = tag.split(['-', '_']).next().unwrap_or_default();
        Locale::ALL
            .iter()
            .copied()
            .find(|l| l.tag().eq_ignore_ascii_case(primary))
    }
}

/// Which form of a counted noun a number takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PluralCategory {
    One,
    Other,
}

/// The plural category of `n` in `locale` (CLDR rules; English: 1 is "one").
pub fn plural_category(locale: Locale, n: u64) -> PluralCategory {
    match locale {
        Locale::En if n == 1 => PluralCategory::One,
        Locale::En => PluralCategory::Other,
    }
}

/// Declares the message keys and [`Msg::ALL`], the list of every key the catalog's tests walk.
macro_rules! message_keys {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident,)* }) => {
        $(#[$meta])*
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every message key, in the order declared.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
        }
    };
}

message_keys! {
/// The key of one message in the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Msg {
    AppTitle,
    AppTagline,
    AssumptionsNote,
    SkipToControls,

    // The run's set-up.
    SetupHeading,
    ScenarioLabel,
    AutoscalerLabel,
    SeedLabel,
    SeedApply,
    SeedRandom,
    /// Placeholder `{value}`: what was typed.
    SeedInvalid,
    BriefingHeading,
    /// Placeholder `{minutes}`.
    ExerciseLength,
    ExerciseEndless,
    PolicyChangeNote,

    // The status strip.
    StatusHeading,
    ClockLabel,
    MinuteLabel,
    /// Placeholders `{minute}`, `{total}`.
    MinuteOf,
    PageLabel,
    PageFiring,
    PageQuiet,
    BudgetLabel,
    /// How the budget is spent: `budget_accounting=time` (the default) or `requests`.
    BudgetByTime,
    BudgetByRequests,
    BurnLabel,
    /// Placeholders `{minute}`, `{total}`.
    Replaying,
    StopReplay,
    StopReplayHint,
    StartHint,
    ExerciseOver,
    /// Placeholders `{minute}`, `{actions}` (counted with [`Msg::ActionsOne`]).
    UndoResetNote,
    /// Placeholders `{minute}`, `{actions}`.
    UndoRestartNote,
    UndoReset,
    UndoRestart,
    ActionsOne,
    ActionsOther,

    // Time.
    TimeHeading,
    Play,
    Pause,
    Step,
    StepHint,
    Reset,
    ResetHint,
    SpeedLabel,
    /// Placeholder `{value}`: simulated minutes per second.
    SpeedOption,
    HelpButton,
    Share,
    ShareCopied,
    ShareFallback,
    ShareUrlLabel,

    // Controls.
    ControlsHeading,
    /// Placeholders `{minute}`, `{clock}`.
    ControlsPending,
    ControlsOver,
    CtlMinInstances,
    CtlMinInstancesHelp,
    CtlAutoscaling,
    /// Placeholder `{policy}`.
    CtlAutoscalingHelp,
    CtlTargetUtilization,
    CtlTargetUtilizationHelp,
    CtlCacheTtl,
    CtlCacheTtlHelp,
    CtlWarmCache,
    /// Placeholders `{minutes}`, `{gain}`, `{qps}`.
    CtlWarmCacheHelp,
    CtlShed,
    /// Placeholder `{share}`.
    CtlShedHelp,
    CtlHeavyFeature,
    CtlHeavyFeatureHelp,
    CtlRollback,
    /// Placeholder `{minutes}`.
    CtlRollbackHelp,
    On,
    Off,
    /// Placeholder `{minutes}`.
    WarmupRunning,
    /// Placeholder `{minutes}`.
    RollbackRunning,
    RollbackTo,
    RollbackNothing,
    /// Placeholder `{clock}`.
    Queued,
    Idle,

    // Metrics.
    MetricsHeading,
    MetricsCaption,
    MetricColumn,
    ValueColumn,
    LevelWarning,
    LevelCritical,
    MetricBurnRate1h,
    MetricRequests,
    MetricServing,
    MetricBooting,
    MetricUtilization,
    MetricCacheHit,
    MetricDbUtilization,
    MetricShed,
    MetricErrorRate,
    MetricTimeouts,
    MetricP99,
    MetricBudgetLeft,
    MetricFleetCost,
    MetricCostSoFar,
    MetricCacheAge,
    MetricBuild,
    MetricBuildShare,
    MetricFeatureAvailable,
    MetricPaging,

    // Charts.
    ChartsHeading,
    ChartTraffic,
    ChartLatency,
    ChartBudget,
    ChartErrors,
    ChartDay,
    ChartWindow,
    ChartWindowRun,
    ChartWindowHour,
    ChartBurn,
    ChartCache,
    ChartInstances,
    ChartCost,
    SeriesRequests,
    SeriesCapacity,
    SeriesP99,
    SeriesErrorRate,
    SeriesTimeouts,
    /// Placeholder `{value}`: the timeout in seconds.
    GuideTimeout,
    SeriesBudgetLeft,
    SeriesBurnRate1h,
    SeriesBurnRate5m,
    /// Placeholder `{value}`: the page threshold.
    GuidePage,
    SeriesCacheHit,
    SeriesDbUtilization,
    SeriesServing,
    SeriesBooting,
    SeriesFleetCost,
    SeriesCostSoFar,
    RightAxis,
    MarksLegend,
    MarkDeploy,
    MarkPage,
    MarkAction,
    /// Placeholders `{title}`, `{from}`, `{to}`, `{values}`, `{marks}`.
    ChartAlt,
    /// Placeholders `{name}`, `{value}`.
    ChartAltValue,
    ChartCrosshair,
    EngineLabel,
    EngineFormulas,
    EngineRequests,
    // The request engine's own parameters: only the extended build shows them.
    ChartCrosshairKeys,
    /// Placeholders `{deploys}`, `{pages}`, `{actions}` (counted: [`MarkedDeploysOne`] and
    /// the like).
    ChartAltMarks,
    MarkedDeploysOne,
    MarkedDeploysOther,
    MarkedPagesOne,
    MarkedPagesOther,
    MarkedActionsOne,
    MarkedActionsOther,

    // Event log.
    LogHeading,
    LogCaption,
    LogEmpty,
    /// Placeholders `{shown}`, `{total}`.
    LogTruncated,
    /// Placeholder `{action}`.
    EvAction,
    EvActionRefused,
    /// Placeholder `{value}`.
    ActMinInstances,
    ActAutoscalingOn,
    ActAutoscalingOff,
    /// Placeholder `{value}`.
    ActTargetUtilization,
    /// Placeholder `{value}`.
    ActCacheTtl,
    ActWarmCache,
    /// Placeholder `{value}`.
    ActShed,
    ActHeavyOn,
    ActHeavyOff,
    ActRollback,
    ActLb,
    ActHedgeOn,
    ActHedgeOff,
    /// Placeholder `{build}`.
    EvDeploy,
    /// Placeholder `{build}`.
    /// Placeholders `{long}`, `{short}`, `{threshold}`.
    EvPageFired,
    /// Placeholders `{long}`, `{short}`.
    EvPageResolved,
    /// Placeholders `{instances}`, `{build}`, `{clock}`.
    EvRollbackStarted,
    /// Placeholders `{instances}`, `{build}`, `{clock}`.
    EvRollbackRestarted,
    /// Placeholder `{build}`.
    EvRollbackFinished,
    /// Placeholder `{build}`.
    /// Placeholders `{instances}`, `{reason}`.
    EvInstancesStarted,
    /// Placeholder `{instances}`.
    EvInstancesServing,
    /// Placeholders `{instances}`, `{seconds}`.
    EvInstancesDraining,
    /// Placeholders `{instances}`, `{reason}`.
    EvInstancesStopped,
    EvCacheFlush,
    /// Placeholder `{minutes}`.
    EvWarmupStarted,
    EvWarmupFinished,
    EvSurgeStarted,
    /// Placeholders `{policy}`, `{driver}`, `{from}`, `{to}`, `{detail}`.
    EvScaling,
    ReasonAutoscaler,
    ReasonMinimum,
    ReasonRollback,
    ReasonDrained,
    ReasonOpening,
    ReasonZoneBack,
    KindAction,
    KindDeploy,
    KindPage,
    KindRollback,
    KindFleet,
    KindCache,
    KindTraffic,
    KindScaling,

    // Sources.
    SourcesHeading,
    SourcesIntro,
    SourcesModelGroup,
    /// Placeholder `{policy}`.
    SourcesPolicyGroup,
    SourcesInUse,
    SourcesLoading,
    /// Placeholder `{reason}`.
    SourcesUnavailable,
    SourcesRetry,
    AssumptionBadge,
    SymbolsLabel,
    NoteLabel,
    CitationsLabel,

    // Debrief.
    DebriefHeading,
    DebriefLesson,
    /// Placeholders `{minutes}`, `{scenario}`.
    DebriefIntro,
    DebriefBudgetSpent,
    DebriefBudgetLeft,
    DebriefCost,
    DebriefWorstP99,
    DebriefPaging,
    DebriefOverBudget,
    DebriefStaleness,
    DebriefInstanceMinutes,
    DebriefActions,
    DebriefNoActions,
    DebriefTimeline,
    DebriefAgain,
    ParHeading,
    ParIntro,
    ParSearching,
    ParNothing,
    ParTextbook,
    ParBest,
    ParYou,
    ParWhat,
    ParBudget,
    ParPaging,
    ParAt,
    /// Placeholder `{value}`: percentage points of the month's budget.
    UnitBudgetPoints,

    // Keyboard help.
    HelpHeading,
    HelpClose,
    HelpNote,
    KeyPlayPause,
    KeyStep,
    KeyFaster,
    KeySlower,
    KeyReset,
    KeyHelp,
    KeyClose,
    /// The name of the space bar on a key cap.
    KeyCapSpace,
    /// The name of the escape key on a key cap.
    KeyCapEscape,

    // Notices about the link.
    /// Placeholders `{param}`, `{value}`, `{allowed}`, `{fallback}`.
    NoticeInvalid,
    /// Placeholders `{value}`, `{reason}`.
    NoticeAction,
    /// Placeholders `{value}`, `{max}`.
    NoticeMinuteBeyond,
    /// Placeholders `{param}`, `{value}`, `{rule}`, `{fallback}`.
    NoticeRule,
    /// Placeholder `{text}`.
    NoticeLink,
    NoticeDismiss,
    SeedAllowed,
    /// Placeholder `{list}`.
    OneOf,
    /// Placeholder `{max}`.
    MinuteAllowed,
    SeedFallbackRandom,
    ScenarioFallback,
    AutoscalerFallback,
    /// Placeholder `{default}`.
    ParamFallback,
    EmbedOffFallback,
    StaysOnFallback,
    StartHeading,
    TabsLabel,
    TabControls,
    TabMetrics,
    TabCharts,
    TabLog,
    StartIntro,
    StartHere,
    StartExercise,
    StartFreePlay,
    PauseOnPage,
    PausedByPage,
    SpeedFallback,
    ThemeFallback,
    ListItemsLeftOut,
    OriginsAllowed,
    HostSpeedInvalid,
    HostActionInvalid,
    HostCommandUnknown,
    HostQueueFull,
    EmbedButton,
    EmbedCopied,
    EmbedFallback,
    EmbedCodeLabel,
    EmbedFrameTitle,
    OpenFullSimulator,
    MinuteFallback,
    /// Placeholder `{reason}`.
    StartFailed,

    // Units and values.
    /// Placeholder `{value}` in all unit formats.
    UnitBurn,
    UnitReqPerS,
    UnitPercent,
    UnitDollarsPerHour,
    UnitDollars,
    UnitSeconds,
    UnitMilliseconds,
    UnitMinutes,
    UnitQueriesPerS,
    Count,
    InstancesOne,
    InstancesOther,
    MinutesOne,
    MinutesOther,
    UnitRequests,
    UnitInstanceMinutes,
    DecisionsOne,
    DecisionsOther,
    /// After the better of two values in a comparison, for screen readers.
    CompareBetter,
    Yes,
    No,
    /// Shown in place of a value that cannot be computed.
    NotAvailable,

    // Autoscaling policies: the picker and its parameters.
    PolicyPanelHeading,
    PolicyPickerLabel,
    /// Placeholder `{driver}`: the driver or strategy behind the latest decision.
    PolicyActiveDriver,
    PolicyNoDriverYet,
    PolicyRestartNote,
    /// Placeholders `{policy}`, `{count}`: the number of parameters.
    PolicyParamsHeading,
    PolicyTargetTrackingNote,
    /// Placeholders `{min}`, `{max}`, `{unit}`, `{default}`.
    PolicyParamRange,
    /// Placeholders `{min}`, `{max}`, `{unit}`, `{default}`.
    PolicyParamRangeWhole,
    /// Placeholders `{field}`, `{message}`.
    PolicyParamError,
    /// Placeholder `{allowed}`: the core's rule for the field.
    PolicyNotANumber,
    PolicyReset,
    // The elastic scaler's configuration.
    ConfigHeading,
    ConfigIntro,
    ConfigTextLabel,
    ConfigUploadLabel,
    ConfigApply,
    ConfigRevert,
    /// Placeholders `{field}`, `{message}`.
    ConfigRejected,
    ConfigApplied,
    ConfigUnchanged,
    ConfigNotesHeading,
    /// Placeholders `{field}`, `{message}`.
    ConfigNote,
    ConfigDownload,
    ConfigFileUnreadable,
    /// Placeholder `{max}`: the largest size accepted, in kB.
    ConfigTooLarge,
    ConfigLinkNote,
    // Two policies side by side.
    CompareHeading,
    CompareIntro,
    CompareOpen,
    PolicyOpen,
    PolicySlotIntro,
    CompareLoadFailed,
    ComparePolicyA,
    ComparePolicyB,
    CompareSpanLabel,
    /// Placeholder `{span}` (a [`minutes`] count).
    CompareSpanSoFar,
    /// Placeholder `{minutes}`.
    CompareSpanWhole,
    /// Placeholder `{minutes}`.
    CompareSpanDay,
    CompareRun,
    CompareComputing,
    /// Placeholders `{field}`, `{message}`.
    CompareFailed,
    /// Placeholders `{span}` (a [`minutes`] count), `{scenario}`, `{seed}`.
    CompareCaption,
    CompareFigureColumn,
    CompareBudgetSpent,
    CompareCost,
    CompareWorstP99,
    ComparePaging,
    CompareOverBudget,
    CompareInstanceMinutes,
    CompareDecisions,
    ComparePeak,
    CompareFailedRequests,
    CompareChartTraffic,
    CompareChartLatency,
    CompareChartBudget,
    CompareChartInstances,
    /// Placeholders `{series}`, `{policy}`.
    CompareSeries,
    /// Placeholder `{policy}`.
    CompareSolid,
    /// Placeholder `{policy}`.
    CompareDashed,
    /// Placeholders `{title}`, `{a}`, `{b}`, `{span}` (a [`minutes`] count), `{values}`.
    CompareAlt,
    /// Placeholders `{series}`, `{a_max}`, `{b_max}`, `{a_last}`, `{b_last}`.
    CompareAltSeries,

    // The extended build's messages, last so that the first build's table of texts stays
    // dense (their texts are in extended.rs).
    /// Placeholder `{region}`: the region's code ("A").
    SeriesRegion,
    RegionsHeading,
    RegionsRegion,
    RegionsComposite,
    RegionsConsumer,
    RegionsApp,
    RegionsDatabase,
    RegionsShare,
    RegionsUsers,
    RegionsInstances,
    RegionsSourceCounts,
    RegionsRoutedHome,
    RegionsRoutedTo,
    RegionsOutOfRouting,
    RegionsApply,
    RegionsHealthyPercent,
    RegionsMinHealthy,
    RegionsDrain,
    RegionsUndrain,
    RegionsOutlier,
    RegionsFailover,
    RegionsInjectZone,
    RegionsInjectDb,
    RegionsInjectHeading,
    RegionalHeading,
    RegionalIntro,
    RegionalAsPlayed,
    RegionalFailoverOff,
    RegionalOutlierOnly,
    RegionalReplaying,
    ActZoneOutage,
    ActZoneBack,
    ActDbFailure,
    ActDbBack,
    ActRegionBadBuild,
    ActDrain,
    ActUndrain,
    ActRegionMinInstances,
    ActOutlierOn,
    ActOutlierOff,
    ActFailoverOn,
    ActFailoverOff,
    ActHealthyPercent,
    ActMinHealthy,
    ResourceInstance,
    ResourceReplica,
    ResourceConsumer,
    EvInRegion,
    EvScenarioFailure,
    DebriefTwist,
    LbLabel,
    HedgeLabel,
    HedgeDelayLabel,
    HedgeTokensLabel,
    HedgeRefillLabel,
    ServiceShapeLabel,
    ServiceExponential,
    ServiceLognormal,
    ServiceSigmaLabel,
    KeysLabel,
    ZipfLabel,
    ChoicesLabel,
    RequestsHeading,
    RequestsSummary,
    RequestsInstances,
    RequestsInstanceTitle,
    RequestsInstancesAlt,
    RequestsLatency,
    RequestsNoneServed,
    RequestsHistogramAlt,
    RequestsP50Mark,
    RequestsP99Mark,
    RequestsFormulaP99Mark,
    RequestsSideBySide,
    RequestsFormula,
    RequestsMeasured,
    /// The formula column's head while an incident's fault is in force.
    RequestsFormulaBaseline,
    RequestsBaselineP99Mark,
    /// Why the requests differ from the formula while one instance is slow.
    RequestsGapSlow,
    /// Why the requests differ from the formula while a hash policy sends a hot key to one
    /// instance.
    RequestsGapHotKey,
    RequestsPWait,
    RequestsRejected,
    RequestsHedges,
    RequestsHedgingOff,
    /// Placeholders `{ejected}` (counted: [`instances`]), `{ejections}`.
    RequestsOutlier,
    RequestsPanic,
    /// Placeholder `{instances}` (counted).
    RequestsSlowStart,
    RequestsSlowStartNone,
    RequestsHostSelectionOff,
    KindHealth,
    /// Placeholder `{reason}`: why the link's exercise was refused.
    NoticeExerciseLink,
    /// Placeholders `{line}`, `{column}`, `{reason}`.
    ExerciseErrorAt,
    /// Placeholders `{line}`, `{column}`, `{field}`, `{reason}`.
    ExerciseErrorField,
    /// Placeholder `{field}`.
    ExerciseParamRefused,
    ExerciseCustom,
    /// Placeholder `{title}`: the author's title.
    ExerciseCustomOption,
    ExerciseToolsHeading,
    ExerciseOpenFile,
    ExerciseDropHint,
    ExerciseDropHere,
    /// Placeholders `{file}`, `{reason}`.
    ExerciseFileRefused,
    /// Placeholder `{file}`.
    ExerciseFileUnreadable,
    /// Placeholders `{title}`, `{file}`.
    ExerciseOpened,
    /// Placeholder `{reason}`.
    ExerciseNoLink,
    ExerciseDownload,
    PostmortemWrite,
    PostmortemHeading,
    PostmortemCopy,
    PostmortemCopied,
    PostmortemCopyFailed,
    PostmortemDownload,
    /// Placeholder `{max}`.
    CourseTooMany,
    /// Placeholder `{max}`.
    CourseAttemptsAllowed,
    CourseHeading,
    /// Placeholders `{passed}`, `{total}`.
    CourseProgress,
    /// Placeholder `{best}`.
    CoursePassed,
    /// Placeholders `{attempts}`, `{best}`.
    CourseTried,
    CourseNotTried,
    CourseReset,
    CourseComplete,
    /// Placeholder `{title}`.
    CourseNext,
    /// Placeholder `{score}`.
    GradeScore,
    GradePassed,
    GradeNotPassed,
    /// Placeholders `{budget}`, `{paging}`, `{mitigation}`, `{cost}`: percents of each part.
    GradeParts,
    /// Placeholders `{objective}`, `{reached}`, `{bound}`.
    GradeObjectiveMet,
    /// Placeholders `{objective}`, `{reached}`, `{bound}`.
    GradeObjectiveMissed,
    /// Placeholder `{attempt}`.
    GradeAttempt,
    /// Placeholders `{attempt}`, `{left}`.
    GradeAttemptsLeft,
    GradeAttemptsUsedUp,
    AnswerHidden,
    CourseFallback,
    HintsLabel,
    HintHeading,
    /// Placeholder `{n}`: the hint's number in the exercise.
    HintDismiss,
    EditorOpen,
    EditorHeading,
    EditorIntro,
    EditorTitle,
    EditorBriefing,
    EditorLesson,
    EditorStart,
    EditorMinutes,
    EditorParams,
    EditorTimeline,
    EditorAddInject,
    EditorExpected,
    EditorAddStep,
    EditorObjectives,
    EditorObjectivesNote,
    EditorHints,
    EditorAddHint,
    EditorValid,
    EditorMoveUp,
    EditorMoveDown,
    EditorRemove,
    EditorFault,
    EditorWhen,
    EditorWhenPage,
    EditorWhenFirstErrors,
    EditorAction,
    EditorHintAt,
    EditorHintPaged,
    EditorHintBudget,
    EditorHintValue,
    EditorHintText,
    EditorPreview,
    EditorPlay,
    EditorLink,
    EditorPreviewSummary,
    EditorPreviewNoPage,
    EditorNothing,
    EditorTextbook,
    /// Placeholder `{fault}`: the fault as written in a link.
    ActInject,
    FacilitatorEnded,
    FacilitatorSays,
    FacilitatorNoPlan,
    FacilitatorPlanItem,
    FacilitatorInjectRefused,
    FacilitatorHeading,
    FacilitatorSession,
    FacilitatorTraineeLink,
    FacilitatorPlan,
    FacilitatorTrainee,
    FacilitatorWaiting,
    FacilitatorTraineeState,
    FacilitatorPaging,
    FacilitatorNotPaging,
    FacilitatorActions,
    FacilitatorFinished,
    FacilitatorReplay,
    FacilitatorInject,
    FacilitatorInjectNow,
    FacilitatorControls,
    FacilitatorPause,
    FacilitatorResume,
    FacilitatorEnd,
    FacilitatorHint,
    FacilitatorShowHint,
}
}

/// The English text of a message.
fn en(msg: Msg) -> &'static str {
    use Msg::*;
    match msg {
        AppTitle => "On-call simulator",
        AppTagline => {
            "You are on call for a web service. Keep it inside its error budget without \
             paying for idle machines."
        }
        AssumptionsNote => {
            "An educational model: its constants are example calibrations for a mid-size web \
             service, not measurements. Real sites calibrate every constant to their own tools \
             and data."
        }
        SkipToControls => "Skip to the controls",

        SetupHeading => "Run",
        ScenarioLabel => "Scenario",
        AutoscalerLabel => "Autoscaler",
        SeedLabel => "Seed",
        SeedApply => "Use seed",
        SeedRandom => "New seed",
        SeedInvalid => "“{value}” is not a seed: use a whole number from 0 to 4294967295.",
        BriefingHeading => "Briefing",
        ExerciseLength => "The exercise lasts {minutes} simulated minutes.",
        ExerciseEndless => "No time limit.",
        PolicyChangeNote => "A new scenario or seed starts a new run; a new autoscaler replays your actions under it.",

        StatusHeading => "Status",
        ClockLabel => "Time of day",
        MinuteLabel => "Minute",
        MinuteOf => "{minute} of {total}",
        PageLabel => "Page",
        PageFiring => "Paging",
        PageQuiet => "No page",
        BudgetLabel => "Budget left",
        BudgetByTime => "by time",
        BudgetByRequests => "by requests",
        BurnLabel => "Burn (1 h)",
        Replaying => "Replaying the link: minute {minute} of {total}…",
        StopReplay => "Stop here",
        StopReplayHint => "Stop the replay at this minute: the run stays paused here, its later actions still to come.",
        StartHint => "Paused. Press Play (or Space) to start the clock, or Step (→) for one minute.",
        ExerciseOver => "The exercise is over: read the debrief below.",
        UndoResetNote => "The run was reset. The one you left, at minute {minute} with {actions}, can be brought back (outside a frame, Back in the browser does it too).",
        UndoRestartNote => "A new run started. The one you left, at minute {minute} with {actions}, can be brought back (outside a frame, Back in the browser does it too).",
        UndoReset => "Undo reset",
        UndoRestart => "Back to the previous run",
        ActionsOne => "{value} action",
        ActionsOther => "{value} actions",

        TimeHeading => "Time",
        Play => "Play",
        Pause => "Pause",
        Step => "Step",
        StepHint => "Simulate one minute",
        Reset => "Reset",
        ResetHint => "Start this scenario over with the same seed; your actions are cleared (it can be undone)",
        SpeedLabel => "Speed",
        SpeedOption => "{value} min/s",
        HelpButton => "Keyboard shortcuts",
        Share => "Share link",
        ShareCopied => "Link copied. Whoever opens it sees this run at this minute.",
        ShareFallback => "Copying is not available here: select the link and copy it.",
        ShareUrlLabel => "Link to this run",

        ControlsHeading => "Controls",
        ControlsPending => "Changes take effect with the next minute played, from minute {minute} ({clock}).",
        ControlsOver => "The exercise is over; reset or pick another scenario to play again.",
        CtlMinInstances => "Minimum (floor)",
        CtlMinInstancesHelp => {
            "Floor for the fleet. Raising it starts instances at once; they serve after the \
             boot delay. 0 lets Cloud Run and the KPA scale to zero."
        }
        CtlAutoscaling => "Autoscaling",
        CtlAutoscalingHelp => "{policy} sizes the fleet. Off: exactly the minimum.",
        CtlTargetUtilization => "Target utilization",
        CtlTargetUtilizationHelp => "Lower means more headroom, and more cost.",
        CtlCacheTtl => "Cache TTL",
        CtlCacheTtlHelp => "Longer means more hits, but staler answers (mean age ≈ TTL/2).",
        CtlWarmCache => "Warm the cache",
        CtlWarmCacheHelp => {
            "Runs the warm-up job: {minutes} min, +{gain} of the cache per minute, +{qps} on \
             the database while it runs."
        }
        CtlShed => "Shed low priority",
        CtlShedHelp => {
            "Share of the low-priority traffic ({share} of all requests) rejected at the load \
             balancer with “try later”."
        }
        CtlHeavyFeature => "Heavy feature (recommendations)",
        CtlHeavyFeatureHelp => "Off is graceful degradation: less CPU and fewer queries per request.",
        CtlRollback => "Roll back",
        CtlRollbackHelp => {
            "Redeploys the last good build on a new fleet ({minutes} min, billed twice), then \
             switches traffic. Pressing again restarts the preparation."
        }
        On => "on",
        Off => "off",
        WarmupRunning => "Running: {minutes} left",
        RollbackRunning => "Preparing: {minutes} left",
        RollbackTo => "Ready: back to build {build}",
        RollbackNothing => "Nothing to roll back to",
        Queued => "Queued for {clock}",
        Idle => "Ready",

        MetricsHeading => "Metrics",
        MetricsCaption => "Values of the last simulated minute",
        MetricColumn => "Metric",
        ValueColumn => "Value",
        LevelWarning => "watch",
        LevelCritical => "critical",
        MetricBurnRate1h => "Burn rate (1 h)",
        MetricRequests => "Requests",
        MetricServing => "Serving instances",
        MetricBooting => "Booting instances",
        MetricUtilization => "Worker utilization",
        MetricCacheHit => "Cache hit rate",
        MetricDbUtilization => "Database utilization",
        MetricShed => "Shed traffic",
        MetricErrorRate => "Error rate",
        MetricTimeouts => "Timeouts",
        MetricP99 => "Latency p99",
        MetricBudgetLeft => "Error budget left",
        MetricFleetCost => "Fleet cost",
        MetricCostSoFar => "Cost so far",
        MetricCacheAge => "Mean age of cached answers",
        MetricBuild => "Live build",
        MetricBuildShare => "Instances on the live build",
        MetricFeatureAvailable => "Recommendations available",
        MetricPaging => "Paging",

        ChartsHeading => "Charts",
        ChartTraffic => "Traffic and capacity",
        ChartLatency => "Latency (p99)",
        ChartErrors => "Errors and timeouts",
        ChartDay => "day {n}",
        ChartWindow => "Show",
        ChartWindowRun => "the whole run",
        ChartWindowHour => "the last 60 minutes",
        ChartBurn => "Burn rate and the page",
        ChartBudget => "Error budget left",
        ChartCache => "Cache and database",
        ChartInstances => "Instances",
        ChartCost => "Cost",
        SeriesRequests => "Requests/s",
        SeriesCapacity => "Capacity/s",
        SeriesP99 => "Latency p99",
        SeriesErrorRate => "Error rate",
        SeriesTimeouts => "Timeouts",
        GuideTimeout => "timeout {value} s",
        SeriesBudgetLeft => "Budget left",
        SeriesBurnRate1h => "Burn rate (1 h)",
        SeriesBurnRate5m => "Burn rate (5 min)",
        GuidePage => "page at {value}×",
        SeriesCacheHit => "Cache hit rate",
        SeriesDbUtilization => "Database utilization",
        SeriesServing => "Serving",
        SeriesBooting => "Booting",
        SeriesFleetCost => "Fleet cost ($/h)",
        SeriesCostSoFar => "Cost so far ($)",
        RightAxis => "right axis",
        MarksLegend => "Marks on the time axis:",
        MarkDeploy => "deploy",
        MarkPage => "page fired",
        MarkAction => "your action",
        ChartAlt => "{title}, {from} to {to}. At {to}: {values}. {marks}",
        ChartAltValue => "{name} {value}",
        EngineLabel => "Engine",
        EngineFormulas => "Formulas",
        EngineRequests => "Requests",
        ChartCrosshair => "{clock}: {values}",
        ChartCrosshairKeys => "Left and right arrows move a crosshair across all charts, a minute at a time (ten with Shift); Home and End go to the ends; Escape hides it.",
        ChartAltMarks => "Marked: {deploys}, {pages}, {actions}.",
        MarkedDeploysOne => "{value} deploy",
        MarkedDeploysOther => "{value} deploys",
        MarkedPagesOne => "{value} page",
        MarkedPagesOther => "{value} pages",
        MarkedActionsOne => "{value} of your actions",
        MarkedActionsOther => "{value} of your actions",

        LogHeading => "Event log",
        LogCaption => "Newest first",
        LogEmpty => "Nothing has happened yet.",
        LogTruncated => "Showing the latest {shown} of {total} events.",
        EvAction => "You: {action}.",
        EvActionRefused => "Not applied, {action}: {reason}.",
        ActMinInstances => "minimum instances → {value}",
        ActAutoscalingOn => "autoscaling on",
        ActAutoscalingOff => "autoscaling off",
        ActTargetUtilization => "target utilization → {value}",
        ActCacheTtl => "cache TTL → {value}",
        ActWarmCache => "warm the cache",
        ActShed => "shed low priority → {value}",
        ActHeavyOn => "heavy feature on",
        ActHeavyOff => "heavy feature off",
        ActRollback => "roll back",
        ActLb => "load balancing: {policy}",
        ActHedgeOn => "hedging on",
        ActHedgeOff => "hedging off",
        EvDeploy => "Deploy: build {build} is rolling out.",
        EvPageFired => {
            "Page fired: burn rate {long} over 1 h and {short} over 5 min (threshold {threshold})."
        }
        EvPageResolved => "Page resolved: burn rate {long} over 1 h, {short} over 5 min.",
        EvRollbackStarted => {
            "Rollback started: {instances} of build {build} preparing, traffic switches at {clock}."
        }
        EvRollbackRestarted => {
            "Rollback restarted: {instances} of build {build} preparing, traffic switches at {clock}."
        }
        EvRollbackFinished => "Rollback finished: traffic is on build {build}.",
        EvInstancesStarted => "{instances} started ({reason}).",
        EvInstancesServing => "{instances} now serving.",
        EvInstancesDraining => "{instances} draining (about {seconds}).",
        EvInstancesStopped => "{instances} stopped ({reason}).",
        EvCacheFlush => "{share} of the cache was flushed.",
        EvWarmupStarted => "Warm-up job started ({minutes}).",
        EvWarmupFinished => "Warm-up job finished.",
        EvSurgeStarted => "A traffic surge is starting.",
        EvScaling => "{policy}, {driver}: {from} → {to}. {detail}",
        ReasonAutoscaler => "autoscaler",
        ReasonMinimum => "minimum instances",
        ReasonRollback => "rollback",
        ReasonDrained => "drained",
        ReasonOpening => "opening fleet",
        ReasonZoneBack => "zone back",
        KindAction => "action",
        KindDeploy => "deploy",
        KindPage => "page",
        KindRollback => "rollback",
        KindFleet => "fleet",
        KindCache => "cache",
        KindTraffic => "traffic",
        KindScaling => "scaling",

        SourcesHeading => "Sources",
        SourcesIntro => {
            "Every relation the simulation computes, as the code states it, with what each \
             symbol means and where it comes from. Relations marked “assumption” are this \
             model's choices or example calibrations, not laws."
        }
        SourcesModelGroup => "The minute model",
        SourcesPolicyGroup => "Autoscaler: {policy}",
        SourcesInUse => "in use",
        SourcesLoading => "Loading the formulas and their sources…",
        SourcesUnavailable => {
            "The formulas could not be loaded ({reason}). The simulation is not affected."
        }
        SourcesRetry => "Try again",
        AssumptionBadge => "assumption",
        SymbolsLabel => "Symbols",
        NoteLabel => "Note",
        CitationsLabel => "Sources",

        DebriefLesson => "The lesson:",
        DebriefHeading => "Debrief",
        DebriefIntro => "{scenario} is over after {minutes} simulated minutes. How it went:",
        DebriefBudgetSpent => "Error budget spent",
        DebriefBudgetLeft => "Error budget left",
        DebriefCost => "Fleet cost",
        DebriefWorstP99 => "Worst p99 latency",
        DebriefPaging => "Minutes paging",
        DebriefOverBudget => "Minutes burning faster than 1×",
        DebriefStaleness => "Mean age of cached answers",
        DebriefInstanceMinutes => "Instance-minutes billed",
        DebriefActions => "Your actions",
        DebriefNoActions => "You took no action.",
        DebriefTimeline => "Timeline: minutes paging and your actions",
        DebriefAgain => "Run it again",
        ParHeading => "Par",
        ParIntro => "The same scenario and seed, replayed: your result beside doing nothing, the textbook response and the best single action.",
        ParSearching => "Replaying the same seed to find par…",
        ParNothing => "Doing nothing",
        ParTextbook => "Textbook response",
        ParBest => "Best single action",
        ParYou => "You",
        ParWhat => "Run",
        ParBudget => "Budget spent",
        ParPaging => "Paging",
        ParAt => "{action} at {clock}",
        UnitBudgetPoints => "{value} % of the month's budget",

        HelpHeading => "Keyboard shortcuts",
        HelpClose => "Close",
        HelpNote => {
            "Shortcuts do nothing while a text field or list has the keyboard focus; on a slider the \
             arrows move it and Space still plays or pauses."
        }
        KeyPlayPause => "Play or pause",
        KeyStep => "Step one minute (paused)",
        KeyFaster => "Faster",
        KeySlower => "Slower",
        KeyReset => "Reset the run",
        KeyHelp => "Show or hide this help",
        KeyClose => "Close this help",
        KeyCapSpace => "Space",
        KeyCapEscape => "Esc",

        NoticeInvalid => "Link parameter “{param}”: “{value}” is not valid. Allowed: {allowed}. {fallback}",
        NoticeAction => {
            "Link parameter “actions”: the entry “{value}” was left out ({reason}). The other \
             actions are kept."
        }
        NoticeMinuteBeyond => {
            "Link parameter “t”: “{value}” is past the end of this exercise; the run stops at \
             its last minute ({max})."
        }
        NoticeRule => "Link parameter “{param}”: “{value}” does not fit the other settings: it {rule}. {fallback}",
        NoticeLink => "Link: {text}.",
        NoticeDismiss => "Dismiss",
        SeedAllowed => "a whole number from 0 to 4294967295",
        OneOf => "one of {list}",
        MinuteAllowed => "a whole number of minutes from 0 to {max}",
        SeedFallbackRandom => "A random seed is used instead.",
        ScenarioFallback => "Free play is used instead.",
        AutoscalerFallback => "Target tracking is used instead.",
        ParamFallback => "The default, {default}, is used instead.",
        EmbedOffFallback => "It stays off.",
        StaysOnFallback => "It stays on.",
        StartHeading => "Choose an exercise",
        TabsLabel => "Parts of the console",
        TabControls => "Controls",
        TabMetrics => "Metrics",
        TabCharts => "Charts",
        TabLog => "Log",
        StartIntro => {
            "Each exercise is an incident on the same web service, replayed the same way from its \
             link. Doing well means answering the page fast, keeping the month's error budget, and \
             not paying for machines the traffic does not need. The clock waits for you: it starts \
             when you press Play and stops when the page fires."
        }
        StartHere => "Start here",
        StartExercise => "Start this exercise",
        StartFreePlay => "Free play: a normal day, no incident, no time limit",
        PauseOnPage => "Pause when paged",
        PausedByPage => "The page fired at {clock}: the clock stopped so that you can act. Press Play to go on.",
        SpeedFallback => "The clock starts at 1 minute per second.",
        ThemeFallback => "The page follows the system's light or dark setting.",
        ListItemsLeftOut => "Those entries are left out; the others are kept.",
        OriginsAllowed => "origins written as https://host or https://host:port, separated by commas",
        HostSpeedInvalid => "Command “speed”: the value must be one of {list} (minutes per second).",
        HostActionInvalid => "Command “act”: “{value}” is not an action ({reason}).",
        HostCommandUnknown => "Command “{value}” is not known. Known commands: {list}.",
        HostQueueFull => "Command refused: {count} commands are already waiting for the console; send more once it has caught up.",
        EmbedButton => "Embed",
        EmbedCopied => "Embed code copied: paste it into a lesson page to show this run in a frame.",
        EmbedFallback => "Copy this code into a lesson page:",
        EmbedCodeLabel => "Code to embed this run",
        EmbedFrameTitle => "On-call simulator",
        OpenFullSimulator => "Open the full simulator",
        MinuteFallback => "The run starts at its first minute.",
        StartFailed => "The run could not start: {reason}",

        UnitBurn => "{value}×",
        UnitReqPerS => "{value} req/s",
        UnitPercent => "{value} %",
        UnitDollarsPerHour => "{value} $/h",
        UnitDollars => "{value} $",
        UnitSeconds => "{value} s",
        UnitMilliseconds => "{value} ms",
        UnitMinutes => "{value} min",
        UnitQueriesPerS => "{value} queries/s",
        Count => "{value}",
        InstancesOne => "{value} instance",
        InstancesOther => "{value} instances",
        MinutesOne => "{value} minute",
        MinutesOther => "{value} minutes",
        UnitRequests => "{value} requests",
        UnitInstanceMinutes => "{value} instance-min",
        DecisionsOne => "{value} decision",
        DecisionsOther => "{value} decisions",
        CompareBetter => " (better)",
        Yes => "yes",
        No => "no",
        NotAvailable => "—",

        PolicyPanelHeading => "Autoscaling policy",
        PolicyPickerLabel => "Policy",
        PolicyActiveDriver => "Active driver: {driver}",
        PolicyNoDriverYet => "none yet (no decision so far)",
        PolicyRestartNote => "Changing the policy or one of its parameters starts the run again from its first minute, with the same scenario and seed; the link records the change.",
        PolicyParamsHeading => "Parameters of {policy} ({count})",
        PolicyTargetTrackingNote => "The target utilization is one of the controls; its scale-in settings are here.",
        PolicyParamRange => "{min} to {max}{unit}; default {default}",
        PolicyParamRangeWhole => "{min} to {max}{unit}, whole numbers; default {default}",
        PolicyParamError => "{field}: {message}. Nothing was changed.",
        PolicyNotANumber => "not a number; {allowed}",
        PolicyReset => "Reset to defaults",
        ConfigHeading => "Configuration file of the elastic scaler",
        ConfigIntro => "Paste the scaler's JSON configuration or upload the file (// comments and trailing commas are allowed), then apply it. Nothing changes until the whole file is valid; cloud-specific fields are accepted and ignored.",
        ConfigTextLabel => "Configuration (JSON)",
        ConfigUploadLabel => "Upload a configuration file",
        ConfigApply => "Apply",
        ConfigRevert => "Show the configuration in use (to copy or edit)",
        ConfigRejected => "Rejected, nothing was changed. {field}: {message}",
        ConfigApplied => "Applied: the run starts again with this configuration.",
        ConfigUnchanged => "Valid, and the same as the configuration in use; nothing was changed.",
        ConfigNotesHeading => "Notes on the configuration",
        ConfigNote => "{field}: {message}",
        ConfigDownload => "Download elastic-config.json",
        ConfigFileUnreadable => "The file could not be read as text; nothing was changed.",
        ConfigTooLarge => "The file is larger than {max} kB and was not read; nothing was changed.",
        ConfigLinkNote => "The link keeps the numeric settings, the active strategies and lb_policy (as lb); the ignored fields last until the page is reloaded.",
        CompareHeading => "Compare two policies",
        CompareOpen => "Open the comparison",
        PolicyOpen => "Open the policy's settings",
        PolicySlotIntro => "The autoscaler's parameters, the driver behind its latest decision, and the elastic scaler's configuration file.",
        CompareLoadFailed => "This part of the page could not be loaded. Reload the page to try again.",
        CompareIntro => "Runs the current scenario with the same seed, parameters and actions under two policies and draws both runs on the same charts.",
        ComparePolicyA => "Policy A (solid lines)",
        ComparePolicyB => "Policy B (dashed lines)",
        CompareSpanLabel => "Length",
        CompareSpanSoFar => "the {span} played so far",
        CompareSpanWhole => "the whole exercise ({minutes} minutes)",
        CompareSpanDay => "a whole day ({minutes} minutes)",
        CompareRun => "Compare",
        CompareComputing => "Computing both runs…",
        CompareFailed => "The comparison could not run. {field}: {message}",
        CompareCaption => "Both runs over {span} of {scenario}, seed {seed}",
        CompareFigureColumn => "Figure",
        CompareBudgetSpent => "Error budget spent (share of the month's)",
        CompareCost => "Fleet cost",
        CompareWorstP99 => "Worst p99 latency",
        ComparePaging => "Minutes paging",
        CompareOverBudget => "Minutes above the rate the budget allows",
        CompareInstanceMinutes => "Instance-minutes",
        CompareDecisions => "Scaling decisions",
        ComparePeak => "Most instances at once",
        CompareFailedRequests => "Failed requests",
        CompareChartTraffic => "Traffic and capacity",
        CompareChartLatency => "p99 latency and error rate",
        CompareChartBudget => "Error budget and burn rate",
        CompareChartInstances => "Serving instances",
        CompareSeries => "{series}, {policy}",
        CompareSolid => "solid: {policy}",
        CompareDashed => "dashed: {policy}",
        CompareAlt => "{title}: {a} (solid) and {b} (dashed) over {span}. {values}.",
        CompareAltSeries => "{series}: highest {a_max} and {b_max}, last {a_last} and {b_last}",
        // The request engine's and the regions' words: in the extended build only.
        _ => extended_en(msg),
    }
}

/// The request engine's and the regions' messages are in the extended build's catalog only.
#[cfg(feature = "extended")]
use extended::en as extended_en;

/// The first build shows none of the extended build's messages.
#[cfg(not(feature = "extended"))]
fn extended_en(_: Msg) -> &'static str {
    ""
}

/// A scenario's title in the page's language.
pub fn scenario_title_text(id: ScenarioId) -> String {
    match Locale::default() {
        Locale::En => core_en::scenario_title(id).to_owned(),
    }
}

/// A scenario's briefing in the page's language.
pub fn scenario_briefing_text(id: ScenarioId) -> String {
    match Locale::default() {
        Locale::En => core_en::scenario_briefing(id).to_owned(),
    }
}

/// A policy's name in the page's language (its id where the catalog lacks it).
pub fn policy_name_text(id: PolicyId) -> String {
    match Locale::default() {
        Locale::En => {
            core_en::policy_text(id).map_or_else(|| id.to_string(), |(name, _)| name.to_owned())
        }
    }
}

/// A load-balancing policy's name in the page's language (its id where the catalog lacks it).
pub fn lb_name_text(id: oncall_sim::requests::Routing) -> String {
    match Locale::default() {
        Locale::En => core_en::lb_text(id).map_or_else(|| id.to_string(), str::to_owned),
    }
}

/// The templates of the core's messages in a language.
pub fn core_templates(locale: Locale) -> oncall_sim::catalog::Templates {
    match locale {
        Locale::En => core_en::template,
    }
}

/// The texts of the core's unit codes in a language.
pub fn core_units(locale: Locale) -> oncall_sim::catalog::Units {
    match locale {
        Locale::En => core_params_en::param_unit,
    }
}

/// What renders the core's messages in a language: its templates and its units.
pub fn core_catalog(locale: Locale) -> oncall_sim::catalog::Catalog {
    oncall_sim::catalog::Catalog {
        templates: core_templates(locale),
        units: core_units(locale),
    }
}

/// A message of the core (a decision, a notice, an error) in the page's language.
pub fn core_text(message: &CoreMessage) -> String {
    oncall_sim::catalog::render(message, core_catalog(Locale::default()))
}

/// [`core_text`] for the elastic scaler's configuration file's notes and errors, whose
/// templates only the policy panel's module carries (the console's own modules leave them
/// out of their download).
pub fn config_text(message: &CoreMessage) -> String {
    fn templates(id: oncall_sim::message::MessageId) -> &'static str {
        match core_en::config_template(id) {
            "" => core_en::template(id),
            text => text,
        }
    }
    let catalog = oncall_sim::catalog::Catalog {
        templates,
        ..core_catalog(Locale::default())
    };
    oncall_sim::catalog::render(message, catalog)
}

/// The text of a parameter's unit, by its code, in the page's language; the code itself where
/// the catalog lacks it, and empty for no unit.
pub fn param_unit_text(code: &'static str) -> &'static str {
    core_units(Locale::default())(code).unwrap_or(code)
}

/// The text of a message in a language.
pub fn text(locale: Locale, msg: Msg) -> &'static str {
    match locale {
        Locale::En => en(msg),
    }
}

/// The text of a message in the page's language.
pub fn t(msg: Msg) -> &'static str {
    text(Locale::default(), msg)
}

/// Replaces each `{name}` placeholder in `template` with its value. Unknown placeholders stay as
/// they are, so a missing argument shows up on screen instead of silently vanishing.
///
/// One pass from left to right: a value that itself contains `{…}` is not expanded again.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    oncall_sim::catalog::substitute(&mut out, template, |out, name| {
        match args.iter().find(|(n, _)| *n == name) {
            Some((_, value)) => {
                out.push_str(value);
                true
            }
            None => false,
        }
    });
    out
}

/// A message with its placeholders filled, in the page's language.
pub fn tf(msg: Msg, args: &[(&str, &str)]) -> String {
    fill(t(msg), args)
}

/// A counted noun ("1 instance", "3 instances") in the page's language.
pub fn plural(n: u64, one: Msg, other: Msg) -> String {
    let msg = match plural_category(Locale::default(), n) {
        PluralCategory::One => one,
        PluralCategory::Other => other,
    };
    tf(msg, &[("value", &n.to_string())])
}

/// "3 instances".
pub fn instances(n: u32) -> String {
    plural(u64::from(n), Msg::InstancesOne, Msg::InstancesOther)
}

/// "1 minute", "30 minutes".
pub fn minutes(n: u32) -> String {
    plural(u64::from(n), Msg::MinutesOne, Msg::MinutesOther)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_every_named_placeholder() {
        assert_eq!(
            fill("{a} and {b}, {a}", &[("a", "x"), ("b", "y")]),
            "x and y, x"
        );
    }

    #[test]
    fn fill_keeps_unknown_placeholders_visible() {
        assert_eq!(fill("{value} s", &[]), "{value} s");
        assert_eq!(fill("open { brace", &[]), "open { brace");
    }

    #[test]
    fn fill_does_not_expand_placeholders_inside_values() {
        // A link's value may contain "{allowed}"; it must be shown as typed.
        assert_eq!(
            fill(
                "{value}: {allowed}",
                &[("value", "{allowed}"), ("allowed", "x")]
            ),
            "{allowed}: x"
        );
    }

    #[test]
    fn invalid_seed_notice_names_the_parameter_and_the_range() {
        let notice = tf(
            Msg::NoticeInvalid,
            &[
                ("param", "seed"),
                ("value", "abc"),
                ("allowed", t(Msg::SeedAllowed)),
                ("fallback", t(Msg::SeedFallbackRandom)),
            ],
        );
        assert!(notice.contains("“seed”"));
        assert!(notice.contains("“abc”"));
        assert!(notice.contains("0 to 4294967295"));
        assert!(!notice.contains('{'));
    }

    #[test]
    fn english_units_carry_a_value_placeholder() {
        for msg in [
            Msg::UnitBurn,
            Msg::UnitReqPerS,
            Msg::UnitPercent,
            Msg::UnitDollarsPerHour,
            Msg::UnitDollars,
            Msg::UnitSeconds,
            Msg::UnitMilliseconds,
            Msg::UnitMinutes,
            Msg::UnitQueriesPerS,
            Msg::Count,
            Msg::InstancesOne,
            Msg::InstancesOther,
            Msg::MinutesOne,
            Msg::MinutesOther,
            Msg::UnitRequests,
            Msg::UnitInstanceMinutes,
            Msg::DecisionsOne,
            Msg::DecisionsOther,
        ] {
            assert!(t(msg).contains("{value}"), "{msg:?}");
        }
    }

    #[test]
    fn counted_minutes_and_instances_agree_with_their_count() {
        assert_eq!(minutes(1), "1 minute");
        assert_eq!(minutes(0), "0 minutes");
        assert_eq!(minutes(30), "30 minutes");
        assert_eq!(instances(1), "1 instance");
        assert_eq!(instances(2), "2 instances");
        assert_eq!(
            tf(Msg::CompareSpanSoFar, &[("span", &minutes(1))]),
            "the 1 minute played so far"
        );
    }

    #[test]
    fn every_scenario_and_policy_of_the_core_has_catalog_text() {
        for id in ScenarioId::ALL {
            assert!(!scenario_title_text(*id).is_empty(), "{id}");
            assert!(!scenario_briefing_text(*id).is_empty(), "{id}");
        }
        for id in PolicyId::ALL {
            assert_ne!(policy_name_text(*id), id.as_str(), "no name for {id}");
        }
    }

    /// Every message the core can send renders through the console's catalog in every
    /// language, with every placeholder of the English template filled.
    #[test]
    fn every_core_message_renders_through_the_console_catalog() {
        use oncall_sim::catalog::placeholders;
        use oncall_sim::message::{Message, MessageId};
        for locale in Locale::ALL {
            let templates = core_templates(*locale);
            for id in MessageId::ALL {
                let english = core_en::template(*id);
                let mut message = Message::new(*id);
                for name in placeholders(english) {
                    message = message.given(name, format!("<{name}>"));
                }
                let text = oncall_sim::catalog::render(&message, core_catalog(*locale));
                assert!(!text.trim().is_empty(), "{id}");
                for name in placeholders(templates(*id)) {
                    // Literal braces (a JSON object "{ … }") are not placeholders.
                    if name.trim_start().starts_with('…') {
                        continue;
                    }
                    assert!(text.contains(&format!("<{name}>")), "{id}: {text}");
                }
            }
        }
    }

    /// Every parameter's unit renders through the console's catalog, in the page's
    /// language.
    #[test]
    fn every_parameter_unit_renders_through_the_console_catalog() {
        use oncall_sim::autoscale::PolicySettings;
        use oncall_sim::ModelParams;
        for spec in ModelParams::SPECS.iter().chain(PolicySettings::all_specs()) {
            if !spec.unit.is_empty() {
                for locale in Locale::ALL {
                    let unit = core_units(*locale)(spec.unit);
                    assert!(
                        unit.is_some_and(|u| !u.trim().is_empty()),
                        "{}: no text for unit {:?} in {}",
                        spec.name,
                        spec.unit,
                        locale.tag()
                    );
                }
                assert_eq!(
                    Some(param_unit_text(spec.unit)),
                    core_params_en::param_unit(spec.unit),
                    "{}",
                    spec.name
                );
            }
        }
        assert_eq!(param_unit_text("share_of_cache"), "of the cache");
        assert_eq!(param_unit_text(""), "");
    }

    #[test]
    fn counted_nouns_agree_with_the_number() {
        assert_eq!(instances(1), "1 instance");
        assert_eq!(instances(0), "0 instances");
        assert_eq!(instances(12), "12 instances");
    }

    #[test]
    fn locales_are_found_by_their_tag() {
        assert_eq!(Locale::from_tag("en-GB"), Some(Locale::En));
        assert_eq!(Locale::from_tag("EN"), Some(Locale::En));
        assert_eq!(Locale::from_tag("xx"), None);
    }
}
