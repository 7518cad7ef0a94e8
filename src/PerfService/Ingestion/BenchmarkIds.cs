using System.Collections.Concurrent;

namespace PerfService.Ingestion;

/// <summary>
/// Benchmark ids by suite and key, remembered by this process once the transaction that found or created them has
/// committed. A suite's benchmarks rarely change between runs, so a warm run of 10,000 results skips the lookup of its
/// 10,000 keys (about a fifth of its ingest time). Safe because a benchmark row is never deleted or renumbered while
/// its suite exists (only deleting the whole project removes them, and suite ids are never reused). Were an id ever
/// stale (a row deleted by hand), the results' reference check refuses the write, and <see cref="RunWriter"/> forgets
/// every remembered id and writes again.
/// </summary>
public sealed class BenchmarkIds(int capacity = BenchmarkIds.DefaultCapacity)
{
    /// <summary>About 50 MB at most: 2,000 benchmarks in each of 250 suites.</summary>
    public const int DefaultCapacity = 500_000;

    private readonly ConcurrentDictionary<(long Suite, string Key), long> _ids = new();

    public int Count => _ids.Count;

    public void Clear() => _ids.Clear();

    public bool TryGet(long suiteId, string key, out long id) => _ids.TryGetValue((suiteId, key), out id);

    /// <summary>Call only after the transaction that read or inserted these rows has committed.</summary>
    public void Remember(long suiteId, IReadOnlyDictionary<string, long> ids)
    {
        // Past the cap, start over rather than track recency: a full lookup is the worst that happens.
        if (_ids.Count + ids.Count > capacity)
            _ids.Clear();
        foreach (var (key, id) in ids)
            _ids[(suiteId, key)] = id;
    }
}
