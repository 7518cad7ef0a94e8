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
/// A step that has just landed is looked for apart (<see cref="YoungStreak"/>): clipped at Clip·σ, its few points
/// cannot always carry a score to the bar.
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
        // The level is the median of the points before the newest few, so that a step that has just landed is
        // measured against the level it left.
        var streak = Math.Min(Math.Max(2, o.MinAfter), n - lo - 1);
        Span<double> recent = stackalloc double[Math.Min(LevelSpan, n - lo - streak)];
        y[(n - streak - recent.Length)..(n - streak)].CopyTo(recent);
        StatMath.Select(recent, recent.Length / 2); // the median, without sorting all of them at every update
        var level = recent[recent.Length / 2];
        if (YoungStreak(y[(n - streak)..], level, o.FastBeyond * noise.Sigma))
            return true;
        var clip = Clip * noise.Sigma;
        var sums = n - lo + 1 <= 512 ? stackalloc double[n - lo + 1] : new double[n - lo + 1];
        for (var t = lo; t < n; t++)
            sums[t - lo + 1] = sums[t - lo] + Math.Clamp(y[t] - level, -clip, clip);
        var bar = Fraction * o.CandidateZThreshold * noise.Sigma;
        var variances = noise.Variances();
        for (var i = 0; i < o.Scales.Count; i++) // a foreach would box an enumerator at every update
        {
            var window = Math.Max(o.MinBefore, o.Scales[i]);
            var first = Math.Max(lo + o.MinBefore, from - Math.Max(1, window / 2));
            var last = Math.Min(n - 2, to + Math.Max(1, window / 2));
            // Inside, both windows are whole (window points a side): one variance serves every position there, and
            // they are scored several at a time. Past it, near the newest point, the left window is whole and the
            // right one shrinks, one length at each position: scored several at a time too. Near the left bound the
            // windows shrink in other ways, one position at a time.
            var inside = Math.Max(first, lo + window);
            var insideLast = Math.Min(last, n - window);
            if (inside > insideLast)
                (inside, insideLast) = (last + 1, last);
            var scored = new Scored(sums, lo, n, window, bar, variances);
            if (
                AnyAt(scored, first, Math.Min(last, inside - 1))
                || AnyBeforeEnd(scored, insideLast + 1, last)
                || AnyInside(sums, inside - lo, insideLast - lo, window, Threshold(bar, variances.Of(window, window)))
            )
                return true;
        }
        return false;
    }

    // True when every one of the newest points lies beyond the level by at least `beyond`, all on one side: what the
    // online fast path asks of a young step's points before it alerts. The clipped scores can miss it: with
    // autocorrelated noise the mean of three points varies almost as much as one point does, and the level the clip
    // is centred on may sit a deviation or two from the points just before the step, so a 74% step on a series with
    // 1.8% noise and φ 0.9 stayed under the screen's bar and was alerted 9 points after it landed instead of 2.
    private static bool YoungStreak(ReadOnlySpan<double> newest, double level, double beyond)
    {
        int up = 0,
            down = 0;
        foreach (var v in newest)
        {
            if (v - level >= beyond)
                up++;
            else if (level - v >= beyond)
                down++;
        }
        return up == newest.Length || down == newest.Length;
    }

    // One scale's scoring: the clipped prefix sums from lo to n, the window a side, the bar and the series' variances.
    private readonly ref struct Scored(
        ReadOnlySpan<double> sums,
        int lo,
        int n,
        int window,
        double bar,
        SeriesNoise.StepVariances variances
    )
    {
        public ReadOnlySpan<double> Sums { get; } = sums;
        public int Lo { get; } = lo;
        public int N { get; } = n;
        public int Window { get; } = window;
        public double Bar { get; } = bar;
        public SeriesNoise.StepVariances Variances { get; } = variances;
    }

    // What a position's squared difference of clipped means must reach, for windows whose step variance is given.
    private static double Threshold(double bar, double variance) =>
        bar * bar * StepScanner.TrimmedVarianceFactor * variance;

    // Positions first..last, each with the windows that fit between lo and n.
    private static bool AnyAt(in Scored s, int first, int last)
    {
        var sums = s.Sums;
        var (lo, n, window) = (s.Lo, s.N, s.Window);
        for (var t = first; t <= last; t++)
        {
            int start = Math.Max(lo, t - window),
                end = Math.Min(n, t + window);
            int nL = t - start,
                nR = end - t;
            var delta = (sums[end - lo] - sums[t - lo]) / nR - (sums[t - lo] - sums[start - lo]) / nL;
            if (delta * delta >= Threshold(s.Bar, s.Variances.Of(nL, nR)))
                return true;
        }
        return false;
    }

    // Positions first..last whose left window is whole and whose right one runs to the newest point (n − t of them):
    // AnyAt's operations lane by lane, with each position's own right length and bar, so every score is the same to
    // the bit. The positions that do not fill a vector are AnyAt's.
    private static bool AnyBeforeEnd(in Scored s, int first, int last)
    {
        var sums = s.Sums;
        var (lo, n, window) = (s.Lo, s.N, s.Window);
        var whole = Vector.IsHardwareAccelerated ? Math.Max(0, last - first + 1) / Vector<double>.Count : 0;
        if (whole > 0)
        {
            var count = whole * Vector<double>.Count;
            Span<double> thresholds = stackalloc double[count];
            Span<double> rights = stackalloc double[count];
            for (var i = 0; i < count; i++)
            {
                var nR = n - (first + i);
                (rights[i], thresholds[i]) = (nR, Threshold(s.Bar, s.Variances.Of(window, nR)));
            }
            var (w, total) = (new Vector<double>(window), new Vector<double>(sums[n - lo]));
            for (var i = 0; i < count; i += Vector<double>.Count)
            {
                var t = first + i - lo;
                var at = new Vector<double>(sums[t..]);
                var delta =
                    (total - at) / new Vector<double>(rights[i..])
                    - (at - new Vector<double>(sums[(t - window)..])) / w;
                if (Vector.GreaterThanOrEqualAny(delta * delta, new Vector<double>(thresholds[i..])))
                    return true;
            }
            first += count;
        }
        return AnyAt(s, first, last);
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
