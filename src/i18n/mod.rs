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

#[cfg(feature = "languages")]
pub mod loaded;

use oncall_sim::autoscale::PolicyId;
use oncall_sim::catalog::en as core_en;
use oncall_sim::catalog::params_en as core_params_en;
use oncall_sim::ids::ScenarioId;
use oncall_sim::message::Message as CoreMessage;

/// A language the page can speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Locale {
    /// English, compiled into every build: the command line's language and the fallback.
    #[default]
    En,
    Es,
    Zh,
    It,
    Ml,
    /// The test builds' pseudo-locale (`?lang=xx-long`): every English text 40 % longer and
    /// between markers, so that a cut or overflowing text, and a text that does not go
    /// through the catalog, show.
    #[cfg(pseudo_locale)]
    Pseudo,
}

impl Locale {
    /// Every language the page speaks, in the picker's order.
    pub const ALL: &'static [Locale] =
        &[Locale::En, Locale::Es, Locale::Zh, Locale::It, Locale::Ml];

    /// The BCP 47 tag: the document's `lang`, the link's `lang=`, the catalog's folder.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Es => "es",
            Locale::Zh => "zh",
            Locale::It => "it",
            Locale::Ml => "ml",
            #[cfg(pseudo_locale)]
            Locale::Pseudo => "xx-long",
        }
    }

    /// Between a number's whole part and its decimals (CLDR): a comma in Spanish and Italian.
    /// The first build speaks English only.
    pub const fn decimal(self) -> char {
        #[cfg(feature = "languages")]
        if matches!(self, Locale::Es | Locale::It) {
            return ',';
        }
        '.'
    }

    /// The language's name in itself, as the picker lists it (never translated).
    pub fn endonym(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::Es => "Español",
            Locale::Zh => "中文",
            Locale::It => "Italiano",
            Locale::Ml => "മലയാളം",
            #[cfg(pseudo_locale)]
            Locale::Pseudo => "xx-long",
        }
    }

    /// The locale for a BCP 47 tag such as "en-GB" or "zh-Hans-CN", if the page speaks it.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        #[cfg(pseudo_locale)]
        if tag.eq_ignore_ascii_case("xx-long") {
            return Some(Locale::Pseudo);
        }
        let primary = tag.split(['-', '_']).next().unwrap_or_default();
        Locale::ALL
            .iter()
            .copied()
            .find(|l| l.tag().eq_ignore_ascii_case(primary))
    }

    /// The page's language. The first build speaks English only (a link or a browser in
    /// another language opens the extended build, which loads the language's catalog).
    #[cfg(not(feature = "languages"))]
    pub fn page() -> Locale {
        Locale::En
    }

    /// The page's language, as [`loaded::start`] chose it.
    #[cfg(feature = "languages")]
    pub fn page() -> Locale {
        loaded::locale()
    }
}

/// Which form of a counted noun a number takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PluralCategory {
    One,
    Other,
}

/// The plural category of `n` in `locale` (CLDR's cardinal rules for whole numbers: English,
/// Spanish, Italian and Malayalam say "one" for 1; Chinese has one form).
pub fn plural_category(locale: Locale, n: u64) -> PluralCategory {
    match locale {
        Locale::Zh => PluralCategory::Other,
        _ if n == 1 => PluralCategory::One,
        _ => PluralCategory::Other,
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
    /// The language picker's label.
    LanguageLabel,
    AssumptionsNote,
    SkipToControls,
    /// The status strip's button, shown while the page fires: to the actions.
    Respond,

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
    /// The relation dialog's way to the same relation in the sources panel.
    RelationAllSources,
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
    KeyRespond,
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
    /// The start view's way to a run file: the comparison's import, opened and focused.
    StartOpenRunFile,
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
    Yes,
    No,
    /// Shown in place of a value that cannot be computed.
    NotAvailable,

    // Autoscaling policies: the picker and its parameters.
    PolicyPanelHeading,
    // The elastic scaler's configuration.
    // Two policies side by side.
    CompareHeading,
    CompareIntro,
    CompareOpen,
    PolicyOpen,
    PolicySlotIntro,
    CompareLoadFailed,
    /// Placeholders `{field}`, `{message}`.
    CompareFailed,

    // The policy panel's and the comparison's messages (their modules only: built with
    // `languages`), after the first build's and before the extended build's.
    /// After the better of two values in a comparison, for screen readers.
    CompareBetter,
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
    // The Monte Carlo debrief (the comparison's module).
    MonteCarloHeading,
    MonteCarloIntro,
    /// Placeholder `{actions}`: the actions as `MINUTE:NAME[=VALUE]`.
    MonteCarloActions,
    MonteCarloNoActions,
    MonteCarloSeedsLabel,
    MonteCarloRun,
    MonteCarloCancel,
    /// Placeholders `{done}`, `{total}`, `{workers}`.
    MonteCarloProgress,
    MonteCarloCancelled,
    /// Placeholder `{error}`.
    MonteCarloFailed,
    /// Placeholders `{runs}`, `{minutes}`, `{seconds}`, `{workers}`.
    MonteCarloDone,
    /// Placeholders `{wins}`, `{seeds}`, `{share}`, `{low}`, `{high}`.
    MonteCarloVerdict,
    /// Placeholders `{seeds}`, `{seed}`.
    MonteCarloCaption,
    MonteCarloStrategy,
    MonteCarloBeat,
    MonteCarloYours,
    MonteCarloNothing,
    MonteCarloTextbook,
    /// Placeholder `{policy}`.
    MonteCarloPolicy,
    /// Placeholders `{p50}`, `{p5}`, `{p95}`, `{at_seed}`.
    MonteCarloCell,
    /// Placeholders `{share}`, `{low}`, `{high}`.
    MonteCarloBeatCell,
    /// Placeholder `{seeds}`.
    MonteCarloChartAlt,
    MonteCarloDownload,
    MonteCarloDownloadJson,

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
    /// Placeholders `{value}` (the link's `lang=`), `{allowed}` (the tags), `{language}`.
    NoticeLanguageUnknown,
    /// Placeholders `{language}`, `{reason}`.
    NoticeLanguageUnavailable,
    // The run's export and import (the comparison's module): after the extended build's, so
    // that the first build's table of texts does not grow.
    RunFilesHeading,
    RunFilesIntro,
    RunFilesExport,
    RunFilesImportLabel,
    /// Placeholder `{minute}`.
    RunFilesPreparing,
    RunFilesImporting,
    /// Placeholders `{minute}`, `{seed}`.
    RunFilesReady,
    RunFilesRun,
    RunFilesMinutesCsv,
    RunFilesMinutesJson,
    RunFilesEvents,
    /// Placeholders `{chart}`, `{width}`, `{height}`.
    RunFilesChart,
    /// Placeholder `{error}`.
    RunFilesExportFailed,
    /// Placeholder `{error}`.
    RunFilesImportFailed,
    RunFilesUnreadable,
    /// Placeholders `{size}`, `{max}` (bytes).
    RunFilesTooLarge,
}
}

/// The English text of a message: `locales/en/console.json`, and `locales/en/extended.json`
/// in the extended build (the first build leaves the extended models' words out of its
/// download); `""` for a message the build does not show.
fn en(msg: Msg) -> &'static str {
    include!(concat!(env!("OUT_DIR"), "/console_en.rs"))
}

/// The text of `key` in `area` of the page's language's catalog, when the page speaks a
/// language other than English.
#[cfg(feature = "languages")]
fn translated(area: &str, key: &str) -> Option<&'static str> {
    loaded::lookup(area, key)
}

#[cfg(not(feature = "languages"))]
fn translated(_area: &str, _key: &str) -> Option<&'static str> {
    None
}

/// A scenario's title in the page's language.
pub fn scenario_title_text(id: ScenarioId) -> String {
    match Locale::page() {
        Locale::En => core_en::scenario_title(id),
        _ => translated("scenarios", &format!("title.{id:?}"))
            .unwrap_or_else(|| core_en::scenario_title(id)),
    }
    .to_owned()
}

/// A scenario's briefing in the page's language.
pub fn scenario_briefing_text(id: ScenarioId) -> String {
    match Locale::page() {
        Locale::En => core_en::scenario_briefing(id),
        _ => translated("scenarios", &format!("briefing.{id:?}"))
            .unwrap_or_else(|| core_en::scenario_briefing(id)),
    }
    .to_owned()
}

/// A policy's name and how it decides (placeholders unfilled) in the page's language.
fn policy_texts(id: PolicyId) -> Option<(&'static str, &'static str)> {
    let english = core_en::policy_text(id);
    match Locale::page() {
        Locale::En => english,
        _ => {
            let (name, summary) = english?;
            Some((
                translated("policies", &format!("name.{id:?}")).unwrap_or(name),
                translated("policies", &format!("summary.{id:?}")).unwrap_or(summary),
            ))
        }
    }
}

/// A policy's name in the page's language (its id where the catalog lacks it).
pub fn policy_name_text(id: PolicyId) -> String {
    policy_texts(id).map_or_else(|| id.to_string(), |(name, _)| name.to_owned())
}

/// A policy's line on how it decides, with the parameters in force, in the page's language.
pub fn policy_summary_text(
    id: PolicyId,
    model: &oncall_sim::params::ModelParams,
    policies: &oncall_sim::autoscale::PolicySettings,
) -> String {
    let summary = policy_texts(id).map_or("", |(_, summary)| summary);
    let text = core_en::fill_policy_summary(summary, model, policies);
    localize_decimals(Locale::page(), text)
}

/// A load-balancing policy's name in the page's language (its id where the catalog lacks it).
pub fn lb_name_text(id: oncall_sim::requests::Routing) -> String {
    let english = core_en::lb_text(id);
    let text = match Locale::page() {
        Locale::En => english,
        _ => translated("policies", &format!("lb.{id:?}")).or(english),
    };
    text.map_or_else(|| id.to_string(), str::to_owned)
}

/// What fired a scaling decision, in the page's language. English names a driver by its id
/// (`locales/en/policies.json` says the same, for translators).
pub fn driver_text(id: oncall_sim::ids::DriverId) -> &'static str {
    #[cfg(feature = "languages")]
    if Locale::page() != Locale::En {
        return translated("policies", &format!("driver.{id:?}")).unwrap_or(id.as_str());
    }
    id.as_str()
}

/// Rewrites the decimal points of the numbers in `text` (a digit, '.', a digit) in the
/// locale's style; other dots (an ellipsis, "e.g.") stay.
pub fn localize_decimals(locale: Locale, text: String) -> String {
    let decimal = locale.decimal();
    if decimal == '.' {
        return text;
    }
    let chars: Vec<char> = text.chars().collect();
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let between_digits = i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if c == '.' && between_digits {
                decimal
            } else {
                c
            }
        })
        .collect()
}

/// The templates of the core's messages in a language.
pub fn core_templates(locale: Locale) -> oncall_sim::catalog::Templates {
    match locale {
        Locale::En => core_en::template,
        #[cfg(feature = "languages")]
        _ => loaded::core_template,
        #[cfg(not(feature = "languages"))]
        _ => core_en::template,
    }
}

/// The texts of the core's unit codes in a language.
pub fn core_units(locale: Locale) -> oncall_sim::catalog::Units {
    match locale {
        Locale::En => core_params_en::param_unit,
        #[cfg(feature = "languages")]
        _ => loaded::unit,
        #[cfg(not(feature = "languages"))]
        _ => core_params_en::param_unit,
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
    let text = oncall_sim::catalog::render(message, core_catalog(Locale::page()));
    localize_decimals(Locale::page(), text)
}

/// [`core_text`] for the elastic scaler's configuration file's notes and errors, whose
/// templates only the policy panel's module carries (the console's own modules leave them
/// out of their download).
pub fn config_text(message: &CoreMessage) -> String {
    fn templates(id: oncall_sim::message::MessageId) -> &'static str {
        let english = match core_en::config_template(id) {
            "" => core_en::template(id),
            text => text,
        };
        match Locale::page() {
            Locale::En => english,
            _ => translated("core-config", &format!("{id:?}"))
                .unwrap_or_else(|| core_templates(Locale::page())(id)),
        }
    }
    let catalog = oncall_sim::catalog::Catalog {
        templates,
        ..core_catalog(Locale::page())
    };
    localize_decimals(
        Locale::page(),
        oncall_sim::catalog::render(message, catalog),
    )
}

/// The text of a parameter's unit, by its code, in the page's language; the code itself where
/// the catalog lacks it, and empty for no unit.
pub fn param_unit_text(code: &'static str) -> &'static str {
    core_units(Locale::page())(code).unwrap_or(code)
}

/// The text of a message in a language.
pub fn text(locale: Locale, msg: Msg) -> &'static str {
    match locale {
        Locale::En => en(msg),
        #[cfg(feature = "languages")]
        _ => loaded::console(msg).unwrap_or_else(|| en(msg)),
        #[cfg(not(feature = "languages"))]
        _ => en(msg),
    }
}

/// The text of a message in the page's language.
pub fn t(msg: Msg) -> &'static str {
    text(Locale::page(), msg)
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
    let msg = match plural_category(Locale::page(), n) {
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
        // The comparison's words are in the builds with `languages` (its module's).
        #[cfg(feature = "languages")]
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

    #[cfg(feature = "extended")]
    #[test]
    fn every_message_has_its_english_text_in_the_extended_build() {
        let missing: Vec<&Msg> = Msg::ALL.iter().filter(|m| en(**m).is_empty()).collect();
        assert!(missing.is_empty(), "no English text: {missing:?}");
    }

    /// Every key of the console's catalogs names a message the code uses: a key no code
    /// names would be an unused text every translator keeps up (the generated table makes an
    /// unknown key a compile error; this finds the ones left behind).
    #[test]
    fn every_message_is_used_by_the_code() {
        fn sources(dir: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).expect("src") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(std::fs::read_to_string(&path).expect("source"));
                }
            }
        }
        let mut texts = Vec::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut texts,
        );
        let is_word = |c: char| c.is_alphanumeric() || c == '_';
        let uses = |name: &str| -> usize {
            texts
                .iter()
                .map(|text| {
                    text.match_indices(name)
                        .filter(|(at, _)| {
                            !text[..*at].chars().next_back().is_some_and(is_word)
                                && !text[at + name.len()..].chars().next().is_some_and(is_word)
                        })
                        .count()
                })
                .sum()
        };
        // One mention is the declaration; a message in use is named at least once more.
        let unused: Vec<String> = Msg::ALL
            .iter()
            .map(|m| format!("{m:?}"))
            .filter(|name| uses(name) < 2)
            .collect();
        assert!(unused.is_empty(), "messages no code uses: {unused:?}");
    }
}
