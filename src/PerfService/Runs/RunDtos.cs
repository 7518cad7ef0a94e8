namespace PerfService.Runs;

public sealed record RunDto(
    long Id,
    string Project,
    string Commit,
    string? Branch,
    int? PullRequest,
    string? BaseCommit,
    string Profile,
    string? Agent,
    long? JobId,
    string Suite,
    string Role,
    int Round,
    string Format,
    bool ProfileMismatch,
    string? EnvironmentFingerprint,
    DateTimeOffset CreatedAt
)
{
    /// <summary>What the agent measured around the round; null when it measured nothing.</summary>
    public Core.Contracts.Disturbance? Disturbance { get; init; }

    /// <summary>What disturbed it, in words ("other processes used 85% of a core"); null when nothing did.</summary>
    public string? DisturbedBy { get; init; }

    /// <summary>Left out of change points and history baselines as disturbed.</summary>
    public bool LeftOutAsDisturbed { get; init; }
}

public sealed record ResultDto(
    string Benchmark,
    string Name,
    string Parameters,
    string? Job,
    string Measure,
    string Unit,
    string Direction,
    double? Value,
    double? Median,
    double? StdDev,
    double? CiLower,
    double? CiUpper,
    int SampleCount,
    double[]? Samples,
    string? Error
);

public sealed record RunDetailDto(RunDto Run, IReadOnlyList<ResultDto> Results, IReadOnlyList<string> Artifacts);

public sealed record RunRowDto(
    long Id,
    string Commit,
    string? Branch,
    int? PullRequest,
    string Profile,
    string Suite,
    string Role,
    int Round,
    long? JobId,
    DateTimeOffset CreatedAt,
    int Results,
    int Errors
);

/// <summary><paramref name="Change"/> is relative (0.1 = 10 % more than base), with its confidence interval;
/// <paramref name="Threshold"/> what a regression had to clear, <paramref name="NoChangeMargin"/> what the interval had
/// to lie within for no change.</summary>
public sealed record VerdictDto(
    long BenchmarkId,
    string Benchmark,
    string Measure,
    string Unit,
    string Direction,
    string Profile,
    string Outcome,
    double? BaseMedian,
    double? HeadMedian,
    double? Change,
    double? ChangeCiLower,
    double? ChangeCiUpper,
    double? PValue,
    double? AdjustedPValue,
    double Threshold,
    double NoChangeMargin,
    int BaseSamples,
    int HeadSamples,
    string? Reason
);

public sealed record TargetResultDto(
    long Id,
    string Name,
    string Outcome,
    double? Actual,
    double? Limit,
    string? Detail
);

/// <summary>A parked run put back in the analysis queue.</summary>
public sealed record AnalysisRetried(long RunId, string Analysis);
