using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using PerfService.Core.Results;
using PerfService.Data;

namespace PerfService.Analysis;

/// <summary>A stored result with its benchmark and measure, as the pure engine wants it.</summary>
public sealed record StoredResult(long ResultId, long RunId, long BenchmarkId, long MeasureId, BenchmarkResult Result);

public static class RunResults
{
    /// <summary>The results of some runs, joined to their benchmark and measure; with their samples and the identity's
    /// parts, or, given <paramref name="samplesOf"/>, only for those runs (targets need both): the others' results
    /// carry
    /// their stored key as the name, which is all change points use. Parsing every result's parameters was a third of
    /// the
    /// CPU of analysing a run with no target to judge (docs/measurements/2026-11-27-analysis-profile.md).</summary>
    public static async Task<List<StoredResult>> LoadAsync(
        PerfDbContext db,
        IReadOnlyCollection<long> runIds,
        CancellationToken ct,
        IReadOnlyCollection<long>? samplesOf = null
    )
    {
        var all = samplesOf is null;
        samplesOf ??= [];
        var rows = await (
            from r in db.Results.AsNoTracking()
            join b in db.Benchmarks on r.BenchmarkId equals b.Id
            join m in db.Measures on r.MeasureId equals m.Id
            where runIds.Contains(r.RunId)
            let whole = all || samplesOf.Contains(r.RunId)
            select new
            {
                r.Id,
                r.RunId,
                r.BenchmarkId,
                r.MeasureId,
                b.Key,
                // The identity's parts only where they are used: reading them for every result was a string each.
                Name = whole ? b.Name : null,
                Parameters = whole ? b.Parameters : null,
                Job = whole ? b.Job : null,
                m,
                r.Value,
                r.Median,
                Samples = whole ? r.Samples : null,
                r.Error,
                r.SampleCount,
                Whole = whole,
            }
        ).ToListAsync(ct);
        return rows.Select(x =>
            {
                var whole = x.Whole;
                var result = new BenchmarkResult
                {
                    // The engine needs the identity's parts, not only the key: targets pair each benchmark with the
                    // baseline of its own job (a runtime: "Quick-net8.0"), and match patterns on the name too.
                    Name = whole ? x.Name! : x.Key,
                    Parameters = whole ? ParametersOf(x.Parameters!) : [],
                    Job = whole ? x.Job : null,
                    Measure = x.m.Name,
                    Unit = x.m.Unit,
                    Direction = x.m.Direction,
                    Value = x.Value,
                    Summary = new Summary { Median = x.Median, N = x.SampleCount },
                    Samples = x.Samples,
                    Error = x.Error,
                };
                // A key stored in an older layout than BenchmarkKey's today keeps the engine on the key alone.
                if (whole && result.Key != x.Key)
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
