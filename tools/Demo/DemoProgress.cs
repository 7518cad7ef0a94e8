using System.Text.Json.Nodes;

namespace PerfService.Demo;

/// <summary>What a phase still waits for after a look at the jobs.</summary>
public enum Awaiting
{
    /// <summary>The jobs queued or running, then nothing.</summary>
    Jobs,
    /// <summary>More jobs than those queued now (a pull request's re-runs are queued only once its verdicts are written).</summary>
    More,
    /// <summary>Nothing: what the phase is for is there, and jobs still queued go on beside what follows.</summary>
    Nothing,
}

/// <summary>
/// Watches the demo's jobs until none is queued or running, printing a line whenever something moves. After every
/// look, <c>look</c> sees the jobs (to note a milestone, to say that more jobs are still to come, or that the phase
/// has what it is for) and says what the wait goes on for.
/// </summary>
public sealed class DemoProgress(DemoApi api, DemoAgents agents, DateTime deadline, TextWriter output)
{
    public async Task<JsonArray> WaitForJobsAsync(Func<JsonArray, Task<Awaiting>> look, CancellationToken ct)
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
            var awaiting = await look(jobs);
            if (awaiting == Awaiting.Nothing || (awaiting == Awaiting.Jobs && !pending)) return jobs;
            foreach (var problem in agents.Exited()) throw new InvalidOperationException($"{problem}; see {string.Join(", ", agents.LogFiles)}");
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"jobs still unfinished at the demo's deadline ({line.Trim()})");
            await Task.Delay(TimeSpan.FromSeconds(2), ct);
        }
    }
}
