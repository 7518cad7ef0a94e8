using System.Text.Json.Nodes;

namespace PerfService.Demo;

/// <summary>
/// The demo's jobs in phases, one after the other, so that nothing the demo runs shares the machine with a job whose
/// series the story shows: calibration, then main's history, then the final commit's slower suites (and their
/// builds), then the pull request. Notes the history's milestones on the timeline as they are reached.
/// </summary>
public sealed class DemoPhases(DemoApi api, DemoProgress progress, DemoTimeline timeline, TextWriter output)
{
    /// <summary>Commits on every profile at which the history counts as "many commits" on the charts.</summary>
    private const int ManyCommits = 10;
    private const string FirstCharts = "first charts on every profile";

    /// <summary>Queues <paramref name="jobs"/> and waits until they are done, or as <paramref name="look"/> says.</summary>
    public async Task RunAsync(string phase, IEnumerable<object> jobs, CancellationToken ct, Func<JsonArray, Task<Awaiting>>? look = null)
    {
        output.WriteLine($"==> {phase}");
        foreach (var job in jobs) await api.QueueAsync(job, ct);
        await progress.WaitForJobsAsync(look ?? (_ => Task.FromResult(Awaiting.Jobs)), ct);
    }

    /// <summary>Milestones of main's history: first charts on every profile, then many commits on every profile.</summary>
    public Func<JsonArray, Task<Awaiting>> HistoryMilestones(DemoScenario scenario, DemoRepository.History history, Func<Task<string>> trendUrl)
    {
        var commits = history.Main.Select(c => c.Sha).Append(history.Final).ToHashSet(StringComparer.Ordinal);
        return async jobs =>
        {
            var done = jobs.Where(j => commits.Contains((string?)j!["commit"] ?? "") && (string?)j["branch"] == "main" && (string?)j["state"] == "Succeeded").ToList();
            var fewest = scenario.Profiles.Min(profile => done.Count(j => (string?)j!["profile"] == profile));
            if (fewest >= 2 && !timeline.Has(FirstCharts)) timeline.Mark(FirstCharts, await trendUrl());
            if (fewest >= ManyCommits) timeline.Mark($"charts with {ManyCommits}+ commits on every profile");
            return Awaiting.Jobs;
        };
    }

    /// <summary>
    /// The pull request's phase ends as soon as the planted regression is judged on every profile: re-runs that the
    /// other benchmarks' inconclusive verdicts asked for (on a noisy machine, "no change" within ±5% takes many rounds)
    /// go on while the checks read the results, and nothing measured comes after them. Otherwise it ends when every
    /// profile is judged and nothing was queued since: a re-run of an inconclusive verdict is queued just after the
    /// verdicts are written, so "judged" must hold on two looks in a row.
    /// </summary>
    public Func<JsonArray, Task<Awaiting>> PullRequestJudged(DemoScenario scenario, CancellationToken ct)
    {
        var judgedLooks = 0;
        return async jobs =>
        {
            var report = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/pulls/{DemoScenario.PullRequest}/report", ct);
            var regressed = (report?["rows"] as JsonArray ?? [])
                .Where(r => ((string?)r!["benchmark"] ?? "").Contains(scenario.PullRequestSlowedBenchmark, StringComparison.Ordinal)
                            && (string?)r["measure"] == "time" && (string?)r["outcome"] == "Regression")
                .Select(r => (string?)r!["profile"]).ToHashSet(StringComparer.Ordinal);
            var pendingJobs = jobs.Count(j => (string?)j!["state"] is "Queued" or "Running");
            if (scenario.Profiles.All(regressed.Contains))
            {
                if (pendingJobs > 0)
                    output.WriteLine($"  the planted regression is judged on every profile; {pendingJobs} job(s) of re-runs and profiles go on beside the checks");
                return Awaiting.Nothing;
            }
            if (pendingJobs > 0) { judgedLooks = 0; return Awaiting.Jobs; }
            var pending = (report?["pendingProfiles"] as JsonArray ?? []).Count;
            judgedLooks = pending == 0 ? judgedLooks + 1 : 0;
            return judgedLooks < 2 ? Awaiting.More : Awaiting.Jobs;
        };
    }
}
