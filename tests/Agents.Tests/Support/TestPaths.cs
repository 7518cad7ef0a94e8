using System.Runtime.CompilerServices;

namespace PerfService.Agents.Tests.Support;

/// <summary>Paths in the checkout, found from this source file (the test binaries may live anywhere: -p:ArtifactsPath).</summary>
public static class TestPaths
{
    public static string RepoRoot { get; } = Find();

    public static string Fixture(params string[] parts) => Path.Combine([RepoRoot, "tests", "fixtures", .. parts]);

    public static string Profiles => Path.Combine(RepoRoot, "deploy", "profiles.json");

    private static string Find([CallerFilePath] string here = "")
    {
        for (var dir = new DirectoryInfo(Path.GetDirectoryName(here)!); dir is not null; dir = dir.Parent)
        {
            if (Directory.Exists(Path.Combine(dir.FullName, "tests", "fixtures"))) return dir.FullName;
        }
        throw new DirectoryNotFoundException($"no checkout above {here}");
    }
}
