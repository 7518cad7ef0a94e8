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

    /// <summary>The parent's process id (field 4), or null where the process cannot be read.</summary>
    public static int? Parent(int pid) => Fields(pid) is { } f ? (int)Ticks(f, 1) : null;

    public static double? Seconds(int pid) => Fields(pid) is { } f ? (Ticks(f, 11) + Ticks(f, 12)) / ClockTicks : null;

    /// <summary>
    /// CPU seconds of a process and all its children, live and exited: each child's own time plus the parent's
    /// <c>cutime</c> and <c>cstime</c> (fields 16 and 17), which gather the time of the children it has reaped. For
    /// PostgreSQL's postmaster, that is the whole cluster, whose backends come and go.
    /// </summary>
    public static double? TreeSeconds(int parent)
    {
        if (Fields(parent) is not { } own)
            return null;
        var total = Ticks(own, 11) + Ticks(own, 12) + Ticks(own, 13) + Ticks(own, 14);
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
            if (int.TryParse(Path.GetFileName(dir), out var pid) && pid != parent && Fields(pid) is { } f && Ticks(f, 1) == parent)
                total += Ticks(f, 11) + Ticks(f, 12);
        return total / ClockTicks;
    }

    // The fields after the command name (field 2, in parentheses, may hold spaces): index 0 is field 3 (state).
    private static string[]? Fields(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static long Ticks(string[] fields, int index) =>
        long.TryParse(fields[index], System.Globalization.CultureInfo.InvariantCulture, out var v) ? v : 0;

    public static IReadOnlyDictionary<string, double?> Read(IReadOnlyList<ServiceProcess> processes) =>
        processes.ToDictionary(p => p.Role, p => Seconds(p.Pid));
}

/// <summary>
/// The whole machine's busy CPU seconds (every core: user, nice, system, interrupts, steal) from the first line of
/// <c>/proc/stat</c>, so that the CPU a stored run costs can be read across everything on the box: the service, PostgreSQL
/// and this client. Null off Linux.
/// </summary>
public static class MachineCpu
{
    public static double? Seconds()
    {
        try
        {
            var fields = File.ReadLines("/proc/stat").First().Split(' ', StringSplitOptions.RemoveEmptyEntries);
            // cpu user nice system idle iowait irq softirq steal …: all but idle and iowait are busy.
            long Field(int i) => long.Parse(fields[i], System.Globalization.CultureInfo.InvariantCulture);
            return (Field(1) + Field(2) + Field(3) + Field(6) + Field(7) + Field(8)) / 100.0;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }
}

/// <summary>A process's peak resident memory (<c>VmHWM</c> in <c>/proc/&lt;pid&gt;/status</c>), in MB; null where it
/// cannot be read.</summary>
public static class ProcessMemory
{
    public static double? PeakMegabytes(int pid)
    {
        try
        {
            var line = File.ReadLines($"/proc/{pid}/status").FirstOrDefault(l => l.StartsWith("VmHWM:", StringComparison.Ordinal));
            return line is null ? null
                : long.Parse(line["VmHWM:".Length..].Trim().Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture) / 1024.0;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }
}

/// <summary>What the whole machine spent during the measured load, per stored run, and the services' peak memory.</summary>
public sealed record MachineUse(double? CpuPerStored, double? ClientCpuPerStored, double? PostgresCpuPerStored,
    IReadOnlyDictionary<string, double?> PeakMegabytes)
{
    public IEnumerable<string> Lines()
    {
        var parts = new[] { ("PostgreSQL", PostgresCpuPerStored), ("this load tool", ClientCpuPerStored) }
            .Where(p => p.Item2 is not null).Select(p => $"{p.Item1} {p.Item2 * 1000:0.0} ms").ToList();
        if (CpuPerStored is { } all)
            yield return $"machine: {all * 1000:0.0} ms of CPU per stored run over the load, every process on it" +
                         (parts.Count > 0 ? $" ({string.Join(", ", parts)} of it)" : "");
        var peaks = PeakMegabytes.Where(p => p.Value is not null).Select(p => $"{p.Key} {p.Value:0} MB").ToList();
        if (peaks.Count > 0)
            yield return $"memory: peak resident set of the service ({string.Join(", ", peaks)})";
    }
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

    /// <summary>The postmaster's process id when the cluster runs on this machine (a backend's parent, both named
    /// postgres), else null: its CPU is then not read.</summary>
    public static async Task<int?> LocalPostmasterAsync(string database, CancellationToken ct)
    {
        await using var conn = new NpgsqlConnection(database);
        await conn.OpenAsync(ct);
        await using var cmd = new NpgsqlCommand("SELECT pg_backend_pid()", conn);
        var backend = (int)(await cmd.ExecuteScalarAsync(ct))!;
        static string? Comm(int pid) => File.Exists($"/proc/{pid}/comm") ? File.ReadAllText($"/proc/{pid}/comm").Trim() : null;
        try
        {
            return Comm(backend) == "postgres" && ProcessCpu.Parent(backend) is { } pm && Comm(pm) == "postgres" ? pm : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
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
    /// <summary>Fewer analysed runs in the drain than this, and a per-run cost from it is noise: a drain of 113 runs in
    /// 3 s gave 25.2 ms a run, against 7.7 ms for the background process of a split run, and left 1.6 ms a run to
    /// ingest.</summary>
    private const int DrainSample = 200;

    /// <summary>Less CPU than this over the drain, and the process's fixed costs (requests still finishing, timers,
    /// the collector) outweigh the analyses in it: drains of 76–140 runs in about a second gave 3.1 to 16.8 ms a run
    /// from one run to the next.</summary>
    private const double DrainCpuSample = 5.0;

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
        // A short drain costs more per run than the load's analyses did (the last batch's fixed costs, the collector):
        // when its cost per run leaves nothing of the load's CPU to ingest, the two cannot be told apart.
        var left = Used("both", atStart, atStop) is { } load && perAnalysed is { } pa ? load - pa * w.AnalysedDuring : (double?)null;
        if (left is <= 0)
            return new Capacity(w, drainSeconds, null, null,
                $"one process: the drain's {perAnalysed * 1000:0.0} ms per analysed run, times the runs analysed during the load, is more than the load's CPU, so ingest and analysis cannot be told apart here: --roles split reads each role");
        var perIngested = left is { } l && w.Stored > 0 ? l / w.Stored : (double?)null;
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
