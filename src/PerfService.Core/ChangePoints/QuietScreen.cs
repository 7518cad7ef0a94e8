using PerfService.Core.Comparison;

namespace PerfService.Core.ChangePoints;

/// <summary>
/// A cheap look, before the online re-scan, at whether it could find anything. Most updates of most series find
/// nothing: no change point under watch and no window pair anywhere near the candidate bar. The screen scores the same
/// positions and window sizes as the scan's first stage, but with plain means of values clipped to ±<see cref="Clip"/>
/// noise deviations around the recent median (prefix sums: O(1) a position instead of sliding sorted windows), and
/// lets the full scan run only where some score reaches <see cref="Fraction"/> of the candidate bar. Clipping keeps a
/// lone outlier from waking the scan; a real step still shifts the clipped values by at least min(step, Clip·σ).
/// </summary>
internal static class QuietScreen
{
    private const double Clip = 3.0;
    private const int LevelSpan = 31;
    private const double Fraction = 0.75;

    /// <summary>True when the step scan over [from, to] with windows bounded on the left by lo may find a
    /// candidate.</summary>
    public static bool MayFind(
        ReadOnlySpan<double> y,
        int from,
        int to,
        int lo,
        SeriesNoise noise,
        ChangePointOptions o
    )
    {
        var n = y.Length;
        if (!noise.IsKnown || n - lo < o.MinBefore + 2)
            return false;
        Span<double> recent = stackalloc double[Math.Min(LevelSpan, n - lo)];
        y[(n - recent.Length)..].CopyTo(recent);
        StatMath.Select(recent, recent.Length / 2); // the median, without sorting all of them at every update
        var level = recent[recent.Length / 2];
        var clip = Clip * noise.Sigma;
        var sums = n - lo + 1 <= 512 ? stackalloc double[n - lo + 1] : new double[n - lo + 1];
        for (var t = lo; t < n; t++)
            sums[t - lo + 1] = sums[t - lo] + Math.Clamp(y[t] - level, -clip, clip);
        var bar = Fraction * o.CandidateZThreshold * noise.Sigma;
        // The window sizes change only near the series' ends: reuse the last step variance (three powers of φ).
        int cachedL = 0,
            cachedR = 0;
        var variance = 0.0;
        foreach (var scale in o.Scales)
        {
            var window = Math.Max(o.MinBefore, scale);
            var first = Math.Max(lo + o.MinBefore, from - Math.Max(1, window / 2));
            var last = Math.Min(n - 2, to + Math.Max(1, window / 2));
            for (var t = first; t <= last; t++)
            {
                int start = Math.Max(lo, t - window),
                    end = Math.Min(n, t + window);
                int nL = t - start,
                    nR = end - t;
                if (nL != cachedL || nR != cachedR)
                    (cachedL, cachedR, variance) = (nL, nR, noise.StepVariance(nL, nR));
                var delta = (sums[end - lo] - sums[t - lo]) / nR - (sums[t - lo] - sums[start - lo]) / nL;
                if (delta * delta >= bar * bar * StepScanner.TrimmedVarianceFactor * variance)
                    return true;
            }
        }
        return false;
    }
}
