namespace PerfService.Projects;

public sealed record CreateProjectRequest(
    string Slug,
    string Name,
    string? RepositoryUrl,
    string? DefaultBranch,
    bool? IsPublic,
    string? GitHubRepository,
    bool? Bisect = null,
    int? RoundBudget = null,
    bool? IncludeProfileMismatch = null,
    PullRequestSettingsRequest? PullRequests = null
);

/// <summary>The body of PATCH /projects/{slug}: a missing or null member leaves that setting as it is.</summary>
public sealed record UpdateProjectRequest(
    string? Name,
    string? RepositoryUrl,
    string? DefaultBranch,
    bool? IsPublic,
    string? GitHubRepository,
    bool? Bisect,
    int? RoundBudget = null,
    bool? IncludeProfileMismatch = null,
    PullRequestSettingsRequest? PullRequests = null
);

/// <summary><paramref name="Run"/>: which pull requests run without approval, "members" (default), "all" or "none";
/// <paramref name="ApprovalLabel"/>: the GitHub label that approves a waiting head (default "perf:run").</summary>
public sealed record PullRequestSettingsRequest(string? Run, string? ApprovalLabel);

public sealed record PullRequestSettingsDto(string Run, string ApprovalLabel);

public sealed record ProjectDto(
    long Id,
    string Slug,
    string Name,
    string? RepositoryUrl,
    string DefaultBranch,
    bool IsPublic,
    string? GitHubRepository,
    bool Bisect,
    int RoundBudget,
    bool IncludeProfileMismatch,
    PullRequestSettingsDto PullRequests
);

public sealed record ProfileDto(
    long Id,
    string Name,
    string? CpuModel,
    int? PhysicalCores,
    int? LogicalCores,
    string? Arch
);

/// <summary>A relative threshold (0.10 = 10%) for benchmarks whose key matches a glob or exact key, optionally for one
/// measure only.</summary>
public sealed record ThresholdOverrideDto(string Pattern, string? Measure, double Threshold);

public sealed record ThresholdOverridesDto(IReadOnlyList<ThresholdOverrideDto> Thresholds);

/// <summary>The body of PUT .../thresholds: the whole new list. Nullable members, so that a missing field is reported
/// as such.</summary>
public sealed record ReplaceThresholdsRequest(List<ThresholdOverrideRequest?>? Thresholds);

public sealed record ThresholdOverrideRequest(string? Pattern, string? Measure, double? Threshold);
