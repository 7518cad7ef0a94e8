using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.GitHub;

namespace PerfService.PullRequests;

/// <summary>
/// Sets a commit status that no report stands behind: a pull request the project does not benchmark (policy
/// <c>none</c>) is told so, rather than left without a word.
/// </summary>
[AutomaticRetry(Attempts = 5, DelaysInSeconds = [30, 120, 600, 1800, 3600])]
public sealed class PullRequestNoticeJob(
    PerfDbContext db,
    PullRequestPublisher publisher,
    GitHubClientProvider clients,
    ILogger<PullRequestNoticeJob> logger
)
{
    public static string Enqueue(IBackgroundJobClient jobs, long projectId, string headCommit, string description) =>
        jobs.Enqueue<PullRequestNoticeJob>(j => j.RunAsync(projectId, headCommit, description, CancellationToken.None));

    public async Task RunAsync(long projectId, string headCommit, string description, CancellationToken ct)
    {
        if (!clients.IsConfigured)
            return;
        var project = await db
            .Projects.AsNoTracking()
            .Where(p => p.Id == projectId)
            .Select(p => new { p.Slug, p.GitHubRepository })
            .FirstOrDefaultAsync(ct);
        if (project is null || GitHubRepo.Parse(project.GitHubRepository) is not { } repo)
            return;
        await publisher.PublishStatusAsync(
            repo,
            project.Slug,
            headCommit,
            Octokit.CommitState.Success,
            description,
            ct
        );
        logger.LogInformation("Status on {Repository}@{Head}: {Description}", repo, headCommit, description);
    }
}
