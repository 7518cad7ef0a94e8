using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.Tests.Comparison;

/// <summary>
/// "No change" is said only of an interval inside the project's margin (5% unless configured), however noisy the
/// series: the noise widens the threshold a regression must clear, never what counts as no change.
/// </summary>
public class NoChangeMarginTests
{
    /// <summary>Rounds a side around the given medians (2% apart from round to round, 1% within), on a series whose
    /// history wanders by <paramref name="noise"/> from run to run.</summary>
    private static ComparisonInput Noisy(double baseMedian, double headMedian, int rounds, double noise, int seed = 11)
    {
        var rng = new Random(seed);
        IReadOnlyList<IReadOnlyList<double>> Rounds(double median) =>
            Enumerable.Range(0, rounds).Select(_ => (IReadOnlyList<double>)Samples.LogNormal(rng, median * Math.Exp(0.02 * Samples.Gaussian(rng)), 0.01, 15)).ToList();
        return ComparisonInput.FromRounds("BenchmarkRead/simple", Measures.Time, "ns", Direction.LowerIsBetter, Rounds(baseMedian), Rounds(headMedian))
            with { History = Samples.LogNormal(rng, baseMedian, noise, 30) };
    }

    /// <summary>The demo's case: a +25% step on a series whose runs wander by ±40%, over the project's 12 rounds a side.</summary>
    private static ComparisonInput DemoStep() => Noisy(430, 537.5, rounds: 12, noise: 0.4);

    [Fact]
    public void A_large_change_on_a_noisy_series_is_not_no_change_but_too_noisy_with_the_noise_figure()
    {
        var v = SampleComparer.Compare(DemoStep());
        Assert.InRange(v.Change, 0.15, 0.35);
        // What the old rule called no change: the whole interval inside the noise-widened threshold.
        Assert.True(v.ChangeLower >= -v.Threshold && v.ChangeUpper <= v.Threshold, $"the interval within ±{v.Threshold}: {v.Reason}");
        Assert.Equal(Outcome.Inconclusive, v.Outcome);
        Assert.Equal(0.05, v.NoChangeMargin);
        Assert.InRange(v.RunToRunNoise, 0.2, 0.7);
        Assert.Contains("too noisy to judge a change of ±5.0%", v.Reason, StringComparison.Ordinal);
        Assert.Contains($"run-to-run noise ±{SampleComparer.Pct(v.RunToRunNoise, false)}", v.Reason, StringComparison.Ordinal);
        Assert.Contains($"beyond ±{SampleComparer.Pct(v.Threshold, false)}", v.Reason, StringComparison.Ordinal);
        Assert.False(v.WantsRerun, "a +25% change can never fit a ±5% margin: more rounds would not say no change");
    }

    [Fact]
    public void Small_equal_rounds_on_a_noisy_series_are_not_no_change_either_unless_the_interval_fits_the_margin()
    {
        var v = SampleComparer.Compare(Noisy(430, 431, rounds: 4, noise: 0.2));
        Assert.True(v.ChangeLower < -0.05 || v.ChangeUpper > 0.05, v.Reason);
        Assert.Equal(Outcome.Inconclusive, v.Outcome);
    }

    [Fact]
    public void On_a_quiet_series_an_interval_inside_the_margin_is_still_no_change()
    {
        var v = SampleComparer.Compare(Noisy(430, 431, rounds: 4, noise: 0.005));
        Assert.Equal(Outcome.NoChange, v.Outcome);
        Assert.Equal((0.05, 0.05), (v.NoChangeMargin, v.Threshold));
        Assert.Contains("within ±5.0%", v.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void A_configured_threshold_is_the_margin_for_both()
    {
        // A project that says changes under 100% do not matter for this benchmark: the interval fits, no change.
        var v = SampleComparer.Compare(DemoStep() with { Threshold = 1.0 });
        Assert.Equal((1.0, 1.0, ThresholdSource.Override), (v.NoChangeMargin, v.Threshold, v.ThresholdSource));
        Assert.Equal(Outcome.NoChange, v.Outcome);
    }

    [Fact]
    public void The_cli_table_shows_both_margins_and_says_what_they_are()
    {
        var noisy = SampleComparer.Compare(DemoStep());
        var table = ComparisonTable.Render([noisy]);
        Assert.Contains("Margin", table, StringComparison.Ordinal);
        Assert.Contains($"±5% / ±{(noisy.Threshold * 100).ToString("0.#", System.Globalization.CultureInfo.InvariantCulture)}%", table, StringComparison.Ordinal);
        Assert.Contains("no change only within the first figure", table, StringComparison.Ordinal);
    }
}
