namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>Real harness output from tests/fixtures.</summary>
public static class Fixtures
{
    public static string Root => TestPaths.Fixtures;

    public static byte[] Read(params string[] parts) => File.ReadAllBytes(Path.Combine([Root, .. parts]));

    /// <summary>Every file of a folder, with paths relative to it (a criterion tree).</summary>
    public static (string Path, byte[] Content)[] Tree(params string[] parts)
    {
        var dir = Path.Combine([Root, .. parts]);
        return Directory.EnumerateFiles(dir, "*", SearchOption.AllDirectories).Order()
            .Select(f => (Path.GetRelativePath(dir, f).Replace('\\', '/'), File.ReadAllBytes(f))).ToArray();
    }
}
