using PerfService.Dashboard;
using PerfService.Data.Entities;

using PerfService.Runs;
using Outcome = PerfService.Core.Comparison.Outcome;
using PerfService.Core.Targets;
using PerfService.Hosting.Http;

namespace PerfService.IntegrationTests.Dashboard;

public class RunsAndOverviewTests(HistoryApp app) : IClassFixture<HistoryApp>
{
    private const string Project = HistoryApp.Project;
    // The pull-request run of the verdict test goes to its own suite, so it is never "the latest" of another test.
    private const string PrSuite = "pr-suite";

    [Fact]
    public async Task Runs_come_newest_first_and_pages_cover_each_run_once()
    {
        var client = app.CreateClient();
        var all = (await client.GetFromJsonAsync<Page<RunRowDto>>($"/api/v1/projects/{Project}/runs?limit=100"))!.Items;
        Assert.Equal(await app.WithDbAsync(db => db.Runs.CountAsync()), all.Count);
        Assert.Equal(all.OrderByDescending(r => r.CreatedAt).ThenByDescending(r => r.Id).Select(r => r.Id), all.Select(r => r.Id));
        var feature = Assert.Single(all, r => r.Id == app.FeatureRun);
        Assert.Equal(("feature", "i7-4790k", "maps", HistorySeed.Sha(6), 18, 0), (feature.Branch, feature.Profile, feature.Suite, feature.Commit, feature.Results, feature.Errors));

        var paged = new List<long>();
        for (var url = $"/api/v1/projects/{Project}/runs?limit=4"; url is not null;)
        {
            var page = (await client.GetFromJsonAsync<Page<RunRowDto>>(url))!;
            paged.AddRange(page.Items.Select(r => r.Id));
            url = page.Next;
        }
        Assert.Equal(all.Select(r => r.Id), paged);

        var csv = await client.GetStringAsync($"/api/v1/projects/{Project}/runs?format=csv&limit=100");
        var lines = csv.Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal("id,commit,branch,pull_request,profile,suite,role,round,job_id,created_at,results,errors", lines[0]);
        Assert.Equal(all.Count + 1, lines.Length);
    }

    [Fact]
    public async Task Overview_shows_the_latest_run_per_profile_open_alerts_and_failed_targets()
    {
        var latestRyzen = app.Runs[(4, "ryzen-9950x")];
        await app.WithDbAsync(async db =>
        {
            var projectId = db.Projects.Single(p => p.Slug == Project).Id;
            foreach (var state in new[] { AlertState.Active, AlertState.Active, AlertState.Acknowledged, AlertState.Fixed })
                db.Alerts.Add(new Alert { ProjectId = projectId, Kind = AlertKind.Regression, State = state, GroupKey = "g", Summary = "s", CreatedAt = DateTimeOffset.UtcNow, UpdatedAt = DateTimeOffset.UtcNow });
            db.TargetResults.Add(new TargetResult { RunId = latestRyzen, Name = "p99 under 5 ms", Outcome = TargetStatus.Fail, Actual = 6.5, Limit = 5 });
            db.TargetResults.Add(new TargetResult { RunId = latestRyzen, Name = "alloc-free", Outcome = TargetStatus.Pass, Actual = 0, Limit = 0 });
            db.TargetResults.Add(new TargetResult { RunId = app.Runs[(2, "ryzen-9950x")], Name = "old failure", Outcome = TargetStatus.Fail });
            return await db.SaveChangesAsync();
        });

        var overview = (await app.CreateClient().GetFromJsonAsync<OverviewDto>($"/api/v1/projects/{Project}/overview"))!;
        Assert.Superset(new HashSet<string> { "feature", "main" }, overview.Branches.ToHashSet());
        Assert.Equal((2, 1), (overview.OpenAlerts, overview.AcknowledgedAlerts));
        Assert.Equal([("i7-4790k", "maps", app.FeatureRun), ("i7-4790k", "newday", app.BdnRun), ("ryzen-9950x", "maps", latestRyzen)],
            overview.LatestRuns.Where(r => r.Suite != PrSuite).Select(r => (r.Profile, r.Suite, r.RunId)));
        Assert.Equal(18, overview.LatestRuns[0].Results);
        var failed = Assert.Single(overview.FailedTargets);
        Assert.Equal((latestRyzen, "ryzen-9950x", "p99 under 5 ms", 6.5, 5.0), (failed.RunId, failed.Profile, failed.Name, failed.Actual!.Value, failed.Limit!.Value));

        var targets = (await app.CreateClient().GetFromJsonAsync<List<TargetResultDto>>($"/api/v1/runs/{latestRyzen}/targets"))!;
        Assert.Equal([("alloc-free", "Pass"), ("p99 under 5 ms", "Fail")], targets.Select(t => (t.Name, t.Outcome)));
    }

    [Fact]
    public async Task Verdicts_are_those_of_the_runs_job_with_benchmark_measure_and_profile()
    {
        var hax = await app.BenchmarkAsync(HistoryApp.HaxReads(1).Key);
        var jobId = await app.WithDbAsync(async db =>
        {
            var job = new Job { ProjectId = db.Projects.Single(p => p.Slug == Project).Id, Kind = JobKind.PullRequest, Commit = HistorySeed.Sha(9), PullRequest = 7, ProfileId = 1, CreatedAt = DateTimeOffset.UtcNow };
            db.Jobs.Add(job);
            await db.SaveChangesAsync();
            db.Verdicts.Add(new Verdict
            {
                JobId = job.Id,
                ProjectId = job.ProjectId,
                PullRequest = 7,
                BenchmarkId = hax.Id,
                MeasureId = db.Measures.Single(m => m.Name == "time" && m.Unit == "ns").Id,
                ProfileId = 1,
                Outcome = Outcome.Regression,
                BaseMedian = 100,
                HeadMedian = 112,
                Change = 0.12,
                ChangeCiLower = 0.08,
                ChangeCiUpper = 0.16,
                PValue = 0.001,
                AdjustedPValue = 0.004,
                Threshold = 0.05,
                BaseSamples = 20,
                HeadSamples = 20,
                CreatedAt = DateTimeOffset.UtcNow,
            });
            await db.SaveChangesAsync();
            return job.Id;
        });
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        // Only an agent holding a running job may post runs for it (IngestionTests covers that); the seed links the run itself.
        var runId = await HistorySeed.UploadGoAsync(ingest, Project, 9, "ryzen-9950x", branch: "pr-7", suite: PrSuite);
        await app.WithDbAsync(db => db.Runs.Where(r => r.Id == runId).ExecuteUpdateAsync(s => s.SetProperty(r => r.JobId, jobId)));

        var verdict = Assert.Single((await app.CreateClient().GetFromJsonAsync<List<VerdictDto>>($"/api/v1/runs/{runId}/verdicts"))!);
        Assert.Equal((hax.Key, "time", "ns", "ryzen-9950x", "Regression", 0.12, 0.004), (verdict.Benchmark, verdict.Measure, verdict.Unit, verdict.Profile, verdict.Outcome, verdict.Change!.Value, verdict.AdjustedPValue!.Value));
        Assert.Empty((await app.CreateClient().GetFromJsonAsync<List<VerdictDto>>($"/api/v1/runs/{app.BdnRun}/verdicts"))!);
        Assert.Equal(HttpStatusCode.NotFound, (await app.CreateClient().GetAsync("/api/v1/runs/999999/verdicts")).StatusCode);
    }

    [Fact]
    public async Task Compare_gives_base_head_and_change_per_benchmark_and_measure()
    {
        var hax = HistoryApp.HaxReads(1);
        var bySha = (await app.CreateClient().GetFromJsonAsync<CompareDto>(
            $"/api/v1/projects/{Project}/compare?base={HistorySeed.Sha(1)}&head={HistorySeed.Sha(4)}&profile=i7-4790k"))!;
        // Every run of the commit on the profile counts, whatever its suite: the BenchmarkDotNet run has no head side.
        Assert.Equal([app.Runs[(1, "i7-4790k")], app.BdnRun], bySha.Base.Runs.Order());
        Assert.Equal(18, bySha.Rows.Count(r => r.Base is not null && r.Head is not null));
        Assert.All(bySha.Rows.Where(r => r.Head is null), r => Assert.Contains("N=", r.Benchmark));
        var row = Assert.Single(bySha.Rows, r => r.Benchmark == hax.Key && r.Measure == "time");
        Assert.Equal(hax.Value, row.Base);
        Assert.Equal(HistoryApp.HaxReads(1.5).Value, row.Head);
        Assert.Equal(50, row.ChangePercent!.Value, 1);

        // Runs fix the profile: the ryzen run compared with an i7 commit uses ryzen's results on both sides.
        var byRun = (await app.CreateClient().GetFromJsonAsync<CompareDto>(
            $"/api/v1/projects/{Project}/compare?base=run:{app.Runs[(2, "ryzen-9950x")]}&head={HistorySeed.Sha(4)}"))!;
        Assert.Equal(("ryzen-9950x", "ryzen-9950x"), (byRun.Base.Profile, byRun.Head.Profile));
        Assert.Equal([app.Runs[(4, "ryzen-9950x")]], byRun.Head.Runs);

        Assert.Equal(HttpStatusCode.BadRequest, (await app.CreateClient().GetAsync($"/api/v1/projects/{Project}/compare?base=c0de&head={HistorySeed.Sha(4)}")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await app.CreateClient().GetAsync($"/api/v1/projects/{Project}/compare?base=abcdef12&head={HistorySeed.Sha(4)}")).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await app.CreateClient().GetAsync($"/api/v1/projects/{Project}/compare?base=zz&head={HistorySeed.Sha(4)}")).StatusCode);
    }
}
