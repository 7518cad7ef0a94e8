namespace PerfService.Data.Entities;

/// <summary>
/// What an alert records beyond its summary, one part per kind of evidence, stored as one jsonb document (an EF
/// complex type mapped to JSON). A change-point alert has <see cref="ChangePoint"/> (and <see cref="Bisect"/> once
/// bisection starts), a regression <see cref="Regression"/>, a failed target its <see cref="TargetMisses"/>.
/// </summary>
public sealed class AlertDetails
{
    public ChangePointFacts? ChangePoint { get; set; }
    public RegressionFacts? Regression { get; set; }
    public List<TargetMiss> TargetMisses { get; set; } = [];
    public BisectState? Bisect { get; set; }
}

/// <summary>The detector's change: at <see cref="Index"/> of the series (found after point <see cref="DetectedAt"/>),
/// from <see cref="LevelBefore"/> to <see cref="LevelAfter"/>, a relative <see cref="Magnitude"/> in <see
/// cref="Direction"/>.</summary>
public sealed class ChangePointFacts
{
    public int Index { get; set; }
    public double Magnitude { get; set; }
    public double LevelBefore { get; set; }
    public double LevelAfter { get; set; }
    public int DetectedAt { get; set; }

    /// <summary>Regression or Improvement, as <c>PerfService.Core.ChangePoints.ChangeDirection</c> names it.</summary>
    public required string Direction { get; set; }
}

/// <summary>The pull-request verdict behind a regression alert (null figures where no number exists).</summary>
public sealed class RegressionFacts
{
    public long JobId { get; set; }
    public double? BaseMedian { get; set; }
    public double? HeadMedian { get; set; }
    public double? Change { get; set; }
    public double? P { get; set; }
}

/// <summary>One failing benchmark of a target: its figures against the limit.</summary>
public sealed class TargetMiss
{
    public string? Benchmark { get; set; }
    public string? Baseline { get; set; }
    public double? Actual { get; set; }
    public double Limit { get; set; }
    public string? Unit { get; set; }
    public required string Reason { get; set; }
}

/// <summary>
/// What a change-point alert remembers of its bisection: the range it started from (jobs are counted against that
/// range's cap, even after the alert narrowed) and whether it is over.
/// </summary>
public sealed class BisectState
{
    public required string From { get; set; }
    public required string To { get; set; }
    public DateTimeOffset FromAt { get; set; }
    public DateTimeOffset ToAt { get; set; }
    public int RangeCommits { get; set; }
    public int Cap { get; set; }
    public bool Done { get; set; }
}
