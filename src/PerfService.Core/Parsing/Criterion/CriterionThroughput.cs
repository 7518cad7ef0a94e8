using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Criterion;

/// <summary>
/// Criterion reports throughput as a count per iteration (Bytes/Elements) next to a time per iteration; the rate
/// people compare is count / time, so it is derived here: value = count / (mean ns × 1e-9), higher is better.
/// </summary>
internal static class CriterionThroughput
{
    /// <summary>Maps criterion's throughput kinds (benchmark.json keys, cargo-criterion unit strings) to a
    /// unit.</summary>
    public static string? UnitFor(string kind) =>
        kind.ToLowerInvariant() switch
        {
            "bytes" or "bytesdecimal" or "bytes_decimal" => "bytes/s",
            "elements" => "elements/s",
            _ => null,
        };

    public static void Add(
        BenchmarkResult time,
        string unit,
        double perIteration,
        ResultSink sink,
        string file,
        string location
    )
    {
        if (time.Value is not { } meanNs)
            return;
        if (meanNs <= 0)
        {
            sink.Warnings.Add($"{file} at {location}: no throughput for {time.Key}: its mean time is 0");
            return;
        }
        var value = perIteration / (meanNs * 1e-9);
        Check.Value(value, file, location, "the throughput", nonNegative: true);
        // Samples convert one by one; a zero-time sample has no finite rate, so then none are kept rather than some.
        List<double>? samples = null;
        if (time.Samples is { Count: > 0 } times && times.All(t => t > 0 && Check.IsSane(perIteration / (t * 1e-9))))
            samples = times.Select(t => perIteration / (t * 1e-9)).ToList();
        sink.Results.Add(
            time with
            {
                Measure = Measures.Throughput,
                Unit = unit,
                Direction = Direction.HigherIsBetter,
                Value = value,
                // count / mean time is not the mean of the per-sample rates, so no harness statistics carry over.
                Summary = null,
                Samples = samples,
            }
        );
    }
}
