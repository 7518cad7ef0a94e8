using System.CommandLine;
using PerfService.Agents.Client;
using PerfService.Agents.Processes;

namespace PerfService.Agents.Demo;

/// <summary>
/// perf-agent demo-run: the demo's orchestration once the service is up (./perf demo starts the database and the
/// service first). Builds a git repository from benches/, queues what the webhooks would queue, runs three agents,
/// shows progress, checks from the API that the planted changes were found, and prints where to look.
/// </summary>
public static class DemoCommand
{
    public static Command Create()
    {
        var server = new Option<string>("--server") { Required = true };
        var adminToken = new Option<string>("--admin-token") { Required = true };
        var agentToken = new Option<string>("--agent-token") { Required = true };
        var benches = new Option<string>("--benches") { Required = true, Description = "The benches/ folder to build the demo repository from" };
        var workdir = new Option<string>("--workdir") { Required = true };
        var full = new Option<bool>("--full") { Description = "Also run the Rust, BenchmarkDotNet and full Go suites on the final commit (slower)" };
        var check = new Option<bool>("--check") { Description = "Exit after checking the results (CI) instead of waiting for Ctrl-C" };
        var command = new Command("demo-run", "Run the demo scenario against a running service") { server, adminToken, agentToken, benches, workdir, full, check };
        command.SetAction(async (parseResult, ct) =>
        {
            var output = parseResult.InvocationConfiguration.Output;
            var timeline = new DemoTimeline(DemoTimeline.StartFromEnvironment(), output);
            timeline.Mark("service ready");
            var scenario = new DemoScenario(parseResult.GetValue(full));
            var url = parseResult.GetValue(server)!;
            var dir = Path.GetFullPath(parseResult.GetValue(workdir)!);
            using var http = PerfServiceClient.CreateHttpClient(url, parseResult.GetValue(adminToken)!);
            var api = new DemoApi(http);

            output.WriteLine("==> creating the demo repository (main history, a planted slowdown, a pull request)");
            var repo = new DemoRepository(new ProcessRunner(), Path.Combine(dir, "repo"), output.WriteLine);
            var history = await repo.CreateAsync(Path.GetFullPath(parseResult.GetValue(benches)!), scenario, ct);

            output.WriteLine("==> queueing jobs as the webhooks would: the pushes to main (short history jobs first, then the final commit's suites)");
            await api.CreateProjectAsync(DemoScenario.Project, repo.Path, scenario.RoundBudget, ct);
            foreach (var (sha, _) in history.Main)
                await api.QueueAsync(new { project = DemoScenario.Project, commit = sha, branch = "main", suites = scenario.HistorySuites, quick = true }, ct);
            foreach (var job in scenario.FinalJobs)
                await api.QueueAsync(new { project = DemoScenario.Project, commit = history.Final, branch = "main", suites = job.Suites, profiles = new[] { job.Profile }, quick = job.Quick }, ct);

            output.WriteLine($"==> starting {scenario.Profiles.Count} agents ({string.Join(", ", scenario.Profiles)}), {DemoAgents.Slots} suite(s) at a time " +
                             $"each pinned to its own CPU; logs in {dir}");
            await using var agents = new DemoAgents(url, parseResult.GetValue(agentToken)!, dir);
            agents.Start(scenario.Profiles);
            var summary = new DemoSummary(api, scenario, history, url, output);
            var phases = new DemoPhases(api, scenario, history, timeline, () => summary.PlantedTrendUrlAsync(ct));
            await new DemoProgress(api, output).WaitForJobsAsync(agents, TimeSpan.FromMinutes(scenario.Full ? 40 : 25), phases.OnPollAsync, ct);
            timeline.Mark("all jobs done");

            output.WriteLine("==> checking what PerfService found");
            var ok = await new DemoChecks(api, scenario, history, output).RunAsync(ct);
            timeline.Mark(ok ? "checks passed" : "checks done (some FAILED)");

            output.WriteLine();
            output.WriteLine("==> summary");
            await summary.PrintNoiseAsync(ct);
            output.WriteLine("  where to click:");
            summary.PrintLinks(await summary.PlantedTrendUrlAsync(ct));
            output.WriteLine("  how long (since ./perf demo started):");
            summary.PrintTimings(timeline);
            if (parseResult.GetValue(check)) return ok ? 0 : 1;

            output.WriteLine();
            output.WriteLine("The service and agents keep running; press Ctrl-C to stop everything.");
            try { await Task.Delay(Timeout.Infinite, ct); } catch (OperationCanceledException) { }
            return ok ? 0 : 1;
        });
        return command;
    }
}
