using System.Text.Json.Nodes;

namespace PerfService.Demo;

/// <summary>
/// The story the demo tells, as data: a main branch whose history plants one slowdown part-way, a final main commit
/// that breaks a target, and a pull request that plants another slowdown. Slowdowns go through the suites' own
/// switch (PERF_SLOWDOWN in perf.json's "env"), exactly as a real code change would show up. The demo's planted
/// changes are of a size a real change has (25%) unless the calibration found the machine too noisy to tell that
/// (<see cref="DemoPlan"/>); the summary measures the run-to-run noise next to them.
/// </summary>
public sealed record DemoScenario(bool Full, DemoPlan Plan)
{
    public const string Project = "demo";
    public const int PullRequest = 1;

    /// <summary>
    /// Commits on main before the final one. The online detector tests a change with at least 10 points before it
    /// and raises it once it has held for 3 re-runs with 5 points after it. A disturbed round on a machine where
    /// disturbance is the exception stays out of the series, so 14 before (room for 4 such rounds) and 13 after (14
    /// with the final commit) leave it room, and keep the history to 81 short jobs.
    /// </summary>
    public int MainCommits => 27;
    /// <summary>Index (0-based) of the main commit that makes every BenchmarkRead case slower.</summary>
    public int PlantedAt => 14;
    /// <summary>
    /// The demo plants what a real change does, +25%, or more where the calibration measured more noise than a 25% step
    /// can be told from. --fast is CI's check that the whole loop works (jobs, agents, ingestion, detection, verdicts)
    /// on whatever machine CI has, busy or not, so it plants 5× changes that no load hides; the detector's sensitivity
    /// to small changes is measured separately (./perf detect-eval, compare-eval).
    /// </summary>
    public int MainSlowdownPercent => Plan.MainStepPercent;
    public string MainSlowdown => $"BenchmarkRead={MainSlowdownPercent}";
    /// <summary>Every case of it is slowed (simple, by_type, complex): an alert on any of them finds the commit.</summary>
    public string MainSlowedBenchmark => "BenchmarkRead/";
    public int PullRequestSlowdownPercent => Plan.PullRequestStepPercent;
    public string PullRequestSlowdown => $"BenchmarkProjection={PullRequestSlowdownPercent}";
    /// <summary>Both cases of it are slowed (single, multiple): a regression on either judges the pull request.</summary>
    public string PullRequestSlowedBenchmark => "BenchmarkProjection/";
    /// <summary>The function the Go suite's slowdown switch runs (benches/go/slowdown.go): the frame a profile of a
    /// slowed benchmark shows grown most.</summary>
    public string SlowdownFrame => "perfbench.slowdownWork";
    /// <summary>The final main commit makes retries 25% slower: the "advanced features add under 10%" target breaks.</summary>
    public string TargetSlowdown => $"WithRetries={Plan.TargetStepPercent}";
    public string BrokenTarget => "advanced features add under 10% overhead";
    /// <summary>The benchmark the final commit slows, and the method the .NET suites' slowdown switch burns CPU in
    /// (benches/dotnet/BenchShared/Slowdown.cs): the frame the target failure's profile shows grown most.</summary>
    public string RivuletSlowedBenchmark => "AdvancedFeaturesBenchmarks.WithRetries";
    public string RivuletSlowdownFrame => "PerfBenches.Shared.Slowdown.SlowdownWork";

    /// <summary>Rounds a side of the pull request's jobs, and the project's budget for re-runs of inconclusive verdicts.</summary>
    public int PullRequestRounds => Plan.PullRequestRounds;
    public int RoundBudget => Plan.RoundBudget;

    public IReadOnlyList<string> Profiles { get; } = ["ryzen-9950x", "i7-4790k", "m1-pro"];

    /// <summary>Suites of the per-commit history (a few seconds a job), and of the pull request.</summary>
    public IReadOnlyList<string> HistorySuites { get; } = ["eventstore"];
    public IReadOnlyList<string> PullRequestSuites { get; } = ["eventstore"];

    /// <summary>
    /// The final main commit's slower suites, each on one profile only (each agent builds in its own checkout, so
    /// spreading them spreads the builds too); the event store's quick run of that commit is part of the history. They
    /// run after the history and before the pull request, so that neither their builds nor their runs share the
    /// machine with a job whose series the story shows. Quick jobs use the suites' quickArgs; the full eventstore job
    /// runs the whole Go package (PostgreSQL store, web app at 100 virtual users, messaging) at a short benchtime.
    /// RustFiber's job, most of it criterion's cold release build, is the longest: it is queued first and alone on its
    /// agent, and the others share the second slot (about as long together).
    /// </summary>
    public IReadOnlyList<FinalJob> FinalJobs => Full
        ?
        [
            new("i7-4790k", ["fibers"], Quick: true),
            new("ryzen-9950x", ["rivulet"], Quick: true),
            new("m1-pro", ["eventstore"], Quick: false),
            new("ryzen-9950x", ["persistence", "perper"], Quick: true),
        ]
        :
        [
            new("m1-pro", ["perper"], Quick: true),
        ];

    public sealed record FinalJob(string Profile, IReadOnlyList<string> Suites, bool Quick);

    /// <summary>
    /// Tunes the copied perf.json for a demo that takes minutes, not hours: the Go history runs only the read and
    /// projection benchmarks (the planted ones and their neighbours) at the planned benchtime, a few seconds a run;
    /// Rivulet runs on its host runtime only (.NET 10): the broken target fails on one runtime as on three, and each
    /// further runtime would add its own build and run to the final commit's longest phase.
    /// </summary>
    public static void TuneManifest(JsonObject manifest, string benchtime)
    {
        foreach (var suite in Suites(manifest))
            if ((string?)suite["name"] == "eventstore")
            {
                suite["quickArgs"] = new JsonArray($"-benchtime={benchtime}", "-bench", "^Benchmark(Read|Projection)$");
                suite["args"] = new JsonArray("-benchtime=100ms");
            }
            else if ((string?)suite["name"] == "rivulet")
                suite["env"] = new JsonObject { ["PERF_BENCH_OTHER_RUNTIMES"] = "none" };
    }

    /// <summary>Sets (or clears, with null) PERF_SLOWDOWN in one suite's env, keeping its other variables.</summary>
    public static void Plant(JsonObject manifest, string suiteName, string? slowdown)
    {
        foreach (var suite in Suites(manifest).Where(s => (string?)s["name"] == suiteName))
        {
            if (suite["env"] is not JsonObject env) suite["env"] = env = [];
            if (slowdown is null) env.Remove("PERF_SLOWDOWN");
            else env["PERF_SLOWDOWN"] = slowdown;
            if (env.Count == 0) suite.Remove("env");
        }
    }

    private static IEnumerable<JsonObject> Suites(JsonObject manifest) =>
        manifest["suites"]!.AsArray().OfType<JsonObject>();
}
