using System.CommandLine;

namespace PerfService.CompareEval;

/// <summary>
/// ./perf compare-eval: the pull-request judgement measured on synthetic pull requests with planted changes, per
/// noise cell, as the service judges them (with the base branch's history) and as the CLI does (without).
/// </summary>
public static class CompareEvalCommand
{
    public static Command Create()
    {
        var prs = new Option<int>("--prs") { Description = "Pull requests per noise cell", DefaultValueFactory = _ => 25 };
        var benchmarks = new Option<int>("--benchmarks") { Description = "Benchmarks per pull request", DefaultValueFactory = _ => 40 };
        var rounds = new Option<int>("--rounds") { Description = "Rounds a side", DefaultValueFactory = _ => 3 };
        var history = new Option<int>("--history") { Description = "Base-branch runs of history (0: none, as the CLI)", DefaultValueFactory = _ => 20 };
        var seed = new Option<int>("--seed") { DefaultValueFactory = _ => 20261123 };
        var command = new Command("compare-eval", "Measure pull-request verdicts on synthetic pull requests with known changes") { prs, benchmarks, rounds, history, seed };
        command.SetAction(parseResult =>
        {
            var output = parseResult.InvocationConfiguration.Output;
            var settings = new EvaluationSettings
            {
                PullRequestsPerCell = parseResult.GetValue(prs), BenchmarksPerPullRequest = parseResult.GetValue(benchmarks),
                RoundsPerSide = parseResult.GetValue(rounds), HistoryRuns = parseResult.GetValue(history), Seed = parseResult.GetValue(seed),
            };
            var evaluation = ComparisonEvaluator.Run(settings);
            output.Write(evaluation.ToString());
            return evaluation.MeetsGoals ? 0 : 1;
        });
        return command;
    }
}
