namespace PerfService.Core.Results;

/// <summary>The statistics a harness computed itself. Any of them may be missing; none is ever made up.</summary>
public sealed record Summary
{
    public double? Mean { get; init; }
    public double? Median { get; init; }
    public double? StdDev { get; init; }
    public double? Min { get; init; }
    public double? Max { get; init; }

    /// <summary>Lower bound of the harness's confidence interval of the central value.</summary>
    public double? CiLower { get; init; }
    public double? CiUpper { get; init; }

    /// <summary>Confidence level of the interval, e.g. 0.999 for BenchmarkDotNet, 0.95 for criterion.</summary>
    public double? CiLevel { get; init; }

    /// <summary>Number of samples the statistics were computed from.</summary>
    public int? N { get; init; }
}
