namespace PerfService.Alerts;

/// <param name="FoundAfter">A change-point alert: how many points of its series came after the change's first point
/// before the alert was raised (commits, where every commit of the branch ran); null for other kinds.</param>
public sealed record AlertDto(
    long Id,
    string Project,
    string Kind,
    string State,
    long? BenchmarkId,
    string? Benchmark,
    string? Measure,
    string? Profile,
    long? RunId,
    string? FromCommit,
    string? ToCommit,
    string Summary,
    string? IssueUrl,
    DateTimeOffset CreatedAt,
    DateTimeOffset UpdatedAt,
    long? GroupId = null,
    double? Change = null,
    int? FoundAfter = null
);

public sealed record AlertEventDto(
    long Id,
    string? FromState,
    string ToState,
    string Actor,
    string? Reason,
    DateTimeOffset At
);

public sealed record AlertDetailDto(AlertDto Alert, IReadOnlyList<AlertEventDto> Events);

/// <summary>
/// Triage of an alert or a whole group: <paramref name="State"/> is active, acknowledged, invalid or fixed;
/// <paramref name="IssueUrl"/> an absolute http(s) URL, or an issue number ("123" or "#123") of the project's GitHub
/// repository.
/// </summary>
public sealed record AlertStateRequest(string? State, string? Reason, string? IssueUrl);

/// <summary>
/// Alerts of one project whose commit ranges overlap, triaged as one: the range (after <paramref name="FromCommit"/>
/// up to <paramref name="ToCommit"/>), what it covers, and the largest and median relative change of its members.
/// </summary>
public sealed record AlertGroupDto(
    long Id,
    string Project,
    string State,
    string Scope,
    string? FromCommit,
    string? ToCommit,
    int Members,
    IReadOnlyList<string> Kinds,
    IReadOnlyList<AlertGroupBenchmarkDto> Benchmarks,
    IReadOnlyList<string> Profiles,
    double? LargestChange,
    double? MedianChange,
    string? IssueUrl,
    DateTimeOffset CreatedAt,
    DateTimeOffset UpdatedAt
);

public sealed record AlertGroupBenchmarkDto(long Id, string Key, string? Measure);

public sealed record AlertGroupDetailDto(AlertGroupDto Group, IReadOnlyList<AlertDto> Alerts);
