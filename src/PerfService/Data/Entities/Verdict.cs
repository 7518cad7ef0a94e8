using PerfService.Core.Comparison;

namespace PerfService.Data.Entities;

/// <summary>Head against base for one benchmark × measure of one pull-request job (whose profile it carries).</summary>
public class Verdict
{
    public long Id { get; set; }
    public long JobId { get; set; }
    public long ProjectId { get; set; }
    public int? PullRequest { get; set; }
    public long BenchmarkId { get; set; }
    public long MeasureId { get; set; }
    public long ProfileId { get; set; }
    public Outcome Outcome { get; set; }
    public double? BaseMedian { get; set; }
    public double? HeadMedian { get; set; }

    /// <summary>Relative change of head against base (0.1 = +10%) and its confidence interval.</summary>
    public double? Change { get; set; }
    public double? ChangeCiLower { get; set; }
    public double? ChangeCiUpper { get; set; }
    public double? PValue { get; set; }
    public double? AdjustedPValue { get; set; }

    /// <summary>The threshold a regression had to clear, and the margin the interval had to lie within for no change
    /// (relative, 0.05 = 5%): the two differ where the series' noise widened the threshold.</summary>
    public double Threshold { get; set; }
    public double NoChangeMargin { get; set; }
    public int BaseSamples { get; set; }
    public int HeadSamples { get; set; }
    public string? Reason { get; set; }
    public bool WantsRerun { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
}
