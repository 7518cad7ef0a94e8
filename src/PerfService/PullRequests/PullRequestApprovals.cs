using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Data;

namespace PerfService.PullRequests;

/// <summary>
/// A maintainer's approval of one head commit of an outside contributor's pull request: recorded (who, how, when),
/// then that head's waiting jobs go to the queue and the status is published again. An approval recorded before the
/// jobs exist (a label event that overtook the push) lets them queue at once when they come.
/// </summary>
public sealed class PullRequestApprovals(
    PerfDbContext db,
    JobScheduler scheduler,
    IBackgroundJobClient background,
    ILogger<PullRequestApprovals> logger
)
{
    public async Task<int> ApproveAsync(
        long projectId,
        int pullRequest,
        string headCommit,
        string approvedBy,
        string source,
        CancellationToken ct
    )
    {
        var head = headCommit.ToLowerInvariant();
        await db.Database.ExecuteSqlAsync(
            $"""
            INSERT INTO pull_request_approvals (project_id, pull_request, head_commit, approved_by, source, approved_at)
            VALUES ({projectId}, {pullRequest}, {head}, {approvedBy}, {source}, now())
            ON CONFLICT (project_id, pull_request, head_commit) DO NOTHING
            """,
            ct
        );
        var released = await scheduler.ReleaseAsync(projectId, pullRequest, head, ct);
        logger.LogInformation(
            "Pull request #{Number} head {Head} approved by {ApprovedBy} ({Source}): {Jobs} jobs queued",
            pullRequest,
            head,
            approvedBy,
            source,
            released
        );
        if (released > 0)
            PullRequestPublishJob.Enqueue(background, projectId, pullRequest);
        return released;
    }
}
