using PerfService.Analysis;
using PerfService.Core.ChangePoints;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// A point that arrives out of commit order replays its series from the newest checkpoint before it, and must leave
/// exactly the state and alerts a feed of the whole series in commit order gives; without such a checkpoint it
/// replays from the start. Pure: no database.
/// </summary>
public class SeriesFeedTests
{
    // 100 commits of a series with 2 % noise and a +30 % step at commit 80.
    private static readonly SeriesPoint[] Series = HourlySeries.Of(100, Value, firstRun: 2000);

    private static double Value(int i)
    {
        var noise = new Random(i).NextDouble() - 0.5;
        return (i < 80 ? 1000 : 1300) * (1 + 0.04 * noise);
    }

    /// <summary>Feeds the commits in <paramref name="order"/>, one run at a time, as the updater would: each time the
    /// arrived points in commit order, with the state of the last feed and the checkpoints stored so far.</summary>
    private static (Fed Fed, IReadOnlyList<DetectorCheckpoint> Stored) FeedInOrderOf(IEnumerable<int> order)
    {
        var arrived = new SortedSet<int>();
        Fed? fed = null;
        IReadOnlyList<DetectorCheckpoint> stored = [];
        foreach (var i in order)
        {
            arrived.Add(i);
            var points = SeriesWindow.Whole(arrived.Select(a => Series[a]).ToList());
            fed = SeriesFeed.Feed(
                fed?.State ?? OnlineDetectorState.Empty,
                fed?.Points.Last.ResultId ?? 0,
                stored,
                points,
                [Series[i].ResultId],
                lowerIsBetter: true
            )!;
            stored = fed.Stored(stored);
        }
        return (fed!, stored);
    }

    [Fact]
    public void A_late_point_after_a_checkpoint_replays_from_it_and_ends_as_a_feed_in_commit_order()
    {
        var (inOrder, inOrderStored) = FeedInOrderOf(Enumerable.Range(0, 100));
        var (late, stored) = FeedInOrderOf(Enumerable.Range(0, 100).Where(i => i != 90).Append(90));

        // Checkpoints were taken at 24, 48, 72 and 96 points fed; 96 came after commit 90's place, so 72 is the one.
        Assert.Equal(72, late.ReplayedFrom);
        Assert.True(late.ReplacesCheckpoints);
        Assert.Equal(OnlineDetectorStateCodec.Encode(inOrder.State), OnlineDetectorStateCodec.Encode(late.State));
        Assert.Equal([72, 96], stored.Select(c => c.Count));
        Assert.Equal(
            inOrderStored.Select(c => Convert.ToHexString(c.State)),
            stored.Select(c => Convert.ToHexString(c.State))
        );
        // The step at commit 80 was raised (again) by the replay, so the updater keeps its alert open.
        Assert.Contains(late.Raised, a => a.Index == 80 && a.Direction == ChangeDirection.Regression);
    }

    [Fact]
    public void A_point_older_than_every_checkpoint_replays_from_the_start()
    {
        var (inOrder, _) = FeedInOrderOf(Enumerable.Range(0, 100));
        var (late, stored) = FeedInOrderOf(Enumerable.Range(0, 100).Where(i => i != 5).Append(5));

        Assert.Equal(0, late.ReplayedFrom);
        Assert.Equal(OnlineDetectorStateCodec.Encode(inOrder.State), OnlineDetectorStateCodec.Encode(late.State));
        Assert.Equal([72, 96], stored.Select(c => c.Count));
    }

    [Fact]
    public void Points_in_order_take_a_checkpoint_at_each_multiple_of_24_and_keep_the_last_two()
    {
        var (at23, _) = FeedInOrderOf(Enumerable.Range(0, 23));
        var (at24, _) = FeedInOrderOf(Enumerable.Range(0, 24));
        var (at25, stored25) = FeedInOrderOf(Enumerable.Range(0, 25));
        var (_, stored73) = FeedInOrderOf(Enumerable.Range(0, 73));

        Assert.Null(at24.ReplayedFrom);
        Assert.Empty(at23.Checkpoints);
        // One new checkpoint follows the stored ones (the updater's statement shifts them without reading them).
        Assert.Equal((false, 24), (at24.ReplacesCheckpoints, Assert.Single(at24.Checkpoints).Count));
        Assert.Empty(at25.Checkpoints);
        var first = Assert.Single(stored25);
        Assert.Equal((Series[23].ResultId, Series[23].SeriesAt), (first.ResultId, first.SeriesAt));
        Assert.Equal([48, 72], stored73.Select(c => c.Count));

        // A feed that passes two multiples at once replaces both.
        var (at10, _) = FeedInOrderOf(Enumerable.Range(0, 10));
        var caughtUp = SeriesFeed.Feed(at10.State, at10.Points.Last.ResultId, [], SeriesWindow.Whole(Series[..60].ToList()), Series[10..60].Select(p => p.ResultId).ToList(), true)!;
        Assert.True(caughtUp.ReplacesCheckpoints);
        Assert.Equal([24, 48], caughtUp.Checkpoints.Select(c => c.Count));
    }

    [Fact]
    public void A_partial_window_without_a_usable_checkpoint_asks_for_the_whole_series()
    {
        var (before, stored) = FeedInOrderOf(Enumerable.Range(0, 100).Where(i => i != 10));
        // The points from commit 60 on: the late commit 10 is not among them, and no checkpoint lies before it.
        var tail = new SeriesWindow(60, Series[60..].ToList());
        Assert.Null(SeriesFeed.Feed(before.State, before.Points.Last.ResultId, stored, tail, [Series[10].ResultId], true));

        // Commit 90 late, points from the oldest checkpoint (72) on: enough.
        var (without90, stored90) = FeedInOrderOf(Enumerable.Range(0, 100).Where(i => i != 90));
        var fromCheckpoint = new SeriesWindow(68, Series[68..].ToList());
        var fed = SeriesFeed.Feed(without90.State, without90.Points.Last.ResultId, stored90, fromCheckpoint, [Series[90].ResultId], true);
        Assert.Equal(72, fed!.ReplayedFrom);
        Assert.Equal(OnlineDetectorStateCodec.Encode(FeedInOrderOf(Enumerable.Range(0, 100)).Fed.State), OnlineDetectorStateCodec.Encode(fed.State));

        // A checkpoint whose state is damaged is passed over: the replay needs the whole series.
        var damaged = stored90.Select(c => c with { State = c.State[..^3] }).ToList();
        Assert.Null(SeriesFeed.Feed(without90.State, without90.Points.Last.ResultId, damaged, fromCheckpoint, [Series[90].ResultId], true));
    }

    [Fact]
    public void A_checkpoint_round_trips_and_bytes_that_are_not_one_read_as_none()
    {
        var saved = FeedInOrderOf(Enumerable.Range(0, 100)).Stored[^1];
        var bytes = DetectorCheckpoint.Encode(saved);
        var read = DetectorCheckpoint.Decode(bytes)!;
        Assert.Equal((saved.Count, saved.SeriesAt, saved.ResultId), (read.Count, read.SeriesAt, read.ResultId));
        Assert.Equal(Convert.ToHexString(saved.State), Convert.ToHexString(read.State));

        Assert.Empty(DetectorCheckpoint.Encode(null));
        Assert.Null(DetectorCheckpoint.Decode(null));
        Assert.Null(DetectorCheckpoint.Decode([]));
        Assert.Null(DetectorCheckpoint.Decode(bytes[..21]));
        Assert.Null(DetectorCheckpoint.Decode([9, .. bytes[1..]]));
    }
}
