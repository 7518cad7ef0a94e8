using PerfService.Agents.Processes;
using PerfService.Core.Parsing;
using PerfService.Core.Suites;

namespace PerfService.Agents.Suites;

/// <summary>BenchmarkDotNet: <c>dotnet run -c Release -- --filter '*' args</c>; uploads the JSON full
/// reports.</summary>
public sealed class BdnRunner(ProcessRunner processes) : SuiteRunner(processes)
{
    public override Harness Harness => Harness.Bdn;
    protected override string Format => "bdn";

    private static string Results(SuiteRun run) => Path.Combine(run.Folder, "BenchmarkDotNet.Artifacts", "results");

    protected override void Prepare(SuiteRun run) => DeleteDirectory(Results(run));

    protected override ProcessSpec Command(SuiteRun run)
    {
        // A suite that brings its own filter would otherwise get two.
        var hasFilter = run.Args.Any(a => a is "--filter" or "-f");
        string[] filter = hasFilter ? [] : ["--filter", "*"];
        string[] framework = string.IsNullOrWhiteSpace(run.Suite.Framework) ? [] : ["-f", run.Suite.Framework];
        return new ProcessSpec(
            "dotnet",
            ["run", "-c", "Release", .. framework, "--", .. filter, .. run.Args],
            run.Folder
        );
    }

    protected override IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result) =>
        FilesUnder(
            Results(run),
            f =>
                f.EndsWith("-report-full.json", StringComparison.Ordinal)
                || f.EndsWith("-report-full-compressed.json", StringComparison.Ordinal)
        );
}
