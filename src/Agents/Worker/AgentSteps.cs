using PerfService.Agents.Client;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Worker;

/// <summary>What the state machine asks the driver to do next.</summary>
public abstract record AgentStep
{
    public sealed record Register : AgentStep;

    /// <summary>Post what the spool holds (results of earlier jobs that could not be delivered).</summary>
    public sealed record DrainSpool : AgentStep;

    public sealed record Claim(long AgentId) : AgentStep;

    public sealed record RunJob(long AgentId, JobAssignment Job) : AgentStep;

    public sealed record Complete(long AgentId, JobAssignment Job, JobOutcome Outcome) : AgentStep;

    public sealed record Wait(TimeSpan Delay, string Reason) : AgentStep;

    public sealed record Stop(int ExitCode, string Reason) : AgentStep;
}

/// <summary>What happened when the driver did a step.</summary>
public abstract record AgentEvent
{
    public sealed record Started : AgentEvent;

    public sealed record Registered(long AgentId) : AgentEvent;

    /// <param name="Blocked">Some entries could not be posted for a transient reason and are still spooled.</param>
    /// <param name="Unreadable">The spool itself could not be read (a broken disk or folder): waiting will not help.</param>
    public sealed record SpoolDrained(bool Blocked, bool Unreadable = false) : AgentEvent;

    /// <param name="Job">Null when the long poll ended with no job (204).</param>
    public sealed record Claimed(JobAssignment? Job) : AgentEvent;

    public sealed record JobFinished(JobOutcome Outcome) : AgentEvent;

    public sealed record Completed : AgentEvent;

    public sealed record WaitOver : AgentEvent;

    /// <summary>The call of the current step failed; <paramref name="Status"/> says how.</summary>
    public sealed record CallFailed(ApiStatus Status, string? Error) : AgentEvent;
}
