namespace PerfService.Core.Pacing;

/// <summary>How analysis yields to ingest: above <paramref name="IngestTarget"/> (the slow end of recent uploads), it
/// pauses between batches, from <paramref name="Step"/> doubling up to <paramref name="MaxPause"/>; at least
/// <paramref name="MinUploads"/> uploads must have been seen, so one slow upload on a quiet service does not
/// count. It yields only while it keeps pace: a batch of <paramref name="BehindRuns"/> runs or more means that many
/// were waiting, and the next batch follows at once, on every thread (0: yield however many wait).</summary>
public sealed record PaceOptions(
    TimeSpan IngestTarget,
    TimeSpan Step,
    TimeSpan MaxPause,
    int MinUploads = 5,
    int BehindRuns = 0
)
{
    /// <summary>The share of recent uploads whose time is compared with the target (their 90th percentile).</summary>
    public const double Quantile = 0.9;
}

/// <summary>The pause before the next analysis batch, and whether ingest was under pressure when it was
/// decided.</summary>
public readonly record struct Pace(TimeSpan Pause, bool Yielding)
{
    public static readonly Pace Free = new(TimeSpan.Zero, false);
}

/// <summary>
/// Decides how long analysis waits before its next batch from how long recent uploads took. Analysis that is behind
/// wants every core, and so do uploads: on a small machine, an analysis batch running beside a burst of uploads
/// stretched their times (ingest p99 over 500 ms on 2 cores). Uploads come first while analysis keeps pace: while their
/// slow end is above the target, the pause doubles each batch (additive analysis, multiplicative back-off, as TCP does with a congested
/// link), and it halves again once they are fast, so a backlog still drains, only later. The pause is bounded, so
/// analysis never stops, and zero when no upload was seen: a service with nothing to ingest analyses at full speed.
/// </summary>
public static class AnalysisPace
{
    /// <param name="lastBatchRuns">Runs the batch before took: as many as were waiting, up to the batch size.</param>
    public static Pace Next(
        Pace previous,
        IReadOnlyList<TimeSpan> recentUploads,
        PaceOptions options,
        int lastBatchRuns = 0
    )
    {
        if (options.IngestTarget <= TimeSpan.Zero)
            return Pace.Free;
        // Pausing while runs pile up only moves the same work later and lets the backlog grow with the load (seen: a
        // quarter of a minute's runs still waiting when a 50-agent load stopped); analysis is cheap next to ingest, so
        // it yields while it is caught up and keeps pace otherwise.
        if (Behind(options, lastBatchRuns))
            return Pace.Free;
        if (recentUploads.Count >= options.MinUploads && SlowEnd(recentUploads) > options.IngestTarget)
        {
            var pause = previous.Pause <= TimeSpan.Zero ? options.Step : previous.Pause * 2;
            return new Pace(pause > options.MaxPause ? options.MaxPause : pause, true);
        }
        var eased = previous.Pause / 2;
        return eased < options.Step ? Pace.Free : new Pace(eased, false);
    }

    /// <summary>Whether the last batch took <see cref="PaceOptions.BehindRuns"/> runs or more: that many were
    /// waiting, so analysis is behind and does not yield.</summary>
    public static bool Behind(PaceOptions options, int lastBatchRuns) =>
        options.BehindRuns > 0 && lastBatchRuns >= options.BehindRuns;

    /// <summary>The <see cref="PaceOptions.Quantile"/> of the upload times (nearest rank).</summary>
    public static TimeSpan SlowEnd(IReadOnlyList<TimeSpan> uploads)
    {
        var sorted = uploads.Order().ToArray();
        return sorted[Math.Clamp((int)Math.Ceiling(PaceOptions.Quantile * sorted.Length) - 1, 0, sorted.Length - 1)];
    }
}
