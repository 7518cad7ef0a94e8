using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.GitHub;
using PerfService.Hosting.Telemetry;

namespace PerfService.PullRequests;

/// <summary>
/// Publishes a pull request's report to GitHub: the commit status and this project's comment. Takes ids only and is
/// safe to run again at any point; enqueue it whenever the report may have changed (new verdicts, an acknowledgement).
/// </summary>
[AutomaticRetry(Attempts = 8, DelaysInSeconds = [30, 60, 120, 300, 600, 1200, 1800, 3600])]
public sealed class PullRequestPublishJob(
    PerfDbContext db,
    PullRequestReports reports,
    PullRequestPublisher publisher,
    GitHubClientProvider clients,
    IBackgroundJobClient background,
    TimeProvider time,
    ILogger<PullRequestPublishJob> logger
)
{
    public static string Enqueue(IBackgroundJobClient jobs, long projectId, int pullRequest) =>
        jobs.Enqueue<PullRequestPublishJob>(j => j.RunAsync(projectId, pullRequest, CancellationToken.None));

    public async Task RunAsync(long projectId, int pullRequest, CancellationToken ct)
    {
        if (!clients.IsConfigured)
        {
            logger.LogInformation(
                "GitHub publishing is off (set GitHub:Token or GitHub:AppId); pull request #{Number} not published",
                pullRequest
            );
            return;
        }
        var project = await db
            .Projects.AsNoTracking()
            .Where(p => p.Id == projectId)
            .Select(p => new { p.Slug, p.GitHubRepository })
            .FirstOrDefaultAsync(ct);
        if (GitHubRepo.Parse(project?.GitHubRepository) is not { } repo)
        {
            logger.LogInformation(
                "Project {ProjectId} is not connected to a GitHub repository (owner/name); nothing to publish",
                projectId
            );
            return;
        }

        await using var _ = await PullRequestLock.AcquireAsync(db, projectId, pullRequest, ct);
        // Read under the lock, so that a slower job cannot post an older report over a newer one.
        var report = await reports.BuildAsync(projectId, pullRequest, ct);
        if (report is null)
        {
            logger.LogInformation("No report for {Project} pull request #{Number}", project!.Slug, pullRequest);
            return;
        }

        try
        {
            await publisher.PublishAsync(projectId, repo, report, ct);
            PerfTelemetry.Published("published");
        }
        catch (Exception e)
            when (e is not (GitHubRateLimitedException or OperationCanceledException) && PerfTelemetry.PublishFailed())
        {
            throw; // never reached: the filter records and declines
        }
        catch (GitHubRateLimitedException e)
        {
            PerfTelemetry.RateLimited(e.RetryAt - time.GetUtcNow());
            // Failing would retry on Hangfire's fixed delays, possibly before the reset; come back when GitHub said.
            background.Schedule<PullRequestPublishJob>(
                j => j.RunAsync(projectId, pullRequest, CancellationToken.None),
                e.RetryAt
            );
            logger.LogWarning(
                "GitHub rate limit for {Repository}; publishing #{Number} again at {RetryAt}",
                repo,
                pullRequest,
                e.RetryAt
            );
        }
    }
}
