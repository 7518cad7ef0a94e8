using PerfService.Core.Results;

namespace PerfService.Core.Comparison;

/// <summary>
/// One benchmark × measure × profile to compare. Rounds are the unit of replication: <see cref="BaseRounds"/> and
/// <see cref="HeadRounds"/> hold each run's (round's) samples; the positional constructor is one round a side
/// (<see cref="BaseSamples"/> and <see cref="HeadSamples"/> are then that round, otherwise all rounds pooled).
/// <see cref="Threshold"/> is a project override (relative, 0.05 = 5%) and is taken literally when present;
/// otherwise the threshold adapts to <see cref="History"/>, the per-run central values (e.g. each run's median)
/// of earlier base-branch runs, oldest first, which also measure the series' run-to-run spread.
/// </summary>
public sealed record ComparisonInput(
    string Key,
    string Measure,
    string Unit,
    Direction Direction,
    IReadOnlyList<double> BaseSamples,
    IReadOnlyList<double> HeadSamples
)
{
    public string? Profile { get; init; }
    public double? Threshold { get; init; }
    public IReadOnlyList<double>? History { get; init; }

    /// <summary>Each base round's samples; null means <see cref="BaseSamples"/> is one round.</summary>
    public IReadOnlyList<IReadOnlyList<double>>? BaseRounds { get; init; }

    /// <summary>Each head round's samples; null means <see cref="HeadSamples"/> is one round.</summary>
    public IReadOnlyList<IReadOnlyList<double>>? HeadRounds { get; init; }

    public IReadOnlyList<IReadOnlyList<double>> BaseRoundsOrSingle => BaseRounds ?? [BaseSamples];
    public IReadOnlyList<IReadOnlyList<double>> HeadRoundsOrSingle => HeadRounds ?? [HeadSamples];

    /// <summary>A comparison of several rounds a side (each round one run's samples, or its single value).</summary>
    public static ComparisonInput FromRounds(
        string key,
        string measure,
        string unit,
        Direction direction,
        IReadOnlyList<IReadOnlyList<double>> baseRounds,
        IReadOnlyList<IReadOnlyList<double>> headRounds
    ) =>
        new(
            key,
            measure,
            unit,
            direction,
            baseRounds.SelectMany(r => r).ToList(),
            headRounds.SelectMany(r => r).ToList()
        )
        {
            BaseRounds = baseRounds,
            HeadRounds = headRounds,
        };
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

    /// <summary>
    /// k in max(DefaultThreshold, k × run-to-run relative dispersion of the history). 2, not more: the interval already
    /// carries the run-to-run spread (see <see cref="RoundStatistics"/>), so the threshold only keeps claims above what
    /// the series wanders by anyway; 4 cost a tenth of the ±10% shifts in the evaluation without removing a false
    /// verdict.
    /// </summary>
    public double NoiseMultiplier { get; init; } = 2.0;

    /// <summary>History shorter than this is ignored (too little to estimate the dispersion).</summary>
    public int MinHistory { get; init; } = 5;

    /// <summary>With one round a side and no history, fewer samples than this on either side: Inconclusive.</summary>
    public int MinSamples { get; init; } = 5;

    /// <summary>Deterministic measures (allocated bytes, allocation counts) that differ by less than this are the
    /// same.</summary>
    public double DeterministicTolerance { get; init; } = 0.01;

    /// <summary>Rounds a side beyond which "more rounds would decide it" is not worth saying.</summary>
    public int MaxUsefulRounds { get; init; } = 30;
    public FdrMethod Fdr { get; init; } = FdrMethod.BenjaminiYekutieli;
}
