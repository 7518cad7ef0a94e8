using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.Alerts;
using PerfService.Data;

namespace PerfService.PullRequests;

/// <summary>
/// Re-publishes a pull request's comment and status when someone triages one of its alerts (acknowledging a regression
/// turns the check green). A group's triage changes many alerts of one pull request: it is published once. Projects
/// not connected to GitHub are skipped.
/// </summary>
public sealed class RepublishOnTriage(PerfDbContext db, IBackgroundJobClient jobs) : ITriageFollowUp
{
    public async Task AfterTriageAsync(IReadOnlyList<long> alertIds, CancellationToken ct)
    {
        var keys = await db
            .Alerts.AsNoTracking()
            .Where(a => alertIds.Contains(a.Id) && a.Project!.GitHubRepository != null)
            .Select(a => new { a.ProjectId, a.GroupKey })
            .Distinct()
            .ToListAsync(ct);
        foreach (
            var pull in keys.Select(k => (k.ProjectId, PullRequest: AlertGroupKey.PullRequestOf(k.GroupKey)))
                .Where(p => p.PullRequest is not null)
                .Distinct()
        )
            PullRequestPublishJob.Enqueue(jobs, pull.ProjectId, pull.PullRequest!.Value);
    }
}
