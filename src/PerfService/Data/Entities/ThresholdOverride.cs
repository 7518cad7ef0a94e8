namespace PerfService.Data.Entities;

/// <summary>
/// A project's relative threshold (0.10 = 10%) for benchmarks whose key matches <see cref="Pattern"/> (a glob, or an
/// exact key), optionally only for one measure. Replaces the noise-adapted threshold of pull-request verdicts.
/// </summary>
public class ThresholdOverride
{
    public long Id { get; set; }
    public long ProjectId { get; set; }
    public required string Pattern { get; set; }
    public string? Measure { get; set; }
    public double Threshold { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
}
