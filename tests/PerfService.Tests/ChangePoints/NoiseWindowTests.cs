using PerfService.Core.ChangePoints;
using PerfService.Core.Comparison;

namespace PerfService.Tests.ChangePoints;

public class NoiseWindowTests
{
    // Steps, outliers, repeated (quantised) values and a long run past the kept history: every update with the window
    // carried along must decide exactly what the plain update decides, and hold the same noise estimate.
    [Theory]
    [InlineData(1, false)]
    [InlineData(2, true)]
    [InlineData(3, false)]
    public void Updates_with_the_window_decide_exactly_as_without(int seed, bool quantised)
    {
        var random = new Random(seed);
        var values = ChangePointDetectorTests
            .Series(random, 600, 0.03, (150, 1.2), (320, 0.9), (480, 1.05))
            .Select((v, i) => i % 37 == 0 ? v * 1.6 : v)
            .Select(v => quantised ? Math.Round(v, 0) : v)
            .ToList();
        var window = new NoiseWindow();
        OnlineDetectorState plain = OnlineDetectorState.Empty,
            carried = OnlineDetectorState.Empty;
        var alerts = 0;
        foreach (var v in values)
        {
            var a = OnlineDetector.Add(plain, v);
            var b = OnlineDetector.Add(carried, v, window: window);
            Assert.Equal(a.State.Recent, b.State.Recent);
            Assert.Equal(a.State.Tracks, b.State.Tracks);
            Assert.Equal(a.State.SettledBefore, b.State.SettledBefore);
            Assert.Equal(a.Raised, b.Raised);
            Assert.Equal(a.Withdrawn, b.Withdrawn);
            var logs = b.State.Recent.Select(StepScanner.Log).ToArray();
            Assert.Equal(SeriesNoise.Estimate(logs), window.Noise);
            (plain, carried) = (a.State, b.State);
            alerts += a.Raised.Count;
        }
        Assert.True(alerts >= 2, "the series is meant to raise alerts, so that tracks are compared too");
    }

    [Fact]
    public void A_state_the_window_did_not_see_starts_it_afresh()
    {
        var values = ChangePointDetectorTests.Series(new Random(4), 300, 0.02, (200, 1.3));
        var window = new NoiseWindow();
        var state = OnlineDetectorState.Empty;
        foreach (var v in values.Take(250))
            state = OnlineDetector.Add(state, v, window: window).State;
        // Another series' state through the same window: it must not be fed the first one's differences.
        var other = OnlineDetectorState.Empty;
        foreach (var v in values.Skip(100).Take(220))
            other = OnlineDetector.Add(other, v).State;
        var through = OnlineDetector.Add(other, values[^1], window: window);
        Assert.Equal(OnlineDetector.Add(other, values[^1]).State.Tracks, through.State.Tracks);
        Assert.Equal(SeriesNoise.Estimate(through.State.Recent.Select(StepScanner.Log).ToArray()), window.Noise);
    }

    // Past a full history a run of updates reuses two buffers; a state the window did not make is never written to.
    [Fact]
    public void A_run_of_updates_reuses_two_buffers_and_never_writes_a_state_made_elsewhere()
    {
        var values = ChangePointDetectorTests.Series(new Random(5), 400, 0.03, (300, 1.2));
        var start = OnlineDetectorState.Empty;
        foreach (var v in values.Take(250))
            start = OnlineDetector.Add(start, v).State;
        var before = start.Recent.ToArray();
        var window = new NoiseWindow();
        var state = start;
        var buffers = new HashSet<double[]>(ReferenceEqualityComparer.Instance);
        foreach (var v in values.Skip(250))
        {
            var plain = OnlineDetector.Add(state, v);
            state = OnlineDetector.Add(state, v, window: window).State;
            Assert.Equal(plain.State.Recent, state.Recent);
            buffers.Add(state.Recent);
        }
        Assert.Equal(before, start.Recent);
        Assert.Equal(2, buffers.Count);
    }

    // A window moved to another series drops its buffers: the first series' newest state, kept, stays as it was.
    [Fact]
    public void A_window_moved_to_another_series_never_writes_the_newest_state_of_the_first()
    {
        OnlineDetectorState Feed(IEnumerable<double> values, OnlineDetectorState state, NoiseWindow? window)
        {
            foreach (var v in values)
                state = OnlineDetector.Add(state, v, window: window).State;
            return state;
        }
        var a = ChangePointDetectorTests.Series(new Random(6), 300, 0.03, (250, 1.2));
        var b = ChangePointDetectorTests.Series(new Random(7), 300, 0.05, (200, 0.8));
        var window = new NoiseWindow();
        // 51 updates: the newest state holds the first of the two buffers, the one a new series would take.
        var keptA = Feed(a.Skip(249), Feed(a.Take(249), OnlineDetectorState.Empty, null), window);
        var before = keptA.Recent.ToArray();
        Feed(b.Skip(250), Feed(b.Take(250), OnlineDetectorState.Empty, null), window);
        Assert.Equal(before, keptA.Recent);
    }

    // Restarted, a window is a new one that kept its arrays: the same series from the same state decides and
    // estimates as through a fresh window, and even the newest state fed before the restart is never written to.
    [Fact]
    public void A_restarted_window_decides_as_a_new_one_and_never_writes_a_state_fed_before()
    {
        var a = ChangePointDetectorTests.Series(new Random(8), 300, 0.03, (250, 1.2));
        var start = OnlineDetectorState.Empty;
        foreach (var v in a.Take(240))
            start = OnlineDetector.Add(start, v).State;
        var (reused, fresh) = (new NoiseWindow(), new NoiseWindow());
        var kept = start;
        foreach (var v in a.Skip(240))
            kept = OnlineDetector.Add(kept, v, window: reused).State;
        var before = kept.Recent.ToArray();

        reused.Restart();
        var (x, y) = (kept, kept);
        foreach (var v in a.Skip(200))
        {
            var (through, alone) = (OnlineDetector.Add(x, v, window: reused), OnlineDetector.Add(y, v, window: fresh));
            Assert.Equal(alone.State.Recent, through.State.Recent);
            Assert.Equal(alone.State.Tracks, through.State.Tracks);
            Assert.Equal(alone.Raised, through.Raised);
            Assert.Equal(fresh.Noise, reused.Noise);
            (x, y) = (through.State, alone.State);
        }
        Assert.Equal(before, kept.Recent);
    }

    [Theory]
    [InlineData(200, 180)]
    [InlineData(120, 110)]
    [InlineData(300, 100)]
    public void The_trimmed_sum_does_not_depend_on_the_order(int n, int count)
    {
        var random = new Random(n);
        for (var round = 0; round < 50; round++)
        {
            var values = Enumerable
                .Range(0, n)
                .Select(_ => random.Next(4) == 0 ? random.Next(5) * 0.1 : random.NextDouble())
                .ToArray();
            var sorted = values.Order().ToArray();
            Assert.Equal(StatMath.FixedSum(sorted.AsSpan(0, count)), StatMath.SumSmallest(values.ToArray(), count));
            Assert.Equal(
                StatMath.FixedSum(sorted.AsSpan(0, count)),
                StatMath.SumSmallest(values.Reverse().ToArray(), count)
            );
        }
    }

    // StepVariance reads tables for the window lengths the scan uses; inside and past them it must be the AR(1)
    // variance of a difference of adjacent means, written out here from its definition (a sum over the covariances).
    [Theory]
    [InlineData(0.0, 10, 10)]
    [InlineData(0.3, 30, 7)]
    [InlineData(0.6, 120, 120)]
    [InlineData(0.6, 127, 128)]
    [InlineData(0.85, 200, 45)]
    public void The_step_variance_is_the_AR1_variance_of_a_difference_of_adjacent_means(double phi, int nL, int nR)
    {
        // Points −nL..−1 before and 0..nR−1 after; unit marginal variance, covariance φ^|i−j|.
        double Covariance(int i, int j) => Math.Pow(phi, Math.Abs(i - j));
        double sum = 0;
        for (var i = -nL; i < nR; i++)
        for (var j = -nL; j < nR; j++)
            sum += (i < 0 ? -1.0 / nL : 1.0 / nR) * (j < 0 ? -1.0 / nL : 1.0 / nR) * Covariance(i, j);
        Assert.Equal(sum, new SeriesNoise(0.01, phi).StepVariance(nL, nR), 1e-9);
    }

    [Fact]
    public void A_sorted_window_keeps_its_values_in_order_through_ties_and_refuses_a_value_it_does_not_hold()
    {
        var window = new SortedWindow(8);
        double[] values = [3, 1, 2, 2, 5, 1, 4, 2];
        foreach (var v in values)
            window.Add(v);
        Assert.Equal(values.Average(), window.TrimmedMean(0), 12);
        window.Remove(2);
        window.Remove(1);
        Assert.Equal(6, window.Count);
        Assert.Equal((1 + 2 + 2 + 3 + 4 + 5) / 6.0, window.TrimmedMean(0), 12);
        Assert.Equal((2 + 2 + 3 + 4) / 4.0, window.TrimmedMean(0.2), 12);
        Assert.Throws<InvalidOperationException>(() => window.Remove(2.5));
    }

    [Fact]
    public void A_sorted_window_filled_and_slid_by_replacement_holds_the_values_a_sort_gives_at_every_step()
    {
        // Coarse values so that ties are common: the searches must land on the first of equal values.
        var random = new Random(7);
        var values = Enumerable.Range(0, 600).Select(_ => Math.Round(random.NextDouble() * 20) / 4).ToArray();
        foreach (var width in new[] { 1, 2, 3, 10, 31, 90 })
        {
            // Filled at once or one value at a time, it holds the same.
            var window = new SortedWindow(width);
            if (width % 2 == 0)
                window.Fill(values[..width]);
            else
                for (var i = 0; i < width; i++)
                    window.Add(values[i]);
            Assert.Equal(values[..width].Order().ToArray(), window.Values.ToArray());
            for (var i = width; i < values.Length; i++)
            {
                window.Replace(values[i - width], values[i]);
                var expected = values[(i - width + 1)..(i + 1)].Order().ToArray();
                Assert.Equal(expected, window.Values.ToArray());
            }
            Assert.Throws<InvalidOperationException>(() => window.Replace(99, 1));
        }
    }

    [Fact]
    public void The_noise_fit_chooses_the_phi_and_sigma_that_scoring_the_grid_one_phi_at_a_time_chooses()
    {
        // Ratios from white noise to strong autocorrelation and beyond the model, for 1 to 4 lags, and exact ties.
        var random = new Random(11);
        for (var i = 0; i < 4000; i++)
        {
            var lags = 1 + i % 4;
            var scales = new double[lags + 1];
            scales[1] = i % 97 == 0 ? 0 : 0.001 + random.NextDouble() * 0.1;
            for (var k = 2; k <= lags; k++)
                scales[k] = i % 13 == 0 ? scales[1] : scales[1] * Math.Sqrt(k * (0.2 + random.NextDouble() * 1.2));
            Assert.Equal(OnePhiAtATime(scales), SeriesNoise.Fit(scales));
        }
    }

    // The fit as it was written first.
    private static SeriesNoise OnePhiAtATime(double[] scales)
    {
        var s1 = scales[1];
        if (s1 <= 0)
            return new SeriesNoise(SeriesNoise.SigmaFloor, 0);
        var (phi, bestError) = (0.0, double.PositiveInfinity);
        for (var candidate = 0.0; candidate <= SeriesNoise.MaxPhi + 1e-9; candidate += 0.01)
        {
            double error = 0,
                power = candidate,
                sum = 1;
            for (var k = 2; k < scales.Length; k++)
            {
                sum += power;
                power *= candidate;
                var e = scales[k] * scales[k] / (s1 * s1) - sum;
                error += e * e;
            }
            if (error < bestError)
                (bestError, phi) = (error, candidate);
        }
        return new SeriesNoise(Math.Max(SeriesNoise.SigmaFloor, s1 / Math.Sqrt(2 * (1 - phi))), phi);
    }
}
