using PerfService.Agents.Processes;

namespace PerfService.Agents.Isolation;

/// <summary>
/// Where a job's harnesses live: their HOME, temporary files and toolchain caches, as environment variables, plus
/// the folders they may write (a sandbox binds exactly these). Trusted jobs share one home under the work folder
/// (warm caches across jobs); an untrusted job gets everything inside its own fresh folder, deleted after the job,
/// so nothing it builds or downloads can be picked up by a later trusted run.
/// </summary>
public sealed record HarnessWorkspace(
    string? FreshRoot,
    IReadOnlyDictionary<string, string?> Environment,
    IReadOnlyList<string> Writable
)
{
    public bool IsFresh => FreshRoot is not null;

    public static HarnessWorkspace Trusted(string workDir, bool agentCaches)
    {
        var home = Path.Combine(workDir, "home");
        var environment = new Dictionary<string, string?> { ["HOME"] = home, ["TMPDIR"] = Path.Combine(home, "tmp") };
        var inherited = ChildEnvironment.Inherited();
        // Without --run-as, toolchains the agent's user installed under its own home (rustup, a NuGet cache filled
        // while the machine had network) keep working: their variables point there unless set already.
        if (agentCaches && inherited.GetValueOrDefault("HOME") is { } agentHome)
        {
            Default(environment, inherited, "RUSTUP_HOME", Path.Combine(agentHome, ".rustup"));
            Default(environment, inherited, "CARGO_HOME", Path.Combine(agentHome, ".cargo"));
            Default(environment, inherited, "NUGET_PACKAGES", Path.Combine(agentHome, ".nuget", "packages"));
        }
        var caches = new[] { "CARGO_HOME", "NUGET_PACKAGES", "GOPATH", "GOCACHE", "GOMODCACHE" }
            .Select(v => environment.GetValueOrDefault(v) ?? inherited.GetValueOrDefault(v))
            .OfType<string>()
            .Where(Directory.Exists);
        return new HarnessWorkspace(null, environment, [Path.Combine(workDir, "work"), home, .. caches]);
    }

    public static HarnessWorkspace Untrusted(string workDir, long jobId)
    {
        var root = Path.Combine(workDir, "untrusted", $"job-{jobId}-{Guid.NewGuid():N}");
        string In(string name) => Path.Combine(root, name);
        var environment = new Dictionary<string, string?>
        {
            ["HOME"] = In("home"),
            ["TMPDIR"] = In("tmp"),
            ["GOPATH"] = In("go"),
            ["GOMODCACHE"] = In("go/pkg/mod"),
            ["GOCACHE"] = In("go-build"),
            ["CARGO_HOME"] = In("cargo"),
            ["CARGO_TARGET_DIR"] = In("cargo-target"),
            ["NUGET_PACKAGES"] = In("nuget"),
        };
        // rustup's toolchains are only read; without RUSTUP_HOME its proxies would look in the fresh home.
        var inherited = ChildEnvironment.Inherited();
        if (
            inherited.GetValueOrDefault("RUSTUP_HOME") is null
            && inherited.GetValueOrDefault("HOME") is { } agentHome
            && Directory.Exists(Path.Combine(agentHome, ".rustup"))
        )
            environment["RUSTUP_HOME"] = Path.Combine(agentHome, ".rustup");
        return new HarnessWorkspace(root, environment, [root]);
    }

    private static void Default(
        Dictionary<string, string?> environment,
        Dictionary<string, string> inherited,
        string name,
        string path
    )
    {
        if (!inherited.ContainsKey(name) && Directory.Exists(path))
            environment[name] = path;
    }

    /// <summary>Creates HOME and TMPDIR (tools expect them to exist).</summary>
    public void Create()
    {
        foreach (var name in new[] { "HOME", "TMPDIR" })
            if (Environment.GetValueOrDefault(name) is { } dir)
                Directory.CreateDirectory(dir);
    }

    public void Delete()
    {
        if (FreshRoot is not null && Directory.Exists(FreshRoot))
            Directory.Delete(FreshRoot, recursive: true);
    }
}
