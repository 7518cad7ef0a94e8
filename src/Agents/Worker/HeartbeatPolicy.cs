using PerfService.Agents.Client;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Worker;

public enum HeartbeatDecision
{
    KeepRunning,

    /// <summary>The service asked to stop: kill the harness, complete the job as cancelled.</summary>
    Cancel,

    /// <summary>The lease is gone: kill the harness and walk away without completing.</summary>
    Abandon,
}

/// <summary>What a heartbeat's answer means for the running job. A service that cannot be reached does not stop the
/// job: results are spooled, and a lease that expired meanwhile shows up as a 409 on a later heartbeat or on
/// complete.</summary>
public static class HeartbeatPolicy
{
    public static HeartbeatDecision Decide(ApiResult<HeartbeatResponse> result) =>
        result.Status switch
        {
            ApiStatus.Ok when result.Value is { Cancel: true } => HeartbeatDecision.Cancel,
            ApiStatus.Conflict => HeartbeatDecision.Abandon,
            // The job no longer exists on the service: nobody wants its results.
            ApiStatus.NotFound => HeartbeatDecision.Abandon,
            _ => HeartbeatDecision.KeepRunning,
        };
}
