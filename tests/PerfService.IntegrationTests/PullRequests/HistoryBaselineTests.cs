using System.Text.Json;
using PerfService.Data.Entities;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.PullRequests;

/// <summary>A pull-request job without base samples is judged against the main branch's recent runs on its profile.</summary>
public class HistoryBaselineTests : OwnServiceTests
{
    private const string Benchmark = "Fibers.Switch";

    // main: m00..m04 at 100 ns, then a step to 130 ns at m05..m09. The pull request's head runs at 120 ns.
    private static readonly double[] MainLevels = [100, 100, 100, 100, 100, 130, 130, 130, 130, 130];

    private static byte[]? HeadOnly(string role, int round) =>
        role == "head" ? Generic.Times((Benchmark, Generic.Around(120, 0.01, 20, seed: 7 + round))) : null;

    [Fact]
    public async Task A_job_without_base_runs_is_judged_against_main_at_or_before_its_base_commit()
    {
        await app.CreateProjectAsync("hist-known");
        await PullRequestJobs.SeedMainAsync(app, "hist-known", "m1-pro", "aa00", Benchmark, MainLevels);
        var agent = await AgentClient.RegisterAsync(app, "hist-agent-known", "m1-pro");

        // Based on m04: the five runs m00..m04 at 100 ns, not the later 130 ns ones, make the baseline.
        var (_, verdicts) = await PullRequestJobs.RunAsync(app, agent, "hist-known", "m1-pro", 21, "bb000001", "aa0004", HeadOnly);

        var v = Assert.Single(verdicts);
        Assert.Equal(Outcome.Regression, v.Outcome);
        Assert.InRange(v.Change!.Value, 0.17, 0.23);
        Assert.Equal(5 * 20, v.BaseSamples);
        Assert.Equal(20, v.HeadSamples);
        Assert.EndsWith("; baseline from main history: 5 runs at or before aa0004", v.Reason);

        var anonymous = app.CreateClient();
        var report = JsonDocument.Parse(await anonymous.GetStringAsync("/api/v1/projects/hist-known/pulls/21/report")).RootElement;
        Assert.True(Assert.Single(report.GetProperty("rows").EnumerateArray().ToList()).GetProperty("baselineFromHistory").GetBoolean());
        Assert.Contains("Fibers.Switch †", await anonymous.GetStringAsync("/api/v1/projects/hist-known/pulls/21/comment"));
    }

    [Fact]
    public async Task Interleaved_base_samples_are_preferred_and_an_unknown_base_commit_takes_the_latest_main_runs()
    {
        await app.CreateProjectAsync("hist-unknown");
        await PullRequestJobs.SeedMainAsync(app, "hist-unknown", "m1-pro", "cc00", Benchmark, MainLevels);
        var agent = await AgentClient.RegisterAsync(app, "hist-agent-unknown", "m1-pro");

        // The service never saw this base commit: the latest five main runs (130 ns) are the baseline, so 120 ns is faster.
        var (_, fromHistory) = await PullRequestJobs.RunAsync(app, agent, "hist-unknown", "m1-pro", 31, "dd000001", "eeee0001", HeadOnly);
        var v = Assert.Single(fromHistory);
        Assert.Equal(Outcome.Improvement, v.Outcome);
        Assert.InRange(v.Change!.Value, -0.10, -0.05);
        Assert.EndsWith("; baseline from main history: the latest 5 runs (base commit not known)", v.Reason);

        // With base rounds in the job, those are the baseline and history stays out of it.
        var (_, interleaved) = await PullRequestJobs.RunAsync(app, agent, "hist-unknown", "m1-pro", 32, "dd000002", "eeee0001",
            (role, round) => Generic.Times((Benchmark, Generic.Around(120, 0.01, 20, seed: role == "head" ? 40 + round : 50 + round))));
        var same = Assert.Single(interleaved);
        Assert.Equal(Outcome.NoChange, same.Outcome);
        Assert.Equal(20, same.BaseSamples);
        Assert.DoesNotContain("baseline from", same.Reason);
    }
}
