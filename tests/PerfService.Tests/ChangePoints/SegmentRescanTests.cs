using PerfService.Core.ChangePoints;
using PerfService.Tests.Comparison;

namespace PerfService.Tests.ChangePoints;

/// <summary>The offline detector's second pass (<see cref="ChangePointOptions.RescanSegments"/>).</summary>
public class SegmentRescanTests
{
    private static readonly ChangePointOptions FirstPassOnly = ChangePointOptions.Default with
    {
        RescanSegments = false,
    };

    [Fact]
    public void A_small_step_soon_after_a_large_one_is_found_on_its_segment()
    {
        // A 30% regression at 100, then a 2% one (two noise deviations) 35 points later: the first stage's long windows
        // straddle the large step, its short ones are too noisy, so the small step is mostly lost there; on the segment
        // after the large step it is clear.
        int found = 0,
            foundByFirstPass = 0,
            others = 0;
        for (var seed = 1; seed <= 20; seed++)
        {
            var v = ChangePointDetectorTests.Series(new Random(seed), 300, 0.01, (100, 1.3), (135, 1.02));
            var all = ChangePointDetector.Detect(v);
            if (all.Any(c => Math.Abs(c.Index - 135) <= 3 && c.Direction == ChangeDirection.Regression))
                found++;
            others += all.Count(c => Math.Abs(c.Index - 135) > 3 && Math.Abs(c.Index - 100) > 3);
            if (ChangePointDetector.Detect(v, FirstPassOnly).Any(c => Math.Abs(c.Index - 135) <= 3))
                foundByFirstPass++;
        }
        Assert.Equal(20, found);
        Assert.Equal(0, others);
        Assert.InRange(foundByFirstPass, 0, 10);
    }

    [Fact]
    public void Slow_drift_gains_no_change_point()
    {
        // A half sine of 3% over 300 points at 0.6% noise: a step plus a line fits it on 120 points a side, so the
        // second pass must not turn it into change points.
        int withRescan = 0,
            without = 0;
        for (var seed = 1; seed <= 40; seed++)
        {
            var rng = new Random(1000 + seed);
            var v = new double[300];
            for (var i = 0; i < v.Length; i++)
                v[i] = 100 * Math.Exp(0.03 * Math.Sin(Math.PI * i / v.Length) + 0.006 * Samples.Gaussian(rng));
            withRescan += ChangePointDetector.Detect(v).Count;
            without += ChangePointDetector.Detect(v, FirstPassOnly).Count;
        }
        Assert.True(withRescan <= without, $"{withRescan} change points with the second pass, {without} without");
    }

    [Fact]
    public void The_online_detector_does_not_use_it()
    {
        var v = ChangePointDetectorTests.Series(new Random(3), 300, 0.01, (100, 1.3), (135, 1.02));
        Assert.Equal(OnlineDetector.Replay(v, FirstPassOnly), OnlineDetector.Replay(v));
    }
}
