namespace PerfService.Core.Contracts;

// Wire records between the service and its agents. One source of truth: the service, the agent and the CLI
// all compile against these.

/// <summary>What an agent finds out about the machine it runs on.</summary>
public sealed record MachineInfo(
    string CpuModel,
    int PhysicalCores,
    int LogicalCores,
    long MemoryBytes,
    string Os,
    string Kernel,
    IReadOnlyDictionary<string, string> Toolchains,
    string? CpuGovernor = null,
    double? LoadAverage = null
);

public sealed record RegisterAgentRequest(string Name, string Profile, MachineInfo Machine);

/// <summary><paramref name="ProfileMismatch"/> is set when the machine is not what the profile declares: every run
/// this agent posts carries the flag.</summary>
public sealed record RegisterAgentResponse(long AgentId, string Profile, bool ProfileMismatch, string? MismatchReason);

/// <summary>A job handed to one agent. <paramref name="BaseCommit"/> is set for pull requests: the agent runs base
/// and head interleaved for <paramref name="Rounds"/> rounds.</summary>
public sealed record JobAssignment(
    long JobId,
    int Attempt,
    string Project,
    string RepositoryUrl,
    string Commit,
    string? BaseCommit,
    string? Branch,
    int? PullRequest,
    IReadOnlyList<string> Suites,
    string Profile,
    int Rounds,
    int LeaseSeconds,
    bool Quick,
    bool Untrusted = false,
    ProfilingRequest? Profiling = null
);

/// <summary>Set on a profiling job: profile these benchmarks on base and head (or head alone), interleaved like
/// rounds. A profiling job's runs are never posted as results: it feeds no verdict, baseline or change point.</summary>
public sealed record ProfilingRequest(IReadOnlyList<ProfileTarget> Targets);

/// <summary>One benchmark to profile, by its suite (from perf.json) and its stored name.</summary>
public sealed record ProfileTarget(string Suite, string Benchmark);

/// <summary>Metadata of one posted profile (the "profile" part of POST /api/v1/profiles; the native file travels
/// beside it as "file"). <paramref name="Format"/> is a <see cref="Profiles.ProfileFormat"/> name.</summary>
public sealed record ProfileUploadMetadata(
    long JobId,
    long AgentId,
    string Suite,
    string Benchmark,
    string Role,
    string Format,
    int Round = 1
);

/// <summary><paramref name="Duplicate"/>: the job's slot (benchmark, suite, side, round) was stored before, by an
/// earlier post of the same upload or an earlier attempt of the job; this is that profile, and nothing was
/// stored.</summary>
public sealed record ProfileCreated(long ProfileId, bool Duplicate = false);

public sealed record HeartbeatRequest(long AgentId, string? Progress, IReadOnlyList<string>? Log);

/// <summary><paramref name="Cancel"/> tells the agent to stop: a newer push replaced the job, or it was
/// cancelled.</summary>
public sealed record HeartbeatResponse(bool Cancel, DateTimeOffset LeaseExpiresAt, string? Reason);

public sealed record CompleteJobRequest(long AgentId, bool Succeeded, string? Error, IReadOnlyList<string>? Log);

/// <summary>Metadata of one posted run (the "run" part of POST /api/v1/runs). Files travel beside it.</summary>
public sealed record RunMetadata
{
    public required string Project { get; init; }
    public required string Commit { get; init; }

    /// <summary>When the commit was made (git's committer date): orders a branch's history.</summary>
    public DateTimeOffset? CommittedAt { get; init; }
    public string? CommitMessage { get; init; }
    public string? Branch { get; init; }
    public int? PullRequest { get; init; }
    public string? BaseCommit { get; init; }
    public required string Profile { get; init; }
    public string? Agent { get; init; }
    public long? JobId { get; init; }
    public string? Suite { get; init; }

    /// <summary>"head" (the default) or "base" for the interleaved base rounds of a pull-request job.</summary>
    public string? Role { get; init; }
    public int? Round { get; init; }

    /// <summary>Harness format of the files: auto, bdn, criterion, gobench, k6 or json.</summary>
    public string? Format { get; init; }
    public bool ProfileMismatch { get; init; }

    /// <summary>The suite's declared targets (from perf.json): stored for the project and evaluated on this
    /// run.</summary>
    public IReadOnlyList<Suites.TargetDeclaration>? Targets { get; init; }
    public IReadOnlyDictionary<string, string>? Environment { get; init; }
    public DateTimeOffset? StartedAt { get; init; }
    public DateTimeOffset? FinishedAt { get; init; }

    /// <summary>What else used the machine while this round ran, as the agent measured it (null: not
    /// measured).</summary>
    public Disturbance? Disturbance { get; init; }
}

public sealed record RunCreated(long RunId, bool Duplicate, int Benchmarks, int Results);

/// <summary>
/// What disturbed one round, measured by the agent around the harness run. Shares are of the CPU capacity the suite
/// had (<paramref name="SuiteCores"/> cores for the round's wall time). <paramref name="Disturbed"/> is the agent's
/// decision (see docs/agents.md); <paramref name="Attempts"/> counts the harness runs of this round slot (more than 1:
/// the earlier ones were disturbed and repeated; the least disturbed one was posted).
/// </summary>
/// <param name="OtherCpuShare">CPU time of processes outside the suite's process tree, as a share of the suite's
/// cores.</param>
/// <param name="StealShare">Time the hypervisor gave the suite's CPUs to other guests.</param>
/// <param name="OtherRunnable">Mean runnable tasks beyond the suite's own (from procs_running).</param>
/// <param name="LoadAverage">Mean 1-minute load average over the round.</param>
/// <param name="FrequencyRatio">Mean current/maximum frequency of the suite's CPUs, where cpufreq is exposed.</param>
/// <param name="ThrottleEvents">Thermal throttling events on the suite's CPUs during the round, where exposed.</param>
public sealed record Disturbance(
    bool Disturbed,
    int Attempts,
    double Seconds,
    int SuiteCores,
    double OtherCpuShare,
    double StealShare,
    double OtherRunnable,
    double? LoadAverage = null,
    double? FrequencyRatio = null,
    long? ThrottleEvents = null
);
