using System.Globalization;
using PerfService.Core.Results;

namespace PerfService.Core.Comparison;

/// <summary>
/// One comparison of head rounds against base rounds: the one function the service (interleaved rounds, re-runs pooled)
/// and the CLI (one or more runs a side) both decide with. Two steps, so that <see cref="RunComparer"/> can adjust the
/// p-values of a whole run for multiplicity between them: <see cref="Analyse"/> computes the statistics (see
/// <see cref="RoundStatistics"/> for the model), <see cref="Decide"/> turns them and the (adjusted) p-value into one
/// of three honest answers:
/// <list type="bullet">
/// <item>regression/improvement: significant (adjusted p &lt; α) AND the whole interval beyond the threshold;</item>
/// <item>no change: the whole interval inside the project's margin (<see cref="Verdict.NoChangeMargin"/>, 5% unless
/// configured): an equivalence statement, not "nothing was significant". The noise-widened threshold never widens it:
/// on a noisy series a +30% change must not be called no change because the series wanders by 30%;</item>
/// <item>otherwise inconclusive, saying why (too noisy, with the noise figure; too few rounds) and roughly how many
/// rounds would decide it.</item>
/// </list>
/// Deterministic measures (allocated bytes, allocation counts) that are constant within each side are compared exactly.
/// </summary>
public static class SampleComparer
{
    public static Verdict Compare(ComparisonInput input, ComparisonOptions? options = null)
    {
        options ??= ComparisonOptions.Default;
        var stats = Analyse(input, options);
        return Decide(stats, stats.PValue, options);
    }

    /// <param name="runPrior">The run-to-run variance prior from the other benchmarks of the same run and measure
    /// (<see cref="VariancePrior"/>), used only where the base branch's history gives none.</param>
    public static SampleStatistics Analyse(
        ComparisonInput input,
        ComparisonOptions options,
        VariancePrior? runPrior = null
    )
    {
        var baseRounds = Rounds(input.BaseRoundsOrSingle);
        var headRounds = Rounds(input.HeadRoundsOrSingle);
        var (threshold, source) = NoiseThreshold.For(input.Threshold, input.History, options);
        var stats = new SampleStatistics
        {
            NoChangeMargin = input.Threshold is { } o && o > 0 ? o : options.DefaultThreshold,
            RunToRunNoise = input.History is { } past
                ? NoiseThreshold.RelativeDispersion(past, options.MinHistory)
                : double.NaN,
            Input = input,
            BaseCount = baseRounds.Sum(r => r.Length),
            HeadCount = headRounds.Sum(r => r.Length),
            BaseRounds = baseRounds.Length,
            HeadRounds = headRounds.Length,
            Threshold = threshold,
            ThresholdSource = source,
        };
        if (baseRounds.Length == 0 || headRounds.Length == 0)
            return stats with { Problem = Problem.NoData };
        var (baseMin, baseMax) = Range(baseRounds);
        var (headMin, headMax) = Range(headRounds);
        if (baseMin == baseMax && headMin == headMax && baseMin == headMin)
            return stats with
            {
                Identical = true,
                PValue = 1,
                Ratio = 1,
                RatioLower = 1,
                RatioUpper = 1,
                BaseMedian = baseMin,
                HeadMedian = headMin,
            };

        if (
            Measures.IsDeterministic(input.Measure)
            && Constant(baseMin, baseMax, options)
            && Constant(headMin, headMax, options)
        )
        {
            var b = StatMath.SortedMedian(Pooled(baseRounds));
            var h = StatMath.SortedMedian(Pooled(headRounds));
            var r = Ratio(h, b);
            return stats with
            {
                Exact = true,
                BaseMedian = b,
                HeadMedian = h,
                Ratio = r,
                RatioLower = r,
                RatioUpper = r,
                PValue = Math.Abs(r - 1) <= options.DeterministicTolerance ? 1 : 0,
            };
        }

        // Logs when possible (multiplicative noise, ratios); zeros or negatives fall back to a linear shift relative to
        // the base estimate.
        var useLog = baseMin > 0 && headMin > 0;
        if (useLog)
        {
            foreach (var round in baseRounds)
                for (var i = 0; i < round.Length; i++)
                    round[i] = Math.Log(round[i]);
            foreach (var round in headRounds)
                for (var i = 0; i < round.Length; i++)
                    round[i] = Math.Log(round[i]);
        }
        var (baseLoc, baseVar) = RoundStatistics.Locations(baseRounds);
        var (headLoc, headVar) = RoundStatistics.Locations(headRounds);
        var baseEst = RoundStatistics.Mean(baseLoc);
        var headEst = RoundStatistics.Mean(headLoc);
        stats = stats with
        {
            BaseMedian = useLog ? Math.Exp(baseEst) : baseEst,
            HeadMedian = useLog ? Math.Exp(headEst) : headEst,
        };

        var (within, withinDf) = RoundStatistics.WithinVariance(baseRounds, baseVar, headRounds, headVar);
        var betweenDf = baseLoc.Length + headLoc.Length - 2;
        var betweenSs = RoundStatistics.SumOfSquares(baseLoc, baseEst) + RoundStatistics.SumOfSquares(headLoc, headEst);
        var sigmaHistory = stats.RunToRunNoise;
        var priorDf = double.IsNaN(sigmaHistory) ? 0 : RoundStatistics.HistoryDf(input.History!.Count);
        // The history's spread is relative (a log scale); on the linear scale it is relative to the base estimate.
        var priorVar = double.IsNaN(sigmaHistory)
            ? 0
            : Math.Pow(useLog ? sigmaHistory : sigmaHistory * Math.Abs(baseEst), 2);
        // Without history, the other benchmarks of the run (log scale, same measure) are the prior, if they agree.
        var fromRun = priorDf == 0 && betweenDf > 0 && useLog && runPrior is { } rp;
        if (fromRun)
            (priorVar, priorDf) = (runPrior!.Value.Variance, runPrior.Value.Df);
        stats = stats with
        {
            RoundVariance = useLog && betweenDf > 0 ? betweenSs / betweenDf : double.NaN,
            RoundDf = useLog ? betweenDf : 0,
        };

        double variance,
            df;
        SpreadSource spread;
        if (betweenDf + priorDf > 0)
        {
            variance = (betweenSs + priorDf * priorVar) / (betweenDf + priorDf);
            df = betweenDf + priorDf;
            spread =
                betweenDf == 0 ? SpreadSource.History
                : fromRun ? SpreadSource.RoundsAndRun
                : priorDf > 0 ? SpreadSource.RoundsAndHistory
                : SpreadSource.Rounds;
            if (within > variance)
                variance = within;
        }
        else
        {
            if (baseRounds[0].Length == 1 && headRounds[0].Length == 1)
                return stats with { Problem = Problem.OneValuePerRun };
            if (double.IsNaN(within) || stats.BaseCount < options.MinSamples || stats.HeadCount < options.MinSamples)
                return stats with { Problem = Problem.TooFewSamples };
            (variance, df, spread) = (within, Math.Max(1, withinDf), SpreadSource.WithinOnly);
        }

        var m = baseLoc.Length;
        var n = headLoc.Length;
        var se = Math.Sqrt(variance * (1.0 / m + 1.0 / n));
        var d = headEst - baseEst;
        var p =
            se > 0 ? RoundStatistics.TwoSidedP(d / se, df)
            : d == 0 ? 1
            : 0;
        var q = RoundStatistics.Critical(options.Alpha, df);
        double ratio,
            lower,
            upper;
        if (useLog)
            (ratio, lower, upper) = (Math.Exp(d), Math.Exp(d - q * se), Math.Exp(d + q * se));
        else
            (ratio, lower, upper) = (
                Ratio(headEst, baseEst),
                Ratio(headEst - q * se, baseEst),
                Ratio(headEst + q * se, baseEst)
            );

        var basePooled = Pooled(baseRounds);
        var headPooled = Pooled(headRounds);
        return stats with
        {
            PValue = p,
            Ratio = ratio,
            RatioLower = lower,
            RatioUpper = upper,
            Spread = spread,
            SpreadDf = df,
            HistoryRuns = priorDf > 0 && !fromRun ? input.History!.Count : 0,
            PriorDf = fromRun ? priorDf : 0,
            // Run-to-run noise dominates when the round scatter is well above what within-round noise explains.
            BetweenDominates = !double.IsNaN(within) ? variance > 2 * within : spread != SpreadSource.WithinOnly,
            BaseBimodal = Modality.IsBimodal(basePooled),
            HeadBimodal = Modality.IsBimodal(headPooled),
            Separated = headPooled[0] > basePooled[^1] || headPooled[^1] < basePooled[0],
        };
    }

    public static Verdict Decide(SampleStatistics s, double adjustedP, ComparisonOptions options)
    {
        var input = s.Input;
        var v = new Verdict
        {
            Key = input.Key,
            Measure = input.Measure,
            Unit = input.Unit,
            Direction = input.Direction,
            Profile = input.Profile,
            BaseCount = s.BaseCount,
            HeadCount = s.HeadCount,
            BaseRounds = s.BaseRounds,
            HeadRounds = s.HeadRounds,
            BaseMedian = s.BaseMedian,
            HeadMedian = s.HeadMedian,
            Ratio = s.Ratio,
            RatioLower = s.RatioLower,
            RatioUpper = s.RatioUpper,
            PValue = s.PValue,
            AdjustedP = adjustedP,
            Threshold = s.Threshold,
            ThresholdSource = s.ThresholdSource,
            NoChangeMargin = s.NoChangeMargin,
            RunToRunNoise = s.RunToRunNoise,
            Outcome = Outcome.NoChange,
            Reason = "",
        };
        switch (s.Problem)
        {
            case Problem.NoData:
                return v with { Outcome = Outcome.Inconclusive, Reason = "no values on one side" };
            case Problem.TooFewSamples:
                return v with
                {
                    Outcome = Outcome.Inconclusive,
                    WantsRerun = true,
                    Reason =
                        $"too few samples: base {s.BaseCount}, head {s.HeadCount} (need at least {options.MinSamples} each, or 2 rounds a side)",
                };
            case Problem.OneValuePerRun:
                return v with
                {
                    Outcome = Outcome.Inconclusive,
                    WantsRerun = true,
                    RoundsToDecide = 2,
                    Reason =
                        "one value per run, one run a side and no base-branch history: the run-to-run spread is unknown; 2 rounds a side would measure it",
                };
        }
        if (s.Identical)
            return v with { Reason = "identical samples" };

        var t = s.Threshold;
        var change = s.Ratio - 1;
        var worse = input.Direction == Direction.HigherIsBetter ? change < 0 : change > 0;
        if (s.Exact)
        {
            var tolerance = input.Threshold is { } o && o > 0 ? o : options.DeterministicTolerance;
            var exact =
                $"{ComparisonTable.Value(s.BaseMedian, input.Unit)} → {ComparisonTable.Value(s.HeadMedian, input.Unit)}";
            return Math.Abs(change) <= tolerance
                ? v with
                {
                    Threshold = tolerance,
                    NoChangeMargin = tolerance,
                    Reason = $"deterministic: {exact}, within ±{Pct(tolerance, false)}",
                }
                : v with
                {
                    Threshold = tolerance,
                    NoChangeMargin = tolerance,
                    Outcome = worse ? Outcome.Regression : Outcome.Improvement,
                    Reason = $"deterministic: {exact} ({Pct(change)}), beyond ±{Pct(tolerance, false)}",
                };
        }

        var significant = adjustedP < options.Alpha;
        var lo = s.RatioLower - 1;
        var hi = s.RatioUpper - 1;
        var ci = $"CI [{Pct(lo)}, {Pct(hi)}]";
        var basis = Basis(s);
        var ciClears = change > 0 ? lo > t : hi < -t;
        if (significant && ciClears)
        {
            // Modes can make medians move without any change in the code (a run lands in the other mode), unless no
            // sample of one side reaches the other side at all: then no mix of modes explains the change. Only with
            // one round a side and no history, though: otherwise how far the mix moves a run's median from run to run
            // is in the measured spread (the rounds' scatter, or the history's).
            if (s.Spread == SpreadSource.WithinOnly && (s.BaseBimodal || s.HeadBimodal) && !s.Separated)
            {
                var which =
                    s.BaseBimodal && s.HeadBimodal ? "base and head"
                    : s.BaseBimodal ? "base"
                    : "head";
                return v with
                {
                    Outcome = Outcome.Inconclusive,
                    WantsRerun = true,
                    Reason =
                        $"{Pct(change)} but {which} samples are bimodal: the median may just follow the mix of modes; {basis}",
                };
            }
            return v with
            {
                Outcome = worse ? Outcome.Regression : Outcome.Improvement,
                Reason = $"{Pct(change)} {ci} beyond ±{Pct(t, false)}, {P(adjustedP)}; {basis}",
            };
        }
        var e = s.NoChangeMargin;
        if (lo >= -e && hi <= e)
            return v with { Reason = $"no change: {Pct(change)}, {ci} within ±{Pct(e, false)}; {basis}" };

        // Where the series' noise widened the threshold beyond the margin, an interval inside the threshold is neither
        // a
        // regression nor, unless it also fits the margin, no change: the series is too noisy to judge a change that
        // small.
        var bimodal = s.BaseBimodal || s.HeadBimodal ? " (bimodal samples)" : "";
        var tooNoisy =
            t > e
                ? $"the series is too noisy to judge a change of ±{Pct(e, false)}: run-to-run noise ±{Pct(s.RunToRunNoise, false)} on the base branch, "
                    + $"so only a change beyond ±{Pct(t, false)} counts; "
                : "";
        if (t > e && lo >= -t && hi <= t)
        {
            var fits = Math.Abs(change) < e ? RoundsToDecide(s, e, options) : null;
            return v with
            {
                Outcome = Outcome.Inconclusive,
                WantsRerun = fits is not null,
                RoundsToDecide = fits,
                Reason =
                    $"{Pct(change)} {ci}{bimodal}: {tooNoisy}"
                    + (fits is { } f ? $"about {f} rounds a side could show no change; " : "")
                    + basis,
            };
        }

        var what =
            Math.Abs(change) > t
                ? significant
                    ? $"{Pct(change)} but {ci} straddles the ±{Pct(t, false)} threshold"
                    : $"{Pct(change)} apparent change is not significant ({P(adjustedP)}), {ci}"
                : $"{Pct(change)} but {ci} is wider than ±{Pct(e, false)}: a change cannot be ruled out";
        what += bimodal;
        var noise = s.BetweenDominates ? "run-to-run noise" : "within-run noise";
        // Rounds that would clear the threshold, or fit the margin; none between the two (neither would follow).
        var rounds =
            Math.Abs(change) > t ? RoundsToDecide(s, t, options)
            : Math.Abs(change) < e ? RoundsToDecide(s, e, options)
            : null;
        var advice = rounds is { } r
            ? $"too noisy ({noise}) for {s.BaseRounds}+{s.HeadRounds} rounds: about {r} rounds a side would decide it"
            : $"too close to the threshold to decide with fewer than {options.MaxUsefulRounds} rounds a side ({noise})";
        return v with
        {
            // More rounds always narrow the interval; how many are worth running is the budget's call (the service's).
            Outcome = Outcome.Inconclusive,
            WantsRerun = true,
            RoundsToDecide = rounds,
            Reason = $"{what}; {tooNoisy}{advice}; {basis}",
        };
    }

    /// <summary>
    /// Rounds a side at which the interval would be narrow enough to clear the threshold (or fit inside it), if the
    /// estimate and the spread stayed as they are: the half-width shrinks as 1/√rounds. Null beyond the useful maximum.
    /// </summary>
    private static int? RoundsToDecide(SampleStatistics s, double threshold, ComparisonOptions options)
    {
        var change = Math.Abs(s.Ratio - 1);
        var gap = Math.Abs(change - threshold);
        var halfWidth = (s.RatioUpper - s.RatioLower) / 2;
        if (!(gap > 0) || !double.IsFinite(halfWidth))
            return null;
        // Effective rounds a side now (the harmonic mean of the two sides), and the interval with a normal quantile:
        // more rounds also bring more degrees of freedom.
        var now = 2.0 / (1.0 / s.BaseRounds + 1.0 / s.HeadRounds);
        var z = StatMath.NormalQuantile(1 - options.Alpha / 2);
        var scaled = halfWidth * z / RoundStatistics.Critical(options.Alpha, s.SpreadDf);
        var needed = (int)Math.Ceiling(now * Math.Pow(scaled / gap, 2));
        needed = Math.Max(needed, Math.Max(s.BaseRounds, s.HeadRounds) + 1);
        return needed <= options.MaxUsefulRounds ? needed : null;
    }

    private static string Basis(SampleStatistics s) =>
        s.Spread switch
        {
            SpreadSource.Rounds => $"{s.BaseRounds}+{s.HeadRounds} rounds",
            SpreadSource.RoundsAndHistory =>
                $"{s.BaseRounds}+{s.HeadRounds} rounds, spread pooled with {s.HistoryRuns} base-branch runs",
            SpreadSource.RoundsAndRun =>
                $"{s.BaseRounds}+{s.HeadRounds} rounds, spread moderated by the run's other benchmarks ({s.PriorDf:0.#} df)",
            SpreadSource.History => $"one run a side, run-to-run spread from {s.HistoryRuns} base-branch runs",
            _ => "one run a side: assumed no run-to-run noise",
        };

    internal static string Pct(double fraction, bool sign = true)
    {
        if (double.IsNaN(fraction))
            return "n/a";
        if (double.IsInfinity(fraction))
            return fraction > 0 ? "+inf%" : "-inf%";
        var s = (fraction * 100).ToString(Math.Abs(fraction) < 0.1 ? "0.0" : "0", CultureInfo.InvariantCulture);
        return (sign && fraction >= 0 ? "+" : "") + s + "%";
    }

    internal static string P(double p) =>
        p < 0.0001 ? "p<0.0001" : "p=" + p.ToString("0.####", CultureInfo.InvariantCulture);

    private static double Ratio(double head, double @base) =>
        @base > 0 ? head / @base
        : head == @base ? 1
        : head > @base ? double.PositiveInfinity
        : double.NegativeInfinity;

    private static bool Constant(double min, double max, ComparisonOptions options) =>
        max - min <= options.DeterministicTolerance / 2 * Math.Abs(max);

    private static (double Min, double Max) Range(double[][] rounds)
    {
        double min = double.PositiveInfinity,
            max = double.NegativeInfinity;
        foreach (var r in rounds)
        {
            min = Math.Min(min, r[0]);
            max = Math.Max(max, r[^1]);
        }
        return (min, max);
    }

    private static double[] Pooled(double[][] rounds)
    {
        var all = rounds.SelectMany(r => r).ToArray();
        Array.Sort(all);
        return all;
    }

    /// <summary>Each round's finite samples, sorted; empty rounds dropped.</summary>
    private static double[][] Rounds(IReadOnlyList<IReadOnlyList<double>> rounds)
    {
        var result = new List<double[]>(rounds.Count);
        foreach (var round in rounds)
        {
            var finite = round.Where(double.IsFinite).ToArray();
            if (finite.Length == 0)
                continue;
            Array.Sort(finite);
            result.Add(finite);
        }
        return result.ToArray();
    }
}

public enum Problem
{
    None,
    NoData,
    TooFewSamples,
    OneValuePerRun,
}

/// <summary>What <see cref="SampleComparer.Analyse"/> measured, before the multiplicity adjustment and the
/// decision.</summary>
public sealed record SampleStatistics
{
    public required ComparisonInput Input { get; init; }
    public int BaseCount { get; init; }
    public int HeadCount { get; init; }
    public int BaseRounds { get; init; }
    public int HeadRounds { get; init; }

    /// <summary>The side estimates shown as base and head: geometric means of round medians (medians for one
    /// round).</summary>
    public double BaseMedian { get; init; } = double.NaN;
    public double HeadMedian { get; init; } = double.NaN;

    /// <summary>HeadMedian / BaseMedian, with its (1 − α) interval.</summary>
    public double Ratio { get; init; } = double.NaN;
    public double RatioLower { get; init; } = double.NaN;
    public double RatioUpper { get; init; } = double.NaN;

    /// <summary>Two-sided p of the round-level t test; NaN when not tested.</summary>
    public double PValue { get; init; } = double.NaN;
    public double Threshold { get; init; }
    public ThresholdSource ThresholdSource { get; init; }

    /// <summary>The project's margin for "no change" (see <see cref="Verdict.NoChangeMargin"/>).</summary>
    public double NoChangeMargin { get; init; }

    /// <summary>The history's run-to-run relative dispersion; NaN without enough history.</summary>
    public double RunToRunNoise { get; init; } = double.NaN;
    public SpreadSource Spread { get; init; }
    public double SpreadDf { get; init; }
    public int HistoryRuns { get; init; }

    /// <summary>Degrees of freedom borrowed from the run's other benchmarks (<see cref="VariancePrior"/>); 0 when
    /// none.</summary>
    public double PriorDf { get; init; }

    /// <summary>The scatter of the round locations about their side means (log scale; NaN without two rounds a side
    /// or on a linear scale) and its degrees of freedom: what the run prior is estimated from.</summary>
    public double RoundVariance { get; init; } = double.NaN;
    public double RoundDf { get; init; }
    public bool BetweenDominates { get; init; }
    public Problem Problem { get; init; }
    public bool BaseBimodal { get; init; }
    public bool HeadBimodal { get; init; }

    /// <summary>Every head sample lies beyond every base sample (on one side): a change no mix of modes can
    /// explain.</summary>
    public bool Separated { get; init; }

    /// <summary>Both sides are the same constant: nothing to test (left out of the FDR family).</summary>
    public bool Identical { get; init; }

    /// <summary>A deterministic measure, constant within each side: compared exactly (left out of the FDR
    /// family).</summary>
    public bool Exact { get; init; }
}
