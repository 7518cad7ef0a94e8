using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.Alerts;
using PerfService.Data;

namespace PerfService.PullRequests;

/// <summary>
/// Re-publishes a pull request's comment and status when its verdicts change, and when someone triages one of its
/// alerts (acknowledging a regression turns the check green). Projects not connected to GitHub are skipped.
/// </summary>
public sealed class PublishOnChange(PerfDbContext db, IBackgroundJobClient jobs) : IPullRequestListener, IAlertStateListener
{
    public async Task OnPullRequestChangedAsync(long projectId, int pullRequest, CancellationToken ct)
    {
        if (await db.Projects.AnyAsync(p => p.Id == projectId && p.GitHubRepository != null, ct))
            PullRequestPublishJob.Enqueue(jobs, projectId, pullRequest);
    }

    public Task OnAlertChangedAsync(long alertId, CancellationToken ct) => OnAlertsChangedAsync([alertId], ct);

    /// <summary>A group's triage changes many alerts of one pull request: it is published once.</summary>
    public async Task OnAlertsChangedAsync(IReadOnlyList<long> alertIds, CancellationToken ct)
    {
        var keys = await db.Alerts.AsNoTracking().Where(a => alertIds.Contains(a.Id)).Select(a => new { a.ProjectId, a.GroupKey }).Distinct().ToListAsync(ct);
        // Pull-request alerts are grouped as "pr:{number}:{head}".
        foreach (var pull in keys.Select(k => k.GroupKey.Split(':') is ["pr", var number, _] && int.TryParse(number, out var pr) ? (k.ProjectId, pr) : default)
                     .Where(p => p != default).Distinct())
            await OnPullRequestChangedAsync(pull.ProjectId, pull.pr, ct);
    }
}
