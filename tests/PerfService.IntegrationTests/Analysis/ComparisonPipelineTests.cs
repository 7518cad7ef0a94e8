using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>The whole judgement against a real PostgreSQL: verdicts of a pull-request job, change points on main, targets.</summary>
public class ComparisonPipelineTests : OwnServiceTests
{
    [Fact]
    public async Task A_pull_request_job_yields_a_regression_for_the_slowed_benchmark_and_no_change_for_the_rest()
    {
        await app.CreateProjectAsync("cmp-pr");
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        (await admin.PostAsJsonAsync("/api/v1/jobs", new { project = "cmp-pr", commit = "bbbb0002", baseCommit = "aaaa0001", pullRequest = 12, profiles = new[] { "m1-pro" }, rounds = 2 }))
            .EnsureSuccessStatusCode();
        var agent = await AgentClient.RegisterAsync(app, "cmp-agent", "m1-pro");
        var job = (await agent.ClaimAsync())!;

        for (var round = 0; round < job.Rounds; round++)
            foreach (var role in new[] { "base", "head" })
            {
                var slow = role == "head" ? 1.20 : 1.0;
                var files = Generic.Times(
                    ("Fibers.Switch", Generic.Around(100 * slow, 0.02, 20, seed: round * 10 + (role == "head" ? 1 : 2))),
                    ("Fibers.Spawn", Generic.Around(5000, 0.02, 20, seed: round * 10 + (role == "head" ? 3 : 4))));
                var meta = new RunMetadata
                {
                    Project = "cmp-pr", Commit = role == "head" ? job.Commit : job.BaseCommit!, BaseCommit = job.BaseCommit,
                    PullRequest = job.PullRequest, Profile = "m1-pro", Agent = "cmp-agent", JobId = job.JobId, Suite = "fibers", Role = role, Round = round,
                };
                var response = await IngestionTests.Post(agent.Http, meta, $"job-{job.JobId}-fibers-{role}-{round}", ("results.json", files));
                Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            }
        Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(job.JobId)).StatusCode);

        var verdicts = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => (from v in db.Verdicts join b in db.Benchmarks on v.BenchmarkId equals b.Id
                                         where v.JobId == job.JobId select new { b.Key, v.Outcome, v.Change, v.HeadSamples }).ToListAsync()),
            v => v.Count == 2);
        Assert.Equal(2, verdicts.Count);
        var slowed = Assert.Single(verdicts, v => v.Key == "Fibers.Switch");
        Assert.Equal(Outcome.Regression, slowed.Outcome);
        Assert.InRange(slowed.Change!.Value, 0.15, 0.25);
        Assert.Equal(40, slowed.HeadSamples); // both rounds' samples
        Assert.Equal(Outcome.NoChange, Assert.Single(verdicts, v => v.Key == "Fibers.Spawn").Outcome);

        var alert = await app.WithDbAsync(db => db.Alerts.SingleAsync(a => a.Kind == AlertKind.Regression));
        Assert.Equal("bbbb0002", alert.ToCommit);
        Assert.Contains("Fibers.Switch", alert.Summary);
    }

    [Fact]
    public async Task A_step_planted_on_main_raises_one_alert_at_its_commit_and_a_return_to_the_old_level_fixes_it()
    {
        await app.CreateProjectAsync("cmp-main");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        var start = new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
        async Task PostPoint(int i, double level)
        {
            var meta = new RunMetadata
            {
                Project = "cmp-main", Commit = $"c0ffee{i:0000}", CommittedAt = start.AddHours(i), Branch = "main", Profile = "i7-4790k", Suite = "core",
            };
            var files = Generic.Times(("Core.Append", Generic.Around(level, 0.01, 10, seed: i)));
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
        }

        for (var i = 0; i < 40; i++) await PostPoint(i, i < 25 ? 1000 : 1300);
        var (alerts, _) = await Eventually.WaitAsync(
            async () => (Alerts: await app.WithDbAsync(db => db.Alerts.Where(a => a.Kind == AlertKind.ChangePoint).ToListAsync()),
                Processed: await ProcessedAll(40)),
            a => a.Alerts.Count > 0 && a.Processed);
        var alert = Assert.Single(alerts);
        Assert.Equal("c0ffee0025", alert.ToCommit);
        Assert.Equal("c0ffee0024", alert.FromCommit);
        Assert.Equal(AlertState.Active, alert.State);
        // Named by its benchmark, measure and profile, read for the series that raised.
        Assert.Matches(@"^regression of \+\d+\.\d ?% in Core\.Append time on i7-4790k between c0ffee0024 and c0ffee0025$", alert.Summary);

        for (var i = 40; i < 80; i++) await PostPoint(i, i < 55 ? 1300 : 1000);
        var fixedAlert = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => db.Alerts.SingleAsync(a => a.Id == alert.Id)),
            a => a.State == AlertState.Fixed);
        Assert.Equal(AlertState.Fixed, fixedAlert.State);
        var events = await app.WithDbAsync(db => db.AlertEvents.Where(e => e.AlertId == alert.Id).OrderBy(e => e.Id).ToListAsync());
        Assert.Equal([AlertState.Active, AlertState.Fixed], events.Select(e => e.ToState));
    }

    private Task<bool> ProcessedAll(int points) =>
        app.WithDbAsync(db => db.SeriesStates.AnyAsync(s => s.LastResultId != 0 &&
            db.Results.Count(r => r.BenchmarkId == s.BenchmarkId && r.Id <= s.LastResultId) >= points));
}
