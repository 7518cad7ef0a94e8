using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Bisection;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.PullRequests;

namespace PerfService.GitHub;

public sealed record WebhookReply(string Message, int Jobs = 0);

/// <summary>
/// What a verified, first-seen delivery means for PerfService: a pull request's event goes to the pull-request feature
/// (<see cref="PullRequestEvents"/>), a push to the default branch queues baseline jobs, checks and comments are
/// interactions.
/// </summary>
public sealed class WebhookDispatcher(
    PerfDbContext db,
    JobScheduler scheduler,
    DefaultBranchCommits commits,
    PullRequestEvents pullRequests,
    GitHubInteractions interactions,
    ILogger<WebhookDispatcher> logger
)
{
    public async Task<WebhookReply> HandleAsync(string eventName, byte[] body, CancellationToken ct) =>
        eventName switch
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
        if (projects.Count == 0)
            return NotConnected(e.Repository.FullName);
        if (e.Action is not ("opened" or "synchronize" or "reopened" or "labeled" or "closed"))
            return new WebhookReply($"pull_request action '{e.Action}' ignored");
        RequireSha(e.PullRequest.Head.Sha, "pull_request.head.sha");
        RequireSha(e.PullRequest.Base.Sha, "pull_request.base.sha");
        return await pullRequests.HandleAsync(e, projects, ct);
    }

    private async Task<WebhookReply> PushAsync(PushEvent e, CancellationToken ct)
    {
        var projects = await ProjectsForAsync(e.Repository.FullName, ct);
        if (projects.Count == 0)
            return NotConnected(e.Repository.FullName);
        if (e.Deleted || e.After.All(c => c == '0'))
            return new WebhookReply($"deletion of {e.Ref} ignored");

        // The project's configured default branch decides what a baseline is, not the repository's.
        var onDefault = projects.Where(p => e.Ref == "refs/heads/" + p.DefaultBranch).ToList();
        if (onDefault.Count == 0)
            return new WebhookReply($"push to {e.Ref} is not to a default branch; ignored");
        RequireSha(e.After, "after");
        // Ids that are not commit ids are left out: they could never be checked out for bisection.
        var pushed = (e.Commits ?? []).Where(c => CommitId.IsFull(c.Id)).ToList();
        var queued = 0;
        foreach (var project in onDefault)
        {
            await commits.RecordAsync(project.Id, pushed, ct);
            queued += (
                await scheduler.EnqueueAsync(new JobRequest(project.Slug, e.After, Branch: project.DefaultBranch), ct)
            ).Count;
        }
        logger.LogInformation(
            "Push to {Repository} {Ref}: queued {Jobs} baseline jobs",
            e.Repository.FullName,
            e.Ref,
            queued
        );
        return new WebhookReply($"queued {queued} baseline jobs for {CommitId.Short(e.After)}", queued);
    }

    // A repository may back several projects (a monorepo with one project per suite); each gets its own jobs and
    // comment.
    private Task<List<Project>> ProjectsForAsync(string fullName, CancellationToken ct)
    {
        var name = fullName.ToLowerInvariant();
        return db
            .Projects.AsNoTracking()
            .Where(p => p.GitHubRepository != null && p.GitHubRepository.ToLower() == name)
            .OrderBy(p => p.Id)
            .ToListAsync(ct);
    }

    private static WebhookReply NotConnected(string repository) =>
        new($"repository '{repository}' is not connected to a PerfService project");

    // GitHub always sends full ids; anything else is not GitHub's and must not reach an agent's git.
    private static void RequireSha(string sha, string field)
    {
        if (!CommitId.IsFull(sha))
            throw new WebhookPayloadException($"{field} {CommitId.FullRule}", field);
    }
}

public sealed class WebhookPayloadException(string message, string? field = null) : Exception(message)
{
    public string? Field { get; } = field;
}
