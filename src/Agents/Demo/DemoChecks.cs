using System.Globalization;
using System.Text.Json.Nodes;

namespace PerfService.Agents.Demo;

/// <summary>
/// Reads back from the API what the demo planted: a change point on main at the planting commit, a regression verdict
/// on the pull request, the broken target failing (full demo), and every suite that ran on the final commit having
/// its targets evaluated. Analysis runs in the background after the last job, so each check waits a little.
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
            return (found.Count > 0, $"change point at {planted[..10]} (commit {scenario.PlantedAt + 1} of main, planted {scenario.MainSlowedBenchmark}* +{scenario.MainSlowdownPercent}%): " +
                (found.Count > 0 ? $"alerted {found.Count} times, on {string.Join(", ", found.Select(f => (string?)f!["profile"]).Distinct())}" : "NOT found (the summary below measures the noise it had to beat)"));
        }, ct);

        var prOk = await EventuallyAsync(async () =>
        {
            var report = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/pulls/{DemoScenario.PullRequest}/report", ct);
            var rows = report?["rows"] as JsonArray ?? [];
            var slowed = rows.Where(r => ((string?)r!["benchmark"] ?? "").Contains(scenario.PullRequestSlowedBenchmark) && (string?)r["measure"] == "time").ToList();
            var regressions = slowed.Where(r => (string?)r!["outcome"] == "Regression").ToList();
            var ok = regressions.Count > 0;
            return (ok, $"pull request #{DemoScenario.PullRequest} (planted {scenario.PullRequestSlowedBenchmark} +{scenario.PullRequestSlowdownPercent}%): " +
                (ok ? "regression on " + string.Join(", ", regressions.Select(Describe)) : "no regression verdict: " + string.Join(", ", slowed.Select(Describe)))
                + $" ({rows.Count} verdicts)");
        }, ct);

        var targetOk = true;
        if (scenario.Full)
        {
            targetOk = await EventuallyAsync(async () =>
            {
                var overview = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/overview", ct);
                var failed = (overview?["failedTargets"] as JsonArray ?? []).Where(t => TargetName(t) == scenario.BrokenTarget).ToList();
                return (failed.Count > 0, $"target \"{scenario.BrokenTarget}\" (final commit, planted {scenario.TargetSlowdown}%): " +
                    (failed.Count > 0 ? "fails on " + string.Join(", ", failed.Select(t => $"{t!["profile"]} ({Benchmark(t)}: {Number(t["actual"])} vs limit {Number(t["limit"])})")) : "NOT failing"));
            }, ct);
        }
        else
        {
            output.WriteLine($"  --   target \"{scenario.BrokenTarget}\": not part of --fast (its suite, rivulet, runs in the full demo)");
        }
        var evaluatedOk = await EventuallyAsync(() => TargetsEvaluatedAsync(ct), ct);
        return changeOk && prOk && targetOk && evaluatedOk;
    }

    /// <summary>Every suite that ran on the final commit had at least one of its targets measured.</summary>
    private async Task<(bool, string)> TargetsEvaluatedAsync(CancellationToken ct)
    {
        var overview = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/overview", ct);
        var targets = (overview?["targets"] as JsonArray ?? []).Where(t => (string?)t!["commit"] == history.Final).ToList();
        var suites = scenario.FinalJobs.SelectMany(j => j.Suites).Distinct().Order(StringComparer.Ordinal).ToList();
        var parts = suites.Select(suite =>
        {
            var ofSuite = targets.Where(t => (string?)t!["suite"] == suite).ToList();
            var names = ofSuite.Select(TargetName).Distinct().Count();
            var measured = ofSuite.Where(t => (string?)t!["outcome"] != "NotMeasured").Select(TargetName).Distinct().Count();
            return (Suite: suite, Ok: measured > 0, Text: $"{suite} {measured}/{names}");
        }).ToList();
        return (parts.All(p => p.Ok), "targets evaluated on the final commit (measured/declared): " + string.Join(", ", parts.Select(p => p.Text)));
    }

    /// <summary>A target matching several benchmarks is stored once per benchmark, as "name [benchmark key]".</summary>
    private static string TargetName(JsonNode? target)
    {
        var name = (string?)target!["name"] ?? "";
        var bracket = name.IndexOf(" [", StringComparison.Ordinal);
        return bracket < 0 ? name : name[..bracket];
    }

    private static string Benchmark(JsonNode? target)
    {
        var name = (string?)target!["name"] ?? "";
        var bracket = name.IndexOf(" [", StringComparison.Ordinal);
        return bracket < 0 ? "" : name[(bracket + 2)..].TrimEnd(']');
    }

    private static string Describe(JsonNode? row) =>
        $"{row!["profile"]} {Percent(row["change"])} [{Percent(row["changeCiLower"])}, {Percent(row["changeCiUpper"])}] {row["outcome"]}";

    private static string Percent(JsonNode? value) =>
        value is null ? "?" : ((double)value).ToString("+0.0%;-0.0%", CultureInfo.InvariantCulture);

    private static string Number(JsonNode? value) =>
        value is null ? "?" : ((double)value).ToString("0.###", CultureInfo.InvariantCulture);

    private async Task<bool> EventuallyAsync(Func<Task<(bool Ok, string What)>> check, CancellationToken ct)
    {
        // Analysis may still be working through the last runs on a slow machine; it is done within seconds here.
        var deadline = DateTime.UtcNow.AddMinutes(3);
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
