using System.Reflection;

namespace PerfService.FaultTests.Infrastructure;

/// <summary>
/// Where the checkout and the built service and agent are. The build output is found beside this test assembly's:
/// with artifacts output every project lands in {artifacts}/bin/{project}/{config}/, so the service is
/// ../../PerfService/{config}/PerfService.dll from here, whichever ArtifactsPath the build used.
/// </summary>
public static class TestPaths
{
    public static string Fixtures { get; } =
        typeof(TestPaths).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == "PerfFixtures")?.Value
        ?? throw new DirectoryNotFoundException("the test assembly does not record where tests/fixtures is");

    public static string RepoRoot { get; } = Path.GetFullPath(Path.Combine(Fixtures, "..", ".."));

    public static string ProfilesFile => Path.Combine(RepoRoot, "deploy", "profiles.json");

    private static string OwnDir => AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar);

    /// <summary>"debug" or "release" (possibly with a runtime suffix): the folder name of this assembly's output.</summary>
    private static string Config => Path.GetFileName(OwnDir);

    private static string BinRoot => Path.GetFullPath(Path.Combine(OwnDir, "..", ".."));

    public static string ServiceDll => Built("PerfService", "PerfService.dll");

    public static string AgentDll => Built("PerfService.Agents", "perf-agent.dll");

    public static string LoadTestDll => Built("PerfService.LoadTest", "PerfService.LoadTest.dll");

    private static string Built(string project, string file)
    {
        var path = Path.Combine(BinRoot, project, Config, file);
        if (!File.Exists(path))
            throw new FileNotFoundException(
                $"{path} does not exist: build the solution (or this test project, which builds it) with the same configuration and artifacts path", path);
        return path;
    }

    /// <summary>True when this process runs as root, which ignores file permissions.</summary>
    public static bool IsRoot { get; } = File.Exists("/proc/self/status")
        && File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("Uid:", StringComparison.Ordinal))
            ?.Split(['\t', ' '], StringSplitOptions.RemoveEmptyEntries).ElementAtOrDefault(2) == "0";
}
