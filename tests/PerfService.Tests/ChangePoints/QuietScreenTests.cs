using PerfService.Core.ChangePoints;
using PerfService.ChangePointEval;

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

    [Fact]
    public void It_screens_exactly_as_scoring_every_position_one_by_one()
    {
        // Steps from invisible to obvious, near the end and further back, over every lower bound and scan range the
        // online update gives: positions with whole windows are scored several at a time, the others one by one.
        var (decided, woken) = (0, 0);
        for (var seed = 0; seed < 60; seed++)
        {
            var random = new Random(seed);
            var factor = 1 + (random.NextDouble() - 0.5) * 0.3;
            var at = random.Next(100, 200);
            var v = ChangePointDetectorTests.Series(random, 200, 0.005 + random.NextDouble() * 0.05, (at, factor));
            var y = v.Select(StepScanner.Log).ToArray();
            var noise = SeriesNoise.Estimate(y);
            foreach (var lo in new[] { 0, 37, 95, 150 })
            foreach (var from in new[] { 100, 140, 160, 190 })
            {
                var expected = OneByOne(y, from, 195, lo, noise, ChangePointOptions.Default);
                Assert.Equal(expected, QuietScreen.MayFind(y, from, 195, lo, noise, ChangePointOptions.Default));
                (decided, woken) = (decided + 1, woken + (expected ? 1 : 0));
            }
        }
        // Both answers were given many times.
        Assert.InRange(woken, decided / 10, decided - decided / 10);
    }

    [Fact]
    public void It_screens_exactly_as_scoring_every_position_one_by_one_at_the_edge_of_waking()
    {
        // A step over the last k points (k < 10 puts the deciding position where the right window shrinks, larger k
        // where both windows are whole), sized by bisection to the two neighbouring step sizes between which the
        // one-by-one screen wakes: any score computed differently, even in its last bits, answers one of them wrongly.
        // An earlier end of the scan range leaves right-edge runs that are not a whole number of vectors.
        var checkedEdges = 0;
        for (var seed = 0; seed < 72; seed++)
        {
            var random = new Random(seed);
            var y0 = ChangePointDetectorTests.Series(random, 200, 0.005 + random.NextDouble() * 0.05)
                .Select(StepScanner.Log).ToArray();
            var noise = SeriesNoise.Estimate(y0);
            var to = seed % 4 == 1 ? 170 : 195;
            // Ending at 170, a step over the last 15–17 points is decided in the last positions of the 30-point scale.
            var (k, lo, from) = (to == 170 ? 15 + seed % 3 : 1 + seed % 24, seed % 3 == 0 ? 37 : 0, seed % 2 == 0 ? 160 : 190);
            double[] Stepped(double step)
            {
                var y = (double[])y0.Clone();
                for (var i = y.Length - k; i < y.Length; i++)
                    y[i] += step;
                return y;
            }
            bool Reference(double step) => OneByOne(Stepped(step), from, to, lo, noise, ChangePointOptions.Default);
            var (quiet, woken) = (0.0, 1.0);
            if (Reference(quiet) || !Reference(woken))
                continue;
            for (var i = 0; i < 200 && BitConverter.DoubleToInt64Bits(woken) - BitConverter.DoubleToInt64Bits(quiet) > 1; i++)
            {
                var middle = (quiet + woken) / 2;
                if (middle <= quiet || middle >= woken)
                    break;
                if (Reference(middle)) woken = middle; else quiet = middle;
            }
            Assert.False(QuietScreen.MayFind(Stepped(quiet), from, to, lo, noise, ChangePointOptions.Default));
            Assert.True(QuietScreen.MayFind(Stepped(woken), from, to, lo, noise, ChangePointOptions.Default));
            checkedEdges++;
        }
        Assert.True(checkedEdges >= 60, $"only {checkedEdges} series had an edge to check");
    }

    [Fact]
    public void A_step_that_has_just_landed_on_an_autocorrelated_series_wakes_the_scan()
    {
        // A series of the evaluation corpus (calibration seed 20261125): AR noise with random-walk wander, quantised,
        // then 74% down at point 95. Its noise reads as σ 1.8% and φ 0.9. Clipped at three deviations around a level
        // that sits off the points just before the step, the three new points' mean stays under the screen's bar; all
        // three lying far beyond the level before them wake the scan, and the fast path alerts on the third.
        var series = CorpusGenerator.Generate(400, 20261125).Single(s => s.Id == "s0198");
        Assert.Equal(95, series.Changes[0].Index);
        var v = series.Values[..98];
        var y = v.Select(StepScanner.Log).ToArray();
        var noise = SeriesNoise.Estimate(y);
        Assert.InRange(noise.Phi, 0.85, 0.91);
        Assert.False(OneByOne(y, 58, 95, 0, noise, ChangePointOptions.Default, youngStreak: false));
        Assert.True(QuietScreen.MayFind(y, 58, 95, 0, noise, ChangePointOptions.Default));
        var alert = Assert.Single(OnlineDetector.Replay(v));
        Assert.Equal((95, 97), (alert.Index, alert.DetectedAt));
    }

    // The screen as it was written first: every position of every scale, one at a time; the newest points' streak
    // apart (youngStreak).
    private static bool OneByOne(
        double[] y, int from, int to, int lo, SeriesNoise noise, ChangePointOptions o, bool youngStreak = true)
    {
        var n = y.Length;
        if (!noise.IsKnown || n - lo < o.MinBefore + 2)
            return false;
        var streak = Math.Min(Math.Max(2, o.MinAfter), n - lo - 1);
        var span = Math.Min(31, n - lo - streak);
        var level = y[(n - streak - span)..(n - streak)].Order().ElementAt(span / 2);
        var beyond = o.FastBeyond * noise.Sigma;
        if (youngStreak && (y[(n - streak)..].All(v => v - level >= beyond) || y[(n - streak)..].All(v => level - v >= beyond)))
            return true;
        var clip = 3 * noise.Sigma;
        var sums = new double[n - lo + 1];
        for (var t = lo; t < n; t++)
            sums[t - lo + 1] = sums[t - lo] + Math.Clamp(y[t] - level, -clip, clip);
        var bar = 0.75 * o.CandidateZThreshold * noise.Sigma;
        foreach (var scale in o.Scales)
        {
            var window = Math.Max(o.MinBefore, scale);
            for (var t = Math.Max(lo + o.MinBefore, from - Math.Max(1, window / 2)); t <= Math.Min(n - 2, to + Math.Max(1, window / 2)); t++)
            {
                int start = Math.Max(lo, t - window), end = Math.Min(n, t + window);
                int nL = t - start, nR = end - t;
                var delta = (sums[end - lo] - sums[t - lo]) / nR - (sums[t - lo] - sums[start - lo]) / nL;
                if (delta * delta >= bar * bar * StepScanner.TrimmedVarianceFactor * noise.StepVariance(nL, nR))
                    return true;
            }
        }
        return false;
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
