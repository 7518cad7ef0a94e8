namespace PerfService.Analysis;

/// <summary>
/// The Hangfire job earlier versions queued for every stored run. Runs are analysed by the analysis consumers now
/// (<see cref="AnalysisConsumer"/>); a job of this kind still in Hangfire's storage after an upgrade finds its run in
/// <c>analysis_queue</c>, where a consumer takes it, and ends instead of failing.
/// </summary>
public sealed class RunAnalysisJob(ILogger<RunAnalysisJob> logger)
{
    public Task RunAsync(long runId, CancellationToken ct)
    {
        logger.LogDebug(
            "Run {RunId} is analysed by the analysis consumers; this job of an earlier version ends",
            runId
        );
        return Task.CompletedTask;
    }
}
