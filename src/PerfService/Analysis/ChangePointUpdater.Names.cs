using Microsoft.EntityFrameworkCore;
using PerfService.Data;

namespace PerfService.Analysis;

public sealed partial class ChangePointUpdater
{
    /// <summary>
    /// What names the series of one update in logs and alerts (benchmark key and measure): read in one query, the first
    /// time a series needs it, for every series whose feed raised, replayed or was upgraded. Most updates need none:
    /// reading the names with every result of every run analysed was a string each.
    /// </summary>
    private sealed class SeriesNames(PerfDbContext db, IEnumerable<SeriesId> named)
    {
        private Dictionary<(long, long), string>? _names;

        public async Task<SeriesId> NameAsync(SeriesId id, CancellationToken ct)
        {
            _names ??= await LoadAsync(named, ct);
            if (!_names.TryGetValue((id.BenchmarkId, id.MeasureId), out var name))
                _names[(id.BenchmarkId, id.MeasureId)] = name = (await LoadAsync([id], ct)).Single().Value;
            return id with { Name = name };
        }

        private async Task<Dictionary<(long, long), string>> LoadAsync(
            IEnumerable<SeriesId> series,
            CancellationToken ct
        )
        {
            var list = series.ToList();
            var benchmarkIds = list.Select(s => s.BenchmarkId).Distinct().ToList();
            var measureIds = list.Select(s => s.MeasureId).Distinct().ToList();
            var keys = await db
                .Benchmarks.AsNoTracking()
                .Where(b => benchmarkIds.Contains(b.Id))
                .ToDictionaryAsync(b => b.Id, b => b.Key, ct);
            var measures = await db
                .Measures.AsNoTracking()
                .Where(m => measureIds.Contains(m.Id))
                .ToDictionaryAsync(m => m.Id, m => m.Name, ct);
            return list.DistinctBy(s => (s.BenchmarkId, s.MeasureId))
                .ToDictionary(s => (s.BenchmarkId, s.MeasureId), s => $"{keys[s.BenchmarkId]} {measures[s.MeasureId]}");
        }
    }
}
