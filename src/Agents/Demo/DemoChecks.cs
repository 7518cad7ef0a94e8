using System.Text.Json.Nodes;

namespace PerfService.Agents.Demo;

/// <summary>
/// Reads back from the API what the demo planted: a change point on main at the planting commit, and a regression
/// verdict on the pull request. Analysis runs in the background after the last job, so each check waits a little.
/// </summary>
public sealed class DemoChecks(DemoApi api, DemoScenario scenario, DemoRepository.History history, TextWriter output)
{
    public async Task<bool> RunAsync(CancellationToken ct)
    {
        var planted = history.Main[scenario.PlantedAt].Sha;
        var changeOk = await EventuallyAsync(async () =>
        {
            var alerts = await api.GetArrayAsync($"api/v1/alerts?project={DemoScenario.Project}&limit=500", ct);
            var found = alerts.Where(a => string.Equals((string?)a!["kind"], "ChangePoint", StringComparison.OrdinalIgnoreCase)
                                          && (string?)a["toCommit"] == planted
                                          && ((string?)a["summary"] ?? "").Contains(scenario.MainSlowedBenchmark)).ToList();
            return (found.Count > 0, $"change point of {scenario.MainSlowedBenchmark}* at {planted[..10]} (commit {scenario.PlantedAt + 1} of main): " +
                (found.Count > 0 ? $"found {found.Count} times, on {string.Join(", ", found.Select(f => (string?)f!["profile"]).Distinct())}" : "NOT found"));
        }, ct);

        var prOk = await EventuallyAsync(async () =>
        {
            var report = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/pulls/{DemoScenario.PullRequest}/report", ct);
            var rows = report?["rows"] as JsonArray ?? [];
            var slowed = rows.Where(r => ((string?)r!["benchmark"] ?? "").Contains(scenario.PullRequestSlowedBenchmark) && (string?)r["measure"] == "time").ToList();
            var regressions = slowed.Where(r => (string?)r!["outcome"] == "Regression").Select(r => (string?)r!["profile"]).ToList();
            var ok = slowed.Count > 0 && regressions.Count > 0;
            return (ok, $"pull request #{DemoScenario.PullRequest}: {scenario.PullRequestSlowedBenchmark} judged a regression on " +
                (ok ? string.Join(", ", regressions) : "no profile") + $" ({rows.Count} verdicts)");
        }, ct);
        return changeOk && prOk;
    }

    private async Task<bool> EventuallyAsync(Func<Task<(bool Ok, string What)>> check, CancellationToken ct)
    {
        // Analysis may still be working through the last runs on a slow machine; it is done within seconds here.
        var deadline = DateTime.UtcNow.AddMinutes(5);
        while (true)
        {
            var (ok, what) = await check();
            if (ok || DateTime.UtcNow > deadline)
            {
                output.WriteLine($"  {(ok ? "ok  " : "FAIL")} {what}");
                return ok;
            }
            await Task.Delay(TimeSpan.FromSeconds(2), ct);
        }
    }
}
