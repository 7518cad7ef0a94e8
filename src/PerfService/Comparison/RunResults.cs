using Microsoft.EntityFrameworkCore;
using PerfService.Core.Results;
using PerfService.Data;

namespace PerfService.Comparison;

/// <summary>A stored result with its benchmark and measure, as the pure engine wants it.</summary>
public sealed record StoredResult(long ResultId, long RunId, long BenchmarkId, long MeasureId, BenchmarkResult Result);

public static class RunResults
{
    /// <summary>The results of some runs, joined to their benchmark and measure.</summary>
    public static async Task<List<StoredResult>> LoadAsync(PerfDbContext db, IReadOnlyCollection<long> runIds, CancellationToken ct)
    {
        var rows = await (
            from r in db.Results.AsNoTracking()
            join b in db.Benchmarks on r.BenchmarkId equals b.Id
            join m in db.Measures on r.MeasureId equals m.Id
            where runIds.Contains(r.RunId)
            select new { r.Id, r.RunId, r.BenchmarkId, r.MeasureId, b.Key, b.Name, b.Job, m, r.Value, r.Median, r.Samples, r.Error, r.SampleCount }).ToListAsync(ct);
        return rows.Select(x => new StoredResult(x.Id, x.RunId, x.BenchmarkId, x.MeasureId, new BenchmarkResult
        {
            // The stored key already encodes parameters and job; the engine matches on Key.
            Name = x.Key,
            Job = null,
            Measure = x.m.Name,
            Unit = x.m.Unit,
            Direction = x.m.Direction,
            Value = x.Value,
            Summary = new Summary { Median = x.Median, N = x.SampleCount },
            Samples = x.Samples,
            Error = x.Error,
        })).ToList();
    }
}
