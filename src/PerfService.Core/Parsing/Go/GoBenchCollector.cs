using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Go;

/// <summary>
/// Gathers Go benchmark lines by identity (package, name, GOMAXPROCS) in first-seen order. Every -count repeat of a
/// line is one sample per unit; the series value is their mean, with plain descriptive statistics beside it.
/// </summary>
internal sealed class GoBenchCollector
{
    private readonly Dictionary<(string? Pkg, string Name, string? Procs), Entry> _entries = [];
    private readonly List<(string? Pkg, string Name, string? Procs)> _order = [];
    private readonly Dictionary<string, Direction> _declared = new(StringComparer.Ordinal);

    private sealed class Entry
    {
        public readonly Dictionary<string, List<double>> Samples = new(StringComparer.Ordinal);
        public readonly List<string> Units = [];
        public string? Failure;
    }

    public int Count => _order.Count;

    public void Add(string? pkg, string name, string? procs, string unit, double value)
    {
        var entry = Get(pkg, name, procs);
        if (!entry.Samples.TryGetValue(unit, out var list))
        {
            entry.Samples[unit] = list = [];
            entry.Units.Add(unit);
        }
        list.Add(value);
    }

    public void Fail(string? pkg, string name, string? procs, string reason) =>
        Get(pkg, name, procs).Failure ??= reason;

    /// <summary>benchfmt's "Unit &lt;unit&gt; better=higher|lower" metadata overrides the default direction.</summary>
    public void Declare(string unit, Direction direction) => _declared[unit] = direction;

    public void Emit(ResultSink sink)
    {
        foreach (var key in _order)
        {
            var entry = _entries[key];
            var name = key.Pkg is null ? key.Name : $"{key.Pkg}.{key.Name}";
            var job = key.Procs is null ? null : $"procs={key.Procs}";
            if (entry.Units.Count == 0)
            {
                sink.Results.Add(
                    new BenchmarkResult
                    {
                        Name = name,
                        Job = job,
                        Measure = Measures.Time,
                        Unit = "ns",
                        Error = entry.Failure,
                    }
                );
                continue;
            }
            if (entry.Failure is not null)
                sink.Warnings.Add(
                    $"{name} [{job}] both failed and produced results; the results are kept ({entry.Failure})"
                );
            foreach (var unit in entry.Units)
            {
                var samples = entry.Samples[unit];
                var (measure, normalisedUnit, direction) = Classify(unit);
                var summary = SampleStats.Summarize(samples);
                sink.Results.Add(
                    new BenchmarkResult
                    {
                        Name = name,
                        Job = job,
                        Measure = measure,
                        Unit = normalisedUnit,
                        Direction = direction,
                        Value = summary.Mean,
                        Summary = summary,
                        Samples = samples,
                    }
                );
            }
        }
    }

    /// <summary>Go's built-in units map to the well-known measures; b.ReportMetric units stay as they are.</summary>
    public (string Measure, string Unit, Direction Direction) Classify(string unit) =>
        unit switch
        {
            "ns/op" => (Measures.Time, "ns", Direction.LowerIsBetter),
            "B/op" => (Measures.Allocated, "B", Direction.LowerIsBetter),
            "allocs/op" => (Measures.Allocations, "count", Direction.LowerIsBetter),
            "MB/s" => (Measures.Throughput, "MB/s", Direction.HigherIsBetter),
            _ => (
                unit,
                unit,
                _declared.TryGetValue(unit, out var d) ? d
                : Numbers.IsPerSecond(unit) ? Direction.HigherIsBetter
                : Direction.LowerIsBetter
            ),
        };

    /// <summary>Built-in measures can never be negative; custom metrics (a delta, a score) may be.</summary>
    public static bool IsNonNegative(string unit) => unit is "ns/op" or "B/op" or "allocs/op" or "MB/s";

    private Entry Get(string? pkg, string name, string? procs)
    {
        var key = (pkg, name, procs);
        if (!_entries.TryGetValue(key, out var entry))
        {
            _entries[key] = entry = new Entry();
            _order.Add(key);
        }
        return entry;
    }
}
