namespace PerfService.Core.ChangePoints;

/// <summary>
/// The detector as the service runs it: after every new point, re-run the step scan over the recent, unsettled part
/// of the series and apply a stability rule, because change points found on a short history flicker.
/// Raise: a change point (same direction, within ±Jitter points) found in <see cref="ChangePointOptions.Persist"/>
/// consecutive re-runs, with at least <see cref="ChangePointOptions.MinAfter"/> points after it, beyond
/// <see cref="ChangePointOptions.ZThreshold"/> and the minimum effect relative to noise.
/// Withdraw: an alerted change point that vanished, i.e. is no longer found by the scan and whose step, tested at its
/// own index, has fallen below 60% of the alerting bar, in <see cref="ChangePointOptions.WithdrawAfter"/> consecutive
/// re-runs while it is still under watch (the hysteresis keeps borderline real changes from being withdrawn and
/// raised again).
/// Settle: once a change point has a full window after it plus a margin, its statistic no longer changes; it leaves
/// the watch list and, if alerted, becomes the left boundary for later windows. Only the last
/// <see cref="ChangePointOptions.History"/> points are kept, so an update costs the same at point 500 or 50,000:
/// a noise estimate over the kept points and a scan of about W + margin positions with sliding windows.
/// </summary>
public static class OnlineDetector
{
    /// <summary>The detector's version, stored with every state (1 was the single-scale detector).</summary>
    public const byte Version = 2;

    /// <param name="window">Carried from one update of the series to its next, it makes the noise estimate
    /// incremental (<see cref="NoiseWindow"/>); the result is the same without it. The states it makes share its
    /// buffers: keep only the newest of them.</param>
    public static OnlineUpdate Add(
        OnlineDetectorState state,
        double value,
        ChangePointOptions? options = null,
        NoiseWindow? window = null
    )
    {
        if (!double.IsFinite(value))
            throw new ArgumentException($"value {value} is not finite; feed only successful runs", nameof(value));
        var o = options ?? ChangePointOptions.Default;
        var n = state.Count + 1;
        var keep = Math.Min(n, Math.Max(o.History, 2 * o.Window + o.SettleMargin + o.MinBefore));
        var prev = state.Recent;
        var recent = window?.NextRecent(prev, keep) ?? new double[keep];
        var copy = Math.Min(prev.Length, keep - 1);
        Array.Copy(prev, prev.Length - copy, recent, 0, copy);
        recent[keep - 1] = value;
        var offset = n - keep;

        ReadOnlySpan<double> y;
        SeriesNoise noise;
        if (window is not null)
        {
            y = window.Advance(prev, recent);
            noise = window.Noise;
        }
        else
        {
            var logs = new double[keep];
            for (var i = 0; i < keep; i++)
                logs[i] = StepScanner.Log(recent[i]);
            y = logs;
            noise = SeriesNoise.Estimate(y);
        }
        // Settle what can no longer change: alerted change points become final (and bound later windows),
        // unconfirmed candidates are forgotten.
        var watchFrom = n - o.Window - o.SettleMargin;
        var settled = state.SettledBefore;
        var tracks = new List<OnlineTrack>(state.Tracks.Length);
        foreach (var track in state.Tracks)
        {
            if (track.Index >= watchFrom)
                tracks.Add(track);
            else if (track.Alert is not null)
                settled = Math.Max(settled, track.Index);
        }
        var lo = Math.Max(0, settled - offset);
        var from = Math.Max(lo + o.MinBefore, watchFrom - offset);
        // Nothing under watch and nothing near the bar: the scan would find nothing, so skip it.
        var steps =
            tracks.Count == 0 && o.SkipQuietRescans && !QuietScreen.MayFind(y, from, keep - o.MinAfter, lo, noise, o)
                ? []
                : StepScanner.Scan(y, from, keep - o.MinAfter, lo, noise, o);

        // Most updates of most series watch nothing and find nothing: they need none of the matching's arrays and lists
        // (a tenth of what an analysis allocated, and the collector's share of its CPU grows with that).
        if (tracks.Count == 0 && steps.Count == 0)
            return new OnlineUpdate(
                new OnlineDetectorState
                {
                    Count = n,
                    Recent = recent,
                    SettledBefore = settled,
                },
                [],
                []
            );

        // Match this re-run's change points to the tracks of previous re-runs: nearest first, same direction.
        var stepOf = new int[tracks.Count];
        Array.Fill(stepOf, -1);
        var taken = new bool[steps.Count];
        var pairs = new List<(int Distance, int Track, int Step)>();
        for (var t = 0; t < tracks.Count; t++)
        for (var s = 0; s < steps.Count; s++)
        {
            var distance = Math.Abs(steps[s].Index + offset - tracks[t].Index);
            if (distance <= o.Jitter && DirectionOf(steps[s], o) == tracks[t].Direction)
                pairs.Add((distance, t, s));
        }
        pairs.Sort();
        foreach (var (_, t, s) in pairs)
            if (stepOf[t] < 0 && !taken[s])
            {
                stepOf[t] = s;
                taken[s] = true;
            }

        var next = new List<OnlineTrack>(tracks.Count + steps.Count);
        var raised = new List<OnlineAlert>();
        var withdrawn = new List<OnlineAlert>();
        for (var t = 0; t < tracks.Count; t++)
        {
            var track = tracks[t];
            if (stepOf[t] >= 0)
                next.Add(
                    Seen(
                        track with
                        {
                            Index = steps[stepOf[t]].Index + offset,
                            Hits = track.Hits + 1,
                            Misses = 0,
                        },
                        steps[stepOf[t]],
                        offset,
                        n,
                        o,
                        raised
                    )
                );
            else if (track.Alert is { } alert)
            {
                if (StillThere(y, track, offset, lo, noise, o))
                    next.Add(track with { Misses = 0 });
                else if (track.Misses + 1 >= o.WithdrawAfter)
                    withdrawn.Add(alert with { WithdrawnAt = n - 1 });
                else
                    next.Add(track with { Hits = 0, Misses = track.Misses + 1 });
            }
            // An unconfirmed candidate that is missing once is forgotten: confirmation needs consecutive re-runs.
        }
        for (var s = 0; s < steps.Count; s++)
            if (!taken[s])
                next.Add(
                    Seen(
                        new OnlineTrack(steps[s].Index + offset, DirectionOf(steps[s], o), 1, 0, null),
                        steps[s],
                        offset,
                        n,
                        o,
                        raised
                    )
                );

        next.Sort((a, b) => a.Index.CompareTo(b.Index));
        var newState = new OnlineDetectorState
        {
            Count = n,
            Recent = recent,
            SettledBefore = settled,
            Tracks = next.ToArray(),
        };
        return new OnlineUpdate(newState, raised, withdrawn);
    }

    /// <summary>
    /// Feeds the values one by one, as the service would, and returns every alert raised (in order of raising),
    /// with <see cref="OnlineAlert.WithdrawnAt"/> set on those later withdrawn.
    /// </summary>
    public static IReadOnlyList<OnlineAlert> Replay(IReadOnlyList<double> values, ChangePointOptions? options = null)
    {
        var state = OnlineDetectorState.Empty;
        var window = new NoiseWindow();
        var alerts = new List<OnlineAlert>();
        var position = new Dictionary<(int, int), int>();
        for (var i = 0; i < values.Count; i++)
        {
            var update = Add(state, values[i], options, window);
            state = update.State;
            foreach (var a in update.Raised)
            {
                position[(a.Index, a.DetectedAt)] = alerts.Count;
                alerts.Add(a);
            }
            foreach (var w in update.Withdrawn)
                alerts[position[(w.Index, w.DetectedAt)]] = w;
        }
        return alerts;
    }

    // Hysteresis: an alerted change point that is no longer a peak of the scan (a neighbour may have taken over the
    // peak, or the statistic dipped just under the bar) is kept while the step at its index is still clearly there,
    // at least HoldFraction of the alerting bar in the same direction. Without it, borderline real changes are
    // withdrawn and raised again, which users experience as noise.
    private const double HoldFraction = 0.6;

    private static bool StillThere(
        ReadOnlySpan<double> y,
        OnlineTrack track,
        int offset,
        int lo,
        SeriesNoise noise,
        ChangePointOptions o
    )
    {
        var tau = track.Index - offset;
        if (tau - lo < o.MinBefore || tau >= y.Length)
            return false;
        var s = StepScanner.Evaluate(y, tau, lo, y.Length, noise, o, stackalloc double[o.Window]);
        return DirectionOf(s, o) == track.Direction
            && Math.Abs(s.Z) >= HoldFraction * o.ZThreshold
            && Math.Abs(s.Delta) >= HoldFraction * Math.Log(1 + o.MinEffect);
    }

    private static OnlineTrack Seen(
        OnlineTrack track,
        in Step step,
        int offset,
        int n,
        ChangePointOptions o,
        List<OnlineAlert> raised
    )
    {
        if (track.Alert is not null || track.Hits < RunsToConfirm(step, o))
            return track;
        var cp = ChangePointDetector.ToChangePoint(step, offset, o);
        var alert = new OnlineAlert(cp.Index, cp.Direction, cp.Magnitude, cp.LevelBefore, cp.LevelAfter, n - 1);
        raised.Add(alert);
        return track with { Alert = alert };
    }

    // Confirmation scales with the evidence: one re-run for the fast path (a few points, each far beyond the old
    // level: the scan only reports those), two for a step well beyond the bar, else Persist.
    private static int RunsToConfirm(in Step step, ChangePointOptions o)
    {
        var a = Math.Abs(step.Z);
        if (a >= o.FastZThreshold && StepScanner.IsYoung(step))
            return 1;
        return a >= o.TwoRunsZThreshold ? Math.Min(2, o.Persist) : o.Persist;
    }

    private static ChangeDirection DirectionOf(in Step s, ChangePointOptions o) =>
        s.Delta > 0 == o.LowerIsBetter ? ChangeDirection.Regression : ChangeDirection.Improvement;
}
