using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.Tests.Comparison;

public class VariancePriorTests
{
    [Theory]
    [InlineData(0.5)]
    [InlineData(1.0)]
    [InlineData(3.0)]
    [InlineData(25.0)]
    public void Trigamma_inverse_undoes_trigamma(double x) =>
        Assert.Equal(x, VariancePrior.TrigammaInverse(VariancePrior.Trigamma(x)), 6);

    [Fact]
    public void Digamma_and_trigamma_match_known_values()
    {
        Assert.Equal(-0.5772156649, VariancePrior.Digamma(1), 8); // −γ
        Assert.Equal(Math.PI * Math.PI / 6, VariancePrior.Trigamma(1), 8);
        Assert.Equal(Math.PI * Math.PI / 2, VariancePrior.Trigamma(0.5), 8);
    }

    [Fact]
    public void Variances_that_agree_give_a_strong_prior_near_their_common_value()
    {
        // 200 benchmarks whose true variance is the same: each s² is σ²·χ²₄/4.
        var rng = new Random(3);
        var estimates = Enumerable.Range(0, 200).Select(_ => (0.0004 * ChiSquare(rng, 4) / 4, 4.0)).ToList();
        var prior = VariancePrior.Estimate(estimates)!.Value;
        Assert.Equal(VariancePrior.MaxDf, prior.Df);
        Assert.InRange(prior.Variance, 0.00034, 0.00046);
    }

    [Fact]
    public void Variances_that_differ_widely_borrow_little()
    {
        // True variances spread over two orders of magnitude: the prior must say it knows little (small d₀).
        var rng = new Random(4);
        var estimates = Enumerable.Range(0, 200).Select(_ => (Math.Pow(10, -5 + 2 * rng.NextDouble()) * ChiSquare(rng, 4) / 4, 4.0)).ToList();
        var prior = VariancePrior.Estimate(estimates)!.Value;
        Assert.InRange(prior.Df, 0.1, 4);
    }

    [Fact]
    public void Too_few_benchmarks_give_no_prior() =>
        Assert.Null(VariancePrior.Estimate(Enumerable.Range(0, VariancePrior.MinBenchmarks - 1).Select(i => (0.001 * (i + 1), 4.0)).ToList()));

    [Fact]
    public void Without_history_a_run_of_many_benchmarks_moderates_each_ones_spread_and_says_so()
    {
        var rng = new Random(5);
        var inputs = Enumerable.Range(0, 30).Select(i =>
        {
            IReadOnlyList<IReadOnlyList<double>> Side(double level) =>
                Enumerable.Range(0, 3).Select(_ => (IReadOnlyList<double>)Samples.LogNormal(rng, level * Math.Exp(0.01 * Samples.Gaussian(rng)), 0.01, 15)).ToList();
            return ComparisonInput.FromRounds($"B{i}", Measures.Time, "ns", Direction.LowerIsBetter, Side(100), Side(i == 0 ? 110 : 100));
        }).ToList();
        var verdicts = RunComparer.Compare(inputs);
        Assert.All(verdicts, v => Assert.Contains("moderated by the run's other benchmarks", v.Reason));
        Assert.Equal(Outcome.Regression, verdicts[0].Outcome);
        Assert.DoesNotContain(verdicts.Skip(1), v => v.Outcome is Outcome.Regression or Outcome.Improvement);
        // Alone, the same benchmark has only its own 4 degrees of freedom, and says so.
        Assert.Contains("3+3 rounds;", RunComparer.Compare([inputs[0]])[0].Reason + ";");
    }

    private static double ChiSquare(Random rng, int df)
    {
        double sum = 0;
        for (var i = 0; i < df; i++) { var z = Samples.Gaussian(rng); sum += z * z; }
        return sum;
    }
}
