namespace PerfService.Runs;

public sealed record RunDto(
    long Id, string Project, string Commit, string? Branch, int? PullRequest, string? BaseCommit, string Profile, string? Agent,
    long? JobId, string Suite, string Role, int Round, string Format, bool ProfileMismatch, string? EnvironmentFingerprint,
    DateTimeOffset CreatedAt);

public sealed record ResultDto(
    string Benchmark, string Name, string Parameters, string? Job, string Measure, string Unit, string Direction,
    double? Value, double? Median, double? StdDev, double? CiLower, double? CiUpper, int SampleCount, double[]? Samples, string? Error);

public sealed record RunDetailDto(RunDto Run, IReadOnlyList<ResultDto> Results, IReadOnlyList<string> Artifacts);
