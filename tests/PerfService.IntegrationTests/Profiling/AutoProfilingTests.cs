using PerfService.Core.Comparison;
using PerfService.Core.Reports;
using PerfService.Data.Entities;
using PerfService.IntegrationTests.PullRequests;

namespace PerfService.IntegrationTests.Profiling;

/// <summary>A pull request judged with a regression queues a profiling job on the agent that measured it; that job never
/// counts as the pull request's work, and its profiles link from the report.</summary>
public class AutoProfilingTests : OwnServiceTests
{
    private const string Slow = "Rivulet.Streams.ParallelFor";

    [Fact]
    public async Task A_regression_is_profiled_on_the_agent_that_measured_it_and_the_report_links_the_flame_graph()
    {
        await app.CreateProjectAsync("auto-prof");
        var agent = await AgentClient.RegisterAsync(app, "auto-measurer", "m1-pro");
        static byte[] Samples(string role, int round) => Generic.Times(
            (Slow, Generic.Around(role == "head" ? 130 : 100, 0.01, 20, seed: round * 10 + (role == "head" ? 1 : 2))),
            ("Other.Steady", Generic.Around(1000, 0.01, 20, seed: round * 10 + (role == "head" ? 3 : 4))));
        var (measuring, verdicts) = await PullRequestJobs.RunAsync(app, agent, "auto-prof", "m1-pro", 3, "abcd0001", "abcd0000", Samples, rounds: 2, expectedVerdicts: 2);
        Assert.Equal(Outcome.Regression, verdicts.Single(v => v.Key == Slow).Outcome);

        var profiling = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => db.Jobs.Where(j => j.Kind == JobKind.Profile).ToListAsync()), jobs => jobs.Count > 0);
        var job = Assert.Single(profiling);
        Assert.Equal(("abcd0001", "abcd0000", 3, agent.Id), (job.Commit, job.BaseCommit, job.PullRequest!.Value, job.PinnedAgentId!.Value));
        Assert.Equal([new ProfileTarget("fibers", Slow)], job.Profiling!.Targets); // the regressed benchmark only

        // Pinned: another agent of the same hardware profile does not get it; the one that measured does.
        var other = await AgentClient.RegisterAsync(app, "auto-other", "m1-pro");
        Assert.Null(await other.ClaimAsync());
        var claimed = (await agent.ClaimAsync())!;
        Assert.Equal(job.Id, claimed.JobId);
        Assert.Equal(job.Profiling.Targets, claimed.Profiling!.Targets);

        // Running, it is not the pull request's newest job: the report is complete and names the measured head.
        var anonymous = app.CreateClient();
        var report = (await anonymous.GetFromJsonAsync<PullRequestReport>("/api/v1/projects/auto-prof/pulls/3/report", ReportJson.Options))!;
        Assert.Empty(report.PendingProfiles);
        Assert.Null(report.Rows.Single(r => r.Benchmark == Slow).ProfilePath);

        foreach (var (role, share) in new[] { ("base", 0.10), ("head", 0.30) })
            Assert.Equal(HttpStatusCode.Created, (await ProfileUploads.PostAsync(agent.Http, job.Id, agent.Id, Slow, role,
                ProfileUploads.Folded("Rivulet.Streams.Partitioner.Next", share))).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(job.Id)).StatusCode);

        report = (await anonymous.GetFromJsonAsync<PullRequestReport>("/api/v1/projects/auto-prof/pulls/3/report", ReportJson.Options))!;
        Assert.Empty(report.PendingProfiles);
        Assert.Equal($"profile.html?job={job.Id}&benchmark={Uri.EscapeDataString(Slow)}", report.Rows.Single(r => r.Benchmark == Slow).ProfilePath);
        Assert.Null(report.Rows.Single(r => r.Benchmark == "Other.Steady").ProfilePath);
        // It fed nothing: no verdict, no run, and the measuring job's verdicts are as they were.
        Assert.Equal(0, await app.WithDbAsync(db => db.Verdicts.CountAsync(v => v.JobId == job.Id)));
        Assert.Equal(0, await app.WithDbAsync(db => db.Runs.CountAsync(r => r.JobId == job.Id)));
        Assert.Equal(2, await app.WithDbAsync(db => db.Verdicts.CountAsync(v => v.JobId == measuring)));
        var diff = (await anonymous.GetFromJsonAsync<PerfService.Profiling.DifferentialDto>(
            $"/api/v1/jobs/{job.Id}/profiles/differential?benchmark={Uri.EscapeDataString(Slow)}"))!;
        Assert.Equal("Rivulet.Streams.Partitioner.Next", diff.Grown[0].Frame);
    }
}
