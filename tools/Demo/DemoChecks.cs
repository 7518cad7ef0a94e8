using System.Globalization;
using System.Text.Json.Nodes;

namespace PerfService.Demo;

/// <summary>
/// Reads back from the API what the demo planted: a change point on main at the planting commit, a regression verdict
/// on the pull request, a differential profile of each regressed benchmark whose top grown frame is the slowdown
/// switch's code, the broken target failing and its commit profiled the same way (full demo), and every suite that ran on the final commit having
/// its targets evaluated. Analysis runs in the background after the last job: each check says what it is waiting
/// for while it waits, and gives up as soon as nothing is left to analyse, saying what it saw.
/// </summary>
public sealed partial class DemoChecks(DemoApi api, DemoScenario scenario, DemoRepository.History history, TextWriter output)
{
    /// <summary>
    /// A look at one check: passed, or settled (nothing left that could change it), with what it saw. A check that
    /// waits for more than it needs (the change point on every profile) passes once settled when <c>Enough</c>.
    /// </summary>
    private sealed record Look(bool Ok, bool Settled, string What, string Progress, bool Enough = false);

    /// <summary>A safety net only: the checks end when analysis has nothing left, long before this on any machine.</summary>
    private static readonly TimeSpan GiveUpAfter = TimeSpan.FromMinutes(10);
    private readonly DateTimeOffset _started = DateTimeOffset.UtcNow;

    public async Task<bool> RunAsync(CancellationToken ct)
    {
        var planted = history.Main[scenario.PlantedAt].Sha;
        var changeOk = await WaitAsync("the change-point alert at the planted commit", async () =>
        {
            var alerts = await api.GetArrayAsync($"api/v1/alerts?project={DemoScenario.Project}&limit=500", ct);
            var changePoints = alerts.Where(a => string.Equals((string?)a!["kind"], "ChangePoint", StringComparison.OrdinalIgnoreCase)
                                                 && ((string?)a["summary"] ?? "").Contains(scenario.MainSlowedBenchmark)).ToList();
            var found = changePoints.Where(a => (string?)a!["toCommit"] == planted).ToList();
            var at = found.Select(f => (string?)f!["profile"] ?? "").Distinct().Order(StringComparer.Ordinal).ToList();
            var nearAll = (await AsNearAsKeptAsync(changePoints.Except(found), ct)).Where(n => !at.Contains(n.Profile)).ToList();
            var near = nearAll.DistinctBy(n => n.Profile).ToList();
            var on = at.Concat(near.Select(n => n.Profile)).Order(StringComparer.Ordinal).ToList();
            var missing = scenario.Profiles.Except(on).ToList();
            var (settled, analysis) = await AnalysisAsync(ct);
            var runs = await HistoryRunsAsync(ct);
            var what = $"change point at {planted[..10]} (commit {scenario.PlantedAt + 1} of main, planted {scenario.MainSlowedBenchmark}* +{scenario.MainSlowdownPercent}%): " +
                (on.Count == 0 ? "NOT found" : at.Count > 0 ? $"alerted {found.Count} times, on {string.Join(", ", at)}{Late(found)}" : "alerted") +
                string.Concat(near.Select(n => $"; {n.Text}")) +
                (on.Count > 0 && missing.Count > 0 ? $"; not on {string.Join(", ", missing)}" : "") +
                Elsewhere(changePoints.Except(found).Except(nearAll.Select(n => n.Alert)).ToList()) +
                (on.Count == 0 ? " (the summary below measures the noise it had to beat from the points the detector reads; it needs 10 before a change)" : "");
            return new Look(missing.Count == 0, settled, what,
                $"not yet on {string.Join(", ", missing)}{(on.Count > 0 ? $" (found on {string.Join(", ", on)})" : "")}; {runs} runs on main stored, {analysis}",
                Enough: on.Count > 0);
        }, ct);

        var prOk = await WaitAsync($"the pull request's verdicts", async () =>
        {
            var report = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/pulls/{DemoScenario.PullRequest}/report", ct);
            var rows = report?["rows"] as JsonArray ?? [];
            var pending = (report?["pendingProfiles"] as JsonArray ?? []).Select(p => (string?)p ?? "").ToList();
            var slowed = rows.Where(r => ((string?)r!["benchmark"] ?? "").Contains(scenario.PullRequestSlowedBenchmark) && (string?)r["measure"] == "time").ToList();
            var regressions = slowed.Where(r => (string?)r!["outcome"] == "Regression").ToList();
            var ok = regressions.Count > 0;
            var what = $"pull request #{DemoScenario.PullRequest} (planted {scenario.PullRequestSlowedBenchmark}* +{scenario.PullRequestSlowdownPercent}%): " +
                (ok ? "regression on " + string.Join(", ", regressions.Select(Describe)) : "no regression verdict: " + string.Join(", ", slowed.Select(Describe)))
                + $" ({rows.Count} verdicts)";
            return new Look(ok, pending.Count == 0, what, pending.Count == 0 ? "every profile judged" : $"verdicts pending on {string.Join(", ", pending)}");
        }, ct);

        var profilesOk = await WaitAsync("the pull request's profiles", () => ProfilesAsync(ct), ct);

        var targetOk = true;
        if (scenario.Full)
        {
            targetOk = await WaitAsync($"the target evaluation of the final commit", async () =>
            {
                var overview = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/overview", ct);
                var ofTarget = (overview?["targets"] as JsonArray ?? []).Where(t => TargetName(t) == scenario.BrokenTarget && (string?)t!["commit"] == history.Final).ToList();
                var failed = (overview?["failedTargets"] as JsonArray ?? []).Where(t => TargetName(t) == scenario.BrokenTarget).ToList();
                var (settled, analysis) = await AnalysisAsync(ct);
                var what = $"target \"{scenario.BrokenTarget}\" (final commit, planted {scenario.TargetSlowdown}%): " +
                    (failed.Count > 0 ? "fails on " + string.Join(", ", failed.Select(t => $"{t!["profile"]} ({Benchmark(t)}: {Number(t["actual"])} vs limit {Number(t["limit"])})"))
                        : "NOT failing; evaluated as " + (ofTarget.Count == 0 ? "nothing (not measured)" : string.Join(", ", ofTarget.Select(t => $"{Benchmark(t)} {t!["outcome"]} {Number(t["actual"])}"))));
                return new Look(failed.Count > 0, settled, what, $"{ofTarget.Count} evaluations so far, {analysis}");
            }, ct);
            targetOk &= await WaitAsync("the broken target's profile", () => TargetProfileAsync(ct), ct);
        }
        else
        {
            output.WriteLine($"  --   target \"{scenario.BrokenTarget}\": not part of --fast (its suite, rivulet, runs in the full demo)");
        }
        var evaluatedOk = await WaitAsync("every final-commit suite's targets", () => TargetsEvaluatedAsync(ct), ct);
        return changeOk && prOk && profilesOk && targetOk && evaluatedOk;
    }

    /// <summary>How many results of its series after the planted commit each alert waited for (the API's foundAfter):
    /// commits of main, unless some of their runs were left out as disturbed.</summary>
    internal static string Late(List<JsonNode?> alerts)
    {
        var after = alerts.Select(a => (int?)a!["foundAfter"]).OfType<int>().Order().ToList();
        if (after.Count == 0)
            return "";
        var span = after[0] == after[^1] ? $"{after[0]}" : $"{after[0]}–{after[^1]}";
        // What a team sees first: the earliest alert on each profile, against the three results the detector aims for.
        var late = alerts.Where(a => a!["foundAfter"] is not null).GroupBy(a => (string?)a!["profile"] ?? "")
            .Select(g => (Profile: g.Key, After: g.Min(a => (int)a!["foundAfter"]!))).Where(f => f.After > PromptResults)
            .OrderBy(f => f.Profile, StringComparer.Ordinal).Select(f => $"{f.Profile} {f.After}").ToList();
        var first = late.Count == 0 ? $"the first on each profile within {PromptResults}" : $"the first on {string.Join(", ", late)}";
        return $", found {span} result{(after[^1] == 1 ? "" : "s")} later ({first})";
    }

    /// <summary>Results after a change within which a large step is meant to be alerted (docs/verdicts.md).</summary>
    private const int PromptResults = 3;

    /// <summary>Alerts of the planted family at other commits, which say the step was seen but placed elsewhere.</summary>
    private string Elsewhere(List<JsonNode?> others)
    {
        var index = history.Main.Select((c, i) => (c.Sha, i)).ToDictionary(x => x.Sha, x => x.i + 1);
        var at = others.Select(a => $"{a!["profile"]} at commit {(index.TryGetValue((string?)a["toCommit"] ?? "", out var n) ? n : "final")}").Distinct().ToList();
        return at.Count == 0 ? "" : $"; elsewhere: {string.Join(", ", at)}";
    }

    /// <summary>Whether analysis has caught up with every run the demo posted, and how far it is.</summary>
    private async Task<(bool Settled, string Text)> AnalysisAsync(CancellationToken ct)
    {
        var status = await api.GetAsync("api/v1/service/status", ct);
        var waiting = (long?)status?["analysis"]?["runs"] ?? 0;
        var parked = (long?)status?["analysis"]?["parked"] ?? 0;
        // The figures are a snapshot a few seconds old: only one taken after the checks began counts as caught up.
        var fresh = DateTimeOffset.TryParse((string?)status?["at"], out var at) && at > _started;
        return (fresh && waiting == 0, $"{waiting} runs waiting for analysis" + (parked > 0 ? $", {parked} parked (their analysis failed)" : ""));
    }

    private async Task<int> HistoryRunsAsync(CancellationToken ct)
    {
        var runs = await api.GetArrayAsync($"api/v1/projects/{DemoScenario.Project}/runs?limit=1000", ct);
        return runs.Count(r => (string?)r!["branch"] == "main" && (string?)r["suite"] == "eventstore");
    }

    /// <summary>Every suite that ran on the final commit had at least one of its targets measured.</summary>
    private async Task<Look> TargetsEvaluatedAsync(CancellationToken ct)
    {
        var overview = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/overview", ct);
        var targets = (overview?["targets"] as JsonArray ?? []).Where(t => (string?)t!["commit"] == history.Final).ToList();
        var suites = scenario.FinalJobs.SelectMany(j => j.Suites).Concat(scenario.HistorySuites).Distinct().Order(StringComparer.Ordinal).ToList();
        var parts = suites.Select(suite =>
        {
            var ofSuite = targets.Where(t => (string?)t!["suite"] == suite).ToList();
            var names = ofSuite.Select(TargetName).Distinct().Count();
            var measured = ofSuite.Where(t => (string?)t!["outcome"] != "NotMeasured").Select(TargetName).Distinct().Count();
            return (Suite: suite, Ok: measured > 0, Text: $"{suite} {measured}/{names}");
        }).ToList();
        var (settled, analysis) = await AnalysisAsync(ct);
        var what = "targets evaluated on the final commit (measured/declared): " + string.Join(", ", parts.Select(p => p.Text));
        return new Look(parts.All(p => p.Ok), settled, what, $"{string.Join(", ", parts.Where(p => !p.Ok).Select(p => p.Suite))} not yet; {analysis}");
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

    /// <summary>
    /// Looks until the check passes, or until it is settled (then it fails unless what it saw is enough), saying what it
    /// waits for whenever that changes and at least every 15 s.
    /// </summary>
    private async Task<bool> WaitAsync(string waitingFor, Func<Task<Look>> look, CancellationToken ct)
    {
        var deadline = DateTime.UtcNow + GiveUpAfter;
        var (said, saidAt) = ("", DateTime.MinValue);
        while (true)
        {
            var now = await look();
            var gaveUp = DateTime.UtcNow > deadline;
            if (now.Ok || now.Settled || gaveUp)
            {
                var ok = now.Ok || now.Enough;
                output.WriteLine($"  {(ok ? "ok  " : "FAIL")} {now.What}" + (ok || !gaveUp ? "" : $" (gave up after {GiveUpAfter.TotalMinutes:0} min waiting for {waitingFor}: {now.Progress})"));
                return ok;
            }
            if (now.Progress != said || DateTime.UtcNow - saidAt > TimeSpan.FromSeconds(15))
            {
                output.WriteLine($"  ...  waiting for {waitingFor}: {now.Progress}");
                (said, saidAt) = (now.Progress, DateTime.UtcNow);
            }
            await Task.Delay(TimeSpan.FromSeconds(2), ct);
        }
    }
}
