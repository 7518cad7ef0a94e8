using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Background;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Hosting.Telemetry;
using PerfService.PullRequests;

namespace PerfService.Analysis;

/// <summary>What one consumer step did: runs analysed, and analyses that failed (the run stays queued or is
/// parked).</summary>
public readonly record struct AnalysisStep(int Analysed, int Failed)
{
    public bool TookAny => Analysed + Failed > 0;

    public static AnalysisStep operator +(AnalysisStep a, AnalysisStep b) =>
        new(a.Analysed + b.Analysed, a.Failed + b.Failed);
}

/// <summary>
/// Drains <c>analysis_queue</c>: each step claims a batch of waiting runs (<see cref="AnalysisBatch"/>) and analyses
/// it, then the few runs a batch leaves alone. Consumers in any number of processes share the queue without talking to
/// each other: the claim skips rows another holds. A failed batch falls back to its runs one by one; a run that fails
/// alone <see cref="BackgroundOptions.AnalysisAttempts"/> times is parked with its error and no longer taken.
/// </summary>
public sealed class AnalysisConsumer(
    IServiceScopeFactory scopes,
    IOptions<BackgroundOptions> options,
    TimeProvider time,
    ILogger<AnalysisConsumer> logger
)
{
    private const int AlonePerStep = 4;

    /// <summary>One step: a batch, then a few runs left to be analysed alone; nothing taken when nothing was waiting
    /// for it.</summary>
    public async Task<AnalysisStep> StepAsync(CancellationToken ct)
    {
        var took = await BatchAsync(ct);
        List<long> alone;
        await using (var scope = scopes.CreateAsyncScope())
            alone = await AnalysisRequests.AloneAsync(
                scope.ServiceProvider.GetRequiredService<PerfDbContext>(),
                AlonePerStep,
                ct
            );
        foreach (var runId in alone)
            took += await AloneAsync(runId, ct);
        return took;
    }

    /// <summary>Steps until nothing is left that this consumer can take.</summary>
    public async Task DrainAsync(CancellationToken ct)
    {
        while ((await StepAsync(ct)).TookAny) { }
    }

    private async Task<AnalysisStep> BatchAsync(CancellationToken ct)
    {
        var started = Stopwatch.GetTimestamp();
        IReadOnlyList<ClaimedRun> claimed = [];
        try
        {
            await using var scope = scopes.CreateAsyncScope();
            var batch = scope.ServiceProvider.GetRequiredService<AnalysisBatch>();
            var analysed = await batch.AnalyseNextAsync(options.Value.AnalysisBatchRuns, c => claimed = c, ct);
            Record(analysed, started, batch.Times);
            return new AnalysisStep(analysed.Count, 0);
        }
        catch (Exception e) when (claimed.Count > 0 && !ct.IsCancellationRequested)
        {
            // Its transaction rolled back: every run is still queued. One of them may be the cause, so each is analysed
            // alone, and later batches leave them out.
            logger.LogWarning(
                e,
                "Analysis of a batch of {Count} runs failed; analysing them one by one",
                claimed.Count
            );
            await using (var scope = scopes.CreateAsyncScope())
                await AnalysisRequests.MarkBatchFailedAsync(
                    scope.ServiceProvider.GetRequiredService<PerfDbContext>(),
                    [.. claimed.Select(r => r.RunId)],
                    ct
                );
            var step = new AnalysisStep(0, 0);
            foreach (var run in claimed)
                step += await AloneAsync(run.RunId, ct);
            return step;
        }
    }

    private async Task<AnalysisStep> AloneAsync(long runId, CancellationToken ct)
    {
        var started = Stopwatch.GetTimestamp();
        try
        {
            await using var scope = scopes.CreateAsyncScope();
            var db = scope.ServiceProvider.GetRequiredService<PerfDbContext>();
            var run = await db.Runs.AsNoTracking().FirstOrDefaultAsync(r => r.Id == runId, ct);
            if (run is null)
                return default; // deleted meanwhile: its queue row went with it
            // Outside the analysis transaction: joining the submitted job takes the pull request's lock and must commit
            // before it lets go. Idempotent.
            if (run is { PullRequest: not null, JobId: null, Role: RunRole.Head })
                await scope.ServiceProvider.GetRequiredService<SubmittedPullRequestRuns>().AttachAsync(run, ct);
            var analysed = await scope.ServiceProvider.GetRequiredService<AnalysisBatch>().AnalyseOneAsync(runId, ct);
            Record(analysed, started);
            return new AnalysisStep(analysed.Count, 0);
        }
        catch (Exception e) when (!ct.IsCancellationRequested)
        {
            await using var scope = scopes.CreateAsyncScope();
            var attempts = options.Value.AnalysisAttempts;
            if (
                await AnalysisRequests.RecordFailureAsync(
                    scope.ServiceProvider.GetRequiredService<PerfDbContext>(),
                    runId,
                    e,
                    attempts,
                    ct
                )
            )
                logger.LogError(
                    e,
                    "Analysis of run {RunId} failed {Attempts} times: parked (listed on the Service page)",
                    runId,
                    attempts
                );
            else
                logger.LogWarning(e, "Analysis of run {RunId} failed; it is tried again", runId);
            PerfTelemetry.RunAnalysed(null, Stopwatch.GetElapsedTime(started), 0, "failed");
            return new AnalysisStep(0, 1);
        }
    }

    private void Record(IReadOnlyList<RunAnalysed> analysed, long started, BatchTimes? times = null)
    {
        var took = Stopwatch.GetElapsedTime(started);
        foreach (var a in analysed)
        {
            PerfTelemetry.RunAnalysed(
                a.StoredAt == default ? null : time.GetUtcNow() - a.StoredAt,
                took,
                a.Series,
                a.Outcome
            );
            if (a.Outcome == "analysed")
                logger.LogDebug("Analysed run {RunId}: {Count} series updated", a.RunId, a.Series);
        }
        if (analysed.Count > 1)
            logger.LogInformation(
                "Analysed {Count} runs in one batch in {Seconds:F2} s: {Times}",
                analysed.Count,
                took.TotalSeconds,
                times
            );
    }
}
