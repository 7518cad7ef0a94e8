using PerfService.Core.Comparison;

namespace PerfService.Core.ChangePoints;

/// <summary>
/// Noise of a series of log-values under an AR(1) model: marginal standard deviation σ and lag-1 autocorrelation φ.
/// Estimated from the scales of lag-k differences, Var(yₜ − yₜ₋ₖ) = 2σ²(1 − φᵏ): the ratios sₖ²/s₁² = (1 − φᵏ)/(1 − φ)
/// for k = 2..4 give φ (least squares over a grid), then σ² = s₁²/(2(1 − φ)). Differences at short lags are almost
/// blind to slow drift, and each scale is a trimmed mean of |d|, so the few large differences that genuine steps and
/// outliers add do not inflate it: the largest 10% are dropped, and never fewer than k + 1 at lag k, because a step
/// puts k large differences into the lag-k scale. On a short history (the first weeks of a series, which is when a
/// project's first regression is usually planted) 10% is one or two differences; the step then survived into the
/// lag-3 and lag-4 scales, read as strong autocorrelation (φ near 0.9) and hid a 3× step for a dozen points.
/// (A median-based scale would be more robust but is too noisy for estimating φ, and it underestimates the spread of
/// bimodal series.)
/// Autocorrelation is the main source of false alarms (consecutive runs share machine state and look like level
/// shifts); φ lets the step statistic count the effective, not the nominal, number of points.
/// </summary>
internal readonly record struct SeriesNoise(double Sigma, double Phi)
{
    public const double SigmaFloor = 1e-4;
    public const double MaxPhi = 0.9;
    private const int MaxLag = 4;

    public bool IsKnown => Sigma > 0;

    /// <param name="cuts">Sorted indices of candidate change points: a difference that spans one is left out, so that
    /// steps (a short series with two large ones read as σ ×3 and φ 0.9) do not count as noise.</param>
    public static SeriesNoise Estimate(ReadOnlySpan<double> y, ReadOnlySpan<int> cuts = default)
    {
        var n = y.Length;
        if (n < 8)
            return new SeriesNoise(0, 0);
        var scratch = n <= 1024 ? stackalloc double[n] : new double[n];
        Span<double> ratio = stackalloc double[MaxLag + 1];
        var s1 = DiffScale(y, 1, scratch, cuts);
        if (s1 <= 0)
            return new SeriesNoise(SigmaFloor, 0);
        var lags = Math.Min(MaxLag, n / 4);
        for (var k = 2; k <= lags; k++)
        {
            var sk = DiffScale(y, k, scratch, cuts);
            ratio[k] = sk * sk / (s1 * s1);
        }
        var phi = 0.0;
        var bestError = double.PositiveInfinity;
        for (var candidate = 0.0; candidate <= MaxPhi + 1e-9; candidate += 0.01)
        {
            double error = 0,
                power = candidate,
                sum = 1; // sum = (1 − φᵏ)/(1 − φ) = 1 + φ + … + φᵏ⁻¹
            for (var k = 2; k <= lags; k++)
            {
                sum += power;
                power *= candidate;
                var e = ratio[k] - sum;
                error += e * e;
            }
            if (error < bestError)
            {
                bestError = error;
                phi = candidate;
            }
        }
        var sigma = Math.Max(SigmaFloor, s1 / Math.Sqrt(2 * (1 - phi)));
        return new SeriesNoise(sigma, phi);
    }

    // Standard deviation of lag-k differences from the trimmed mean of |d|, calibrated for normal noise.
    private static double DiffScale(ReadOnlySpan<double> y, int lag, Span<double> scratch, ReadOnlySpan<int> cuts)
    {
        var m = 0;
        var next = 0; // the first cut after i
        for (var i = 0; i + lag < y.Length; i++)
        {
            while (next < cuts.Length && cuts[next] <= i)
                next++;
            if (next < cuts.Length && cuts[next] <= i + lag)
                continue;
            scratch[m++] = Math.Abs(y[i + lag] - y[i]);
        }
        if (m < 2)
            return 0;
        var d = scratch[..m];
        var keep = Math.Max(2, m - Math.Max(m / 10, lag + 1));
        return StatMath.SumSmallest(d, keep) / keep / TrimmedHalfNormalMean((double)keep / m);
    }

    /// <summary>
    /// Mean of the smallest fraction <paramref name="kept"/> of |Z| for a standard normal Z:
    /// 2(φ(0) − φ(q)) / kept with q = Φ⁻¹((1 + kept)/2); 0.65733 when the top 10% are dropped.
    /// </summary>
    internal static double TrimmedHalfNormalMean(double kept)
    {
        if (kept >= 1)
            return Math.Sqrt(2 / Math.PI);
        var q = StatMath.NormalQuantile((1 + kept) / 2);
        return 2 * (1 - Math.Exp(-q * q / 2)) / Math.Sqrt(2 * Math.PI) / kept;
    }

    /// <summary>
    /// Variance of (mean of the nR points after τ) − (mean of the nL points before τ) for unit marginal variance,
    /// under AR(1): each window mean has variance f(n)/n with f(n) = 1 + 2Σₖ(1 − k/n)φᵏ, and adjacent windows are
    /// positively correlated, which makes their difference less variable.
    /// </summary>
    public double StepVariance(int nL, int nR)
    {
        var phi = Phi;
        if (phi <= 0)
            return 1.0 / nL + 1.0 / nR;
        var q = 1 - phi;
        double F(int n) => 1 + 2 * (phi / q - phi * (1 - Math.Pow(phi, n)) / (n * q * q));
        var cross = phi * (1 - Math.Pow(phi, nL)) * (1 - Math.Pow(phi, nR)) / (q * q) / (nL * (double)nR);
        return Math.Max(1e-12, F(nL) / nL + F(nR) / nR - 2 * cross);
    }
}
