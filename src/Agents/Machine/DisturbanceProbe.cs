using System.Diagnostics;

namespace PerfService.Agents.Machine;

/// <summary>
/// Reads what <see cref="DisturbanceMeter"/> needs from /proc and /sys, before, every <see cref="Interval"/> during,
/// and
/// after a harness run. The suite's own process tree is the agent and its descendants: the harness is the agent's
/// child, and what its tree used moves into the agent's cutime/cstime as processes are reaped, so nothing it did is
/// counted as another process's. Where /proc is missing (macOS) there are no readings and no disturbance.
/// </summary>
public sealed class DisturbanceProbe(string proc = "/proc", string sysCpu = "/sys/devices/system/cpu")
{
    // The CPU shares come from the readings before and after the run; the ones between only average runnable tasks,
    // load and frequency. Once a second: a scan of /proc costs about 8 ms of kernel time with 200 processes, which at
    // 4 Hz would itself take 3% of a core beside the benchmark.
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);
    private readonly Stopwatch _clock = Stopwatch.StartNew();

    public async Task<T> MeasureAsync<T>(DisturbanceMeter meter, IReadOnlyList<int>? cpus, Func<Task<T>> run)
    {
        Add(meter, cpus);
        using var stop = new CancellationTokenSource();
        var sampler = SampleAsync(meter, cpus, stop.Token);
        try
        {
            return await run();
        }
        finally
        {
            await stop.CancelAsync();
            await sampler;
            Add(meter, cpus);
        }
    }

    private async Task SampleAsync(DisturbanceMeter meter, IReadOnlyList<int>? cpus, CancellationToken ct)
    {
        using var timer = new PeriodicTimer(Interval);
        try
        {
            while (await timer.WaitForNextTickAsync(ct))
                Add(meter, cpus);
        }
        catch (OperationCanceledException)
        {
            // The harness finished.
        }
    }

    private void Add(DisturbanceMeter meter, IReadOnlyList<int>? cpus)
    {
        if (Read(cpus) is { } reading)
            meter.Add(reading);
    }

    public LoadReading? Read(IReadOnlyList<int>? cpus)
    {
        try
        {
            var stat = LoadFiles.ParseProcStat(File.ReadAllText(Path.Combine(proc, "stat")));
            var (ownTicks, ownRunnable) = OwnTree();
            var load = ProcFiles.ParseLoadAverage(File.ReadAllText(Path.Combine(proc, "loadavg")));
            var suite = cpus ?? [.. stat.Cpus.Keys];
            return new LoadReading(
                _clock.Elapsed,
                stat,
                ownTicks,
                ownRunnable,
                load,
                FrequencyRatio(suite),
                ThrottleCount(suite)
            );
        }
        catch (Exception e)
            when (e is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            return null;
        }
    }

    /// <summary>CPU ticks of the agent and its live descendants, and their tasks that are runnable now.</summary>
    private (long Ticks, int Runnable) OwnTree()
    {
        var all = new List<TaskStat>();
        foreach (var dir in Directory.EnumerateDirectories(proc))
        {
            if (!char.IsAsciiDigit(Path.GetFileName(dir)[0]))
                continue;
            if (ReadTask(Path.Combine(dir, "stat")) is { } task)
                all.Add(task);
        }
        var children = all.ToLookup(t => t.ParentPid);
        var tree = new List<TaskStat>();
        var pending = new Stack<TaskStat>(all.Where(t => t.Pid == Environment.ProcessId));
        while (pending.TryPop(out var task))
        {
            tree.Add(task);
            foreach (var child in children[task.Pid])
                pending.Push(child);
        }
        var runnable = 0;
        foreach (var task in tree)
        {
            var threads = Path.Combine(
                proc,
                task.Pid.ToString(System.Globalization.CultureInfo.InvariantCulture),
                "task"
            );
            if (!Directory.Exists(threads))
                continue;
            runnable += Directory
                .EnumerateDirectories(threads)
                .Count(t => ReadTask(Path.Combine(t, "stat"))?.State == 'R');
        }
        return (tree.Sum(t => t.Ticks), runnable);
    }

    private static TaskStat? ReadTask(string path)
    {
        try
        {
            return LoadFiles.ParseTaskStat(File.ReadAllText(path));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null; // it exited while we looked
        }
    }

    private double? FrequencyRatio(IReadOnlyList<int> cpus)
    {
        var ratios = cpus.Select(c =>
                (Cur: Number(c, "cpufreq/scaling_cur_freq"), Max: Number(c, "cpufreq/cpuinfo_max_freq"))
            )
            .Where(f => f.Cur is not null && f.Max > 0)
            .Select(f => (double)f.Cur!.Value / f.Max!.Value)
            .ToList();
        return ratios.Count == 0 ? null : ratios.Average();
    }

    private long? ThrottleCount(IReadOnlyList<int> cpus)
    {
        var counts = cpus.SelectMany(c =>
                new[]
                {
                    Number(c, "thermal_throttle/core_throttle_count"),
                    Number(c, "thermal_throttle/package_throttle_count"),
                }
            )
            .OfType<long>()
            .ToList();
        return counts.Count == 0 ? null : counts.Sum();
    }

    private long? Number(int cpu, string file)
    {
        var path = Path.Combine(sysCpu, $"cpu{cpu}", file);
        try
        {
            return File.Exists(path) ? LoadFiles.ParseNumber(File.ReadAllText(path)) : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
