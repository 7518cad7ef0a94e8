using PerfService.Core.ChangePoints;

namespace PerfService.Tests.ChangePoints;

/// <summary>
/// The least-squares placement of each confirmed change point (<see cref="ChangePointOptions.RefineLocations"/>):
/// up to <see cref="StepScanner.RefineRadius"/> points offline, <see cref="StepScanner.OnlineRefineRadius"/> online.
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
    public void A_step_of_two_noise_deviations_is_named_at_its_own_commit_more_often_than_not()
    {
        // The alert's commit range should hold the commit that caused the change. A placing rule that names the split
        // most probably within ±3 of the change, rather than the likeliest one, found more changes within 3 points but
        // named the exact commit half as often (a simulation: 28% against 64% at two deviations), and in a demo named
        // a commit two before the planted one. Measured here: 26 of 40 exact offline, 25 online; 10 offline with that
        // rule.
        int exact = 0,
            exactOnline = 0;
        for (var seed = 1; seed <= 40; seed++)
        {
            var v = ChangePointDetectorTests.Series(new Random(900 + seed), 240, 0.03, (120, 1.06));
            exact += ChangePointDetector.Detect(v).Count(c => c.Index == 120);
            exactOnline += OnlineDetector.Replay(v).Count(a => a.Index == 120);
        }
        Assert.True(exact >= 21, $"{exact} of 40 offline at the step's own commit");
        Assert.True(exactOnline >= 21, $"{exactOnline} of 40 alerts at the step's own commit");
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
