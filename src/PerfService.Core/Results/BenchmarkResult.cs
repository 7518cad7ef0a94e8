namespace PerfService.Core.Results;

/// <summary>
/// One benchmark × measure as a harness reported it, normalised. The identity of the benchmark is
/// <see cref="Name"/> + <see cref="Parameters"/> + <see cref="Job"/>: BenchmarkDotNet's [Params] cases and
/// its .NET 8 / .NET 9 jobs are distinct series and never overwrite each other.
/// </summary>
public sealed record BenchmarkResult
{
    /// <summary>Full name without parameters, e.g. <c>Rivulet.Benchmarks.SelectParallel.Bounded</c>,
    /// <c>group/function</c> for criterion, <c>pkg.BenchmarkX/sub</c> for Go.</summary>
    public required string Name { get; init; }

    /// <summary>Parameters by name, in a stable order.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Parameters { get; init; } = [];

    /// <summary>Job or runtime (BenchmarkDotNet job id, Go's GOMAXPROCS suffix as <c>procs=8</c>), or null.</summary>
    public string? Job { get; init; }

    public required string Measure { get; init; }
    public required string Unit { get; init; }
    public Direction Direction { get; init; }

    /// <summary>The central value (the harness's mean, or the median where it gives no mean). Null when
    /// failed.</summary>
    public double? Value { get; init; }

    public Summary? Summary { get; init; }

    /// <summary>Per-iteration or per-repeat samples in <see cref="Unit"/>, when the harness gave them.</summary>
    public IReadOnlyList<double>? Samples { get; init; }

    /// <summary>Why the benchmark produced no value (the harness recorded a failure). Null on success.</summary>
    public string? Error { get; init; }

    public bool Failed => Error is not null;

    public string Key => BenchmarkKey.Format(Name, Parameters, Job);
}
