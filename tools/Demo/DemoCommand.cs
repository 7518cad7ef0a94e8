using System.CommandLine;
using PerfService.Agents.Client;
using PerfService.Agents.Processes;

namespace PerfService.Demo;

/// <summary>
/// The demo's orchestration once the service is up (./perf demo starts the database and the service first): builds a
/// git repository from benches/, starts three agents, measures the machine's noise and plans for it, queues what the
/// webhooks would queue phase by phase, checks from the API that the planted changes were found, and prints where to look.
/// </summary>
public static class DemoCommand
{
    public static RootCommand Create()
    {
        var server = new Option<string>("--server") { Required = true };
        var adminToken = new Option<string>("--admin-token") { Required = true };
        var agentToken = new Option<string>("--agent-token") { Required = true };
        var agent = new Option<string>("--agent") { Required = true, Description = "The agent to run: perf-agent.dll of a build, or the published executable" };
        var benches = new Option<string>("--benches") { Required = true, Description = "The benches/ folder to build the demo repository from" };
        var workdir = new Option<string>("--workdir") { Required = true };
        var full = new Option<bool>("--full") { Description = "Also run the Rust, BenchmarkDotNet and full Go suites on the final commit (slower)" };
        var check = new Option<bool>("--check") { Description = "Exit after checking the results (CI) instead of waiting for Ctrl-C" };
        var command = new RootCommand("PerfService's demo scenario against a running service") { server, adminToken, agentToken, agent, benches, workdir, full, check };
        command.SetAction(async (parseResult, ct) =>
        {
            try
            {
                return await RunAsync(parseResult, ct);
            }
            catch (TimeoutException e)
            {
                parseResult.InvocationConfiguration.Error.WriteLine($"demo: {e.Message}");
                return 1;
            }
        });
        return command;

        async Task<int> RunAsync(ParseResult parseResult, CancellationToken ct)
        {
            var output = parseResult.InvocationConfiguration.Output;
            var timeline = new DemoTimeline(DemoTimeline.StartFromEnvironment(), output);
            timeline.Mark("service ready");
            var isFull = parseResult.GetValue(full);
            var scenario = new DemoScenario(isFull, DemoPlan.Default(isFull));
            var url = parseResult.GetValue(server)!;
            var dir = Path.GetFullPath(parseResult.GetValue(workdir)!);
            using var http = PerfServiceClient.CreateHttpClient(url, parseResult.GetValue(adminToken)!);
            var api = new DemoApi(http);

            output.WriteLine("==> creating the demo repository");
            var repo = new DemoRepository(new ProcessRunner(), Path.Combine(dir, "repo"), output.WriteLine);
            await repo.InitAsync(Path.GetFullPath(parseResult.GetValue(benches)!), ct);
            await api.CreateProjectAsync(DemoScenario.Project, repo.Path, scenario.RoundBudget, ct);

            output.WriteLine($"==> starting {scenario.Profiles.Count} agents ({string.Join(", ", scenario.Profiles)}), {DemoAgents.Slots} suite(s) at a time " +
                             $"each pinned to its own CPU; logs in {dir}");
            await using var agents = new DemoAgents(parseResult.GetValue(agent)!, url, parseResult.GetValue(agentToken)!, dir);
            agents.Start(scenario.Profiles);
            // A safety net against a stuck job, far beyond the demo's time on any machine it was tried on (a 2-core VM
            // at load average 60-110 needed 45 minutes for --fast).
            var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(isFull ? 120 : 90);
            var phases = new DemoPhases(api, new DemoProgress(api, agents, deadline, output), timeline, output);

            var (calibrations, plan) = await CalibrateAsync(repo, api, phases, scenario, timeline, output, ct);
            scenario = scenario with { Plan = plan };
            await api.SetRoundBudgetAsync(DemoScenario.Project, scenario.RoundBudget, ct);
            timeline.Mark("noise measured, plan made");

            output.WriteLine("==> creating main's history (a planted slowdown part-way) and the pull request");
            var history = await repo.CreateHistoryAsync(scenario, ct);
            var summary = new DemoSummary(api, scenario, history, url, output);
            await phases.RunAsync($"main's history: {history.Main.Count + 1} commits × {scenario.Profiles.Count} profiles, the event store's quick run at -benchtime={plan.Benchtime}",
                history.Main.Select(c => c.Sha).Append(history.Final).Select(sha =>
                    (object)new { project = DemoScenario.Project, commit = sha, branch = "main", suites = scenario.HistorySuites, quick = true }),
                ct, phases.HistoryMilestones(scenario, history, () => summary.PlantedTrendUrlAsync(ct)));
            timeline.Mark("history done");

            await phases.RunAsync($"the final commit's other suites ({string.Join("; ", scenario.FinalJobs.Select(j => $"{j.Profile}: {string.Join(", ", j.Suites)}"))})",
                scenario.FinalJobs.Select(job => (object)new
                {
                    project = DemoScenario.Project, commit = history.Final, branch = "main", suites = job.Suites, profiles = new[] { job.Profile }, quick = job.Quick,
                }), ct);
            timeline.Mark("final commit's suites done");

            await phases.RunAsync($"pull request #{DemoScenario.PullRequest}: {scenario.PullRequestRounds} rounds a side on every profile (re-runs while inconclusive, up to {scenario.RoundBudget})",
                [new
                {
                    project = DemoScenario.Project, commit = history.PullRequestHead, baseCommit = history.Final, branch = "feature/projections",
                    pullRequest = DemoScenario.PullRequest, suites = scenario.PullRequestSuites, quick = true, rounds = scenario.PullRequestRounds,
                }], ct, phases.PullRequestJudged(scenario, ct));
            timeline.Mark("pull request judged");

            output.WriteLine("==> checking what PerfService found");
            var checks = new DemoChecks(api, scenario, history, output);
            var ok = await checks.RunAsync(ct);
            timeline.Mark(ok ? "checks passed" : "checks done (some FAILED)");

            output.WriteLine();
            output.WriteLine("==> summary");
            summary.PrintPlan(calibrations);
            await summary.PrintNoiseAsync(ct);
            await summary.PrintProfilesAsync(checks.Profiles, checks.TargetProfile, ct);
            output.WriteLine("  where to click:");
            summary.PrintLinks(await summary.PlantedTrendUrlAsync(ct));
            output.WriteLine("  how long (since ./perf demo started):");
            summary.PrintTimings(timeline);
            if (parseResult.GetValue(check)) return ok ? 0 : 1;

            output.WriteLine();
            output.WriteLine("The service and agents keep running; press Ctrl-C to stop everything.");
            try { await Task.Delay(Timeout.Infinite, ct); } catch (OperationCanceledException) { }
            return ok ? 0 : 1;
        }
    }

    /// <summary>
    /// Calibration at the shortest benchtime; when that is too noisy for the planned step, once more at the benchtime
    /// expected to be quiet enough, keeping the longer one unless it measured clearly more noise
    /// (<see cref="DemoPlanner.ClearlyNoisier"/>). The plan follows from the kept one.
    /// </summary>
    private static async Task<(List<DemoPlanner.Calibrated>, DemoPlan)> CalibrateAsync(
        DemoRepository repo, DemoApi api, DemoPhases phases, DemoScenario scenario, DemoTimeline timeline, TextWriter output, CancellationToken ct)
    {
        var calibration = new DemoCalibration(api, scenario, output);
        var measured = new List<DemoPlanner.Calibrated>();
        var benchtime = DemoPlanner.Benchtimes[0];
        var limit = DemoPlanner.NoiseLimit(DemoPlanner.Floor(scenario.Full));
        while (true)
        {
            var commit = await repo.CalibrationCommitAsync(benchtime, ct);
            await phases.RunAsync($"measuring this machine's noise: the history's benchmarks, {DemoCalibration.Rounds} rounds on every profile at -benchtime={benchtime}",
                calibration.Jobs(commit), ct);
            measured.Add(await calibration.MeasureAsync(commit, benchtime, ct));
            timeline.Mark($"noise measured at -benchtime={benchtime}");
            var longer = DemoPlanner.LongerBenchtime(benchtime, measured[^1].Worst, limit);
            if (longer == benchtime || measured.Count > 1) break;
            output.WriteLine($"  above the {DemoPlanner.Pct(limit)} a +{DemoPlanner.Floor(scenario.Full)}% step needs: trying -benchtime={longer}");
            benchtime = longer;
        }
        return (measured, DemoPlanner.Plan(scenario.Full, measured));
    }
}
