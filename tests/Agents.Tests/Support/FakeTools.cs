namespace PerfService.Agents.Tests.Support;

/// <summary>Fake `dotnet`, `cargo`, `go` scripts in a folder put first on the harness's PATH (only the child's PATH:
/// tests run in parallel and never touch the test process's own environment).</summary>
public sealed class FakeTools(string dir)
{
    public string Dir { get; } = Directory.CreateDirectory(dir).FullName;

    public string Add(string name, string script) => Scripts.Write(Path.Combine(Dir, name), script);

    public IReadOnlyDictionary<string, string?> Environment => new Dictionary<string, string?>
    {
        ["PATH"] = $"{Dir}:{System.Environment.GetEnvironmentVariable("PATH")}",
    };
}
