using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Core.Results;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Core.Contracts;

namespace PerfService.Analysis;

/// <summary>What one analysis did with one run.</summary>
/// <param name="Outcome">"analysed", or why the run's series were left alone ("not_default_branch", "profile_mismatch").</param>
public sealed record RunAnalysed(long RunId, DateTimeOffset StoredAt, int Series, string Outcome);

/// <summary>
/// Analyses a run together with other runs waiting in <c>analysis_queue</c>, in one transaction: the queue rows are
/// locked and deleted in it, targets are evaluated per run, and the change-point series of all the runs are updated
/// per project × profile × branch in one update each, so several runs of a series cost one update of it. Verdicts,
/// series states and alerts of the whole batch commit together or not at all (a failed batch leaves every run queued).
/// </summary>
public sealed class AnalysisBatch(PerfDbContext db, TargetChecker targets, ChangePointUpdater changePoints, JobQueue jobQueue, TimeProvider time, ILogger<AnalysisBatch> logger)
{
    /// <summary>
    /// Analyses <paramref name="runId"/> with up to <paramref name="maxRuns"/> − 1 other waiting main-line runs (oldest
    /// first, skipping runs another batch holds). Null when the run is no longer waiting: a batch analysed it already
    /// (waiting for that batch to commit first, so the caller never returns before its run is analysed).
    /// </summary>
    public async Task<IReadOnlyList<RunAnalysed>?> AnalyseAsync(long runId, int maxRuns, CancellationToken ct)
    {
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var own = await db.Database.SqlQuery<long>($"SELECT run_id AS \"Value\" FROM analysis_queue WHERE run_id = {runId} FOR UPDATE").ToListAsync(ct);
        if (own.Count == 0)
        {
            await tx.CommitAsync(ct);
            return null;
        }
        // Pull-request runs are left to their own jobs (they attach to a submitted job outside any batch); so are runs
        // a failed batch held, so that one bad run cannot fail every batch it lands in.
        var others = maxRuns <= 1 ? [] : await db.Database.SqlQuery<long>($"""
            SELECT q.run_id AS "Value" FROM analysis_queue q JOIN runs r ON r.id = q.run_id
            WHERE q.run_id <> {runId} AND q.failed_batches = 0 AND r.pull_request IS NULL
            ORDER BY q.run_id
            LIMIT {maxRuns - 1}
            FOR UPDATE OF q SKIP LOCKED
            """).ToListAsync(ct);
        var batch = (long[])[runId, .. others];
        Claimed = batch;

        var (analysed, bisecting) = await AnalyseRunsAsync(batch, ct);
        var now = time.GetUtcNow();
        await db.Runs.Where(r => batch.Contains(r.Id) && r.AnalysedAt == null).ExecuteUpdateAsync(s => s.SetProperty(r => r.AnalysedAt, now), ct);
        await db.AnalysisQueue.Where(q => batch.Contains(q.RunId)).ExecuteDeleteAsync(ct);
        await tx.CommitAsync(ct);
        if (bisecting) await jobQueue.NotifyAsync(ct);
        if (batch.Length > 1) logger.LogInformation("Analysed run {RunId} with {Others} other waiting runs", runId, batch.Length - 1);
        return analysed;
    }

    /// <summary>The runs the last <see cref="AnalyseAsync"/> took (to mark them when it failed).</summary>
    public IReadOnlyList<long> Claimed { get; private set; } = [];

    /// <summary>Marks the runs of a failed batch, in a transaction of its own, so later batches leave them to their own jobs.</summary>
    public Task MarkFailedAsync(IReadOnlyList<long> runIds, CancellationToken ct) =>
        db.AnalysisQueue.Where(q => runIds.Contains(q.RunId)).ExecuteUpdateAsync(s => s.SetProperty(q => q.FailedBatches, q => q.FailedBatches + 1), ct);

    private async Task<(List<RunAnalysed> Analysed, bool Bisecting)> AnalyseRunsAsync(long[] runIds, CancellationToken ct)
    {
        var runs = await db.Runs.AsNoTracking().Where(r => runIds.Contains(r.Id)).OrderBy(r => r.Id).ToListAsync(ct);
        var projectIds = runs.Select(r => r.ProjectId).Distinct().ToList();
        var projects = await db.Projects.AsNoTracking().Where(p => projectIds.Contains(p.Id)).ToDictionaryAsync(p => p.Id, ct);
        var profileIds = runs.Select(r => r.ProfileId).Distinct().ToList();
        var profiles = await db.Profiles.AsNoTracking().Where(p => profileIds.Contains(p.Id)).ToDictionaryAsync(p => p.Id, p => p.Name, ct);
        var branchIds = runs.Where(r => r.BranchId != null).Select(r => r.BranchId!.Value).Distinct().ToList();
        var defaultBranches = await db.Branches.AsNoTracking()
            .Where(b => branchIds.Contains(b.Id) && b.Project!.DefaultBranch == b.Name).Select(b => b.Id).ToListAsync(ct);
        // Samples only where targets are judged (a target's confidence uses them): change points take one value per result.
        var results = (await RunResults.LoadAsync(db, runIds, ct, await targets.RunsWithTargetsAsync(runs, ct))).ToLookup(r => r.RunId);

        var analysed = new List<RunAnalysed>(runs.Count);
        var series = new List<ChangePointUpdater.SeriesId>();
        var arriving = new List<(long ProfileId, long BranchId, ChangePointUpdater.Arrival Point)>();
        foreach (var run in runs)
        {
            var project = projects[run.ProjectId];
            var profile = profiles[run.ProfileId];
            var own = results[run.Id].ToList();
            await targets.CheckAsync(run, profile, own, ct);

            var onDefaultBranch = run.BranchId is { } branchId && run.Role == RunRole.Head && run.PullRequest is null && defaultBranches.Contains(branchId);
            if (!onDefaultBranch)
            {
                analysed.Add(new RunAnalysed(run.Id, run.CreatedAt, 0, "not_default_branch"));
                continue;
            }
            // A run from a machine that did not match its profile is kept and shown, but stays out of the change-point
            // series unless the project opts in: a different machine's level would read as a step.
            if (run.ProfileMismatch && !project.IncludeProfileMismatch)
            {
                logger.LogInformation("Run {RunId} is a profile mismatch: left out of change-point detection", run.Id);
                analysed.Add(new RunAnalysed(run.Id, run.CreatedAt, 0, "profile_mismatch"));
                continue;
            }
            // Every result the series reads hold (a value), so that what arrives and what is read agree.
            var points = own.Where(r => r.Result.Value is not null).ToList();
            var mine = points.Select(r => new ChangePointUpdater.SeriesId(project.Id, r.BenchmarkId, r.MeasureId,
                run.ProfileId, run.BranchId!.Value, r.Result.Direction == Direction.LowerIsBetter, $"{r.Result.Key} {r.Result.Measure} on {profile}")).ToList();
            series.AddRange(mine);
            // A run analysed before (queued again by a retried post) brings nothing new: its points were fed then.
            if (run.AnalysedAt is null)
                arriving.AddRange(points.Select(r => (run.ProfileId, run.BranchId!.Value, new ChangePointUpdater.Arrival(r.BenchmarkId, r.MeasureId, run.Id, r.ResultId))));
            analysed.Add(new RunAnalysed(run.Id, run.CreatedAt, mine.Count, "analysed"));
        }

        // One update per project × profile × branch, in a fixed order (with the updater's (benchmark, measure) order
        // inside), so concurrent batches lock series states in the same global order and never deadlock.
        var bisecting = false;
        var arrivals = arriving.ToLookup(a => (a.ProfileId, a.BranchId), a => a.Point);
        foreach (var group in series.GroupBy(s => (s.ProfileId, s.BranchId)).OrderBy(g => g.Key.ProfileId).ThenBy(g => g.Key.BranchId))
            bisecting |= await changePoints.UpdateInTransactionAsync(group.ToList(), arrivals[group.Key].ToList(), ct);
        return (analysed, bisecting);
    }
}
