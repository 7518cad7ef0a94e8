using System.Text.Json;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;

namespace PerfService.IntegrationTests.PullRequests;

/// <summary>
/// A CI job that posts its pull request's results itself (<c>perf-agent submit --pr</c>), with no agent job: the runs
/// are gathered into one submitted job per head commit and profile and judged against the main branch's history.
/// </summary>
public class SubmittedPullRequestTests : OwnServiceTests
{
    [Fact]
    public async Task Runs_posted_with_a_pull_request_number_are_judged_and_reported()
    {
        await app.CreateProjectAsync("submitted");
        await PullRequestJobs.SeedMainAsync(app, "submitted", "m1-pro", "ab00", "Fibers.Switch", [100, 100, 100, 100, 100, 100]);
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);

        // Two suites of one pull request at once: both land in the same job; the slowed benchmark is a regression.
        var posts = new[] { ("fibers", "Fibers.Switch", 125.0), ("queues", "Queue.Push", 50.0) }.Select(s => IngestionTests.Post(ingest, new RunMetadata
        {
            Project = "submitted", Commit = "cd000001", BaseCommit = "ab0005", PullRequest = 9, Branch = "feature", Profile = "m1-pro", Suite = s.Item1,
        }, null, ("r.json", Generic.Times((s.Item2, Generic.Around(s.Item3, 0.01, 20, seed: 3)))))).ToList();
        foreach (var response in await Task.WhenAll(posts)) Assert.Equal(HttpStatusCode.Created, response.StatusCode);

        // With one background worker the first run's comparison may come before the second run is attached: wait until
        // both runs belong to the job and then for the report (judged again once the second arrived).
        await Eventually.WaitAsync(() => app.WithDbAsync(db => db.Runs.CountAsync(r => db.Jobs.Any(j => j.Id == r.JobId && j.PullRequest == 9))), n => n == 2);
        var anonymous = app.CreateClient();
        var rows = await Eventually.WaitAsync(async () =>
        {
            // 404 until the runs are analysed and the pull request has a job.
            using var response = await anonymous.GetAsync("/api/v1/projects/submitted/pulls/9/report");
            if (response.StatusCode == HttpStatusCode.NotFound) return [];
            var report = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
            return report.TryGetProperty("rows", out var r) ? r.EnumerateArray().Select(x => x.Clone()).ToList() : [];
        }, r => r.Count >= 1);
        var row = Assert.Single(rows, r => r.GetProperty("benchmark").GetString() == "Fibers.Switch");
        Assert.Equal("Regression", row.GetProperty("outcome").GetString());
        Assert.True(row.GetProperty("baselineFromHistory").GetBoolean());

        var jobs = await app.WithDbAsync(db => db.Jobs.Where(j => j.PullRequest == 9).ToListAsync());
        var job = Assert.Single(jobs);
        Assert.Equal((JobKind.Submitted, JobState.Succeeded, "cd000001", "ab0005"), (job.Kind, job.State, job.Commit, job.BaseCommit));
        Assert.Equal(["fibers", "queues"], job.Suites.Order());
        Assert.Equal(2, await app.WithDbAsync(db => db.Runs.CountAsync(r => r.JobId == job.Id)));
        // Nothing for an agent to claim, even if a verdict were inconclusive.
        Assert.Null(await (await AgentClient.RegisterAsync(app, "nobody", "m1-pro")).ClaimAsync());
    }

    [Fact]
    public async Task Nobody_can_queue_a_submitted_job()
    {
        await app.CreateProjectAsync("submitted-kind");
        var admin = await app.ClientWithScopesAsync(Scopes.Admin);
        var response = await admin.PostAsJsonAsync("/api/v1/jobs", new { project = "submitted-kind", commit = "abcdef12", kind = "Submitted" });
        Assert.Equal(HttpStatusCode.UnprocessableEntity, response.StatusCode);
        Assert.Contains("Submitted", await response.Content.ReadAsStringAsync());
    }
}
