using PerfService.Core.Results;

namespace PerfService.Core.Comparison;

public enum Outcome
{
    Regression,
    Improvement,
    NoChange,
    Inconclusive,
}

/// <summary>
/// The verdict on one comparison. <see cref="BaseMedian"/> and <see cref="HeadMedian"/> are the side estimates (the
/// geometric mean of each side's round medians: the median itself for one round), <see cref="Ratio"/> is exactly
/// HeadMedian / BaseMedian, with the (1 − α) interval of the round-level t test (see <see cref="RoundStatistics"/>).
/// <see cref="PValue"/> is that test's two-sided p-value; <see cref="AdjustedP"/> the FDR-adjusted one the decision
/// used. Ratio bounds and p-values are NaN when no test could be run (too few samples).
/// </summary>
public sealed record Verdict
{
    public required string Key { get; init; }
    public required string Measure { get; init; }
    public required string Unit { get; init; }
    public Direction Direction { get; init; }
    public string? Profile { get; init; }
    public Outcome Outcome { get; init; }
    public int BaseCount { get; init; }
    public int HeadCount { get; init; }
    public int BaseRounds { get; init; }
    public int HeadRounds { get; init; }

    /// <summary>For an inconclusive verdict: roughly how many rounds a side would decide it (null: too many to be
    /// useful).</summary>
    public int? RoundsToDecide { get; init; }
    public double BaseMedian { get; init; }
    public double HeadMedian { get; init; }
    public double Ratio { get; init; }
    public double RatioLower { get; init; }
    public double RatioUpper { get; init; }
    public double PValue { get; init; }
    public double AdjustedP { get; init; }

    /// <summary>The relative threshold (0.05 = 5%) a regression or improvement must clear, and where it came
    /// from.</summary>
    public double Threshold { get; init; }
    public ThresholdSource ThresholdSource { get; init; }

    /// <summary>The margin the whole interval must lie within for "no change": the project's threshold for the
    /// benchmark
    /// (5% unless configured), never the noise-widened <see cref="Threshold"/>.</summary>
    public double NoChangeMargin { get; init; }

    /// <summary>The series' run-to-run relative noise on the base branch (0.1 = ±10%); NaN without enough
    /// history.</summary>
    public double RunToRunNoise { get; init; } = double.NaN;
    public required string Reason { get; init; }

    /// <summary>Inconclusive and more rounds would likely settle it (see <see cref="RoundsToDecide"/>).</summary>
    public bool WantsRerun { get; init; }

    /// <summary>Relative change of head against base, e.g. +0.12 for 12% larger.</summary>
    public double Change => Ratio - 1;
    public double ChangeLower => RatioLower - 1;
    public double ChangeUpper => RatioUpper - 1;
}
