using Hangfire;

namespace PerfService.AgentJobs;

/// <summary>Returns jobs of agents that stopped heartbeating to the queue, even when no agent is claiming.</summary>
[DisableConcurrentExecution(timeoutInSeconds: 60)]
public sealed class LeaseSweepJob(JobQueue queue)
{
    public Task RunAsync(CancellationToken ct) => queue.SweepExpiredLeasesAsync(ct);
}
