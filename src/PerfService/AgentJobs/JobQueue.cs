using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Core.Contracts;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Telemetry;

namespace PerfService.AgentJobs;

/// <summary>
/// The benchmark job queue in PostgreSQL. Claiming takes the best queued job of the agent's profile with
/// <c>FOR UPDATE SKIP LOCKED</c>, so any number of replicas and agents never hand one job to two agents; a claim holds
/// a lease that heartbeats extend, and an expired lease puts the job back (or fails it after its last attempt).
/// All times are the service's (its <see cref="TimeProvider"/>, passed as $now), never an agent's, so an agent with a
/// wrong clock cannot stretch or cut a lease; tests move that clock on instead of sleeping. Statements run on the
/// request's context (in its transaction when it has one: a NOTIFY then wakes agents when the jobs are committed).
/// </summary>
public sealed class JobQueue(
    PerfDbContext db,
    JobNotifier notifier,
    IOptions<JobOptions> options,
    TimeProvider time,
    ILogger<JobQueue> logger
)
{
    private readonly JobOptions _options = options.Value;

    // The states as stored (member names, the model's convention), spelled from the enum so SQL cannot drift from it.
    private const string Queued = nameof(JobState.Queued),
        Running = nameof(JobState.Running),
        Cancelled = nameof(JobState.Cancelled),
        Succeeded = nameof(JobState.Succeeded),
        Failed = nameof(JobState.Failed);

    public Task<JobAssignment?> TryClaimAsync(long agentId, long profileId, CancellationToken ct) =>
        TryClaimAsync(agentId, profileId, null, ct);

    /// <param name="projectId">When set, only that project's jobs (an agent whose token is bound to a project).</param>
    public async Task<JobAssignment?> TryClaimAsync(long agentId, long profileId, long? projectId, CancellationToken ct)
    {
        await SweepExpiredLeasesAsync(ct);
        var now = time.GetUtcNow();
        var claimed = await db
            .Database.SqlQuery<ClaimedJob>(
                $"""
                UPDATE jobs j SET state = {Running}, agent_id = {agentId}, attempts = j.attempts + 1,
                       lease_expires_at = {now} + make_interval(secs => {(double)_options.LeaseSeconds}),
                       started_at = coalesce(j.started_at, {now}),
                       log = j.log || format(E'[%s] attempt %s claimed by agent %s\n', to_char({now} AT TIME ZONE 'UTC', 'HH24:MI:SS'),
                                             j.attempts + 1, (SELECT name FROM agents WHERE id = {agentId}))
                WHERE j.id = (SELECT id FROM jobs
                              WHERE profile_id = {profileId} AND state = {Queued}
                                AND ({projectId}::bigint IS NULL OR project_id = {projectId}::bigint)
                                AND (pinned_agent_id IS NULL OR pinned_agent_id = {agentId})
                              ORDER BY priority DESC, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING j.id, j.attempts, (SELECT slug FROM projects WHERE id = j.project_id) AS project,
                          (SELECT coalesce(repository_url, '') FROM projects WHERE id = j.project_id) AS repository_url,
                          j.commit, j.base_commit, j.branch, j.pull_request, j.suites,
                          (SELECT name FROM profiles WHERE id = j.profile_id) AS profile,
                          j.rounds, j.quick, j.untrusted, extract(epoch FROM {now} - j.created_at)::float8 AS waited_seconds,
                          j.profiling::text AS profiling
                """
            )
            .ToListAsync(ct);
        if (claimed is not [var c])
            return null;
        // A retry's wait is not the queue's.
        if (c.Attempts == 1)
            PerfTelemetry.JobClaimed(c.Profile, TimeSpan.FromSeconds(c.WaitedSeconds));
        return new JobAssignment(
            c.Id,
            c.Attempts,
            c.Project,
            c.RepositoryUrl,
            c.Commit,
            c.BaseCommit,
            c.Branch,
            c.PullRequest,
            c.Suites,
            c.Profile,
            c.Rounds,
            _options.LeaseSeconds,
            c.Quick,
            c.Untrusted,
            c.Profiling is null
                ? null
                : JsonSerializer.Deserialize<ProfilingRequest>(c.Profiling, JsonSerializerOptions.Web)
        );
    }

    /// <summary>A claimed job as the claim returns it (columns named like the properties).</summary>
    private sealed record ClaimedJob(
        long Id,
        int Attempts,
        string Project,
        string RepositoryUrl,
        string Commit,
        string? BaseCommit,
        string? Branch,
        int? PullRequest,
        string[] Suites,
        string Profile,
        int Rounds,
        bool Quick,
        bool Untrusted,
        double WaitedSeconds,
        string? Profiling
    );

    /// <summary>Long polling: claims at once if it can, else waits for a notification or the timeout.</summary>
    public Task<JobAssignment?> ClaimAsync(long agentId, long profileId, TimeSpan wait, CancellationToken ct) =>
        ClaimAsync(agentId, profileId, null, wait, ct);

    public async Task<JobAssignment?> ClaimAsync(
        long agentId,
        long profileId,
        long? projectId,
        TimeSpan wait,
        CancellationToken ct
    )
    {
        var deadline = time.GetUtcNow() + wait;
        while (true)
        {
            var next = notifier.NextAsync(); // taken before trying, so a job queued in between is not missed
            if (await TryClaimAsync(agentId, profileId, projectId, ct) is { } job)
                return job;
            var left = deadline - time.GetUtcNow();
            if (left <= TimeSpan.Zero)
                return null;
            try
            {
                await next.WaitAsync(left < TimeSpan.FromSeconds(1) ? left : TimeSpan.FromSeconds(1), time, ct);
            }
            catch (TimeoutException) { }
        }
    }

    /// <summary>Extends the lease and appends the log. Null when the agent no longer holds the job (lease
    /// lost).</summary>
    public async Task<HeartbeatResponse?> HeartbeatAsync(
        long jobId,
        long agentId,
        string? progress,
        IReadOnlyList<string>? log,
        CancellationToken ct
    )
    {
        var now = time.GetUtcNow();
        var beat = await db
            .Database.SqlQuery<Beat>(
                $"""
                UPDATE jobs SET lease_expires_at = CASE WHEN state = {Running} THEN {now} + make_interval(secs => {(double)
                    _options.LeaseSeconds})
                                                        ELSE lease_expires_at END,
                       progress = coalesce({progress}, progress),
                       log = CASE WHEN length(log || v.lines) <= v.cap THEN log || v.lines
                                  ELSE v.marker || right(log || v.lines, v.cap - length(v.marker)) END
                FROM (SELECT {JoinLog(
                    log
                )}::text AS lines, {_options.MaxLogCharacters} AS cap, {LogMarker}::text AS marker) v
                WHERE id = {jobId} AND agent_id = {agentId} AND state IN ({Running}, {Cancelled})
                RETURNING state, coalesce(lease_expires_at, {now}) AS lease_expires_at, reason
                """
            )
            .ToListAsync(ct);
        return beat is [var b] ? new HeartbeatResponse(b.State == Cancelled, b.LeaseExpiresAt, b.Reason) : null;
    }

    private sealed record Beat(string State, DateTimeOffset LeaseExpiresAt, string? Reason);

    /// <summary>Finishes the job. False when the agent no longer holds it (another agent took it over).</summary>
    public async Task<bool> CompleteAsync(
        long jobId,
        long agentId,
        bool succeeded,
        string? error,
        IReadOnlyList<string>? log,
        CancellationToken ct
    )
    {
        var now = time.GetUtcNow();
        return await db.Database.ExecuteSqlAsync(
                $"""
                UPDATE jobs SET state = CASE WHEN state = {Cancelled} THEN {Cancelled} WHEN {succeeded} THEN {Succeeded} ELSE {Failed} END,
                       finished_at = {now}, lease_expires_at = NULL,
                       reason = CASE WHEN state = {Cancelled} THEN reason ELSE {error} END,
                       log = CASE WHEN length(log || v.lines) <= v.cap THEN log || v.lines
                                  ELSE v.marker || right(log || v.lines, v.cap - length(v.marker)) END
                FROM (SELECT {JoinLog(
                    log
                )}::text AS lines, {_options.MaxLogCharacters} AS cap, {LogMarker}::text AS marker) v
                WHERE id = {jobId} AND agent_id = {agentId} AND state IN ({Running}, {Cancelled}) AND finished_at IS NULL
                """,
                ct
            ) == 1;
    }

    /// <summary>Requeues jobs whose agent stopped heartbeating, or fails them after their last attempt.</summary>
    public async Task<int> SweepExpiredLeasesAsync(CancellationToken ct)
    {
        var now = time.GetUtcNow();
        var swept = await db.Database.ExecuteSqlAsync(
            $"""
            WITH expired AS (
                SELECT id FROM jobs WHERE state = {Running} AND lease_expires_at < {now} FOR UPDATE SKIP LOCKED)
            UPDATE jobs j SET
                state = CASE WHEN j.attempts >= j.max_attempts THEN {Failed} ELSE {Queued} END,
                finished_at = CASE WHEN j.attempts >= j.max_attempts THEN {now} END,
                reason = format('lease expired on attempt %s of %s: agent %s stopped sending heartbeats', j.attempts, j.max_attempts,
                                coalesce((SELECT name FROM agents WHERE id = j.agent_id), '?')),
                log = j.log || format(E'[%s] lease expired (attempt %s)\n', to_char({now} AT TIME ZONE 'UTC', 'HH24:MI:SS'),
                                      j.attempts),
                agent_id = NULL, lease_expires_at = NULL
            FROM expired WHERE j.id = expired.id
            """,
            ct
        );
        if (swept > 0)
        {
            logger.LogWarning("Returned {Count} job(s) with expired leases to the queue", swept);
            await NotifyAsync(ct);
        }
        return swept;
    }

    public Task NotifyAsync(CancellationToken ct) =>
        db.Database.ExecuteSqlAsync($"SELECT pg_notify({JobNotifier.Channel}, '')", ct);

    /// <summary>The log plus the new lines (<c>v.lines</c>), capped at <c>v.cap</c> characters in SQL, so the cap holds
    /// whichever replica appends: past it the newest lines are kept (the end of a log says how it failed) behind a
    /// marker. A marker left by an earlier cut always falls in the dropped part, so there is never more than
    /// one.</summary>
    public const string LogMarker = "[… earlier lines dropped: the log of a job is capped]\n";

    private static string JoinLog(IReadOnlyList<string>? lines) =>
        lines is null || lines.Count == 0
            ? ""
            : string.Join('\n', lines.Select(l => l.Length > 4000 ? l[..4000] + "…" : l)) + "\n";
}
