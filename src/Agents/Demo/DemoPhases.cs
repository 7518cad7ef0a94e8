using System.Text.Json.Nodes;

namespace PerfService.Agents.Demo;

/// <summary>
/// Paces the demo while its jobs run: notes when the dashboard first has charts on every profile and when the history
/// is complete, and queues the pull request once the history is claimed (its jobs take priority over pushes, so queued
/// at the start they would hold back the first charts).
/// </summary>
public sealed class DemoPhases(DemoApi api, DemoScenario scenario, DemoRepository.History history, DemoTimeline timeline, Func<Task<string>> trendUrl)
{
    /// <summary>Commits on every profile at which the history counts as "many commits" on the charts.</summary>
    private const int ManyCommits = 10;
    private readonly HashSet<string> _historyCommits = history.Main.Select(c => c.Sha).ToHashSet(StringComparer.Ordinal);
    private const string FirstCharts = "first charts on every profile";
    private bool _pullRequestQueued;

    public async Task<bool> OnPollAsync(JsonArray jobs)
    {
        var historyJobs = jobs.Where(j => _historyCommits.Contains((string?)j!["commit"] ?? "") && (string?)j["branch"] == "main").ToList();
        int DoneOn(string profile) => historyJobs.Count(j => (string?)j!["profile"] == profile && (string?)j["state"] == "Succeeded");
        var fewest = scenario.Profiles.Min(DoneOn);
        if (fewest >= 2 && !timeline.Has(FirstCharts))
            timeline.Mark(FirstCharts, await trendUrl());
        if (fewest >= ManyCommits)
            timeline.Mark($"charts with {ManyCommits}+ commits on every profile");
        if (historyJobs.Count > 0 && historyJobs.All(j => (string?)j!["state"] is "Succeeded" or "Failed" or "Cancelled"))
            timeline.Mark("history done");
        if (_pullRequestQueued || historyJobs.Any(j => (string?)j!["state"] == "Queued")) return false;

        await api.QueueAsync(new
        {
            project = DemoScenario.Project, commit = history.PullRequestHead, baseCommit = history.Final, branch = "feature/projections",
            pullRequest = DemoScenario.PullRequest, suites = scenario.PullRequestSuites, quick = true, rounds = scenario.PullRequestRounds,
        }, CancellationToken.None);
        _pullRequestQueued = true;
        timeline.Mark("pull request queued");
        return true;
    }
}
