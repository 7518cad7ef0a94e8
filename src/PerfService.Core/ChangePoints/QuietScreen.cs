using System.Numerics;
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
        foreach (var scale in o.Scales)
        {
            var window = Math.Max(o.MinBefore, scale);
            var first = Math.Max(lo + o.MinBefore, from - Math.Max(1, window / 2));
            var last = Math.Min(n - 2, to + Math.Max(1, window / 2));
            // Inside, both windows are whole (window points a side): one variance serves every position there, and
            // they are scored several at a time. Near the ends the windows shrink, one length at each position.
            var inside = Math.Max(first, lo + window);
            var insideLast = Math.Min(last, n - window);
            if (inside > insideLast)
                (inside, insideLast) = (last + 1, last);
            if (
                AnyAt(sums, lo, n, first, Math.Min(last, inside - 1), window, bar, noise)
                || AnyAt(sums, lo, n, insideLast + 1, last, window, bar, noise)
                || AnyInside(
                    sums,
                    inside - lo,
                    insideLast - lo,
                    window,
                    Threshold(bar, noise.StepVariance(window, window))
                )
            )
                return true;
        }
        return false;
    }

    // What a position's squared difference of clipped means must reach, for windows whose step variance is given.
    private static double Threshold(double bar, double variance) =>
        bar * bar * StepScanner.TrimmedVarianceFactor * variance;

    // Positions first..last, each with the windows that fit between lo and n.
    private static bool AnyAt(
        ReadOnlySpan<double> sums,
        int lo,
        int n,
        int first,
        int last,
        int window,
        double bar,
        SeriesNoise noise
    )
    {
        for (var t = first; t <= last; t++)
        {
            int start = Math.Max(lo, t - window),
                end = Math.Min(n, t + window);
            int nL = t - start,
                nR = end - t;
            var delta = (sums[end - lo] - sums[t - lo]) / nR - (sums[t - lo] - sums[start - lo]) / nL;
            if (delta * delta >= Threshold(bar, noise.StepVariance(nL, nR)))
                return true;
        }
        return false;
    }

    // Positions first..last of the prefix sums, each with whole windows: the same operations as AnyAt's, lane by lane,
    // so every score is the same to the bit.
    private static bool AnyInside(ReadOnlySpan<double> sums, int first, int last, int window, double threshold)
    {
        var t = first;
        if (Vector.IsHardwareAccelerated)
        {
            var (w, bound) = (new Vector<double>(window), new Vector<double>(threshold));
            for (; t + Vector<double>.Count - 1 <= last; t += Vector<double>.Count)
            {
                var at = new Vector<double>(sums[t..]);
                var delta =
                    (new Vector<double>(sums[(t + window)..]) - at) / w
                    - (at - new Vector<double>(sums[(t - window)..])) / w;
                if (Vector.GreaterThanOrEqualAny(delta * delta, bound))
                    return true;
            }
        }
        for (; t <= last; t++)
        {
            var delta = (sums[t + window] - sums[t]) / window - (sums[t] - sums[t - window]) / window;
            if (delta * delta >= threshold)
                return true;
        }
        return false;
    }
}
