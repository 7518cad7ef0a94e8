namespace PerfService.Tests;

/// <summary>Where the harness fixtures live: tests/fixtures in the checkout (a copy of shared/fixtures, see its PROVENANCE.md), or PERF_FIXTURES.</summary>
public static class TestPaths
{
    public static string Fixtures { get; } = Find();

    public static string Fixture(params string[] parts) => Path.Combine([Fixtures, .. parts]);

    private static string Find()
    {
        var env = Environment.GetEnvironmentVariable("PERF_FIXTURES");
        if (!string.IsNullOrEmpty(env)) return env;
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "tests", "fixtures");
            if (Directory.Exists(candidate)) return candidate;
        }
        throw new DirectoryNotFoundException("No tests/fixtures folder found above the test binaries: set PERF_FIXTURES.");
    }
}
