using System.Globalization;
using System.Text.Json.Nodes;

namespace PerfService.Demo;

/// <summary>
/// The end of the demo on the console: the planted changes measured against this machine's noise, where to click
/// (every link opens on something to look at), and how long each phase took.
/// </summary>
public sealed class DemoSummary(DemoApi api, DemoScenario scenario, DemoRepository.History history, string url, TextWriter output)
{
    /// <summary>The explorer on the planted benchmarks' charts (main, time); the change point's alert is marked on them.</summary>
    public async Task<string> PlantedTrendUrlAsync(CancellationToken ct)
    {
        var ids = await PlantedBenchmarksAsync(ct);
        var query = $"project={DemoScenario.Project}&q={Uri.EscapeDataString(scenario.MainSlowedBenchmark)}&b={string.Join(",", ids.Select(b => b.Id))}&measure=time&branch=main";
        return $"{url}/explorer.html?{query}";
    }

    /// <summary>The noise the calibration measured, and what the demo changed because of it.</summary>
    public void PrintPlan(IReadOnlyList<DemoPlanner.Calibrated> calibrations)
    {
        output.WriteLine($"  noise before the history (calibration, {DemoCalibration.Rounds} rounds a profile; worst profile):");
        foreach (var c in calibrations)
            output.WriteLine($"    -benchtime={c.Benchtime,-6} {scenario.MainSlowedBenchmark}* {DemoPlanner.Pct(c.Main)}, {scenario.PullRequestSlowedBenchmark}* {DemoPlanner.Pct(c.PullRequest)}");
        var floor = DemoPlanner.Floor(scenario.Full);
        if (scenario.Plan.Notes.Count == 0)
            output.WriteLine($"  plan: as planned for a quiet machine (a +{floor}% step is told up to {DemoPlanner.Pct(DemoPlanner.NoiseLimit(floor))} noise): " +
                             $"-benchtime={scenario.Plan.Benchtime}, +{scenario.MainSlowdownPercent}% on main, +{scenario.PullRequestSlowdownPercent}% in the pull request, {scenario.PullRequestRounds} rounds a side");
        else
        {
            output.WriteLine($"  plan: this machine is too noisy for a +{floor}% step (told up to {DemoPlanner.Pct(DemoPlanner.NoiseLimit(floor))} noise), so:");
            foreach (var note in scenario.Plan.Notes) output.WriteLine($"    - {note}");
        }
    }

    public async Task PrintNoiseAsync(CancellationToken ct)
    {
        var plantedFrom = history.Main.Skip(scenario.PlantedAt).Select(c => c.Sha).Append(history.Final).ToHashSet(StringComparer.Ordinal);
        var before = history.Main.Take(scenario.PlantedAt).Select(c => c.Sha).ToHashSet(StringComparer.Ordinal);
        var planted = scenario.MainSlowdownPercent / 100.0;
        output.WriteLine($"  planted +{scenario.MainSlowdownPercent}% on main, measured (median after / before the planting commit; noise: spread of the runs before it; the points the change-point detector reads, rounds left out as disturbed not among them):");
        var measured = new List<DemoNoise>();
        var leftOut = new Dictionary<long, bool>();
        foreach (var (id, key) in await PlantedBenchmarksAsync(ct))
        {
            var series = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/series?benchmark={id}&measure=time&branch=main&limit=10000", ct);
            foreach (var line in series?["lines"] as JsonArray ?? [])
            {
                // The points the change-point detector reads: a round left out as disturbed is not one of them.
                var points = new List<(string?, double?)>();
                foreach (var p in line!["points"] as JsonArray ?? [])
                    if ((double?)p!["value"] > 0 && !await LeftOutAsync((long)p["runId"]!, leftOut, ct))
                        points.Add(((string?)p["commit"], (double?)p["value"]));
                var noise = DemoNoise.Measure(points.Where(p => before.Contains(p.Item1!)).Select(p => p.Item2!.Value).ToList(),
                    points.Where(p => plantedFrom.Contains(p.Item1!)).Select(p => p.Item2!.Value).ToList());
                if (noise is null) continue;
                measured.Add(noise);
                output.WriteLine($"    {key,-40} {(string?)line["profile"],-12} step {Pct(noise.Step),7}  noise ±{noise.Noise * 100:0.0}%  resolvable from {noise.Before}+{noise.After} points ≥ {noise.Resolvable * 100:0}%");
            }
        }
        output.WriteLine($"  machine load average (1, 5, 15 min) now: {LoadAverage()} on {Environment.ProcessorCount} CPUs");
        var unreliable = measured.Where(n => !n.Reliable(planted)).ToList();
        if (unreliable.Count > 0)
            output.WriteLine($"  note: on {unreliable.Count} of {measured.Count} series this machine's run-to-run noise (±{unreliable.Min(n => n.Noise) * 100:0}% to " +
                             $"±{unreliable.Max(n => n.Noise) * 100:0}%) makes a {scenario.MainSlowdownPercent}% change unreliable to find: these points resolve only " +
                             $"≥ {unreliable.Min(n => n.Resolvable) * 100:0}%. A quiet, dedicated benchmark machine has a fraction of this noise.");
    }

    /// <summary>
    /// Each regressed benchmark's differential flame graph, with the frame that grew most, and what profiling cost: the
    /// profiling jobs' agent time, and how long after the pull request's last measuring job the last of them ended.
    /// </summary>
    public async Task PrintProfilesAsync(IReadOnlyList<DemoChecks.Profiled> profiled, DemoChecks.Profiled? target, CancellationToken ct)
    {
        if (target is not null)
            output.WriteLine($"  why the target broke: the final commit against the one before (the slowdown switch runs {scenario.RivuletSlowdownFrame}):\n" +
                             $"    {target.Profile,-12} {target.Benchmark} top grown {target.TopFrame ?? "nothing"} {Pct(target.Growth)} of samples " +
                             $"({target.BaseSamples}/{target.HeadSamples} samples)  {url}/{target.Page}");
        output.WriteLine($"  why the pull request is slower: differential flame graphs, head against base (the slowdown switch runs {scenario.SlowdownFrame}):");
        foreach (var p in profiled)
            output.WriteLine($"    {p.Profile,-12} {p.Benchmark,-38} top grown {p.TopFrame ?? "nothing"} {Pct(p.Growth)} of samples  {url}/{p.Page}");
        var jobs = (await api.GetArrayAsync($"api/v1/jobs?project={DemoScenario.Project}&limit=1000", ct))
            .Where(j => (int?)j!["pullRequest"] == DemoScenario.PullRequest).ToList();
        var profiling = jobs.Where(j => (string?)j!["kind"] == "Profile").ToList();
        DateTimeOffset? Time(JsonNode? job, string field) => DateTimeOffset.TryParse((string?)job![field], CultureInfo.InvariantCulture, DateTimeStyles.None, out var t) ? t : null;
        var lastMeasured = jobs.Except(profiling).Select(j => Time(j, "finishedAt")).Max();
        var lastProfiled = profiling.Select(j => Time(j, "finishedAt")).Max();
        var agentTime = TimeSpan.FromTicks(profiling.Sum(j => ((Time(j, "finishedAt") - Time(j, "startedAt")) ?? TimeSpan.Zero).Ticks));
        output.WriteLine($"  profiling cost: {profiling.Count} job(s) (one run a side of each regressed benchmark), {DemoTimeline.Format(agentTime)} of agent time; " +
                         (lastProfiled > lastMeasured ? $"the pull request's phase ended {DemoTimeline.Format(lastProfiled.Value - lastMeasured!.Value)} after its last measuring job" : "no time after the measuring jobs"));
    }

    public void PrintLinks(string trendUrl)
    {
        output.WriteLine($"  Dashboard (targets per profile): {url}/");
        output.WriteLine($"  Trend (planted):  {trendUrl}");
        output.WriteLine($"  Pull request:     {url}/pr.html?project={DemoScenario.Project}&pr={DemoScenario.PullRequest}");
        output.WriteLine($"  Alerts:           {url}/alerts.html?project={DemoScenario.Project}");
        output.WriteLine($"  Agents & jobs:    {url}/agents.html");
        output.WriteLine($"  API:              {url}/api-reference/");
    }

    public void PrintTimings(DemoTimeline timeline)
    {
        foreach (var (phase, at) in timeline.Marks)
            output.WriteLine($"  +{DemoTimeline.Format(at),-8} {phase}");
    }

    private async Task<bool> LeftOutAsync(long runId, Dictionary<long, bool> known, CancellationToken ct)
    {
        if (!known.TryGetValue(runId, out var left))
            known[runId] = left = (bool?)(await api.GetAsync($"api/v1/runs/{runId}", ct))?["run"]?["leftOutAsDisturbed"] == true;
        return left;
    }

    private async Task<List<(long Id, string Key)>> PlantedBenchmarksAsync(CancellationToken ct)
    {
        var items = await api.GetArrayAsync($"api/v1/projects/{DemoScenario.Project}/benchmarks?q={Uri.EscapeDataString(scenario.MainSlowedBenchmark)}&suite=eventstore&limit=50", ct);
        return items.Select(b => ((long)b!["id"]!, (string)b["key"]!))
            .Where(b => !b.Item2.Contains("Postgres", StringComparison.Ordinal)).OrderBy(b => b.Item2, StringComparer.Ordinal).ToList();
    }

    private static string LoadAverage()
    {
        try { return string.Join(", ", File.ReadAllText("/proc/loadavg").Split(' ').Take(3)); }
        catch (IOException) { return "unknown"; }
    }

    private static string Pct(double v) => v.ToString("+0.0%;-0.0%", CultureInfo.InvariantCulture);
}
