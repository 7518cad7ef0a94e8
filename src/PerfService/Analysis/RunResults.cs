using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using PerfService.Core.Results;
using PerfService.Data;

namespace PerfService.Analysis;

/// <summary>A stored result with its benchmark and measure, as the pure engine wants it.</summary>
public sealed record StoredResult(long ResultId, long RunId, long BenchmarkId, long MeasureId, BenchmarkResult Result);

public static class RunResults
{
    /// <summary>The results of some runs, joined to their benchmark and measure, with their samples and the identity's
    /// parts: what targets and pull-request comparisons judge. Change points take ids only
    /// (<see cref="SeriesReader.ReadRunPointsAsync"/>).</summary>
    public static async Task<List<StoredResult>> LoadAsync(
        PerfDbContext db,
        IReadOnlyCollection<long> runIds,
        CancellationToken ct
    )
    {
        var rows = await (
            from r in db.Results.AsNoTracking()
            join b in db.Benchmarks on r.BenchmarkId equals b.Id
            join m in db.Measures on r.MeasureId equals m.Id
            where runIds.Contains(r.RunId)
            select new
            {
                r.Id,
                r.RunId,
                r.BenchmarkId,
                r.MeasureId,
                b.Key,
                b.Name,
                b.Parameters,
                b.Job,
                Measure = m.Name,
                m.Unit,
                m.Direction,
                r.Value,
                r.Median,
                r.Samples,
                r.Error,
                r.SampleCount,
            }
        ).ToListAsync(ct);
        return rows.Select(x =>
            {
                var result = new BenchmarkResult
                {
                    // The engine needs the identity's parts, not only the key: targets pair each benchmark with the
                    // baseline of its own job (a runtime: "Quick-net8.0"), and match patterns on the name too.
                    Name = x.Name,
                    Parameters = ParametersOf(x.Parameters),
                    Job = x.Job,
                    Measure = x.Measure,
                    Unit = x.Unit,
                    Direction = x.Direction,
                    Value = x.Value,
                    Summary = new Summary { Median = x.Median, N = x.SampleCount },
                    Samples = x.Samples,
                    Error = x.Error,
                };
                // A key stored in an older layout than BenchmarkKey's today keeps the engine on the key alone.
                if (result.Key != x.Key)
                    result = result with { Name = x.Key, Parameters = [], Job = null };
                return new StoredResult(x.Id, x.RunId, x.BenchmarkId, x.MeasureId, result);
            })
            .ToList();
    }

    /// <summary>The stored parameters object (<c>{"N":"1000"}</c>, in the harness's order) as the engine's
    /// pairs.</summary>
    private static List<KeyValuePair<string, string>> ParametersOf(string json)
    {
        using var doc = JsonDocument.Parse(json);
        return doc
            .RootElement.EnumerateObject()
            .Select(p => new KeyValuePair<string, string>(
                p.Name,
                p.Value.ValueKind == JsonValueKind.String ? p.Value.GetString()! : p.Value.GetRawText()
            ))
            .ToList();
    }
}
