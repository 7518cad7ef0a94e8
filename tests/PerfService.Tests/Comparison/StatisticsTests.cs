using FsCheck;
using FsCheck.Fluent;
using FsCheck.Xunit;
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

    [Theory]
    [InlineData(1.959963985, 0.05)]
    [InlineData(3.290526731, 0.001)]
    [InlineData(5.326723886, 1e-7)]
    public void Two_sided_normal_p(double z, double p) => Assert.Equal(1, StatMath.TwoSidedP(z) / p, 5);

    [Fact]
    public void Exact_mann_whitney_matches_the_tables()
    {
        // n = m = 5, complete separation: U = 25, two-sided p = 2/252.
        var r = MannWhitney.Test([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
        Assert.Equal(25, r.U);
        Assert.Equal(2.0 / 252, r.PValue, 12);
        // One swap: U = 24, P(U ≥ 24) = 2/252.
        var s = MannWhitney.Test([1, 2, 3, 4, 6], [5, 7, 8, 9, 10]);
        Assert.Equal(24, s.U);
        Assert.Equal(4.0 / 252, s.PValue, 12);
    }

    [Fact]
    public void Mann_whitney_with_ties_uses_midranks()
    {
        var r = MannWhitney.Test([1, 2, 2, 3, 3, 3, 4, 5, 5, 6], [2, 3, 3, 4, 5, 6, 6, 7, 8, 9]);
        Assert.InRange(r.U, 70, 80);
        Assert.InRange(r.PValue, 0.02, 0.2);
        Assert.Equal(1.0, MannWhitney.Test([1, 1, 1, 1, 1], [1, 1, 1, 1, 1]).PValue);
    }

    [Property(MaxTest = 200)]
    public Property Kth_pairwise_difference_matches_brute_force()
    {
        var gen =
            from n in Gen.Choose(1, 25)
            from m in Gen.Choose(1, 25)
            from xs in Gen.ArrayOf(Gen.Choose(-50, 50), n)
            from ys in Gen.ArrayOf(Gen.Choose(-50, 50), m)
            from k in Gen.Choose(1, n * m)
            select (xs, ys, k);
        return Prop.ForAll(gen.ToArbitrary(), t =>
        {
            var x = t.xs.Select(v => v / 4.0).OrderBy(v => v).ToArray();
            var y = t.ys.Select(v => v / 4.0).OrderBy(v => v).ToArray();
            var all = (from a in x from b in y select b - a).OrderBy(v => v).ToArray();
            return HodgesLehmann.KthDifference(x, y, t.k) == all[t.k - 1];
        });
    }

    [Fact]
    public void Hodges_lehmann_estimates_the_shift()
    {
        var rng = new Random(11);
        var x = Samples.LogNormal(rng, 100, 0.02, 60).Select(v => Math.Log(v)).OrderBy(v => v).ToArray();
        var y = Samples.LogNormal(rng, 110, 0.02, 60).Select(v => Math.Log(v)).OrderBy(v => v).ToArray();
        var e = HodgesLehmann.Compute(x, y, 0.95);
        Assert.InRange(Math.Exp(e.Shift), 1.09, 1.11);
        Assert.True(e.Lower < e.Shift && e.Shift < e.Upper);
    }

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
}
