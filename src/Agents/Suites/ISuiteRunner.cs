using PerfService.Agents.Processes;
using PerfService.Core.Parsing;
using PerfService.Core.Suites;

namespace PerfService.Agents.Suites;

/// <summary>One suite to run, resolved for one side of a job.</summary>
/// <param name="Folder">Absolute folder of the suite inside the checkout.</param>
/// <param name="Args">Args or QuickArgs, as the job asked.</param>
/// <param name="Environment">Overrides of the agent's environment for the harness (PATH for tests, telemetry
/// off…).</param>
/// <param name="Cpus">A taskset CPU list to pin the harness to, e.g. "2-3".</param>
/// <param name="ScratchDir">A private folder for files that must not land in the checkout.</param>
/// <param name="Log">Where the harness's output lines go (the job log).</param>
public sealed record SuiteRun(
    SuiteDeclaration Suite,
    string Folder,
    IReadOnlyList<string> Args,
    IReadOnlyDictionary<string, string?> Environment,
    string? Cpus,
    string ScratchDir,
    Action<string> Log
)
{
    /// <summary>How the harness is kept away from the agent (--run-as, --sandbox).</summary>
    public Isolation.HarnessIsolation Isolation { get; init; } = PerfService.Agents.Isolation.HarnessIsolation.None;

    /// <summary>The folders the harness may write (checkouts, home, caches, scratch): a sandbox binds only
    /// these.</summary>
    public IReadOnlyList<string> Writable { get; init; } = [];

    /// <summary>Set on a profiling run (Profiling/): the stored name of the one benchmark to profile.</summary>
    public string? ProfiledBenchmark { get; init; }
}

/// <summary>What a harness left: its result files (paths relative to the upload root) and how the process
/// ended.</summary>
public sealed record SuiteOutput(string Format, IReadOnlyList<Artifact> Files, ProcessResult Process);

/// <summary>One benchmark harness (BenchmarkDotNet, criterion, go test, a command writing the generic JSON).</summary>
public interface ISuiteRunner
{
    Harness Harness { get; }
    Task<SuiteOutput> RunAsync(SuiteRun run, CancellationToken ct);
}
