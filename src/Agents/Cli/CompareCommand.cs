using System.CommandLine;
using PerfService.Core.Comparison;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Cli;

/// <summary>perf-agent compare BASE HEAD: the service's pull-request judgement on two local sets of result files.</summary>
public static class CompareCommand
{
    public static Command Create()
    {
        var basePath = new Argument<string>("base") { Description = "Result file or folder of the base run" };
        var headPath = new Argument<string>("head") { Description = "Result file or folder of the head run" };
        var format = ParseCommand.FormatOption();
        var threshold = new Option<double?>("--threshold") { Description = "Relative change to ignore, e.g. 0.05 (default: 5%)" };
        var command = new Command("compare", "Compare two sets of benchmark results and print a verdict table") { basePath, headPath, format, threshold };
        command.SetAction(parseResult =>
        {
            var output = parseResult.InvocationConfiguration.Output;
            var error = parseResult.InvocationConfiguration.Error;
            try
            {
                var before = ResultParsers.Parse(ArtifactLoader.Load(parseResult.GetValue(basePath)!), parseResult.GetValue(format)!).Results;
                var after = ResultParsers.Parse(ArtifactLoader.Load(parseResult.GetValue(headPath)!), parseResult.GetValue(format)!).Results;
                var baseByKey = before.Where(r => !r.Failed).ToDictionary(r => (r.Key, r.Measure));
                var inputs = after.Where(r => !r.Failed && baseByKey.ContainsKey((r.Key, r.Measure))).Select(h =>
                {
                    var b = baseByKey[(h.Key, h.Measure)];
                    return new ComparisonInput(h.Key, h.Measure, h.Unit, h.Direction, SamplesOf(b), SamplesOf(h)) { Threshold = parseResult.GetValue(threshold) };
                }).ToList();
                if (inputs.Count == 0)
                {
                    error.WriteLine("error: no benchmark appears in both sets");
                    return 1;
                }
                var verdicts = RunComparer.Compare(inputs);
                output.Write(ComparisonTable.Render(verdicts, includeReason: true));
                var unmatched = after.Count(r => !baseByKey.ContainsKey((r.Key, r.Measure)));
                if (unmatched > 0) error.WriteLine($"note: {unmatched} result(s) of head have no counterpart in base");
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

    private static IReadOnlyList<double> SamplesOf(Core.Results.BenchmarkResult r) =>
        r.Samples is { Count: > 0 } s ? s : r.Value is { } v ? [v] : [];
}
