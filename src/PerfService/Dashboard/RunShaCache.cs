using System.Collections.Concurrent;
using Npgsql;

namespace PerfService.Dashboard;

/// <summary>
/// Run id → commit sha. A run's commit never changes, so the mapping can be kept; the series read then needs only
/// the covering index of results. Joining runs and commits in SQL instead makes PostgreSQL hash the whole runs table
/// (a seq scan that grows with history), which is what pushed a 10,000-point series past the budget at 5M results.
/// </summary>
internal sealed class RunShaCache(NpgsqlDataSource dataSource)
{
    // About 30 MB at the cap; when full it starts over rather than tracking recency (misses cost one indexed query).
    private const int Capacity = 200_000;
    private readonly ConcurrentDictionary<long, string> _shas = new();

    public async Task<IReadOnlyDictionary<long, string>> GetAsync(IEnumerable<long> runIds, CancellationToken ct)
    {
        var wanted = runIds.Distinct().ToList();
        var found = new Dictionary<long, string>(wanted.Count);
        var missing = new List<long>();
        foreach (var id in wanted)
        {
            if (_shas.TryGetValue(id, out var sha)) found[id] = sha;
            else missing.Add(id);
        }
        if (missing.Count == 0) return found;

        await using var cmd = dataSource.CreateCommand("SELECT ru.id, c.sha FROM runs ru JOIN commits c ON c.id = ru.commit_id WHERE ru.id = ANY($1)");
        cmd.Parameters.Add(new() { Value = missing.ToArray() });
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        if (_shas.Count + missing.Count > Capacity) _shas.Clear();
        while (await reader.ReadAsync(ct))
        {
            var (id, sha) = (reader.GetInt64(0), reader.GetString(1));
            found[id] = sha;
            _shas[id] = sha;
        }
        return found;
    }
}
