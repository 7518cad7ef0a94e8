using System.Numerics;
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
        Span<double> scales = stackalloc double[Lags(n) + 1];
        for (var k = 1; k < scales.Length; k++)
            scales[k] = DiffScale(y, k, scratch, cuts);
        return Fit(scales);
    }

    /// <summary>The estimate from the trimmed sums of the lag-k differences of n points, in the fixed point of
    /// <see cref="StatMath.FixedSum"/> (kept up to date by <see cref="NoiseWindow"/>): the same value
    /// <see cref="Estimate"/> gives for those points.</summary>
    public static SeriesNoise FromKeptSums(int n, ReadOnlySpan<long> keptSums)
    {
        if (n < 8)
            return new SeriesNoise(0, 0);
        Span<double> scales = stackalloc double[Lags(n) + 1];
        for (var k = 1; k < scales.Length; k++)
        {
            var m = n - k;
            scales[k] = m < 2 ? 0 : Scale(StatMath.FromFixed(keptSums[k]), Kept(m, k), m);
        }
        return Fit(scales);
    }

    /// <summary>Lags 2 to this many give φ (a quarter of the points at most).</summary>
    public static int Lags(int n) => Math.Min(MaxLag, n / 4);

    /// <summary>The longest lag whose differences any estimate uses.</summary>
    public const int LongestLag = MaxLag;

    // σ and φ from the scales of the lag-k differences (scales[k], k ≥ 1): the φ of the grid whose ratios
    // (1 − φᵏ)/(1 − φ) lie nearest the measured ones, the first of equals.
    internal static SeriesNoise Fit(ReadOnlySpan<double> scales)
    {
        var s1 = scales[1];
        if (s1 <= 0)
            return new SeriesNoise(SigmaFloor, 0);
        var lags = scales.Length - 1;
        Span<double> errors = stackalloc double[Grid.Padded];
        errors.Clear();
        for (var k = 2; k <= lags; k++)
        {
            var ratio = scales[k] * scales[k] / (s1 * s1);
            Grid.AddSquaredErrors(ratio, Grid.Ratios[k], errors);
        }
        var (phi, bestError) = (0.0, double.PositiveInfinity);
        for (var c = 0; c < Grid.Phis.Length; c++)
            if (errors[c] < bestError)
                (phi, bestError) = (Grid.Phis[c], errors[c]);
        var sigma = Math.Max(SigmaFloor, s1 / Math.Sqrt(2 * (1 - phi)));
        return new SeriesNoise(sigma, phi);
    }

    /// <summary>
    /// The φ grid (0 to <see cref="MaxPhi"/> by 0.01) and each φ's ratio (1 − φᵏ)/(1 − φ) = 1 + φ + … + φᵏ⁻¹ for
    /// k = 2..<see cref="MaxLag"/>, built once with the very operations the fit once repeated at every estimate (so
    /// every error, and the φ chosen, is the same to the bit). The fit then scores every φ a vector at a time: it ran
    /// after every point of every series, a sixteenth of the detector's CPU.
    /// </summary>
    private static class Grid
    {
        public static readonly double[] Phis;
        public static readonly double[][] Ratios = new double[MaxLag + 1][];
        public static readonly int Padded;

        static Grid()
        {
            var phis = new List<double>();
            for (var candidate = 0.0; candidate <= MaxPhi + 1e-9; candidate += 0.01)
                phis.Add(candidate);
            Phis = [.. phis];
            // Padding scores NaN, which is never below the best error.
            Padded = (Phis.Length + Vector<double>.Count - 1) / Vector<double>.Count * Vector<double>.Count;
            for (var k = 2; k <= MaxLag; k++)
                Array.Fill(Ratios[k] = new double[Padded], double.NaN);
            for (var c = 0; c < Phis.Length; c++)
            {
                double power = Phis[c],
                    sum = 1;
                for (var k = 2; k <= MaxLag; k++)
                {
                    sum += power;
                    power *= Phis[c];
                    Ratios[k][c] = sum;
                }
            }
        }

        // errors[c] += (ratio − ratios[c])², lane by lane.
        public static void AddSquaredErrors(double ratio, double[] ratios, Span<double> errors)
        {
            var c = 0;
            if (Vector.IsHardwareAccelerated)
            {
                var measured = new Vector<double>(ratio);
                for (; c < Padded; c += Vector<double>.Count)
                {
                    var e = measured - new Vector<double>(ratios, c);
                    (new Vector<double>(errors[c..]) + e * e).CopyTo(errors[c..]);
                }
            }
            for (; c < Padded; c++)
            {
                var e = ratio - ratios[c];
                errors[c] += e * e;
            }
        }
    }

    // Standard deviation of lag-k differences from the trimmed mean of |d|, calibrated for normal noise.
    private static double DiffScale(ReadOnlySpan<double> y, int lag, Span<double> scratch, ReadOnlySpan<int> cuts)
    {
        var m = cuts.IsEmpty ? AbsoluteDifferences(y, lag, scratch) : DifferencesBetween(y, lag, scratch, cuts);
        if (m < 2)
            return 0;
        var keep = Kept(m, lag);
        return Scale(StatMath.SumSmallest(scratch[..m], keep), keep, m);
    }

    // The differences a scale keeps: the largest tenth is dropped, and never fewer than lag + 1.
    internal static int Kept(int m, int lag) => Math.Max(2, m - Math.Max(m / 10, lag + 1));

    private static double Scale(double sumKept, int keep, int m) =>
        sumKept / keep / TrimmedHalfNormalMean((double)keep / m);

    // |y[i + lag] − y[i]| for every i whose pair spans no cut; returns how many were written.
    private static int DifferencesBetween(ReadOnlySpan<double> y, int lag, Span<double> into, ReadOnlySpan<int> cuts)
    {
        var m = 0;
        var next = 0; // the first cut after i
        for (var i = 0; i + lag < y.Length; i++)
        {
            while (next < cuts.Length && cuts[next] <= i)
                next++;
            if (next < cuts.Length && cuts[next] <= i + lag)
                continue;
            into[m++] = Math.Abs(y[i + lag] - y[i]);
        }
        return m;
    }

    // |y[i + lag] − y[i]| for every i, a vector at a time; returns how many were written.
    private static int AbsoluteDifferences(ReadOnlySpan<double> y, int lag, Span<double> into)
    {
        var count = Math.Max(0, y.Length - lag);
        var i = 0;
        if (Vector.IsHardwareAccelerated)
            for (var width = Vector<double>.Count; i + width <= count; i += width)
                Vector
                    .Abs(new Vector<double>(y.Slice(i + lag, width)) - new Vector<double>(y.Slice(i, width)))
                    .CopyTo(into.Slice(i, width));
        for (; i < count; i++)
            into[i] = Math.Abs(y[i + lag] - y[i]);
        return count;
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
    public double StepVariance(int nL, int nR) => Variances().Of(nL, nR);

    /// <summary><see cref="StepVariance"/> of many window pairs: the series' table is looked up once.</summary>
    public StepVariances Variances() => new(Phi <= 0 ? null : PowersOf(Phi));

    internal readonly struct StepVariances(Powers? table)
    {
        public double Of(int nL, int nR) => table is null ? 1.0 / nL + 1.0 / nR : table.StepVariance(nL, nR);
    }

    // φ comes from a grid of 0.01 steps (Estimate), so a few tables serve every series: Math.Pow here, three per scored
    // window pair, was a twentieth of the CPU of analysing a run, and the arithmetic around it most of the screen's
    // (QuietScreen) once Math.Pow was gone. The tables hold what StepVariance computed per window, in the same
    // operations, so nothing a scan decides changes; every pair of window lengths the scan uses is tabled whole.
    private static readonly Powers?[] Tables = new Powers?[(int)Math.Round(MaxPhi * 100) + 2];

    private static Powers PowersOf(double phi)
    {
        var slot = Math.Clamp((int)Math.Round(phi * 100), 0, Tables.Length - 1);
        var table = Volatile.Read(ref Tables[slot]);
        if (table is null || table.Phi != phi)
            Volatile.Write(ref Tables[slot], table = new Powers(phi));
        return table;
    }

    internal sealed class Powers
    {
        private const int Tabled = 512;
        private const int TabledPairs = 128; // windows of up to 127 points a side (the scan's are at most 120)
        private readonly double _q;
        private readonly double[] _complement = new double[Tabled];
        private readonly double[] _meanVariance = new double[Tabled];
        private readonly double[] _pairs = new double[TabledPairs * TabledPairs];

        public Powers(double phi)
        {
            (Phi, _q) = (phi, 1 - phi);
            for (var n = 0; n < Tabled; n++)
            {
                _complement[n] = 1 - Math.Pow(phi, n);
                _meanVariance[n] = MeanVarianceOf(n, _complement[n]);
            }
            for (var nL = 0; nL < TabledPairs; nL++)
            for (var nR = 0; nR < TabledPairs; nR++)
                _pairs[nL * TabledPairs + nR] = Compute(nL, nR);
        }

        public double Phi { get; }

        public double StepVariance(int nL, int nR) =>
            (uint)nL < TabledPairs && (uint)nR < TabledPairs ? _pairs[nL * TabledPairs + nR] : Compute(nL, nR);

        private double Compute(int nL, int nR)
        {
            var cross = Phi * Complement(nL) * Complement(nR) / (_q * _q) / (nL * (double)nR);
            return Math.Max(1e-12, MeanVariance(nL) + MeanVariance(nR) - 2 * cross);
        }

        // 1 − φⁿ
        private double Complement(int n) => (uint)n < Tabled ? _complement[n] : 1 - Math.Pow(Phi, n);

        // f(n)/n, the variance of the mean of n points for unit marginal variance
        private double MeanVariance(int n) =>
            (uint)n < Tabled ? _meanVariance[n] : MeanVarianceOf(n, 1 - Math.Pow(Phi, n));

        private double MeanVarianceOf(int n, double complement) =>
            (1 + 2 * (Phi / _q - Phi * complement / (n * _q * _q))) / n;
    }
}
