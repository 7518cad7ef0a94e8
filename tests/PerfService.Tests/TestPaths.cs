namespace PerfService.Tests;

/// <summary>Where the harness fixtures live: tests/fixtures in the checkout (a copy of shared/fixtures, see its PROVENANCE.md), as recorded at build time, or PERF_FIXTURES.</summary>
public static class TestPaths
{
    public static string Fixtures { get; } = Find();

    public static string Fixture(params string[] parts) => Path.Combine([Fixtures, .. parts]);

    private static string Find()
    {
        var env = Environment.GetEnvironmentVariable("PERF_FIXTURES");
        if (!string.IsNullOrEmpty(env)) return env;
        var built = typeof(TestPaths).Assembly.GetCustomAttributes(typeof(System.Reflection.AssemblyMetadataAttribute), false)
            .Cast<System.Reflection.AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == "PerfFixtures")?.Value;
        if (built is not null && Directory.Exists(built)) return built;
        throw new DirectoryNotFoundException($"tests/fixtures not found (looked in '{built}'): set PERF_FIXTURES.");
    }
}
