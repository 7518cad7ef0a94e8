using Microsoft.EntityFrameworkCore;
using PerfService.Alerts;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.Analysis;

public sealed partial class ChangePointUpdater
{
    /// <summary>
    /// The open change-point alerts of the series of one update, read in one query the first time a series needs them
    /// (most updates raise, withdraw and replay nothing, and never read them). The entities are tracked, so a state
    /// changed through <see cref="Alerts.AlertService"/> shows here at once; alerts it opens are added.
    /// </summary>
    private sealed class OpenAlerts(PerfDbContext db, IReadOnlyList<SeriesId> series)
    {
        private Dictionary<(long, long), List<Alert>>? _bySeries;

        public async Task<List<Alert>> OfAsync(SeriesId id, CancellationToken ct)
        {
            _bySeries ??= await LoadAsync(ct);
            return _bySeries.TryGetValue((id.BenchmarkId, id.MeasureId), out var list)
                ? list.Where(a => a.State.IsOpen()).ToList()
                : [];
        }

        public void Opened(Alert alert)
        {
            if (_bySeries is null || alert.BenchmarkId is not { } b || alert.MeasureId is not { } m)
                return;
            if (!_bySeries.TryGetValue((b, m), out var list))
                _bySeries[(b, m)] = list = [];
            if (!list.Contains(alert))
                list.Add(alert);
        }

        private async Task<Dictionary<(long, long), List<Alert>>> LoadAsync(CancellationToken ct)
        {
            var profileId = series[0].ProfileId;
            var benchmarkIds = series.Select(s => s.BenchmarkId).Distinct().ToList();
            var wanted = series.Select(s => (s.BenchmarkId, s.MeasureId)).ToHashSet();
            var alerts = await db
                .Alerts.Where(a =>
                    a.Kind == AlertKind.ChangePoint
                    && a.ProfileId == profileId
                    && a.BenchmarkId != null
                    && benchmarkIds.Contains(a.BenchmarkId.Value)
                )
                .WhereOpen()
                .ToListAsync(ct);
            return alerts
                .Where(a => wanted.Contains((a.BenchmarkId!.Value, a.MeasureId ?? 0)))
                .GroupBy(a => (a.BenchmarkId!.Value, a.MeasureId ?? 0))
                .ToDictionary(g => g.Key, g => g.ToList());
        }
    }
}
