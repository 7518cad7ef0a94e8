namespace PerfService.Core.ChangePoints;

/// <summary>
/// Settings of the change-point detector. The defaults were tuned on the labelled synthetic corpus
/// (tools/ChangePointEval, <c>./perf detect-eval</c>) for ≤ 1 false alarm per 1,000 unchanged points.
/// </summary>
public sealed record ChangePointOptions
{
    public static ChangePointOptions Default { get; } = new();

    /// <summary>Most points used on each side of a candidate change (local windows keep slow drift out).</summary>
    public int Window { get; init; } = 30;
    /// <summary>Fewest points before a change for it to be tested.</summary>
    public int MinBefore { get; init; } = 10;
    /// <summary>Fewest points after a change before it can be reported (k of the stability rule).</summary>
    public int MinAfter { get; init; } = 5;
    /// <summary>Critical value of the step statistic (a z-score under the AR(1) noise model).</summary>
    public double ZThreshold { get; init; } = 5.0;
    /// <summary>Critical value for the same step once a local linear trend is allowed for (guards against slow drift).</summary>
    public double DriftZThreshold { get; init; } = 3.0;
    /// <summary>Smallest relative change ever reported (0.01 = 1%).</summary>
    public double MinEffect { get; init; } = 0.01;
    /// <summary>A change must also exceed this many noise standard deviations of the series.</summary>
    public double NoiseMultiplier { get; init; } = 1.0;
    /// <summary>Direction of "better": with the default an increase is a regression (time, allocations).</summary>
    public bool LowerIsBetter { get; init; } = true;

    // Online stability rule.
    /// <summary>Consecutive re-runs (points) in which a change point must be found before it is alerted.</summary>
    public int Persist { get; init; } = 3;
    /// <summary>Consecutive re-runs in which an alerted change point must be missing before it is withdrawn.</summary>
    public int WithdrawAfter { get; init; } = 2;
    /// <summary>How far (in points) a change point may move between re-runs and still be the same one.</summary>
    public int Jitter { get; init; } = 3;
    /// <summary>Points beyond a full window after which a change point is settled and never re-examined.</summary>
    public int SettleMargin { get; init; } = 10;
    /// <summary>Most recent points kept by the online state (also the span of the noise estimate).</summary>
    public int History { get; init; } = 200;
}
