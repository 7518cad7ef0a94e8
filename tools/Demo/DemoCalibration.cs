using System.Text.Json.Nodes;

namespace PerfService.Demo;

/// <summary>
/// Measures the noise the demo is in before it plans anything: the history's own suite, run several rounds on every
/// profile at one commit of a branch of its own (the agents, slots and pinning the history will have; the first
/// round also fills each agent's build cache, so the history starts warm). The spread of those rounds, per benchmark
/// family and profile, is the run-to-run noise the planted steps have to beat; how many of them the agents found
/// disturbed says whether that noise comes from a lasting disturbance.
/// </summary>
public sealed class DemoCalibration(DemoApi api, DemoScenario scenario, TextWriter output)
{
    /// <summary>Rounds a profile: enough for a robust spread over a family's cases (6 rounds × 2–3 cases).</summary>
    public const int Rounds = 6;

    /// <summary>
    /// The calibration's jobs, on every profile: its rounds in two jobs a profile, so that three agents sharing two
    /// slots keep both busy (three jobs of six rounds would leave one slot idle for a third of the time).
    /// </summary>
    public IEnumerable<object> Jobs(string commit) => Enumerable.Range(0, 2).Select(_ => (object)new
    {
        project = DemoScenario.Project, commit, branch = DemoRepository.CalibrationBranch, suites = scenario.HistorySuites, quick = true, rounds = Rounds / 2,
    });

    public async Task<DemoPlanner.Calibrated> MeasureAsync(string commit, string benchtime, CancellationToken ct)
    {
        var values = new Dictionary<(string Family, string Profile), List<IReadOnlyList<double>>>();
        var benchmarks = await api.GetArrayAsync($"api/v1/projects/{DemoScenario.Project}/benchmarks?q=Benchmark&suite=eventstore&limit=200", ct);
        foreach (var benchmark in benchmarks)
        {
            var key = (string?)benchmark!["key"] ?? "";
            var family = new[] { scenario.MainSlowedBenchmark, scenario.PullRequestSlowedBenchmark }.FirstOrDefault(f => key.Contains(f, StringComparison.Ordinal));
            if (family is null) continue;
            var series = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/series?benchmark={(long)benchmark["id"]!}&measure=time" +
                                            $"&branch={DemoRepository.CalibrationBranch}&limit=10000", ct);
            foreach (var line in series?["lines"] as JsonArray ?? [])
            {
                var points = (line!["points"] as JsonArray ?? []).Where(p => (string?)p!["commit"] == commit)
                    .Select(p => (double?)p!["value"] ?? 0).Where(v => v > 0).ToList();
                var slot = (family, (string?)line["profile"] ?? "");
                if (!values.TryGetValue(slot, out var cases)) values[slot] = cases = [];
                cases.Add(points);
            }
        }
        double Worst(string family, List<string> lines)
        {
            var worst = 0.0;
            foreach (var profile in scenario.Profiles)
            {
                var sigma = values.TryGetValue((family, profile), out var cases) ? DemoNoise.LogSpread(cases) : double.NaN;
                // No figure (a failed calibration job) plans as if it were very noisy, never as quiet.
                if (double.IsNaN(sigma)) sigma = DemoPlanner.NoiseLimit(DemoPlanner.MaxStepPercent);
                lines.Add($"{family}* on {profile} {DemoPlanner.Pct(sigma)}");
                worst = Math.Max(worst, sigma);
            }
            return worst;
        }
        var perProfile = new List<string>();
        var (disturbed, runs) = await DisturbedAsync(commit, ct);
        var noise = new DemoPlanner.Calibrated(benchtime, Worst(scenario.MainSlowedBenchmark, perProfile), Worst(scenario.PullRequestSlowedBenchmark, perProfile));
        output.WriteLine($"  run-to-run noise at -benchtime={benchtime} ({Rounds} rounds a profile): {string.Join(", ", perProfile)}; " +
                         $"{disturbed} of {runs} rounds disturbed by other programs");
        return noise;
    }

    /// <summary>How many of the calibration's rounds at <paramref name="commit"/> the agents found disturbed.</summary>
    private async Task<(int Disturbed, int Runs)> DisturbedAsync(string commit, CancellationToken ct)
    {
        var runs = (await api.GetArrayAsync($"api/v1/projects/{DemoScenario.Project}/runs?limit=1000", ct))
            .Where(r => (string?)r!["commit"] == commit && (string?)r["branch"] == DemoRepository.CalibrationBranch).ToList();
        var disturbed = 0;
        foreach (var run in runs)
        {
            var detail = await api.GetAsync($"api/v1/runs/{(long)run!["id"]!}", ct);
            if ((bool?)detail?["run"]?["disturbance"]?["disturbed"] == true) disturbed++;
        }
        return (disturbed, runs.Count);
    }
}
