using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.PullRequests;

namespace PerfService.Profiling;

/// <summary>
/// When profiling jobs are created: after a pull request's job is judged with regressions, when a change point is
/// raised or a target breaks on the default branch, and when a writer asks (<c>/perf profile</c>, the pull request
/// page's button). Each profiles base and head on one hardware profile; the jobs themselves are made by
/// <see cref="JobScheduler"/>.
/// </summary>
public sealed class ProfilingJobs(
    PerfDbContext db,
    JobScheduler scheduler,
    JobQueue queue,
    Microsoft.Extensions.Options.IOptions<ProfileOptions> options,
    ILogger<ProfilingJobs> logger
)
{
    /// <summary>At most this many benchmarks per profiling job: each costs one extra run a side.</summary>
    public const int MaxTargets = 20;

    /// <summary>The regressed benchmarks of a judged pull-request job, on the agent that measured them. A benchmark an
    /// earlier profiling job of the same head and profile already covers is not asked for again.</summary>
    public async Task<Job?> ForRegressionsAsync(
        Job judged,
        IReadOnlyCollection<long> regressedBenchmarks,
        CancellationToken ct
    )
    {
        if (
            !options.Value.ProfileRegressions
            || judged.Kind == JobKind.Submitted
            || judged.PullRequest is null
            || judged.BaseCommit is null
            || regressedBenchmarks.Count == 0
        )
            return null;
        var targets = await TargetsAsync(db.Benchmarks.Where(b => regressedBenchmarks.Contains(b.Id)), ct);
        var covered = await CoveredAsync(judged.ProjectId, judged.ProfileId, judged.Commit, judged.PullRequest, ct);
        targets = targets.Where(t => !covered.Contains(t)).Take(MaxTargets).ToList();
        if (targets.Count == 0)
            return null;
        var job = scheduler.AddProfiling(
            judged.ProjectId,
            judged.ProfileId,
            judged.Commit,
            judged.BaseCommit,
            judged.Branch,
            judged.PullRequest,
            null,
            judged.AgentId,
            targets,
            judged.Untrusted,
            held: false
        );
        return await SaveAsync(job, $"pull request #{judged.PullRequest} regressions", ct);
    }

    /// <summary>
    /// A slowdown on the default branch: the alert's benchmark at its commit against the one before the change, on the
    /// alert's hardware profile, by the agent that measured that commit (<see cref="ForDefaultBranchAsync"/>).
    /// </summary>
    public async Task<Job?> ForChangePointAsync(Alert alert, CancellationToken ct)
    {
        if (
            !options.Value.ProfileRegressions
            || alert.BenchmarkId is not { } benchmark
            || alert.ProfileId is not { } profile
            || alert.FromCommit is not { } before
            || alert.ToCommit is not { } after
        )
            return null;
        var targets = await TargetsAsync(db.Benchmarks.Where(b => b.Id == benchmark), ct);
        return await ForDefaultBranchAsync(alert, profile, before, after, targets, null, "change-point", ct);
    }

    /// <summary>
    /// A target the default branch newly fails (<see cref="Analysis.TargetChecker"/> just opened its alert): the
    /// benchmarks of its failing outcomes (both sides of a ratio) at the run's commit against the previous commit of
    /// the default branch measured on the run's hardware profile, by the agent that measured the run, ranked like a
    /// change point's profile. Only where the target breaks: not when it failed at that previous commit too. Runs of
    /// pull requests and of submitted jobs are judged on their pull request, never here.
    /// </summary>
    public async Task<Job?> ForTargetFailureAsync(
        Run run,
        Alert alert,
        string target,
        IReadOnlyCollection<long> benchmarks,
        CancellationToken ct
    )
    {
        if (
            !options.Value.ProfileRegressions
            || run.PullRequest is not null
            || run.Role != RunRole.Head
            || run.BranchId is not { } branch
            || alert.ToCommit is not { } after
            || benchmarks.Count == 0
            || !await db.Branches.AnyAsync(b => b.Id == branch && b.Project!.DefaultBranch == b.Name, ct)
            || (run.JobId is { } jobId && await db.Jobs.AnyAsync(j => j.Id == jobId && j.Kind == JobKind.Submitted, ct))
        )
            return null;
        var at = await db
            .Commits.Where(c => c.Id == run.CommitId)
            .Select(c => c.CommittedAt ?? c.FirstSeenAt)
            .FirstAsync(ct);
        var before = await db
            .Runs.AsNoTracking()
            .Where(r =>
                r.ProjectId == run.ProjectId
                && r.ProfileId == run.ProfileId
                && r.BranchId == branch
                && r.PullRequest == null
                && r.Role == RunRole.Head
                && r.CommitId != run.CommitId
                && (r.Commit!.CommittedAt ?? r.Commit.FirstSeenAt) < at
            )
            .OrderByDescending(r => r.Commit!.CommittedAt ?? r.Commit.FirstSeenAt)
            .ThenByDescending(r => r.Id)
            .Select(r => new { r.CommitId, r.Commit!.Sha })
            .FirstOrDefaultAsync(ct);
        if (before is null)
        {
            logger.LogInformation(
                "Target alert {AlertId} is not profiled: no earlier default-branch commit was measured on its profile",
                alert.Id
            );
            return null;
        }
        // A target matching several benchmarks is stored once per benchmark, as "name [benchmark key]".
        var runsBefore = db
            .Runs.Where(r => r.CommitId == before.CommitId && r.ProfileId == run.ProfileId)
            .Select(r => r.Id);
        if (
            await db.TargetResults.AnyAsync(
                t =>
                    runsBefore.Contains(t.RunId)
                    && t.Outcome == Core.Targets.TargetStatus.Fail
                    && (t.Name == target || t.Name.StartsWith(target + " [")),
                ct
            )
        )
            return null;
        var targets = await TargetsAsync(db.Benchmarks.Where(b => benchmarks.Contains(b.Id)), ct);
        return await ForDefaultBranchAsync(alert, run.ProfileId, before.Sha, after, targets, run.AgentId, "target", ct);
    }

    /// <summary>
    /// A default-branch alert's profile of <paramref name="after"/> against <paramref name="before"/>: what earlier
    /// jobs of the commit do not already profile, joined to a queued job of the same commit when there is one, on
    /// <paramref name="measuredBy"/> (or, for a commit measured outside our agents, the one of that profile that last
    /// ran a job of the project; none when no agent ever did). It ranks below every measuring job
    /// (<see cref="JobScheduler.ChangePointProfilePriority"/>): bisection and pushes go first.
    /// </summary>
    private async Task<Job?> ForDefaultBranchAsync(
        Alert alert,
        long profile,
        string before,
        string after,
        List<ProfileTarget> targets,
        long? measuredBy,
        string kind,
        CancellationToken ct
    )
    {
        // Another measure of the same benchmark (its allocations, say) changed at the same commit: one profile serves both.
        var covered = await CoveredAsync(alert.ProjectId, profile, after, null, ct);
        targets = targets.Where(t => !covered.Contains(t)).Take(MaxTargets).ToList();
        if (targets.Count == 0)
            return null;
        if (await JoinQueuedAsync(alert, profile, before, after, targets, ct) is { } joined)
            return joined;
        var agent =
            measuredBy
            ?? await db
                .Runs.AsNoTracking()
                .Where(r =>
                    r.ProjectId == alert.ProjectId
                    && r.ProfileId == profile
                    && r.Commit!.Sha == after
                    && r.AgentId != null
                )
                .OrderByDescending(r => r.Id)
                .Select(r => r.AgentId)
                .FirstOrDefaultAsync(ct)
            ?? await db
                .Jobs.AsNoTracking()
                .Where(j => j.ProjectId == alert.ProjectId && j.ProfileId == profile && j.AgentId != null)
                .OrderByDescending(j => j.Id)
                .Select(j => j.AgentId)
                .FirstOrDefaultAsync(ct);
        if (agent is null)
        {
            logger.LogInformation(
                "The {Kind} alert {AlertId} is not profiled: no agent of its profile ever ran a job of the project",
                kind,
                alert.Id
            );
            return null;
        }
        var project = await db.Projects.AsNoTracking().FirstAsync(p => p.Id == alert.ProjectId, ct);
        var job = scheduler.AddProfiling(
            alert.ProjectId,
            profile,
            after,
            before,
            project.DefaultBranch,
            null,
            alert.Id,
            agent,
            targets,
            false,
            held: false,
            JobScheduler.ChangePointProfilePriority
        );
        return await SaveAsync(job, $"{kind} alert {alert.Id}", ct);
    }

    /// <summary>
    /// A writer's request on a pull request: the benchmarks matching <paramref name="glob"/> on the head's hardware
    /// profiles (or <paramref name="profile"/>), regressed or not. A stranger's head that no maintainer approved waits
    /// for approval, as its suites do. Null with a reason when there is nothing to profile.
    /// </summary>
    public async Task<(IReadOnlyList<Job> Jobs, string? Refusal)> RequestAsync(
        Project project,
        int pullRequest,
        string glob,
        string? profile,
        CancellationToken ct
    )
    {
        var head = await db
            .PullRequestHeads.AsNoTracking()
            .FirstOrDefaultAsync(h => h.ProjectId == project.Id && h.PullRequest == pullRequest, ct);
        var measured = await db
            .Jobs.AsNoTracking()
            .Where(j =>
                j.ProjectId == project.Id
                && j.PullRequest == pullRequest
                && j.Kind != JobKind.Profile
                && j.Kind != JobKind.Submitted
                && j.BaseCommit != null
                && (head == null || j.Commit == head.HeadCommit)
            )
            .OrderByDescending(j => j.Id)
            .Select(j => new
            {
                j.Commit,
                j.BaseCommit,
                j.Branch,
                j.ProfileId,
                j.AgentId,
                j.Untrusted,
                Profile = j.Profile!.Name,
            })
            .ToListAsync(ct);
        if (measured.Count == 0)
            return ([], $"pull request #{pullRequest} has no benchmark job to profile against yet");
        var commit = measured[0].Commit;
        var sides = measured
            .Where(j => j.Commit == commit && (profile is null || j.Profile == profile))
            .GroupBy(j => j.ProfileId)
            .Select(g => g.First())
            .ToList();
        if (sides.Count == 0)
            return ([], $"no job of pull request #{pullRequest} ran on profile '{profile}'");

        var match = PullRequestActions.Glob(glob);
        var keys = await db
            .Benchmarks.AsNoTracking()
            .Where(b => b.Suite!.ProjectId == project.Id)
            .Select(b => b.Key)
            .ToListAsync(ct);
        var chosen = keys.Where(k => match.IsMatch(k)).Distinct().Order(StringComparer.Ordinal).ToList();
        if (chosen.Count == 0)
            return ([], $"no benchmark of '{project.Slug}' matches '{glob}'");
        if (chosen.Count > MaxTargets)
            return ([], $"'{glob}' matches {chosen.Count} benchmarks; at most {MaxTargets} are profiled at once");
        var targets = await TargetsAsync(
            db.Benchmarks.Where(b => b.Suite!.ProjectId == project.Id && chosen.Contains(b.Key)),
            ct
        );

        var untrusted = head is { Trusted: false };
        var held =
            untrusted
            && project.PullRequestPolicy == PullRequestPolicy.Members
            && !await db.PullRequestApprovals.AnyAsync(
                a => a.ProjectId == project.Id && a.PullRequest == pullRequest && a.HeadCommit == commit,
                ct
            );
        var jobs = sides
            .Select(s =>
                scheduler.AddProfiling(
                    project.Id,
                    s.ProfileId,
                    s.Commit,
                    s.BaseCommit,
                    s.Branch,
                    pullRequest,
                    null,
                    s.AgentId,
                    targets,
                    untrusted || s.Untrusted,
                    held
                )
            )
            .ToList();
        await db.SaveChangesAsync(ct);
        if (!held)
            await queue.NotifyAsync(ct);
        logger.LogInformation(
            "Profiling of {Project}#{Number} requested: {Count} benchmark(s) on {Jobs} profile(s){Held}",
            project.Slug,
            pullRequest,
            targets.Count,
            jobs.Count,
            held ? ", awaiting approval" : ""
        );
        return (jobs, null);
    }

    private async Task<Job> SaveAsync(Job job, string why, CancellationToken ct)
    {
        await db.SaveChangesAsync(ct);
        await queue.NotifyAsync(ct);
        logger.LogInformation(
            "Profiling job {JobId} queued for {Why}: {Count} benchmark(s)",
            job.Id,
            why,
            job.Profiling!.Targets.Count
        );
        return job;
    }

    private static async Task<List<ProfileTarget>> TargetsAsync(
        IQueryable<Benchmark> benchmarks,
        CancellationToken ct
    ) =>
        (
            await benchmarks
                .AsNoTracking()
                .OrderBy(b => b.Key)
                .Select(b => new { Suite = b.Suite!.Name, b.Key })
                .ToListAsync(ct)
        )
            .Select(b => new ProfileTarget(b.Suite, b.Key))
            .Distinct()
            .ToList();

    /// <summary>What earlier profiling jobs at this head and profile already profile: of the pull request, or (with
    /// none) of the default branch's alerts.</summary>
    /// <summary>
    /// A commit that slows several benchmarks (or breaks a target beside) raises an alert for each: they share the profiling job of that commit and
    /// profile (one checkout and build a side) while no agent has claimed it. The update is conditional on the job
    /// still being queued, so a claimed job keeps the targets its agent was given and the next alert gets its own.
    /// </summary>
    private async Task<Job?> JoinQueuedAsync(
        Alert alert,
        long profile,
        string before,
        string after,
        IReadOnlyList<ProfileTarget> targets,
        CancellationToken ct
    )
    {
        var queued = await db
            .Jobs.AsNoTracking()
            .Where(j =>
                j.ProjectId == alert.ProjectId
                && j.ProfileId == profile
                && j.Kind == JobKind.Profile
                && j.PullRequest == null
                && j.AlertId != null
                && j.Commit == after
                && j.BaseCommit == before
                && j.State == JobState.Queued
            )
            .OrderBy(j => j.Id)
            .FirstOrDefaultAsync(ct);
        if (queued?.Profiling is not { } request)
            return null;
        var merged = new ProfilingRequest([.. request.Targets, .. targets]);
        var updated = await db
            .Jobs.Where(j => j.Id == queued.Id && j.State == JobState.Queued)
            .ExecuteUpdateAsync(s => s.SetProperty(j => j.Profiling, merged), ct);
        if (updated == 0)
            return null;
        logger.LogInformation(
            "Alert {AlertId} joins profiling job {JobId} of the same commit: {Count} benchmark(s)",
            alert.Id,
            queued.Id,
            merged.Targets.Count
        );
        return queued;
    }

    private async Task<HashSet<ProfileTarget>> CoveredAsync(
        long projectId,
        long profileId,
        string commit,
        int? pullRequest,
        CancellationToken ct
    )
    {
        var earlier = await db
            .Jobs.AsNoTracking()
            .Where(j =>
                j.ProjectId == projectId
                && j.ProfileId == profileId
                && j.Commit == commit
                && j.Kind == JobKind.Profile
                && j.PullRequest == pullRequest
                && j.State != JobState.Cancelled
                && j.State != JobState.Failed
            )
            .Select(j => j.Profiling)
            .ToListAsync(ct);
        return earlier.SelectMany(p => p?.Targets ?? []).ToHashSet();
    }
}
