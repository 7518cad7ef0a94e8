using PerfService.Core.Suites;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;
using PerfService.Core.Targets;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>Issue 16: a target alert names the commit and the benchmark that broke the target, and its message names
/// both benchmarks of a relative target.</summary>
public class TargetAlertTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private static readonly TargetDeclaration Overhead = new()
    {
        Name = "features under 10% overhead", Benchmark = "Pipeline.WithFeatures", Baseline = "Pipeline.NoFeatures", Op = "<=", Value = 1.1,
    };

    [Fact]
    public async Task A_relative_target_broken_on_main_opens_an_alert_at_the_commit_with_the_failing_benchmark()
    {
        await app.CreateProjectAsync("target-alerts");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        await Post(ingest, "ab000001", withFeatures: 105);
        // Once the run is judged (its target passes), no alert of this project.
        await Eventually.WaitAsync(() => app.WithDbAsync(db => TargetResults(db).CountAsync()), n => n >= 1);
        Assert.Empty(await app.WithDbAsync(db => TargetAlerts(db).ToListAsync()));

        await Post(ingest, "ab000002", withFeatures: 130);
        var alert = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => TargetAlerts(db).FirstOrDefaultAsync()), a => a is not null);
        var (benchmark, measure) = await app.WithDbAsync(async db => (
            await db.Benchmarks.Where(b => b.Id == alert!.BenchmarkId).Select(b => b.Key).SingleAsync(),
            await db.Measures.Where(m => m.Id == alert!.MeasureId).Select(m => m.Name).SingleAsync()));
        Assert.Equal(("Pipeline.WithFeatures", "time", "ab000002"), (benchmark, measure, alert!.ToCommit));
        Assert.Contains("Pipeline.WithFeatures is 1.3× Pipeline.NoFeatures, not <= 1.1×", alert.Summary);
        Assert.Contains("at ab000002", alert.Summary);

        // The alerts API carries them, so the page shows the benchmark and the commit instead of "–".
        var json = await app.CreateClient().GetStringAsync($"/api/v1/alerts?project=target-alerts");
        Assert.Contains("\"benchmark\":\"Pipeline.WithFeatures\"", json);
        Assert.Contains("\"toCommit\":\"ab000002\"", json);

        // Still failing on the next commit: the same alert, not a second one.
        await Post(ingest, "ab000003", withFeatures: 131);
        await Eventually.WaitAsync(() => app.WithDbAsync(db => TargetResults(db).CountAsync()), n => n >= 3);
        Assert.Single(await app.WithDbAsync(db => TargetAlerts(db).ToListAsync()));
    }

    // This project's alerts only: the class's other test opens target alerts of its own, and runs before or after.
    private static IQueryable<Alert> TargetAlerts(PerfService.Data.PerfDbContext db) =>
        db.Alerts.Where(a => a.Kind == AlertKind.Target && db.Projects.Any(p => p.Id == a.ProjectId && p.Slug == "target-alerts"));

    private static IQueryable<TargetResult> TargetResults(PerfService.Data.PerfDbContext db) =>
        db.TargetResults.Where(t => t.Name.StartsWith(Overhead.Name) && db.Runs.Any(r => r.Id == t.RunId && r.Project!.Slug == "target-alerts"));

    [Fact]
    public async Task A_relative_target_pairs_each_runtimes_benchmark_with_the_baseline_of_its_own_runtime()
    {
        // Rivulet's shape: one suite run on .NET 10 and .NET 8, the job naming the runtime. Stored results must keep
        // their job, or every baseline ties ("ambiguous baseline") and no runtime's target is judged.
        await app.CreateProjectAsync("target-runtimes");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        var meta = new RunMetadata { Project = "target-runtimes", Commit = "cd000001", Branch = "main", Profile = "m1-pro", Suite = "pipeline", Targets = [Overhead] };
        var file = System.Text.Encoding.UTF8.GetBytes(System.Text.Json.JsonSerializer.Serialize(new
        {
            results = new[] { ("Quick", 100.0, 105.0), ("Quick-net8.0", 200.0, 260.0) }.SelectMany(j => new[]
            {
                new { benchmark = "Pipeline.NoFeatures", job = j.Item1, unit = "ns", samples = Generic.Around(j.Item2, 0.005, 10, seed: 3) },
                new { benchmark = "Pipeline.WithFeatures", job = j.Item1, unit = "ns", samples = Generic.Around(j.Item3, 0.005, 10, seed: 5) },
            }),
        }));
        Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", file))).StatusCode);

        var results = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => db.TargetResults.Where(t => db.Runs.Any(r => r.Id == t.RunId && db.Projects.Any(p => p.Id == r.ProjectId && p.Slug == "target-runtimes")))
                .OrderBy(t => t.Actual).ToListAsync()), r => r.Count >= 2);
        Assert.DoesNotContain(results, r => r.Detail != null && r.Detail.Contains("ambiguous", StringComparison.Ordinal));
        Assert.Equal([TargetStatus.Pass, TargetStatus.Fail], results.Select(r => r.Outcome));
        Assert.Equal([1.05, 1.3], results.Select(r => Math.Round(r.Actual!.Value, 2)));
    }

    private static async Task Post(HttpClient client, string commit, double withFeatures)
    {
        var meta = new RunMetadata { Project = "target-alerts", Commit = commit, Branch = "main", Profile = "m1-pro", Suite = "pipeline", Targets = [Overhead] };
        var files = Generic.Times(("Pipeline.NoFeatures", Generic.Around(100, 0.005, 10, seed: 3)), ("Pipeline.WithFeatures", Generic.Around(withFeatures, 0.005, 10, seed: 5)));
        var response = await IngestionTests.Post(client, meta, null, ("r.json", files));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        _ = await response.Content.ReadFromJsonAsync<RunCreated>();
    }
}
