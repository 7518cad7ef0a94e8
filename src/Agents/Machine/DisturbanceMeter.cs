using PerfService.Core.Contracts;
using PerfService.Core.Disturbances;

namespace PerfService.Agents.Machine;

/// <summary>One look at the machine: /proc/stat, the suite's own process tree (its CPU ticks and runnable tasks), the
/// load average, and frequency and throttle counters of the suite's CPUs where /sys has them.</summary>
public sealed record LoadReading(
    TimeSpan At,
    ProcStat Stat,
    long OwnTicks,
    int OwnRunnable,
    double? LoadAverage = null,
    double? FrequencyRatio = null,
    long? ThrottleCount = null
);

/// <summary>
/// Turns the readings taken around and during one harness run into its <see cref="Disturbance"/>. CPU shares come from
/// tick deltas of the suite's CPUs, so they need no clock-tick rate: other processes' share is the busy ticks of those
/// CPUs minus the suite's own tree's ticks, over all ticks of those CPUs. Pure: the readings come from
/// <see cref="DisturbanceProbe"/> or from a test.
/// </summary>
public sealed class DisturbanceMeter(IReadOnlyList<int>? suiteCpus)
{
    private readonly List<LoadReading> _readings = [];

    public void Add(LoadReading reading)
    {
        lock (_readings)
            _readings.Add(reading);
    }

    /// <summary>Null with fewer than two readings or no ticks between them (nothing to compare).</summary>
    public Disturbance? Result(int attempts = 1)
    {
        List<LoadReading> readings;
        lock (_readings)
            readings = [.. _readings];
        if (readings.Count < 2)
            return null;
        var (first, last) = (readings[0], readings[^1]);
        var cpus = suiteCpus ?? [.. last.Stat.Cpus.Keys];
        var ticks = last.Stat.Of(cpus) - first.Stat.Of(cpus);
        if (ticks.Total <= 0 || cpus.Count == 0)
            return null;
        var own = last.OwnTicks - first.OwnTicks;
        var other = Math.Clamp((double)(ticks.Busy - own) / ticks.Total, 0, 1);
        var steal = Math.Clamp((double)ticks.Steal / ticks.Total, 0, 1);
        long? throttle = first.ThrottleCount is { } t0 && last.ThrottleCount is { } t1 ? Math.Max(0, t1 - t0) : null;
        return new Disturbance(
            DisturbanceRule.IsDisturbed(other, steal, throttle),
            attempts,
            (last.At - first.At).TotalSeconds,
            cpus.Count,
            Math.Round(other, 4),
            Math.Round(steal, 4),
            Math.Round(readings.Average(r => Math.Max(0, r.Stat.ProcsRunning - r.OwnRunnable)), 2),
            Mean(readings.Select(r => r.LoadAverage)),
            Mean(readings.Select(r => r.FrequencyRatio)),
            throttle
        );
    }

    private static double? Mean(IEnumerable<double?> values)
    {
        var known = values.OfType<double>().ToList();
        return known.Count == 0 ? null : Math.Round(known.Average(), 3);
    }
}
