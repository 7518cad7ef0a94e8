using PerfService.Core.Results;

namespace PerfService.Core.Comparison;

/// <summary>
/// One benchmark × measure × profile to compare: the raw samples of the base run and of the head run.
/// <see cref="Threshold"/> is a project override (relative, 0.05 = 5%) and is taken literally when present;
/// otherwise the threshold adapts to <see cref="History"/>, the per-run central values (e.g. each run's median)
/// of earlier base-branch runs, oldest first.
/// </summary>
public sealed record ComparisonInput(
    string Key,
    string Measure,
    string Unit,
    Direction Direction,
    IReadOnlyList<double> BaseSamples,
    IReadOnlyList<double> HeadSamples)
{
    public string? Profile { get; init; }
    public double? Threshold { get; init; }
    public IReadOnlyList<double>? History { get; init; }
}

public enum FdrMethod
{
    /// <summary>No multiplicity correction (only for a single comparison or for diagnostics).</summary>
    None,
    /// <summary>Benjamini–Hochberg: FDR control under independence or positive dependence.</summary>
    BenjaminiHochberg,
    /// <summary>Benjamini–Yekutieli: FDR control under any dependence, at a log(m) cost in power.</summary>
    BenjaminiYekutieli,
}

public sealed record ComparisonOptions
{
    public static ComparisonOptions Default { get; } = new();

    /// <summary>Significance level, applied to FDR-adjusted p-values; also sets the CI level (1 − α).</summary>
    public double Alpha { get; init; } = 0.05;
    /// <summary>Smallest relative change worth an alarm when the series is quiet.</summary>
    public double DefaultThreshold { get; init; } = 0.05;
    /// <summary>k in max(DefaultThreshold, k × run-to-run relative dispersion of the history).</summary>
    public double NoiseMultiplier { get; init; } = 4.0;
    /// <summary>History shorter than this is ignored (too little to estimate the dispersion).</summary>
    public int MinHistory { get; init; } = 5;
    /// <summary>Fewer samples than this on either side: Inconclusive.</summary>
    public int MinSamples { get; init; } = 5;
    public FdrMethod Fdr { get; init; } = FdrMethod.BenjaminiYekutieli;
}
