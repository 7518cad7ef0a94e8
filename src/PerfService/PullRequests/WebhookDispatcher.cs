using System.Text.RegularExpressions;
using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Bisection;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.PullRequests;

public sealed record WebhookReply(string Message, int Jobs = 0);

/// <summary>What a verified, first-seen delivery means for PerfService: jobs to queue or cancel.</summary>
public sealed partial class WebhookDispatcher(PerfDbContext db, JobScheduler scheduler, DefaultBranchCommits commits, IBackgroundJobClient background,
    ILogger<WebhookDispatcher> logger)
{
    public async Task<WebhookReply> HandleAsync(string eventName, byte[] body, CancellationToken ct) => eventName switch
    {
        "pull_request" => await PullRequestAsync(WebhookJson.Parse<PullRequestEvent>(body), ct),
        "push" => await PushAsync(WebhookJson.Parse<PushEvent>(body), ct),
        _ => new WebhookReply($"event '{eventName}' ignored"),
    };

    private async Task<WebhookReply> PullRequestAsync(PullRequestEvent e, CancellationToken ct)
    {
        var projects = await ProjectsForAsync(e.Repository.FullName, ct);
        if (projects.Count == 0) return NotConnected(e.Repository.FullName);
        switch (e.Action)
        {
            case "opened" or "synchronize" or "reopened":
                RequireSha(e.PullRequest.Head.Sha);
                RequireSha(e.PullRequest.Base.Sha);
                var queued = 0;
                foreach (var project in projects)
                {
                    // The scheduler queues one job per profile and cancels what older pushes of this pull request left.
                    var jobs = await scheduler.EnqueueAsync(new JobRequest(project.Slug, e.PullRequest.Head.Sha,
                        BaseCommit: e.PullRequest.Base.Sha, Branch: e.PullRequest.Head.Ref, PullRequest: e.Number), ct);
                    queued += jobs.Count;
                    // Publishing sets the pending status: the report lists the profiles still running.
                    PullRequestPublishJob.Enqueue(background, project.Id, e.Number);
                }
                logger.LogInformation("Pull request {Repository}#{Number} {Action}: queued {Jobs} jobs", e.Repository.FullName, e.Number, e.Action, queued);
                return new WebhookReply($"queued {queued} jobs for pull request #{e.Number}", queued);
            case "closed":
                var cancelled = 0;
                foreach (var project in projects)
                    cancelled += await scheduler.CancelPullRequestAsync(project.Id, e.Number, "pull request closed", ct);
                return new WebhookReply($"cancelled {cancelled} jobs of pull request #{e.Number}");
            default:
                return new WebhookReply($"pull_request action '{e.Action}' ignored");
        }
    }

    private async Task<WebhookReply> PushAsync(PushEvent e, CancellationToken ct)
    {
        var projects = await ProjectsForAsync(e.Repository.FullName, ct);
        if (projects.Count == 0) return NotConnected(e.Repository.FullName);
        if (e.Deleted || e.After.All(c => c == '0')) return new WebhookReply($"deletion of {e.Ref} ignored");

        // The project's configured default branch decides what a baseline is, not the repository's.
        var onDefault = projects.Where(p => e.Ref == "refs/heads/" + p.DefaultBranch).ToList();
        if (onDefault.Count == 0) return new WebhookReply($"push to {e.Ref} is not to a default branch; ignored");
        RequireSha(e.After);
        // Ids that are not commit ids are left out: they could never be checked out for bisection.
        var pushed = (e.Commits ?? []).Where(c => ShaPattern().IsMatch(c.Id)).ToList();
        var queued = 0;
        foreach (var project in onDefault)
        {
            await commits.RecordAsync(project.Id, pushed, ct);
            queued += (await scheduler.EnqueueAsync(new JobRequest(project.Slug, e.After, Branch: project.DefaultBranch), ct)).Count;
        }
        logger.LogInformation("Push to {Repository} {Ref}: queued {Jobs} baseline jobs", e.Repository.FullName, e.Ref, queued);
        return new WebhookReply($"queued {queued} baseline jobs for {e.After[..Math.Min(10, e.After.Length)]}", queued);
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

    private static void RequireSha(string sha)
    {
        if (!ShaPattern().IsMatch(sha)) throw new WebhookPayloadException($"'{sha}' is not a commit id");
    }

    [GeneratedRegex("^[0-9a-fA-F]{40}([0-9a-fA-F]{24})?$")]
    private static partial Regex ShaPattern();
}

public sealed class WebhookPayloadException(string message) : Exception(message);
