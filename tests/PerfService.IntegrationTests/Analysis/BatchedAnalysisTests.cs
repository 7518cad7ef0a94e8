using Microsoft.Extensions.DependencyInjection;
using PerfService.Core.Suites;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;
using PerfService.Analysis;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// A service with the web role only (no analysis consumer of its own): runs wait in the analysis queue, and the test
/// drains it with the service's consumer, with batching on (32, the detector fed on 4 threads) or off (1, on one thread),
/// and series states kept in memory between analyses or decoded every time.
/// </summary>
public class QueuedAnalysisApp(int batchRuns, bool keepStates) : PerfServiceApp
{
    protected override IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
    {
        ["Background:Roles"] = "web",
        ["Background:AnalysisBatchRuns"] = batchRuns.ToString(System.Globalization.CultureInfo.InvariantCulture),
        ["Background:AnalysisThreads"] = batchRuns == 1 ? "1" : "4",
        ["Background:AnalysisCachedSeries"] = keepStates ? "8192" : "0",
    };

    /// <summary>Analyses every waiting run, oldest first, as one consumer would.</summary>
    public Task AnalyseAllAsync() => Services.GetRequiredService<AnalysisConsumer>().DrainAsync(CancellationToken.None);
}

/// <summary>The baseline: one run at a time, every series state decoded from the database.</summary>
public sealed class OneByOneApp() : QueuedAnalysisApp(1, keepStates: false);

/// <summary>One run at a time through the states kept in memory: every update a single point through a kept window.</summary>
public sealed class OneByOneKeptApp() : QueuedAnalysisApp(1, keepStates: true);

public sealed class BatchedApp() : QueuedAnalysisApp(32, keepStates: true);

/// <summary>
/// Batched analysis (many waiting runs in one transaction, each series updated once for all its new points) must judge
/// a history exactly as analysing the runs one by one does: the same detector states, the same open change-point
/// alerts at the same commits, the same target results and target alerts, including when runs arrive out of commit
/// order (the series then replays). So must analysis through the series states kept in memory.
/// </summary>
public class BatchedAnalysisTests : IAsyncLifetime
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private static readonly TargetDeclaration Overhead = new()
    {
        Name = "cached under 1.2x", Benchmark = "Store.Cached", Baseline = "Store.Read", Op = "<=", Value = 1.2,
    };
    private readonly OneByOneApp _oneByOne = new();
    private readonly BatchedApp _batched = new();
    private readonly OneByOneKeptApp _oneByOneKept = new();

    public async Task InitializeAsync()
    {
        await _oneByOne.InitializeAsync();
        await _batched.InitializeAsync();
        await _oneByOneKept.InitializeAsync();
    }

    public async Task DisposeAsync()
    {
        await ((IAsyncLifetime)_oneByOne).DisposeAsync();
        await ((IAsyncLifetime)_batched).DisposeAsync();
        await ((IAsyncLifetime)_oneByOneKept).DisposeAsync();
    }

    [Fact]
    public async Task Batched_and_kept_state_analysis_give_the_states_alerts_and_target_results_of_one_by_one_analysis()
    {
        foreach (var app in new QueuedAnalysisApp[] { _oneByOne, _batched, _oneByOneKept })
        {
            await PostHistoryAsync(app);
            Assert.Equal(History().Count, await app.WithDbAsync(db => db.AnalysisQueue.CountAsync()));
            await app.AnalyseAllAsync();
            Assert.Equal(0, await app.WithDbAsync(db => db.AnalysisQueue.CountAsync()));
        }

        var expected = await SnapshotAsync(_oneByOne);
        // The history holds what the comparison is about: change points on two series, a failing target.
        Assert.Equal(2, expected.OpenAlerts.Count(a => a.StartsWith("ChangePoint", StringComparison.Ordinal)));
        Assert.Equal(2, expected.TargetAlerts.Count);
        foreach (var app in new QueuedAnalysisApp[] { _batched, _oneByOneKept })
        {
            var actual = await SnapshotAsync(app);
            Assert.Equal(expected.States, actual.States);
            Assert.Equal(expected.OpenAlerts, actual.OpenAlerts);
            Assert.Equal(expected.TargetAlerts, actual.TargetAlerts);
            Assert.Equal(expected.TargetResults, actual.TargetResults);
        }
        // Each series' state was kept after every update, so every update but a series' first went through memory.
        Assert.Equal(expected.States.Count, _oneByOneKept.Services.GetRequiredService<SeriesStateCache>().Count);
    }

    [Fact]
    public async Task One_batch_analyses_the_waiting_runs_of_a_series_together_and_feeds_nothing_twice()
    {
        var app = _batched;
        await app.CreateProjectAsync("coalesce");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        for (var i = 0; i < 6; i++) await PostAsync(ingest, "coalesce", i, ("Store.Read", 1000));
        var runs = await app.WithDbAsync(db => db.Runs.OrderBy(r => r.Id).Select(r => r.Id).ToListAsync());

        Assert.Equal(6, runs.Count);
        Assert.Equal(new AnalysisStep(6, 0), await app.Services.GetRequiredService<AnalysisConsumer>().StepAsync(CancellationToken.None));
        // Every waiting run went in one batch: one state update fed all six points.
        Assert.Equal(0, await app.WithDbAsync(db => db.AnalysisQueue.CountAsync()));
        var state = await app.WithDbAsync(db => db.SeriesStates.SingleAsync());
        Assert.Equal(6, Core.ChangePoints.OnlineDetectorStateCodec.Decode(state.State).Count);
        Assert.Equal(Start.AddHours(5), state.LastSeriesAt);

        // Nothing is left: another pass leaves the state alone.
        await app.AnalyseAllAsync();
        var after = await app.WithDbAsync(db => db.SeriesStates.SingleAsync());
        Assert.Equal(state.State, after.State);
        Assert.Equal(state.UpdatedAt, after.UpdatedAt);

        // A new run is queued and analysed on its own; nothing is fed twice. The batch says where its time went (the
        // consumer logs it): the detector's share lies within the change points'.
        await PostAsync(ingest, "coalesce", 6, ("Store.Read", 1000));
        await using (var scope = app.Services.CreateAsyncScope())
        {
            var batch = scope.ServiceProvider.GetRequiredService<AnalysisBatch>();
            Assert.Null(batch.Times);
            Assert.Single(await batch.AnalyseNextAsync(10, _ => { }, CancellationToken.None));
            var times = Assert.IsType<BatchTimes>(batch.Times);
            Assert.True(times.Reading > TimeSpan.Zero && times.Commit > TimeSpan.Zero, times.ToString());
            Assert.True(times.Detector > TimeSpan.Zero && times.Detector <= times.ChangePoints, times.ToString());
            Assert.Matches(@"^reading \d+\.\d\d s, change points \d+\.\d\d s \(the detector \d+\.\d\d s\), commit", times.ToString());
        }
        var seven = await app.WithDbAsync(db => db.SeriesStates.SingleAsync());
        Assert.Equal(7, Core.ChangePoints.OnlineDetectorStateCodec.Decode(seven.State).Count);
    }

    /// <summary>
    /// 70 commits of three benchmarks: Store.Read steps +30% at commit 45, Store.Write improves −25% at commit 30,
    /// Store.Cached stays flat (and breaks its target against Store.Read until the step, which fixes the target alert;
    /// the late commits 20 and 21 break it again, 50 fixes it). Commits 20, 21 and 50 are benchmarked last, out of
    /// commit order.
    /// </summary>
    private static List<int> History()
    {
        var late = new[] { 20, 21, 50 };
        return [.. Enumerable.Range(0, 70).Where(i => !late.Contains(i)), .. late];
    }

    private static async Task PostHistoryAsync(QueuedAnalysisApp app)
    {
        await app.CreateProjectAsync("equivalence");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        foreach (var i in History())
            await PostAsync(ingest, "equivalence", i, ("Store.Read", i < 45 ? 1000 : 1300), ("Store.Write", i < 30 ? 2000 : 1500), ("Store.Cached", 1250));
    }

    private static async Task PostAsync(HttpClient ingest, string project, int commit, params (string Benchmark, double Level)[] levels)
    {
        var meta = new RunMetadata
        {
            Project = project, Commit = $"eb{commit:000000}", CommittedAt = Start.AddHours(commit), Branch = "main", Profile = "m1-pro", Suite = "s",
            Targets = project == "equivalence" ? [Overhead] : null,
        };
        var files = Generic.Times([.. levels.Select((l, b) => (l.Benchmark, Generic.Around(l.Level, 0.01, 10, seed: commit * 7 + b)))]);
        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
    }

    private sealed record Snapshot(List<string> States, List<string> OpenAlerts, List<string> TargetAlerts, List<string> TargetResults);

    /// <summary>What the analysis decided, by names and commits (ids differ between the two databases).</summary>
    private static Task<Snapshot> SnapshotAsync(QueuedAnalysisApp app) => app.WithDbAsync(async db =>
    {
        var states = await (from s in db.SeriesStates
                            join b in db.Benchmarks on s.BenchmarkId equals b.Id
                            orderby b.Key
                            select b.Key + " " + s.LastSeriesAt.ToUnixTimeSeconds() + " " + s.State).ToListAsync();
        var alerts = await (from a in db.Alerts
                            where a.State == AlertState.Active || a.State == AlertState.Acknowledged
                            join b in db.Benchmarks on a.BenchmarkId equals b.Id into bs
                            from b in bs.DefaultIfEmpty()
                            select a.Kind + " " + (b == null ? "-" : b.Key) + " " + a.FromCommit + ".." + a.ToCommit + " " + a.State + " " + a.Summary).ToListAsync();
        var targetAlerts = await db.Alerts.Where(a => a.Kind == AlertKind.Target).OrderBy(a => a.Id)
            .Select(a => a.ToCommit + " " + a.State + " " + a.Summary).ToListAsync();
        var targets = await (from t in db.TargetResults
                             join r in db.Runs on t.RunId equals r.Id
                             join c in db.Commits on r.CommitId equals c.Id
                             select c.Sha + " " + t.Name + " " + t.Outcome + " " + t.Actual).ToListAsync();
        return new Snapshot(states, [.. alerts.Order(StringComparer.Ordinal)], targetAlerts, [.. targets.Order(StringComparer.Ordinal)]);
    });
}
