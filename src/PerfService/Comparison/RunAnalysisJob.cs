using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.Core.Results;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Telemetry;

namespace PerfService.Comparison;

/// <summary>
/// Runs after every stored run: evaluates the run's targets; for runs on the project's default branch, updates the
/// change-point detection of every series the run touched; and gives a pull-request run posted without a job one, so
/// it is judged. Reentrant: a retry re-evaluates and re-feeds nothing twice.
/// </summary>
[AutomaticRetry(Attempts = 5)]
public sealed class RunAnalysisJob(PerfDbContext db, TargetChecker targets, ChangePointUpdater changePoints, SubmittedPullRequestRuns submitted,
    ILogger<RunAnalysisJob> logger)
{
    public static void Enqueue(IBackgroundJobClient jobs, long runId) => jobs.Enqueue<RunAnalysisJob>(j => j.RunAsync(runId, CancellationToken.None));

    public async Task RunAsync(long runId, CancellationToken ct)
    {
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        using var activity = PerfTelemetry.Source.StartActivity("analyse run");
        activity?.SetTag(PerfTelemetry.RunIdTag, runId);
        var (storedAt, series, outcome) = await AnalyseAsync(runId, ct);
        activity?.SetTag("perf.outcome", outcome);
        PerfTelemetry.RunAnalysed(storedAt, System.Diagnostics.Stopwatch.GetElapsedTime(started), series, outcome);
    }

    private async Task<(DateTimeOffset StoredAt, int Series, string Outcome)> AnalyseAsync(long runId, CancellationToken ct)
    {
        var run = await db.Runs.AsNoTracking().FirstOrDefaultAsync(r => r.Id == runId, ct);
        if (run is null) return (default, 0, "missing");
        var project = await db.Projects.AsNoTracking().FirstAsync(p => p.Id == run.ProjectId, ct);
        var profile = await db.Profiles.AsNoTracking().Where(p => p.Id == run.ProfileId).Select(p => p.Name).FirstAsync(ct);
        var results = await RunResults.LoadAsync(db, [runId], ct);

        await targets.CheckAsync(run, profile, results, ct);
        if (run is { PullRequest: not null, JobId: null, Role: "head" }) await submitted.AttachAsync(run, ct);

        var onDefaultBranch = run.BranchId is { } branchId && run.Role == "head" && run.PullRequest is null
            && await db.Branches.AnyAsync(b => b.Id == branchId && b.Name == project.DefaultBranch, ct);
        if (!onDefaultBranch) return (run.CreatedAt, 0, "not_default_branch");
        // A run from a machine that did not match its profile is kept and shown, but stays out of the change-point
        // series unless the project opts in: a different machine's level would read as a step.
        if (run.ProfileMismatch && !project.IncludeProfileMismatch)
        {
            logger.LogInformation("Run {RunId} is a profile mismatch: left out of change-point detection", runId);
            return (run.CreatedAt, 0, "profile_mismatch");
        }
        var series = results.Where(r => !r.Result.Failed).Select(r => new ChangePointUpdater.SeriesId(project.Id, r.BenchmarkId, r.MeasureId,
            run.ProfileId, run.BranchId!.Value, r.Result.Direction == Direction.LowerIsBetter, $"{r.Result.Name} {r.Result.Measure} on {profile}")).ToList();
        await changePoints.UpdateAsync(series, ct);
        logger.LogInformation("Analysed run {RunId}: {Count} series updated", runId, series.Count);
        return (run.CreatedAt, series.Count, "analysed");
    }
}
