using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.CompareEval;

/// <summary>One noise cell of the evaluation: within-run and run-to-run relative noise (0.02 = 2%). A
/// <see cref="Bimodal"/> cell's runs also land in one of two modes (see <see cref="EvaluationSettings.SlowModeShare"/>).</summary>
public sealed record NoiseCell(double Within, double RunToRun, bool Bimodal = false)
{
    public override string ToString() => $"within {Within * 100:0.#}% / run-to-run {RunToRun * 100:0.#}%{(Bimodal ? ", bimodal runs" : "")}";
}

/// <summary>How the pull requests of the evaluation are drawn.</summary>
public sealed record EvaluationSettings
{
    public int Seed { get; init; } = 1;
    /// <summary>Pull requests per noise cell.</summary>
    public int PullRequestsPerCell { get; init; } = 25;
    public int BenchmarksPerPullRequest { get; init; } = 40;
    public int RoundsPerSide { get; init; } = 3;
    public int SamplesPerRound { get; init; } = 15;
    /// <summary>Base-branch runs before the pull request (the service's noise history); 0 = none, as in the CLI.</summary>
    public int HistoryRuns { get; init; } = 20;
    public double[] Within { get; init; } = [0.005, 0.01, 0.02, 0.05];
    public double[] RunToRun { get; init; } = [0, 0.01, 0.02, 0.03];
    /// <summary>
    /// The high-noise cells (within-run 2%): run-to-run noise of 10% to 20% with runs in two modes, as on a busy or
    /// shared machine where some runs meet interference. Where "no change" must never be said of a real ±10% or ±20%.
    /// </summary>
    public double[] HighNoiseRunToRun { get; init; } = [0.10, 0.20];
    /// <summary>In a bimodal cell, the share of runs (rounds and history runs alike) in the slow mode, and how much slower it is.</summary>
    public double SlowModeShare { get; init; } = 0.25;
    public double SlowModeFactor { get; init; } = 1.4;
    /// <summary>Share of benchmarks with two modes (the second 15% slower, taken by 30% of samples).</summary>
    public double BimodalShare { get; init; } = 0.1;
    /// <summary>Share of samples that are outliers (1.5× to 3× the value).</summary>
    public double OutlierShare { get; init; } = 0.02;
    /// <summary>Planted true changes (head/base − 1) and their weights: half unchanged, the rest ±5%, ±10%, ±20%.</summary>
    public (double Shift, double Weight)[] Shifts { get; init; } =
        [(0, 6), (0.05, 1), (-0.05, 1), (0.10, 1), (-0.10, 1), (0.20, 1), (-0.20, 1)];
}

/// <summary>A benchmark of a synthetic pull request and the truth about it.</summary>
public sealed record LabelledComparison(NoiseCell Cell, double TrueShift, bool Bimodal, ComparisonInput Input);

/// <summary>
/// Synthetic pull requests with known changes, drawn under the two-level noise model benchmarks show: every sample
/// multiplies the benchmark's level by exp(within-run noise); every run (round) multiplies all its samples by
/// exp(run-to-run noise), half of whose variance is shared by all benchmarks of the round (the machine's state that
/// day) and half the benchmark's own (its code layout, its JIT). Some benchmarks have two modes, some samples are
/// outliers. The base branch's history is drawn the same way, one run per commit, as the service would have it.
/// </summary>
public static class SyntheticPullRequests
{
    /// <summary>Per cell, its pull requests; per pull request, its benchmarks (one FDR family).</summary>
    public static IEnumerable<IReadOnlyList<LabelledComparison>> Generate(EvaluationSettings settings)
    {
        var rng = new Random(settings.Seed);
        foreach (var within in settings.Within)
            foreach (var runToRun in settings.RunToRun)
            {
                var cell = new NoiseCell(within, runToRun);
                for (var pr = 0; pr < settings.PullRequestsPerCell; pr++) yield return PullRequest(rng, cell, settings);
            }
        foreach (var runToRun in settings.HighNoiseRunToRun)
        {
            var cell = new NoiseCell(0.02, runToRun, Bimodal: true);
            for (var pr = 0; pr < settings.PullRequestsPerCell; pr++) yield return PullRequest(rng, cell, settings);
        }
    }

    private static List<LabelledComparison> PullRequest(Random rng, NoiseCell cell, EvaluationSettings s)
    {
        var shared = cell.RunToRun / Math.Sqrt(2);
        // The machine's state per round, shared by every benchmark of that round (base and head rounds interleave).
        var baseShared = Enumerable.Range(0, s.RoundsPerSide).Select(_ => shared * Gaussian(rng)).ToArray();
        var headShared = Enumerable.Range(0, s.RoundsPerSide).Select(_ => shared * Gaussian(rng)).ToArray();
        var totalWeight = s.Shifts.Sum(x => x.Weight);
        var list = new List<LabelledComparison>(s.BenchmarksPerPullRequest);
        for (var b = 0; b < s.BenchmarksPerPullRequest; b++)
        {
            var level = Math.Exp(Math.Log(10) + rng.NextDouble() * Math.Log(1e5)); // 10 ns … 1 ms
            var shift = Pick(rng, s.Shifts, totalWeight);
            var bimodal = rng.NextDouble() < s.BimodalShare;
            IReadOnlyList<double> Round(double sharedOffset, double factor) =>
                Samples(rng, level * factor * Math.Exp(sharedOffset + shared * Gaussian(rng)) * Mode(rng, cell, s), cell.Within, bimodal, s);
            var baseRounds = baseShared.Select(o => Round(o, 1)).ToList();
            var headRounds = headShared.Select(o => Round(o, 1 + shift)).ToList();
            List<double>? history = null;
            if (s.HistoryRuns > 0)
            {
                history = new List<double>(s.HistoryRuns);
                for (var h = 0; h < s.HistoryRuns; h++)
                {
                    var run = Round(shared * Gaussian(rng), 1).Order().ToArray();
                    var n = run.Length;
                    history.Add(n % 2 == 1 ? run[n / 2] : 0.5 * (run[n / 2 - 1] + run[n / 2]));
                }
            }
            var input = ComparisonInput.FromRounds($"bench{b}", Measures.Time, "ns", Direction.LowerIsBetter, baseRounds, headRounds)
                with { History = history };
            list.Add(new LabelledComparison(cell, shift, bimodal, input));
        }
        return list;
    }

    private static double[] Samples(Random rng, double centre, double within, bool bimodal, EvaluationSettings s)
    {
        var samples = new double[s.SamplesPerRound];
        for (var i = 0; i < samples.Length; i++)
        {
            var v = centre * Math.Exp(within * Gaussian(rng));
            if (bimodal && rng.NextDouble() < 0.3) v *= 1.15;
            if (rng.NextDouble() < s.OutlierShare) v *= 1.5 + 1.5 * rng.NextDouble();
            samples[i] = v;
        }
        return samples;
    }

    /// <summary>A run's mode in a bimodal cell: slow (interference) with the slow mode's share, else normal.</summary>
    private static double Mode(Random rng, NoiseCell cell, EvaluationSettings s) =>
        cell.Bimodal && rng.NextDouble() < s.SlowModeShare ? s.SlowModeFactor : 1;

    private static double Pick(Random rng, (double Shift, double Weight)[] shifts, double total)
    {
        var u = rng.NextDouble() * total;
        foreach (var (shift, weight) in shifts)
        {
            if (u < weight) return shift;
            u -= weight;
        }
        return shifts[^1].Shift;
    }

    internal static double Gaussian(Random rng)
    {
        var u1 = 1.0 - rng.NextDouble();
        var u2 = rng.NextDouble();
        return Math.Sqrt(-2 * Math.Log(u1)) * Math.Cos(2 * Math.PI * u2);
    }
}
