using System.Collections.Concurrent;
using Microsoft.EntityFrameworkCore;
using PerfService.Data;

namespace PerfService.Dashboard;

/// <summary>
/// Run id → commit sha. A run's commit never changes, so the mapping can be kept; the series read then needs only
/// the covering index of results. Joining runs and commits in SQL instead makes PostgreSQL hash the whole runs table
/// (a seq scan that grows with history), which is what pushed a 10,000-point series past the budget at 5M results.
/// </summary>
internal sealed class RunShaCache
{
    // About 30 MB at the cap; when full it starts over rather than tracking recency (misses cost one indexed query).
    private const int Capacity = 200_000;
    private readonly ConcurrentDictionary<long, string> _shas = new();

    /// <summary>The sha of each run, in the order given ("" for a run that does not exist).</summary>
    public async Task<string[]> GetAsync(PerfDbContext db, IReadOnlyList<long> runIds, CancellationToken ct)
    {
        var shas = new string[runIds.Count];
        HashSet<long>? missing = null;
        for (var i = 0; i < shas.Length; i++)
            if (!_shas.TryGetValue(runIds[i], out shas[i]!))
                (missing ??= []).Add(runIds[i]);
        if (missing is null)
            return shas;

        var ids = missing.ToArray();
        var found = await db
            .Runs.Where(r => ids.Contains(r.Id))
            .Select(r => new { r.Id, r.Commit!.Sha })
            .ToDictionaryAsync(r => r.Id, r => r.Sha, ct);
        if (_shas.Count + found.Count > Capacity)
            _shas.Clear();
        foreach (var (id, sha) in found)
            _shas[id] = sha;
        for (var i = 0; i < shas.Length; i++)
            shas[i] ??= found.GetValueOrDefault(runIds[i], "");
        return shas;
    }
}
