using System.Text.Json.Nodes;

namespace PerfService.Demo;

public sealed partial class DemoChecks
{
    /// <summary>The final commit's differential profile of Rivulet's slower retries (full demo), for the summary.</summary>
    public Profiled? TargetProfile { get; private set; }

    private DateTimeOffset? _failedWithoutProfilingJob;

    /// <summary>
    /// The commit that broke the target was profiled against the one before it on the agent that measured it (the
    /// automatic profiling of a target failure on the default branch), and the slowed benchmark's differential profile
    /// names the slowdown switch's code as the frame whose self time grew most. Read from the run page's route.
    /// </summary>
    private async Task<Look> TargetProfileAsync(CancellationToken ct)
    {
        var overview = await api.GetAsync($"api/v1/projects/{DemoScenario.Project}/overview", ct);
        var failed = (overview?["failedTargets"] as JsonArray ?? []).FirstOrDefault(t => TargetName(t) == scenario.BrokenTarget);
        var what = $"the broken target's profile ({scenario.RivuletSlowedBenchmark}, top grown frame expected {scenario.RivuletSlowdownFrame}): ";
        if (failed is null)
            return new Look(false, true, what + "no failed target to profile", "");
        var runId = (long)failed["runId"]!;
        var jobs = await api.GetArrayAsync($"api/v1/runs/{runId}/profiles", ct);
        var unfinished = jobs.Where(j => (string?)j!["state"] is "Queued" or "Running").Select(j => $"job {j!["jobId"]} {j["state"]}").ToList();
        var recorded = jobs.Where(j => (string?)j!["state"] == "Succeeded")
            .SelectMany(j => (j!["profiles"] as JsonArray ?? []).Select(p => (Job: (long)j["jobId"]!, Benchmark: (string?)p!["benchmark"] ?? "", Role: (string?)p["role"])))
            .Where(p => p.Benchmark.Contains(scenario.RivuletSlowedBenchmark, StringComparison.Ordinal))
            .GroupBy(p => (p.Job, p.Benchmark)).Where(g => g.Any(p => p.Role == "base") && g.Any(p => p.Role == "head"))
            .Select(g => g.Key).OrderByDescending(k => k.Job).ToList();
        if (recorded.Count > 0)
        {
            var (job, benchmark) = recorded[0];
            TargetProfile = await DifferentialAsync((string?)failed["profile"] ?? "", benchmark, job, ct);
            var ok = TargetProfile.TopFrame?.Contains(scenario.RivuletSlowdownFrame, StringComparison.Ordinal) == true;
            return new Look(ok, true, what + $"{TargetProfile.Profile}: {Describe(TargetProfile)}", "");
        }
        var failures = jobs.Where(j => (string?)j!["state"] == "Failed").Select(j => (string?)j!["reason"] ?? "").ToList();
        // Queued with the failing run's analysis: a short grace, then it is missing.
        _failedWithoutProfilingJob = jobs.Count == 0 ? _failedWithoutProfilingJob ?? DateTimeOffset.UtcNow : null;
        var settled = unfinished.Count == 0 && (jobs.Count > 0 || DateTimeOffset.UtcNow - _failedWithoutProfilingJob > ProfilingJobGrace);
        return new Look(false, settled,
            what + (jobs.Count == 0 ? $"no profiling job for run {runId}" : $"no profile of both sides{(failures.Count > 0 ? $" (failed: {string.Join("; ", failures)})" : "")}"),
            jobs.Count == 0 ? $"no profiling job yet for run {runId}" : $"profiling {string.Join(", ", unfinished)}");
    }
}
