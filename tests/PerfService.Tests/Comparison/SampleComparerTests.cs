using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.Tests.Comparison;

public class SampleComparerTests
{
    private static ComparisonInput Input(double[] baseline, double[] head, Direction direction = Direction.LowerIsBetter) =>
        new("Bench.Run", Measures.Time, "ns", direction, baseline, head);

    [Fact]
    public void Ten_percent_slower_with_three_percent_noise_is_a_regression()
    {
        var rng = new Random(1);
        var v = SampleComparer.Compare(Input(Samples.LogNormal(rng, 100, 0.03, 30), Samples.LogNormal(rng, 110, 0.03, 30)));
        Assert.Equal(Outcome.Regression, v.Outcome);
        Assert.InRange(v.Change, 0.07, 0.13);
        Assert.True(v.RatioLower - 1 > 0.05, v.Reason);
        Assert.True(v.RatioLower <= v.Ratio && v.Ratio <= v.RatioUpper);
        Assert.True(v.PValue < 1e-6);
        Assert.False(v.WantsRerun);
    }

    [Fact]
    public void Faster_is_an_improvement()
    {
        var rng = new Random(2);
        var v = SampleComparer.Compare(Input(Samples.LogNormal(rng, 100, 0.03, 30), Samples.LogNormal(rng, 85, 0.03, 30)));
        Assert.Equal(Outcome.Improvement, v.Outcome);
        Assert.InRange(v.Change, -0.18, -0.12);
    }

    [Fact]
    public void For_throughput_a_decrease_is_the_regression()
    {
        var rng = new Random(3);
        var baseline = Samples.LogNormal(rng, 1000, 0.03, 30);
        var lower = Samples.LogNormal(rng, 850, 0.03, 30);
        var higher = Samples.LogNormal(rng, 1200, 0.03, 30);
        Assert.Equal(Outcome.Regression, SampleComparer.Compare(Input(baseline, lower, Direction.HigherIsBetter)).Outcome);
        Assert.Equal(Outcome.Improvement, SampleComparer.Compare(Input(baseline, higher, Direction.HigherIsBetter)).Outcome);
    }

    [Fact]
    public void A_significant_change_below_the_threshold_is_no_change()
    {
        var rng = new Random(4);
        var v = SampleComparer.Compare(Input(Samples.LogNormal(rng, 100, 0.005, 50), Samples.LogNormal(rng, 102, 0.005, 50)));
        Assert.True(v.PValue < 1e-6, "the 2% shift is clearly significant");
        Assert.Equal(Outcome.NoChange, v.Outcome);
        Assert.Equal(0.05, v.Threshold);
        Assert.Equal(ThresholdSource.Default, v.ThresholdSource);
        Assert.Contains("within", v.Reason);
    }

    [Fact]
    public void An_override_is_taken_literally()
    {
        var rng = new Random(4);
        var input = Input(Samples.LogNormal(rng, 100, 0.005, 50), Samples.LogNormal(rng, 102, 0.005, 50)) with { Threshold = 0.01 };
        var v = SampleComparer.Compare(input);
        Assert.Equal(Outcome.Regression, v.Outcome);
        Assert.Equal(ThresholdSource.Override, v.ThresholdSource);
    }

    [Fact]
    public void A_noisy_history_raises_the_threshold()
    {
        var rng = new Random(5);
        var baseline = Samples.LogNormal(rng, 100, 0.01, 30);
        var head = Samples.LogNormal(rng, 108, 0.01, 30);
        Assert.Equal(Outcome.Regression, SampleComparer.Compare(Input(baseline, head)).Outcome);

        // Run-to-run medians that wander by ~4%: an 8% move between two runs is within that series' normal range.
        var history = Samples.LogNormal(rng, 100, 0.04, 30);
        var v = SampleComparer.Compare(Input(baseline, head) with { History = history });
        Assert.Equal(ThresholdSource.Noise, v.ThresholdSource);
        // 2σ now (was 4σ): the interval itself carries the run-to-run spread, the threshold only keeps a claim of change
        // above what the series wanders by anyway.
        Assert.True(v.Threshold > 0.07, $"threshold {v.Threshold}");
        Assert.NotEqual(Outcome.Regression, v.Outcome);

        // A quiet history keeps the default.
        var quiet = SampleComparer.Compare(Input(baseline, head) with { History = Samples.LogNormal(rng, 100, 0.003, 30) });
        Assert.Equal(0.05, quiet.Threshold);
        Assert.Equal(Outcome.Regression, quiet.Outcome);
    }

    [Fact]
    public void A_step_in_the_history_does_not_inflate_the_threshold()
    {
        var rng = new Random(6);
        var history = Samples.LogNormal(rng, 100, 0.005, 30);
        for (var i = 15; i < 30; i++) history[i] *= 1.3; // an old 30% regression
        Assert.InRange(NoiseThreshold.RelativeDispersion(history), 0.002, 0.01);
    }

    [Fact]
    public void Too_few_samples_is_inconclusive_and_asks_for_a_rerun()
    {
        var v = SampleComparer.Compare(Input([100, 101], [130, 131]));
        Assert.Equal(Outcome.Inconclusive, v.Outcome);
        Assert.True(v.WantsRerun);
        Assert.Contains("too few samples", v.Reason);
        Assert.True(double.IsNaN(v.PValue));
    }

    [Fact]
    public void A_bimodal_head_is_inconclusive()
    {
        var rng = new Random(7);
        var baseline = Samples.LogNormal(rng, 100, 0.01, 40);
        var head = new double[40];
        for (var i = 0; i < head.Length; i++) head[i] = (i % 2 == 0 ? 100 : 130) * Math.Exp(0.01 * Samples.Gaussian(rng));
        var v = SampleComparer.Compare(Input(baseline, head));
        Assert.Equal(Outcome.Inconclusive, v.Outcome);
        Assert.True(v.WantsRerun);
        Assert.Contains("bimodal", v.Reason);
    }

    /// <summary>Runs that come out twice as fast now and then (a shared VM): base in two modes, head the same ×factor.</summary>
    private static (double[] Base, double[] Head) TwoModes(int seed, double factor)
    {
        var rng = new Random(seed);
        double[] Draw(double scale) => Enumerable.Range(0, 30).Select(i => scale * (i % 4 == 0 ? 50 : 100) * Math.Exp(0.02 * Samples.Gaussian(rng))).ToArray();
        return (Draw(1), Draw(factor));
    }

    [Fact]
    public void A_change_beyond_every_mode_is_judged_even_with_bimodal_samples()
    {
        var (baseline, head) = TwoModes(11, 5);
        var v = SampleComparer.Compare(Input(baseline, head));
        Assert.Equal(Outcome.Regression, v.Outcome);
        Assert.InRange(v.Ratio, 4.5, 5.5);
    }

    [Fact]
    public void A_change_the_size_of_the_gap_between_modes_stays_inconclusive()
    {
        // Twice as slow, with modes a factor of two apart: a mix of modes alone could look like this.
        var (baseline, head) = TwoModes(12, 2);
        var v = SampleComparer.Compare(Input(baseline, head));
        Assert.Equal(Outcome.Inconclusive, v.Outcome);
        Assert.Contains("bimodal", v.Reason);
    }

    [Fact]
    public void A_large_change_that_is_not_significant_is_inconclusive()
    {
        var rng = new Random(8);
        var v = SampleComparer.Compare(Input(Samples.LogNormal(rng, 100, 0.3, 6), Samples.LogNormal(rng, 125, 0.3, 6)));
        Assert.Equal(Outcome.Inconclusive, v.Outcome);
        Assert.True(v.WantsRerun);
    }

    [Fact]
    public void A_confidence_interval_straddling_the_threshold_is_inconclusive()
    {
        var rng = new Random(9);
        // ~6.5% shift, 4% noise, 25 samples: clearly significant but the CI reaches below 5%.
        var v = SampleComparer.Compare(Input(Samples.LogNormal(rng, 100, 0.04, 25), Samples.LogNormal(rng, 106.5, 0.04, 25)));
        Assert.True(v.PValue < 0.01);
        Assert.True(v.RatioLower - 1 < 0.05 && v.Ratio - 1 > 0.05, $"{v.RatioLower} {v.Ratio}");
        Assert.Equal(Outcome.Inconclusive, v.Outcome);
        Assert.Contains("straddles", v.Reason);
    }

    [Fact]
    public void Identical_constant_samples_are_no_change()
    {
        var v = SampleComparer.Compare(Input([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]));
        Assert.Equal(Outcome.NoChange, v.Outcome);
        Assert.Equal(1.0, v.Ratio);
    }

    [Fact]
    public void Deterministic_allocations_are_compared_exactly()
    {
        var baseline = Enumerable.Repeat(256.0, 10).ToArray();
        var head = Enumerable.Repeat(312.0, 10).ToArray();
        var v = SampleComparer.Compare(new ComparisonInput("Bench.Run", Measures.Allocated, "B", Direction.LowerIsBetter, baseline, head));
        Assert.Equal(Outcome.Regression, v.Outcome);
        Assert.Equal(312.0 / 256.0, v.Ratio, 9);
    }

    [Fact]
    public void Zeros_fall_back_to_a_linear_shift()
    {
        var baseline = new double[] { 0, 0, 0, 0, 0, 0, 0, 0 };
        var head = new double[] { 24, 24, 24, 24, 24, 24, 24, 24 };
        var v = SampleComparer.Compare(new ComparisonInput("Bench.Run", Measures.Allocated, "B", Direction.LowerIsBetter, baseline, head));
        Assert.Equal(Outcome.Regression, v.Outcome);
        Assert.True(double.IsPositiveInfinity(v.Ratio));
    }

    [Fact]
    public void The_interval_covers_the_true_ratio_about_95_percent_of_the_time()
    {
        var rng = new Random(10);
        var covered = 0;
        const int trials = 400;
        for (var t = 0; t < trials; t++)
        {
            var v = SampleComparer.Compare(Input(Samples.LogNormal(rng, 100, 0.05, 20), Samples.LogNormal(rng, 104, 0.05, 20)));
            if (v.RatioLower <= 1.04 && 1.04 <= v.RatioUpper) covered++;
        }
        Assert.InRange(covered / (double)trials, 0.92, 0.98);
    }
}
