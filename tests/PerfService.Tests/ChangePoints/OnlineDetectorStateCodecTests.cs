using PerfService.Core.ChangePoints;

namespace PerfService.Tests.ChangePoints;

/// <summary>The stored form of the detector state: exact, compact, and a clear error for bytes that are not a state.</summary>
public class OnlineDetectorStateCodecTests
{
    private static OnlineDetectorState Fed(int seed, int points, params (int At, double Factor)[] steps)
    {
        var state = OnlineDetectorState.Empty;
        foreach (var v in ChangePointDetectorTests.Series(new Random(seed), points, 0.02, steps)) state = OnlineDetector.Add(state, v).State;
        return state;
    }

    private static void AssertSame(OnlineDetectorState expected, OnlineDetectorState actual)
    {
        Assert.Equal((expected.Count, expected.SettledBefore, expected.DetectorVersion), (actual.Count, actual.SettledBefore, actual.DetectorVersion));
        // Bit for bit: a value that came back rounded would move every later noise estimate and step statistic.
        Assert.Equal(expected.Recent.Select(BitConverter.DoubleToInt64Bits), actual.Recent.Select(BitConverter.DoubleToInt64Bits));
        Assert.Equal(expected.Tracks, actual.Tracks);
    }

    [Fact]
    public void A_state_with_alerted_and_candidate_tracks_comes_back_exactly()
    {
        var state = Fed(11, 260, (200, 1.4), (240, 0.7));
        Assert.Contains(state.Tracks, t => t.Alert is not null);
        var bytes = OnlineDetectorStateCodec.Encode(state);
        AssertSame(state, OnlineDetectorStateCodec.Decode(bytes));
        // 200 values of 8 bytes and a few tracks: well under PostgreSQL's 2 KB out-of-line (TOAST) threshold.
        Assert.InRange(bytes.Length, 8 * state.Recent.Length, 8 * state.Recent.Length + 400);
    }

    [Fact]
    public void Withdrawn_alerts_odd_values_and_the_empty_state_come_back_exactly()
    {
        var alert = new OnlineAlert(41, ChangeDirection.Improvement, -0.125, 1e-300, double.Epsilon, 47) { WithdrawnAt = 52 };
        var state = new OnlineDetectorState
        {
            Count = 53, SettledBefore = 7, Recent = [1e-12, 0.1 + 0.2, 1.7976931348623157e308, 123456.789],
            Tracks = [new OnlineTrack(41, ChangeDirection.Improvement, 4, 1, alert), new OnlineTrack(50, ChangeDirection.Regression, 1, 0, null)],
        };
        AssertSame(state, OnlineDetectorStateCodec.Decode(OnlineDetectorStateCodec.Encode(state)));
        AssertSame(OnlineDetectorState.Empty, OnlineDetectorStateCodec.Decode(OnlineDetectorStateCodec.Encode(OnlineDetectorState.Empty)));
        AssertSame(OnlineDetectorState.Empty, OnlineDetectorStateCodec.Decode([]));
    }

    [Fact]
    public void Bytes_that_are_not_a_state_are_refused_with_where()
    {
        var bytes = OnlineDetectorStateCodec.Encode(Fed(12, 120, (80, 1.3)));
        Assert.Contains("truncated", Assert.Throws<FormatException>(() => OnlineDetectorStateCodec.Decode(bytes.AsSpan(0, bytes.Length - 3))).Message);
        Assert.Contains("left over", Assert.Throws<FormatException>(() => OnlineDetectorStateCodec.Decode([.. bytes, 0])).Message);
        Assert.Contains("version 3", Assert.Throws<FormatException>(() => OnlineDetectorStateCodec.Decode([3, .. bytes[1..]])).Message);
        Assert.Contains("version 0", Assert.Throws<FormatException>(() => OnlineDetectorStateCodec.Decode([0, .. bytes[1..]])).Message);
        // A corrupt count is caught before it allocates.
        var huge = bytes.ToArray();
        huge[9] = 0x7f;
        Assert.Contains("exceed", Assert.Throws<FormatException>(() => OnlineDetectorStateCodec.Decode(huge)).Message);
    }

    [Fact]
    public void A_state_the_first_detector_wrote_comes_back_marked_as_its()
    {
        var state = Fed(13, 150, (100, 1.3));
        Assert.True(state.IsCurrent);
        var first = state with { DetectorVersion = 1 };
        var bytes = OnlineDetectorStateCodec.Encode(first);
        Assert.Equal(1, bytes[0]);
        var back = OnlineDetectorStateCodec.Decode(bytes);
        AssertSame(first, back);
        Assert.False(back.IsCurrent);
        Assert.Equal(OnlineDetector.Version, OnlineDetectorStateCodec.Encode(state)[0]);
    }
}
