using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.Comparison;
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

    public async Task OnAlertChangedAsync(long alertId, CancellationToken ct)
    {
        var alert = await db.Alerts.AsNoTracking().Where(a => a.Id == alertId).Select(a => new { a.ProjectId, a.GroupKey }).FirstOrDefaultAsync(ct);
        // Pull-request alerts are grouped as "pr:{number}:{head}".
        if (alert?.GroupKey.Split(':') is ["pr", var number, _] && int.TryParse(number, out var pr))
            await OnPullRequestChangedAsync(alert.ProjectId, pr, ct);
    }
}
