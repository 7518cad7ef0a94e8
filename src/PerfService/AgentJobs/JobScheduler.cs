using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.AgentJobs;

/// <summary>Queues jobs (one per profile) and cancels what a newer push or a closed pull request made pointless.</summary>
public sealed class JobScheduler(PerfDbContext db, JobQueue queue, IOptions<JobOptions> options)
{
    public const int PullRequestPriority = 100;
    public const int RerunPriority = 50;
    public const int BaselinePriority = 10;

    public async Task<IReadOnlyList<Job>> EnqueueAsync(JobRequest request, CancellationToken ct)
    {
        var project = await db.Projects.FirstOrDefaultAsync(p => p.Slug == request.Project, ct)
            ?? throw new JobRequestException($"project '{request.Project}' does not exist");
        var profiles = await db.Profiles.Where(p => request.Profiles == null || request.Profiles.Count == 0 || request.Profiles.Contains(p.Name))
            .ToListAsync(ct);
        var missing = (request.Profiles ?? []).Except(profiles.Select(p => p.Name)).ToList();
        if (missing.Count > 0) throw new JobRequestException($"unknown profile(s): {string.Join(", ", missing)}");
        if (request.PullRequest is not null && request.BaseCommit is null)
            throw new JobRequestException("a pull-request job needs the base commit to compare against");

        var kind = request.Kind ?? (request.PullRequest is null ? JobKind.Baseline : JobKind.PullRequest);
        if (kind == JobKind.Submitted)
            throw new JobRequestException("kind 'Submitted' is the service's own, for runs posted without a job; an agent cannot run it");
        var now = DateTimeOffset.UtcNow;
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        // A newer push supersedes the jobs of older heads; a re-run of the same head leaves its siblings alone.
        if (request.PullRequest is { } pr)
            await CancelPullRequestAsync(project.Id, pr, $"superseded by a newer push ({Short(request.Commit)})", ct, exceptCommit: request.Commit.ToLowerInvariant());

        var jobs = profiles.Select(profile => new Job
        {
            ProjectId = project.Id,
            Kind = kind,
            Commit = request.Commit.ToLowerInvariant(),
            BaseCommit = request.BaseCommit?.ToLowerInvariant(),
            Branch = request.Branch ?? (request.PullRequest is null ? project.DefaultBranch : null),
            PullRequest = request.PullRequest,
            Suites = (request.Suites ?? []).ToArray(),
            ProfileId = profile.Id,
            Priority = kind switch { JobKind.PullRequest => PullRequestPriority, JobKind.Rerun or JobKind.Bisect => RerunPriority, _ => BaselinePriority },
            State = JobState.Queued,
            MaxAttempts = options.Value.MaxAttempts,
            Rounds = request.Rounds ?? (request.BaseCommit is null ? 1 : options.Value.PullRequestRounds),
            Quick = request.Quick,
            CreatedAt = now,
        }).ToList();
        db.Jobs.AddRange(jobs);
        await db.SaveChangesAsync(ct);
        await tx.CommitAsync(ct);
        await queue.NotifyAsync(ct);
        return jobs;
    }

    /// <summary>Cancels the pull request's pending and running jobs; a running agent hears it at its next heartbeat.</summary>
    public Task<int> CancelPullRequestAsync(long projectId, int pullRequest, string reason, CancellationToken ct, string? exceptCommit = null) =>
        db.Jobs.Where(j => j.ProjectId == projectId && j.PullRequest == pullRequest && (j.State == JobState.Queued || j.State == JobState.Running)
                           && (exceptCommit == null || j.Commit != exceptCommit))
            .ExecuteUpdateAsync(s => s
                .SetProperty(j => j.State, JobState.Cancelled)
                .SetProperty(j => j.Reason, reason)
                .SetProperty(j => j.FinishedAt, j => j.State == JobState.Queued ? DateTimeOffset.UtcNow : j.FinishedAt), ct);

    private static string Short(string sha) => sha.Length > 10 ? sha[..10] : sha;
}

public sealed class JobRequestException(string message) : Exception(message);
