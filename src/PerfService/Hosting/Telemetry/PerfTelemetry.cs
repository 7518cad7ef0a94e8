using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace PerfService.Hosting.Telemetry;

/// <summary>
/// The service's own instruments and its trace source, both named "PerfService". Static, so that a feature records a
/// figure with one line and no constructor change; the figures read from the database (jobs, agents, queues) are
/// observable gauges per host instead (<see cref="ServiceGauges"/>).
/// </summary>
public static class PerfTelemetry
{
    public const string Name = "PerfService";
    public const string RunIdTag = "perf.run_id";

    /// <summary>Time to parse and store one upload; analysis watches it to yield the CPU to uploads.</summary>
    public const string IngestDuration = "perfservice.ingest.duration";

    public static readonly ActivitySource Source = new(Name);
    private static readonly Meter s_meter = new(Name);

    private static readonly Counter<long> s_runsIngested = s_meter.CreateCounter<long>(
        "perfservice.runs.ingested",
        "{run}",
        "Runs stored (a repeat of an idempotency key is not counted)"
    );
    private static readonly Counter<long> s_resultsIngested = s_meter.CreateCounter<long>(
        "perfservice.results.ingested",
        "{result}",
        "Benchmark results stored"
    );
    private static readonly Histogram<double> s_ingestDuration = s_meter.CreateHistogram<double>(
        IngestDuration,
        "s",
        "Time to parse and store one upload",
        advice: new InstrumentAdvice<double>
        {
            HistogramBucketBoundaries = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        }
    );
    private static readonly Counter<long> s_analyses = s_meter.CreateCounter<long>(
        "perfservice.analyses",
        "{analysis}",
        "Run analyses finished (rate: analyses per second)"
    );
    private static readonly Counter<long> s_seriesUpdated = s_meter.CreateCounter<long>(
        "perfservice.series.updated",
        "{series}",
        "Main-branch series fed to change-point detection"
    );
    private static readonly Counter<long> s_seriesStates = s_meter.CreateCounter<long>(
        "perfservice.series.states",
        "{series}",
        "Series states an analysis took up, by where from: kept in memory, decoded from the database, or new"
    );
    private static readonly Histogram<double> s_analysisLag = s_meter.CreateHistogram<double>(
        "perfservice.analysis.lag",
        "s",
        "From a run stored to its analysis finished",
        advice: new InstrumentAdvice<double>
        {
            HistogramBucketBoundaries = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
        }
    );
    private static readonly Histogram<double> s_analysisDuration = s_meter.CreateHistogram<double>(
        "perfservice.analysis.duration",
        "s",
        "Time one run analysis took",
        advice: new InstrumentAdvice<double>
        {
            HistogramBucketBoundaries = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        }
    );
    private static readonly Histogram<double> s_claimWait = s_meter.CreateHistogram<double>(
        "perfservice.jobs.claim_wait",
        "s",
        "How long a benchmark job was queued before an agent claimed it",
        advice: new InstrumentAdvice<double>
        {
            HistogramBucketBoundaries = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 21600, 86400],
        }
    );
    private static readonly Counter<long> s_publishes = s_meter.CreateCounter<long>(
        "perfservice.github.publishes",
        "{publish}",
        "Pull-request publications to GitHub by outcome"
    );
    private static readonly Histogram<double> s_rateLimitWait = s_meter.CreateHistogram<double>(
        "perfservice.github.rate_limit_wait",
        "s",
        "How long GitHub asked us to wait before publishing again",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [1, 5, 30, 60, 300, 900, 1800, 3600] }
    );
    private static readonly Counter<long> s_backgroundFailures = s_meter.CreateCounter<long>(
        "perfservice.background.failures",
        "{job}",
        "Background (Hangfire) job attempts that threw"
    );

    public static void RunIngested(string profile, int results, TimeSpan took)
    {
        var tag = new KeyValuePair<string, object?>("profile", profile);
        s_runsIngested.Add(1, tag);
        s_resultsIngested.Add(results, tag);
        s_ingestDuration.Record(took.TotalSeconds, tag);
    }

    /// <summary>
    /// The span of one analysis batch: a consumer span linked (not parented: a batch serves many ingests, and runs
    /// later) to the ingest span of every run it took, whose trace context waited in the queue with the run.
    /// </summary>
    public static Activity? StartAnalysis(IReadOnlyCollection<(long RunId, string? TraceParent)> runs)
    {
        var links = runs.Select(r =>
                ActivityContext.TryParse(r.TraceParent, null, out var context) ? new ActivityLink(context) : default
            )
            .Where(l => l.Context != default)
            .ToList();
        var activity = Source.StartActivity(
            "analyse runs",
            ActivityKind.Consumer,
            default(ActivityContext),
            links: links
        );
        activity?.SetTag("perf.batch_runs", runs.Count);
        activity?.SetTag("perf.run_ids", runs.Select(r => r.RunId).ToArray());
        return activity;
    }

    /// <param name="outcome">"analysed", or why the run was left out ("missing", "not_default_branch",
    /// "profile_mismatch").</param>
    public static void RunAnalysed(TimeSpan? lag, TimeSpan took, int seriesUpdated, string outcome)
    {
        var tag = new KeyValuePair<string, object?>("outcome", outcome);
        s_analyses.Add(1, tag);
        s_analysisDuration.Record(took.TotalSeconds, tag);
        if (lag is { } l)
            s_analysisLag.Record(Math.Max(0, l.TotalSeconds));
        if (seriesUpdated > 0)
            s_seriesUpdated.Add(seriesUpdated);
    }

    /// <param name="source">"memory" (this process still held it), "database" (decoded) or "new" (never fed).</param>
    public static void SeriesStateTaken(string source) =>
        s_seriesStates.Add(1, new KeyValuePair<string, object?>("source", source));

    public static void JobClaimed(string profile, TimeSpan waited) =>
        s_claimWait.Record(Math.Max(0, waited.TotalSeconds), new KeyValuePair<string, object?>("profile", profile));

    /// <param name="outcome">"published", "rate_limited", "failed", "skipped".</param>
    public static void Published(string outcome)
    {
        s_publishes.Add(1, new KeyValuePair<string, object?>("outcome", outcome));
        s_publishTally.AddOrUpdate(outcome, 1, (_, n) => n + 1);
    }

    public static void RateLimited(TimeSpan wait)
    {
        Published("rate_limited");
        s_rateLimitWait.Record(Math.Max(0, wait.TotalSeconds));
        Interlocked.Add(ref s_rateLimitWaitMilliseconds, (long)Math.Max(0, wait.TotalMilliseconds));
    }

    // The same publication figures kept in process for the Service page (a team without Prometheus): Prometheus sums
    // them over every replica, the page shows the process that answers it.
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, long> s_publishTally = new();
    private static long s_rateLimitWaitMilliseconds;

    /// <param name="since">From when the caller reports the tallies as counted.</param>
    public static GitHubPublishing Publishing(DateTimeOffset since) =>
        new(
            since,
            s_publishTally.OrderBy(p => p.Key, StringComparer.Ordinal).ToDictionary(p => p.Key, p => p.Value),
            s_publishTally.GetValueOrDefault("rate_limited"),
            Interlocked.Read(ref s_rateLimitWaitMilliseconds) / 1000.0
        );

    /// <summary>For an exception filter: records and lets the exception go on (<c>catch (Exception) when
    /// (PerfTelemetry.PublishFailed())</c>).</summary>
    public static bool PublishFailed()
    {
        Published("failed");
        return false;
    }

    public static void BackgroundFailed(string job) =>
        s_backgroundFailures.Add(1, new KeyValuePair<string, object?>("job", job));
}
