using System.Data;
using Hangfire;
using Microsoft.Extensions.Options;
using Npgsql;
using PerfService.Data.Entities;

namespace PerfService.Hosting.Telemetry;

/// <summary>The figures an operator reads from the database: shared by the Prometheus gauges and the Service page.</summary>
public sealed record ServiceStatus(
    DateTimeOffset At,
    IReadOnlyList<JobCount> Jobs,
    IReadOnlyList<AgentCount> Agents,
    IReadOnlyList<QueueLength> Queues,
    BackgroundCounts Background,
    AnalysisBacklog Analysis,
    GitHubPublishing Publishing);

/// <summary>Pull-request publications to GitHub by outcome ("published", "skipped", "rate_limited", "failed") and the
/// waits GitHub's rate limits imposed, counted by this process since <see cref="Since"/>.</summary>
public sealed record GitHubPublishing(DateTimeOffset Since, IReadOnlyDictionary<string, long> Outcomes, long RateLimitWaits, double RateLimitWaitSeconds);

/// <summary>Stored runs waiting for their analysis, and how long the oldest has waited: the analysis lag an autoscaler
/// scales background workers on (it grows with the backlog, whatever the size of the runs). Parked runs (their analysis
/// failed every attempt) are counted apart, the newest listed with their errors.</summary>
public sealed record AnalysisBacklog(long Runs, double OldestSeconds, long Parked, IReadOnlyList<ParkedRun> ParkedRuns);

/// <summary>A run whose analysis failed <c>Background:AnalysisAttempts</c> times and waits for an operator.</summary>
public sealed record ParkedRun(long RunId, string Project, DateTimeOffset QueuedAt, DateTimeOffset ParkedAt, int Attempts, string? Error);

/// <summary>Benchmark jobs waiting for or held by an agent, per profile.</summary>
public sealed record JobCount(string State, string Profile, long Count, double OldestSeconds);

public sealed record AgentCount(string Profile, long Online, long Registered);

/// <param name="OldestSeconds">Age of the oldest job waiting in the queue: how far behind the background workers are.</param>
public sealed record QueueLength(string Queue, long Length, double OldestSeconds);

/// <summary>Hangfire's totals: <see cref="Failed"/> are jobs that exhausted their retries and wait for an operator.</summary>
public sealed record BackgroundCounts(long Enqueued, long Scheduled, long Processing, long Failed, long Succeeded, long Servers);

/// <summary>
/// Reads <see cref="ServiceStatus"/> with a few cheap statements (active jobs by an index, agents, Hangfire's
/// monitoring API) and keeps it for <see cref="TelemetryOptions.SnapshotSeconds"/>, so frequent scrapes and page
/// refreshes cost the database one read per interval.
/// </summary>
public sealed class ServiceSnapshot(NpgsqlDataSource dataSource, JobStorage storage, IOptions<TelemetryOptions> options, TimeProvider time)
{
    private const string DefaultQueue = "default";
    private static readonly string[] ActiveStates = [nameof(JobState.Queued), nameof(JobState.Running)];
    private readonly SemaphoreSlim _gate = new(1, 1);
    private ServiceStatus? _last;
    // The process's live tallies are reported as counted since this singleton was made (at its first use).
    private readonly DateTimeOffset _since = time.GetUtcNow();

    /// <summary>The database's figures as of the last read (at most SnapshotSeconds old), with this process's live tallies.</summary>
    public async Task<ServiceStatus> GetAsync(CancellationToken ct) => (await ReadCachedAsync(ct)) with { Publishing = PerfTelemetry.Publishing(_since) };

    private async Task<ServiceStatus> ReadCachedAsync(CancellationToken ct)
    {
        var maxAge = TimeSpan.FromSeconds(options.Value.SnapshotSeconds);
        if (_last is { } fresh && time.GetUtcNow() - fresh.At < maxAge) return fresh;
        await _gate.WaitAsync(ct);
        try
        {
            if (_last is { } again && time.GetUtcNow() - again.At < maxAge) return again;
            return _last = await ReadAsync(ct);
        }
        finally
        {
            _gate.Release();
        }
    }

    private async Task<ServiceStatus> ReadAsync(CancellationToken ct)
    {
        var now = time.GetUtcNow();
        var jobs = new List<JobCount>();
        await using (var cmd = dataSource.CreateCommand($"""
            SELECT j.state, p.name, count(*), coalesce(extract(epoch FROM $1 - min(j.created_at)), 0)::float8
            FROM jobs j JOIN profiles p ON p.id = j.profile_id
            WHERE j.state IN ('{nameof(JobState.Queued)}', '{nameof(JobState.Running)}')
            GROUP BY j.state, p.name ORDER BY p.name, j.state
            """))
        {
            cmd.Parameters.Add(new() { Value = now });
            await using var r = await cmd.ExecuteReaderAsync(ct);
            while (await r.ReadAsync(ct)) jobs.Add(new JobCount(r.GetString(0), r.GetString(1), r.GetInt64(2), r.GetDouble(3)));
        }

        var agents = new List<AgentCount>();
        await using (var cmd = dataSource.CreateCommand("""
            SELECT p.name, count(a.id) FILTER (WHERE a.last_seen_at > $2 - make_interval(secs => $1)), count(a.id)
            FROM profiles p LEFT JOIN agents a ON a.profile_id = p.id
            GROUP BY p.name ORDER BY p.name
            """))
        {
            cmd.Parameters.Add(new() { Value = (double)options.Value.AgentOnlineSeconds });
            cmd.Parameters.Add(new() { Value = now });
            await using var r = await cmd.ExecuteReaderAsync(ct);
            while (await r.ReadAsync(ct)) agents.Add(new AgentCount(r.GetString(0), r.GetInt64(1), r.GetInt64(2)));
        }

        // Every profile gets a row per active state, zero included, so a gauge (and an alert on it) never disappears.
        jobs = [.. agents.SelectMany(a => ActiveStates.Select(state =>
            jobs.FirstOrDefault(j => j.Profile == a.Profile && j.State == state) ?? new JobCount(state, a.Profile, 0, 0)))];

        // Hangfire's monitoring API is synchronous; it reads a few small tables.
        var monitoring = storage.GetMonitoringApi();
        var stats = monitoring.GetStatistics();
        var queues = monitoring.Queues().Select(q => new QueueLength(q.Name, q.Length,
            q.FirstJobs.Select(j => j.Value?.EnqueuedAt).Where(t => t is not null).Select(t => (now - new DateTimeOffset(DateTime.SpecifyKind(t!.Value, DateTimeKind.Utc))).TotalSeconds)
                .DefaultIfEmpty(0).Max())).ToList();
        if (!queues.Any(q => q.Queue == DefaultQueue)) queues.Insert(0, new QueueLength(DefaultQueue, 0, 0));
        var background = new BackgroundCounts(stats.Enqueued, stats.Scheduled, stats.Processing, stats.Failed, stats.Succeeded, stats.Servers);
        var analysis = await ReadAnalysisAsync(ct);
        return new ServiceStatus(now, jobs, agents, queues, background, analysis, PerfTelemetry.Publishing(_since));
    }

    private const int ParkedListed = 20;

    private async Task<AnalysisBacklog> ReadAnalysisAsync(CancellationToken ct)
    {
        long waiting = 0, parked = 0;
        double oldest = 0;
        await using (var cmd = dataSource.CreateCommand("""
            SELECT count(*) FILTER (WHERE parked_at IS NULL),
                   coalesce(extract(epoch FROM now() - min(queued_at) FILTER (WHERE parked_at IS NULL)), 0)::float8,
                   count(*) FILTER (WHERE parked_at IS NOT NULL)
            FROM analysis_queue
            """))
        await using (var r = await cmd.ExecuteReaderAsync(ct))
            if (await r.ReadAsync(ct)) (waiting, oldest, parked) = (r.GetInt64(0), r.GetDouble(1), r.GetInt64(2));
        var listed = new List<ParkedRun>();
        if (parked == 0) return new AnalysisBacklog(waiting, oldest, 0, listed);
        await using (var cmd = dataSource.CreateCommand($"""
            SELECT q.run_id, p.slug, q.queued_at, q.parked_at, q.attempts, q.error
            FROM analysis_queue q JOIN runs r ON r.id = q.run_id JOIN projects p ON p.id = r.project_id
            WHERE q.parked_at IS NOT NULL ORDER BY q.parked_at DESC, q.run_id DESC LIMIT {ParkedListed}
            """))
        await using (var r = await cmd.ExecuteReaderAsync(ct))
            while (await r.ReadAsync(ct))
                listed.Add(new ParkedRun(r.GetInt64("run_id"), r.GetString("slug"), r.GetFieldValue<DateTimeOffset>("queued_at"),
                    r.GetFieldValue<DateTimeOffset>("parked_at"), r.GetInt32("attempts"), r.IsDBNull("error") ? null : r.GetString("error")));
        return new AnalysisBacklog(waiting, oldest, parked, listed);
    }
}
