using System.Diagnostics;
using System.Globalization;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.AgentJobs;
using PerfService.Alerts;
using PerfService.Background;
using PerfService.Bisection;
using PerfService.Core.ChangePoints;
using PerfService.Data;
using PerfService.Data.Entities;
using static PerfService.Core.Contracts.CommitId;

namespace PerfService.Analysis;

/// <summary>
/// Feeds a main-branch series' new points to the online change-point detector and turns what it decides into alerts:
/// a stable change point opens one (attributed to the commit range it lies in), a vanished one is withdrawn (marked
/// invalid with the reason), and a change that returns the series to its old level closes the earlier alert as fixed.
/// A point that arrives out of commit order makes the series replay from the last checkpoint before it (or from the
/// start), and the alerts are reconciled: an alert whose range holds the replayed change point is narrowed in place. With bisection on, every open alert
/// whose range still holds untested commits gets its next bisection job.
/// </summary>
public sealed partial class ChangePointUpdater(
    PerfDbContext db,
    SeriesReader reader,
    AlertService alerts,
    Bisector bisector,
    IOptions<BackgroundOptions> options,
    AnalysisYield yielding,
    SeriesStateCache cache,
    Profiling.ProfilingJobs profiling,
    ILogger<ChangePointUpdater> logger
)
{
    /// <summary>A series of one update. Its <see cref="Name"/> (benchmark key and measure), which names it in logs and
    /// alerts (<see cref="Label"/>), is read only for the series that raise, replay or upgrade
    /// (<see cref="SeriesNames"/>).</summary>
    public sealed record SeriesId(
        long ProjectId,
        long BenchmarkId,
        long MeasureId,
        long ProfileId,
        long BranchId,
        bool LowerIsBetter,
        string Profile
    )
    {
        public string? Name { get; init; }

        public string Label =>
            $"{Name ?? throw new InvalidOperationException("the series' name was not read")} on {Profile}";
    }

    /// <summary>A point an analysis brings to its series: the result of a run analysed for the first time.</summary>
    public readonly record struct Arrival(long BenchmarkId, long MeasureId, long RunId, long ResultId);

    // Rows read before a series' new ones: the last point fed places the window and shows the series in order; a few
    // more keep it in reach when rows of the same commit that the reads leave out (a mismatched or unanalysed run) sort
    // after it. An alert raised or withdrawn lies up to Window + SettleMargin (40) points back: those rare updates read
    // their series whole (ApplyAsync), which costs less than reading 64 points of every series on every update, as
    // before (a batch touching 1,000 series: 64,000 rows).
    private const int TailMargin = 4;

    /// <summary>Wall time this updater's detector runs took (fed in parallel), over every update it made.</summary>
    public TimeSpan DetectorTime { get; private set; }

    /// <summary>
    /// Updates the series of one project, profile and branch inside the caller's transaction, set-based: one statement
    /// creates the missing states, one locks them all, one reads every fed series' new points (and the last one fed);
    /// for series with a late point, one reads their checkpoints and one their points from the older checkpoint on;
    /// one reads every new series (and each late one without a usable checkpoint) whole, one (rarely) every series
    /// whose alerts reach further back than that, and one writes all states back; the open alerts of the series are
    /// read in one query, only when a series raises, withdraws or replays. Several runs of a series in one batch cost one update:
    /// the window holds all their points. <paramref name="arriving"/> are the points of the runs analysed now for the
    /// first time (the reads leave out other runs not yet analysed): one that lies before the last point fed arrived
    /// out of commit order and makes its series replay. Returns whether a bisection job was queued (notify after the
    /// commit).
    /// Under load, per-series round trips (a whole-series read per late series, an alert query per replay, one UPDATE
    /// per state) made analysis the bottleneck. A state this process wrote last, and whose stored bytes are unchanged,
    /// is taken from memory with its noise window (<see cref="SeriesStateCache"/>) instead of decoded.
    /// </summary>
    public async Task<bool> UpdateInTransactionAsync(
        IReadOnlyList<SeriesId> ids,
        IReadOnlyList<Arrival> arriving,
        CancellationToken ct
    )
    {
        if (ids.Count == 0)
            return false;
        var (projectId, profileId, branchId) = (ids[0].ProjectId, ids[0].ProfileId, ids[0].BranchId);
        if (ids.Any(i => i.ProjectId != projectId || i.ProfileId != profileId || i.BranchId != branchId))
            throw new ArgumentException("the series of one update must share project, profile and branch", nameof(ids));
        // Locks are taken in (benchmark, measure) order, so two analyses updating overlapping series never deadlock.
        var keys = ids.DistinctBy(i => (i.BenchmarkId, i.MeasureId))
            .OrderBy(i => i.BenchmarkId)
            .ThenBy(i => i.MeasureId)
            .ToList();
        var benchmarkIds = keys.Select(i => i.BenchmarkId).ToArray();
        var measureIds = keys.Select(i => i.MeasureId).ToArray();
        var including = arriving.Select(a => a.RunId).Distinct().ToArray();
        var arrivals = arriving.ToLookup(a => (a.BenchmarkId, a.MeasureId), a => a.ResultId);

        await db.Database.ExecuteSqlAsync(
            $"""
            INSERT INTO series_states (benchmark_id, measure_id, profile_id, branch_id, state, last_series_at, last_result_id, updated_at)
            SELECT k.b, k.m, {profileId}, {branchId}, ''::bytea, '-infinity', 0, now()
            FROM unnest({benchmarkIds}, {measureIds}) AS k(b, m)
            ORDER BY k.b, k.m
            ON CONFLICT (benchmark_id, measure_id, profile_id, branch_id) DO NOTHING
            """,
            ct
        );
        // One updater per series at a time: the row locks serialise concurrent analyses of the same series. Not
        // tracked: the states are written back in one statement below.
        var rows = (
            await db
                .Database.SqlQuery<LockedState>(
                    $"""
                    SELECT s.id, s.benchmark_id, s.measure_id, s.state, s.last_series_at, s.last_result_id
                    FROM series_states s
                    JOIN unnest({benchmarkIds}, {measureIds}) AS k(b, m) ON s.benchmark_id = k.b AND s.measure_id = k.m
                    WHERE s.profile_id = {profileId} AND s.branch_id = {branchId}
                    ORDER BY s.benchmark_id, s.measure_id
                    FOR UPDATE OF s
                    """
                )
                .ToListAsync(ct)
        ).ToDictionary(
            r => (r.BenchmarkId, r.MeasureId),
            r => new SeriesState
            {
                Id = r.Id,
                BenchmarkId = r.BenchmarkId,
                MeasureId = r.MeasureId,
                ProfileId = profileId,
                BranchId = branchId,
                State = r.State,
                LastSeriesAt = r.LastSeriesAt,
                LastResultId = r.LastResultId,
            }
        );
        var project = await db.Projects.AsNoTracking().FirstAsync(p => p.Id == projectId, ct);
        // Series already fed read only their tail; new ones (and every series of a bisecting project, whose alert
        // ranges may lie anywhere) are read whole.
        var fed = keys.Where(k => rows[(k.BenchmarkId, k.MeasureId)].LastResultId != 0 && !project.Bisect).ToList();
        var tails = await reader.ReadTailsAsync(
            fed.Select(k => rows[(k.BenchmarkId, k.MeasureId)]).ToList(),
            TailMargin,
            including,
            ct,
            project.IncludeProfileMismatch,
            [.. fed.Select(k => arrivals[(k.BenchmarkId, k.MeasureId)].Count())]
        );
        var threads = yielding.Threads(options.Value.AnalysisThreadCount, options.Value.AnalysisThreadCountBehind);
        var taken = keys.ToDictionary(
            k => (k.BenchmarkId, k.MeasureId),
            k => TakeState(rows[(k.BenchmarkId, k.MeasureId)])
        );
        var states = taken.ToDictionary(t => t.Key, t => t.Value.State);
        var windows = new Dictionary<(long, long), SeriesWindow>();
        foreach (var key in fed.Select(k => (k.BenchmarkId, k.MeasureId)))
            if (
                SeriesWindow.Tail(tails[key], states[key].Count, rows[key].LastResultId) is { } tail
                && SeriesFeed.InOrder(
                    states[key].IsCurrent,
                    states[key].Count,
                    rows[key].LastResultId,
                    tail,
                    arrivals[key]
                )
            )
                windows[key] = tail;
        // A series with a point that arrived out of commit order replays from a checkpoint before that point (read from
        // its oldest checkpoint on) or, without one, from the start: read those whole in the same query as new ones.
        // A bisecting project's series are all read whole (no tail read told which are late): theirs are read below.
        var late = keys.Select(k => (k.BenchmarkId, k.MeasureId))
            .Where(k => !project.Bisect && !windows.ContainsKey(k) && rows[k].LastResultId != 0 && states[k].IsCurrent)
            .ToList();
        var checkpoints = await ReadCheckpointsAsync(late.Select(k => rows[k]).ToList(), ct);
        foreach (var (key, tail) in await ReadFromCheckpointsAsync(checkpoints, rows, including, project, ct))
            if (checkpoints[key].Any(c => SeriesFeed.InOrder(c, tail, arrivals[key])))
                windows[key] = tail;
        var rest = keys.Where(k => !windows.ContainsKey((k.BenchmarkId, k.MeasureId))).ToList();
        var whole = await reader.ReadManyAsync(
            rest.Select(k => k.BenchmarkId).ToArray(),
            rest.Select(k => k.MeasureId).ToArray(),
            profileId,
            branchId,
            including,
            ct,
            project.IncludeProfileMismatch
        );

        // The detector is pure CPU and most of an analysis' time: feed every series on its own core, then apply what it
        // decided (alerts, bisection) one series after another on this context.
        var window = keys.Select(k =>
                windows.GetValueOrDefault((k.BenchmarkId, k.MeasureId))
                ?? SeriesWindow.Whole(whole.GetValueOrDefault((k.BenchmarkId, k.MeasureId)) ?? [])
            )
            .ToArray();
        if (project.Bisect)
            checkpoints = await ReadCheckpointsAsync(
                Enumerable
                    .Range(0, keys.Count)
                    .Select(i => (Row: rows[(keys[i].BenchmarkId, keys[i].MeasureId)], Window: window[i], Key: keys[i]))
                    .Where(s =>
                        s.Row.LastResultId != 0
                        && !SeriesFeed.InOrder(
                            states[(s.Key.BenchmarkId, s.Key.MeasureId)].IsCurrent,
                            states[(s.Key.BenchmarkId, s.Key.MeasureId)].Count,
                            s.Row.LastResultId,
                            s.Window,
                            arrivals[(s.Key.BenchmarkId, s.Key.MeasureId)]
                        )
                    )
                    .Select(s => s.Row)
                    .ToList(),
                ct
            );
        var decided = new Fed?[keys.Count];
        var feeding = Stopwatch.GetTimestamp();
        Parallel.For(
            0,
            keys.Count,
            new ParallelOptions { MaxDegreeOfParallelism = threads, CancellationToken = ct },
            i =>
            {
                var key = (keys[i].BenchmarkId, keys[i].MeasureId);
                decided[i] = Feed(
                    keys[i],
                    rows[key],
                    states[key],
                    checkpoints,
                    window[i],
                    arrivals[key],
                    taken[key].Window
                );
            }
        );
        DetectorTime += Stopwatch.GetElapsedTime(feeding);
        // An alert raised or withdrawn names the commits around its point, up to 40 points back: beyond the few rows
        // a tail read holds. Read those (few) series whole, together.
        var reach = Enumerable
            .Range(0, keys.Count)
            .Where(i =>
                decided[i] is { } d
                && (
                    d.Raised.Concat(d.Withdrawn).Any(a => !d.Points.Holds(a.Index - 1))
                    // Narrowing after a replay looks for the open alerts' commits.
                    || (d is { InOrder: false, Raised.Count: > 0 } && !d.Points.IsWhole)
                )
            )
            .ToList();
        var reread = await reader.ReadManyAsync(
            reach.Select(i => keys[i].BenchmarkId).ToArray(),
            reach.Select(i => keys[i].MeasureId).ToArray(),
            profileId,
            branchId,
            including,
            ct,
            project.IncludeProfileMismatch
        );
        foreach (var i in reach)
            decided[i] = decided[i]! with
            {
                Points = SeriesWindow.Whole(reread.GetValueOrDefault((keys[i].BenchmarkId, keys[i].MeasureId)) ?? []),
            };

        var open = new OpenAlerts(db, keys);
        var names = new SeriesNames(
            db,
            keys.Where((_, i) => decided[i] is not { Upgraded: false, InOrder: true, Raised.Count: 0 })
        );
        var bisecting = false;
        var written = new List<Written>(keys.Count);
        for (var i = 0; i < keys.Count; i++)
        {
            var id = keys[i];
            var key = (id.BenchmarkId, id.MeasureId);
            // A series found out of order in a partial window (not expected: those are read whole above) is fed here.
            var result =
                decided[i]
                ?? Feed(
                    id,
                    rows[key],
                    states[key],
                    checkpoints,
                    await ReadWholeAsync(id, project, including, ct),
                    arrivals[key],
                    taken[key].Window
                )!;
            bisecting |= await ApplyAsync(id, project, result, open, names, ct);
            if (result.Points.Count > 0)
                written.Add(
                    new Written(
                        rows[key].Id,
                        result.State,
                        result.Points.Last,
                        result.Checkpoints,
                        result.ReplacesCheckpoints,
                        taken[key].Window
                    )
                );
        }
        await db.SaveChangesAsync(ct);
        await WriteStatesAsync(written, ct);
        return bisecting;
    }

    /// <summary>A series state as the locking read returns it.</summary>
    private sealed record LockedState(
        long Id,
        long BenchmarkId,
        long MeasureId,
        byte[] State,
        DateTimeOffset LastSeriesAt,
        long LastResultId
    );

    // A series never fed has an empty state whatever its row holds.
    private (OnlineDetectorState State, NoiseWindow? Window) TakeState(SeriesState row) =>
        cache.Take(row.Id, row.LastResultId == 0 ? [] : row.State);

    /// <summary>A state to write back, with what its feed made of the checkpoints (<see cref="Fed.Stored"/>), and the
    /// noise window it was made through, kept with it once written.</summary>
    private sealed record Written(
        long Id,
        OnlineDetectorState State,
        SeriesPoint Last,
        IReadOnlyList<DetectorCheckpoint> Checkpoints,
        bool Replaces,
        NoiseWindow? Window
    );

    /// <summary>Every state of the update in one statement (they are locked by this transaction). Checkpoints change
    /// once every <see cref="DetectorCheckpoint.Every"/> points in order, so the statement shifts the stored one into
    /// the previous slot itself instead of reading it: null leaves a slot as it is, an empty array clears it.</summary>
    private async Task WriteStatesAsync(List<Written> written, CancellationToken ct)
    {
        if (written.Count == 0)
            return;
        var ids = written.Select(w => w.Id).ToArray();
        var state = written.Select(w => OnlineDetectorStateCodec.Encode(w.State)).ToArray();
        for (var i = 0; i < written.Count; i++)
            if (written[i].Window is { } window)
                cache.Put(written[i].Id, state[i], written[i].State, window);
        var at = written.Select(w => w.Last.SeriesAt).ToArray();
        var last = written.Select(w => w.Last.ResultId).ToArray();
        var latest = written
            .Select(w =>
                w.Checkpoints.Count == 0 && !w.Replaces
                    ? null
                    : DetectorCheckpoint.Encode(w.Checkpoints.LastOrDefault())
            )
            .ToArray();
        var previous = written
            .Select(w =>
                w.Replaces ? DetectorCheckpoint.Encode(w.Checkpoints.Count > 1 ? w.Checkpoints[0] : null) : null
            )
            .ToArray();
        var shift = written.Select(w => !w.Replaces && w.Checkpoints.Count == 1).ToArray();
        await db.Database.ExecuteSqlAsync(
            $"""
            UPDATE series_states s SET state = u.state, last_series_at = u.at, last_result_id = u.last,
              previous_checkpoint = CASE WHEN u.shift THEN s.checkpoint ELSE coalesce(u.previous, s.previous_checkpoint) END,
              checkpoint = coalesce(u.latest, s.checkpoint), updated_at = now()
            FROM unnest({ids}, {state}, {at}, {last}, {latest}, {previous}, {shift})
              AS u(id, state, at, last, latest, previous, shift)
            WHERE s.id = u.id
            """,
            ct
        );
    }

    private static Fed? Feed(
        SeriesId id,
        SeriesState row,
        OnlineDetectorState state,
        Dictionary<(long, long), IReadOnlyList<DetectorCheckpoint>> checkpoints,
        SeriesWindow points,
        IEnumerable<long> arriving,
        NoiseWindow? window
    ) =>
        SeriesFeed.Feed(
            state,
            row.LastResultId,
            checkpoints.GetValueOrDefault((id.BenchmarkId, id.MeasureId)) ?? [],
            points,
            arriving,
            id.LowerIsBetter,
            window
        );

    /// <summary>Turns what the detector decided for one series into alerts; returns whether bisection queued a
    /// job.</summary>
    private async Task<bool> ApplyAsync(
        SeriesId id,
        Project project,
        Fed fed,
        OpenAlerts open,
        SeriesNames names,
        CancellationToken ct
    )
    {
        if (fed is not { Upgraded: false, InOrder: true, Raised.Count: 0 })
            id = await names.NameAsync(id, ct);
        var (state, raised, withdrawn, points, upgraded) = (
            fed.State,
            fed.Raised,
            fed.Withdrawn,
            fed.Points,
            fed.Upgraded
        );
        if (upgraded)
        {
            // The replay after a detector upgrade rebuilds the state; the alerts users have seen (and triaged) stay as
            // they are: nothing is narrowed or withdrawn, settled history raises nothing, and a change point still
            // under
            // watch is raised only when no change-point alert of the series, in any state, already names a commit
            // within the detector's jitter of it.
            logger.LogInformation(
                "Series {Series} was replayed with detector {Version} ({Count} points)",
                id.Label,
                OnlineDetector.Version,
                points.Count
            );
            var options = ChangePointOptions.Default;
            var named = (
                await db
                    .Alerts.AsNoTracking()
                    .Where(a =>
                        a.Kind == AlertKind.ChangePoint
                        && a.BenchmarkId == id.BenchmarkId
                        && a.MeasureId == id.MeasureId
                        && a.ProfileId == id.ProfileId
                    )
                    .Select(a => a.ToCommit)
                    .ToListAsync(ct)
            )
                .Select(points.FindFirst)
                .Where(i => i >= 0)
                .ToList();
            var watchFrom = state.Count - options.Window - options.SettleMargin;
            raised = raised
                .Where(r => r.Index >= watchFrom && !named.Any(i => Math.Abs(i - r.Index) <= options.Jitter))
                .ToList();
            withdrawn = [];
        }
        else if (fed.ReplayedFrom is { } from)
        {
            logger.LogInformation(
                "Series {Series} received a point out of commit order; replayed {Count} points from point {From}",
                id.Label,
                points.Count - from,
                from
            );
            // Narrow first: a narrowed alert keeps its identity (and triage) instead of being withdrawn as vanished.
            await NarrowAsync(id, points, raised, open, ct);
            await WithdrawVanishedAsync(id, points, raised, from, open, ct);
        }
        foreach (var w in withdrawn)
            await WithdrawAsync(id, points, w, open, ct);
        foreach (var r in raised)
            await RaiseAsync(id, points, r, open, ct);
        return project.Bisect && await BisectAsync(id, project, points, open, ct);
    }

    private async Task<SeriesWindow> ReadWholeAsync(
        SeriesId id,
        Project project,
        long[] including,
        CancellationToken ct
    ) =>
        SeriesWindow.Whole(
            (
                await reader.ReadManyAsync(
                    [id.BenchmarkId],
                    [id.MeasureId],
                    id.ProfileId,
                    id.BranchId,
                    including,
                    ct,
                    project.IncludeProfileMismatch
                )
            ).GetValueOrDefault((id.BenchmarkId, id.MeasureId)) ?? []
        );

    private async Task RaiseAsync(
        SeriesId id,
        SeriesWindow points,
        OnlineAlert a,
        OpenAlerts open,
        CancellationToken ct
    )
    {
        var to = points[a.Index].Commit;
        var candidate = Describe(
            new Alert
            {
                ProjectId = id.ProjectId,
                Kind = AlertKind.ChangePoint,
                BenchmarkId = id.BenchmarkId,
                MeasureId = id.MeasureId,
                ProfileId = id.ProfileId,
                GroupKey = "",
                Summary = "",
            },
            id,
            points,
            a
        );
        var alert = await alerts.OpenAsync(candidate, $"stable change point found after point {a.DetectedAt}", ct);
        open.Opened(alert);
        // Why it got slower: a new alert's commit against the one before, profiled on its hardware profile. An alert
        // already open (a replay finds its change again, narrowed or not) was profiled when it was raised.
        if (a.Direction == ChangeDirection.Regression && ReferenceEquals(alert, candidate))
            await profiling.ForChangePointAsync(alert, ct);

        // A change back to the old level fixes the earlier change it undoes.
        foreach (var earlier in (await open.OfAsync(id, ct)).Where(e => e.Id != alert.Id))
        {
            if (
                earlier.Details.ChangePoint is { } d
                && ChangePoint.Reverts(d.LevelBefore, d.LevelAfter, a.LevelBefore, a.LevelAfter)
            )
                await alerts.ChangeStateAsync(
                    earlier,
                    AlertState.Fixed,
                    AlertService.System,
                    $"the series returned to its old level at {Short(to)}",
                    ct
                );
        }
    }

    private async Task WithdrawAsync(
        SeriesId id,
        SeriesWindow points,
        OnlineAlert w,
        OpenAlerts open,
        CancellationToken ct
    )
    {
        var to = points[w.Index].Commit;
        foreach (var alert in (await open.OfAsync(id, ct)).Where(x => x.ToCommit == to))
            await alerts.ChangeStateAsync(
                alert,
                AlertState.Invalid,
                AlertService.System,
                $"the change point vanished as more points arrived (withdrawn after point {w.WithdrawnAt})",
                ct
            );
    }

    /// <summary>
    /// After a replay from point <paramref name="from"/>, withdraws the open alerts it did not raise again. Those raised
    /// before that point saw the same history as the replay (a checkpoint's alerts still under watch are the replay's
    /// own, withdrawn through its <see cref="Fed.Withdrawn"/>): only those raised at or after it are in question.
    /// </summary>
    private async Task WithdrawVanishedAsync(
        SeriesId id,
        SeriesWindow points,
        List<OnlineAlert> current,
        int from,
        OpenAlerts open,
        CancellationToken ct
    )
    {
        var keep = current.Where(c => c.WithdrawnAt is null).Select(c => points[c.Index].Commit).ToHashSet();
        var replayed = (await open.OfAsync(id, ct)).Where(a =>
            from == 0 || a.Details.ChangePoint is { } d && d.DetectedAt >= from
        );
        foreach (var alert in replayed.Where(a => a.ToCommit is null || !keep.Contains(a.ToCommit)))
            await alerts.ChangeStateAsync(
                alert,
                AlertState.Invalid,
                AlertService.System,
                "the change point vanished when the series was replayed in commit order",
                ct
            );
    }

    /// <summary>Sets what an alert says about where the change lies: its range, group, summary and details.</summary>
    private static Alert Describe(Alert alert, SeriesId id, SeriesWindow points, OnlineAlert a)
    {
        var from = points[a.Index - 1].Commit;
        var to = points[a.Index].Commit;
        var sign = a.Magnitude >= 0 ? "+" : "";
        alert.GroupKey = AlertGroupKey.Range(from, to);
        alert.FromCommit = from;
        alert.ToCommit = to;
        alert.Summary = string.Create(
            CultureInfo.InvariantCulture,
            $"{a.Direction.ToString().ToLowerInvariant()} of {sign}{a.Magnitude:P1} in {id.Label} between {Short(from)} and {Short(to)}"
        );
        alert.Details = new AlertDetails
        {
            ChangePoint = new ChangePointFacts
            {
                Index = a.Index,
                Magnitude = a.Magnitude,
                LevelBefore = a.LevelBefore,
                LevelAfter = a.LevelAfter,
                DetectedAt = a.DetectedAt,
                Direction = a.Direction.ToString(),
            },
            // A narrowed range keeps the bisection that narrowed it.
            Bisect = alert.Details.Bisect,
        };
        alert.Change = a.Magnitude;
        return alert;
    }
}
