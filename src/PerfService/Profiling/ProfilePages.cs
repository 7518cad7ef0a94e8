using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Profiling;

/// <summary>Where a benchmark's differential flame graph is: the page the pull request's report and comment link
/// to.</summary>
public static class ProfilePages
{
    public static string Path(long jobId, string benchmark) =>
        $"profile.html?job={jobId}&benchmark={Uri.EscapeDataString(benchmark)}";

    /// <summary>Per (hardware profile id, benchmark key), the newest profiling job of the pull request's head that
    /// recorded a profile of it.</summary>
    public static async Task<Dictionary<(long ProfileId, string Benchmark), string>> OfPullRequestAsync(
        PerfDbContext db,
        long projectId,
        int pullRequest,
        string head,
        CancellationToken ct
    )
    {
        var rows = await db
            .CpuProfiles.AsNoTracking()
            .Where(p =>
                p.ProjectId == projectId
                && p.Job!.PullRequest == pullRequest
                && p.Job.Commit == head
                && p.Job.Kind == JobKind.Profile
            )
            .GroupBy(p => new { p.ProfileId, p.Benchmark })
            .Select(g => new
            {
                g.Key.ProfileId,
                g.Key.Benchmark,
                JobId = g.Max(p => p.JobId),
            })
            .ToListAsync(ct);
        return rows.ToDictionary(r => (r.ProfileId, r.Benchmark), r => Path(r.JobId, r.Benchmark));
    }
}
