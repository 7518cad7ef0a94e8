using System.Globalization;
using PerfService.Core.Contracts;

namespace PerfService.Core.Disturbances;

/// <summary>
/// When a round counts as disturbed, and how that is said. The thresholds are tied to the smallest change a verdict
/// reports by default (5%):
/// <list type="bullet">
/// <item>steal of 5% of the suite's CPU time can by itself make a CPU-bound benchmark 5% slower;</item>
/// <item>other processes using 10% of the suite's cores: a neighbour only slows the suite when it runs on the same
/// core at the same moment or competes for caches and memory bandwidth, which takes about twice the CPU share to show
/// as a 5% change; it also catches one busy loop on a machine of up to 8 cores, while an idle machine's daemons use
/// well under 1% of one core;</item>
/// <item>any thermal throttling event: the clock dropped during the measurement.</item>
/// </list>
/// Load average and runnable tasks are recorded but not decided on: the load average is a one-minute moving average
/// that still carries the suite's own build, and runnable tasks of others already show as their CPU time.
/// </summary>
public static class DisturbanceRule
{
    public const double OtherCpuShare = 0.10;
    public const double StealShare = 0.05;

    public static bool IsDisturbed(double otherCpuShare, double stealShare, long? throttleEvents) =>
        otherCpuShare >= OtherCpuShare || stealShare >= StealShare || throttleEvents > 0;

    /// <summary>What disturbed the round, in words: "other processes used 85% of a core, steal 6%". Null when nothing
    /// passed a threshold.</summary>
    public static string? Describe(Disturbance d)
    {
        var parts = new List<string>();
        if (d.OtherCpuShare >= OtherCpuShare)
            parts.Add($"other processes used {Cores(d.OtherCpuShare * d.SuiteCores)}");
        if (d.StealShare >= StealShare)
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"CPU steal {d.StealShare:0%}"));
        if (d.ThrottleEvents > 0)
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"{d.ThrottleEvents} thermal throttling events"));
        return parts.Count == 0 ? null : string.Join(", ", parts);
    }

    private static string Cores(double cores) =>
        cores < 0.995
            ? string.Create(CultureInfo.InvariantCulture, $"{cores:0%} of a core")
            : string.Create(CultureInfo.InvariantCulture, $"{cores:0.#} cores");
}
