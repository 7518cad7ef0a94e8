using System.CommandLine;
using PerfService.Core.Comparison;
using PerfService.Core.Parsing;
using PerfService.Core.Results;

namespace PerfService.Agents.Cli;

/// <summary>
/// perf-agent compare: the service's pull-request judgement on local result files. Each RUN (a file or a folder) is one
/// round; <c>--base RUN... --head RUN...</c> gives several rounds a side, the two positional paths one run a side. The
/// same function decides as in the service (<see cref="RunComparer"/>), without the base branch's history: with one
/// run a side it assumes no run-to-run noise and says so.
/// </summary>
public static class CompareCommand
{
    public static Command Create()
    {
        var basePath = new Argument<string?>("base")
        {
            Description = "Result file or folder of the base run (one run a side)",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var headPath = new Argument<string?>("head")
        {
            Description = "Result file or folder of the head run",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var baseRuns = new Option<string[]>("--base")
        {
            Description = "Base runs, one file or folder per round",
            AllowMultipleArgumentsPerToken = true,
        };
        var headRuns = new Option<string[]>("--head")
        {
            Description = "Head runs, one file or folder per round",
            AllowMultipleArgumentsPerToken = true,
        };
        var format = ParseCommand.FormatOption();
        var threshold = new Option<double?>("--threshold")
        {
            Description = "Relative change to ignore, e.g. 0.05 (default: 5%)",
        };
        var outputFormat = new Option<string>("--output")
        {
            Description = "table, json or markdown",
            DefaultValueFactory = _ => "table",
        };
        outputFormat.AcceptOnlyFromAmong("table", "json", "markdown");
        var command = new Command(
            "compare",
            "Compare base and head benchmark results (one run or several rounds a side) and print the verdicts"
        )
        {
            basePath,
            headPath,
            baseRuns,
            headRuns,
            format,
            threshold,
            outputFormat,
        };
        command.SetAction(parseResult =>
        {
            var output = parseResult.InvocationConfiguration.Output;
            var error = parseResult.InvocationConfiguration.Error;
            try
            {
                var bases = Paths(parseResult.GetValue(baseRuns), parseResult.GetValue(basePath));
                var heads = Paths(parseResult.GetValue(headRuns), parseResult.GetValue(headPath));
                if (bases.Count == 0 || heads.Count == 0)
                {
                    error.WriteLine("error: give BASE HEAD, or --base RUN... --head RUN...");
                    return 1;
                }
                var harness = parseResult.GetValue(format)!;
                var before = bases.Select(p => ResultParsers.Parse(ArtifactLoader.Load(p), harness).Results).ToList();
                var after = heads.Select(p => ResultParsers.Parse(ArtifactLoader.Load(p), harness).Results).ToList();
                var inputs = Inputs(before, after, parseResult.GetValue(threshold), out var unmatched);
                if (inputs.Count == 0)
                {
                    error.WriteLine("error: no benchmark appears in both sets");
                    return 1;
                }
                var verdicts = RunComparer.Compare(inputs);
                output.Write(
                    parseResult.GetValue(outputFormat) switch
                    {
                        "json" => VerdictJson.Write(verdicts),
                        "markdown" => ComparisonTable.RenderMarkdown(verdicts),
                        _ => ComparisonTable.Render(verdicts, includeReason: true),
                    }
                );
                if (unmatched > 0)
                    error.WriteLine($"note: {unmatched} result(s) of head have no counterpart in base");
                return verdicts.Any(v => v.Outcome == Outcome.Regression) ? 3 : 0;
            }
            catch (ParseException e)
            {
                error.WriteLine(e.Message);
                return 2;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException)
            {
                error.WriteLine($"error: {e.Message}");
                return 1;
            }
        });
        return command;
    }

    private static List<string> Paths(string[]? runs, string? positional)
    {
        var paths = new List<string>(runs ?? []);
        if (positional is not null)
            paths.Add(positional);
        return paths;
    }

    /// <summary>One comparison per benchmark × measure present on both sides; each run that has it is one
    /// round.</summary>
    internal static List<ComparisonInput> Inputs(
        List<IReadOnlyList<BenchmarkResult>> before,
        List<IReadOnlyList<BenchmarkResult>> after,
        double? threshold,
        out int unmatched
    )
    {
        var baseRounds = Rounds(before);
        var headRounds = Rounds(after);
        unmatched = headRounds.Keys.Count(k => !baseRounds.ContainsKey(k));
        var inputs = new List<ComparisonInput>();
        foreach (var (key, (first, rounds)) in headRounds)
        {
            if (!baseRounds.TryGetValue(key, out var b))
                continue;
            inputs.Add(
                ComparisonInput.FromRounds(first.Key, first.Measure, first.Unit, first.Direction, b.Rounds, rounds) with
                {
                    Threshold = threshold,
                }
            );
        }
        return inputs;
    }

    private static Dictionary<
        (string Key, string Measure),
        (BenchmarkResult First, List<IReadOnlyList<double>> Rounds)
    > Rounds(List<IReadOnlyList<BenchmarkResult>> runs)
    {
        var byKey = new Dictionary<(string, string), (BenchmarkResult, List<IReadOnlyList<double>>)>();
        foreach (var run in runs)
        foreach (var r in run)
        {
            if (r.Failed)
                continue;
            IReadOnlyList<double> samples =
                r.Samples is { Count: > 0 } s ? s
                : r.Value is { } v ? [v]
                : [];
            if (samples.Count == 0)
                continue;
            if (!byKey.TryGetValue((r.Key, r.Measure), out var entry))
                byKey[(r.Key, r.Measure)] = entry = (r, []);
            entry.Item2.Add(samples);
        }
        return byKey;
    }
}
