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

    /// <summary>Queues <paramref name="jobs"/> and waits until they (and whatever <paramref name="more"/> still expects) are done.</summary>
    public async Task RunAsync(string phase, IEnumerable<object> jobs, CancellationToken ct, Func<JsonArray, Task<bool>>? more = null)
    {
        output.WriteLine($"==> {phase}");
        foreach (var job in jobs) await api.QueueAsync(job, ct);
        await progress.WaitForJobsAsync(more ?? (_ => Task.FromResult(false)), ct);
    }

    /// <summary>Milestones of main's history: first charts on every profile, then many commits on every profile.</summary>
    public Func<JsonArray, Task<bool>> HistoryMilestones(DemoScenario scenario, DemoRepository.History history, Func<Task<string>> trendUrl)
    {
        var commits = history.Main.Select(c => c.Sha).Append(history.Final).ToHashSet(StringComparer.Ordinal);
        return async jobs =>
        {
            var done = jobs.Where(j => commits.Contains((string?)j!["commit"] ?? "") && (string?)j["branch"] == "main" && (string?)j["state"] == "Succeeded").ToList();
            var fewest = scenario.Profiles.Min(profile => done.Count(j => (string?)j!["profile"] == profile));
            if (fewest >= 2 && !timeline.Has(FirstCharts)) timeline.Mark(FirstCharts, await trendUrl());
            if (fewest >= ManyCommits) timeline.Mark($"charts with {ManyCommits}+ commits on every profile");
            return false;
        };
    }

    /// <summary>
    /// A pull request's jobs are done when every profile is judged and nothing was queued since: a re-run of an
    /// inconclusive verdict is queued just after the verdicts are written, so "judged" must hold on two looks in a row.
    /// </summary>
    public Func<JsonArray, Task<bool>> PullRequestJudged(CancellationToken ct)
    {
        var judgedLooks = 0;
        return async jobs =>
        {
            if (jobs.Any(j => (string?)j!["state"] is "Queued" or "Running")) { judgedLooks = 0; return true; }
            var report = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/pulls/{DemoScenario.PullRequest}/report", ct);
            var pending = (report?["pendingProfiles"] as JsonArray ?? []).Count;
            judgedLooks = pending == 0 ? judgedLooks + 1 : 0;
            return judgedLooks < 2;
        };
    }
}
