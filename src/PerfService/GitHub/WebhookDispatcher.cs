using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Bisection;
using PerfService.Core.Contracts;
using PerfService.Core.Reports;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.PullRequests;

namespace PerfService.GitHub;

public sealed record WebhookReply(string Message, int Jobs = 0);

/// <summary>What a verified, first-seen delivery means for PerfService: jobs to queue or cancel.</summary>
public sealed class WebhookDispatcher(PerfDbContext db, JobScheduler scheduler, DefaultBranchCommits commits, IBackgroundJobClient background,
    PullRequestHeads heads, PullRequestApprovals approvals, Npgsql.NpgsqlDataSource dataSource, GitHubInteractions interactions,
    ILogger<WebhookDispatcher> logger)
{
    public async Task<WebhookReply> HandleAsync(string eventName, byte[] body, CancellationToken ct) => eventName switch
    {
        "pull_request" => await PullRequestAsync(WebhookJson.Parse<PullRequestEvent>(body), ct),
        "push" => await PushAsync(WebhookJson.Parse<PushEvent>(body), ct),
        "check_run" => await interactions.CheckRunAsync(WebhookJson.Parse<CheckRunEvent>(body), ct),
        "check_suite" => await interactions.CheckSuiteAsync(WebhookJson.Parse<CheckSuiteEvent>(body), ct),
        "issue_comment" => await interactions.IssueCommentAsync(WebhookJson.Parse<IssueCommentEvent>(body), ct),
        _ => new WebhookReply($"event '{eventName}' ignored"),
    };

    private async Task<WebhookReply> PullRequestAsync(PullRequestEvent e, CancellationToken ct)
    {
        var projects = await ProjectsForAsync(e.Repository.FullName, ct);
        if (projects.Count == 0) return NotConnected(e.Repository.FullName);
        if (e.Action is not ("opened" or "synchronize" or "reopened" or "labeled" or "closed"))
            return new WebhookReply($"pull_request action '{e.Action}' ignored");
        RequireSha(e.PullRequest.Head.Sha, "pull_request.head.sha");
        RequireSha(e.PullRequest.Base.Sha, "pull_request.base.sha");

        var queued = 0;
        var notes = new List<string>();
        foreach (var project in projects)
        {
            // One event of a pull request at a time, from the head record to the queued jobs: two pushes handled at once
            // could otherwise queue the newer and then let the older cancel it.
            await using var _ = await PullRequestLock.AcquireAsync(dataSource, project.Id, e.Number, ct, purpose: "events");
            // Every event passes the head record first: one older than what is known acts on nothing.
            var head = await heads.RecordAsync(project.Id, e, ct);
            if (!head.Fresh)
            {
                logger.LogInformation("Stale {Action} event of {Repository}#{Number} (head {Head}, newest known {Known}) ignored",
                    e.Action, e.Repository.FullName, e.Number, e.PullRequest.Head.Sha, head.HeadCommit);
                notes.Add($"{project.Slug}: stale event ignored, the pull request's head is {head.HeadCommit[..10]}");
                continue;
            }
            switch (e.Action)
            {
                case "closed":
                    var cancelled = await scheduler.CancelPullRequestAsync(project.Id, e.Number, "pull request closed", ct);
                    notes.Add($"{project.Slug}: cancelled {cancelled} jobs");
                    break;
                case "labeled":
                    if (project.PullRequestPolicy == PullRequestPolicy.None || !string.Equals(e.Label?.Name, project.ApprovalLabel, StringComparison.OrdinalIgnoreCase))
                    {
                        notes.Add($"{project.Slug}: label ignored");
                        break;
                    }
                    // GitHub lets only people with triage access or more label a pull request: the label is their approval.
                    var released = await approvals.ApproveAsync(project.Id, e.Number, head.HeadCommit, $"github:{e.Sender?.Login ?? "?"}", "label", ct);
                    queued += released;
                    notes.Add($"{project.Slug}: approved {head.HeadCommit[..10]}, queued {released} jobs");
                    break;
                default:
                    queued += await QueueHeadAsync(project, e, head, notes, ct);
                    break;
            }
        }
        logger.LogInformation("Pull request {Repository}#{Number} {Action}: {Notes}", e.Repository.FullName, e.Number, e.Action, string.Join("; ", notes));
        return new WebhookReply($"pull request #{e.Number} {e.Action}: {string.Join("; ", notes)}", queued);
    }

    /// <summary>Opened, reopened or pushed: the project's policy decides whether the head runs, waits or is left alone.</summary>
    private async Task<int> QueueHeadAsync(Project project, PullRequestEvent e, HeadState head, List<string> notes, CancellationToken ct)
    {
        if (project.PullRequestPolicy == PullRequestPolicy.None)
        {
            PullRequestNoticeJob.Enqueue(background, project.Id, head.HeadCommit, CommitStatusSummary.NotBenchmarked);
            notes.Add($"{project.Slug}: pull requests are not benchmarked (policy none)");
            return 0;
        }
        var hold = project.PullRequestPolicy == PullRequestPolicy.Members && !head.Trusted;
        // The scheduler queues one job per profile and cancels what older pushes of this pull request left.
        var jobs = await scheduler.EnqueueAsync(new JobRequest(project.Slug, head.HeadCommit,
            BaseCommit: e.PullRequest.Base.Sha, Branch: e.PullRequest.Head.Ref, PullRequest: e.Number), ct, awaitApproval: hold);
        // Publishing sets the pending status: the profiles still running, or the approval it waits for.
        PullRequestPublishJob.Enqueue(background, project.Id, e.Number);
        var waiting = jobs.Count(j => j.State == JobState.AwaitingApproval);
        notes.Add(waiting > 0 ? $"{project.Slug}: {waiting} jobs await a maintainer's approval" : $"{project.Slug}: queued {jobs.Count} jobs");
        return jobs.Count - waiting;
    }

    private async Task<WebhookReply> PushAsync(PushEvent e, CancellationToken ct)
    {
        var projects = await ProjectsForAsync(e.Repository.FullName, ct);
        if (projects.Count == 0) return NotConnected(e.Repository.FullName);
        if (e.Deleted || e.After.All(c => c == '0')) return new WebhookReply($"deletion of {e.Ref} ignored");

        // The project's configured default branch decides what a baseline is, not the repository's.
        var onDefault = projects.Where(p => e.Ref == "refs/heads/" + p.DefaultBranch).ToList();
        if (onDefault.Count == 0) return new WebhookReply($"push to {e.Ref} is not to a default branch; ignored");
        RequireSha(e.After, "after");
        // Ids that are not commit ids are left out: they could never be checked out for bisection.
        var pushed = (e.Commits ?? []).Where(c => CommitId.IsFull(c.Id)).ToList();
        var queued = 0;
        foreach (var project in onDefault)
        {
            await commits.RecordAsync(project.Id, pushed, ct);
            queued += (await scheduler.EnqueueAsync(new JobRequest(project.Slug, e.After, Branch: project.DefaultBranch), ct)).Count;
        }
        logger.LogInformation("Push to {Repository} {Ref}: queued {Jobs} baseline jobs", e.Repository.FullName, e.Ref, queued);
        return new WebhookReply($"queued {queued} baseline jobs for {CommitId.Short(e.After)}", queued);
    }

    // A repository may back several projects (a monorepo with one project per suite); each gets its own jobs and comment.
    private Task<List<Project>> ProjectsForAsync(string fullName, CancellationToken ct)
    {
        var name = fullName.ToLowerInvariant();
        return db.Projects.AsNoTracking().Where(p => p.GitHubRepository != null && p.GitHubRepository.ToLower() == name)
            .OrderBy(p => p.Id).ToListAsync(ct);
    }

    private static WebhookReply NotConnected(string repository) =>
        new($"repository '{repository}' is not connected to a PerfService project");

    // GitHub always sends full ids; anything else is not GitHub's and must not reach an agent's git.
    private static void RequireSha(string sha, string field)
    {
        if (!CommitId.IsFull(sha)) throw new WebhookPayloadException($"{field} {CommitId.FullRule}", field);
    }
}

public sealed class WebhookPayloadException(string message, string? field = null) : Exception(message)
{
    public string? Field { get; } = field;
}
