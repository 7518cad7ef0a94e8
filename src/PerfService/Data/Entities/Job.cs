using PerfService.Core.Contracts;

namespace PerfService.Data.Entities;

/// <summary><see cref="AwaitingApproval"/>: a pull request's job from an author the project does not trust
/// automatically;
/// no agent can claim it until a maintainer approves its head commit (then it is <see cref="Queued"/>).</summary>
public enum JobState
{
    Queued,
    Running,
    Succeeded,
    Failed,
    Cancelled,
    AwaitingApproval,
}

/// <summary><see cref="Submitted"/>: no agent ran it; it gathers a pull request's runs posted straight to the ingest
/// API (<c>perf-agent submit --pr</c>), so they are judged and reported like an agent's. <see cref="Profile"/>: records
/// CPU profiles of a few benchmarks (<see cref="Job.Profiling"/>) and posts no runs, so it never feeds a verdict,
/// baseline or change point.</summary>
public enum JobKind
{
    PullRequest,
    Baseline,
    Rerun,
    Bisect,
    Manual,
    Submitted,
    Profile,
}

/// <summary>Benchmark work for an agent of one profile. Claimed with FOR UPDATE SKIP LOCKED and held by a
/// lease.</summary>
public class Job
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public JobKind Kind { get; set; }
    public required string Commit { get; set; }
    public string? BaseCommit { get; set; }
    public string? Branch { get; set; }
    public int? PullRequest { get; set; }
    public string[] Suites { get; set; } = [];
    public long ProfileId { get; set; }

    /// <summary>Higher runs first: pull requests before scheduled baselines.</summary>
    public int Priority { get; set; }
    public JobState State { get; set; }
    public int Attempts { get; set; }
    public int MaxAttempts { get; set; } = 3;
    public int Rounds { get; set; } = 1;
    public bool Quick { get; set; }

    /// <summary>The code comes from a pull request that did not pass the automatic trust rule (even if approved):
    /// the agent runs it the way it runs untrusted code (sandboxed).</summary>
    public bool Untrusted { get; set; }
    public long? AgentId { get; set; }
    public DateTimeOffset? LeaseExpiresAt { get; set; }
    public string? Progress { get; set; }
    public string? Reason { get; set; }
    public string Log { get; set; } = "";
    public DateTimeOffset CreatedAt { get; set; }
    public DateTimeOffset? StartedAt { get; set; }
    public DateTimeOffset? FinishedAt { get; set; }

    /// <summary>When its pull-request comparison wrote its verdicts (none, when there was nothing to compare): until
    /// then
    /// a succeeded job's profile is still pending in the report.</summary>
    public DateTimeOffset? JudgedAt { get; set; }

    /// <summary>Set on a <see cref="JobKind.Profile"/> job: what to profile, handed to the agent with the
    /// claim.</summary>
    public ProfilingRequest? Profiling { get; set; }

    /// <summary>Only this agent may claim the job: a profile of a regression is taken on the machine that measured
    /// it.</summary>
    public long? PinnedAgentId { get; set; }

    /// <summary>The change-point alert a profiling job explains, when it was raised on the default branch.</summary>
    public long? AlertId { get; set; }

    // Navigations, for reads that project names (a run's commit SHA, profile name…) without correlated subqueries.
    public Project? Project { get; set; }
    public HardwareProfile? Profile { get; set; }
    public Agent? Agent { get; set; }
}
