using PerfService.Core.ChangePoints;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// A series whose stored state the first detector wrote is replayed once with the current one when its next point
/// arrives, and the change point a user already triaged is not raised again.
/// </summary>
public class DetectorUpgradeTests : OwnServiceTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task A_state_from_the_first_detector_is_replayed_once_and_a_triaged_alert_is_not_raised_again()
    {
        await app.CreateProjectAsync("upgrade");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        // 100 commits with a +30% step at commit 80, then one more once the series looks as the old service left it.
        var level = Enumerable.Range(0, 101).Select(i => i < 80 ? 1000.0 : 1300.0).ToArray();
        async Task PostAsync(int i)
        {
            var meta = new RunMetadata { Project = "upgrade", Commit = $"0ba0{i:0000}", CommittedAt = Start.AddHours(i), Branch = "main", Profile = "m1-pro", Suite = "s" };
            var files = Generic.Times(("Store.Read", Generic.Around(level[i], 0.01, 10, seed: i)));
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
        }
        for (var i = 0; i < 100; i++) await PostAsync(i);
        await Eventually.WaitAsync(() => app.WithDbAsync(db => db.SeriesStates.SingleOrDefaultAsync()),
            s => s is not null && OnlineDetectorStateCodec.Decode(s.State).Count == 100);
        var alert = Assert.Single(await app.WithDbAsync(db => db.Alerts.Where(a => a.Kind == AlertKind.ChangePoint).ToListAsync()));
        Assert.Equal("0ba00080", alert.ToCommit);

        // As the service before the upgrade left it: the first detector's state, and the alert triaged by a user.
        var medians = await app.WithDbAsync(db => db.Results.OrderBy(r => r.SeriesAt).Select(r => r.Median ?? r.Value!.Value).ToListAsync());
        var old = OnlineDetectorState.Empty;
        foreach (var v in medians) old = OnlineDetector.Add(old, v, ChangePointOptions.Legacy).State;
        var oldBytes = OnlineDetectorStateCodec.Encode(old with { DetectorVersion = 1 });
        await app.WithDbAsync(db => db.SeriesStates.ExecuteUpdateAsync(s => s.SetProperty(x => x.State, oldBytes)));
        await app.WithDbAsync(db => db.Alerts.ExecuteUpdateAsync(a => a.SetProperty(x => x.State, AlertState.Invalid)));

        await PostAsync(100);
        var row = await Eventually.WaitAsync(() => app.WithDbAsync(db => db.SeriesStates.SingleAsync()),
            s => OnlineDetectorStateCodec.Decode(s.State).Count == 101);

        // Replayed with the current detector from the start: the state a fresh replay of the 101 points gives.
        medians = await app.WithDbAsync(db => db.Results.OrderBy(r => r.SeriesAt).Select(r => r.Median ?? r.Value!.Value).ToListAsync());
        var expected = OnlineDetectorState.Empty;
        foreach (var v in medians) expected = OnlineDetector.Add(expected, v).State;
        Assert.Equal(OnlineDetector.Version, row.State[0]);
        Assert.Equal(OnlineDetectorStateCodec.Encode(expected), row.State);
        Assert.Contains(expected.Tracks, t => t.Alert is { Index: 80 });

        // The replay found the change at commit 80 again, and the user's verdict on it stands.
        var after = Assert.Single(await app.WithDbAsync(db => db.Alerts.Where(a => a.Kind == AlertKind.ChangePoint).ToListAsync()));
        Assert.Equal((alert.Id, AlertState.Invalid), (after.Id, after.State));
    }
}
