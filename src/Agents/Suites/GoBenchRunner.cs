using System.Globalization;
using System.Text;
using PerfService.Agents.Processes;
using PerfService.Core.Parsing;
using PerfService.Core.Suites;

namespace PerfService.Agents.Suites;

/// <summary><c>go test -run '^$' -bench . -benchmem -count N args ./...</c>; its stdout is the result file.</summary>
public sealed class GoBenchRunner(ProcessRunner processes) : SuiteRunner(processes)
{
    public const int DefaultCount = 5;

    public override Harness Harness => Harness.Gobench;
    protected override string Format => "gobench";

    protected override ProcessSpec Command(SuiteRun run)
    {
        var count = (run.Suite.Count ?? DefaultCount).ToString(CultureInfo.InvariantCulture);
        // Later flags win in Go's flag package, so a suite's own -bench regex overrides the ".".
        return new ProcessSpec(
            "go",
            ["test", "-run", "^$", "-bench", ".", "-benchmem", "-count", count, .. run.Args, "./..."],
            run.Folder
        )
        {
            CaptureStdout = true,
        };
    }

    protected override IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result) =>
        result.Stdout.Length == 0 ? [] : [new Artifact("gobench.txt", Encoding.UTF8.GetBytes(result.Stdout))];
}
