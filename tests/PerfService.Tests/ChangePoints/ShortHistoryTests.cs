using PerfService.Core.ChangePoints;
using PerfService.Tests.Comparison;

namespace PerfService.Tests.ChangePoints;

/// <summary>
/// A project's first regression often lands when its series are only a couple of dozen points long, on machines
/// where a run now and then comes out twice as fast (a shared VM whose hyperthread sibling fell idle). The synthetic
/// corpus has neither (its changes are at least 40 points in, its outliers rare and upward), so these cases are
/// pinned here: a 3× step at point 12 of such a series, seeded trials with and without the step.
/// </summary>
public class ShortHistoryTests
{
    private const int Trials = 200;
    private const int At = 12;

    /// <summary>Level 600 ± 3% log-normal; a share of runs at half speed; optionally ×3 from <see cref="At"/> on.</summary>
    private static double[] Series(int seed, int length, double halfSpeedShare, double step)
    {
        var rng = new Random(seed);
        var v = new double[length];
        for (var i = 0; i < length; i++)
            v[i] = 600 * (i >= At ? step : 1) * Math.Exp(0.03 * Samples.Gaussian(rng)) * (rng.NextDouble() < halfSpeedShare ? 0.5 : 1);
        return v;
    }

    [Theory]
    // (share of half-speed runs, series length, least share of trials in which the step is raised online)
    [InlineData(0.0, 25, 1.0)]
    [InlineData(0.1, 25, 0.85)]
    [InlineData(0.2, 33, 0.7)]
    public void A_step_early_in_a_noisy_series_is_raised_at_its_commit(double share, int length, double recall)
    {
        var raised = 0;
        for (var seed = 0; seed < Trials; seed++)
            if (OnlineDetector.Replay(Series(seed, length, share, 3)).Any(a => Math.Abs(a.Index - At) <= 1 && a.WithdrawnAt is null)) raised++;
        Assert.True(raised >= recall * Trials, $"raised in {raised} of {Trials} trials");
    }

    [Theory]
    [InlineData(0.0, 33)]
    [InlineData(0.1, 33)]
    [InlineData(0.2, 33)]
    public void Half_speed_runs_without_a_step_stay_under_one_false_alarm_per_thousand_points(double share, int length)
    {
        var alarms = 0;
        for (var seed = 0; seed < Trials; seed++) alarms += OnlineDetector.Replay(Series(10_000 + seed, length, share, 1)).Count;
        Assert.True(alarms <= Trials * length / 1000.0, $"{alarms} alarms over {Trials * length} points");
    }

    [Theory]
    [InlineData(0.9, 0.65733)]
    [InlineData(1.0, 0.79788)]
    [InlineData(0.5, 0.32466)]
    public void The_trimmed_scale_is_calibrated_for_normal_noise(double kept, double expected) =>
        Assert.Equal(expected, SeriesNoise.TrimmedHalfNormalMean(kept), 4);
}
