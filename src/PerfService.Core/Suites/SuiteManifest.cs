using System.Text.Json;
using System.Text.Json.Serialization;

namespace PerfService.Core.Suites;

/// <summary>
/// The suites a repository declares in <c>perf.json</c> at its root. The agent runs them; the service evaluates
/// their targets. Example:
/// <code>
/// { "suites": [ { "name": "fibers", "harness": "criterion", "folder": "benches/rust",
///                 "args": ["--bench", "fibers"], "quickArgs": ["--warm-up-time", "1"], "timeoutSeconds": 1800,
///                 "targets": [ { "name": "raw fiber switch under 50 ns", "benchmark":
/// "context_switch/raw_fiber_switch",
///                                "measure": "time", "op": "&lt;", "value": 50 } ] } ] }
/// </code>
/// </summary>
public sealed record SuiteManifest(IReadOnlyList<SuiteDeclaration> Suites)
{
    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.KebabCaseLower) },
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
    };

    public static SuiteManifest Parse(string json, string file = "perf.json")
    {
        SuiteManifest? manifest;
        try
        {
            manifest = JsonSerializer.Deserialize<SuiteManifest>(json, Json);
        }
        catch (JsonException e)
        {
            throw new FormatException($"{file}: {e.Message}", e);
        }
        if (manifest?.Suites is null || manifest.Suites.Count == 0)
            throw new FormatException($"{file}: expected an object with a non-empty \"suites\" array.");
        foreach (var (suite, i) in manifest.Suites.Select((s, i) => (s, i)))
        {
            if (string.IsNullOrWhiteSpace(suite.Name))
                throw new FormatException($"{file}: suites[{i}].name is missing.");
            if (string.IsNullOrWhiteSpace(suite.Folder))
                throw new FormatException($"{file}: suites[{i}].folder is missing.");
        }
        return manifest;
    }
}

public enum Harness
{
    /// <summary>BenchmarkDotNet: <c>dotnet run -c Release</c> in the folder, JSON full exporter.</summary>
    Bdn,

    /// <summary>criterion through <c>cargo bench</c>; the agent collects <c>target/criterion</c>.</summary>
    Criterion,

    /// <summary><c>go test -bench . -benchmem -count N</c>.</summary>
    Gobench,

    /// <summary>Any command that writes the generic JSON format to the file named by PERF_OUTPUT.</summary>
    Json,

    /// <summary>Any command that prints a table of counters (Markdown, CSV or plain text with units in the header;
    /// Parsing/COUNTER_TABLES.md) on its standard output, like Perper's per-second messaging counters.</summary>
    Counters,
}

public sealed record SuiteDeclaration
{
    public required string Name { get; init; }
    public Harness Harness { get; init; }

    /// <summary>Folder relative to the repository root.</summary>
    public required string Folder { get; init; }

    /// <summary>Extra arguments for the harness (a BDN filter, a cargo bench target, a go -bench regex).</summary>
    public IReadOnlyList<string> Args { get; init; } = [];

    /// <summary>Arguments used instead of <see cref="Args"/> when a job asks for a quick run (demo, CI).</summary>
    public IReadOnlyList<string>? QuickArgs { get; init; }

    /// <summary>For Go: the -count (each repeat is a sample).</summary>
    public int? Count { get; init; }

    /// <summary>For bdn: the target framework <c>dotnet run -f</c> builds and runs the host on, for a project that
    /// targets several (Rivulet's runs its benchmarks on .NET 8, 9 and 10 from a net10.0 host).</summary>
    public string? Framework { get; init; }

    /// <summary>For the json and counters harnesses: the command to run (through /bin/sh).</summary>
    public string? Command { get; init; }
    public int TimeoutSeconds { get; init; } = 3600;

    /// <summary>More result files the suite writes, relative to its folder, in any format the service recognises by
    /// content: e.g. a generic JSON of custom measurements (memory per fiber) written by a criterion bench next to
    /// criterion's own output. They are deleted before a run and uploaded with the harness's files.</summary>
    public IReadOnlyList<string> Outputs { get; init; } = [];

    /// <summary>Environment variables for the harness, e.g. <c>PERF_SLOWDOWN</c> (a commit can plant a
    /// slowdown).</summary>
    public IReadOnlyDictionary<string, string> Env { get; init; } = new Dictionary<string, string>();
    public IReadOnlyList<TargetDeclaration> Targets { get; init; } = [];
}

/// <summary>
/// A performance target. Absolute: <c>measure(benchmark) op value</c>, e.g. time of raw_fiber_switch &lt; 50 (ns).
/// Relative: every benchmark matching <see cref="Benchmark"/> against the one matching <see cref="Baseline"/> in the
/// same run: <c>value / baseline op value</c>, e.g. ≤ 1.10 for "adds under 10% overhead".
/// Patterns are globs over the benchmark key (<c>*</c> any run of characters).
/// </summary>
public sealed record TargetDeclaration
{
    public required string Name { get; init; }
    public required string Benchmark { get; init; }
    public string Measure { get; init; } = "time";

    /// <summary>One of &lt;, &lt;=, &gt;, &gt;=.</summary>
    public required string Op { get; init; }
    public double Value { get; init; }

    /// <summary>Unit of <see cref="Value"/> when it differs from the stored unit (e.g. "ms" against "ns").</summary>
    public string? Unit { get; init; }
    public string? Baseline { get; init; }
}
