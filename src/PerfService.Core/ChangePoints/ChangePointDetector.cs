namespace PerfService.Core.ChangePoints;

/// <summary>
/// Retrospective change-point detection over a series of per-commit values (one per run, e.g. each run's median),
/// oldest first. Works on log values (changes are relative). See <see cref="StepScanner"/> for the test and
/// <see cref="SeriesNoise"/> for the noise model; the online counterpart is <see cref="OnlineDetector"/>.
/// </summary>
public static class ChangePointDetector
{
    public static IReadOnlyList<ChangePoint> Detect(IReadOnlyList<double> values, ChangePointOptions? options = null)
    {
        options ??= ChangePointOptions.Default;
        var offline = options with { ZThreshold = options.OfflineZThreshold };
        var y = new double[values.Count];
        for (var i = 0; i < y.Length; i++)
        {
            if (!double.IsFinite(values[i]))
                throw new ArgumentException(
                    $"value {i} is {values[i]}; a series holds finite values only",
                    nameof(values)
                );
            y[i] = StepScanner.Log(values[i]);
        }
        var noise = SeriesNoise.Estimate(y);
        var steps = StepScanner.Scan(
            y,
            options.MinBefore,
            y.Length - options.MinAfter,
            0,
            noise,
            offline,
            offline.RescanSegments
        );
        var result = new List<ChangePoint>(steps.Count);
        foreach (var s in steps)
            result.Add(ToChangePoint(s, 0, options));
        return result;
    }

    internal static ChangePoint ToChangePoint(in Step s, int offset, ChangePointOptions options)
    {
        var up = s.Delta > 0;
        var direction = up == options.LowerIsBetter ? ChangeDirection.Regression : ChangeDirection.Improvement;
        return new ChangePoint(
            s.Index + offset,
            direction,
            Math.Exp(s.Delta) - 1,
            Math.Exp(s.LogBefore),
            Math.Exp(s.LogAfter),
            s.Z
        );
    }
}
