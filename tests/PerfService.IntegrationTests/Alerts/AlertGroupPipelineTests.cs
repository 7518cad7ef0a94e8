using PerfService.Alerts;
using PerfService.Dashboard;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;
using PerfService.Hosting.Http;

namespace PerfService.IntegrationTests.Alerts;

/// <summary>
/// One planted slowdown, as analysis sees it: runs of two benchmarks on two profiles, a +30% step at the same commit.
/// The change-point updater raises four alerts (the profiles are analysed apart, possibly at once), and they arrive
/// in one group.
/// </summary>
public class AlertGroupPipelineTests : OwnServiceTests
{
    private static readonly DateTimeOffset Start = new(2026, 2, 1, 0, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task A_slowdown_on_two_benchmarks_and_two_profiles_raises_one_group_of_four_alerts()
    {
        await app.CreateProjectAsync("pipeline");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        for (var i = 0; i < 100; i++)
        {
            var level = i < 80 ? 1000.0 : 1300.0;
            foreach (var profile in new[] { "m1-pro", "i7-4790k" })
            {
                var meta = new RunMetadata { Project = "pipeline", Commit = $"beef{i:0000}", CommittedAt = Start.AddHours(i), Branch = "main", Profile = profile, Suite = "s" };
                var files = Generic.Times(("Store.Read", Generic.Around(level, 0.01, 10, seed: i)), ("Store.Write", Generic.Around(2 * level, 0.01, 10, seed: 1000 + i)));
                Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
            }
        }

        var alerts = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => db.Alerts.AsNoTracking().Where(a => a.Kind == AlertKind.ChangePoint).ToListAsync()),
            a => a.Count >= 4 && a.All(x => x.AlertGroupId is not null));
        Assert.Equal(4, alerts.Count);
        Assert.All(alerts, a => Assert.Equal(("beef0079", "beef0080"), (a.FromCommit, a.ToCommit)));
        Assert.Single(alerts.Select(a => a.AlertGroupId).Distinct());

        // A 30% step on 1% noise takes the fast path: three points at the new level are enough (found two after it).
        var listed = (await app.CreateClient().GetFromJsonAsync<Page<AlertDto>>("/api/v1/alerts?project=pipeline"))!.Items;
        Assert.Equal([2, 2, 2, 2], listed.Where(a => a.Kind == "ChangePoint").Select(a => a.FoundAfter));

        var page = (await app.CreateClient().GetFromJsonAsync<Page<AlertGroupDto>>("/api/v1/projects/pipeline/alert-groups"))!;
        var group = Assert.Single(page.Items);
        Assert.Equal((4, "beef0079", "beef0080", "Active"), (group.Members, group.FromCommit, group.ToCommit, group.State));
        Assert.Equal(["Store.Read", "Store.Write"], group.Benchmarks.Select(b => b.Key));
        Assert.Equal(["i7-4790k", "m1-pro"], group.Profiles);
        Assert.InRange(group.LargestChange!.Value, 0.25, 0.35);
        Assert.InRange(group.MedianChange!.Value, 0.25, 0.35);
    }
}
