using PerfService.Core.ChangePoints;
using PerfService.Core.Comparison;

namespace PerfService.ChangePointEval;

/// <summary>
/// What the data allows: for each true change, the z an oracle would see that knows the true step, the true noise
/// (its Gaussian part, AR coefficient and mode spread, and a machine move's new scale) and where the neighbouring true
/// changes are. The statistic is the difference of plain means, after − before, over the segment before the change
/// (from the previous true change, at most <see cref="Cap"/> points) and the points after it (the first few online;
/// up to the next true change, at most <see cref="Cap"/>, offline). Drift, wander, outliers and quantisation are not
/// in its noise, and it never has to find the change's position: a detector that estimates all of this from the data
/// cannot expect a higher z, so the share of changes whose oracle z reaches a bar bounds the share a detector with
/// that bar can find. A change is found only within ±<see cref="CorpusEvaluator.Tolerance"/> points of its place, so
/// the offline shares are also given for the changes the oracle would place that well (<see cref="Placed"/>).
/// </summary>
public static class OracleBound
{
    public const int Cap = 120;

    /// <summary>
    /// The bar for a test run once per new point at the false-alarm budget with the noise known and Gaussian:
    /// two-sided, a false alarm per point with probability budget/1000, z = Φ⁻¹(1 − budget/2000) (3.48 at 0.5).
    /// </summary>
    public static double BudgetBar(double falseAlarmsPer1000) => StatMath.NormalQuantile(1 - falseAlarmsPer1000 / 2000);

    /// <summary>The oracle z of change <paramref name="c"/> of <paramref name="s"/>; <paramref name="after"/> limits
    /// the points after it (the online view), else the whole segment up to the next change, capped.</summary>
    public static double Z(LabelledSeries s, int c, int? after = null)
    {
        var change = s.Changes[c];
        var (start, end) = Segment(s, c);
        var nL = Math.Min(Cap, change.Index - start);
        var nR = Math.Min(Math.Min(after ?? Cap, Cap), end - change.Index);
        var gaussian = Math.Sqrt(Math.Max(0, s.Noise * s.Noise - s.ModeSpread * s.ModeSpread));
        var scaleBefore = 1.0;
        for (var k = 0; k < c; k++) scaleBefore *= s.Changes[k].NoiseScale;
        var (gL, gR) = (gaussian * scaleBefore, gaussian * scaleBefore * change.NoiseScale);
        var variance = gL * gL * MeanVariance(nL, s.Phi) + gR * gR * MeanVariance(nR, s.Phi)
            - 2 * gL * gR * CrossCovariance(nL, nR, s.Phi)
            + s.ModeSpread * s.ModeSpread * (1.0 / nL + 1.0 / nR);
        return Math.Abs(Math.Log(change.Factor)) / Math.Sqrt(variance);
    }

    /// <summary>How far from the change the oracle's split may fall: as far as the detector's own placing looks.</summary>
    public const int PlaceRadius = StepScanner.RefineRadius;

    /// <summary>
    /// Whether an oracle that knows the segment around change <paramref name="c"/> (from the previous true change to
    /// the next, at most <see cref="Cap"/> points a side) but not the change's place would put it within
    /// ±<see cref="CorpusEvaluator.Tolerance"/> points: the least-squares split of the segment's log values within
    /// <see cref="PlaceRadius"/> points of the change, the maximum-likelihood place of one step in Gaussian noise.
    /// A step of about one noise deviation has a split scattered over several points by the noise alone (Hinkley 1970,
    /// "Inference about the change-point in a sequence of random variables"), whatever its z on long segments.
    /// </summary>
    public static bool Placed(LabelledSeries s, int c)
    {
        var change = s.Changes[c];
        var (start, end) = Segment(s, c);
        (start, end) = (Math.Max(start, change.Index - Cap), Math.Min(end, change.Index + Cap));
        var y = new double[end - start];
        for (var i = 0; i < y.Length; i++) y[i] = StepScanner.Log(s.Values[start + i]);
        var split = StepScanner.LeastSquaresSplit(y, Math.Max(1, change.Index - PlaceRadius - start),
            Math.Min(y.Length - 1, change.Index + PlaceRadius - start), double.NegativeInfinity, double.PositiveInfinity);
        return split >= 0 && Math.Abs(split + start - change.Index) <= CorpusEvaluator.Tolerance;
    }

    /// <summary>The points between the true changes either side of change <paramref name="c"/> (or the series' ends).</summary>
    private static (int Start, int End) Segment(LabelledSeries s, int c) =>
        (c == 0 ? 0 : s.Changes[c - 1].Index, c + 1 < s.Changes.Count ? s.Changes[c + 1].Index : s.Values.Length);

    /// <summary>Variance of the mean of n consecutive points of a unit-variance AR(1) process:
    /// (1/n)·(1 + 2Σₖ₌₁ⁿ⁻¹(1 − k/n)φᵏ), summed term by term.</summary>
    public static double MeanVariance(int n, double phi)
    {
        var sum = 1.0;
        var power = 1.0;
        for (var k = 1; k < n; k++)
        {
            power *= phi;
            sum += 2 * (1 - (double)k / n) * power;
        }
        return sum / n;
    }

    /// <summary>Covariance of the means of n points just before a point and m points from it on, unit-variance AR(1):
    /// (1/nm)·Σᵢ₌₁ⁿΣⱼ₌₀ᵐ⁻¹ φ^(i+j).</summary>
    public static double CrossCovariance(int n, int m, double phi)
    {
        if (phi == 0) return 0;
        double left = 0, right = 0, power = 1;
        for (var i = 1; i <= n; i++) left += power *= phi;
        power = 1;
        for (var j = 0; j < m; j++, power *= phi) right += power;
        return left * right / ((double)n * m);
    }

    /// <summary>
    /// The shares behind the goals: of the ≥ 30% steps, those whose oracle z after <paramref name="fastPoints"/>
    /// points and after one more (a delay of 3 allows 4 points) reaches the budget bar and <paramref name="fastBar"/>;
    /// of all true changes, those whose offline oracle z reaches 4 and 5, and those of them it would also place within
    /// the tolerance.
    /// </summary>
    public static OracleShares Shares(IReadOnlyList<LabelledSeries> corpus, double fastBar, double falseAlarmsPer1000, int fastPoints = 3)
    {
        var budget = BudgetBar(falseAlarmsPer1000);
        int large = 0, all = 0, budgetN = 0, budgetN1 = 0, fastN = 0, fastN1 = 0, z4 = 0, z5 = 0, z4Placed = 0, z5Placed = 0;
        foreach (var s in corpus)
            for (var c = 0; c < s.Changes.Count; c++)
            {
                all++;
                var offline = Z(s, c);
                var placed = offline >= 4 && Placed(s, c);
                if (offline >= 4) z4++;
                if (offline >= 5) z5++;
                if (placed) z4Placed++;
                if (placed && offline >= 5) z5Placed++;
                if (s.Changes[c].Size < 0.30) continue;
                large++;
                var (early, later) = (Z(s, c, fastPoints), Z(s, c, fastPoints + 1));
                if (early >= budget) budgetN++;
                if (later >= budget) budgetN1++;
                if (early >= fastBar) fastN++;
                if (later >= fastBar) fastN1++;
            }
        static double Share(int k, int n) => n == 0 ? 1 : (double)k / n;
        return new OracleShares(fastPoints, budget, fastBar, large, Share(budgetN, large), Share(budgetN1, large),
            Share(fastN, large), Share(fastN1, large), all, Share(z4, all), Share(z5, all), Share(z4Placed, all), Share(z5Placed, all));
    }
}

/// <summary>
/// <see cref="OracleBound.Shares"/>: of <see cref="LargeSteps"/> steps ≥ 30%, the shares whose oracle z after
/// <see cref="FastPoints"/> points (…Early) and one more (…Later) reaches <see cref="BudgetBar"/> and
/// <see cref="FastBar"/>; of <see cref="Changes"/> true changes, the shares with an offline oracle z ≥ 4 and ≥ 5,
/// and the shares of those that the oracle also places within the tolerance (<see cref="OracleBound.Placed"/>).
/// </summary>
public sealed record OracleShares(
    int FastPoints,
    double BudgetBar,
    double FastBar,
    int LargeSteps,
    double BudgetEarly,
    double BudgetLater,
    double FastEarly,
    double FastLater,
    int Changes,
    double Z4,
    double Z5,
    double Z4Placed,
    double Z5Placed);
