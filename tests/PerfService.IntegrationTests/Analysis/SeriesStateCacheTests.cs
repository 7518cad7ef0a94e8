using Microsoft.Extensions.Options;
using PerfService.Analysis;
using PerfService.Background;
using PerfService.Core.ChangePoints;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// A state kept in memory between analyses must decide exactly as its stored bytes would, and must never stand in for
/// bytes someone else wrote. Pure: no database; the stored bytes are what the updater writes.
/// </summary>
public class SeriesStateCacheTests
{
    // 420 commits (past the 200 kept values, so the window drops as it adds): 3 % noise, outliers both ways, a +25 %
    // step at 150 and a −20 % one at 330.
    private static readonly SeriesPoint[] Series = HourlySeries.Of(420, Value, firstRun: 5000);

    private static double Value(int i)
    {
        var random = new Random(i);
        var level =
            i < 150 ? 1000
            : i < 330 ? 1250
            : 1000;
        var outlier =
            i % 37 == 0 ? 1.6
            : i % 53 == 0 ? 0.7
            : 1;
        return level * outlier * (1 + 0.06 * (random.NextDouble() - 0.5));
    }

    private static SeriesStateCache Cache(int series) =>
        new(Options.Create(new BackgroundOptions { AnalysisCachedSeries = series }));

    /// <summary>Feeds the commits in <paramref name="order"/> one run at a time, storing the state as bytes after each
    /// feed, as the updater does; through <paramref name="cache"/> when given, else decoding every time.</summary>
    private static (List<byte[]> Stored, List<OnlineAlert> Alerts) Feed(IEnumerable<int> order, SeriesStateCache? cache)
    {
        const long row = 7;
        var arrived = new SortedSet<int>();
        byte[] stored = [];
        IReadOnlyList<DetectorCheckpoint> checkpoints = [];
        long lastFed = 0;
        var (states, alerts) = (new List<byte[]>(), new List<OnlineAlert>());
        foreach (var i in order)
        {
            arrived.Add(i);
            var (state, window) = cache?.Take(row, stored) ?? (OnlineDetectorStateCodec.Decode(stored), null);
            var fed = SeriesFeed.Feed(
                state,
                lastFed,
                checkpoints,
                SeriesWindow.Whole(arrived.Select(a => Series[a]).ToList()),
                [Series[i].ResultId],
                lowerIsBetter: true,
                window
            )!;
            stored = OnlineDetectorStateCodec.Encode(fed.State);
            if (window is not null)
                cache!.Put(row, stored, fed.State, window);
            (checkpoints, lastFed) = (fed.Stored(checkpoints), fed.Points.Last.ResultId);
            states.Add(stored);
            alerts.AddRange(fed.Raised.Concat(fed.Withdrawn));
        }
        return (states, alerts);
    }

    [Fact]
    public void A_series_fed_through_kept_states_decides_exactly_as_one_decoded_from_its_bytes_every_time()
    {
        // In commit order, then with late points that make the series replay from a checkpoint and from the start.
        int[][] orders =
        [
            [.. Enumerable.Range(0, 420)],
            [.. Enumerable.Range(0, 420).Where(i => i is not (100 or 101 or 300)).Append(300).Append(100).Append(101)],
        ];
        foreach (var order in orders)
        {
            var decoded = Feed(order, cache: null);
            var kept = Feed(order, Cache(8192));
            Assert.Equal(decoded.Stored, kept.Stored);
            Assert.Equal(decoded.Alerts, kept.Alerts);
            Assert.Contains(decoded.Alerts, a => a.Direction == ChangeDirection.Regression);
        }
    }

    [Fact]
    public void Bytes_another_process_wrote_are_decoded_not_answered_from_memory()
    {
        var cache = Cache(8192);
        var (mine, window) = Feed1(cache, OnlineDetectorState.Empty, 40);
        var theirs = OnlineDetectorStateCodec.Encode(Feed1(Cache(0), OnlineDetectorState.Empty, 41).State);

        var (state, next) = cache.Take(7, theirs);

        Assert.Equal(theirs, OnlineDetectorStateCodec.Encode(state));
        Assert.NotSame(mine, state);
        Assert.NotSame(window, next);
        Assert.Equal(0, cache.Count);
    }

    [Fact]
    public void The_same_bytes_give_back_the_kept_state_and_its_window_once()
    {
        var cache = Cache(8192);
        var (state, window) = Feed1(cache, OnlineDetectorState.Empty, 40);
        var stored = OnlineDetectorStateCodec.Encode(state);

        var (taken, follows) = cache.Take(7, [.. stored]);
        // Taken out while its series is fed: a second take of the same bytes decodes them.
        var (again, other) = cache.Take(7, stored);

        Assert.Same(state, taken);
        Assert.Same(window, follows);
        Assert.NotSame(state, again);
        Assert.NotSame(window, other);
        Assert.Equal(stored, OnlineDetectorStateCodec.Encode(again));
    }

    [Fact]
    public void It_keeps_a_copy_of_the_bytes_written_in_buffers_it_uses_again()
    {
        var cache = Cache(8192);
        var state = OnlineDetectorState.Empty;
        var (_, window) = cache.Take(7, []);
        for (var i = 0; i < 60; i++)
        {
            state = OnlineDetector.Add(state, Series[i].Value, window: window).State;
            var written = OnlineDetectorStateCodec.Encode(state);
            cache.Put(7, written, state, window!);
            var stored = written.ToArray();
            // What the writer does with its array afterwards changes nothing kept.
            Array.Clear(written);
            var (taken, follows) = cache.Take(7, stored);
            Assert.Same(state, taken);
            Assert.Same(window, follows);
        }
        // A buffer given back and used again for shorter bytes holds just those.
        var early = Feed1(Cache(0), OnlineDetectorState.Empty, 10).State;
        var (shorter, longer) = (OnlineDetectorStateCodec.Encode(early), OnlineDetectorStateCodec.Encode(state));
        Assert.True(shorter.Length < longer.Length);
        cache.Put(7, longer, state, window!);
        cache.Take(7, longer);
        cache.Put(7, shorter, early, new NoiseWindow());
        Assert.Same(early, cache.Take(7, shorter).State);
    }

    [Fact]
    public void Past_its_capacity_it_drops_series_and_a_dropped_one_is_decoded()
    {
        var cache = Cache(16);
        var stored = new byte[40][];
        for (var id = 0; id < 40; id++)
        {
            var (state, window) = Feed1(Cache(1), OnlineDetectorState.Empty, 20 + id);
            stored[id] = OnlineDetectorStateCodec.Encode(state);
            cache.Put(id, stored[id], state, window!);
        }
        Assert.InRange(cache.Count, 1, 16);
        for (var id = 0; id < 40; id++)
            Assert.Equal(stored[id], OnlineDetectorStateCodec.Encode(cache.Take(id, stored[id]).State));
        Assert.Equal(0, cache.Count);
    }

    [Fact]
    public void With_no_capacity_nothing_is_kept_and_no_window_is_made()
    {
        var cache = Cache(0);
        var (state, window) = Feed1(cache, OnlineDetectorState.Empty, 40);
        Assert.Null(window);
        Assert.Equal(0, cache.Count);
        Assert.NotSame(state, cache.Take(7, OnlineDetectorStateCodec.Encode(state)).State);
    }

    // The first `points` values fed to a state through a window the cache gives, and kept in it as row 7.
    private static (OnlineDetectorState State, NoiseWindow? Window) Feed1(
        SeriesStateCache cache,
        OnlineDetectorState state,
        int points
    )
    {
        var (_, window) = cache.Take(7, []);
        for (var i = 0; i < points; i++)
            state = OnlineDetector.Add(state, Series[i].Value, window: window).State;
        if (window is not null)
            cache.Put(7, OnlineDetectorStateCodec.Encode(state), state, window);
        return (state, window);
    }
}
