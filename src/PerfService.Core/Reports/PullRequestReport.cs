using PerfService.Core.Comparison;
using PerfService.Core.Targets;

namespace PerfService.Core.Reports;

/// <summary>
/// Everything a pull request's comment, check and dashboard page show, assembled by the service from stored verdicts
/// and target outcomes. Pure data: renderers turn it into markdown or HTML.
/// </summary>
public sealed partial record PullRequestReport
{
    public required string Project { get; init; }
    public required int PullRequest { get; init; }
    public required string HeadCommit { get; init; }
    public string? BaseCommit { get; init; }

    /// <summary>Absolute link to the pull request's page in the dashboard, when the service knows its public
    /// URL.</summary>
    public string? DashboardUrl { get; init; }

    /// <summary>Profiles whose jobs have not finished: the report is partial while this is not empty.</summary>
    public IReadOnlyList<string> PendingProfiles { get; init; } = [];

    /// <summary>Set while the head's jobs wait for a maintainer's approval (an outside contributor's pull request):
    /// the label that approves it.</summary>
    public string? AwaitingApprovalLabel { get; init; }

    /// <summary>The branch the rows' <see cref="ReportRow.History"/> comes from (the project's default
    /// branch).</summary>
    public string? HistoryBranch { get; init; }
    public IReadOnlyList<ReportRow> Rows { get; init; } = [];
    public IReadOnlyList<ReportTarget> Targets { get; init; } = [];

    /// <summary>Profiles whose rounds were disturbed (other processes, steal, throttling), and what was done about
    /// it.</summary>
    public IReadOnlyList<ReportDisturbance> Disturbances { get; init; } = [];

    /// <summary>True when no agent measures this pull request and every result was posted by a CI job itself
    /// (<c>perf submit --pr</c>): its verdict goes under the submitted status context, apart from the
    /// agents'.</summary>
    public bool FromSubmissions { get; init; }

    /// <summary>Results a CI job posted for this pull request beside the agents' (null when none): shown in a section
    /// and
    /// a status context of their own, never counted in the agents' verdict.</summary>
    public PullRequestReport? Submitted { get; init; }
}

/// <summary>One benchmark × measure × profile comparison of head against base.</summary>
public sealed record ReportRow
{
    /// <summary>The benchmark's key: name with parameters and job.</summary>
    public required string Benchmark { get; init; }
    public required string Measure { get; init; }
    public required string Unit { get; init; }
    public required string Profile { get; init; }
    public Outcome Outcome { get; init; }
    public double? BaseValue { get; init; }
    public double? HeadValue { get; init; }

    /// <summary>Relative change of head against base, e.g. 0.12 for +12%.</summary>
    public double? Change { get; init; }
    public double? ChangeCiLower { get; init; }
    public double? ChangeCiUpper { get; init; }
    public double? PValue { get; init; }

    /// <summary>The margin the interval had to lie within for "no change" (the project's threshold, 0.05 =
    /// 5%).</summary>
    public double? NoChangeMargin { get; init; }

    /// <summary>The threshold a regression or improvement had to clear (the margin, or twice the series'
    /// noise).</summary>
    public double? Threshold { get; init; }

    /// <summary>Why the outcome (e.g. "below the 5% threshold", "bimodal samples").</summary>
    public string? Reason { get; init; }

    /// <summary>True when a person acknowledged the regression: it no longer fails the check.</summary>
    public bool Acknowledged { get; init; }

    /// <summary>True when base came from the base branch's recent runs, not from base rounds interleaved with
    /// head.</summary>
    public bool BaselineFromHistory { get; init; }

    /// <summary>Absolute link to the explorer on this benchmark, measure and profile with base and head marked; null
    /// when the service does not know its public URL.</summary>
    public string? ExplorerUrl { get; init; }

    /// <summary>The same link relative to the dashboard's root, for the dashboard's own pages.</summary>
    public string? ExplorerPath { get; init; }

    /// <summary>Absolute link to the differential flame graph of this benchmark on this profile (head against base),
    /// once a
    /// profiling job has recorded one; null before, or without the public URL.</summary>
    public string? ProfileUrl { get; init; }

    /// <summary>The same link relative to the dashboard's root.</summary>
    public string? ProfilePath { get; init; }

    /// <summary>The alert group the regression's alert belongs to (its triage happens there), when it has
    /// one.</summary>
    public long? AlertGroupId { get; init; }

    /// <summary>Absolute link to that group on the dashboard's alerts page; null without the public URL.</summary>
    public string? AlertGroupUrl { get; init; }

    /// <summary>Recent points of this series on the default branch, oldest first. Filled for regressions only, and
    /// bounded (the builder keeps the last few dozen), so a report with thousands of rows stays small.</summary>
    public IReadOnlyList<HistoryPoint> History { get; init; } = [];

    /// <summary>Each round's value on the base and head side (the runs the verdict came from), for the PR
    /// page.</summary>
    public IReadOnlyList<double> BaseRounds { get; init; } = [];
    public IReadOnlyList<double> HeadRounds { get; init; } = [];
}

/// <summary>One run's value of a series on the default branch.</summary>
public sealed record HistoryPoint(string Commit, DateTimeOffset At, double Value);

/// <summary><see cref="AtRisk"/>: the interval of the value straddles the limit; shown, never failing the
/// status.</summary>
public sealed record ReportTarget
{
    public required string Name { get; init; }
    public required string Profile { get; init; }
    public TargetStatus State { get; init; }

    /// <summary>The figures, e.g. "62.1 ns against < 50 ns".</summary>
    public string? Detail { get; init; }
    public bool Acknowledged { get; init; }
}

/// <summary>What a profile's rounds met: "1 round left out as disturbed (other processes used 85% of a
/// core)".</summary>
public sealed record ReportDisturbance(string Profile, string Said);
