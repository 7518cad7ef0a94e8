using Hangfire;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Background;
using PerfService.Data;
using PerfService.Hosting.Telemetry;
using PerfService.Core.Contracts;
using PerfService.PullRequests;

namespace PerfService.Analysis;

/// <summary>
/// Runs after every stored run: evaluates the run's targets; for runs on the project's default branch, updates the
/// change-point detection of every series the run touched; and gives a pull-request run posted without a job one, so
/// it is judged. Each run waits in <c>analysis_queue</c>; the job of the oldest takes up to
/// <see cref="BackgroundOptions.AnalysisBatchRuns"/> waiting runs at once (<see cref="AnalysisBatch"/>), and the job of
/// a run already analysed that way finds it gone and ends. Reentrant: a retry re-evaluates and re-feeds nothing twice.
/// </summary>
[AutomaticRetry(Attempts = 5)]
public sealed class RunAnalysisJob(PerfDbContext db, AnalysisBatch batch, SubmittedPullRequestRuns submitted, IOptions<BackgroundOptions> options,
    TimeProvider time, ILogger<RunAnalysisJob> logger)
{
    public static void Enqueue(IBackgroundJobClient jobs, long runId) => jobs.Enqueue<RunAnalysisJob>(j => j.RunAsync(runId, CancellationToken.None));

    /// <summary>Puts a stored run in the analysis queue and queues its job. Also for a run queued before: analysis is idempotent.</summary>
    public static async Task EnqueueAsync(PerfDbContext db, IBackgroundJobClient jobs, long runId, CancellationToken ct)
    {
        await db.Database.ExecuteSqlInterpolatedAsync(
            $"INSERT INTO analysis_queue (run_id, queued_at, failed_batches) VALUES ({runId}, now(), 0) ON CONFLICT (run_id) DO NOTHING", ct);
        Enqueue(jobs, runId);
    }

    public async Task RunAsync(long runId, CancellationToken ct)
    {
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        using var activity = PerfTelemetry.Source.StartActivity("analyse run");
        activity?.SetTag(PerfTelemetry.RunIdTag, runId);
        var run = await db.Runs.AsNoTracking().FirstOrDefaultAsync(r => r.Id == runId, ct);
        if (run is null)
        {
            activity?.SetTag("perf.outcome", "missing");
            PerfTelemetry.RunAnalysed(null, System.Diagnostics.Stopwatch.GetElapsedTime(started), 0, "missing");
            return;
        }
        // Outside the batch: attaching takes the pull request's lock and must commit before it lets go. Idempotent.
        if (run is { PullRequest: not null, JobId: null, Role: RunRole.Head }) await submitted.AttachAsync(run, ct);

        IReadOnlyList<RunAnalysed>? analysed;
        var maxRuns = options.Value.AnalysisBatchRuns;
        try
        {
            analysed = await batch.AnalyseAsync(runId, maxRuns, ct);
        }
        catch (Exception e) when (maxRuns > 1 && e is not OperationCanceledException)
        {
            // One run of the batch may be the cause: this run is retried alone, and later batches leave the batch's
            // runs to their own jobs.
            logger.LogWarning(e, "Batch analysis with run {RunId} failed; analysing the run alone", runId);
            db.ChangeTracker.Clear();
            await batch.MarkFailedAsync(batch.Claimed, ct);
            analysed = await batch.AnalyseAsync(runId, 1, ct);
        }

        var took = System.Diagnostics.Stopwatch.GetElapsedTime(started);
        if (analysed is null)
        {
            activity?.SetTag("perf.outcome", "coalesced");
            PerfTelemetry.RunAnalysed(null, took, 0, "coalesced");
            return;
        }
        activity?.SetTag("perf.outcome", analysed[0].Outcome);
        activity?.SetTag("perf.batch_runs", analysed.Count);
        // Every run of the batch is analysed now: its lag ends here, whichever job took it.
        foreach (var a in analysed)
        {
            PerfTelemetry.RunAnalysed(a.StoredAt == default ? null : time.GetUtcNow() - a.StoredAt, took, a.Series, a.Outcome);
            if (a.Outcome == "analysed") logger.LogInformation("Analysed run {RunId}: {Count} series updated", a.RunId, a.Series);
        }
    }
}
