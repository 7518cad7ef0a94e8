namespace PerfService.FaultTests.Infrastructure;

/// <summary>A temporary folder for one test, removed on dispose (kept when PERF_KEEP_SCRATCH is set, for a post-mortem).</summary>
public sealed class Scratch : IDisposable
{
    public Scratch(string label)
    {
        var name = $"perf-faults-{label}-{Guid.NewGuid():N}";
        Root = System.IO.Path.Combine(System.IO.Path.GetTempPath(), name[..Math.Min(name.Length, 60)]);
        Directory.CreateDirectory(Root);
    }

    public string Root { get; }

    public string Path(params string[] parts) => System.IO.Path.Combine([Root, .. parts]);

    public void Dispose()
    {
        if (Environment.GetEnvironmentVariable("PERF_KEEP_SCRATCH") is { Length: > 0 }) return;
        try
        {
            MakeWritable(Root);
            Directory.Delete(Root, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Best effort: it is in the temp folder.
        }
    }

    /// <summary>Undoes a test's chmod so that the folder can be deleted.</summary>
    private static void MakeWritable(string dir)
    {
        if (OperatingSystem.IsWindows() || !Directory.Exists(dir)) return;
        foreach (var d in Directory.EnumerateDirectories(dir, "*", new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true })
                     .Prepend(dir))
        {
            try
            {
                File.SetUnixFileMode(d, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
            }
        }
    }
}
