using PerfService.Core.ChangePoints;

namespace PerfService.Tests.ChangePoints;

/// <summary>The offline detector's own confirmation bar (<see cref="ChangePointOptions.OfflineZThreshold"/>).</summary>
public class OfflineConfirmationTests
{
    [Fact]
    public void The_offline_bar_is_its_own_and_the_online_detector_keeps_ZThreshold()
    {
        // 3% steps at 2% noise, 40 points a side: their confirmation z lies near the bars (31 of 40 found at the offline
        // bar, 25 at the online one).
        var strict = ChangePointOptions.Default with { OfflineZThreshold = ChangePointOptions.Default.ZThreshold };
        int found = 0,
            foundStrict = 0;
        for (var seed = 1; seed <= 40; seed++)
        {
            var v = ChangePointDetectorTests.Series(new Random(700 + seed), 80, 0.02, (40, 1.03));
            found += ChangePointDetector.Detect(v).Count;
            foundStrict += ChangePointDetector.Detect(v, strict).Count;
            Assert.Equal(OnlineDetector.Replay(v), OnlineDetector.Replay(v, strict with { OfflineZThreshold = 1 }));
        }
        Assert.True(found > foundStrict, $"{found} change points at the offline bar, {foundStrict} at the online one");
        Assert.True(ChangePointOptions.Default.OfflineZThreshold < ChangePointOptions.Default.ZThreshold);
        Assert.Equal(ChangePointOptions.Legacy.ZThreshold, ChangePointOptions.Legacy.OfflineZThreshold);
        Assert.False(ChangePointOptions.Legacy.RefineLocations);
    }
}
