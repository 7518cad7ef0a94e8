using PerfService.Core.Contracts;

namespace PerfService.Data.Entities;

public class Run
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public long CommitId { get; set; }
    public long? BranchId { get; set; }
    public int? PullRequest { get; set; }
    public long? BaseCommitId { get; set; }
    public long ProfileId { get; set; }
    public long? AgentId { get; set; }
    public long? JobId { get; set; }
    public long SuiteId { get; set; }
    public RunRole Role { get; set; }
    public int Round { get; set; }
    public required string Format { get; set; }
    public bool ProfileMismatch { get; set; }

    /// <summary>The environment the harness and the agent reported, as JSON.</summary>
    public string Environment { get; set; } = "{}";

    /// <summary>A hash of the environment's stable parts: runs with different fingerprints ran on different
    /// setups.</summary>
    public string? EnvironmentFingerprint { get; set; }
    public string? IdempotencyKey { get; set; }
    public DateTimeOffset? StartedAt { get; set; }
    public DateTimeOffset? FinishedAt { get; set; }
    public DateTimeOffset CreatedAt { get; set; }

    /// <summary>Results stored with the run, and how many of them failed: written once at ingest, so listing runs never
    /// counts result rows (which, for just-ingested runs, means reading the heap of the busiest table).</summary>
    public int ResultCount { get; set; }
    public int FailedCount { get; set; }

    /// <summary>The targets this run's perf.json declared (TargetDeclaration[] as JSON). Only default-branch runs
    /// change the project's targets; the others are judged against these, for their own report.</summary>
    public string? DeclaredTargets { get; set; }

    /// <summary>When sample retention removed this run's samples (only summaries remain); null while they are
    /// kept.</summary>
    public DateTimeOffset? SamplesSummarisedAt { get; set; }

    /// <summary>When background analysis took the run (targets, change points); null until then. The change-point
    /// reads leave out points of runs not yet analysed, so a series' state counts exactly the analysed runs' points and
    /// a late point is found among the points an analysis brings, not by counting the whole series.</summary>
    public DateTimeOffset? AnalysedAt { get; set; }

    /// <summary>The agent found the round disturbed (other processes, steal, throttling) and disturbance is the
    /// exception
    /// on its profile (decided at ingest, <see cref="Core.Disturbances.DisturbedRounds.LeaveOutOfSeries"/>): the run
    /// stays
    /// out of change-point series and history baselines. Pull-request verdicts decide from <see
    /// cref="Disturbance"/>.</summary>
    public bool Disturbed { get; set; }

    /// <summary>What the agent measured around the round (<see cref="Core.Contracts.Disturbance"/> as JSON); null when
    /// it measured nothing (results from CI, machines without /proc).</summary>
    public string? Disturbance { get; set; }

    // Navigations, for reads that project names (a run's commit SHA, profile name…) without correlated subqueries.
    public Project? Project { get; set; }
    public Commit? Commit { get; set; }
    public Commit? BaseCommit { get; set; }
    public Branch? Branch { get; set; }
    public HardwareProfile? Profile { get; set; }
    public Agent? Agent { get; set; }
    public Suite? Suite { get; set; }
}
