using PerfService.Core.Contracts;
using PerfService.Core.Suites;

namespace PerfService.Agents.Jobs;

/// <summary>One harness run of a job: a suite on one side in one round.</summary>
public sealed record JobStep(
    int SuiteNumber,
    int SuiteCount,
    string Suite,
    RunRole Role,
    string Commit,
    int Round,
    int Rounds
)
{
    public string Progress => $"suite {SuiteNumber}/{SuiteCount} {Suite} ({Role.Name()}, round {Round}/{Rounds})";

    /// <summary>No attempt number in it: when a second agent re-runs a job whose lease expired, its posts collapse
    /// into the first agent's on the service.</summary>
    public string IdempotencyKey(long jobId) => $"job-{jobId}-{Suite}-{Role.Name()}-{Round}";
}

/// <summary>The order a job runs in: suites one at a time; for a pull request, base and head interleaved round by
/// round in ABBA order (base, head, head, base, base, head…) so that drift on the machine hits both sides alike and
/// neither side always runs first (a warm cache, a turbo budget, a thermal state left by the previous run would
/// otherwise favour one side every round). Deterministic: no seed to record.</summary>
public static class JobPlan
{
    public static IReadOnlyList<string> SelectSuites(JobAssignment job, SuiteManifest manifest)
    {
        if (job.Suites.Count == 0)
            return manifest.Suites.Select(s => s.Name).ToList();
        var declared = manifest.Suites.Select(s => s.Name).ToHashSet(StringComparer.Ordinal);
        var unknown = job.Suites.Where(s => !declared.Contains(s)).ToList();
        if (unknown.Count > 0)
            throw new JobFailedException(
                $"perf.json declares no suite {string.Join(", ", unknown)} (it has: {string.Join(", ", declared)})"
            );
        return job.Suites;
    }

    public static IReadOnlyList<JobStep> Build(JobAssignment job, IReadOnlyList<string> suites)
    {
        var rounds = Math.Max(1, job.Rounds);
        var steps = new List<JobStep>();
        for (var s = 0; s < suites.Count; s++)
        {
            for (var round = 1; round <= rounds; round++)
            {
                var head = new JobStep(s + 1, suites.Count, suites[s], RunRole.Head, job.Commit, round, rounds);
                if (job.BaseCommit is not { } baseCommit)
                {
                    steps.Add(head);
                    continue;
                }
                var @base = new JobStep(s + 1, suites.Count, suites[s], RunRole.Base, baseCommit, round, rounds);
                steps.AddRange(round % 2 == 1 ? [@base, head] : [head, @base]);
            }
        }
        return steps;
    }

    /// <summary>Harness runs a job may add to repeat disturbed rounds: half its planned runs (at least one), so a
    /// disturbed machine makes a job at most half as long again rather than never ending.</summary>
    public static int DisturbedRepeats(IReadOnlyList<JobStep> steps) => Math.Max(1, steps.Count / 2);

    public static IReadOnlyList<string> Args(SuiteDeclaration suite, bool quick) =>
        quick && suite.QuickArgs is { } quickArgs ? quickArgs : suite.Args;
}

/// <summary>The repeats of disturbed rounds a job has left.</summary>
public sealed class RepeatBudget(int repeats)
{
    public int Left { get; private set; } = repeats;

    public bool TryTake()
    {
        if (Left <= 0)
            return false;
        Left--;
        return true;
    }

    /// <summary>A repeat that was disturbed again shows the disturbance is lasting (a backup, a busy neighbour, a
    /// loop that never ends): further repeats in this job would only lengthen it, so the rest are given up.</summary>
    public void GiveUp() => Left = 0;
}
