using System.Collections.Concurrent;

namespace PerfService.LoadTest;

/// <summary>One run the load test tried to store: what the service must end up holding for its key, and what it said.</summary>
public sealed class PlannedRun(string key, Payload payload)
{
    private readonly Lock _lock = new();
    public string Key { get; } = key;
    public Payload Payload { get; } = payload;
    public long? RunId { get; private set; }
    public int Created { get; private set; }
    public int Duplicates { get; private set; }
    public bool Acknowledged => RunId is not null;
    /// <summary>Posted during the warm-up: verified like every run, left out of the figures.</summary>
    public bool Warmup { get; set; }

    /// <summary>Records a 2xx; returns an error when it contradicts what the service said before for this key.</summary>
    public string? Acknowledge(long runId, bool duplicate)
    {
        lock (_lock)
        {
            if (duplicate) Duplicates++;
            else Created++;
            if (RunId is { } earlier && earlier != runId) return "mismatch: two run ids for one key";
            RunId = runId;
            return Created > 1 ? "mismatch: 201 twice for one key" : null;
        }
    }
}

/// <summary>Every planned run, and a request budget shared by all workers.</summary>
public sealed class Ledger(int budget)
{
    private readonly ConcurrentDictionary<string, PlannedRun> _runs = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<long> _recent = new();
    private int _budget = budget;

    public IEnumerable<PlannedRun> Runs => _runs.Values;

    public PlannedRun Plan(string key, Payload payload)
    {
        var run = new PlannedRun(key, payload);
        if (!_runs.TryAdd(key, run)) throw new InvalidOperationException($"key {key} planned twice");
        return run;
    }

    /// <summary>Takes over a run planned elsewhere (the warm-up's), so that verification knows it.</summary>
    public void Adopt(PlannedRun run)
    {
        run.Warmup = true;
        _runs.TryAdd(run.Key, run);
    }

    /// <summary>Takes one request from the budget; false when it is spent.</summary>
    public bool TryTake() => Interlocked.Decrement(ref _budget) >= 0;

    public void Remember(long runId)
    {
        _recent.Enqueue(runId);
        while (_recent.Count > 500) _recent.TryDequeue(out _);
    }

    /// <summary>A recently acknowledged run id for the readers, or null before the first one.</summary>
    public long? AnyRecent(Random random)
    {
        var ids = _recent.ToArray();
        return ids.Length == 0 ? null : ids[random.Next(ids.Length)];
    }
}
