using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;
using static PerfService.Core.Contracts.CommitId;

namespace PerfService.AgentJobs;

/// <summary>Queues jobs (one per profile) and cancels what a newer push or a closed pull request made
/// pointless.</summary>
public sealed class JobScheduler(PerfDbContext db, JobQueue queue, IOptions<JobOptions> options, TimeProvider time)
{
    public const int PullRequestPriority = 100;
    public const int RerunPriority = 50;
    public const int BaselinePriority = 10;

    /// <summary>A change point's profile explains an alert that is already raised: every job that measures (a push, a
    /// bisection run, a pull request) goes first, so profiling never delays nor takes the place of one.</summary>
    public const int ChangePointProfilePriority = 5;

    /// <param name="awaitApproval">The webhook's verdict that this pull request's author is not trusted automatically:
    /// the
    /// jobs wait for a maintainer's approval of this head, unless one was already recorded.</param>
    public async Task<IReadOnlyList<Job>> EnqueueAsync(
        JobRequest request,
        CancellationToken ct,
        bool awaitApproval = false
    )
    {
        // Commit ids reach agents' git command lines: hexadecimal only, never an option or a revision expression.
        if (!CommitId.IsValid(request.Commit))
            throw new JobRequestException($"commit {CommitId.Rule}", "commit");
        if (request.BaseCommit is not null && !CommitId.IsValid(request.BaseCommit))
            throw new JobRequestException($"baseCommit {CommitId.Rule}", "baseCommit");
        var project =
            await db.Projects.FirstOrDefaultAsync(p => p.Slug == request.Project, ct)
            ?? throw new JobRequestException($"project '{request.Project}' does not exist");
        var profiles = await db
            .Profiles.Where(p =>
                request.Profiles == null || request.Profiles.Count == 0 || request.Profiles.Contains(p.Name)
            )
            .ToListAsync(ct);
        var missing = (request.Profiles ?? []).Except(profiles.Select(p => p.Name)).ToList();
        if (missing.Count > 0)
            throw new JobRequestException($"unknown profile(s): {string.Join(", ", missing)}");
        if (request.PullRequest is not null && request.BaseCommit is null)
            throw new JobRequestException("a pull-request job needs the base commit to compare against");

        var kind = request.Kind ?? (request.PullRequest is null ? JobKind.Baseline : JobKind.PullRequest);
        if (kind == JobKind.Submitted)
            throw new JobRequestException(
                "kind 'Submitted' is the service's own, for runs posted without a job; an agent cannot run it"
            );
        var commit = request.Commit.ToLowerInvariant();
        // Untrusted code stays untrusted when approved or re-run: the agent is told, whoever queued the job.
        var untrusted =
            request.PullRequest is { } number
            && await db.PullRequestHeads.AnyAsync(
                h => h.ProjectId == project.Id && h.PullRequest == number && !h.Trusted,
                ct
            );
        var held =
            awaitApproval
            && !await db.PullRequestApprovals.AnyAsync(
                a => a.ProjectId == project.Id && a.PullRequest == request.PullRequest && a.HeadCommit == commit,
                ct
            );
        var now = time.GetUtcNow();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        // A newer push supersedes the jobs of older heads; a re-run of the same head leaves its siblings alone.
        if (request.PullRequest is { } pr)
            await CancelPullRequestAsync(
                project.Id,
                pr,
                $"superseded by a newer push ({Short(request.Commit)})",
                ct,
                exceptCommit: commit
            );

        var jobs = profiles
            .Select(profile => new Job
            {
                ProjectId = project.Id,
                Kind = kind,
                Commit = commit,
                BaseCommit = request.BaseCommit?.ToLowerInvariant(),
                Branch = request.Branch ?? (request.PullRequest is null ? project.DefaultBranch : null),
                PullRequest = request.PullRequest,
                Suites = (request.Suites ?? []).ToArray(),
                ProfileId = profile.Id,
                Priority = kind switch
                {
                    JobKind.PullRequest => PullRequestPriority,
                    JobKind.Rerun or JobKind.Bisect => RerunPriority,
                    _ => BaselinePriority,
                },
                State = held ? JobState.AwaitingApproval : JobState.Queued,
                Untrusted = untrusted,
                MaxAttempts = options.Value.MaxAttempts,
                Rounds = request.Rounds ?? (request.BaseCommit is null ? 1 : options.Value.PullRequestRounds),
                Quick = request.Quick,
                CreatedAt = now,
            })
            .ToList();
        db.Jobs.AddRange(jobs);
        await db.SaveChangesAsync(ct);
        await tx.CommitAsync(ct);
        if (!held)
            await queue.NotifyAsync(ct);
        return jobs;
    }

    /// <summary>
    /// A bisection run of one commit of a change point's range on one profile. Added to the caller's unit of work, not
    /// saved: the change-point updater commits it with the alert that asked for it, then wakes the agents.
    /// </summary>
    public Job AddBisection(Project project, long profileId, string sha)
    {
        var job = new Job
        {
            ProjectId = project.Id,
            Kind = JobKind.Bisect,
            Commit = sha,
            Branch = project.DefaultBranch,
            ProfileId = profileId,
            // Empty: the project's own suites, as a baseline runs them; one job then serves every series whose alert
            // shares the range.
            Suites = [],
            Priority = RerunPriority,
            State = JobState.Queued,
            MaxAttempts = options.Value.MaxAttempts,
            Rounds = 1,
            CreatedAt = time.GetUtcNow(),
        };
        db.Jobs.Add(job);
        return job;
    }

    /// <summary>
    /// The job that pull-request runs posted without one (<c>perf-agent submit --pr N</c>) belong to: one per pull
    /// request
    /// × head commit × profile, finished from the start, since no agent runs it. Added to the caller's unit of work.
    /// </summary>
    public Job AddSubmitted(Run run, int pullRequest, string commit, string? baseCommit, string? branch)
    {
        var now = time.GetUtcNow();
        var job = new Job
        {
            ProjectId = run.ProjectId,
            Kind = JobKind.Submitted,
            Commit = commit,
            PullRequest = pullRequest,
            ProfileId = run.ProfileId,
            BaseCommit = baseCommit,
            Branch = branch,
            State = JobState.Succeeded,
            Attempts = 1,
            MaxAttempts = 1,
            Reason = "results submitted without an agent job",
            CreatedAt = now,
            StartedAt = run.StartedAt ?? now,
            FinishedAt = now,
        };
        db.Jobs.Add(job);
        return job;
    }

    /// <summary>
    /// A profiling job: the agent records CPU profiles of <paramref name="targets"/> on base and head, one run a side,
    /// and
    /// posts profiles, never runs. Pinned to the agent that measured the regression when there is one (its machine is
    /// where the change showed). Added to the caller's unit of work; the caller saves and wakes the agents.
    /// </summary>
    public Job AddProfiling(
        long projectId,
        long profileId,
        string commit,
        string? baseCommit,
        string? branch,
        int? pullRequest,
        long? alertId,
        long? pinnedAgentId,
        IReadOnlyList<ProfileTarget> targets,
        bool untrusted,
        bool held,
        int priority = RerunPriority
    )
    {
        var job = new Job
        {
            ProjectId = projectId,
            Kind = JobKind.Profile,
            Commit = commit,
            BaseCommit = baseCommit,
            Branch = branch,
            PullRequest = pullRequest,
            AlertId = alertId,
            PinnedAgentId = pinnedAgentId,
            ProfileId = profileId,
            Suites = targets.Select(t => t.Suite).Distinct().ToArray(),
            Profiling = new ProfilingRequest(targets),
            Priority = priority,
            State = held ? JobState.AwaitingApproval : JobState.Queued,
            Untrusted = untrusted,
            MaxAttempts = options.Value.MaxAttempts,
            Rounds = 1,
            CreatedAt = time.GetUtcNow(),
        };
        db.Jobs.Add(job);
        return job;
    }

    /// <summary>Cancels the pull request's pending and running jobs; a running agent hears it at its next
    /// heartbeat.</summary>
    public Task<int> CancelPullRequestAsync(
        long projectId,
        int pullRequest,
        string reason,
        CancellationToken ct,
        string? exceptCommit = null
    )
    {
        var now = time.GetUtcNow();
        return db
            .Jobs.Where(j =>
                j.ProjectId == projectId
                && j.PullRequest == pullRequest
                && (j.State == JobState.Queued || j.State == JobState.Running || j.State == JobState.AwaitingApproval)
                && (exceptCommit == null || j.Commit != exceptCommit)
            )
            .ExecuteUpdateAsync(
                s =>
                    s.SetProperty(j => j.State, JobState.Cancelled)
                        .SetProperty(j => j.Reason, reason)
                        .SetProperty(j => j.FinishedAt, j => j.State != JobState.Running ? now : j.FinishedAt),
                ct
            );
    }

    /// <summary>Moves a head's jobs that wait for approval to the queue and wakes waiting agents; returns how
    /// many.</summary>
    public async Task<int> ReleaseAsync(long projectId, int pullRequest, string commit, CancellationToken ct)
    {
        var released = await db
            .Jobs.Where(j =>
                j.ProjectId == projectId
                && j.PullRequest == pullRequest
                && j.Commit == commit
                && j.State == JobState.AwaitingApproval
            )
            .ExecuteUpdateAsync(s => s.SetProperty(j => j.State, JobState.Queued), ct);
        if (released > 0)
            await queue.NotifyAsync(ct);
        return released;
    }
}

public sealed class JobRequestException(string message, string? field = null) : Exception(message)
{
    /// <summary>The request member at fault, for a validation problem that names it.</summary>
    public string? Field { get; } = field;
}
