using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.PullRequests;

/// <summary>An inconclusive verdict queues a re-run whose rounds are pooled with the first attempt's, not judged alone.</summary>
public class RerunPoolingTests : OwnServiceTests
{
    private const string Benchmark = "Fibers.Switch";

    // No change, with ±15% uniform noise: one round a side cannot rule out a 5% change.
    private static byte[] Samples(string role, int round, long jobId) =>
        Generic.Times((Benchmark, Generic.Around(100, 0.15, 20, seed: (int)(jobId * 100 + round * 2 + (role == "head" ? 1 : 0)))));

    [Fact]
    public async Task A_rerun_adds_rounds_to_the_same_comparison()
    {
        await app.CreateProjectAsync("rerun-pool");
        var agent = await AgentClient.RegisterAsync(app, "rerun-agent", "m1-pro");
        var (firstJob, first) = await PullRequestJobs.RunAsync(app, agent, "rerun-pool", "m1-pro", 7, "ab000001", "cd000001",
            (role, round) => Samples(role, round, 1));
        var v = Assert.Single(first);
        Assert.True(v.Outcome == Outcome.Inconclusive, v.Reason);
        Assert.Contains("rounds a side", v.Reason);

        // The re-run asks for the rounds the verdict said would decide it, less the one already run (or doubles them).
        // The re-run is queued just after the verdicts commit: wait for it (a long poll) rather than race it.
        var rerun = (await agent.ClaimAsync(waitSeconds: 10))!;
        Assert.Equal("ab000001", rerun.Commit);
        Assert.True(rerun.Rounds >= 1);
        var kind = await app.WithDbAsync(db => db.Jobs.Where(j => j.Id == rerun.JobId).Select(j => j.Kind).SingleAsync());
        Assert.Equal(JobKind.Rerun, kind);
        for (var round = 0; round < rerun.Rounds; round++)
            foreach (var role in new[] { "base", "head" })
            {
                var meta = new RunMetadata
                {
                    Project = "rerun-pool", Commit = role == "head" ? rerun.Commit : rerun.BaseCommit!, BaseCommit = rerun.BaseCommit,
                    PullRequest = rerun.PullRequest, Profile = "m1-pro", JobId = rerun.JobId, Suite = "fibers", Role = role, Round = round,
                };
                var response = await IngestionTests.Post(agent.Http, meta, $"job-{rerun.JobId}-{role}-{round}", ("results.json", Samples(role, round, 2)));
                Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            }
        Assert.Equal(HttpStatusCode.NoContent, (await agent.CompleteAsync(rerun.JobId)).StatusCode);

        var pooled = await Eventually.WaitAsync(
            () => app.WithDbAsync(db => db.Verdicts.Where(x => x.JobId == rerun.JobId).ToListAsync()), x => x.Count == 1);
        var total = 1 + rerun.Rounds;
        var p = Assert.Single(pooled);
        Assert.Equal(20 * total, p.BaseSamples);
        Assert.Equal(20 * total, p.HeadSamples);
        Assert.Contains($"{total}+{total} rounds", p.Reason);
        // The first attempt's verdict is kept as it was, and the pull request now reads the pooled one.
        Assert.Single(await app.WithDbAsync(db => db.Verdicts.Where(x => x.JobId == firstJob).ToListAsync()));
    }

    [Fact]
    public void Rerun_rounds_stop_at_the_budget()
    {
        Core.Comparison.Verdict Wanting(int? rounds) => new() { Key = "k", Measure = "time", Unit = "ns", Reason = "", WantsRerun = true, RoundsToDecide = rounds };
        Assert.Equal(4, PerfService.PullRequests.PullRequestComparisonJob.RerunRounds([Wanting(5)], 1, 12));
        Assert.Equal(3, PerfService.PullRequests.PullRequestComparisonJob.RerunRounds([Wanting(20)], 9, 12));
        Assert.Equal(0, PerfService.PullRequests.PullRequestComparisonJob.RerunRounds([Wanting(20)], 12, 12));
        Assert.Equal(2, PerfService.PullRequests.PullRequestComparisonJob.RerunRounds([Wanting(null)], 2, 12));
    }
}
