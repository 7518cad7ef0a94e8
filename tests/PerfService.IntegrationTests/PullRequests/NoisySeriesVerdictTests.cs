using System.Text.Json;
using PerfService.Core.Comparison;

namespace PerfService.IntegrationTests.PullRequests;

/// <summary>
/// On a series whose main-branch runs wander by tens of percent, a pull request's +30% is not "no change": the
/// verdict is inconclusive and says the series is too noisy, and the stored verdict, the run's verdicts (the pull
/// request's page) and the comment all show the margins used.
/// </summary>
public class NoisySeriesVerdictTests : OwnServiceTests
{
    private const string Benchmark = "Fibers.Spawn";

    // main: two modes, as on a machine that meets interference on some runs (about ±30% from run to run).
    private static readonly double[] MainLevels = [100, 140, 95, 150, 105, 90, 145, 100, 160, 98, 135, 92, 150, 104, 96];

    private static byte[] ThirtyPercentSlower(string role, int round) =>
        Generic.Times((Benchmark, Generic.Around(role == "head" ? 130 : 100, 0.01, 20, seed: round * 10 + (role == "head" ? 1 : 2))));

    [Fact]
    public async Task A_large_change_on_a_noisy_series_is_inconclusive_with_the_noise_and_the_margins_shown()
    {
        await app.CreateProjectAsync("noisy-pr");
        await PullRequestJobs.SeedMainAsync(app, "noisy-pr", "m1-pro", "ee00", Benchmark, MainLevels);
        var agent = await AgentClient.RegisterAsync(app, "noisy-agent", "m1-pro");

        var (jobId, verdicts) = await PullRequestJobs.RunAsync(app, agent, "noisy-pr", "m1-pro", 5, "ff000001", "ee0014", ThirtyPercentSlower, rounds: 2);

        var v = Assert.Single(verdicts);
        Assert.InRange(v.Change!.Value, 0.25, 0.35);
        Assert.Equal(Outcome.Inconclusive, v.Outcome);
        Assert.Contains("too noisy to judge a change of ±5.0%", v.Reason, StringComparison.Ordinal);
        Assert.Contains("run-to-run noise ±", v.Reason, StringComparison.Ordinal);
        var stored = await app.WithDbAsync(db => db.Verdicts.SingleAsync(x => x.JobId == jobId));
        Assert.Equal(0.05, stored.NoChangeMargin);
        Assert.True(stored.Threshold > 0.3, $"the noise-widened threshold {stored.Threshold}");

        var anonymous = app.CreateClient();
        var runId = await app.WithDbAsync(db => db.Runs.Where(r => r.JobId == jobId).Select(r => r.Id).FirstAsync());
        var shown = Assert.Single(JsonDocument.Parse(await anonymous.GetStringAsync($"/api/v1/runs/{runId}/verdicts")).RootElement.EnumerateArray().ToList());
        Assert.Equal((0.05, stored.Threshold), (shown.GetProperty("noChangeMargin").GetDouble(), shown.GetProperty("threshold").GetDouble()));
        var comment = await anonymous.GetStringAsync("/api/v1/projects/noisy-pr/pulls/5/comment");
        Assert.Contains($"±5% / ±{(stored.Threshold * 100).ToString("0.#", System.Globalization.CultureInfo.InvariantCulture)}%", comment, StringComparison.Ordinal);
        Assert.Contains("Margin: no change only within the first figure", comment, StringComparison.Ordinal);
    }
}
