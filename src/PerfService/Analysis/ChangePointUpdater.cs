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
/// A point that arrives out of commit order makes the series replay from the start, and the alerts are reconciled:
/// an alert whose range holds the replayed change point is narrowed in place. With bisection on, every open alert
/// whose range still holds untested commits gets its next bisection job.
/// </summary>
public sealed partial class ChangePointUpdater(
    PerfDbContext db,
    SeriesReader reader,
    AlertService alerts,
    Bisector bisector,
    IOptions<BackgroundOptions> options,
    AnalysisYield yielding,
    Profiling.ProfilingJobs profiling,
    ILogger<ChangePointUpdater> logger
)
{
    /// <param name="Result">A result of the series, which names it in logs and alerts (<see cref="Label"/>): built
    /// only when needed, instead of a formatted string for every result of every run.</param>
    public sealed record SeriesId(
        long ProjectId,
        long BenchmarkId,
        long MeasureId,
        long ProfileId,
        long BranchId,
        bool LowerIsBetter,
        Core.Results.BenchmarkResult Result,
        string Profile
    )
    {
        public string Label => $"{Result.Key} {Result.Measure} on {Profile}";
    }

    /// <summary>A point an analysis brings to its series: the result of a run analysed for the first time.</summary>
    public sealed record Arrival(long BenchmarkId, long MeasureId, long RunId, long ResultId);

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
    /// creates the missing states, one locks them all, one reads every fed series' new points (and the last one fed),
    /// one
    /// every new or replayed series whole, one (rarely) every series whose alerts reach further back than that, and one
    /// writes all states back; the open alerts of the series are read in one
    /// query, only when a series raises, withdraws or replays. Several runs of a series in one batch cost one update:
    /// the window holds all their points. <paramref name="arriving"/> are the points of the runs analysed now for the
    /// first time (the reads leave out other runs not yet analysed): one that lies before the last point fed arrived
    /// out of commit order and makes its series replay. Returns whether a bisection job was queued (notify after the
    /// commit).
    /// Under load, per-series round trips (a whole-series read per late series, an alert query per replay, one UPDATE
    /// per state) made analysis the bottleneck.
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
            project.IncludeProfileMismatch
        );
        var threads = yielding.Threads(options.Value.AnalysisThreadCount, options.Value.AnalysisThreadCountBehind);
        var states = keys.ToDictionary(
            k => (k.BenchmarkId, k.MeasureId),
            k => ReadState(rows[(k.BenchmarkId, k.MeasureId)])
        );
        var windows = new Dictionary<(long, long), SeriesWindow>();
        foreach (var key in fed.Select(k => (k.BenchmarkId, k.MeasureId)))
            if (
                SeriesWindow.Tail(tails[key], states[key].Count, rows[key].LastResultId) is { } tail
                && InOrder(states[key], rows[key], tail, arrivals[key])
            )
                windows[key] = tail;
        // A series whose new points include one that arrived out of commit order replays from the start: read all of
        // those whole in the same query as the new ones.
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
        var decided = new Fed?[keys.Count];
        var feeding = Stopwatch.GetTimestamp();
        Parallel.For(
            0,
            keys.Count,
            new ParallelOptions { MaxDegreeOfParallelism = threads, CancellationToken = ct },
            i =>
            {
                var key = (keys[i].BenchmarkId, keys[i].MeasureId);
                decided[i] = Feed(keys[i], rows[key], states[key], window[i], arrivals[key]);
            }
        );
        DetectorTime += Stopwatch.GetElapsedTime(feeding);
        // An alert raised or withdrawn names the commits around its point, up to 40 points back: beyond the few rows
        // a tail read holds. Read those (few) series whole, together.
        var reach = Enumerable
            .Range(0, keys.Count)
            .Where(i => decided[i] is { } d && d.Raised.Concat(d.Withdrawn).Any(a => !d.Points.Holds(a.Index - 1)))
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
        var bisecting = false;
        var written = new List<(SeriesState Row, OnlineDetectorState State, SeriesPoint Last)>(keys.Count);
        for (var i = 0; i < keys.Count; i++)
        {
            var id = keys[i];
            var key = (id.BenchmarkId, id.MeasureId);
            // A series found out of order in a partial window (not expected: those are read whole above) is fed here.
            var result =
                decided[i]
                ?? Feed(id, rows[key], states[key], await ReadWholeAsync(id, project, including, ct), arrivals[key])!;
            var (state, bisects) = await ApplyAsync(id, project, result, open, ct);
            bisecting |= bisects;
            if (state is { } s)
                written.Add((rows[key], s.State, s.Last));
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

    private static OnlineDetectorState ReadState(SeriesState row) =>
        row.LastResultId == 0 ? OnlineDetectorState.Empty : OnlineDetectorStateCodec.Decode(row.State);

    // In order when the last point fed is still at the index the state counted up to, and every point arriving now
    // lies after it: one that arrived for an older commit would lie before it, or, when older than the rows read,
    // outside the window.
    private static bool InOrder(
        OnlineDetectorState state,
        SeriesState row,
        SeriesWindow points,
        IEnumerable<long> arriving
    ) =>
        state.IsCurrent
        && state.Count <= points.Count
        && (state.Count == 0 || (points.Holds(state.Count - 1) && points[state.Count - 1].ResultId == row.LastResultId))
        && arriving.All(id => points.IndexOf(id) >= state.Count);

    /// <summary>Every state of the update in one statement (they are locked by this transaction).</summary>
    private async Task WriteStatesAsync(
        List<(SeriesState Row, OnlineDetectorState State, SeriesPoint Last)> written,
        CancellationToken ct
    )
    {
        if (written.Count == 0)
            return;
        var ids = written.Select(w => w.Row.Id).ToArray();
        var state = written.Select(w => OnlineDetectorStateCodec.Encode(w.State)).ToArray();
        var at = written.Select(w => w.Last.SeriesAt).ToArray();
        var last = written.Select(w => w.Last.ResultId).ToArray();
        await db.Database.ExecuteSqlAsync(
            $"""
            UPDATE series_states s SET state = u.state, last_series_at = u.at, last_result_id = u.last, updated_at = now()
            FROM unnest({ids}, {state}, {at}, {last}) AS u(id, state, at, last)
            WHERE s.id = u.id
            """,
            ct
        );
    }

    // Fewer new points than this and starting a NoiseWindow (sorting the differences) costs more than it saves.
    private const int NoiseWindowFrom = 4;

    /// <summary>What the detector made of one series' new points: its new state, the alerts raised and withdrawn on the
    /// way, whether the series was replayed, and the points it read.</summary>
    private sealed record Fed(
        OnlineDetectorState State,
        List<OnlineAlert> Raised,
        List<OnlineAlert> Withdrawn,
        bool InOrder,
        SeriesWindow Points,
        bool Upgraded
    );

    /// <summary>Feeds one series' new points to the detector (a replay from the start when a point arrived out of
    /// commit
    /// order); null when that replay needs points the window does not hold. Pure: runs in parallel.</summary>
    private static Fed? Feed(
        SeriesId id,
        SeriesState row,
        OnlineDetectorState state,
        SeriesWindow points,
        IEnumerable<long> arriving
    )
    {
        // A state another detector wrote is never fed on (InOrder says no): the series replays once with this one.
        var upgraded = !state.IsCurrent;
        var inOrder = InOrder(state, row, points, arriving);
        if (!inOrder)
        {
            if (!points.IsWhole)
                return null;
            state = OnlineDetectorState.Empty;
        }
        var options = ChangePointOptions.Default with { LowerIsBetter = id.LowerIsBetter };
        var raised = new List<OnlineAlert>();
        var withdrawn = new List<OnlineAlert>();
        // Several new points (a batch that caught up, a replay) carry the noise estimate from one to the next.
        var window = points.Count - state.Count >= NoiseWindowFrom ? new NoiseWindow() : null;
        for (var i = state.Count; i < points.Count; i++)
        {
            var update = OnlineDetector.Add(state, points[i].Value, options, window);
            state = update.State;
            if (update.Raised.Count == 0 && update.Withdrawn.Count == 0)
                continue;
            raised.AddRange(update.Raised);
            withdrawn.AddRange(update.Withdrawn);
            raised.RemoveAll(r => update.Withdrawn.Any(w => w.Index == r.Index && w.DetectedAt == r.DetectedAt));
        }
        return new Fed(state, raised, withdrawn, inOrder, points, upgraded);
    }

    /// <summary>Turns what the detector decided for one series into alerts; returns the series' new state and last
    /// point
    /// (null when the series has none) and whether bisection queued a job.</summary>
    private async Task<((OnlineDetectorState State, SeriesPoint Last)? Written, bool Bisecting)> ApplyAsync(
        SeriesId id,
        Project project,
        Fed fed,
        OpenAlerts open,
        CancellationToken ct
    )
    {
        var (state, raised, withdrawn, inOrder, points, upgraded) = fed;
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
        else if (!inOrder)
            logger.LogInformation(
                "Series {Series} received a point out of commit order; replayed {Count} points",
                id.Label,
                points.Count
            );

        if (!inOrder && !upgraded)
        {
            // Narrow first: a narrowed alert keeps its identity (and triage) instead of being withdrawn as vanished.
            await NarrowAsync(id, points, raised, open, ct);
            await WithdrawVanishedAsync(id, points, raised, open, ct);
        }
        foreach (var w in withdrawn)
            await WithdrawAsync(id, points, w, open, ct);
        foreach (var r in raised)
            await RaiseAsync(id, points, r, open, ct);
        var bisecting = project.Bisect && await BisectAsync(id, project, points, open, ct);
        return (points.Count > 0 ? (state, points.Last) : null, bisecting);
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

    private async Task WithdrawVanishedAsync(
        SeriesId id,
        SeriesWindow points,
        List<OnlineAlert> current,
        OpenAlerts open,
        CancellationToken ct
    )
    {
        var keep = current.Where(c => c.WithdrawnAt is null).Select(c => points[c.Index].Commit).ToHashSet();
        foreach (var alert in (await open.OfAsync(id, ct)).Where(a => a.ToCommit is null || !keep.Contains(a.ToCommit)))
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
