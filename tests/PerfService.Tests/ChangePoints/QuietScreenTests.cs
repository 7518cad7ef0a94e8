using PerfService.Core.ChangePoints;

namespace PerfService.Tests.ChangePoints;

public class QuietScreenTests
{
    private static readonly ChangePointOptions AlwaysRescan = ChangePointOptions.Default with { SkipQuietRescans = false };

    [Fact]
    public void A_steady_series_is_screened_quiet_and_a_step_wakes_the_scan()
    {
        var steady = ChangePointDetectorTests.Series(new Random(7), 200, 0.03);
        var y = steady.Select(StepScanner.Log).ToArray();
        var noise = SeriesNoise.Estimate(y);
        Assert.False(QuietScreen.MayFind(y, 160, 197, 0, noise, ChangePointOptions.Default));
        // One 3× outlier at the end is clipped and stays quiet; four points 15% up do not.
        y[^1] += Math.Log(3);
        Assert.False(QuietScreen.MayFind(y, 160, 197, 0, noise, ChangePointOptions.Default));
        for (var i = 1; i <= 4; i++) y[^i] = y[^(i + 10)] + Math.Log(1.15);
        Assert.True(QuietScreen.MayFind(y, 160, 197, 0, noise, ChangePointOptions.Default));
    }

    [Theory]
    [InlineData(1.04, 0.01)]
    [InlineData(1.15, 0.02)]
    [InlineData(0.8, 0.05)]
    public void Skipping_quiet_rescans_raises_the_same_alerts_as_rescanning_after_every_point(double factor, double noise)
    {
        for (var seed = 0; seed < 5; seed++)
        {
            var v = ChangePointDetectorTests.Series(new Random(seed), 260, noise, (90, factor), (180, 1 / factor));
            Assert.Equal(OnlineDetector.Replay(v, AlwaysRescan), OnlineDetector.Replay(v));
        }
    }
}
