using Hangfire;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Hosting.Telemetry;

/// <summary>The figures an operator reads from the database: shared by the Prometheus gauges and the Service
/// page.</summary>
public sealed record ServiceStatus(
    DateTimeOffset At,
    IReadOnlyList<JobCount> Jobs,
    IReadOnlyList<AgentCount> Agents,
    IReadOnlyList<QueueLength> Queues,
    BackgroundCounts Background,
    AnalysisBacklog Analysis,
    GitHubPublishing Publishing
);

/// <summary>Pull-request publications to GitHub by outcome ("published", "skipped", "rate_limited", "failed") and the
/// waits GitHub's rate limits imposed, counted by this process since <see cref="Since"/>.</summary>
public sealed record GitHubPublishing(
    DateTimeOffset Since,
    IReadOnlyDictionary<string, long> Outcomes,
    long RateLimitWaits,
    double RateLimitWaitSeconds
);

/// <summary>Stored runs waiting for their analysis, and how long the oldest has waited: the analysis lag an autoscaler
/// scales background workers on (it grows with the backlog, whatever the size of the runs). Parked runs (their analysis
/// failed every attempt) are counted apart, the newest listed with their errors.</summary>
public sealed record AnalysisBacklog(long Runs, double OldestSeconds, long Parked, IReadOnlyList<ParkedRun> ParkedRuns);

/// <summary>A run whose analysis failed <c>Background:AnalysisAttempts</c> times and waits for an operator.</summary>
public sealed record ParkedRun(
    long RunId,
    string Project,
    DateTimeOffset QueuedAt,
    DateTimeOffset ParkedAt,
    int Attempts,
    string? Error
);

/// <summary>Benchmark jobs waiting for or held by an agent, per profile.</summary>
public sealed record JobCount(string State, string Profile, long Count, double OldestSeconds);

public sealed record AgentCount(string Profile, long Online, long Registered);

/// <param name="OldestSeconds">Age of the oldest job waiting in the queue: how far behind the background workers
/// are.</param>
public sealed record QueueLength(string Queue, long Length, double OldestSeconds);

/// <summary>Hangfire's totals: <see cref="Failed"/> are jobs that exhausted their retries and wait for an
/// operator.</summary>
public sealed record BackgroundCounts(
    long Enqueued,
    long Scheduled,
    long Processing,
    long Failed,
    long Succeeded,
    long Servers
);

/// <summary>
/// Reads <see cref="ServiceStatus"/> with a few cheap statements (active jobs by an index, agents, Hangfire's
/// monitoring API) and keeps it for <see cref="TelemetryOptions.SnapshotSeconds"/>, so frequent scrapes and page
/// refreshes cost the database one read per interval.
/// </summary>
public sealed class ServiceSnapshot(
    IServiceScopeFactory scopes,
    JobStorage storage,
    IOptions<TelemetryOptions> options,
    TimeProvider time
)
{
    private const string DefaultQueue = "default";
    private static readonly string[] ActiveStates = [nameof(JobState.Queued), nameof(JobState.Running)];
    private readonly SemaphoreSlim _gate = new(1, 1);
    private ServiceStatus? _last;

    // The process's live tallies are reported as counted since this singleton was made (at its first use).
    private readonly DateTimeOffset _since = time.GetUtcNow();

    /// <summary>The database's figures as of the last read (at most SnapshotSeconds old), with this process's live
    /// tallies.</summary>
    public async Task<ServiceStatus> GetAsync(CancellationToken ct) =>
        (await ReadCachedAsync(ct)) with
        {
            Publishing = PerfTelemetry.Publishing(_since),
        };

    /// <summary>Drops the kept figures, so the next read sees an admin's change (a retried run) at once rather
    /// than up to SnapshotSeconds later.</summary>
    public void Invalidate() => _last = null;

    private async Task<ServiceStatus> ReadCachedAsync(CancellationToken ct)
    {
        var maxAge = TimeSpan.FromSeconds(options.Value.SnapshotSeconds);
        if (_last is { } fresh && time.GetUtcNow() - fresh.At < maxAge)
            return fresh;
        await _gate.WaitAsync(ct);
        try
        {
            if (_last is { } again && time.GetUtcNow() - again.At < maxAge)
                return again;
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
        // A singleton (the gauges read it): each read takes a context of its own.
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<PerfDbContext>();
        var jobs = await db
            .Database.SqlQuery<JobCount>(
                $"""
                SELECT j.state, p.name AS profile, count(*) AS count,
                       coalesce(extract(epoch FROM {now} - min(j.created_at)), 0)::float8 AS oldest_seconds
                FROM jobs j JOIN profiles p ON p.id = j.profile_id
                WHERE j.state IN ({ActiveStates[0]}, {ActiveStates[1]})
                GROUP BY j.state, p.name ORDER BY p.name, j.state
                """
            )
            .ToListAsync(ct);

        var online = (double)options.Value.AgentOnlineSeconds;
        var agents = await db
            .Database.SqlQuery<AgentCount>(
                $"""
                SELECT p.name AS profile,
                       count(a.id) FILTER (WHERE a.last_seen_at > {now} - make_interval(secs => {online})) AS online,
                       count(a.id) AS registered
                FROM profiles p LEFT JOIN agents a ON a.profile_id = p.id
                GROUP BY p.name ORDER BY p.name
                """
            )
            .ToListAsync(ct);

        // Every profile gets a row per active state, zero included, so a gauge (and an alert on it) never disappears.
        jobs =
        [
            .. agents.SelectMany(a =>
                ActiveStates.Select(state =>
                    jobs.FirstOrDefault(j => j.Profile == a.Profile && j.State == state)
                    ?? new JobCount(state, a.Profile, 0, 0)
                )
            ),
        ];

        // Hangfire's monitoring API is synchronous; it reads a few small tables.
        var monitoring = storage.GetMonitoringApi();
        var stats = monitoring.GetStatistics();
        var queues = monitoring
            .Queues()
            .Select(q => new QueueLength(
                q.Name,
                q.Length,
                q.FirstJobs.Select(j => j.Value?.EnqueuedAt)
                    .Where(t => t is not null)
                    .Select(t =>
                        (now - new DateTimeOffset(DateTime.SpecifyKind(t!.Value, DateTimeKind.Utc))).TotalSeconds
                    )
                    .DefaultIfEmpty(0)
                    .Max()
            ))
            .ToList();
        if (!queues.Any(q => q.Queue == DefaultQueue))
            queues.Insert(0, new QueueLength(DefaultQueue, 0, 0));
        var background = new BackgroundCounts(
            stats.Enqueued,
            stats.Scheduled,
            stats.Processing,
            stats.Failed,
            stats.Succeeded,
            stats.Servers
        );
        var analysis = await ReadAnalysisAsync(db, ct);
        return new ServiceStatus(now, jobs, agents, queues, background, analysis, PerfTelemetry.Publishing(_since));
    }

    private const int ParkedListed = 20;

    private static async Task<AnalysisBacklog> ReadAnalysisAsync(PerfDbContext db, CancellationToken ct)
    {
        var backlog = (
            await db
                .Database.SqlQuery<Backlog>(
                    $"""
                    SELECT count(*) FILTER (WHERE parked_at IS NULL) AS waiting,
                           coalesce(extract(epoch FROM now() - min(queued_at) FILTER (WHERE parked_at IS NULL)), 0)::float8
                               AS oldest_seconds,
                           count(*) FILTER (WHERE parked_at IS NOT NULL) AS parked
                    FROM analysis_queue
                    """
                )
                .ToListAsync(ct)
        ).Single();
        if (backlog.Parked == 0)
            return new AnalysisBacklog(backlog.Waiting, backlog.OldestSeconds, 0, []);
        var listed = await db
            .Database.SqlQuery<ParkedRun>(
                $"""
                SELECT q.run_id, p.slug AS project, q.queued_at, q.parked_at, q.attempts, q.error
                FROM analysis_queue q JOIN runs r ON r.id = q.run_id JOIN projects p ON p.id = r.project_id
                WHERE q.parked_at IS NOT NULL ORDER BY q.parked_at DESC, q.run_id DESC LIMIT {ParkedListed}
                """
            )
            .ToListAsync(ct);
        return new AnalysisBacklog(backlog.Waiting, backlog.OldestSeconds, backlog.Parked, listed);
    }

    private sealed record Backlog(long Waiting, double OldestSeconds, long Parked);
}
