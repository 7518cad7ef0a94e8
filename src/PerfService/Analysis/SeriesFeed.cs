using PerfService.Core.ChangePoints;

namespace PerfService.Analysis;

/// <summary>
/// What the detector made of one series' new points: its new state, the alerts raised and withdrawn on the way, the
/// point a replay started from (null when the points arrived in commit order), and the points it read. Its
/// <see cref="Checkpoints"/> (at most two, oldest first) replace the stored ones when
/// <see cref="ReplacesCheckpoints"/>, else follow them (<see cref="Stored"/>).
/// </summary>
public sealed record Fed(
    OnlineDetectorState State,
    IReadOnlyList<DetectorCheckpoint> Checkpoints,
    bool ReplacesCheckpoints,
    List<OnlineAlert> Raised,
    List<OnlineAlert> Withdrawn,
    int? ReplayedFrom,
    SeriesWindow Points,
    bool Upgraded
)
{
    public bool InOrder => ReplayedFrom is null;

    /// <summary>The checkpoints the series keeps after this feed, given those it had before.</summary>
    public IReadOnlyList<DetectorCheckpoint> Stored(IReadOnlyList<DetectorCheckpoint> before) =>
        ReplacesCheckpoints ? Checkpoints : [.. before.Concat(Checkpoints).TakeLast(2)];
}

/// <summary>
/// Feeds one series' new points to the online detector. Pure (no I/O): the updater runs it for many series in parallel.
/// </summary>
public static class SeriesFeed
{
    // Fewer new points than this and starting a NoiseWindow (sorting the differences) costs more than it saves.
    private const int NoiseWindowFrom = 4;

    /// <summary>
    /// Feeds the points after <paramref name="state"/> when they all arrived in commit order. Otherwise the series is
    /// replayed: from the newest of its <paramref name="checkpoints"/> (oldest first; needed only for a replay) that
    /// every arriving point lies after, or from the start. Null when that replay needs points <paramref name="points"/>
    /// does not hold (read the series whole and feed again).
    /// </summary>
    /// <param name="lastFed">The result of the last point <paramref name="state"/> fed.</param>
    /// <param name="arriving">The results arriving now: the reads leave out runs not yet analysed, so any of these may
    /// lie before the last point fed.</param>
    /// <param name="window">A noise window that follows <paramref name="state"/> (<see cref="SeriesStateCache"/>), or a
    /// new one, to feed every point through; null: a thread's own window for several points, none for fewer.</param>
    public static Fed? Feed(
        OnlineDetectorState state,
        long lastFed,
        IReadOnlyList<DetectorCheckpoint> checkpoints,
        SeriesWindow points,
        IEnumerable<long> arriving,
        bool lowerIsBetter,
        NoiseWindow? window = null
    )
    {
        // A state another detector wrote is never fed on: the series replays once, from the start, with this one.
        var upgraded = !state.IsCurrent;
        int? replayedFrom = null;
        if (!InOrder(state.IsCurrent, state.Count, lastFed, points, arriving))
        {
            // Checkpoints after the late point saw a history without it: only those before it stay.
            var from = upgraded ? null : checkpoints.LastOrDefault(c => InOrder(c, points, arriving));
            var restored = from is null ? null : Restore(from);
            if (restored is null && !points.IsWhole)
                return null;
            state = restored ?? OnlineDetectorState.Empty;
            checkpoints = restored is null ? [] : checkpoints.Where(c => c.Count <= from!.Count).ToList();
            replayedFrom = state.Count;
        }
        else
            checkpoints = [];
        var options = ChangePointOptions.Default with { LowerIsBetter = lowerIsBetter };
        var raised = new List<OnlineAlert>();
        var withdrawn = new List<OnlineAlert>();
        // Several new points (a batch that caught up, a replay) carry the noise estimate from one to the next.
        window ??= points.Count - state.Count >= NoiseWindowFrom ? ThreadWindow() : null;
        for (var i = state.Count; i < points.Count; i++)
        {
            var update = OnlineDetector.Add(state, points[i].Value, options, window);
            state = update.State;
            if (DetectorCheckpoint.IsDue(state.Count))
                checkpoints = [.. checkpoints.TakeLast(1), DetectorCheckpoint.Take(state, points[i])];
            if (update.Raised.Count == 0 && update.Withdrawn.Count == 0)
                continue;
            raised.AddRange(update.Raised);
            withdrawn.AddRange(update.Withdrawn);
            raised.RemoveAll(r => update.Withdrawn.Any(w => w.Index == r.Index && w.DetectedAt == r.DetectedAt));
        }
        // In order, one new checkpoint follows the stored ones; two replace them.
        var replaces = replayedFrom is not null || checkpoints.Count > 1;
        return new Fed(state, checkpoints, replaces, raised, withdrawn, replayedFrom, points, upgraded);
    }

    // The updater feeds its series in parallel, each on one thread from start to end.
    [ThreadStatic]
    private static NoiseWindow? t_window;

    private static NoiseWindow ThreadWindow()
    {
        var window = t_window ??= new NoiseWindow();
        window.Restart();
        return window;
    }

    // A checkpoint whose state does not decode is no checkpoint: the replay starts from the first point.
    private static OnlineDetectorState? Restore(DetectorCheckpoint c)
    {
        try
        {
            return OnlineDetectorStateCodec.Decode(c.State);
        }
        catch (FormatException)
        {
            return null;
        }
    }

    /// <summary>Whether a replay can start from the checkpoint on these points (see the other overload).</summary>
    public static bool InOrder(DetectorCheckpoint c, SeriesWindow points, IEnumerable<long> arriving) =>
        c.IsCurrent && InOrder(true, c.Count, c.ResultId, points, arriving);

    // In order when the last point fed is still at the index the state counted up to, and every point arriving now
    // lies after it: one that arrived for an older commit would lie before it, or, when older than the rows read,
    // outside the window.
    public static bool InOrder(
        bool current,
        int count,
        long lastFed,
        SeriesWindow points,
        IEnumerable<long> arriving
    ) =>
        current
        && count <= points.Count
        && (count == 0 || (points.Holds(count - 1) && points[count - 1].ResultId == lastFed))
        && points.HoldsFrom(arriving, count);
}
