namespace PerfService.Core.Results;

/// <summary>Which way is better for a measure: time and allocations go down, throughput goes up.</summary>
public enum Direction
{
    LowerIsBetter,
    HigherIsBetter,
}
