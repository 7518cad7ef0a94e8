using System.Collections.Concurrent;
using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace PerfService.Core.Comparison;

/// <summary>
/// Where the spread of a round's estimate came from, which the verdict's reason states.
/// </summary>
public enum SpreadSource
{
    /// <summary>Several rounds: their scatter measures within- and between-run noise together.</summary>
    Rounds,

    /// <summary>Several rounds, pooled with the run-to-run spread of the base branch's history.</summary>
    RoundsAndHistory,

    /// <summary>Several rounds and no history: moderated by the other benchmarks of the run (<see
    /// cref="VariancePrior"/>).</summary>
    RoundsAndRun,

    /// <summary>One round a side: the run-to-run spread is the base branch history's.</summary>
    History,

    /// <summary>One round a side and no history: no run-to-run noise assumed (only the CLI lands here).</summary>
    WithinOnly,
}

/// <summary>
/// The two-level model behind every comparison. A run (round) of a benchmark is one draw of the machine's state (JIT
/// decisions, code layout, frequency, memory placement) and its samples are draws within that state, so samples of one
/// round are not independent replicates of the benchmark: the round is. Following Kalibera &amp; Jones ("Rigorous
/// Benchmarking in Reasonable Time", ISMM 2013), the variance of a round's estimate is σ²_between + σ²_within/k, and
/// it is the round-level estimates that must be compared. So:
/// <list type="number">
/// <item>each round is summarised by a robust location (the Harrell–Davis median of its log samples: noise is
///   multiplicative and a shift of logs is a ratio);</item>
/// <item>each side's estimate is the mean of its round medians (the geometric mean of round medians): the figure
///   shown as base and head, so change = head/base − 1 exactly;</item>
/// <item>the variance of a round median is estimated from the scatter of the round medians about their side's mean
///   (pooled over both sides: df = rounds − 2), which already contains both levels of noise;</item>
/// <item>with few rounds that estimate has few degrees of freedom, so it is pooled with the series' run-to-run
///   spread from the base branch's history as prior information, weighted by the prior's own degrees of freedom
///   (the empirical-Bayes "moderated t" of Smyth, Stat. Appl. Genet. Mol. Biol. 3(1), 2004); with one round a side the
///   history is all there is; without history either (the CLI), only the within-round spread remains and the verdict
///   says that it assumed no run-to-run noise;</item>
/// <item>the within-round spread of a round median (its Maritz–Jarrett standard error) is a floor: round medians cannot
/// scatter less than their own sampling noise, which guards against three rounds that
///   happen to agree;</item>
/// <item>a Student t test and interval on the difference of the side means then give p and the CI of the ratio.</item>
/// </list>
/// A hierarchical bootstrap (Davison &amp; Hinkley, "Bootstrap Methods and their Application", 1997, §3.8: resample
/// rounds, then samples within rounds) would model the same two levels, but with three rounds a side it has only a
/// handful of distinct round resamples and understates the between-round variance, and it costs thousands of
/// resamples per benchmark; the t interval on round estimates is exact under normal round effects and cheap.
/// </summary>
internal static class RoundStatistics
{
    /// <summary>
    /// Effective degrees of freedom of the history's dispersion: it comes from the median of successive differences,
    /// whose efficiency against the standard deviation is ~37%, and is capped so that an old history cannot outvote
    /// what the rounds of this job show.
    /// </summary>
    public static double HistoryDf(int historyCount) => Math.Min(20, Math.Floor(0.37 * (historyCount - 1)));

    /// <summary>
    /// Each round's location, the Harrell–Davis median (Perfolizer), and the variance of that estimate, c(k)·σ²/(k − 1)
    /// with σ from the MAD (NaN for rounds of fewer than 3 samples: single values per run). The Maritz–Jarrett standard
    /// error Perfolizer offers was tried and is conservative at these sizes (99% coverage for a nominal 95% at k = 20),
    /// which cost a third of the power; the MAD keeps outliers out of the spread. Harrell–Davis rather
    /// than the sample median: nearly as efficient as the mean under normal noise (the sample median wastes a third of
    /// the samples) while an outlier still moves it little, and it is smooth for the discrete timings of fast
    /// benchmarks.
    /// </summary>
    public static (double[] Locations, double[] Variances) Locations(double[][] rounds)
    {
        var locations = new double[rounds.Length];
        var variances = new double[rounds.Length];
        for (var i = 0; i < rounds.Length; i++)
        {
            var round = rounds[i];
            if (round.Length < 3)
            {
                locations[i] = StatMath.SortedMedian(round);
                variances[i] = double.NaN;
                continue;
            }
            locations[i] = HarrellDavisMedian(round);
            variances[i] = LocationVariance(round);
        }
        return (locations, variances);
    }

    /// <summary>
    /// Mean over rounds of the variance of the round's location, and its degrees of freedom (NaN, 0 when no round has
    /// 3 samples).
    /// </summary>
    public static (double Variance, double Df) WithinVariance(double[][] a, double[] varA, double[][] b, double[] varB)
    {
        double sum = 0,
            df = 0;
        var count = 0;
        Add(a, varA);
        Add(b, varB);
        return count == 0 ? (double.NaN, 0) : (sum / count, df);

        void Add(double[][] rounds, double[] variances)
        {
            for (var i = 0; i < rounds.Length; i++)
            {
                if (double.IsNaN(variances[i]))
                    continue;
                sum += variances[i];
                // The MAD is ~37% as efficient as the standard deviation under normal noise: its degrees of freedom
                // are that share of n − 1, or the t quantile would trust a noisy spread too much.
                df += 0.37 * (rounds[i].Length - 1);
                count++;
            }
        }
    }

    /// <summary>
    /// Variance of the Harrell–Davis median relative to the mean's under normal noise: it grows from ~1.07 at k = 5 to
    /// ~1.35 at k = 60 towards the sample median's π/2 (simulated, 20,000 draws each); 1 + 0.1·ln k follows it from
    /// slightly above. With σ²/(k − 1) it also undoes the MAD's small-sample shrinkage.
    /// </summary>
    private static double MedianVarianceFactor(int k) => Math.Min(Math.PI / 2, 1 + 0.1 * Math.Log(k));

    private static readonly ConcurrentDictionary<int, double[]> s_weights = new();

    /// <summary>
    /// The Harrell–Davis median of a sorted sample: Σ Wᵢ·x₍ᵢ₎ with Wᵢ = I_{i/k}(a, a) − I_{(i−1)/k}(a, a), a = (k +
    /// 1)/2,
    /// I the regularised incomplete beta function (Perfolizer's Beta CDF). The same as Perfolizer's
    /// HarrellDavisQuantileEstimator, but the weights depend only on k and are cached: a job of 1,000 benchmarks × 6
    /// rounds would otherwise spend most of its time in the beta function.
    /// </summary>
    public static double HarrellDavisMedian(double[] sorted)
    {
        var weights = s_weights.GetOrAdd(
            sorted.Length,
            static k =>
            {
                var beta = new BetaDistribution((k + 1) / 2.0, (k + 1) / 2.0);
                var w = new double[k];
                var previous = 0.0;
                for (var i = 1; i <= k; i++)
                {
                    var cdf = i == k ? 1.0 : beta.Cdf(i / (double)k);
                    w[i - 1] = cdf - previous;
                    previous = cdf;
                }
                return w;
            }
        );
        double sum = 0;
        for (var i = 0; i < sorted.Length; i++)
            sum += weights[i] * sorted[i];
        return sum;
    }

    private static double Mad(double[] sorted)
    {
        var median = StatMath.SortedMedian(sorted);
        var deviations = new double[sorted.Length];
        for (var i = 0; i < sorted.Length; i++)
            deviations[i] = Math.Abs(sorted[i] - median);
        Array.Sort(deviations);
        return StatMath.SortedMedian(deviations);
    }

    /// <summary>Variance of a sorted sample's Harrell–Davis median: c(k)·σ²/(k − 1), σ from the MAD (k ≥ 3).</summary>
    public static double LocationVariance(double[] sorted)
    {
        var sigma = 1.4826 * Mad(sorted);
        return MedianVarianceFactor(sorted.Length) * sigma * sigma / (sorted.Length - 1);
    }

    public static double Mean(double[] values)
    {
        double sum = 0;
        foreach (var v in values)
            sum += v;
        return sum / values.Length;
    }

    public static double SumOfSquares(double[] values, double mean)
    {
        double sum = 0;
        foreach (var v in values)
            sum += (v - mean) * (v - mean);
        return sum;
    }

    /// <summary>Two-sided p of a t statistic (Perfolizer's Student distribution; normal beyond 10,000 df).</summary>
    public static double TwoSidedP(double t, double df) =>
        df > 10_000 ? StatMath.TwoSidedP(t) : Math.Min(1, 2 * new StudentDistribution(df).Cdf(-Math.Abs(t)));

    private static readonly ConcurrentDictionary<(double Alpha, double Df), double> s_critical = new();

    /// <summary>The (1 − α/2) quantile of Student's t; cached (inverting the distribution is the costliest step of a
    /// comparison, and a job has only a handful of distinct degrees of freedom: df is rounded to 0.01).</summary>
    public static double Critical(double alpha, double df)
    {
        if (df > 10_000)
            return StatMath.NormalQuantile(1 - alpha / 2);
        return s_critical.GetOrAdd(
            (alpha, Math.Round(df, 2)),
            static k => new StudentDistribution(k.Df).Quantile(1 - k.Alpha / 2)
        );
    }
}
