using Hangfire;
using PerfService.AgentJobs;
using PerfService.Core.Reports;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.GitHub;

namespace PerfService.PullRequests;

/// <summary>
/// A pull request's event from GitHub, after the transport verified and parsed it: the head is recorded (a stale event
/// acts on nothing), then the project's policy and the head's trust decide whether jobs run, wait for approval or are
/// cancelled.
/// </summary>
public sealed class PullRequestEvents(
    JobScheduler scheduler,
    IBackgroundJobClient background,
    PullRequestHeads heads,
    PullRequestApprovals approvals,
    PerfDbContext db,
    ILogger<PullRequestEvents> logger
)
{
    /// <summary>An opened, synchronize, reopened, labeled or closed event, for each project on its
    /// repository.</summary>
    public async Task<WebhookReply> HandleAsync(
        PullRequestEvent e,
        IReadOnlyList<Project> projects,
        CancellationToken ct
    )
    {
        var queued = 0;
        var notes = new List<string>();
        foreach (var project in projects)
        {
            // One event of a pull request at a time, from the head record to the queued jobs: two pushes handled at
            // once
            // could otherwise queue the newer and then let the older cancel it.
            await using var _ = await PullRequestLock.AcquireAsync(db, project.Id, e.Number, ct, purpose: "events");
            // Every event passes the head record first: one older than what is known acts on nothing.
            var head = await heads.RecordAsync(project.Id, e, ct);
            if (!head.Fresh)
            {
                logger.LogInformation(
                    "Stale {Action} event of {Repository}#{Number} (head {Head}, newest known {Known}) ignored",
                    e.Action,
                    e.Repository.FullName,
                    e.Number,
                    e.PullRequest.Head.Sha,
                    head.HeadCommit
                );
                notes.Add($"{project.Slug}: stale event ignored, the pull request's head is {head.HeadCommit[..10]}");
                continue;
            }
            switch (e.Action)
            {
                case "closed":
                    var cancelled = await scheduler.CancelPullRequestAsync(
                        project.Id,
                        e.Number,
                        "pull request closed",
                        ct
                    );
                    notes.Add($"{project.Slug}: cancelled {cancelled} jobs");
                    break;
                case "labeled":
                    if (
                        project.PullRequestPolicy == PullRequestPolicy.None
                        || !string.Equals(e.Label?.Name, project.ApprovalLabel, StringComparison.OrdinalIgnoreCase)
                    )
                    {
                        notes.Add($"{project.Slug}: label ignored");
                        break;
                    }
                    // GitHub lets only people with triage access or more label a pull request: the label is their
                    // approval.
                    var released = await approvals.ApproveAsync(
                        project.Id,
                        e.Number,
                        head.HeadCommit,
                        $"github:{e.Sender?.Login ?? "?"}",
                        "label",
                        ct
                    );
                    queued += released;
                    notes.Add($"{project.Slug}: approved {head.HeadCommit[..10]}, queued {released} jobs");
                    break;
                default:
                    queued += await QueueHeadAsync(project, e, head, notes, ct);
                    break;
            }
        }
        logger.LogInformation(
            "Pull request {Repository}#{Number} {Action}: {Notes}",
            e.Repository.FullName,
            e.Number,
            e.Action,
            string.Join("; ", notes)
        );
        return new WebhookReply($"pull request #{e.Number} {e.Action}: {string.Join("; ", notes)}", queued);
    }

    /// <summary>Opened, reopened or pushed: the project's policy decides whether the head runs, waits or is left
    /// alone.</summary>
    private async Task<int> QueueHeadAsync(
        Project project,
        PullRequestEvent e,
        HeadState head,
        List<string> notes,
        CancellationToken ct
    )
    {
        if (project.PullRequestPolicy == PullRequestPolicy.None)
        {
            PullRequestNoticeJob.Enqueue(background, project.Id, head.HeadCommit, CommitStatusSummary.NotBenchmarked);
            notes.Add($"{project.Slug}: pull requests are not benchmarked (policy none)");
            return 0;
        }
        var hold = project.PullRequestPolicy == PullRequestPolicy.Members && !head.Trusted;
        // The scheduler queues one job per profile and cancels what older pushes of this pull request left.
        var jobs = await scheduler.EnqueueAsync(
            new JobRequest(
                project.Slug,
                head.HeadCommit,
                BaseCommit: e.PullRequest.Base.Sha,
                Branch: e.PullRequest.Head.Ref,
                PullRequest: e.Number
            ),
            ct,
            awaitApproval: hold
        );
        // Publishing sets the pending status: the profiles still running, or the approval it waits for.
        PullRequestPublishJob.Enqueue(background, project.Id, e.Number);
        var waiting = jobs.Count(j => j.State == JobState.AwaitingApproval);
        notes.Add(
            waiting > 0
                ? $"{project.Slug}: {waiting} jobs await a maintainer's approval"
                : $"{project.Slug}: queued {jobs.Count} jobs"
        );
        return jobs.Count - waiting;
    }
}
