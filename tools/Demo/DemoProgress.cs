using System.Text.Json.Nodes;

namespace PerfService.Demo;

/// <summary>
/// Watches the demo's jobs until none is queued or running, printing a line whenever something moves. After every
/// look, <c>more</c> sees the jobs (to note a milestone, or to say that more jobs are still to come, as a pull
/// request's re-runs are queued only once its verdicts are written); the wait goes on while it answers true.
/// </summary>
public sealed class DemoProgress(DemoApi api, DemoAgents agents, DateTime deadline, TextWriter output)
{
    public async Task<JsonArray> WaitForJobsAsync(Func<JsonArray, Task<bool>> more, CancellationToken ct)
    {
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
            var pending = Count("Queued") + Count("Running") > 0;
            if (!await more(jobs) && !pending) return jobs;
            foreach (var problem in agents.Exited()) throw new InvalidOperationException($"{problem}; see {string.Join(", ", agents.LogFiles)}");
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"jobs still unfinished at the demo's deadline ({line.Trim()})");
            await Task.Delay(TimeSpan.FromSeconds(2), ct);
        }
    }
}
