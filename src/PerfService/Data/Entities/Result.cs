namespace PerfService.Data.Entities;

/// <summary>
/// One benchmark × measure of one run. <see cref="ProfileId"/>, <see cref="BranchId"/> and <see cref="SeriesAt"/> are
/// copied from the run so that a benchmark's history is one index range scan.
/// </summary>
public class Result
{
    public long Id { get; set; }
    public long RunId { get; set; }
    public long BenchmarkId { get; set; }
    public long MeasureId { get; set; }
    public long ProfileId { get; set; }
    public long? BranchId { get; set; }

    /// <summary>Position in the series: the commit time, or when the run arrived if unknown.</summary>
    public DateTimeOffset SeriesAt { get; set; }
    public double? Value { get; set; }
    public double? Mean { get; set; }
    public double? Median { get; set; }
    public double? StdDev { get; set; }
    public double? Min { get; set; }
    public double? Max { get; set; }
    public double? CiLower { get; set; }
    public double? CiUpper { get; set; }
    public int SampleCount { get; set; }
    public double[]? Samples { get; set; }
    public string? Error { get; set; }
}
