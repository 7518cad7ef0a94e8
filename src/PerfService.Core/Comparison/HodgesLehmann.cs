namespace PerfService.Core.Comparison;

/// <summary>
/// Hodges–Lehmann shift estimate (median of all pairwise differences y − x) and its distribution-free confidence
/// interval (Moses): order statistics of the same differences at ranks given by the Mann–Whitney null distribution.
/// It is the effect size that matches the Mann–Whitney test, robust to outliers, and more efficient than the
/// difference of medians. Applied to log-samples it estimates the ratio head/base.
/// The n·m differences are never materialised: the k-th smallest is found by bisection on the value with an
/// O(n + m) two-pointer count, so 100×100 samples cost a few thousand operations instead of sorting 10,000 numbers.
/// </summary>
internal static class HodgesLehmann
{
    public readonly record struct Estimate(double Shift, double Lower, double Upper);

    public static Estimate Compute(ReadOnlySpan<double> sortedX, ReadOnlySpan<double> sortedY, double confidence)
    {
        int n = sortedX.Length, m = sortedY.Length;
        long total = (long)n * m;
        var shift = 0.5 * (KthDifference(sortedX, sortedY, (total + 1) / 2) + KthDifference(sortedX, sortedY, total / 2 + 1));
        // Rank of the lower bound: the α/2 quantile of U under H0 (normal approximation, floored, at least 1).
        var z = StatMath.NormalQuantile(1 - (1 - confidence) / 2);
        var k = (long)Math.Floor(total / 2.0 - z * Math.Sqrt(total * (n + m + 1) / 12.0));
        if (k < 1) k = 1;
        var lower = KthDifference(sortedX, sortedY, k);
        var upper = KthDifference(sortedX, sortedY, total - k + 1);
        return new Estimate(shift, lower, upper);
    }

    /// <summary>The k-th smallest (1-based) of all y[j] − x[i].</summary>
    public static double KthDifference(ReadOnlySpan<double> x, ReadOnlySpan<double> y, long k)
    {
        long total = (long)x.Length * y.Length;
        var lo = y[0] - x[^1]; // the smallest difference
        var hi = y[^1] - x[0]; // the largest difference
        if (k >= total) return hi;
        var countLo = CountAtMost(x, y, lo);
        if (countLo >= k) return lo;
        long countHi = total;
        // Invariant: count(lo) < k <= count(hi); bisect on the value until few differences remain in (lo, hi].
        for (var iter = 0; iter < 200 && countHi - countLo > x.Length + y.Length; iter++)
        {
            var mid = lo + (hi - lo) / 2;
            if (mid <= lo || mid >= hi) break; // nothing representable in between: the rest are ties
            var c = CountAtMost(x, y, mid);
            if (c >= k) { hi = mid; countHi = c; }
            else { lo = mid; countLo = c; }
        }
        var between = countHi - countLo;
        if (between > 4096) return hi; // a large block of equal differences
        Span<double> found = between <= 256 ? stackalloc double[(int)between] : new double[between];
        var filled = 0;
        var start = 0;
        for (var i = 0; i < x.Length; i++)
        {
            while (start < y.Length && y[start] - x[i] <= lo) start++;
            for (var j = start; j < y.Length && filled < found.Length; j++)
            {
                var d = y[j] - x[i];
                if (d > hi) break;
                found[filled++] = d;
            }
        }
        found = found[..filled];
        found.Sort();
        return filled == 0 ? hi : found[(int)Math.Clamp(k - countLo - 1, 0, filled - 1)];
    }

    // Number of pairs with y[j] − x[i] ≤ d. As x[i] grows the differences shrink, so j only moves forward.
    private static long CountAtMost(ReadOnlySpan<double> x, ReadOnlySpan<double> y, double d)
    {
        long count = 0;
        var j = 0;
        for (var i = 0; i < x.Length; i++)
        {
            while (j < y.Length && y[j] - x[i] <= d) j++;
            count += j;
        }
        return count;
    }
}
