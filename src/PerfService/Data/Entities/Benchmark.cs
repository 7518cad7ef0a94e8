namespace PerfService.Data.Entities;

/// <summary>
/// A benchmark's identity is its name, parameters and job, kept together in <see cref="Key"/>
/// (see <c>BenchmarkKey</c>), so [Params] cases and runtimes never collide.
/// </summary>
public class Benchmark
{
    public long Id { get; set; }
    public long SuiteId { get; set; }
    public required string Key { get; set; }
    public required string Name { get; set; }

    /// <summary>Parameters as a JSON object, in the harness's order.</summary>
    public string Parameters { get; set; } = "{}";
    public string? Job { get; set; }

    // Navigations, for reads that project names (a run's commit SHA, profile name…) without correlated subqueries.
    public Suite? Suite { get; set; }
}
