using Microsoft.EntityFrameworkCore;
using PerfService.Core.Contracts;
using PerfService.Core.Reports;
using PerfService.Data;

namespace PerfService.PullRequests;

/// <summary>
/// What the report shows of a regression beyond its figures: the series' recent points on the default branch and each
/// round's value on both sides. Bounded (<see cref="MaxRows"/> regressions, <see cref="MaxPoints"/> points each) so a
/// pull request with thousands of benchmarks costs a few small indexed reads.
/// </summary>
internal static class PullRequestHistory
{
    public const int MaxRows = 20;
    public const int MaxPoints = 30;

    public readonly record struct SeriesKey(long BenchmarkId, long MeasureId, long ProfileId);

    public sealed record Figures(
        IReadOnlyList<HistoryPoint> History,
        IReadOnlyList<double> BaseRounds,
        IReadOnlyList<double> HeadRounds
    );

    /// <summary>The largest regressions' figures, by series.</summary>
    public static async Task<Dictionary<SeriesKey, Figures>> ReadAsync(
        PerfDbContext db,
        long projectId,
        string defaultBranch,
        IReadOnlyList<(SeriesKey Key, double Change)> regressions,
        IReadOnlyList<long> jobIds,
        CancellationToken ct
    )
    {
        var keys = regressions.OrderByDescending(r => Math.Abs(r.Change)).Take(MaxRows).Select(r => r.Key).ToList();
        var figures = new Dictionary<SeriesKey, Figures>();
        if (keys.Count == 0)
            return figures;
        var branchId = await db
            .Branches.Where(b => b.ProjectId == projectId && b.Name == defaultBranch)
            .Select(b => (long?)b.Id)
            .FirstOrDefaultAsync(ct);

        var benchmarkIds = keys.Select(k => k.BenchmarkId).Distinct().ToList();
        var rounds = await (
            from r in db.Results.AsNoTracking()
            join run in db.Runs on r.RunId equals run.Id
            where
                run.JobId != null
                && jobIds.Contains(run.JobId.Value)
                && benchmarkIds.Contains(r.BenchmarkId)
                && r.Value != null
            orderby run.Round, run.Id
            select new
            {
                r.BenchmarkId,
                r.MeasureId,
                r.ProfileId,
                run.Role,
                Value = r.Value!.Value,
            }
        ).ToListAsync(ct);

        foreach (var key in keys)
        {
            var history = new List<HistoryPoint>();
            if (branchId is { } branch)
            {
                // Main's own runs only (no pull request's), newest first from the series index, then oldest first.
                var points = await (
                    from r in db.Results.AsNoTracking()
                    join run in db.Runs on r.RunId equals run.Id
                    join c in db.Commits on run.CommitId equals c.Id
                    where
                        r.BenchmarkId == key.BenchmarkId
                        && r.MeasureId == key.MeasureId
                        && r.ProfileId == key.ProfileId
                        && r.BranchId == branch
                        && r.Value != null
                        && run.PullRequest == null
                        && run.Role == RunRole.Head
                    orderby r.SeriesAt descending, r.RunId descending
                    select new HistoryPoint(c.Sha, r.SeriesAt, r.Value!.Value)
                )
                    .Take(MaxPoints)
                    .ToListAsync(ct);
                points.Reverse();
                history = points;
            }
            var mine = rounds
                .Where(r =>
                    r.BenchmarkId == key.BenchmarkId && r.MeasureId == key.MeasureId && r.ProfileId == key.ProfileId
                )
                .ToList();
            figures[key] = new Figures(
                history,
                mine.Where(r => r.Role == RunRole.Base).Select(r => r.Value).ToList(),
                mine.Where(r => r.Role == RunRole.Head).Select(r => r.Value).ToList()
            );
        }
        return figures;
    }
}
