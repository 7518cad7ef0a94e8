using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using PerfService.Core.Contracts;
using PerfService.Core.Disturbances;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.PullRequests;

/// <summary>Reads the disturbance the agents stored with a pull request's runs and applies <see
/// cref="DisturbedRounds"/>:
/// the comparison to leave rounds out, the report to say what was left out or kept.</summary>
public static class PullRequestDisturbance
{
    public static DisturbedChoice Choose(IEnumerable<(long RunId, RunRole Role, string? Disturbance)> runs) =>
        DisturbedRounds.Choose(runs.Select(r => new RoundRun(r.RunId, r.Role, Read(r.Disturbance))).ToList());

    public static Disturbance? Read(string? json) =>
        json is null ? null : JsonSerializer.Deserialize<Disturbance>(json, JsonSerializerOptions.Web);

    /// <summary>Per profile, what its judged job's rounds (with the earlier attempts at the same head it pooled) say
    /// about
    /// disturbance; profiles without a disturbed round are left out.</summary>
    public static async Task<IReadOnlyList<Core.Reports.ReportDisturbance>> ReadAsync(
        PerfDbContext db,
        IReadOnlyList<Job> jobs,
        IReadOnlyList<long> judged,
        IReadOnlyDictionary<long, string> profiles,
        CancellationToken ct
    )
    {
        // As PullRequestComparisonJob pools them: the judged job and the earlier finished attempts at its head and
        // base.
        static bool Pools(Job kind) => kind.Kind is JobKind.PullRequest or JobKind.Rerun;
        var pooled = judged
            .Select(id => jobs.First(j => j.Id == id))
            .SelectMany(last =>
                Pools(last)
                    ? jobs.Where(j =>
                        Pools(j)
                        && j.ProfileId == last.ProfileId
                        && j.Commit == last.Commit
                        && j.BaseCommit == last.BaseCommit
                        && (j.Id == last.Id || (j.Id < last.Id && j.State == JobState.Succeeded))
                    )
                    : [last]
            )
            .Select(j => j.Id)
            .ToList();
        var runs = await db
            .Runs.AsNoTracking()
            .Where(r => r.JobId != null && pooled.Contains(r.JobId.Value))
            .Select(r => new
            {
                r.Id,
                r.Role,
                r.Disturbance,
                r.ProfileId,
            })
            .ToListAsync(ct);
        return runs.GroupBy(r => r.ProfileId)
            .Select(g => (Profile: profiles[g.Key], Said: Choose(g.Select(r => (r.Id, r.Role, r.Disturbance))).Say()))
            .Where(x => x.Said is not null)
            .OrderBy(x => x.Profile)
            .Select(x => new Core.Reports.ReportDisturbance(x.Profile, x.Said!))
            .ToList();
    }
}
