using System.CommandLine;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Cli;

/// <summary>perf-agent parse PATH [--format F]: show what the service would make of a harness's output.</summary>
public static class ParseCommand
{
    public static readonly string[] Formats = ["auto", "bdn", "criterion", "gobench", "k6", "json", "counters"];

    public static Option<string> FormatOption() =>
        new Option<string>("--format")
        {
            Description = "Harness format of the files",
            DefaultValueFactory = _ => "auto",
        }.AcceptOnlyFromAmong(Formats);

    public static Command Create()
    {
        var path = new Argument<string>("path")
        {
            Description = "A result file, or a folder read recursively (e.g. target/criterion)",
        };
        var format = FormatOption();
        var command = new Command("parse", "Parse benchmark output locally and print the normalized results as JSON")
        {
            path,
            format,
        };
        command.SetAction(parseResult =>
        {
            var output = parseResult.InvocationConfiguration.Output;
            var error = parseResult.InvocationConfiguration.Error;
            try
            {
                var artifacts = ArtifactLoader.Load(parseResult.GetValue(path)!);
                if (artifacts.Count == 0)
                {
                    error.WriteLine($"error: {parseResult.GetValue(path)} holds no files");
                    return 1;
                }
                var parsed = ResultParsers.Parse(artifacts, parseResult.GetValue(format)!);
                foreach (var warning in parsed.Warnings)
                    error.WriteLine($"warning: {warning}");
                output.WriteLine(ResultJson.Write(parsed.Results));
                return 0;
            }
            catch (ParseException e)
            {
                error.WriteLine(
                    e.Location is null ? $"error: {e.File}: {e.Reason}" : $"error: {e.File} at {e.Location}: {e.Reason}"
                );
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
}
