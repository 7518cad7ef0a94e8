using System.Collections.Concurrent;

namespace PerfService.LoadTest;

/// <summary>
/// Every request's duration and outcome, per kind ("ingest", "read /runs/{id}", …). Durations are kept raw (microseconds)
/// and percentiles are exact nearest-rank over them: at a few hundred thousand requests that is a few MB, and nothing is
/// lost to bucketing.
/// </summary>
public sealed class Latencies
{
    private readonly ConcurrentDictionary<string, Series> _series = new(StringComparer.Ordinal);

    public void Record(string kind, TimeSpan duration, string? error)
    {
        var series = _series.GetOrAdd(kind, k => new Series(k));
        lock (series)
        {
            series.Micros.Add((long)(duration.Ticks / 10.0));
            if (error is null) series.Ok++;
            else series.Errors[error] = series.Errors.GetValueOrDefault(error) + 1;
        }
    }

    public IReadOnlyList<Summary> Summaries(TimeSpan elapsed, Func<string, string> group)
    {
        var snapshot = _series.Values.Select(s =>
        {
            lock (s) return (s.Kind, Micros: s.Micros.ToArray(), s.Ok, Errors: new Dictionary<string, int>(s.Errors));
        }).ToList();
        var rows = snapshot.OrderBy(s => group(s.Kind), StringComparer.Ordinal).ThenBy(s => s.Kind, StringComparer.Ordinal)
            .Select(s => Summary.Of(s.Kind, s.Micros, s.Ok, s.Errors, elapsed)).ToList();
        foreach (var g in snapshot.GroupBy(s => group(s.Kind)).Where(g => g.Count() > 1).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            var errors = new Dictionary<string, int>();
            foreach (var (k, v) in g.SelectMany(s => s.Errors)) errors[k] = errors.GetValueOrDefault(k) + v;
            rows.Add(Summary.Of($"{g.Key} (all)", g.SelectMany(s => s.Micros).ToArray(), g.Sum(s => s.Ok), errors, elapsed));
        }
        return rows;
    }

    private sealed class Series(string kind)
    {
        public string Kind { get; } = kind;
        public List<long> Micros { get; } = new(4096);
        public int Ok { get; set; }
        public Dictionary<string, int> Errors { get; } = new(StringComparer.Ordinal);
    }
}

public sealed record Summary(string Kind, int Requests, int Ok, IReadOnlyDictionary<string, int> Errors, double PerSecond,
    double P50Ms, double P95Ms, double P99Ms, double MaxMs, double MeanMs)
{
    public int ErrorCount => Errors.Values.Sum();

    public static Summary Of(string kind, long[] micros, int ok, IReadOnlyDictionary<string, int> errors, TimeSpan elapsed)
    {
        Array.Sort(micros);
        double At(double p) => micros.Length == 0 ? 0 : micros[Math.Clamp((int)Math.Ceiling(p / 100 * micros.Length) - 1, 0, micros.Length - 1)] / 1000.0;
        return new Summary(kind, micros.Length, ok, errors, micros.Length / Math.Max(elapsed.TotalSeconds, 0.001),
            At(50), At(95), At(99), micros.Length == 0 ? 0 : micros[^1] / 1000.0, micros.Length == 0 ? 0 : micros.Average() / 1000.0);
    }
}
