using System.Diagnostics;
using Npgsql;

namespace PerfService.LoadTest;

/// <summary>How far background analysis got behind: the runs waiting in the analysis queue when the load stopped, how long
/// they took to drain, and the lag of every analysed run from stored (<c>runs.created_at</c>) to analysed
/// (<c>runs.analysed_at</c>, set in the batch's transaction). Besides, the same for the Hangfire jobs queued per run, as
/// Hangfire recorded them: a job whose run an earlier batch took ends at once, but waits its turn first, so the job
/// figures run behind the runs' own.</summary>
public sealed record AnalysisLag(long WaitingAtStop, double OldestWaitingSeconds, long WaitingAtEnd, double? DrainedSeconds, int WaitedSeconds,
    long Finished, double? P50Seconds, double? P99Seconds, double? MaxSeconds, Lags Jobs, long JobsWaitingAtStop)
{
    public string Line() =>
        $"analysis lag (stored → analysed): {Spread(P50Seconds, P99Seconds, MaxSeconds)} over {Finished} finished analyses; " +
        $"backlog when the load stopped: {WaitingAtStop} waiting (oldest {OldestWaitingSeconds:0.0} s); " +
        (DrainedSeconds is { } d ? $"drained {d:0.0} s after the load stopped" : $"{WaitingAtEnd} still waiting {WaitedSeconds} s after the load stopped");

    public string JobsLine() =>
        $"analysis jobs (Hangfire, queued → succeeded): {Spread(Jobs.P50, Jobs.P99, Jobs.Max)} over {Jobs.Count} jobs; " +
        $"{JobsWaitingAtStop} queued when the load stopped";

    private static string Spread(double? p50, double? p99, double? max) => $"p50 {Seconds(p50)}, p99 {Seconds(p99)}, max {Seconds(max)}";

    private static string Seconds(double? s) => s is { } v ? $"{v:0.00} s" : "n/a";
}

/// <summary>How many finished, and the p50, p99 and largest of their lags in seconds.</summary>
public sealed record Lags(long Count, double? P50, double? P99, double? Max);

public static class AnalysisLagProbe
{
    // Runs stored and not analysed yet: in the analysis queue (a batch holding one still has it until it commits).
    private const string Waiting = """
        SELECT count(*), coalesce(extract(epoch FROM now() - min(queued_at)), 0)::float8 FROM analysis_queue
        """;

    private const string JobsWaiting = """
        SELECT count(*) FROM hangfire.job
        WHERE invocationdata::text LIKE '%RunAnalysisJob%' AND coalesce(statename, 'Enqueued') IN ('Enqueued', 'Processing', 'Scheduled', 'Awaiting')
        """;

    private const string RunLags = """
        SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY lag), percentile_cont(0.99) WITHIN GROUP (ORDER BY lag), max(lag)
        FROM (SELECT extract(epoch FROM analysed_at - created_at)::float8 AS lag FROM runs WHERE analysed_at IS NOT NULL) x
        """;

    private const string JobLags = """
        SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY lag), percentile_cont(0.99) WITHIN GROUP (ORDER BY lag), max(lag)
        FROM (SELECT extract(epoch FROM min(s.createdat) - j.createdat)::float8 AS lag
              FROM hangfire.job j JOIN hangfire.state s ON s.jobid = j.id AND s.name = 'Succeeded'
              WHERE j.invocationdata::text LIKE '%RunAnalysisJob%' GROUP BY j.id, j.createdat) x
        """;

    /// <summary>The runs waiting when the load stopped, and the Hangfire analysis jobs not finished then.</summary>
    public static async Task<(long Count, double OldestSeconds, long Jobs)> AtStopAsync(string database, CancellationToken ct)
    {
        var (runs, oldest) = await WaitingAsync(database, ct);
        try
        {
            await using var conn = new NpgsqlConnection(database);
            await conn.OpenAsync(ct);
            await using var cmd = new NpgsqlCommand(JobsWaiting, conn);
            return (runs, oldest, (long)(await cmd.ExecuteScalarAsync(ct))!);
        }
        catch (PostgresException)
        {
            return (runs, oldest, 0); // no Hangfire schema
        }
    }

    // Polled while the backlog drains: the queue alone, not a scan of Hangfire's jobs competing with the analysis measured.
    private static async Task<(long Count, double OldestSeconds)> WaitingAsync(string database, CancellationToken ct)
    {
        await using var conn = new NpgsqlConnection(database);
        await conn.OpenAsync(ct);
        await using var cmd = new NpgsqlCommand(Waiting, conn);
        await using var r = await cmd.ExecuteReaderAsync(ct);
        await r.ReadAsync(ct);
        return (r.GetInt64(0), r.GetDouble(1));
    }

    /// <summary>Waits up to <paramref name="waitSeconds"/> for the backlog to drain, then reads the lags.</summary>
    public static async Task<AnalysisLag> MeasureAsync(string database, (long Count, double OldestSeconds, long Jobs) atStop, TimeSpan sinceStop, int waitSeconds, CancellationToken ct)
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
        var runs = await LagsAsync(database, RunLags, ct);
        var jobs = await LagsAsync(database, JobLags, ct);
        return new AnalysisLag(atStop.Count, atStop.OldestSeconds, waiting, drained, waitSeconds, runs.Count, runs.P50, runs.P99, runs.Max, jobs, atStop.Jobs);
    }

    private static async Task<Lags> LagsAsync(string database, string sql, CancellationToken ct)
    {
        try
        {
            await using var conn = new NpgsqlConnection(database);
            await conn.OpenAsync(ct);
            await using var cmd = new NpgsqlCommand(sql, conn);
            await using var r = await cmd.ExecuteReaderAsync(ct);
            await r.ReadAsync(ct);
            var count = r.GetInt64(0);
            return count > 0 ? new Lags(count, r.GetDouble(1), r.GetDouble(2), r.GetDouble(3)) : new Lags(0, null, null, null);
        }
        catch (PostgresException)
        {
            return new Lags(0, null, null, null); // no Hangfire schema
        }
    }
}
