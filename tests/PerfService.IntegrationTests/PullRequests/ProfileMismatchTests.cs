using PerfService.Data.Entities;
using PerfService.IntegrationTests.Ingestion;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.PullRequests;

/// <summary>Runs flagged as a profile mismatch are kept, but stay out of pull-request baselines unless the project opts in.</summary>
public class ProfileMismatchTests : OwnServiceTests
{
    private const string Benchmark = "Fibers.Switch";

    private static byte[]? HeadOnly(string role, int round) =>
        role == "head" ? Generic.Times((Benchmark, Generic.Around(120, 0.01, 20, seed: 7 + round))) : null;

    [Fact]
    public async Task Mismatched_runs_do_not_make_the_baseline()
    {
        await app.CreateProjectAsync("mismatch");
        var ingest = await app.ClientWithScopesAsync(Scopes.Ingest);
        var start = new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
        // main: five runs at 100 ns on the right machine, then five later ones at 130 ns from a mismatched machine.
        for (var i = 0; i < 10; i++)
        {
            var mismatch = i >= 5;
            var meta = new RunMetadata
            {
                Project = "mismatch", Commit = $"ee00{i:00}", CommittedAt = start.AddHours(i), Branch = "main", Profile = "m1-pro", Suite = "fibers",
                ProfileMismatch = mismatch,
            };
            var files = Generic.Times((Benchmark, Generic.Around(mismatch ? 130 : 100, 0.01, 20, seed: 100 + i)));
            Assert.Equal(HttpStatusCode.Created, (await IngestionTests.Post(ingest, meta, null, ("r.json", files))).StatusCode);
        }
        var agent = await AgentClient.RegisterAsync(app, "mismatch-agent", "m1-pro");

        // Base commit unknown: the latest five main runs are the baseline, and only the matching ones count.
        var (_, verdicts) = await PullRequestJobs.RunAsync(app, agent, "mismatch", "m1-pro", 3, "ff000001", "ffff0001", HeadOnly);
        var v = Assert.Single(verdicts);
        Assert.Equal(Outcome.Regression, v.Outcome);
        Assert.InRange(v.Change!.Value, 0.17, 0.23);
        Assert.Equal(5 * 20, v.BaseSamples);
        Assert.Equal(10, await app.WithDbAsync(db => Task.FromResult(db.Runs.Count(r => r.PullRequest == null))));
    }
}
