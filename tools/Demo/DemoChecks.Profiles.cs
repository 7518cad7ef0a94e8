using System.Globalization;
using System.Text.Json.Nodes;

namespace PerfService.Demo;

public sealed partial class DemoChecks
{
    /// <summary>A regressed benchmark's differential profile on one hardware profile, and the page that draws it.</summary>
    public sealed record Profiled(string Profile, string Benchmark, string? TopFrame, double Growth, long BaseSamples, long HeadSamples, string Page)
    {
        public bool Shows(string frame) => TopFrame == frame;
    }

    /// <summary>What the profile check read, for the summary's links.</summary>
    public List<Profiled> Profiles { get; } = [];

    /// <summary>A regression judged on a profile queues its profiling job at once; past this, none is coming.</summary>
    private static readonly TimeSpan ProfilingJobGrace = TimeSpan.FromSeconds(60);
    private DateTimeOffset? _judgedWithoutProfilingJob;

    /// <summary>
    /// Every profile with a regression of the planted benchmarks was profiled on base and head by its own agent (the
    /// automatic profiling of a pull request's regressions), and each regressed benchmark's differential profile names
    /// the slowdown switch's code as the frame whose self time grew most.
    /// </summary>
    private async Task<Look> ProfilesAsync(CancellationToken ct)
    {
        var report = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/pulls/{DemoScenario.PullRequest}/report", ct);
        var pendingVerdicts = (report?["pendingProfiles"] as JsonArray ?? []).Count;
        var regressed = (report?["rows"] as JsonArray ?? [])
            .Where(r => ((string?)r!["benchmark"] ?? "").Contains(scenario.PullRequestSlowedBenchmark) && (string?)r["outcome"] == "Regression")
            .Select(r => (string?)r!["profile"] ?? "").ToHashSet(StringComparer.Ordinal);
        var jobs = await api.GetArrayAsync($"api/v1/projects/{DemoScenario.Project}/pulls/{DemoScenario.PullRequest}/profiles", ct);
        var unfinished = jobs.Where(j => (string?)j!["state"] is "Queued" or "Running" or "AwaitingApproval")
            .Select(j => $"{j!["profile"]} {j["state"]}").ToList();

        Profiles.Clear();
        var parts = new List<string>();
        foreach (var profile in scenario.Profiles)
        {
            var ofProfile = jobs.Where(j => (string?)j!["profile"] == profile).ToList();
            // The newest profiling job that recorded each planted benchmark on both sides.
            var recorded = ofProfile.Where(j => (string?)j!["state"] == "Succeeded")
                .SelectMany(j => (j!["profiles"] as JsonArray ?? []).Select(p => (Job: (long)j["jobId"]!, Benchmark: (string?)p!["benchmark"] ?? "", Role: (string?)p["role"])))
                .Where(p => p.Benchmark.Contains(scenario.PullRequestSlowedBenchmark))
                .GroupBy(p => (p.Job, p.Benchmark)).Where(g => g.Any(p => p.Role == "base") && g.Any(p => p.Role == "head"))
                .GroupBy(g => g.Key.Benchmark).Select(g => (Benchmark: g.Key, Job: g.Max(x => x.Key.Job)))
                .OrderBy(x => x.Benchmark, StringComparer.Ordinal).ToList();
            foreach (var (benchmark, job) in recorded)
                Profiles.Add(await DifferentialAsync(profile, benchmark, job, ct));
            var failed = ofProfile.Where(j => (string?)j!["state"] == "Failed").Select(j => (string?)j!["reason"] ?? "").ToList();
            parts.Add(recorded.Count > 0 ? $"{profile}: " + string.Join(", ", Profiles.Where(p => p.Profile == profile).Select(Describe))
                : ofProfile.Count == 0 ? $"{profile}: no profiling job{(regressed.Contains(profile) ? "" : " (no regression judged there)")}"
                : $"{profile}: no profile of both sides{(failed.Count > 0 ? $" (failed: {string.Join("; ", failed)})" : "")}");
        }

        var notProfiled = scenario.Profiles.Where(p => Profiles.All(x => x.Profile != p)).ToList();
        var ok = notProfiled.Count == 0 && Profiles.All(p => p.Shows(scenario.SlowdownFrame));
        // A regression whose profiling job has not appeared yet may be a moment away; a short grace, then it is missing.
        var awaitedJob = regressed.Any(p => jobs.All(j => (string?)j!["profile"] != p));
        _judgedWithoutProfilingJob = awaitedJob ? _judgedWithoutProfilingJob ?? DateTimeOffset.UtcNow : null;
        var settled = pendingVerdicts == 0 && unfinished.Count == 0
                      && (!awaitedJob || DateTimeOffset.UtcNow - _judgedWithoutProfilingJob > ProfilingJobGrace);
        var what = $"pull request #{DemoScenario.PullRequest}'s profiles (top grown frame, expected {scenario.SlowdownFrame}): {string.Join("; ", parts)}";
        var progress = pendingVerdicts > 0 ? $"verdicts pending on {pendingVerdicts} profile(s)"
            : unfinished.Count > 0 ? $"profiling jobs {string.Join(", ", unfinished)}"
            : $"no profiling job yet on {string.Join(", ", regressed.Where(p => jobs.All(j => (string?)j!["profile"] != p)))}";
        return new Look(ok, settled, what, progress);
    }

    private async Task<Profiled> DifferentialAsync(string profile, string benchmark, long job, CancellationToken ct)
    {
        var diff = await api.GetAsync($"api/v1/jobs/{job}/profiles/differential?benchmark={Uri.EscapeDataString(benchmark)}", ct);
        var top = (diff?["grown"] as JsonArray ?? []).FirstOrDefault();
        return new Profiled(profile, benchmark, (string?)top?["frame"], (double?)top?["growth"] ?? 0,
            (long?)diff?["baseSamples"] ?? 0, (long?)diff?["headSamples"] ?? 0, $"profile.html?job={job}&benchmark={Uri.EscapeDataString(benchmark)}");
    }

    private static string Describe(Profiled p) =>
        string.Create(CultureInfo.InvariantCulture, $"{p.Benchmark} {p.TopFrame ?? "(nothing grew)"} +{p.Growth * 100:0.#}% of samples ({p.BaseSamples}/{p.HeadSamples} samples)");
}
