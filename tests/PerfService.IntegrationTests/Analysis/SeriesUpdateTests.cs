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

        var alert = Assert.Single(await app.WithDbAsync(db => db.Alerts.Where(a => a.Kind == AlertKind.ChangePoint).ToListAsync()));
        Assert.Equal(("ca110079", "ca110080", AlertState.Active), (alert.FromCommit, alert.ToCommit, alert.State));
    }
}
