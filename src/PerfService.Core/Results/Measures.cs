namespace PerfService.Core.Results;

/// <summary>
/// Well-known measure names. Anything a harness reports beyond these (Go's b.ReportMetric units,
/// criterion's custom units, the generic JSON) keeps its own name, which is its unit.
/// </summary>
public static class Measures
{
    /// <summary>Time per operation, in nanoseconds.</summary>
    public const string Time = "time";

    /// <summary>Bytes allocated per operation.</summary>
    public const string Allocated = "alloc";

    /// <summary>Allocations (count) per operation, Go's allocs/op.</summary>
    public const string Allocations = "allocs";

    /// <summary>GC collections per 1000 operations (BenchmarkDotNet's memory diagnoser).</summary>
    public const string Gen0 = "gen0";
    public const string Gen1 = "gen1";
    public const string Gen2 = "gen2";

    /// <summary>Throughput: elements or bytes per second (criterion), MB/s (Go).</summary>
    public const string Throughput = "throughput";

    /// <summary>
    /// Measures a benchmark reproduces exactly from run to run (allocated bytes and allocation counts per operation):
    /// compared exactly with a small tolerance rather than statistically.
    /// </summary>
    public static bool IsDeterministic(string measure) => measure is Allocated or Allocations;
}
