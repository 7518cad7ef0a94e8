namespace PerfService.ChangePointEval;

public enum NoiseKind
{
    /// <summary>Independent log-normal noise.</summary>
    Independent,
    /// <summary>AR(1) log-noise: consecutive runs share machine state.</summary>
    Autocorrelated,
    /// <summary>Each run lands in one of two modes.</summary>
    Bimodal,
    /// <summary>AR(1) noise, two modes and outliers on one series, as busy shared runners produce.</summary>
    Combined,
}

/// <summary>
/// A planted step: <see cref="Index"/> is the first point at the new level, <see cref="Factor"/> the multiplier
/// (1.1 = 10% slower for a time series, i.e. a regression when lower is better).
/// <see cref="Size"/> is the step size s of the generator: up steps are ×(1+s), down steps ×1/(1+s).
/// <see cref="NoiseScale"/>: the factor on the Gaussian noise's deviation from this point on (a machine move; else 1).
/// </summary>
public sealed record TrueChange(int Index, double Factor, double NoiseScale = 1)
{
    public bool Up => Factor > 1;
    public double Size => Up ? Factor - 1 : 1 / Factor - 1;
}

/// <summary>
/// A synthetic series with its ground truth. <see cref="Noise"/> is the marginal standard deviation of the log-noise
/// (≈ the relative run-to-run variation), including the spread between modes for bimodal series; it is the noise
/// drawn for the series (before a machine move, which may scale it).
/// Nuisances besides the noise kind: slow <see cref="Drift"/> (linear or half sine), <see cref="Outliers"/> (up,
/// down, heavy-tailed), random-walk <see cref="Wander"/> of the level, <see cref="Quantised"/> values (a coarse clock),
/// and a <see cref="MachineMove"/>: one of the planted changes is a move to another machine, which also changes the noise.
/// <see cref="ModeSpread"/> is the standard deviation the two modes add to the log-noise (0 unless bimodal): the
/// Gaussian part, the one that AR(1) correlates and a machine move scales, is √(Noise² − ModeSpread²).
/// </summary>
public sealed record LabelledSeries(
    string Id,
    double[] Values,
    IReadOnlyList<TrueChange> Changes,
    double Noise,
    NoiseKind Kind,
    double Phi,
    bool Drift,
    bool Outliers,
    bool Wander = false,
    bool Quantised = false,
    bool MachineMove = false,
    double ModeSpread = 0);
