using System.Collections;

namespace PerfService.Agents.Processes;

/// <summary>
/// The one place that decides which of the agent's own environment variables a child process inherits. Benchmark
/// harnesses run the code of pull requests, so they must never see the agent's token (PERF_TOKEN), its other settings
/// (PERF_*, credentials of the machine, SSH agents…): only what a toolchain needs to find itself and its caches is
/// passed, by name, and everything else is dropped. What a child needs beyond this (HOME of the work folder,
/// CRITERION_HOME, PERF_OUTPUT, a suite's own "env") is set explicitly by its <see cref="ProcessSpec"/>.
/// </summary>
public static class ChildEnvironment
{
    private static readonly HashSet<string> _names = new(StringComparer.Ordinal)
    {
        "PATH",
        "HOME",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TMPDIR",
        "USER",
        "LOGNAME",
        // Planting a regression of known size on a benchmark machine is a documented, harmless switch.
        "PERF_SLOWDOWN",
        "PERF_ALLOC",
        "NUGET_PACKAGES",
        "NUGET_HTTP_CACHE_PATH",
        "NUGET_CERT_REVOCATION_MODE",
        "GOROOT",
        "GOPATH",
        "GOCACHE",
        "GOFLAGS",
        "GOMODCACHE",
        "GOPROXY",
        "GONOSUMDB",
        "GONOSUMCHECK",
        "GOPRIVATE",
        "GOTOOLCHAIN",
        "GOAMD64",
        "GOARM64",
        "GOMAXPROCS",
        "GOGC",
        "GOMEMLIMIT",
        "RUSTFLAGS",
        "RUST_BACKTRACE",
        "CC",
        "CXX",
    };

    private static readonly string[] _prefixes = ["LC_", "DOTNET_", "CARGO_", "RUSTUP_", "RUSTC"];

    public static bool IsPassed(string name) =>
        _names.Contains(name) || _prefixes.Any(p => name.StartsWith(p, StringComparison.Ordinal));

    /// <summary>The agent's variables a child may inherit.</summary>
    public static Dictionary<string, string> Inherited()
    {
        var passed = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (DictionaryEntry entry in Environment.GetEnvironmentVariables())
        {
            if (entry.Key is string name && entry.Value is string value && IsPassed(name))
                passed[name] = value;
        }
        return passed;
    }
}
