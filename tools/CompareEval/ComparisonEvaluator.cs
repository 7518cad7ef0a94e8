using System.Globalization;
using System.Text;
using PerfService.Core.Comparison;
using PerfService.Core.Results;

namespace PerfService.CompareEval;

/// <summary>The verdicts on one noise cell: how the unchanged and each planted shift were judged.</summary>
public sealed class CellScore(NoiseCell cell)
{
    public NoiseCell Cell { get; } = cell;
    public int Unchanged { get; set; }
    public int FalseVerdicts { get; set; }
    public int UnchangedNoChange { get; set; }
    public int UnchangedInconclusive { get; set; }
    /// <summary>Per |shift| (0.05, 0.10, 0.20): comparisons, found in the right direction, wrong direction, inconclusive.</summary>
    public SortedDictionary<double, ShiftScore> Shifted { get; } = new();

    public double FalseRate => Unchanged == 0 ? 0 : FalseVerdicts / (double)Unchanged;
}

public sealed class ShiftScore
{
    public int Count { get; set; }
    public int Found { get; set; }
    public int WrongDirection { get; set; }
    public int Inconclusive { get; set; }
    /// <summary>Said "no change" of this real change.</summary>
    public int NoChange { get; set; }
    public double FoundRate => Count == 0 ? 0 : Found / (double)Count;
}

/// <summary>
/// Runs the one comparison function over synthetic pull requests (one FDR family each) and scores it per noise cell
/// against the goals: at most 0.5% false verdicts overall and 1% in every cell, at least 95% of ±10% shifts found at
/// within-run ≤ 2% and run-to-run ≤ 1%, never the wrong direction, and in the high-noise cells never "no change" said
/// of a real ±10% or ±20% change.
/// </summary>
public static class ComparisonEvaluator
{
    public const double MaxFalseOverall = 0.005;
    public const double MaxFalsePerCell = 0.01;
    public const double MinFound10 = 0.95;

    public static ComparisonEvaluation Run(EvaluationSettings settings, ComparisonOptions? options = null)
    {
        var cells = new Dictionary<NoiseCell, CellScore>();
        foreach (var pr in SyntheticPullRequests.Generate(settings))
        {
            var verdicts = RunComparer.Compare(pr.Select(c => c.Input).ToList(), options);
            for (var i = 0; i < pr.Count; i++)
            {
                var truth = pr[i];
                if (!cells.TryGetValue(truth.Cell, out var score)) cells[truth.Cell] = score = new CellScore(truth.Cell);
                var v = verdicts[i];
                var alarm = v.Outcome is Outcome.Regression or Outcome.Improvement;
                if (truth.TrueShift == 0)
                {
                    score.Unchanged++;
                    if (alarm) score.FalseVerdicts++;
                    else if (v.Outcome == Outcome.NoChange) score.UnchangedNoChange++;
                    else score.UnchangedInconclusive++;
                    continue;
                }
                var size = Math.Round(Math.Abs(truth.TrueShift), 4);
                if (!score.Shifted.TryGetValue(size, out var s)) score.Shifted[size] = s = new ShiftScore();
                s.Count++;
                // Lower is better in the synthetic suite: a slowdown is a regression.
                var right = truth.TrueShift > 0 ? Outcome.Regression : Outcome.Improvement;
                if (v.Outcome == right) s.Found++;
                else if (alarm) s.WrongDirection++;
                else if (v.Outcome == Outcome.Inconclusive) s.Inconclusive++;
                else s.NoChange++;
            }
        }
        return new ComparisonEvaluation(settings, cells.Values.OrderBy(c => c.Cell.Within).ThenBy(c => c.Cell.RunToRun).ToList());
    }
}

public sealed record ComparisonEvaluation(EvaluationSettings Settings, IReadOnlyList<CellScore> Cells)
{
    public int Unchanged => Cells.Sum(c => c.Unchanged);
    public int FalseVerdicts => Cells.Sum(c => c.FalseVerdicts);
    public double FalseRate => Unchanged == 0 ? 0 : FalseVerdicts / (double)Unchanged;
    public double WorstCellFalseRate => Cells.Count == 0 ? 0 : Cells.Max(c => c.FalseRate);
    public int WrongDirection => Cells.Sum(c => c.Shifted.Values.Sum(s => s.WrongDirection));

    /// <summary>Share of ±10% shifts found in the right direction in the quiet cells (within ≤ 2%, run-to-run ≤ 1%).</summary>
    public double Found10Quiet
    {
        get
        {
            var quiet = Cells.Where(c => c.Cell.Within <= 0.02 + 1e-9 && c.Cell.RunToRun <= 0.01 + 1e-9)
                .Select(c => c.Shifted.GetValueOrDefault(0.1)).OfType<ShiftScore>().ToList();
            var count = quiet.Sum(s => s.Count);
            return count == 0 ? double.NaN : quiet.Sum(s => s.Found) / (double)count;
        }
    }

    /// <summary>In the high-noise (bimodal) cells: the real ±10% and ±20% changes, and how many were said to be no change.</summary>
    public (int Count, int NoChange) HighNoiseLargeChanges
    {
        get
        {
            var large = Cells.Where(c => c.Cell.Bimodal).SelectMany(c => c.Shifted.Where(x => x.Key >= 0.1 - 1e-9).Select(x => x.Value)).ToList();
            return (large.Sum(x => x.Count), large.Sum(x => x.NoChange));
        }
    }

    public bool MeetsGoals =>
        FalseRate <= ComparisonEvaluator.MaxFalseOverall && WorstCellFalseRate <= ComparisonEvaluator.MaxFalsePerCell
        && Found10Quiet >= ComparisonEvaluator.MinFound10 && WrongDirection == 0 && HighNoiseLargeChanges.NoChange == 0;

    public override string ToString()
    {
        var ci = CultureInfo.InvariantCulture;
        var sb = new StringBuilder();
        var s = Settings;
        sb.Append(ci, $"{s.PullRequestsPerCell} pull requests per cell × {s.BenchmarksPerPullRequest} benchmarks, {s.RoundsPerSide} rounds a side of {s.SamplesPerRound} samples, ");
        sb.Append(ci, $"{(s.HistoryRuns > 0 ? $"{s.HistoryRuns} base-branch runs of history" : "no history (as the CLI)")}, {s.BimodalShare:0%} bimodal, {s.OutlierShare:0%} outliers, seed {s.Seed}\n\n");
        sb.Append("| within | run-to-run | unchanged | false verdicts | no change | inconclusive | ±5% found | ±10% found | ±20% found | shifted inconclusive | ±10/20% said no change | wrong direction |\n");
        sb.Append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        foreach (var c in Cells)
        {
            var shiftedCount = c.Shifted.Values.Sum(x => x.Count);
            var large = c.Shifted.Where(x => x.Key >= 0.1 - 1e-9).Select(x => x.Value).ToList();
            sb.Append(ci, $"| {c.Cell.Within * 100:0.#}% | {c.Cell.RunToRun * 100:0.#}%{(c.Cell.Bimodal ? " bimodal" : "")} | {c.Unchanged} | {Pct(c.FalseRate)} | {Pct(Share(c.UnchangedNoChange, c.Unchanged))} | {Pct(Share(c.UnchangedInconclusive, c.Unchanged))} |");
            foreach (var size in new[] { 0.05, 0.1, 0.2 })
                sb.Append(ci, $" {(c.Shifted.TryGetValue(size, out var x) ? Pct(x.FoundRate) : "n/a")} |");
            sb.Append(ci, $" {Pct(Share(c.Shifted.Values.Sum(x => x.Inconclusive), shiftedCount))} | {Pct(Share(large.Sum(x => x.NoChange), large.Sum(x => x.Count)))} | {c.Shifted.Values.Sum(x => x.WrongDirection)} |\n");
        }
        sb.Append(ci, $"\nfalse verdicts overall {Pct(FalseRate)} ({FalseVerdicts} of {Unchanged}; goal ≤ 0.5%), worst cell {Pct(WorstCellFalseRate)} (goal ≤ 1%)\n");
        sb.Append(ci, $"±10% found at within ≤ 2% and run-to-run ≤ 1%: {Pct(Found10Quiet)} (goal ≥ 95%); wrong direction: {WrongDirection} (goal 0)\n");
        var (largeCount, largeNoChange) = HighNoiseLargeChanges;
        sb.Append(ci, $"high noise (run-to-run {string.Join(" and ", s.HighNoiseRunToRun.Select(r => $"{r * 100:0.#}%"))}, bimodal runs): \"no change\" said of a real ±10% or ±20% change: {Pct(Share(largeNoChange, largeCount))} ({largeNoChange} of {largeCount}; goal 0%)\n");
        sb.Append(MeetsGoals ? "goals met\n" : "goals NOT met\n");
        return sb.ToString();

        static double Share(int a, int b) => b == 0 ? 0 : a / (double)b;
        static string Pct(double x) => double.IsNaN(x) ? "n/a" : (x * 100).ToString("0.0", CultureInfo.InvariantCulture) + "%";
    }
}
