using PerfService.Agents.Processes;
using PerfService.Agents.Suites;
using PerfService.Core.Parsing;
using PerfService.Core.Profiles;
using PerfService.Core.Suites;

namespace PerfService.Agents.Profiling;

/// <summary>BenchmarkDotNet's EventPipe profiler (<c>--profiler EP</c>, CPU sampling) on the one benchmark, in
/// BenchmarkDotNet's short job (a profile needs samples, not tight statistics); it writes a speedscope file per
/// benchmark case into BenchmarkDotNet.Artifacts. The suite's own args are left out: they choose jobs and filters
/// for measuring (an in-process job cannot be profiled).</summary>
public sealed class BdnProfiler(ProcessRunner processes) : SuiteRunner(processes)
{
    private const string Suffix = ".speedscope.json";

    public override Harness Harness => Harness.Bdn;
    protected override string Format => ProfileFormat.Speedscope.Name();

    private static string Artifacts(SuiteRun run) => Path.Combine(run.Folder, "BenchmarkDotNet.Artifacts");

    protected override void Prepare(SuiteRun run)
    {
        if (!Directory.Exists(Artifacts(run)))
            return;
        foreach (var old in Directory.EnumerateFiles(Artifacts(run), "*" + Suffix, SearchOption.AllDirectories))
            File.Delete(old);
    }

    protected override ProcessSpec Command(SuiteRun run)
    {
        string[] framework = string.IsNullOrWhiteSpace(run.Suite.Framework) ? [] : ["-f", run.Suite.Framework];
        return new ProcessSpec(
            "dotnet",
            [
                "run",
                "-c",
                "Release",
                .. framework,
                "--",
                "--filter",
                BenchmarkPatterns.Bdn(GoProfiler.Profiled(run)),
                "--profiler",
                "EP",
                "--job",
                "short",
                // BenchmarkDotNet's own 2-minute limit on building its boilerplate is short for a busy agent.
                "--buildTimeout",
                Math.Max(120, run.Suite.TimeoutSeconds).ToString(System.Globalization.CultureInfo.InvariantCulture),
            ],
            run.Folder
        );
    }

    /// <summary>The first file written: a suite that goes on to run other runtimes after the host writes theirs
    /// later.</summary>
    protected override IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result)
    {
        if (!Directory.Exists(Artifacts(run)))
            return [];
        var files = Directory
            .EnumerateFiles(Artifacts(run), "*" + Suffix, SearchOption.AllDirectories)
            .OrderBy(File.GetLastWriteTimeUtc)
            .ThenBy(f => f, StringComparer.Ordinal)
            .ToList();
        if (files.Count > 1)
            run.Log(
                $"warning: {files.Count} speedscope files (several cases matched); posting {Path.GetFileName(files[0])}"
            );
        return files.Count == 0 ? [] : [new Artifact(Path.GetFileName(files[0]), File.ReadAllBytes(files[0]))];
    }
}
