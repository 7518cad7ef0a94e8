namespace PerfService.Core.Comparison;

/// <summary>
/// A cheap bimodality check on a sorted sample. Splits the sorted values into two contiguous groups (each at least
/// 15% of the sample) and computes Ashman's D = √2·|μ₁ − μ₂| / √(σ₁² + σ₂²) for the best split, O(n) with prefix sums.
/// Splitting any unimodal sample already separates it (a normal sample split at its median gives D ≈ 2.7, a uniform
/// one ≈ 3.5), and small samples give the best split a lot of luck, so the bar is D &gt; max(4, 2 + 18/√n): about
/// the 99.9th percentile of the best-split D for normal samples with 3% outliers (simulated, n = 10…200).
/// Why it matters: when a benchmark flips between two modes, the median jumps with the mode proportions and a
/// "change" may be nothing but a different mix; such verdicts become Inconclusive (re-run) instead of an alarm.
/// Perfolizer's LowlandModalityDetector is more thorough but costs ~0.5 ms per sample, too slow for 1,000 benchmarks.
/// </summary>
internal static class Modality
{
    private const int MinSample = 10;

    public static double Threshold(int n) => Math.Max(4.0, 2.0 + 18.0 / Math.Sqrt(n));

    public static bool IsBimodal(ReadOnlySpan<double> sorted) => SeparationScore(sorted) > Threshold(sorted.Length);

    public static double SeparationScore(ReadOnlySpan<double> sorted)
    {
        var n = sorted.Length;
        if (n < MinSample)
            return 0;
        var minSide = Math.Max(3, (int)Math.Ceiling(0.15 * n));
        // Centre values to keep the sums of squares numerically sane.
        var c = sorted[n / 2];
        double totalSum = 0,
            totalSq = 0;
        for (var i = 0; i < n; i++)
        {
            var v = sorted[i] - c;
            totalSum += v;
            totalSq += v * v;
        }
        double leftSum = 0,
            leftSq = 0,
            best = 0;
        for (var s = 1; s < n; s++)
        {
            var v = sorted[s - 1] - c;
            leftSum += v;
            leftSq += v * v;
            if (s < minSide || n - s < minSide)
                continue;
            if (sorted[s] == sorted[s - 1])
                continue; // not a boundary between groups
            int nl = s,
                nr = n - s;
            var ml = leftSum / nl;
            var mr = (totalSum - leftSum) / nr;
            // Unbiased variances: a small group's plug-in variance is too small and would inflate D.
            var vl = Math.Max(0, (leftSq - nl * ml * ml) / (nl - 1));
            var vr = Math.Max(0, (totalSq - leftSq - nr * mr * mr) / (nr - 1));
            var spread = Math.Sqrt(vl + vr);
            var gap = mr - ml;
            // Two point masses have zero spread: that is quantisation (integer ns, timer ticks), not two modes.
            var d = spread > 0 ? Math.Sqrt(2) * gap / spread : 0;
            if (d > best)
                best = d;
        }
        return best;
    }
}
