using System.Diagnostics;
using Npgsql;

namespace PerfService.LoadTest;

/// <summary>How far background analysis got behind: the runs waiting in the analysis queue when the load stopped, how long
/// they took to drain, and the lag of every analysed run from stored (<c>runs.created_at</c>) to analysed
/// (<c>runs.analysed_at</c>, set in the batch's transaction). Runs analysed during the load = runs stored during it +
/// <see cref="WaitingAtStart"/> − <see cref="WaitingAtStop"/>, so while analysis keeps pace its ratio to stored straddles
/// 1 by a batch or two either way.</summary>
public sealed record AnalysisLag(long WaitingAtStart, long WaitingAtStop, double OldestWaitingSeconds, long WaitingAtEnd, double? DrainedSeconds, int WaitedSeconds,
    long Finished, double? P50Seconds, double? P99Seconds, double? MaxSeconds, long Parked)
{
    public string Line() =>
        $"analysis lag (stored → analysed): {Spread(P50Seconds, P99Seconds, MaxSeconds)} over the {Finished} runs stored during the measured load; " +
        $"backlog when the load started: {WaitingAtStart} waiting; when it stopped: {WaitingAtStop} waiting (oldest {OldestWaitingSeconds:0.0} s); " +
        (DrainedSeconds is { } d ? $"drained {d:0.0} s after the load stopped" : $"{WaitingAtEnd} still waiting {WaitedSeconds} s after the load stopped") +
        $"; parked (analysis failed every attempt): {Parked}";

    private static string Spread(double? p50, double? p99, double? max) => $"p50 {Seconds(p50)}, p99 {Seconds(p99)}, max {Seconds(max)}";

    private static string Seconds(double? s) => s is { } v ? $"{v:0.00} s" : "n/a";
}

/// <summary>How many finished, and the p50, p99 and largest of their lags in seconds.</summary>
public sealed record Lags(long Count, double? P50, double? P99, double? Max);

public static class AnalysisLagProbe
{
    // Runs stored and not analysed yet: in the analysis queue (a batch holding one still has it until it commits); a
    // parked run is counted apart.
    private const string Waiting = """
        SELECT count(*) FILTER (WHERE parked_at IS NULL),
               coalesce(extract(epoch FROM now() - min(queued_at) FILTER (WHERE parked_at IS NULL)), 0)::float8,
               count(*) FILTER (WHERE parked_at IS NOT NULL)
        FROM analysis_queue
        """;

    private const string RunLags = """
        SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY lag), percentile_cont(0.99) WITHIN GROUP (ORDER BY lag), max(lag)
        FROM (SELECT extract(epoch FROM analysed_at - created_at)::float8 AS lag FROM runs
              WHERE analysed_at IS NOT NULL AND created_at >= $1) x
        """;

    /// <summary>The runs waiting now (when the load starts and when it stops).</summary>
    public static async Task<(long Count, double OldestSeconds)> NowAsync(string database, CancellationToken ct)
    {
        var (count, oldest, _) = await WaitingAsync(database, ct);
        return (count, oldest);
    }

    // Polled while the backlog drains: the queue alone.
    private static async Task<(long Count, double OldestSeconds, long Parked)> WaitingAsync(string database, CancellationToken ct)
    {
        await using var conn = new NpgsqlConnection(database);
        await conn.OpenAsync(ct);
        await using var cmd = new NpgsqlCommand(Waiting, conn);
        await using var r = await cmd.ExecuteReaderAsync(ct);
        await r.ReadAsync(ct);
        return (r.GetInt64(0), r.GetDouble(1), r.GetInt64(2));
    }

    /// <summary>Waits up to <paramref name="waitSeconds"/> for the backlog to drain, then reads the lags of the runs
    /// stored since <paramref name="loadStartedAt"/> (the measured load; warm-up runs are left out).</summary>
    public static async Task<AnalysisLag> MeasureAsync(string database, DateTime loadStartedAt, long atStart, (long Count, double OldestSeconds) atStop,
        TimeSpan sinceStop, int waitSeconds, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        var waiting = atStop.Count;
        double? drained = waiting == 0 ? 0 : null;
        while (waiting > 0 && clock.Elapsed < TimeSpan.FromSeconds(waitSeconds))
        {
            waiting = (await WaitingAsync(database, ct)).Count;
            if (waiting == 0) drained = (sinceStop + clock.Elapsed).TotalSeconds;
            else await Task.Delay(500, ct);
        }
        var runs = await LagsAsync(database, RunLags, loadStartedAt, ct);
        var parked = (await WaitingAsync(database, ct)).Parked;
        return new AnalysisLag(atStart, atStop.Count, atStop.OldestSeconds, waiting, drained, waitSeconds, runs.Count, runs.P50, runs.P99, runs.Max, parked);
    }

    private static async Task<Lags> LagsAsync(string database, string sql, DateTime since, CancellationToken ct)
    {
        await using var conn = new NpgsqlConnection(database);
        await conn.OpenAsync(ct);
        await using var cmd = new NpgsqlCommand(sql, conn);
        cmd.Parameters.Add(new() { Value = since });
        await using var r = await cmd.ExecuteReaderAsync(ct);
        await r.ReadAsync(ct);
        var count = r.GetInt64(0);
        return count > 0 ? new Lags(count, r.GetDouble(1), r.GetDouble(2), r.GetDouble(3)) : new Lags(0, null, null, null);
    }
}
