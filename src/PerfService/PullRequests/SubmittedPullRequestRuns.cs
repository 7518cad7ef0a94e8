using Hangfire;
using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.PullRequests;

/// <summary>
/// Pull-request runs that arrive without a job (a CI job running <c>perf-agent submit --pr N</c>): each is attached to
/// one finished <see cref="JobKind.Submitted"/> job per pull request × head commit × profile, and that job is judged
/// like an agent's. It has no interleaved base rounds, so its baseline is the base branch's runs at or before the
/// base commit (see <see cref="PullRequestInputs"/>); reports, comments and alerts then work unchanged.
/// </summary>
public sealed class SubmittedPullRequestRuns(
    PerfDbContext db,
    JobScheduler scheduler,
    IBackgroundJobClient background,
    TimeProvider time,
    ILogger<SubmittedPullRequestRuns> logger
)
{
    public async Task AttachAsync(Run run, CancellationToken ct)
    {
        if (run.PullRequest is not { } pullRequest || run.JobId is not null)
            return;
        // Two suites of one pull request posted at once must land in the same job, not in two that hide each other.
        await using var _ = await PullRequestLock.AcquireAsync(db, run.ProjectId, pullRequest, ct);
        var commit = await db.Commits.AsNoTracking().Where(c => c.Id == run.CommitId).Select(c => c.Sha).FirstAsync(ct);
        var job = await db.Jobs.FirstOrDefaultAsync(
            j =>
                j.ProjectId == run.ProjectId
                && j.Kind == JobKind.Submitted
                && j.PullRequest == pullRequest
                && j.Commit == commit
                && j.ProfileId == run.ProfileId,
            ct
        );
        var suite = await db.Suites.AsNoTracking().Where(s => s.Id == run.SuiteId).Select(s => s.Name).FirstAsync(ct);
        if (job is null)
        {
            var names = await db
                .Runs.AsNoTracking()
                .Where(r => r.Id == run.Id)
                .Select(r => new { Base = r.BaseCommit!.Sha, Branch = r.Branch!.Name })
                .FirstAsync(ct);
            job = scheduler.AddSubmitted(run, pullRequest, commit, names.Base, names.Branch);
        }
        if (!job.Suites.Contains(suite))
            job.Suites = [.. job.Suites, suite];
        job.FinishedAt = time.GetUtcNow();
        await db.SaveChangesAsync(ct);
        await db.Runs.Where(r => r.Id == run.Id).ExecuteUpdateAsync(s => s.SetProperty(r => r.JobId, job.Id), ct);
        logger.LogInformation(
            "Run {RunId} of pull request #{PullRequest} joins submitted job {JobId}",
            run.Id,
            pullRequest,
            job.Id
        );
        PullRequestComparisonJob.Enqueue(background, job.Id);
    }
}
