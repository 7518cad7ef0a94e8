using PerfService.Core.Contracts;
using PerfService.Core.Profiles;

namespace PerfService.Profiling;

/// <summary>One stored profile. <paramref name="StoredBytes"/> is what it takes in the database (native and folded,
/// both compressed).</summary>
public sealed record CpuProfileDto(
    long Id,
    long JobId,
    string Suite,
    string Benchmark,
    string Role,
    int Round,
    string Format,
    string Profile,
    long Samples,
    long NativeSize,
    long StoredBytes,
    DateTimeOffset CreatedAt,
    string NativeUrl,
    string FoldedUrl
);

/// <summary>A profiling job of a pull request or an alert, with what it was asked for and what it recorded so
/// far.</summary>
public sealed record ProfilingJobDto(
    long JobId,
    string State,
    string Profile,
    string? Agent,
    string Commit,
    string? BaseCommit,
    int? PullRequest,
    long? AlertId,
    IReadOnlyList<ProfileTarget> Targets,
    IReadOnlyList<CpuProfileDto> Profiles,
    string? Reason
);

/// <summary>Head against base for one benchmark of a profiling job: the merged tree (samples per side, total and self,
/// per frame path), the frames whose self share grew or shrank most, and whether a side is too small to read.</summary>
public sealed record DifferentialDto(
    long JobId,
    string Project,
    string Benchmark,
    string Profile,
    int? PullRequest,
    long? AlertId,
    string Commit,
    string? BaseCommit,
    long BaseSamples,
    long HeadSamples,
    long MinSamples,
    bool TooFewSamples,
    IReadOnlyList<string> Summary,
    IReadOnlyList<FrameChange> Grown,
    IReadOnlyList<FrameChange> Shrunk,
    DiffNode Root
);
