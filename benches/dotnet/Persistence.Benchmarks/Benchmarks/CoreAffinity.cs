using System.Diagnostics;
using System.Numerics;

namespace Persistence.Benchmarks.Benchmarks;

/// <summary>
/// The seed's "CoreCount" parameter: the benchmark process is confined to N of the CPUs it may use (its affinity
/// mask, so a taskset the agent applied is respected) and parallel work runs N wide. Counts above what the
/// machine offers are left out of the series, and the console says so.
/// </summary>
public static class CoreAffinity
{
    private static readonly int[] FullSeries = [1, 2, 4, 8, 16];

    /// <summary>CPUs this process may run on (its affinity mask; Environment.ProcessorCount on other OSes).</summary>
    public static int Available { get; } = CountAllowed();

    public static IEnumerable<int> Series(bool quick)
    {
        var wanted = quick ? [1, 2] : FullSeries;
        var skipped = wanted.Where(n => n > Available).ToList();
        if (skipped.Count > 0)
            Console.WriteLine($"// Cores={string.Join(",", skipped)} skipped: this process may use {Available} CPU(s)");
        var series = wanted.Where(n => n <= Available).ToList();
        return series.Count > 0 ? series : [Available];
    }

    /// <summary>Confines the process to its first <paramref name="cores"/> allowed CPUs; returns the previous mask
    /// to restore, or null where affinity cannot be set (the run is then not confined, and says so).</summary>
    public static nint? Confine(int cores)
    {
        if (!(OperatingSystem.IsLinux() || OperatingSystem.IsWindows())) return null;
        using var self = Process.GetCurrentProcess();
        var previous = self.ProcessorAffinity;
        ulong mask = 0;
        var left = cores;
        for (var bit = 0; bit < 64 && left > 0; bit++)
            if (((ulong)previous & (1UL << bit)) != 0) { mask |= 1UL << bit; left--; }
        try
        {
            self.ProcessorAffinity = (nint)mask;
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or PlatformNotSupportedException or InvalidOperationException)
        {
            Console.WriteLine($"// Cores={cores}: could not set the CPU affinity ({e.Message}); running unconfined");
            return null;
        }
        return previous;
    }

    public static void Restore(nint? previous)
    {
        if (previous is not { } mask) return;
        if (!(OperatingSystem.IsLinux() || OperatingSystem.IsWindows())) return;
        using var self = Process.GetCurrentProcess();
        self.ProcessorAffinity = mask;
    }

    private static int CountAllowed()
    {
        if (!(OperatingSystem.IsLinux() || OperatingSystem.IsWindows())) return Environment.ProcessorCount;
        using var self = Process.GetCurrentProcess();
        return Math.Max(1, BitOperations.PopCount((ulong)self.ProcessorAffinity));
    }
}
