namespace PerfService.Agents.Tests.Support;

/// <summary>A fresh folder per test, removed afterwards.</summary>
public sealed class TempDir(string prefix = "perf-agent-tests-") : IDisposable
{
    public string Path { get; } = Directory.CreateTempSubdirectory(prefix).FullName;

    public string Combine(params string[] parts) => System.IO.Path.Combine([Path, .. parts]);

    public string Write(string relative, string content)
    {
        var file = Combine(relative);
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(file)!);
        File.WriteAllText(file, content);
        return file;
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A process still holding a file; the OS cleans temp.
        }
    }
}
