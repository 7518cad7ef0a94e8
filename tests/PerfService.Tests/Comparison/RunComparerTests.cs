using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.Tests.Comparison;

public class RunComparerTests
{
    private static List<ComparisonInput> NullRun(Random rng, int count, double? threshold = null)
    {
        var inputs = new List<ComparisonInput>(count);
        for (var i = 0; i < count; i++)
            inputs.Add(new ComparisonInput($"B{i}", Measures.Time, "ns", Direction.LowerIsBetter,
                Samples.LogNormal(rng, 100, 0.04, 30), Samples.LogNormal(rng, 100, 0.04, 30)) { Threshold = threshold });
        return inputs;
    }

    [Fact]
    public void The_test_alone_is_calibrated_at_alpha()
    {
        // Without FDR and with a negligible threshold, ~5% of A/A comparisons are "significant": the test is honest.
        var verdicts = RunComparer.Compare(NullRun(new Random(20), 1000, 1e-9), ComparisonOptions.Default with { Fdr = FdrMethod.None });
        var rate = verdicts.Count(v => v.Outcome is Outcome.Regression or Outcome.Improvement or Outcome.Inconclusive && v.AdjustedP < 0.05) / 1000.0;
        Assert.InRange(rate, 0.025, 0.075);
    }

    [Fact]
    public void A_over_a_comparisons_stay_quiet()
    {
        // 1,000 A/A trials with FDR control: at most ~1% flagged even with no threshold to hide behind.
        var strict = RunComparer.Compare(NullRun(new Random(21), 1000, 1e-9));
        Assert.True(strict.Count(v => v.Outcome == Outcome.Regression) <= 10);
        // With the default 5% threshold, none.
        var normal = RunComparer.Compare(NullRun(new Random(22), 1000));
        Assert.Equal(0, normal.Count(v => v.Outcome is Outcome.Regression or Outcome.Improvement));
        // "No change" is an equivalence statement now (the whole interval inside ±5%): with 4% noise and 30 samples a
        // run, the interval is ±2.6% wide, so a few percent of A/A pairs land too far from zero to claim it.
        Assert.True(normal.Count(v => v.Outcome == Outcome.Inconclusive) <= 60);
    }

    [Fact]
    public void Verdicts_keep_input_order_and_fdr_adjusts()
    {
        var rng = new Random(23);
        var inputs = NullRun(rng, 50);
        inputs[7] = inputs[7] with { HeadSamples = Samples.LogNormal(rng, 130, 0.04, 30) };
        var verdicts = RunComparer.Compare(inputs);
        Assert.Equal(inputs.Select(i => i.Key), verdicts.Select(v => v.Key));
        Assert.Equal(Outcome.Regression, verdicts[7].Outcome);
        Assert.All(verdicts, v => Assert.True(v.AdjustedP >= v.PValue));
    }

    [Fact]
    // Its speed is measured in benches/dotnet/PerfService.Benchmarks (ComparisonBenchmarks), not asserted here.
    public void A_thousand_benchmarks_at_once_flag_exactly_the_planted_regressions()
    {
        var rng = new Random(24);
        var inputs = new List<ComparisonInput>(1000);
        for (var i = 0; i < 1000; i++)
        {
            var n = 20 + rng.Next(81);
            inputs.Add(new ComparisonInput($"B{i}", Measures.Time, "ns", Direction.LowerIsBetter,
                Samples.LogNormal(rng, 100, 0.03, n), Samples.LogNormal(rng, i % 50 == 0 ? 115 : 100, 0.03, 20 + rng.Next(81)))
            { History = Samples.LogNormal(rng, 100, 0.01, 30) });
        }
        var verdicts = RunComparer.Compare(inputs);
        Assert.InRange(verdicts.Count(v => v.Outcome == Outcome.Regression), 18, 20);
        Assert.Equal(0, verdicts.Where((v, i) => i % 50 != 0).Count(v => v.Outcome == Outcome.Regression));
    }
}
