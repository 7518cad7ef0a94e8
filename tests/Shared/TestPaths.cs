using System.Reflection;

namespace PerfService.TestSupport;

/// <summary>
/// Where the checkout, its fixtures and the built service, agent and load tool are, for every test project (linked in by
/// tests/Directory.Build.props). tests/fixtures is recorded in each test assembly at build time (PERF_FIXTURES
/// overrides it); the build output is found beside this assembly's: with artifacts output every project lands in
/// {artifacts}/bin/{project}/{config}/, whichever ArtifactsPath the build used.
/// </summary>
internal static class TestPaths
{
    public static string Fixtures { get; } = FindFixtures();

    public static string Fixture(params string[] parts) => Path.Combine([Fixtures, .. parts]);

    public static string RepoRoot { get; } = Path.GetFullPath(Path.Combine(Fixtures, "..", ".."));

    public static string ProfilesFile => Path.Combine(RepoRoot, "deploy", "profiles.json");

    public static string ServiceDll => Built("PerfService", "PerfService.dll");

    public static string AgentDll => Built("PerfService.Agents", "perf-agent.dll");

    public static string LoadTestDll => Built("PerfService.LoadTest", "PerfService.LoadTest.dll");

    /// <summary>True when this process runs as root, which ignores file permissions.</summary>
    public static bool IsRoot { get; } = File.Exists("/proc/self/status")
        && File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("Uid:", StringComparison.Ordinal))
            ?.Split(['\t', ' '], StringSplitOptions.RemoveEmptyEntries).ElementAtOrDefault(2) == "0";

    private static string FindFixtures()
    {
        var env = Environment.GetEnvironmentVariable("PERF_FIXTURES");
        if (!string.IsNullOrEmpty(env)) return env;
        var built = typeof(TestPaths).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == "PerfFixtures")?.Value;
        if (built is not null && Directory.Exists(built)) return built;
        throw new DirectoryNotFoundException($"tests/fixtures not found (the test assembly records '{built}'): set PERF_FIXTURES.");
    }

    private static string OwnDir => AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar);

    private static string Built(string project, string file)
    {
        // "debug" or "release" (possibly with a runtime suffix): the folder name of this assembly's output.
        var path = Path.Combine(OwnDir, "..", "..", project, Path.GetFileName(OwnDir), file);
        if (!File.Exists(path))
            throw new FileNotFoundException(
                $"{path} does not exist: build the solution (or this test project, which builds it) with the same configuration and artifacts path", path);
        return Path.GetFullPath(path);
    }
}
