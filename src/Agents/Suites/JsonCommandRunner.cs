using PerfService.Agents.Processes;
using PerfService.Core.Parsing;
using PerfService.Core.Suites;

namespace PerfService.Agents.Suites;

/// <summary>Any command, run through /bin/sh with PERF_OUTPUT naming the file it must write the generic JSON to.
/// The suite's args become the script's positional parameters ($1, $2…).</summary>
public sealed class JsonCommandRunner(ProcessRunner processes) : SuiteRunner(processes)
{
    public const string UploadName = "results.json";

    public override Harness Harness => Harness.Json;
    protected override string Format => "json";

    private static string Output(SuiteRun run) => Path.Combine(run.ScratchDir, UploadName);

    protected override void Prepare(SuiteRun run)
    {
        Directory.CreateDirectory(run.ScratchDir);
        File.Delete(Output(run));
    }

    protected override ProcessSpec Command(SuiteRun run)
    {
        if (string.IsNullOrWhiteSpace(run.Suite.Command))
            throw new InvalidOperationException(
                $"suite {run.Suite.Name}: the json harness needs a \"command\" in perf.json"
            );
        return new ProcessSpec("/bin/sh", ["-c", run.Suite.Command, run.Suite.Name, .. run.Args], run.Folder)
        {
            Environment = new Dictionary<string, string?> { ["PERF_OUTPUT"] = Output(run) },
        };
    }

    protected override IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result) =>
        File.Exists(Output(run)) ? [new Artifact(UploadName, File.ReadAllBytes(Output(run)))] : [];
}
