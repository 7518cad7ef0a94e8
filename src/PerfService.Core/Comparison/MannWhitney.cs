using System.Collections.Concurrent;

namespace PerfService.Core.Comparison;

/// <summary>
/// Mann–Whitney U (Wilcoxon rank-sum) on two sorted samples. Rank-based, so it assumes nothing about the shape of
/// the distributions: benchmark samples are skewed, heavy-tailed and often have outliers, which break t-tests.
/// Exact null distribution for small tie-free samples (the normal approximation is poor there); otherwise the normal
/// approximation with tie correction and continuity correction.
/// </summary>
internal static class MannWhitney
{
    private const int ExactLimit = 40; // n + m at or below which the exact distribution is used (when no ties)
    private static readonly ConcurrentDictionary<(int, int), double[]> s_exactCdf = new();

    public readonly record struct Result(double U, double Z, double PValue);

    /// <summary>U counts pairs (x, y) with y &gt; x (ties count ½): large U means Y tends to be larger than X.</summary>
    public static Result Test(ReadOnlySpan<double> sortedX, ReadOnlySpan<double> sortedY)
    {
        int n = sortedX.Length, m = sortedY.Length;
        if (n == 0 || m == 0) return new Result(double.NaN, double.NaN, double.NaN);
        var (rankSumY, tieTerm) = RankSum(sortedX, sortedY);
        var u = rankSumY - m * (m + 1) / 2.0;
        var mean = n * (double)m / 2.0;
        var total = n + m;
        var variance = n * (double)m / 12.0 * (total + 1 - tieTerm / (total * (double)(total - 1)));
        if (variance <= 0) return new Result(u, 0, 1.0); // every value identical: no evidence either way
        var z = (u - mean) / Math.Sqrt(variance);
        double p;
        if (tieTerm == 0 && total <= ExactLimit)
        {
            var cdf = ExactCdf(n, m);
            var k = (int)Math.Round(u);
            var lower = cdf[Math.Min(k, n * m)];                  // P(U ≤ u)
            var upper = 1.0 - (k > 0 ? cdf[k - 1] : 0.0);        // P(U ≥ u)
            p = Math.Min(1.0, 2.0 * Math.Min(lower, upper));
        }
        else
        {
            var zc = (Math.Abs(u - mean) - 0.5) / Math.Sqrt(variance); // continuity correction
            p = zc <= 0 ? 1.0 : StatMath.TwoSidedP(zc);
        }
        return new Result(u, z, p);
    }

    // Merge the two sorted samples, giving tied values their mid-rank; O(n + m).
    private static (double RankSumY, double TieTerm) RankSum(ReadOnlySpan<double> x, ReadOnlySpan<double> y)
    {
        int i = 0, j = 0, rank = 0;
        double sumY = 0, tie = 0;
        while (i < x.Length || j < y.Length)
        {
            var v = j >= y.Length || (i < x.Length && x[i] <= y[j]) ? x[i] : y[j];
            int cx = 0, cy = 0;
            while (i < x.Length && x[i] == v) { i++; cx++; }
            while (j < y.Length && y[j] == v) { j++; cy++; }
            var t = cx + cy;
            var midRank = rank + (t + 1) / 2.0;
            sumY += cy * midRank;
            if (t > 1) tie += (double)t * t * t - t;
            rank += t;
        }
        return (sumY, tie);
    }

    // Exact CDF of U under H0 for sizes (n, m): counts of rank arrangements by U, via the classic recurrence
    // f(n, m, u) = f(n-1, m, u-m) + f(n, m-1, u). Cached: a run compares many benchmarks with the same sample counts.
    private static double[] ExactCdf(int n, int m) => s_exactCdf.GetOrAdd((n, m), static key =>
    {
        var (n0, m0) = key;
        var max = n0 * m0;
        // Counts for (a, b, u), built over a = 0..n0 keeping only the previous a.
        var prev = new double[m0 + 1][];
        for (var b = 0; b <= m0; b++) { prev[b] = new double[max + 1]; prev[b][0] = 1; }
        for (var a = 1; a <= n0; a++)
        {
            var cur = new double[m0 + 1][];
            cur[0] = new double[max + 1];
            cur[0][0] = 1;
            for (var b = 1; b <= m0; b++)
            {
                var row = new double[max + 1];
                // The largest of the a+b values is either a y (it exceeds all a x-values: U += a, leaving (a, b-1))
                // or an x (no y above it: U += 0, leaving (a-1, b)).
                var largestIsY = cur[b - 1];
                var largestIsX = prev[b];
                for (var u = 0; u <= max; u++)
                {
                    var c = largestIsX[u];
                    if (u >= a) c += largestIsY[u - a];
                    row[u] = c;
                }
                cur[b] = row;
            }
            prev = cur;
        }
        var counts = prev[m0];
        double total = 0;
        foreach (var c in counts) total += c;
        var cdf = new double[max + 1];
        double acc = 0;
        for (var u = 0; u <= max; u++) { acc += counts[u]; cdf[u] = acc / total; }
        return cdf;
    });
}
