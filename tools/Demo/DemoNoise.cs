namespace PerfService.Demo;

/// <summary>
/// What a planted step looks like against this machine's run-to-run noise, from the points of one series on main:
/// the step is the ratio of the medians after and before the planting commit; the noise is the robust spread (MAD
/// scaled to a standard deviation) of the log values before it, i.e. A/A runs of the same code. The smallest step the
/// change-point detector can resolve from these points is about z·σ·√(1/before + 1/after), z = 5 its threshold
/// (it also models autocorrelation, so this is a lower bound).
/// </summary>
public sealed record DemoNoise(double Step, double Noise, double Resolvable, int Before, int After)
{
    public const double DetectorZ = 5.0;

    public static DemoNoise? Measure(IReadOnlyList<double> before, IReadOnlyList<double> after)
    {
        if (before.Count < 3 || after.Count < 3) return null;
        var sigma = LogSpread([before]);
        var step = Median(after) / Median(before) - 1;
        var resolvable = Math.Exp(DetectorZ * sigma * Math.Sqrt(1.0 / before.Count + 1.0 / after.Count)) - 1;
        return new DemoNoise(step, Math.Exp(sigma) - 1, resolvable, before.Count, after.Count);
    }

    public bool Reliable(double plantedFraction) => plantedFraction >= Resolvable;

    /// <summary>
    /// The robust σ of log values (MAD scaled to a standard deviation) pooled over groups, each about its own median:
    /// the calibration's several benchmarks of one family, or one series' points before a change. NaN under 3 values.
    /// </summary>
    public static double LogSpread(IEnumerable<IReadOnlyList<double>> groups)
    {
        var deviations = new List<double>();
        foreach (var group in groups.Where(g => g.Count > 0))
        {
            var logs = group.Where(v => v > 0).Select(v => Math.Log(v)).ToList();
            if (logs.Count == 0) continue;
            var center = Median(logs);
            deviations.AddRange(logs.Select(v => Math.Abs(v - center)));
        }
        return deviations.Count < 3 ? double.NaN : 1.4826 * Median(deviations);
    }

    private static double Median(IReadOnlyList<double> values)
    {
        var sorted = values.Order().ToList();
        var mid = sorted.Count / 2;
        return sorted.Count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
