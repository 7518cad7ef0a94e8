using System.Diagnostics;
using Npgsql;

namespace PerfService.LoadTest;

/// <summary>How far background analysis got behind: backlog when the load stopped, how long it took to drain, and the
/// lag of every finished analysis from its run stored (the job is queued in the request that stores the run) to it
/// succeeded, as Hangfire recorded them.</summary>
public sealed record AnalysisLag(long WaitingAtStop, double OldestWaitingSeconds, long WaitingAtEnd, double? DrainedSeconds, int WaitedSeconds,
    long Finished, double? P50Seconds, double? P99Seconds, double? MaxSeconds)
{
    public string Line() =>
        $"analysis lag (stored → analysed): p50 {Seconds(P50Seconds)}, p99 {Seconds(P99Seconds)}, max {Seconds(MaxSeconds)} over {Finished} finished analyses; " +
        $"backlog when the load stopped: {WaitingAtStop} waiting (oldest {OldestWaitingSeconds:0.0} s); " +
        (DrainedSeconds is { } d ? $"drained {d:0.0} s after the load stopped" : $"{WaitingAtEnd} still waiting {WaitedSeconds} s after the load stopped");

    private static string Seconds(double? s) => s is { } v ? $"{v:0.00} s" : "n/a";
}

public static class AnalysisLagProbe
{
    // Run analyses not finished yet: queued, being processed, or scheduled for a retry.
    private const string Waiting = """
        SELECT count(*), coalesce(extract(epoch FROM (now() AT TIME ZONE 'UTC') - min(createdat)), 0)::float8
        FROM hangfire.job WHERE invocationdata::text LIKE '%RunAnalysisJob%' AND coalesce(statename, 'Enqueued') IN ('Enqueued', 'Processing', 'Scheduled', 'Awaiting')
        """;

    public static async Task<(long Count, double OldestSeconds)> WaitingAsync(string database, CancellationToken ct)
    {
        try
        {
            await using var conn = new NpgsqlConnection(database);
            await conn.OpenAsync(ct);
            await using var cmd = new NpgsqlCommand(Waiting, conn);
            await using var r = await cmd.ExecuteReaderAsync(ct);
            await r.ReadAsync(ct);
            return (r.GetInt64(0), r.GetDouble(1));
        }
        catch (PostgresException)
        {
            return (0, 0); // no Hangfire schema
        }
    }

    /// <summary>Waits up to <paramref name="waitSeconds"/> for the backlog to drain, then reads the lags.</summary>
    public static async Task<AnalysisLag> MeasureAsync(string database, (long Count, double OldestSeconds) atStop, TimeSpan sinceStop, int waitSeconds, CancellationToken ct)
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

        long finished = 0;
        double? p50 = null, p99 = null, max = null;
        try
        {
            await using var conn = new NpgsqlConnection(database);
            await conn.OpenAsync(ct);
            await using var cmd = new NpgsqlCommand("""
                SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY lag), percentile_cont(0.99) WITHIN GROUP (ORDER BY lag), max(lag)
                FROM (SELECT extract(epoch FROM min(s.createdat) - j.createdat)::float8 AS lag
                      FROM hangfire.job j JOIN hangfire.state s ON s.jobid = j.id AND s.name = 'Succeeded'
                      WHERE j.invocationdata::text LIKE '%RunAnalysisJob%' GROUP BY j.id, j.createdat) x
                """, conn);
            await using var r = await cmd.ExecuteReaderAsync(ct);
            await r.ReadAsync(ct);
            finished = r.GetInt64(0);
            if (finished > 0) (p50, p99, max) = (r.GetDouble(1), r.GetDouble(2), r.GetDouble(3));
        }
        catch (PostgresException)
        {
        }
        return new AnalysisLag(atStop.Count, atStop.OldestSeconds, waiting, drained, waitSeconds, finished, p50, p99, max);
    }
}
