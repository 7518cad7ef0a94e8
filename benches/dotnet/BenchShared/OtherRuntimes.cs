using System.Diagnostics;
using System.Reflection;

namespace PerfBenches.Shared;

/// <summary>
/// Runs the same benchmarks on other .NET runtimes after the host's own run, the way the seed's tables have .NET 8
/// and .NET 9 side by side. Each runtime is a child <c>dotnet run -f netX.0</c> of the benchmark project under the
/// private .NET root (<c>PERF_DOTNET_ROOT</c>, default <c>~/.perf/dotnet</c>) that benches/install-toolchains.sh
/// fills from the registry's runtime packs. Its results carry the runtime in the job id ("Quick-net8.0",
/// "net8.0"), so every runtime is its own series and relative targets pair benchmarks of one runtime. A runtime
/// the root lacks is skipped, saying why on the console.
/// </summary>
public static class OtherRuntimes
{
    public const string RootVariable = "PERF_DOTNET_ROOT";
    /// <summary>Set in a child: the target framework it runs on; BenchRunner adds it to the job id.</summary>
    public const string RuntimeVariable = "PERF_BENCH_RUNTIME";

    /// <summary>"none" runs the host's runtime only (a demo or CI that only needs one series).</summary>
    public const string OptOutVariable = "PERF_BENCH_OTHER_RUNTIMES";

    public static string Root =>
        Environment.GetEnvironmentVariable(RootVariable) is { Length: > 0 } root
            ? root
            : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".perf", "dotnet");

    /// <summary>The runtime this process was started for by a host, or null in the host itself.</summary>
    public static string? Current => Environment.GetEnvironmentVariable(RuntimeVariable) is { Length: > 0 } tfm ? tfm : null;

    public static int RunAll(Assembly assembly, IReadOnlyList<string> args, IReadOnlyList<string> frameworks)
    {
        var project = assembly.GetCustomAttributes<AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == "PerfBenchProject")?.Value;
        var dotnet = Path.Combine(Root, "dotnet");
        var worst = 0;
        if (Environment.GetEnvironmentVariable(OptOutVariable) == "none")
        {
            Console.WriteLine($"// {string.Join(", ", frameworks)} skipped: {OptOutVariable}=none");
            return 0;
        }
        foreach (var tfm in frameworks)
        {
            var major = tfm[3..tfm.IndexOf('.')];
            var shared = Path.Combine(Root, "shared", "Microsoft.NETCore.App");
            if (!File.Exists(dotnet) || !Directory.Exists(shared) || !Directory.GetDirectories(shared, major + ".*").Any())
            {
                Console.WriteLine($"// {tfm} skipped: no .NET {major} runtime in {Root} (benches/install-toolchains.sh installs it; {RootVariable} moves it)");
                continue;
            }
            if (project is null || !File.Exists(project))
            {
                Console.WriteLine($"// {tfm} skipped: the benchmark project ({project ?? "unknown"}) is not on this machine");
                continue;
            }
            Console.WriteLine($"// {tfm}: {dotnet} run -c Release -f {tfm}");
            var start = new ProcessStartInfo(dotnet) { UseShellExecute = false };
            // No apphost: `dotnet run` would start it with DOTNET_ROOT set to the SDK's own root (the machine's, which
            // lacks this runtime); without one it runs the dll through this root's muxer.
            foreach (var a in new[] { "run", "-c", "Release", "-f", tfm, "-p:UseAppHost=false", "--project", project, "--" }) start.ArgumentList.Add(a);
            foreach (var a in args) start.ArgumentList.Add(a);
            // Each runtime's reports in their own folder (under results/, which the agent uploads recursively).
            start.ArgumentList.Add("--artifacts");
            start.ArgumentList.Add(Path.Combine(Environment.CurrentDirectory, "BenchmarkDotNet.Artifacts", "results", tfm));
            start.Environment[RuntimeVariable] = tfm;
            start.Environment["DOTNET_ROOT"] = Root;
            // BenchmarkDotNet's out-of-process builds call `dotnet` from PATH: the private root's, which has the runtime.
            start.Environment["PATH"] = Root + Path.PathSeparator + Environment.GetEnvironmentVariable("PATH");
            start.Environment.Remove("DOTNET_TieredCompilation"); // the child decides for itself, like the host did
            start.Environment.Remove(BenchRunner.QuickVariable);
            using var child = Process.Start(start) ?? throw new InvalidOperationException($"could not start {dotnet}");
            child.WaitForExit();
            if (child.ExitCode != 0) Console.WriteLine($"// {tfm}: exited with code {child.ExitCode}");
            worst = Math.Max(worst, child.ExitCode);
        }
        return worst;
    }
}
