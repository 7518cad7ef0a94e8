using PerfService.Data.Entities;

namespace PerfService.AgentJobs;

/// <summary>What to benchmark; one job is queued per profile.</summary>
public sealed record JobRequest(
    string Project,
    string Commit,
    string? BaseCommit = null,
    string? Branch = null,
    int? PullRequest = null,
    IReadOnlyList<string>? Suites = null,
    IReadOnlyList<string>? Profiles = null,
    int? Rounds = null,
    bool Quick = false,
    JobKind? Kind = null
);

public sealed record JobDto(
    long Id,
    string Project,
    string Kind,
    string Commit,
    string? BaseCommit,
    string? Branch,
    int? PullRequest,
    string[] Suites,
    string Profile,
    int Priority,
    string State,
    int Attempts,
    int MaxAttempts,
    int Rounds,
    bool Quick,
    string? Agent,
    DateTimeOffset? LeaseExpiresAt,
    string? Progress,
    string? Reason,
    DateTimeOffset CreatedAt,
    DateTimeOffset? StartedAt,
    DateTimeOffset? FinishedAt,
    string? Log,
    bool Untrusted = false
);
