using Microsoft.EntityFrameworkCore;
using PerfService.AgentJobs;
using PerfService.Alerts;
using PerfService.Core.Bisection;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;
using static PerfService.Core.Contracts.CommitId;

namespace PerfService.Bisection;

/// <summary>
/// Bisects a change point's commit range when the project enables it: queues one job for the untested commit nearest
/// the middle of the range; when its run lands, the series replays, the alert narrows, and the next call queues the
/// next one. Works inside the change-point updater's transaction, so a job and the alert that asked for it commit
/// together.
/// </summary>
public sealed class Bisector(PerfDbContext db, AlertService alerts, JobScheduler scheduler, ILogger<Bisector> logger)
{
    /// <summary>Queues at most one job; true when it did (the caller wakes the agents after committing).</summary>
    public async Task<bool> ConsiderAsync(
        Project project,
        long profileId,
        Alert alert,
        DateTimeOffset fromAt,
        DateTimeOffset toAt,
        CancellationToken ct
    )
    {
        var state = alert.Details.Bisect;
        if (!project.Bisect || state?.Done == true || alert.FromCommit is null || alert.ToCommit is null)
            return false;
        // Every series of a run that moved asks about the same range at once: one of them decides at a time. The alert
        // groups' lock comes first, in the order every analysis takes them.
        await alerts.LockGroupsAsync(project.Id, ct);
        await db.Database.ExecuteSqlAsync(
            $"SELECT pg_advisory_xact_lock(hashtextextended({$"bisect:{project.Id}:{profileId}"}, 0))",
            ct
        );

        state ??= await StartAsync(project.Id, alert, fromAt, toAt, ct);
        var known = await CommitsBetweenAsync(
            project.Id,
            state.FromAt,
            state.ToAt,
            [state.From, state.To, alert.FromCommit, alert.ToCommit],
            ct
        );
        var knownShas = known.Select(c => c.Sha).ToArray();
        var between = known.Where(c => c.At > fromAt && c.At < toAt).Select(c => c.Sha).ToList();
        var jobs = await db
            .Jobs.AsNoTracking()
            .Where(j =>
                j.ProjectId == project.Id
                && j.ProfileId == profileId
                && j.PullRequest == null
                && j.Kind != JobKind.Profile
                && knownShas.Contains(j.Commit)
            )
            .Select(j => new
            {
                j.Commit,
                j.Kind,
                j.State,
            })
            .ToListAsync(ct);
        var measured = await (
            from r in db.Runs
            join c in db.Commits on r.CommitId equals c.Id
            where
                r.ProjectId == project.Id
                && r.ProfileId == profileId
                && r.PullRequest == null
                && r.Role == RunRole.Head
                && between.Contains(c.Sha)
            select c.Sha
        )
            .Distinct()
            .ToListAsync(ct);

        var states = between
            .Select(sha =>
                jobs.Any(j => j.Commit == sha && j.State is JobState.Queued or JobState.Running)
                    ? BisectCommitState.Pending
                : measured.Contains(sha) || jobs.Any(j => j.Commit == sha) ? BisectCommitState.Tried
                : BisectCommitState.Untested
            )
            .ToList();
        var spent = jobs.Count(j => j.Kind == JobKind.Bisect);
        if (BisectPlan.Next(states, spent, state.Cap) is not { } next)
        {
            // Nothing left to try and nothing pending: the range is as narrow as bisection can make it.
            var done =
                !states.Contains(BisectCommitState.Pending)
                && (spent >= state.Cap || !states.Contains(BisectCommitState.Untested));
            state.Done = done;
            alert.Details.Bisect = state;
            await db.SaveChangesAsync(ct);
            return false;
        }

        var sha = between[next];
        scheduler.AddBisection(project, profileId, sha);
        alert.Details.Bisect = state;
        await alerts.NoteAsync(
            alert,
            $"bisecting: queued a run of {Short(sha)}, {next + 1} of the {between.Count} untested commits between {Short(alert.FromCommit)} and {Short(alert.ToCommit)} (job {spent + 1} of at most {state.Cap})",
            ct
        );
        logger.LogInformation("Bisecting alert {AlertId} of {Project}: queued {Commit}", alert.Id, project.Slug, sha);
        return true;
    }

    private async Task<BisectState> StartAsync(
        long projectId,
        Alert alert,
        DateTimeOffset fromAt,
        DateTimeOffset toAt,
        CancellationToken ct
    )
    {
        var between = await CommitsBetweenAsync(projectId, fromAt, toAt, [alert.FromCommit!, alert.ToCommit!], ct);
        var rangeCommits = between.Count + 1;
        return new BisectState
        {
            From = alert.FromCommit!,
            To = alert.ToCommit!,
            FromAt = fromAt,
            ToAt = toAt,
            RangeCommits = rangeCommits,
            Cap = BisectPlan.Cap(rangeCommits),
        };
    }

    private sealed record KnownCommit(string Sha, DateTimeOffset At);

    // The series orders points by coalesce(committed_at, first_seen_at), so "between" uses the same clock. Commits of
    // the same second as an end cannot be placed and are left out; ties inside keep the push's order (the ids).
    private Task<List<KnownCommit>> CommitsBetweenAsync(
        long projectId,
        DateTimeOffset fromAt,
        DateTimeOffset toAt,
        string[] ends,
        CancellationToken ct
    ) =>
        db
            .Commits.AsNoTracking()
            .Where(c =>
                c.ProjectId == projectId
                && c.OnDefaultBranch
                && !ends.Contains(c.Sha)
                && (c.CommittedAt ?? c.FirstSeenAt) > fromAt
                && (c.CommittedAt ?? c.FirstSeenAt) < toAt
            )
            .OrderBy(c => c.CommittedAt ?? c.FirstSeenAt)
            .ThenBy(c => c.Id)
            .Select(c => new KnownCommit(c.Sha, c.CommittedAt ?? c.FirstSeenAt))
            .ToListAsync(ct);
}
