namespace PerfService.Core.Comparison;

public enum ThresholdSource
{
    Default,
    Noise,
    Override,
}

/// <summary>
/// The smallest relative change a verdict may call a regression or an improvement.
/// Mann–Whitney only sees the samples of two runs; it cannot see run-to-run variation (a different machine state,
/// ASLR, thermal), which is often larger than within-run noise. The series' own history measures that variation,
/// so the threshold is max(default, k × σ_run), where σ_run is the run-to-run relative dispersion (the same history
/// also widens the interval, see <see cref="RoundStatistics"/>).
/// </summary>
public static class NoiseThreshold
{
    public static (double Threshold, ThresholdSource Source) For(
        double? overrideThreshold,
        IReadOnlyList<double>? history,
        ComparisonOptions options
    )
    {
        if (overrideThreshold is { } o && o > 0)
            return (o, ThresholdSource.Override);
        var dispersion = history is null ? double.NaN : RelativeDispersion(history, options.MinHistory);
        var noisy = options.NoiseMultiplier * dispersion;
        return noisy > options.DefaultThreshold
            ? (noisy, ThresholdSource.Noise)
            : (options.DefaultThreshold, ThresholdSource.Default);
    }

    /// <summary>
    /// Run-to-run relative dispersion σ estimated from successive differences of the log values:
    /// median(|ln xᵢ − ln xᵢ₋₁|) / 0.954. For Gaussian noise |Δ| is half-normal with scale σ√2, whose median is
    /// 0.6745·√2·σ = 0.954σ. Successive differences ignore slow drift, and the median ignores the one large
    /// difference a genuine step adds, so an old regression in the history does not inflate the threshold.
    /// NaN when the history is too short or not positive.
    /// </summary>
    public static double RelativeDispersion(IReadOnlyList<double> history, int minHistory = 5)
    {
        var n = history.Count;
        if (n < Math.Max(3, minHistory))
            return double.NaN;
        Span<double> diffs = n <= 512 ? stackalloc double[n - 1] : new double[n - 1];
        for (var i = 1; i < n; i++)
        {
            double a = history[i - 1],
                b = history[i];
            if (!(a > 0) || !(b > 0) || double.IsInfinity(a) || double.IsInfinity(b))
                return double.NaN;
            diffs[i - 1] = Math.Abs(Math.Log(b) - Math.Log(a));
        }
        diffs.Sort();
        return StatMath.SortedMedian(diffs) / 0.954;
    }
}
