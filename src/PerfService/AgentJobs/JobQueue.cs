using System.Text.Json;
using Microsoft.Extensions.Options;
using Npgsql;
using PerfService.Core.Contracts;
using PerfService.Data.Entities;
using PerfService.Hosting.Telemetry;

namespace PerfService.AgentJobs;

/// <summary>
/// The benchmark job queue in PostgreSQL. Claiming takes the best queued job of the agent's profile with
/// <c>FOR UPDATE SKIP LOCKED</c>, so any number of replicas and agents never hand one job to two agents; a claim holds
/// a lease that heartbeats extend, and an expired lease puts the job back (or fails it after its last attempt).
/// All times are the service's (its <see cref="TimeProvider"/>, passed as $now), never an agent's, so an agent with a
/// wrong clock cannot stretch or cut a lease; tests move that clock on instead of sleeping.
/// </summary>
public sealed class JobQueue(NpgsqlDataSource dataSource, JobNotifier notifier, IOptions<JobOptions> options, TimeProvider time, ILogger<JobQueue> logger)
{
    private readonly JobOptions _options = options.Value;

    // The states as stored (member names, the model's convention), spelled from the enum so SQL cannot drift from it.
    private const string Queued = nameof(JobState.Queued), Running = nameof(JobState.Running), Cancelled = nameof(JobState.Cancelled),
        Succeeded = nameof(JobState.Succeeded), Failed = nameof(JobState.Failed);

    public Task<JobAssignment?> TryClaimAsync(long agentId, long profileId, CancellationToken ct) => TryClaimAsync(agentId, profileId, null, ct);

    /// <param name="projectId">When set, only that project's jobs (an agent whose token is bound to a project).</param>
    public async Task<JobAssignment?> TryClaimAsync(long agentId, long profileId, long? projectId, CancellationToken ct)
    {
        await SweepExpiredLeasesAsync(ct);
        await using var cmd = dataSource.CreateCommand($"""
            UPDATE jobs j SET state = '{Running}', agent_id = $1, attempts = j.attempts + 1,
                   lease_expires_at = $5 + make_interval(secs => $3), started_at = coalesce(j.started_at, $5),
                   log = j.log || format(E'[%s] attempt %s claimed by agent %s\n', to_char($5 AT TIME ZONE 'UTC', 'HH24:MI:SS'), j.attempts + 1, (SELECT name FROM agents WHERE id = $1))
            WHERE j.id = (SELECT id FROM jobs WHERE profile_id = $2 AND state = '{Queued}' AND ($4::bigint IS NULL OR project_id = $4)
                          AND (pinned_agent_id IS NULL OR pinned_agent_id = $1)
                          ORDER BY priority DESC, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING j.id, j.attempts, (SELECT slug FROM projects WHERE id = j.project_id), (SELECT coalesce(repository_url, '') FROM projects WHERE id = j.project_id),
                      j.commit, j.base_commit, j.branch, j.pull_request, j.suites, (SELECT name FROM profiles WHERE id = j.profile_id), j.rounds, j.quick, j.untrusted,
                      extract(epoch FROM $5 - j.created_at)::float8, j.profiling::text
            """);
        cmd.Parameters.Add(new() { Value = agentId });
        cmd.Parameters.Add(new() { Value = profileId });
        cmd.Parameters.Add(new() { Value = (double)_options.LeaseSeconds });
        cmd.Parameters.Add(new() { Value = (object?)projectId ?? DBNull.Value, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Bigint });
        cmd.Parameters.Add(new() { Value = time.GetUtcNow() });
        await using var r = await cmd.ExecuteReaderAsync(ct);
        if (!await r.ReadAsync(ct)) return null;
        if (r.GetInt32(1) == 1) PerfTelemetry.JobClaimed(r.GetString(9), TimeSpan.FromSeconds(r.GetDouble(13))); // a retry's wait is not the queue's
        return new JobAssignment(r.GetInt64(0), r.GetInt32(1), r.GetString(2), r.GetString(3), r.GetString(4),
            r.IsDBNull(5) ? null : r.GetString(5), r.IsDBNull(6) ? null : r.GetString(6), r.IsDBNull(7) ? null : r.GetInt32(7),
            r.GetFieldValue<string[]>(8), r.GetString(9), r.GetInt32(10), _options.LeaseSeconds, r.GetBoolean(11), r.GetBoolean(12),
            r.IsDBNull(14) ? null : JsonSerializer.Deserialize<ProfilingRequest>(r.GetString(14), JsonSerializerOptions.Web));
    }

    /// <summary>Long polling: claims at once if it can, else waits for a notification or the timeout.</summary>
    public Task<JobAssignment?> ClaimAsync(long agentId, long profileId, TimeSpan wait, CancellationToken ct) => ClaimAsync(agentId, profileId, null, wait, ct);

    public async Task<JobAssignment?> ClaimAsync(long agentId, long profileId, long? projectId, TimeSpan wait, CancellationToken ct)
    {
        var deadline = time.GetUtcNow() + wait;
        while (true)
        {
            var next = notifier.NextAsync(); // taken before trying, so a job queued in between is not missed
            if (await TryClaimAsync(agentId, profileId, projectId, ct) is { } job) return job;
            var left = deadline - time.GetUtcNow();
            if (left <= TimeSpan.Zero) return null;
            try
            {
                await next.WaitAsync(left < TimeSpan.FromSeconds(1) ? left : TimeSpan.FromSeconds(1), time, ct);
            }
            catch (TimeoutException)
            {
            }
        }
    }

    /// <summary>Extends the lease and appends the log. Null when the agent no longer holds the job (lease lost).</summary>
    public async Task<HeartbeatResponse?> HeartbeatAsync(long jobId, long agentId, string? progress, IReadOnlyList<string>? log, CancellationToken ct)
    {
        await using var cmd = dataSource.CreateCommand($"""
            UPDATE jobs SET lease_expires_at = CASE WHEN state = '{Running}' THEN $8 + make_interval(secs => $3) ELSE lease_expires_at END,
                   progress = coalesce($4, progress), log = {CappedLog}
            WHERE id = $1 AND agent_id = $2 AND state IN ('{Running}', '{Cancelled}')
            RETURNING state, coalesce(lease_expires_at, $8), reason
            """);
        cmd.Parameters.Add(new() { Value = jobId });
        cmd.Parameters.Add(new() { Value = agentId });
        cmd.Parameters.Add(new() { Value = (double)_options.LeaseSeconds });
        cmd.Parameters.Add(new() { Value = (object?)progress ?? DBNull.Value });
        cmd.Parameters.Add(new() { Value = JoinLog(log) });
        cmd.Parameters.Add(new() { Value = _options.MaxLogCharacters });
        cmd.Parameters.Add(new() { Value = LogMarker });
        cmd.Parameters.Add(new() { Value = time.GetUtcNow() });
        await using var r = await cmd.ExecuteReaderAsync(ct);
        if (!await r.ReadAsync(ct)) return null;
        var cancelled = r.GetString(0) == nameof(JobState.Cancelled);
        return new HeartbeatResponse(cancelled, r.GetFieldValue<DateTimeOffset>(1), r.IsDBNull(2) ? null : r.GetString(2));
    }

    /// <summary>Finishes the job. False when the agent no longer holds it (another agent took it over).</summary>
    public async Task<bool> CompleteAsync(long jobId, long agentId, bool succeeded, string? error, IReadOnlyList<string>? log, CancellationToken ct)
    {
        await using var cmd = dataSource.CreateCommand($"""
            UPDATE jobs SET state = CASE WHEN state = '{Cancelled}' THEN '{Cancelled}' WHEN $3 THEN '{Succeeded}' ELSE '{Failed}' END,
                   finished_at = $8, lease_expires_at = NULL, reason = CASE WHEN state = '{Cancelled}' THEN reason ELSE $4 END, log = {CappedLog}
            WHERE id = $1 AND agent_id = $2 AND state IN ('{Running}', '{Cancelled}') AND finished_at IS NULL
            """);
        cmd.Parameters.Add(new() { Value = jobId });
        cmd.Parameters.Add(new() { Value = agentId });
        cmd.Parameters.Add(new() { Value = succeeded });
        cmd.Parameters.Add(new() { Value = (object?)error ?? DBNull.Value });
        cmd.Parameters.Add(new() { Value = JoinLog(log) });
        cmd.Parameters.Add(new() { Value = _options.MaxLogCharacters });
        cmd.Parameters.Add(new() { Value = LogMarker });
        cmd.Parameters.Add(new() { Value = time.GetUtcNow() });
        return await cmd.ExecuteNonQueryAsync(ct) == 1;
    }

    /// <summary>Requeues jobs whose agent stopped heartbeating, or fails them after their last attempt.</summary>
    public async Task<int> SweepExpiredLeasesAsync(CancellationToken ct)
    {
        await using var cmd = dataSource.CreateCommand($"""
            WITH expired AS (
                SELECT id FROM jobs WHERE state = '{Running}' AND lease_expires_at < $1 FOR UPDATE SKIP LOCKED)
            UPDATE jobs j SET
                state = CASE WHEN j.attempts >= j.max_attempts THEN '{Failed}' ELSE '{Queued}' END,
                finished_at = CASE WHEN j.attempts >= j.max_attempts THEN $1 END,
                reason = format('lease expired on attempt %s of %s: agent %s stopped sending heartbeats', j.attempts, j.max_attempts,
                                coalesce((SELECT name FROM agents WHERE id = j.agent_id), '?')),
                log = j.log || format(E'[%s] lease expired (attempt %s)\n', to_char($1 AT TIME ZONE 'UTC', 'HH24:MI:SS'), j.attempts),
                agent_id = NULL, lease_expires_at = NULL
            FROM expired WHERE j.id = expired.id
            """);
        cmd.Parameters.Add(new() { Value = time.GetUtcNow() });
        var swept = await cmd.ExecuteNonQueryAsync(ct);
        if (swept > 0)
        {
            logger.LogWarning("Returned {Count} job(s) with expired leases to the queue", swept);
            await NotifyAsync(ct);
        }
        return swept;
    }

    public async Task NotifyAsync(CancellationToken ct)
    {
        await using var cmd = dataSource.CreateCommand($"NOTIFY {JobNotifier.Channel}");
        await cmd.ExecuteNonQueryAsync(ct);
    }

    /// <summary>The log plus the new lines ($5), capped at $6 characters in SQL, so the cap holds whichever replica
    /// appends: past it the newest lines are kept (the end of a log says how it failed) behind a marker. A marker left
    /// by an earlier cut always falls in the dropped part, so there is never more than one.</summary>
    public const string LogMarker = "[… earlier lines dropped: the log of a job is capped]\n";

    private const string CappedLog = "CASE WHEN length(log || $5) <= $6 THEN log || $5 ELSE $7 || right(log || $5, $6 - length($7)) END";

    private static string JoinLog(IReadOnlyList<string>? lines) =>
        lines is null || lines.Count == 0 ? "" : string.Join('\n', lines.Select(l => l.Length > 4000 ? l[..4000] + "…" : l)) + "\n";
}
