using PerfService.Core.Comparison;

namespace PerfService.Tests.Comparison;

public class StatisticsTests
{
    [Theory]
    [InlineData(0.975, 1.959963985)]
    [InlineData(0.5, 0.0)]
    [InlineData(0.001, -3.090232306)]
    [InlineData(0.9999, 3.719016485)]
    public void Normal_quantile(double p, double z) => Assert.Equal(z, StatMath.NormalQuantile(p), 6);

    // Both paths: a few values left out (the heap) and many (quickselect), with ties at the cut and without.
    [Theory]
    [InlineData(200, 180, 0)]
    [InlineData(200, 180, 5)]
    [InlineData(50, 49, 3)]
    [InlineData(300, 100, 0)]
    [InlineData(300, 100, 7)]
    [InlineData(10, 10, 2)]
    [InlineData(10, 2, 2)]
    public void Sum_of_the_smallest_values_matches_a_sort(int n, int count, int distinct)
    {
        var random = new Random(n * 31 + count);
        for (var round = 0; round < 50; round++)
        {
            var values = Enumerable
                .Range(0, n)
                .Select(_ => distinct > 0 ? random.Next(distinct) : random.NextDouble() * 10)
                .ToArray();
            var expected = values.Order().Take(count).Sum();
            // Each value is truncated to a multiple of 2⁻⁴⁰ (an order-independent sum): at most 1e-12 apart each.
            Assert.Equal(expected, StatMath.SumSmallest(values.ToArray(), count), count * 1e-12);
        }
    }

    [Theory]
    [InlineData(1.959963985, 0.05)]
    [InlineData(3.290526731, 0.001)]
    [InlineData(5.326723886, 1e-7)]
    public void Two_sided_normal_p(double z, double p) => Assert.Equal(1, StatMath.TwoSidedP(z) / p, 5);

    [Theory]
    [InlineData(4, 2.776445)]
    [InlineData(10, 2.228139)]
    [InlineData(100000, 1.959964)]
    public void Student_critical_values_match_the_tables(double df, double q) => Assert.Equal(q, RoundStatistics.Critical(0.05, df), 4);

    [Fact]
    public void Bimodality_check_separates_clear_modes_only()
    {
        var rng = new Random(12);
        var falseFlags = 0;
        for (var t = 0; t < 500; t++)
        {
            var n = 10 + t % 90;
            var uni = Samples.LogNormal(rng, 100, 0.03, n).Select(v => Math.Log(v)).OrderBy(v => v).ToArray();
            if (Modality.IsBimodal(uni)) falseFlags++;
        }
        Assert.True(falseFlags <= 5, $"{falseFlags} unimodal samples flagged");
        var bi = Enumerable.Range(0, 40).Select(i => Math.Log((i % 3 == 0 ? 130 : 100) * Math.Exp(0.01 * Samples.Gaussian(rng)))).OrderBy(v => v).ToArray();
        Assert.True(Modality.IsBimodal(bi));
    }
    [Fact]
    public void Harrell_davis_median_matches_perfolizer()
    {
        var rng = new Random(3);
        foreach (var n in new[] { 3, 4, 7, 15, 30 })
        {
            var x = Samples.LogNormal(rng, 100, 0.05, n).OrderBy(v => v).ToArray();
            var expected = Perfolizer.Mathematics.QuantileEstimators.HarrellDavisQuantileEstimator.Instance.Quantile(new Pragmastat.Sample(x), 0.5).NominalValue;
            Assert.Equal(expected, RoundStatistics.HarrellDavisMedian(x), 9);
        }
    }
}
