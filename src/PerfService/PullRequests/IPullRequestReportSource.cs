using PerfService.Core.Reports;

namespace PerfService.PullRequests;

/// <summary>
/// Assembles a pull request's report for publishing. Return null when there is nothing to publish (no such pull
/// request). HeadCommit must be the newest head, and PendingProfiles the profiles whose jobs for it are queued or
/// running: the commit status stays pending while it is not empty.
/// </summary>
public interface IPullRequestReportSource
{
    Task<PullRequestReport?> BuildAsync(long projectId, int pullRequest, CancellationToken ct);
}

/// <summary>Stands in until the verdict-backed source is registered, so the service starts and says why nothing is posted.</summary>
internal sealed class NoPullRequestReports(ILogger<NoPullRequestReports> logger) : IPullRequestReportSource
{
    public Task<PullRequestReport?> BuildAsync(long projectId, int pullRequest, CancellationToken ct)
    {
        logger.LogWarning("No IPullRequestReportSource is registered: nothing to publish for pull request #{PullRequest}", pullRequest);
        return Task.FromResult<PullRequestReport?>(null);
    }
}
