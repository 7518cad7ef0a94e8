using Npgsql;

namespace PerfService.LoadTest;

/// <summary>A service process whose CPU time the load test reads: "both" (one process), or "web" and "background".</summary>
public sealed record ServiceProcess(string Role, int Pid);

/// <summary>
/// CPU seconds a process has used, from <c>/proc/&lt;pid&gt;/stat</c> (utime + stime, fields 14 and 15, in clock ticks).
/// Linux only; null where the file cannot be read.
/// </summary>
public static class ProcessCpu
{
    // USER_HZ: /proc reports times in it, 100 on every mainstream Linux build (sysconf(_SC_CLK_TCK)).
    private const double ClockTicks = 100;

    public static double? Seconds(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return (long.Parse(fields[11], System.Globalization.CultureInfo.InvariantCulture)
                    + long.Parse(fields[12], System.Globalization.CultureInfo.InvariantCulture)) / ClockTicks;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    public static IReadOnlyDictionary<string, double?> Read(IReadOnlyList<ServiceProcess> processes) =>
        processes.ToDictionary(p => p.Role, p => Seconds(p.Pid));
}

/// <summary>Runs stored during the load, analysed during it and after it, counted by the database's clock.</summary>
public sealed record RunWindow(double LoadSeconds, long Stored, long AnalysedDuring, long AnalysedAfter);

public static class RunWindowProbe
{
    public static async Task<DateTime> NowAsync(string database, CancellationToken ct)
    {
        await using var conn = new NpgsqlConnection(database);
        await conn.OpenAsync(ct);
        await using var cmd = new NpgsqlCommand("SELECT clock_timestamp()", conn);
        return (DateTime)(await cmd.ExecuteScalarAsync(ct))!;
    }

    public static async Task<RunWindow> ReadAsync(string database, DateTime start, DateTime stop, CancellationToken ct)
    {
        await using var conn = new NpgsqlConnection(database);
        await conn.OpenAsync(ct);
        await using var cmd = new NpgsqlCommand("""
            SELECT count(*) FILTER (WHERE created_at >= $1 AND created_at < $2),
                   count(*) FILTER (WHERE analysed_at >= $1 AND analysed_at < $2),
                   count(*) FILTER (WHERE analysed_at >= $2)
            FROM runs
            """, conn);
        cmd.Parameters.Add(new() { Value = start });
        cmd.Parameters.Add(new() { Value = stop });
        await using var r = await cmd.ExecuteReaderAsync(ct);
        await r.ReadAsync(ct);
        return new RunWindow((stop - start).TotalSeconds, r.GetInt64(0), r.GetInt64(1), r.GetInt64(2));
    }
}

/// <summary>
/// The figures two machines can be compared by: analysed against stored runs per second during the load, the drain
/// rate after it, and the service's CPU seconds per ingested and per analysed run. With the roles split, each role's
/// process is read apart; in one process, a run's analysis is costed from the drain (analysis only), and ingest gets
/// the rest of the load's CPU.
/// </summary>
public sealed record Capacity(RunWindow Window, double? DrainSeconds, double? CpuPerIngested, double? CpuPerAnalysed, string CpuBasis)
{
    /// <summary>Fewer analysed runs in the drain than this, and a per-run cost from it is noise.</summary>
    private const int DrainSample = 10;

    /// <summary>Less CPU than this over the drain, and the process's fixed costs (requests still finishing, timers,
    /// the collector) outweigh the analyses in it: drains of 76–140 runs in about a second gave 3.1 to 16.8 ms a run
    /// from one run to the next.</summary>
    private const double DrainCpuSample = 2.0;

    public double StoredPerSecond => Window.Stored / Window.LoadSeconds;
    public double AnalysedPerSecond => Window.AnalysedDuring / Window.LoadSeconds;
    public double? AnalysedPerStored => Window.Stored > 0 ? (double)Window.AnalysedDuring / Window.Stored : null;
    public double? DrainPerSecond => DrainSeconds is > 0 && Window.AnalysedAfter > 0 ? Window.AnalysedAfter / DrainSeconds : null;

    /// <param name="atStart">CPU seconds per role when the measured load started; <paramref name="atStop"/> when it
    /// stopped; <paramref name="atDrained"/> when the backlog had drained (or the wait ended).</param>
    public static Capacity Compute(RunWindow w, double? drainSeconds, IReadOnlyDictionary<string, double?> atStart,
        IReadOnlyDictionary<string, double?> atStop, IReadOnlyDictionary<string, double?> atDrained)
    {
        double? Used(string role, IReadOnlyDictionary<string, double?> from, IReadOnlyDictionary<string, double?> to) =>
            from.GetValueOrDefault(role) is { } a && to.GetValueOrDefault(role) is { } b ? b - a : null;

        if (atStart.ContainsKey("web") && atStart.ContainsKey("background"))
        {
            var analysed = w.AnalysedDuring + w.AnalysedAfter;
            return new Capacity(w, drainSeconds,
                Used("web", atStart, atStop) is { } web && w.Stored > 0 ? web / w.Stored : null,
                Used("background", atStart, atDrained) is { } bg && analysed > 0 ? bg / analysed : null,
                "web process over the load ÷ runs stored; background process over load and drain ÷ runs analysed");
        }
        var perAnalysed = Used("both", atStop, atDrained) is { } drain && w.AnalysedAfter >= DrainSample && drain >= DrainCpuSample
            ? drain / w.AnalysedAfter : (double?)null;
        var perIngested = Used("both", atStart, atStop) is { } load && perAnalysed is { } pa && w.Stored > 0
            ? Math.Max(0, load - pa * w.AnalysedDuring) / w.Stored : (double?)null;
        return new Capacity(w, drainSeconds, perIngested, perAnalysed, perAnalysed is null
            ? $"one process: an analysis is costed apart only from a drain after the load of at least {DrainSample} runs and {DrainCpuSample:0} CPU seconds; this one was shorter (analysis kept pace): --roles split reads each role"
            : "one process: drain CPU ÷ runs analysed in it; load CPU less those analyses ÷ runs stored");
    }

    public IEnumerable<string> Lines()
    {
        yield return $"throughput: stored {StoredPerSecond:0.0} runs/s, analysed {AnalysedPerSecond:0.0} runs/s during the load " +
                     $"(analysed/stored {Ratio(AnalysedPerStored)}); drain after it: " +
                     (DrainPerSecond is { } d ? $"{d:0.0} runs/s ({Window.AnalysedAfter} runs in {DrainSeconds:0.0} s)" : "n/a (nothing waited)");
        yield return $"CPU (service process, PostgreSQL not included): {Ms(CpuPerIngested)} per ingested run, {Ms(CpuPerAnalysed)} per analysed run " +
                     $"(analysed/ingested {Ratio(CpuPerAnalysed / CpuPerIngested)}); {CpuBasis}";
    }

    private static string Ratio(double? r) => r is { } v ? v.ToString("0.00", System.Globalization.CultureInfo.InvariantCulture) : "n/a";

    private static string Ms(double? seconds) => seconds is { } s ? $"{s * 1000:0.0} ms" : "n/a";
}
