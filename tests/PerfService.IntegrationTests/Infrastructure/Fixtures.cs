namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>Real harness output from tests/fixtures.</summary>
public static class Fixtures
{
    public static string Root { get; } = Find();

    public static byte[] Read(params string[] parts) => File.ReadAllBytes(Path.Combine([Root, .. parts]));

    /// <summary>Every file of a folder, with paths relative to it (a criterion tree).</summary>
    public static (string Path, byte[] Content)[] Tree(params string[] parts)
    {
        var dir = Path.Combine([Root, .. parts]);
        return Directory.EnumerateFiles(dir, "*", SearchOption.AllDirectories).Order()
            .Select(f => (Path.GetRelativePath(dir, f).Replace('\\', '/'), File.ReadAllBytes(f))).ToArray();
    }

    private static string Find() =>
        typeof(Fixtures).Assembly.GetCustomAttributes(typeof(System.Reflection.AssemblyMetadataAttribute), false)
            .Cast<System.Reflection.AssemblyMetadataAttribute>().FirstOrDefault(a => a.Key == "PerfFixtures")?.Value
        ?? throw new DirectoryNotFoundException("the test assembly does not record where tests/fixtures is");
}
