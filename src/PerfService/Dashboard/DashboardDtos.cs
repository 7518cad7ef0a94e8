namespace PerfService.Dashboard;

public sealed record MeasureDto(string Name, string Unit, string Direction);

public sealed record ProjectSummaryDto(
    string Slug,
    string Name,
    string DefaultBranch,
    bool IsPublic,
    string? RepositoryUrl
);

public sealed record LatestRunDto(
    long RunId,
    string Profile,
    string Suite,
    string Commit,
    string? Branch,
    int? PullRequest,
    DateTimeOffset CreatedAt,
    int Results,
    int Errors
);

public sealed record FailedTargetDto(
    long RunId,
    string Profile,
    string Name,
    double? Actual,
    double? Limit,
    string? Detail
);

/// <summary>A target's state in the latest default-branch run of its suite on one profile.</summary>
public sealed record TargetStateDto(
    string Name,
    string Suite,
    string Profile,
    string Outcome,
    double? Actual,
    double? Limit,
    string? Detail,
    long RunId,
    string Commit
);

public sealed record OverviewDto(
    ProjectSummaryDto Project,
    IReadOnlyList<LatestRunDto> LatestRuns,
    int OpenAlerts,
    int AcknowledgedAlerts,
    IReadOnlyList<FailedTargetDto> FailedTargets,
    IReadOnlyList<string> Branches
)
{
    /// <summary>Every target with its state per profile, from the default branch's latest run of its suite
    /// there.</summary>
    public IReadOnlyList<TargetStateDto> Targets { get; init; } = [];
}

public sealed record BenchmarkItemDto(
    long Id,
    string Key,
    string Name,
    string Suite,
    IReadOnlyDictionary<string, string> Parameters,
    string? Job,
    IReadOnlyList<MeasureDto> Measures
);

public sealed record SeriesPointDto(
    long RunId,
    string Commit,
    DateTimeOffset SeriesAt,
    double? Value,
    double? CiLower,
    double? CiUpper,
    int SampleCount
);

public sealed record SeriesLineDto(string Profile, IReadOnlyList<SeriesPointDto> Points);

/// <summary>An alert on the series: a regression, a change point or a missed target, in the commit range after
/// <paramref name="FromCommit"/> up to <paramref name="ToCommit"/> (placed at <paramref name="At"/>, that commit's
/// time).</summary>
public sealed record SeriesMarkerDto(
    long AlertId,
    string Kind,
    string State,
    string? Profile,
    string? FromCommit,
    string? ToCommit,
    DateTimeOffset? At,
    string Summary,
    long? GroupId = null
);

public sealed record SeriesBenchmarkDto(
    long Id,
    string Key,
    string Name,
    string Suite,
    IReadOnlyDictionary<string, string> Parameters,
    string? Job
);

public sealed record SeriesDto(
    SeriesBenchmarkDto Benchmark,
    MeasureDto Measure,
    string Branch,
    IReadOnlyList<SeriesLineDto> Lines,
    IReadOnlyList<SeriesMarkerDto> Markers,
    string? Next
);

/// <summary>
/// A series with format=columns: the same data as <see cref="SeriesDto"/> in about half the bytes, one array per field,
/// what the dashboard reads. Each line's <paramref name="Commits"/> are indexes into <see
/// cref="SeriesColumnsDto.Shas"/>;
/// <paramref name="Times"/> are milliseconds since the Unix epoch (the points' <c>seriesAt</c>).
/// </summary>
public sealed record SeriesColumnsLineDto(
    string Profile,
    IReadOnlyList<long> RunIds,
    IReadOnlyList<int> Commits,
    IReadOnlyList<long> Times,
    IReadOnlyList<double?> Values,
    IReadOnlyList<double?> Lower,
    IReadOnlyList<double?> Upper,
    IReadOnlyList<int> Samples
);

/// <summary><paramref name="Shas"/>: every commit of the lines once, in order of first appearance.</summary>
public sealed record SeriesColumnsDto(
    SeriesBenchmarkDto Benchmark,
    MeasureDto Measure,
    string Branch,
    IReadOnlyList<string> Shas,
    IReadOnlyList<SeriesColumnsLineDto> Lines,
    IReadOnlyList<SeriesMarkerDto> Markers,
    string? Next
);

public sealed record CompareSideDto(string Spec, string? Commit, string Profile, IReadOnlyList<long> Runs);

public sealed record CompareRowDto(
    long BenchmarkId,
    string Benchmark,
    string Measure,
    string Unit,
    string Direction,
    double? Base,
    double? Head,
    double? ChangePercent
);

public sealed record CompareDto(CompareSideDto Base, CompareSideDto Head, IReadOnlyList<CompareRowDto> Rows);
