using System.Diagnostics;
using System.Reflection;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Perfolizer.Horology;

namespace PerfBenches.Shared;

/// <summary>
/// Entry point shared by the BenchmarkDotNet suites. Every argument goes to BenchmarkDotNet's switcher except
/// <c>--quick</c>, which this runner consumes: it selects a short in-process job ("Quick": 1 warm-up and 5
/// measured iterations of ~100 ms, one launch, no separate build of a benchmark project) and sets
/// <c>PERF_BENCH_QUICK=1</c> so the suites shrink their [ParamsSource] series. The memory diagnoser and the full
/// JSON exporter come from attributes on each benchmark class.
/// <para>
/// A quick run measures in this very process, so it re-starts itself once with tiered compilation off
/// (<c>DOTNET_TieredCompilation=0</c>): with only one warm-up iteration, the first benchmarks of a class otherwise
/// run partly on tier-0 code while tier-up is still pending, which made the first of a series up to 1.5x slower
/// than the rest on a busy 2-core machine and relative targets meaningless. Full runs (out of process, with
/// BenchmarkDotNet's own warm-up) are left as they are. Set <c>DOTNET_TieredCompilation</c> yourself to opt out.
/// </para>
/// </summary>
public static class BenchRunner
{
    public const string QuickFlag = "--quick";
    public const string QuickVariable = "PERF_BENCH_QUICK";

    /// <summary>True when this process (or the host that started it) was asked for a quick run.</summary>
    public static bool Quick => Environment.GetEnvironmentVariable(QuickVariable) == "1";

    public static Job QuickJob { get; } = Job.Default
        .WithId("Quick")
        .WithLaunchCount(1)
        .WithWarmupCount(1)
        .WithIterationCount(5)
        .WithIterationTime(TimeInterval.FromMilliseconds(100))
        .WithToolchain(InProcessEmitToolchain.Instance);

    /// <param name="otherFrameworks">Target frameworks to run the same benchmarks on after this process's own run
    /// (see <see cref="OtherRuntimes"/>); empty for none.</param>
    public static int Run(Assembly assembly, string[] args, params string[] otherFrameworks)
    {
        var rest = args.Where(a => !string.Equals(a, QuickFlag, StringComparison.OrdinalIgnoreCase)).ToArray();
        var quick = rest.Length != args.Length;
        if (quick && Environment.GetEnvironmentVariable("DOTNET_TieredCompilation") is null)
            return RunSelfWithoutTiering(assembly, args);
        IConfig? config = null;
        var runtime = OtherRuntimes.Current;
        if (quick)
        {
            Environment.SetEnvironmentVariable(QuickVariable, "1");
            config = DefaultConfig.Instance.AddJob(runtime is null ? QuickJob : QuickJob.WithId($"Quick-{runtime}"));
        }
        else if (runtime is not null)
        {
            // The job id is part of a result's identity: this runtime's series stay apart from the host's.
            config = DefaultConfig.Instance.AddJob(Job.Default.WithId(runtime));
        }
        var slowdown = Environment.GetEnvironmentVariable(Slowdown.Variable);
        if (!string.IsNullOrWhiteSpace(slowdown)) Console.WriteLine($"// {Slowdown.Variable}={slowdown}");
        var alloc = Environment.GetEnvironmentVariable(Allocation.Variable);
        if (!string.IsNullOrWhiteSpace(alloc)) Console.WriteLine($"// {Allocation.Variable}={alloc}");
        // Exit code 0 even when a benchmark failed, as BenchmarkDotNet's own runner does: the failure is in the
        // reports (and in the JSON), and the benchmarks that did run still count.
        BenchmarkSwitcher.FromAssembly(assembly).Run(rest, config);
        if (runtime is null && otherFrameworks.Length > 0 && !rest.Any(a => a is "--list" or "--help" or "-h"))
            OtherRuntimes.RunAll(assembly, args, otherFrameworks);
        return 0;
    }

    private static int RunSelfWithoutTiering(Assembly assembly, string[] args)
    {
        var host = Environment.ProcessPath ?? throw new InvalidOperationException("cannot tell which executable is running");
        var start = new ProcessStartInfo(host) { UseShellExecute = false };
        // Under the muxer (`dotnet X.dll`) the assembly is the first argument; an apphost needs none.
        if (string.Equals(Path.GetFileNameWithoutExtension(host), "dotnet", StringComparison.OrdinalIgnoreCase))
            start.ArgumentList.Add(assembly.Location);
        foreach (var arg in args) start.ArgumentList.Add(arg);
        start.Environment["DOTNET_TieredCompilation"] = "0";
        using var child = Process.Start(start) ?? throw new InvalidOperationException($"could not start {host}");
        // If this process is stopped (Ctrl+C, SIGTERM from a timeout), take the child down with it.
        void Stop()
        {
            try
            {
                if (!child.HasExited) child.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
            }
        }
        Console.CancelKeyPress += (_, _) => Stop();
        AppDomain.CurrentDomain.ProcessExit += (_, _) => Stop();
        child.WaitForExit();
        return child.ExitCode;
    }
}
