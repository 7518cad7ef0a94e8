using System.Globalization;

namespace PerfService.Demo;

/// <summary>
/// When each phase of the demo was reached, counted from the moment <c>./perf demo</c> started (PERF_DEMO_STARTED,
/// Unix seconds, set by scripts/demo.sh; this process's start otherwise). Each milestone is printed once as it is reached.
/// </summary>
public sealed class DemoTimeline(DateTimeOffset started, TextWriter output)
{
    private readonly List<(string Phase, TimeSpan At)> _marks = [];

    public IReadOnlyList<(string Phase, TimeSpan At)> Marks => _marks;

    public static DateTimeOffset StartFromEnvironment() =>
        long.TryParse(Environment.GetEnvironmentVariable("PERF_DEMO_STARTED"), NumberStyles.None, CultureInfo.InvariantCulture, out var unix)
            ? DateTimeOffset.FromUnixTimeSeconds(unix)
            : DateTimeOffset.UtcNow;

    public bool Has(string phase) => _marks.Any(m => m.Phase == phase);

    public void Mark(string phase, string? detail = null)
    {
        if (Has(phase)) return;
        var at = DateTimeOffset.UtcNow - started;
        _marks.Add((phase, at));
        output.WriteLine($"[+{Format(at)}] {phase}{(detail is null ? "" : $": {detail}")}");
    }

    public static string Format(TimeSpan t) => t.TotalHours >= 1 ? t.ToString(@"h\:mm\:ss", CultureInfo.InvariantCulture) : $"{(int)t.TotalMinutes}m{t.Seconds:00}s";
}
