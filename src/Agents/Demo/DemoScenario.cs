using System.Text.Json.Nodes;

namespace PerfService.Agents.Demo;

/// <summary>
/// The story the demo tells, as data: a main branch whose history plants one slowdown part-way, a final main commit
/// that breaks a target, and a pull request that plants another slowdown. Slowdowns go through the suites' own
/// switch (PERF_SLOWDOWN in perf.json's "env"), exactly as a real code change would show up.
/// </summary>
public sealed record DemoScenario(bool Full)
{
    public const string Project = "demo";
    public const int PullRequest = 1;

    /// <summary>
    /// Commits on main before the final one. The change point needs points on both sides of it: on a shared 2-core
    /// VM a run now and then comes out twice as fast (the other core, a hyperthread sibling, fell idle), and with
    /// 20 points after the change the online detector raises it on most series despite that.
    /// </summary>
    public int MainCommits => 32;
    /// <summary>
    /// Index (0-based) of the main commit that makes every BenchmarkRead case five times as slow. The planted changes
    /// are well beyond this VM's run-to-run noise (whole runs twice as fast now and then) so that the demo shows them
    /// every time; the detector's sensitivity to small changes is measured separately (<c>./perf detect-eval</c>).
    /// </summary>
    public int PlantedAt => 12;
    public string MainSlowdown => "BenchmarkRead=400";
    /// <summary>Every case of it is slowed (simple, by_type, complex): an alert on any of them finds the commit.</summary>
    public string MainSlowedBenchmark => "BenchmarkRead/";
    /// <summary>The pull request makes the projections five times as slow: beyond the VM's two modes, so no mix of them explains it.</summary>
    public string PullRequestSlowdown => "BenchmarkProjection=400";
    public string PullRequestSlowedBenchmark => "BenchmarkProjection/single";
    /// <summary>The final main commit makes retries 25% slower: the "advanced features add under 10%" target breaks.</summary>
    public string TargetSlowdown => "WithRetries=25";

    public IReadOnlyList<string> Profiles { get; } = ["ryzen-9950x", "i7-4790k", "m1-pro"];

    /// <summary>Suites of the per-commit history (fast), and of the final main commit and the pull request.</summary>
    public IReadOnlyList<string> HistorySuites { get; } = ["eventstore"];
    public IReadOnlyList<string> FinalSuites => Full ? ["eventstore", "fibers", "rivulet"] : ["eventstore"];
    public IReadOnlyList<string> PullRequestSuites => Full ? ["eventstore", "fibers"] : ["eventstore"];

    /// <summary>
    /// Tunes the copied perf.json for a demo that takes minutes, not hours: the Go history runs only the event
    /// store's own benchmarks with a short benchtime.
    /// </summary>
    public static void TuneManifest(JsonObject manifest)
    {
        foreach (var suite in Suites(manifest))
            if ((string?)suite["name"] == "eventstore")
                suite["quickArgs"] = new JsonArray("-benchtime=20ms", "-bench", "^Benchmark(Append|Read|Projection)$");
    }

    /// <summary>Sets (or clears, with null) PERF_SLOWDOWN in one suite's env.</summary>
    public static void Plant(JsonObject manifest, string suiteName, string? slowdown)
    {
        foreach (var suite in Suites(manifest).Where(s => (string?)s["name"] == suiteName))
        {
            if (slowdown is null) suite.Remove("env");
            else suite["env"] = new JsonObject { ["PERF_SLOWDOWN"] = slowdown };
        }
    }

    private static IEnumerable<JsonObject> Suites(JsonObject manifest) =>
        manifest["suites"]!.AsArray().OfType<JsonObject>();
}
