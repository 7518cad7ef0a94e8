using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;

namespace PerfBenches.Shared;

/// <summary>
/// <c>PERF_SLOWDOWN=name=percent[,name=percent...]</c> makes the named benchmarks slower by about that
/// percentage, so that a demo or an end-to-end test can plant a regression of known size. A name matches a
/// benchmark method by its simple name (<c>SelectParallelBounded</c>), by <c>Type.Method</c>
/// (<c>CoreOperatorsBenchmarks.SelectParallelBounded</c>) or by its class (<c>AdvancedFeaturesBenchmarks</c>,
/// every method of it). The extra time is added after the real work, inside the measured call, in proportion to how
/// long the work took, so the measured time rises by the percentage. It is CPU work in a method of its own
/// (<see cref="SlowdownWork"/>), as a real regression is, so that a CPU profile of the slower benchmark names it; a
/// sleep would be invisible to one. (On a busy machine a thread that burns its whole time slice can be descheduled and
/// resume late, so a planted step may come out larger than asked, never smaller.)
/// BenchmarkDotNet's child processes inherit the environment, so the switch works in- and out-of-process.
/// </summary>
public static class Slowdown
{
    public const string Variable = "PERF_SLOWDOWN";

    private static readonly IReadOnlyList<(string Name, double Percent)> _entries =
        Parse(Environment.GetEnvironmentVariable(Variable));

    public static IReadOnlyList<(string Name, double Percent)> Parse(string? spec)
    {
        var result = new List<(string, double)>();
        if (string.IsNullOrWhiteSpace(spec)) return result;
        foreach (var entry in spec.Split([',', ';'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var eq = entry.LastIndexOf('=');
            if (eq <= 0) continue;
            var name = entry[..eq].Trim();
            var text = entry[(eq + 1)..].Trim().TrimEnd('%');
            if (name.Length == 0 || !double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var pct)
                || !double.IsFinite(pct) || pct <= 0)
                continue;
            result.Add((name, pct));
        }
        return result;
    }

    public static double PercentIn(IReadOnlyList<(string Name, double Percent)> entries, string type, string method)
    {
        foreach (var (name, pct) in entries)
            if (name == method || name == type || name == type + "." + method)
                return pct;
        return 0;
    }

    /// <summary>The percentage the switch asks for this benchmark, or 0.</summary>
    public static double Percent(Type type, string method) => _entries.Count == 0 ? 0 : PercentIn(_entries, type.Name, method);

    /// <summary>Starts timing one invocation of a benchmark (and plants its PERF_ALLOC bytes, if any); call <see cref="Scope.Stretch"/> when its work is done.</summary>
    public static Scope Start(Type type, string method)
    {
        Allocation.Plant(type, method);
        return new(Stopwatch.GetTimestamp(), Percent(type, method));
    }

    public readonly struct Scope(long start, double percent)
    {
        public double Percent => percent;

        /// <summary>Works until the invocation has taken (1 + percent/100) times the time its work took.</summary>
        public void Stretch()
        {
            if (percent <= 0) return;
            var now = Stopwatch.GetTimestamp();
            SlowdownWork(start + (long)((now - start) * (1 + percent / 100)));
        }
    }

    /// <summary>Keeps <see cref="SlowdownWork"/>'s arithmetic from being optimised away.</summary>
    private static ulong _sink;

    /// <summary>
    /// Burns CPU until the Stopwatch reaches <paramref name="until"/>, reading the clock only every few microseconds
    /// so that a CPU profile's samples land in this frame's own code rather than in the clock's. Never inlined, so the
    /// profile names it (the .NET twin of the Go suite's <c>perfbench.slowdownWork</c>).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void SlowdownWork(long until)
    {
        var x = _sink | 1;
        while (true)
        {
            for (var i = 0; i < 4096; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
            if (Stopwatch.GetTimestamp() >= until)
            {
                _sink = x;
                return;
            }
        }
    }
}
