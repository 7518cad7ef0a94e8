using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Telemetry;

namespace PerfService.Analysis;

/// <summary>What one analysis did with one run.</summary>
/// <param name="Outcome">"analysed", or why the run's series were left alone ("not_default_branch", "profile_mismatch",
/// "disturbed").</param>
public sealed record RunAnalysed(long RunId, DateTimeOffset StoredAt, int Series, string Outcome);

/// <summary>Where a batch's time went, for the log line that reports it: reading the claimed runs and their results
/// (targets judged), updating the change-point series (their reads and writes, and within them the detector's own
/// time), and marking the runs analysed and committing. Under load, reading and commit grow with PostgreSQL's queue and
/// the detector with the CPU the process gets.</summary>
public sealed record BatchTimes(TimeSpan Reading, TimeSpan ChangePoints, TimeSpan Detector, TimeSpan Commit)
{
    public override string ToString() =>
        $"reading {Reading.TotalSeconds:F2} s, change points {ChangePoints.TotalSeconds:F2} s (the detector "
        + $"{Detector.TotalSeconds:F2} s), commit {Commit.TotalSeconds:F2} s";
}

/// <summary>A waiting run a consumer holds, with the trace context of the ingest that queued it.</summary>
public sealed record ClaimedRun(long RunId, string? TraceParent);

/// <summary>
/// Analyses runs waiting in <c>analysis_queue</c> in one transaction: the queue rows are claimed with
/// <c>FOR UPDATE SKIP LOCKED</c> (so consumers in any number of processes never take a run twice, and a consumer that
/// dies releases its rows with its transaction) and deleted in it, targets are evaluated per run, and the change-point
/// series of all the runs are updated per project × profile × branch in one update each, so several runs of a series
/// cost one update of it. Verdicts, series states and alerts of the whole batch commit together or not at all.
/// </summary>
public sealed class AnalysisBatch(
    PerfDbContext db,
    TargetChecker targets,
    ChangePointUpdater changePoints,
    SeriesReader reader,
    JobQueue jobQueue,
    TimeProvider time,
    ILogger<AnalysisBatch> logger
)
{
    /// <summary>Where the last batch's time went (null before one is analysed).</summary>
    public BatchTimes? Times { get; private set; }

    /// <summary>
    /// Claims up to <paramref name="maxRuns"/> waiting runs, oldest first, in the caller's transaction. Left to be
    /// analysed alone: runs a failed batch held (one bad run must not fail every batch it lands in), parked runs, and
    /// pull-request runs still to join their submitted job (that takes the pull request's lock and commits on its own).
    /// </summary>
    public async Task<IReadOnlyList<ClaimedRun>> ClaimAsync(int maxRuns, CancellationToken ct) =>
        await db
            .Database.SqlQuery<ClaimedRun>(
                $"""
                SELECT q.run_id, q.trace_parent FROM analysis_queue q JOIN runs r ON r.id = q.run_id
                WHERE q.parked_at IS NULL AND q.failed_batches = 0
                  AND NOT (r.pull_request IS NOT NULL AND r.job_id IS NULL AND r.role = {RunRole.Head.Name()})
                ORDER BY q.run_id
                LIMIT {maxRuns}
                FOR UPDATE OF q SKIP LOCKED
                """
            )
            .ToListAsync(ct);

    /// <summary>Claims one given run unless another consumer holds it, it is parked, or it is analysed
    /// already.</summary>
    public async Task<IReadOnlyList<ClaimedRun>> ClaimOneAsync(long runId, CancellationToken ct) =>
        await db
            .Database.SqlQuery<ClaimedRun>(
                $"""
                SELECT run_id, trace_parent FROM analysis_queue WHERE run_id = {runId} AND parked_at IS NULL FOR UPDATE SKIP LOCKED
                """
            )
            .ToListAsync(ct);

    /// <summary>Claims the next batch and analyses it; empty when nothing is waiting. <paramref name="claimed"/> sees
    /// the runs as soon as they are claimed, so the caller knows them when the analysis fails.</summary>
    public Task<IReadOnlyList<RunAnalysed>> AnalyseNextAsync(
        int maxRuns,
        Action<IReadOnlyList<ClaimedRun>> claimed,
        CancellationToken ct
    ) => AnalyseAsync(ct => ClaimAsync(maxRuns, ct), claimed, ct);

    /// <summary>Analyses one run alone; empty when it is no longer waiting or another consumer holds it.</summary>
    public Task<IReadOnlyList<RunAnalysed>> AnalyseOneAsync(long runId, CancellationToken ct) =>
        AnalyseAsync(ct => ClaimOneAsync(runId, ct), _ => { }, ct);

    private async Task<IReadOnlyList<RunAnalysed>> AnalyseAsync(
        Func<CancellationToken, Task<IReadOnlyList<ClaimedRun>>> claim,
        Action<IReadOnlyList<ClaimedRun>> claimed,
        CancellationToken ct
    )
    {
        var started = Stopwatch.GetTimestamp();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var runs = await claim(ct);
        if (runs.Count == 0)
        {
            await tx.CommitAsync(ct);
            return [];
        }
        claimed(runs);
        using var activity = PerfTelemetry.StartAnalysis([.. runs.Select(r => (r.RunId, r.TraceParent))]);
        var batch = runs.Select(r => r.RunId).ToArray();
        var (analysed, bisecting, read, updated) = await AnalyseRunsAsync(batch, started, ct);
        var committing = Stopwatch.GetTimestamp();
        var now = time.GetUtcNow();
        await db
            .Runs.Where(r => batch.Contains(r.Id) && r.AnalysedAt == null)
            .ExecuteUpdateAsync(s => s.SetProperty(r => r.AnalysedAt, now), ct);
        await db.AnalysisQueue.Where(q => batch.Contains(q.RunId)).ExecuteDeleteAsync(ct);
        await tx.CommitAsync(ct);
        Times = new BatchTimes(read, updated, changePoints.DetectorTime, Stopwatch.GetElapsedTime(committing));
        if (bisecting)
            await jobQueue.NotifyAsync(ct);
        return analysed;
    }

    /// <returns>What was analysed, whether bisection queued a job, the time from <paramref name="started"/> until the
    /// runs were read and judged, and the time the change-point series took after that.</returns>
    private async Task<(List<RunAnalysed> Analysed, bool Bisecting, TimeSpan Read, TimeSpan Updated)> AnalyseRunsAsync(
        long[] runIds,
        long started,
        CancellationToken ct
    )
    {
        var runs = await db.Runs.AsNoTracking().Where(r => runIds.Contains(r.Id)).OrderBy(r => r.Id).ToListAsync(ct);
        var projectIds = runs.Select(r => r.ProjectId).Distinct().ToList();
        var projects = await db
            .Projects.AsNoTracking()
            .Where(p => projectIds.Contains(p.Id))
            .ToDictionaryAsync(p => p.Id, ct);
        var profileIds = runs.Select(r => r.ProfileId).Distinct().ToList();
        var profiles = await db
            .Profiles.AsNoTracking()
            .Where(p => profileIds.Contains(p.Id))
            .ToDictionaryAsync(p => p.Id, p => p.Name, ct);
        var branchIds = runs.Where(r => r.BranchId != null).Select(r => r.BranchId!.Value).Distinct().ToList();
        var defaultBranches = await db
            .Branches.AsNoTracking()
            .Where(b => branchIds.Contains(b.Id) && b.Project!.DefaultBranch == b.Name)
            .Select(b => b.Id)
            .ToListAsync(ct);
        // Whole results only where targets are judged (a target's confidence uses their samples, its patterns their
        // names): change points take ids.
        var judged = await targets.RunsWithTargetsAsync(runs, ct);
        var results = (judged.Count == 0 ? [] : await RunResults.LoadAsync(db, [.. judged], ct)).ToLookup(r => r.RunId);
        var runPoints = await reader.ReadRunPointsAsync(runIds, ct);

        var analysed = new List<RunAnalysed>(runs.Count);
        // Per profile × branch, each series once (the runs of a batch share most of theirs) and every point arriving.
        var updates = new SortedDictionary<(long ProfileId, long BranchId), Update>();
        foreach (var run in runs)
        {
            var project = projects[run.ProjectId];
            var profile = profiles[run.ProfileId];
            // Most runs have no target: asking again per run was a query each.
            if (judged.Contains(run.Id))
                await targets.CheckAsync(run, profile, results[run.Id].ToList(), ct);

            var onDefaultBranch =
                run.BranchId is { } branchId
                && run.Role == RunRole.Head
                && run.PullRequest is null
                && defaultBranches.Contains(branchId);
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
            // A disturbed round on a profile where disturbance is the exception (decided at ingest, see
            // DisturbedRounds.LeaveOutOfSeries) would read as a step: it stays out, like the series reads leave it out.
            if (run.Disturbed)
            {
                logger.LogInformation("Run {RunId} was disturbed: left out of change-point detection", run.Id);
                analysed.Add(new RunAnalysed(run.Id, run.CreatedAt, 0, "disturbed"));
                continue;
            }
            // Every result the series reads hold (a value), so that what arrives and what is read agree.
            var points = runPoints.GetValueOrDefault(run.Id) ?? [];
            var key = (run.ProfileId, run.BranchId!.Value);
            if (!updates.TryGetValue(key, out var update))
                updates[key] = update = new Update([], []);
            foreach (var r in points)
            {
                if (!update.Series.ContainsKey((r.BenchmarkId, r.MeasureId)))
                    update.Series[(r.BenchmarkId, r.MeasureId)] = new ChangePointUpdater.SeriesId(
                        project.Id,
                        r.BenchmarkId,
                        r.MeasureId,
                        run.ProfileId,
                        run.BranchId!.Value,
                        r.LowerIsBetter,
                        profile
                    );
                // A run analysed before (queued again by a retried post) brings nothing new: its points were fed then.
                if (run.AnalysedAt is null)
                    update.Arriving.Add(new ChangePointUpdater.Arrival(r.BenchmarkId, r.MeasureId, run.Id, r.ResultId));
            }
            analysed.Add(new RunAnalysed(run.Id, run.CreatedAt, points.Count, "analysed"));
        }

        // One update per project × profile × branch, in a fixed order (with the updater's (benchmark, measure) order
        // inside), so concurrent batches lock series states in the same global order and never deadlock.
        var read = Stopwatch.GetElapsedTime(started);
        var updating = Stopwatch.GetTimestamp();
        var bisecting = false;
        foreach (var update in updates.Values.Where(u => u.Series.Count > 0))
            bisecting |= await changePoints.UpdateInTransactionAsync([.. update.Series.Values], update.Arriving, ct);
        return (analysed, bisecting, read, Stopwatch.GetElapsedTime(updating));
    }

    /// <summary>One profile × branch's series of a batch, and the points its runs bring them.</summary>
    private sealed record Update(
        Dictionary<(long, long), ChangePointUpdater.SeriesId> Series,
        List<ChangePointUpdater.Arrival> Arriving
    );
}
