using System.Text;
using PerfService.Agents.Processes;
using PerfService.Agents.Suites;
using PerfService.Core.Parsing;
using PerfService.Core.Parsing.Go;
using PerfService.Core.Profiles;
using PerfService.Core.Suites;

namespace PerfService.Agents.Profiling;

/// <summary><c>go test -run '^$' -bench '^BenchmarkX$/^sub$' -count 1 -cpuprofile FILE pkg</c>: Go's own CPU
/// profiler, gzipped pprof. The test binary goes to scratch (-o), not into the checkout.</summary>
public sealed class GoProfiler(ProcessRunner processes) : SuiteRunner(processes)
{
    public const string FileName = "cpu.pprof";

    public override Harness Harness => Harness.Gobench;
    protected override string Format => ProfileFormat.Pprof.Name();

    private static string Output(SuiteRun run) => Path.Combine(run.ScratchDir, FileName);

    protected override void Prepare(SuiteRun run)
    {
        Directory.CreateDirectory(run.ScratchDir);
        File.Delete(Output(run));
    }

    protected override ProcessSpec Command(SuiteRun run)
    {
        var (package, bench) = BenchmarkPatterns.Go(Profiled(run));
        return new ProcessSpec(
            "go",
            [
                "test",
                "-run",
                "^$",
                .. WithBenchtime(run.Args),
                "-bench",
                bench,
                "-count",
                "1",
                "-cpuprofile",
                Output(run),
                "-o",
                Path.Combine(run.ScratchDir, "bench.test"),
                package ?? ".",
            ],
            run.Folder
        )
        {
            CaptureStdout = true,
        };
    }

    protected override IReadOnlyList<Artifact> Collect(SuiteRun run, ProcessResult result)
    {
        // go test passes when -bench matches nothing, and its profile may still hold a sample or two of the test
        // binary starting up (on a busy machine): only a printed result says the benchmark ran.
        if (!RanABenchmark(result.Stdout))
            throw new InvalidOperationException(
                $"go test ran no benchmark matching {BenchmarkPatterns.Go(Profiled(run)).Bench}"
            );
        return File.Exists(Output(run)) ? [new Artifact(FileName, File.ReadAllBytes(Output(run)))] : [];
    }

    internal static bool RanABenchmark(string output)
    {
        try
        {
            return new GoBenchParser().Parse([new Artifact("go test", Encoding.UTF8.GetBytes(output))]).Results.Count
                > 0;
        }
        catch (ParseException)
        {
            return false;
        }
    }

    /// <summary>
    /// A profile wants more samples than Go's 100 a second give in a short run, so the profiler's -benchtime comes
    /// after the suite's and wins over a duration (a suite's 100 ms would give a dozen samples). A count of iterations
    /// ("-benchtime=1x") says what one run of the benchmark may do, and stays the suite's.
    /// </summary>
    internal static IReadOnlyList<string> WithBenchtime(IReadOnlyList<string> args)
    {
        var counted = args.Select(
                (a, i) =>
                    a.StartsWith("-benchtime=", StringComparison.Ordinal) ? a["-benchtime=".Length..]
                    : a == "-benchtime" && i + 1 < args.Count ? args[i + 1]
                    : null
            )
            .Any(v => v is not null && v.EndsWith('x'));
        return counted ? ["-benchtime", ProfileBenchtime, .. args] : [.. args, "-benchtime", ProfileBenchtime];
    }

    private const string ProfileBenchtime = "2s";

    internal static string Profiled(SuiteRun run) =>
        run.ProfiledBenchmark ?? throw new InvalidOperationException("a profiler runs only on a profiling run");
}
