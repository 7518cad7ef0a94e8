using PerfService.Agents.Processes;
using PerfService.Core.Parsing;
using PerfService.Core.Suites;

namespace PerfService.Agents.Suites;

/// <summary>criterion through <c>cargo bench args</c>; uploads every <c>new/</c> result folder of
/// target/criterion.</summary>
public sealed class CriterionRunner(ProcessRunner processes) : SuiteRunner(processes)
{
    private static readonly string[] _kept = ["benchmark.json", "estimates.json", "sample.json"];

    public override Harness Harness => Harness.Criterion;
    protected override string Format => "criterion";

    // In a cargo workspace target/ is at the workspace root, not in the suite's folder; CRITERION_HOME pins the
    // output to one known place whatever the layout.
    private static string Home(SuiteRun run) => Path.Combine(run.Folder, "target", "criterion");

    protected override void Prepare(SuiteRun run) => DeleteDirectory(Home(run));

    protected override ProcessSpec Command(SuiteRun run) =>
        new("cargo", ["bench", .. run.Args], run.Folder)
        {
            Environment = new Dictionary<string, string?> { ["CRITERION_HOME"] = Home(run) },
        };

    protected override IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result) =>
        FilesUnder(
            Home(run),
            f =>
            {
                var parts = f.Split('/');
                return parts.Length >= 3 && parts[^2] == "new" && _kept.Contains(parts[^1]);
            }
        );
}
