using System.Text.Json.Nodes;

namespace PerfService.Agents.Demo;

/// <summary>
/// Watches the demo's jobs until none is queued or running, printing a line whenever something moves. After every
/// look, <c>onPoll</c> sees the jobs (to queue the next phase or note a milestone); it answers true when it queued
/// more, so that the wait goes on.
/// </summary>
public sealed class DemoProgress(DemoApi api, TextWriter output)
{
    public async Task<JsonArray> WaitForJobsAsync(DemoAgents agents, TimeSpan timeout, Func<JsonArray, Task<bool>> onPoll, CancellationToken ct)
    {
        var deadline = DateTime.UtcNow + timeout;
        var last = "";
        while (true)
        {
            var jobs = await api.GetArrayAsync($"api/v1/jobs?project={DemoScenario.Project}&limit=1000", ct);
            var states = jobs.Select(j => (string?)j!["state"]).ToList();
            int Count(string s) => states.Count(x => x == s);
            var running = jobs.Where(j => (string?)j!["state"] == "Running")
                .Select(j => $"{j!["profile"]}: {j["progress"] ?? "starting"}");
            var line = $"  jobs {Count("Succeeded") + Count("Failed") + Count("Cancelled")}/{jobs.Count} done" +
                       $" ({Count("Failed")} failed), {Count("Queued")} queued | {string.Join(" | ", running)}";
            if (line != last) output.WriteLine($"[{DateTime.Now:HH:mm:ss}] {line}");
            last = line;
            if (await onPoll(jobs)) continue;
            if (Count("Queued") + Count("Running") == 0) return jobs;
            foreach (var problem in agents.Exited()) throw new InvalidOperationException($"{problem}; see {string.Join(", ", agents.LogFiles)}");
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"jobs still unfinished after {timeout.TotalMinutes:0} minutes");
            await Task.Delay(TimeSpan.FromSeconds(2), ct);
        }
    }
}
