using PerfService.Analysis;
using PerfService.Core.ChangePoints;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// The change-point updater reads only a series' new points (and a margin) when they arrive in commit order, and the
/// whole series when one arrives late. Either way the stored detector state must be the one a replay of the series in
/// commit order gives, and the alert must sit at the right commit.
/// </summary>
public class SeriesUpdateTests : OwnServiceTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    [Theory]
    [InlineData(50)] // within the margin an in-order update reads before the new points
    [InlineData(5)] // older than that margin: only the arriving point itself shows it is late
    [InlineData(90)] // after a checkpoint (72 points fed): the replay starts there and reads from there on
    public async Task Incremental_and_late_updates_leave_the_state_a_replay_in_commit_order_gives(int late)
    {
        await app.CreateProjectAsync("updates");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        // 100 commits, a +30% step at commit 80; commit `late` is benchmarked last, after all the others.
        var level = Enumerable.Range(0, 100).Select(i => i < 80 ? 1000.0 : 1300.0).ToArray();
        var order = Enumerable.Range(0, 100).Where(i => i != late).Append(late).ToList();
        foreach (var i in order)
        {
            var meta = new RunMetadata { Project = "updates", Commit = $"ca11{i:0000}", CommittedAt = Start.AddHours(i), Branch = "main", Profile = "m1-pro", Suite = "s" };
            var files = Generic.Times(("Store.Read", Generic.Around(level[i], 0.01, 10, seed: i)));
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
        }

        var row = await Eventually.WaitAsync(() => app.WithDbAsync(db => db.SeriesStates.SingleOrDefaultAsync()),
            s => s is not null && OnlineDetectorStateCodec.Decode(s.State).Count == 100 && s.LastSeriesAt == Start.AddHours(99));
        var stored = OnlineDetectorStateCodec.Decode(row!.State);

        // What the detector makes of the series in commit order, fed from scratch.
        var medians = await app.WithDbAsync(db => db.Results.OrderBy(r => r.SeriesAt).Select(r => r.Median ?? r.Value!.Value).ToListAsync());
        var expected = OnlineDetectorState.Empty;
        foreach (var v in medians) expected = OnlineDetector.Add(expected, v).State;
        Assert.Equal(OnlineDetectorStateCodec.Encode(expected), OnlineDetectorStateCodec.Encode(stored));
        // Checkpoints at 72 and 96 points, as a feed in commit order leaves them, whichever way the replay went.
        Assert.Equal((72, 96), (DetectorCheckpoint.Decode(row.PreviousCheckpoint)?.Count, DetectorCheckpoint.Decode(row.Checkpoint)?.Count));

        var alert = Assert.Single(await app.WithDbAsync(db => db.Alerts.Where(a => a.Kind == AlertKind.ChangePoint).ToListAsync()));
        Assert.Equal(("ca110079", "ca110080", AlertState.Active), (alert.FromCommit, alert.ToCommit, alert.State));
    }

    [Fact]
    public async Task Late_runs_inside_an_alerts_range_narrow_it_in_place_when_the_series_replays_from_a_checkpoint()
    {
        await app.CreateProjectAsync("narrowing");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        // +30 % steps at commits 30 and 78. The runs of commits 78 and 79 finish last: until they arrive the second step
        // shows between commits 77 and 80. The replays start from the checkpoint at 72 points, after the first alert
        // was raised: a replay from there does not raise it again, and must not withdraw it as vanished.
        var order = Enumerable.Range(0, 100).Where(i => i is not (78 or 79)).Append(78).Append(79).ToList();
        List<Alert> before = [];
        foreach (var i in order)
        {
            if (i == 78)
                before = (await Eventually.WaitAsync(
                    () => app.WithDbAsync(db => db.Alerts.Where(a => a.Kind == AlertKind.ChangePoint).OrderBy(a => a.Id).ToListAsync()),
                    a => a.Count == 2))!;
            var meta = new RunMetadata { Project = "narrowing", Commit = $"ca12{i:0000}", CommittedAt = Start.AddHours(i), Branch = "main", Profile = "m1-pro", Suite = "s" };
            var level = i < 30 ? 1000.0 : i < 78 ? 1300.0 : 1690.0;
            var files = Generic.Times(("Store.Read", Generic.Around(level, 0.01, 10, seed: i)));
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
        }
        Assert.Equal([("ca120029", "ca120030"), ("ca120077", "ca120080")], before.Select(a => (a.FromCommit, a.ToCommit)));

        await Eventually.WaitAsync(() => app.WithDbAsync(db => db.SeriesStates.SingleAsync()),
            s => OnlineDetectorStateCodec.Decode(s.State).Count == 100);
        var after = await app.WithDbAsync(db => db.Alerts.Where(a => a.Kind == AlertKind.ChangePoint).OrderBy(a => a.Id).ToListAsync());
        // The same two alerts, both active: the first as it was, the second narrowed to the step's commit (its triage
        // would survive).
        Assert.Equal(
            [(before[0].Id, "ca120029", "ca120030", AlertState.Active), (before[1].Id, "ca120077", "ca120078", AlertState.Active)],
            after.Select(a => (a.Id, a.FromCommit, a.ToCommit, a.State)));
        var reasons = await app.WithDbAsync(db => db.AlertEvents.Where(e => e.AlertId == before[1].Id).Select(e => e.Reason).ToListAsync());
        Assert.Contains(reasons, r => r!.Contains("as runs of commits inside it arrived", StringComparison.Ordinal));
    }
}
