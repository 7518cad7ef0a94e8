using System.Globalization;
using PerfService.Core.Results;

namespace PerfService.Core.Comparison;

/// <summary>
/// One comparison of head samples against base samples. Two steps, so that <see cref="RunComparer"/> can adjust
/// the p-values of a whole run for multiplicity between them: <see cref="Analyse"/> computes the statistics,
/// <see cref="Decide"/> turns them and the (adjusted) p-value into a verdict.
/// Decision rule: an alarm needs BOTH significance (adjusted p &lt; α) AND a change beyond the threshold, with the
/// whole confidence interval beyond it. Significance alone is not enough (with 100 samples a 0.5% shift is
/// "significant" and irrelevant); size alone is not enough (noise makes large apparent changes).
/// </summary>
public static class SampleComparer
{
    public static Verdict Compare(ComparisonInput input, ComparisonOptions? options = null)
    {
        options ??= ComparisonOptions.Default;
        var stats = Analyse(input, options);
        return Decide(stats, stats.PValue, options);
    }

    public static SampleStatistics Analyse(ComparisonInput input, ComparisonOptions options)
    {
        var baseSorted = Finite(input.BaseSamples);
        var headSorted = Finite(input.HeadSamples);
        var (threshold, source) = NoiseThreshold.For(input.Threshold, input.History, options);
        var stats = new SampleStatistics
        {
            Input = input,
            BaseCount = baseSorted.Length,
            HeadCount = headSorted.Length,
            BaseMedian = StatMath.SortedMedian(baseSorted),
            HeadMedian = StatMath.SortedMedian(headSorted),
            Threshold = threshold,
            ThresholdSource = source,
        };
        if (baseSorted.Length < options.MinSamples || headSorted.Length < options.MinSamples) return stats;
        if (baseSorted[0] == baseSorted[^1] && headSorted[0] == headSorted[^1] && baseSorted[0] == headSorted[0])
            return stats with { Identical = true, PValue = 1, Ratio = 1, RatioLower = 1, RatioUpper = 1 };

        // Work on logs when possible: performance noise is multiplicative, and a shift of logs is a ratio, which is
        // what a relative threshold speaks about. Zeros or negatives (e.g. an allocation count of 0) fall back to
        // a linear shift expressed relative to the base median.
        var useLog = baseSorted[0] > 0 && headSorted[0] > 0;
        if (useLog)
        {
            for (var i = 0; i < baseSorted.Length; i++) baseSorted[i] = Math.Log(baseSorted[i]);
            for (var i = 0; i < headSorted.Length; i++) headSorted[i] = Math.Log(headSorted[i]);
        }
        var mw = MannWhitney.Test(baseSorted, headSorted);
        var hl = HodgesLehmann.Compute(baseSorted, headSorted, 1 - options.Alpha);
        var (ratio, lower, upper) = useLog
            ? (Math.Exp(hl.Shift), Math.Exp(hl.Lower), Math.Exp(hl.Upper))
            : (ToRatio(hl.Shift, stats.BaseMedian), ToRatio(hl.Lower, stats.BaseMedian), ToRatio(hl.Upper, stats.BaseMedian));
        return stats with
        {
            PValue = mw.PValue,
            Ratio = ratio,
            RatioLower = lower,
            RatioUpper = upper,
            BaseBimodal = Modality.IsBimodal(baseSorted),
            HeadBimodal = Modality.IsBimodal(headSorted),
            Separated = headSorted[0] > baseSorted[^1] || headSorted[^1] < baseSorted[0],
        };
    }

    public static Verdict Decide(SampleStatistics s, double adjustedP, ComparisonOptions options)
    {
        var input = s.Input;
        var v = new Verdict
        {
            Key = input.Key, Measure = input.Measure, Unit = input.Unit, Direction = input.Direction, Profile = input.Profile,
            BaseCount = s.BaseCount, HeadCount = s.HeadCount, BaseMedian = s.BaseMedian, HeadMedian = s.HeadMedian,
            Ratio = s.Ratio, RatioLower = s.RatioLower, RatioUpper = s.RatioUpper, PValue = s.PValue, AdjustedP = adjustedP,
            Threshold = s.Threshold, ThresholdSource = s.ThresholdSource, Outcome = Outcome.NoChange, Reason = "",
        };
        if (double.IsNaN(s.PValue))
            return v with
            {
                Outcome = Outcome.Inconclusive, WantsRerun = true,
                Reason = $"too few samples: base {s.BaseCount}, head {s.HeadCount} (need at least {options.MinSamples} each)",
            };
        if (s.Identical) return v with { Reason = "identical samples" };

        var t = s.Threshold;
        var change = s.Ratio - 1;
        var significant = adjustedP < options.Alpha;
        var beyond = Math.Abs(change) > t;
        var ci = $"CI [{Pct(s.RatioLower - 1)}, {Pct(s.RatioUpper - 1)}]";
        if (!significant)
            return beyond
                ? v with { Outcome = Outcome.Inconclusive, WantsRerun = true, Reason = $"{Pct(change)} apparent change is not significant ({P(adjustedP)}), {ci}" }
                : v with { Reason = $"no significant change ({P(adjustedP)}), {Pct(change)} within ±{Pct(t, false)}" };
        if (!beyond)
            return v with { Reason = $"significant but small: {Pct(change)} within ±{Pct(t, false)} threshold" };
        // Modes can make medians move without any change in the code (a run lands in the other mode), unless no sample
        // of one side reaches the other side at all: then no mix of modes explains the change.
        if ((s.BaseBimodal || s.HeadBimodal) && !s.Separated)
        {
            var which = s.BaseBimodal && s.HeadBimodal ? "base and head" : s.BaseBimodal ? "base" : "head";
            return v with
            {
                Outcome = Outcome.Inconclusive, WantsRerun = true,
                Reason = $"{Pct(change)} but {which} samples are bimodal: the median may just follow the mix of modes",
            };
        }
        // The whole interval must clear the threshold; otherwise the data cannot tell a 3% from a 9% change.
        var ciClears = change > 0 ? s.RatioLower - 1 > t : s.RatioUpper - 1 < -t;
        if (!ciClears)
            return v with { Outcome = Outcome.Inconclusive, WantsRerun = true, Reason = $"{Pct(change)} but {ci} straddles the ±{Pct(t, false)} threshold" };
        var worse = input.Direction == Direction.HigherIsBetter ? change < 0 : change > 0;
        return v with
        {
            Outcome = worse ? Outcome.Regression : Outcome.Improvement,
            Reason = $"{Pct(change)} {ci} beyond ±{Pct(t, false)}, {P(adjustedP)}",
        };
    }

    internal static string Pct(double fraction, bool sign = true)
    {
        if (double.IsNaN(fraction)) return "n/a";
        if (double.IsInfinity(fraction)) return fraction > 0 ? "+inf%" : "-inf%";
        var s = (fraction * 100).ToString(Math.Abs(fraction) < 0.1 ? "0.0" : "0", CultureInfo.InvariantCulture);
        return (sign && fraction >= 0 ? "+" : "") + s + "%";
    }

    internal static string P(double p) =>
        p < 0.0001 ? "p<0.0001" : "p=" + p.ToString("0.####", CultureInfo.InvariantCulture);

    private static double ToRatio(double shift, double baseMedian) =>
        baseMedian > 0 ? 1 + shift / baseMedian : shift == 0 ? 1 : shift > 0 ? double.PositiveInfinity : double.NegativeInfinity;

    private static double[] Finite(IReadOnlyList<double> values)
    {
        var count = 0;
        for (var i = 0; i < values.Count; i++) if (double.IsFinite(values[i])) count++;
        var result = new double[count];
        var k = 0;
        for (var i = 0; i < values.Count; i++) if (double.IsFinite(values[i])) result[k++] = values[i];
        Array.Sort(result);
        return result;
    }
}

/// <summary>What <see cref="SampleComparer.Analyse"/> measured, before the multiplicity adjustment and the decision.</summary>
public sealed record SampleStatistics
{
    public required ComparisonInput Input { get; init; }
    public int BaseCount { get; init; }
    public int HeadCount { get; init; }
    public double BaseMedian { get; init; }
    public double HeadMedian { get; init; }
    public double Ratio { get; init; } = double.NaN;
    public double RatioLower { get; init; } = double.NaN;
    public double RatioUpper { get; init; } = double.NaN;
    /// <summary>Two-sided Mann–Whitney p-value; NaN when not tested.</summary>
    public double PValue { get; init; } = double.NaN;
    public double Threshold { get; init; }
    public ThresholdSource ThresholdSource { get; init; }
    public bool BaseBimodal { get; init; }
    public bool HeadBimodal { get; init; }
    /// <summary>Every head sample lies beyond every base sample (on one side): a change no mix of modes can explain.</summary>
    public bool Separated { get; init; }
    /// <summary>Both samples are the same constant: nothing to test (left out of the FDR family).</summary>
    public bool Identical { get; init; }
}
