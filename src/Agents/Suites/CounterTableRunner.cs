using System.Text;
using PerfService.Agents.Processes;
using PerfService.Core.Parsing;
using PerfService.Core.Suites;

namespace PerfService.Agents.Suites;

/// <summary>Any command, run through /bin/sh, that prints a table of counters on its standard output (Perper's
/// per-second table; COUNTER_TABLES.md). The output is the result file: such programs need no wrapper. The suite's
/// args become the script's positional parameters ($1, $2…).</summary>
public sealed class CounterTableRunner(ProcessRunner processes) : SuiteRunner(processes)
{
    public const string UploadName = "counters.txt";

    public override Harness Harness => Harness.Counters;
    protected override string Format => "counters";

    protected override ProcessSpec Command(SuiteRun run)
    {
        if (string.IsNullOrWhiteSpace(run.Suite.Command))
            throw new InvalidOperationException(
                $"suite {run.Suite.Name}: the counters harness needs a \"command\" in perf.json"
            );
        return new ProcessSpec("/bin/sh", ["-c", run.Suite.Command, run.Suite.Name, .. run.Args], run.Folder)
        {
            CaptureStdout = true,
        };
    }

    protected override IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result) =>
        result.Stdout.Length == 0 ? [] : [new Artifact(UploadName, Encoding.UTF8.GetBytes(result.Stdout))];
}
