using System.Diagnostics.Metrics;

namespace PerfService.Hosting.Telemetry;

/// <summary>
/// The observable gauges over <see cref="ServiceSnapshot"/>: made per host (IMeterFactory), so that each one reads its
/// own database. A scrape reads the cached snapshot; it waits for the database only when the snapshot is stale.
/// </summary>
public sealed class ServiceGauges : IDisposable
{
    private readonly Meter _meter;
    private readonly ServiceSnapshot _snapshot;

    public ServiceGauges(IMeterFactory meters, ServiceSnapshot snapshot)
    {
        _snapshot = snapshot;
        _meter = meters.Create(PerfTelemetry.Name);
        _meter.CreateObservableGauge(
            "perfservice.jobs",
            () =>
                Read(s =>
                    s.Jobs.Select(j => new Measurement<long>(
                        j.Count,
                        Tag("state", j.State.ToLowerInvariant()),
                        Tag("profile", j.Profile)
                    ))
                ),
            "{job}",
            "Benchmark jobs queued or running, by profile"
        );
        _meter.CreateObservableGauge(
            "perfservice.jobs.oldest",
            () =>
                Read(s =>
                    s.Jobs.Select(j => new Measurement<double>(
                        j.OldestSeconds,
                        Tag("state", j.State.ToLowerInvariant()),
                        Tag("profile", j.Profile)
                    ))
                ),
            "s",
            "Age of the oldest queued or running benchmark job"
        );
        _meter.CreateObservableGauge(
            "perfservice.agents.online",
            () => Read(s => s.Agents.Select(a => new Measurement<long>(a.Online, Tag("profile", a.Profile)))),
            "{agent}",
            "Agents seen recently, by profile"
        );
        _meter.CreateObservableGauge(
            "perfservice.agents.registered",
            () => Read(s => s.Agents.Select(a => new Measurement<long>(a.Registered, Tag("profile", a.Profile)))),
            "{agent}",
            "Agents registered, by profile"
        );
        _meter.CreateObservableGauge(
            "perfservice.background.queue.length",
            () => Read(s => s.Queues.Select(q => new Measurement<long>(q.Length, Tag("queue", q.Queue)))),
            "{job}",
            "Background jobs waiting in a Hangfire queue"
        );
        _meter.CreateObservableGauge(
            "perfservice.background.queue.oldest",
            () => Read(s => s.Queues.Select(q => new Measurement<double>(q.OldestSeconds, Tag("queue", q.Queue)))),
            "s",
            "Age of the oldest job waiting in a Hangfire queue (the analysis backlog's lag)"
        );
        _meter.CreateObservableGauge(
            "perfservice.background.jobs",
            () =>
                Read(s =>
                    new[]
                    {
                        new Measurement<long>(s.Background.Enqueued, Tag("state", "enqueued")),
                        new Measurement<long>(s.Background.Scheduled, Tag("state", "scheduled")),
                        new Measurement<long>(s.Background.Processing, Tag("state", "processing")),
                        new Measurement<long>(s.Background.Failed, Tag("state", "failed")),
                    }
                ),
            "{job}",
            "Hangfire jobs by state (failed: retries exhausted)"
        );
        _meter.CreateObservableGauge(
            "perfservice.analysis.backlog",
            () => Read(s => new[] { new Measurement<long>(s.Analysis.Runs) }),
            "{run}",
            "Stored runs waiting for their analysis"
        );
        _meter.CreateObservableGauge(
            "perfservice.analysis.backlog.oldest",
            () => Read(s => new[] { new Measurement<double>(s.Analysis.OldestSeconds) }),
            "s",
            "How long the oldest run waiting for its analysis has waited (the analysis lag; autoscaling metric of the background role)"
        );
        _meter.CreateObservableGauge(
            "perfservice.analysis.parked",
            () => Read(s => new[] { new Measurement<long>(s.Analysis.Parked) }),
            "{run}",
            "Runs whose analysis failed every attempt, parked for an operator (listed on the Service page)"
        );
        _meter.CreateObservableGauge(
            "perfservice.background.servers",
            () => Read(s => new[] { new Measurement<long>(s.Background.Servers) }),
            "{server}",
            "Hangfire servers (service replicas running background work)"
        );
    }

    private IEnumerable<Measurement<T>> Read<T>(Func<ServiceStatus, IEnumerable<Measurement<T>>> select)
        where T : struct
    {
        ServiceStatus status;
        try
        {
            status = _snapshot.GetAsync(CancellationToken.None).GetAwaiter().GetResult();
        }
        catch (Exception e) when (e is Npgsql.NpgsqlException or TimeoutException or InvalidOperationException)
        {
            return []; // a database away leaves gaps in the gauges; /readyz says why
        }
        return select(status).ToList();
    }

    private static KeyValuePair<string, object?> Tag(string key, object? value) => new(key, value);

    public void Dispose() => _meter.Dispose();
}
