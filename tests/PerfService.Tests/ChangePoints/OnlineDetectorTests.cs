using PerfService.Core.ChangePoints;

namespace PerfService.Tests.ChangePoints;

public class OnlineDetectorTests
{
    [Fact]
    public void A_step_is_alerted_a_few_points_after_it_happens()
    {
        var v = ChangePointDetectorTests.Series(new Random(1), 200, 0.02, (120, 1.15));
        var alert = Assert.Single(OnlineDetector.Replay(v));
        Assert.InRange(alert.Index, 119, 121);
        Assert.Equal(ChangeDirection.Regression, alert.Direction);
        Assert.Null(alert.WithdrawnAt);
        // Needs MinAfter points after the change and Persist consecutive re-runs.
        Assert.InRange(alert.DetectedAt - alert.Index, 6, 12);
    }

    [Fact]
    public void A_flicker_is_withdrawn()
    {
        // Six high points then back: long enough to look like a change for a while, too short to be one.
        var v = ChangePointDetectorTests.Series(new Random(0), 160, 0.01, (100, 1.15), (106, 1 / 1.15));
        var alert = Assert.Single(OnlineDetector.Replay(v));
        Assert.Equal(100, alert.Index);
        Assert.NotNull(alert.WithdrawnAt);
        Assert.True(alert.WithdrawnAt > alert.DetectedAt);
        Assert.Empty(ChangePointDetector.Detect(v));
    }

    [Fact]
    public void A_fix_is_a_second_alert_that_reverts_the_first()
    {
        var v = ChangePointDetectorTests.Series(new Random(4), 200, 0.01, (100, 1.2), (140, 1 / 1.2));
        var alerts = OnlineDetector.Replay(v);
        Assert.Equal(2, alerts.Count);
        var (regression, fix) = (alerts[0], alerts[1]);
        Assert.Equal(ChangeDirection.Regression, regression.Direction);
        Assert.Equal(ChangeDirection.Improvement, fix.Direction);
        Assert.True(ChangePoint.Reverts(regression.LevelBefore, regression.LevelAfter, fix.LevelBefore, fix.LevelAfter));
    }

    [Fact]
    public void The_state_survives_storage_and_feeding_point_by_point_equals_replay()
    {
        var v = ChangePointDetectorTests.Series(new Random(5), 300, 0.02, (90, 1.2), (200, 0.85));
        var replayed = OnlineDetector.Replay(v);

        var stored = OnlineDetectorStateCodec.Encode(OnlineDetectorState.Empty);
        var raised = new List<OnlineAlert>();
        var withdrawn = new List<OnlineAlert>();
        foreach (var value in v)
        {
            var state = OnlineDetectorStateCodec.Decode(stored); // as the service would, between points
            var update = OnlineDetector.Add(state, value);
            raised.AddRange(update.Raised);
            withdrawn.AddRange(update.Withdrawn);
            stored = OnlineDetectorStateCodec.Encode(update.State);
        }
        Assert.Equal(replayed.Count, raised.Count);
        Assert.Equal(replayed.Count(a => a.WithdrawnAt is not null), withdrawn.Count);
        for (var i = 0; i < raised.Count; i++)
        {
            Assert.Equal(replayed[i].Index, raised[i].Index);
            Assert.Equal(replayed[i].DetectedAt, raised[i].DetectedAt);
        }
        Assert.Equal(2, replayed.Count(a => a.WithdrawnAt is null));
    }

    [Fact]
    public void The_state_stays_bounded()
    {
        var v = ChangePointDetectorTests.Series(new Random(6), 800, 0.02, (700, 1.3));
        var state = OnlineDetectorState.Empty;
        foreach (var value in v) state = OnlineDetector.Add(state, value).State;
        Assert.Equal(800, state.Count);
        Assert.Equal(700, state.SettledBefore);
        Assert.True(state.Recent.Length <= ChangePointOptions.Default.History);
        Assert.True(state.Tracks.Length <= 5);
    }
}
