using PerfService.Core.ChangePoints;
using PerfService.Tests.Comparison;

namespace PerfService.Tests.ChangePoints;

/// <summary>
/// The placement of each confirmed change point (<see cref="ChangePointOptions.RefineLocations"/>): the most probable
/// split up to <see cref="StepScanner.RefineRadius"/> points offline, the least-squares split up to
/// <see cref="StepScanner.OnlineRefineRadius"/> online.
/// </summary>
public class LocationRefinementTests
{
    [Fact]
    public void The_least_squares_split_is_where_the_level_changes_and_clipping_keeps_an_outlier_from_moving_it()
    {
        double[] y = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1];
        Assert.Equal(5, StepScanner.LeastSquaresSplit(y, 1, 9, -10, 10));
        // Within the allowed range only: the best split there is its nearest end.
        Assert.Equal(3, StepScanner.LeastSquaresSplit(y, 1, 3, -10, 10));
        Assert.Equal(-1, StepScanner.LeastSquaresSplit(y, 4, 3, -10, 10));
        // An outlier of 40 at index 2: unclipped it pulls the split to 3 (a one-point segment of 40 mixed with zeros
        // costs less than the step), clipped to [0, 1] it is one point of the higher level and the step stays at 5.
        double[] outlier = [0, 0, 40, 0, 0, 1, 1, 1, 1, 1];
        Assert.Equal(3, StepScanner.LeastSquaresSplit(outlier, 1, 9, -100, 100));
        Assert.Equal(5, StepScanner.LeastSquaresSplit(outlier, 1, 9, 0, 1));
    }

    [Fact]
    public void The_most_probable_split_lands_within_the_tolerance_more_often_than_the_least_squares_split()
    {
        // One step of one noise deviation, 60 points a side, searched within 20 points as offline: the single likeliest
        // split is scattered by the noise, the window of ±3 with the most posterior mass less so (in a simulation of
        // 4,000 such series, 71% and 76% within 3 points).
        var rng = new Random(7);
        var y = new double[120];
        int leastSquares = 0,
            probable = 0;
        const int series = 1000;
        for (var k = 0; k < series; k++)
        {
            for (var i = 0; i < y.Length; i++)
                y[i] = Samples.Gaussian(rng) + (i >= 60 ? 1 : 0);
            if (Math.Abs(StepScanner.LeastSquaresSplit(y, 40, 80, -10, 10) - 60) <= StepScanner.PlaceTolerance)
                leastSquares++;
            if (Math.Abs(StepScanner.MostProbableSplit(y, 40, 80, -10, 10, sigma: 1) - 60) <= StepScanner.PlaceTolerance)
                probable++;
        }
        Assert.True(probable >= leastSquares + series / 50, $"{probable} most probable, {leastSquares} least squares");
    }

    [Fact]
    public void The_most_probable_split_of_a_clear_step_is_the_step_and_near_an_end_it_is_the_least_squares_split()
    {
        var y = new double[30];
        for (var i = 0; i < y.Length; i++)
            y[i] = (i >= 15 ? 1 : 0) + (i % 3 - 1) * 0.05;
        Assert.Equal(15, StepScanner.MostProbableSplit(y, 8, 22, -10, 10, sigma: 0.1));
        Assert.Equal(-1, StepScanner.MostProbableSplit(y, 9, 8, -10, 10, sigma: 0.1));
        // A noisier posterior, a step at 26 and a range that ends there: windows near the end would be cut short, so
        // the choice is the least-squares split's, not a point leaning away from the end.
        var late = new double[30];
        for (var i = 0; i < late.Length; i++)
            late[i] = (i >= 26 ? 1 : 0) + Samples.Gaussian(new Random(i)) * 0.4;
        Assert.Equal(
            StepScanner.LeastSquaresSplit(late, 18, 28, -10, 10),
            StepScanner.MostProbableSplit(late, 18, 28, -10, 10, sigma: 0.4)
        );
        // No noise to weigh the splits by: the least-squares split.
        Assert.Equal(15, StepScanner.MostProbableSplit(y, 8, 22, -10, 10, sigma: 0));
    }

    [Fact]
    public void Offline_a_step_of_about_one_noise_deviation_is_placed_closer_to_where_it_happened()
    {
        // A 4% step at 3% noise, 150 points a side: z on the whole segments is about 10, but the L1 split on 30 points
        // a side is often several points off (30 of 36 found within 3 points refined, 26 unrefined).
        var unrefined = ChangePointOptions.Default with { RefineLocations = false };
        int within = 0,
            withinUnrefined = 0,
            found = 0;
        for (var seed = 1; seed <= 40; seed++)
        {
            var v = ChangePointDetectorTests.Series(new Random(500 + seed), 300, 0.03, (150, 1.04));
            var refined = ChangePointDetector.Detect(v);
            found += refined.Count;
            within += refined.Count(c => Math.Abs(c.Index - 150) <= 3);
            withinUnrefined += ChangePointDetector.Detect(v, unrefined).Count(c => Math.Abs(c.Index - 150) <= 3);
        }
        Assert.True(within > withinUnrefined, $"{within} within 3 points refined, {withinUnrefined} unrefined");
        Assert.InRange(found, 30, 45);
    }

    [Fact]
    public void Online_fewer_alerts_are_raised_off_the_place_of_such_a_step()
    {
        // The same 4% steps at 3% noise, replayed point by point: the placement may move a change point by at most
        // OnlineRefineRadius points there (26 of 35 alerts within 3 points and 9 elsewhere refined; 25 of 37 and 12
        // unrefined).
        var unrefined = ChangePointOptions.Default with { RefineLocations = false };
        int within = 0,
            elsewhere = 0,
            withinUnrefined = 0,
            elsewhereUnrefined = 0;
        for (var seed = 1; seed <= 40; seed++)
        {
            var v = ChangePointDetectorTests.Series(new Random(500 + seed), 300, 0.03, (150, 1.04));
            foreach (var a in OnlineDetector.Replay(v))
                _ = Math.Abs(a.Index - 150) <= 3 ? within++ : elsewhere++;
            foreach (var a in OnlineDetector.Replay(v, unrefined))
                _ = Math.Abs(a.Index - 150) <= 3 ? withinUnrefined++ : elsewhereUnrefined++;
        }
        Assert.True(within >= withinUnrefined, $"{within} alerts within 3 points refined, {withinUnrefined} unrefined");
        Assert.True(elsewhere < elsewhereUnrefined, $"{elsewhere} alerts elsewhere refined, {elsewhereUnrefined} unrefined");
    }
}
