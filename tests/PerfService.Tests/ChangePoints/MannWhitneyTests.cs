using PerfService.Core.ChangePoints;
using PerfService.Tests.Comparison;

namespace PerfService.Tests.ChangePoints;

public class MannWhitneyTests
{
    private static double Z(double[] before, double[] after) => MannWhitney.Z(before, after);

    [Fact]
    public void Separated_samples_reach_the_largest_z_their_sizes_allow()
    {
        // U = 9 of 9 pairs, E[U] = 4.5, Var[U] = 3·3·7/12 = 5.25: z = 4.5/√5.25.
        Assert.Equal(4.5 / Math.Sqrt(5.25), Z([1, 2, 3], [4, 5, 6]), 12);
        Assert.Equal(-4.5 / Math.Sqrt(5.25), Z([4, 5, 6], [1, 2, 3]), 12);
    }

    [Fact]
    public void Interleaved_samples_score_their_rank_sum()
    {
        // Ranks after: 2, 4, 6; U = 12 − 6 = 6, E[U] = 4.5: z = 1.5/√5.25.
        Assert.Equal(1.5 / Math.Sqrt(5.25), Z([1, 3, 5], [2, 4, 6]), 12);
    }

    [Fact]
    public void Tied_values_take_mid_ranks_and_shrink_the_variance()
    {
        // Mid-ranks 1.5 1.5 | 3.5 3.5 | 5.5 5.5; rank sum after 3.5 + 5.5 + 5.5 = 14.5, U = 8.5, E[U] = 4.5;
        // Σ(t³ − t) = 18: Var[U] = 9/12·(7 − 18/30) = 4.8.
        Assert.Equal(4 / Math.Sqrt(4.8), Z([1, 1, 2], [2, 3, 3]), 12);
        Assert.Equal(0, Z([7, 7], [7, 7]));
    }

    // 120 runs, a quarter of them in a slow mode `slowMode` above the main one (0.5% noise within each), and a 3%
    // slowdown from run 60 on: in log values.
    private static double[] Bimodal(double slowMode)
    {
        var rng = new Random(7);
        var y = new double[120];
        for (var i = 0; i < y.Length; i++)
        {
            var slow = rng.NextDouble() < 0.25;
            y[i] = Math.Log(100 * (i >= 60 ? 1.03 : 1) * (slow ? 1 + slowMode : 1)) + 0.005 * Samples.Gaussian(rng);
        }
        return y;
    }

    [Fact]
    public void Mode_switches_inflate_the_lag_difference_scale_but_not_the_rank_statistic()
    {
        var near = Bimodal(0.2);
        var far = Bimodal(0.6);
        var nearNoise = SeriesNoise.Estimate(near);
        var farNoise = SeriesNoise.Estimate(far);
        // The within-mode noise is 0.5%; the lag differences read the mode switches as noise, and more so the
        // further apart the modes are.
        Assert.True(nearNoise.Sigma > 10 * 0.005, $"σ {nearNoise.Sigma}");
        Assert.True(farNoise.Sigma > 2 * nearNoise.Sigma, $"σ {farNoise.Sigma} against {nearNoise.Sigma}");
        // Moving the slow mode keeps every run's rank, so the rank z is the same, and it sees the 3% step clearly;
        // the trimmed-mean z under the lag-difference scale does not reach the detector's bar.
        var rank = Z(near[..60], near[60..]);
        Assert.Equal(rank, Z(far[..60], far[60..]), 12);
        Assert.True(rank > ChangePointOptions.Default.ZThreshold, $"rank z {rank}");
        var o = ChangePointOptions.Default;
        var trimmed = StepScanner.Evaluate(near, 60, 0, 120, nearNoise, o, new double[60], -1, 60);
        Assert.True(trimmed.Z < o.ZThreshold, $"trimmed-mean z {trimmed.Z}");
    }
}
