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
        var full = new Option<bool>("--full") { Description = "Also run the Rust and BenchmarkDotNet suites (slower)" };
        var check = new Option<bool>("--check") { Description = "Exit after checking the results (CI) instead of waiting for Ctrl-C" };
        var command = new Command("demo-run", "Run the demo scenario against a running service") { server, adminToken, agentToken, benches, workdir, full, check };
        command.SetAction(async (parseResult, ct) =>
        {
            var output = parseResult.InvocationConfiguration.Output;
            var scenario = new DemoScenario(parseResult.GetValue(full));
            var url = parseResult.GetValue(server)!;
            var dir = Path.GetFullPath(parseResult.GetValue(workdir)!);
            using var http = PerfServiceClient.CreateHttpClient(url, parseResult.GetValue(adminToken)!);
            var api = new DemoApi(http);

            output.WriteLine("==> creating the demo repository (main history, a planted slowdown, a pull request)");
            var repo = new DemoRepository(new ProcessRunner(), Path.Combine(dir, "repo"), output.WriteLine);
            var history = await repo.CreateAsync(Path.GetFullPath(parseResult.GetValue(benches)!), scenario, ct);

            output.WriteLine("==> queueing jobs as the webhooks would (push to main, then the pull request)");
            await api.CreateProjectAsync(DemoScenario.Project, repo.Path, ct);
            foreach (var (sha, _) in history.Main)
                await api.QueueAsync(new { project = DemoScenario.Project, commit = sha, branch = "main", suites = scenario.HistorySuites, quick = true }, ct);
            await api.QueueAsync(new { project = DemoScenario.Project, commit = history.Final, branch = "main", suites = scenario.FinalSuites, quick = true }, ct);
            await api.QueueAsync(new
            {
                project = DemoScenario.Project, commit = history.PullRequestHead, baseCommit = history.Final, branch = "feature/projections",
                pullRequest = DemoScenario.PullRequest, suites = scenario.PullRequestSuites, quick = true, rounds = 3,
            }, ct);

            output.WriteLine($"==> starting {scenario.Profiles.Count} agents ({string.Join(", ", scenario.Profiles)}); logs in {dir}");
            await using var agents = new DemoAgents(url, parseResult.GetValue(agentToken)!, dir);
            agents.Start(scenario.Profiles);
            await new DemoProgress(api, output).WaitForJobsAsync(agents, TimeSpan.FromMinutes(scenario.Full ? 60 : 30), ct);

            output.WriteLine("==> checking what PerfService found");
            var ok = await new DemoChecks(api, scenario, history, output).RunAsync(ct);
            output.WriteLine();
            output.WriteLine($"Dashboard:      {url}/");
            output.WriteLine($"Trend (planted): {url}/explorer.html?project={DemoScenario.Project}&q={Uri.EscapeDataString(scenario.MainSlowedBenchmark)}");
            output.WriteLine($"Pull request:   {url}/pr.html?project={DemoScenario.Project}&pr={DemoScenario.PullRequest}");
            output.WriteLine($"Alerts:         {url}/alerts.html?project={DemoScenario.Project}");
            output.WriteLine($"Agents & jobs:  {url}/agents.html");
            output.WriteLine($"API:            {url}/openapi/v1.json");
            if (parseResult.GetValue(check)) return ok ? 0 : 1;

            output.WriteLine();
            output.WriteLine("The service and agents keep running; press Ctrl-C to stop everything.");
            try { await Task.Delay(Timeout.Infinite, ct); } catch (OperationCanceledException) { }
            return ok ? 0 : 1;
        });
        return command;
    }
}
