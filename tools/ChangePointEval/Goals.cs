using System.Globalization;
using System.Text;

namespace PerfService.ChangePointEval;

/// <summary>
/// The detector's accuracy goals, each checked against a report and said met or missed by how much; with an
/// <see cref="OracleShares"/>, rows marked "bound" below the F1 and within-3 goals say how much of the
/// corpus's evidence reaches the bars (<see cref="OracleBound"/>).
/// </summary>
public static class Goals
{
    public const double MaxFalseAlarms = 0.5;
    public const double OfflineF1 = 0.82;
    public const double OnlineF1 = 0.78;

    public static string Render(EvaluationReport old, EvaluationReport now, OracleShares? oracle = null)
    {
        var ci = CultureInfo.InvariantCulture;
        var sb = new StringBuilder("\ngoals (new detector)\n\n| goal | measured | |\n|---|---|---|\n");
        var off = now.Retrospective;
        var on = now.Online!;
        Line(sb, "offline false alarms ≤ 0.5 /1000", off.FalseAlarmsPer1000, MaxFalseAlarms, atMost: true);
        Line(sb, string.Create(ci, $"offline F1 ≥ {OfflineF1:0.00}"), off.F1, OfflineF1);
        if (oracle is { } b)
        {
            sb.Append(ci, $"| … bound: share of the {b.Changes} true changes with an oracle z ≥ 4 / ≥ 5 (segments between true changes, ≤ {OracleBound.Cap} points a side), against the detector's offline recall {off.Recall:0.000} | {b.Z4:0.000} / {b.Z5:0.000} | bound |\n");
            sb.Append(ci, $"| … bound: the same changes, when the oracle must also place them within ±{CorpusEvaluator.Tolerance} points (the least-squares split of the true segment); at the detector's offline precision {off.Precision:0.000}, F1 ≥ {OfflineF1:0.00} needs recall {RecallFor(OfflineF1, off.Precision):0.000} | {b.Z4Placed:0.000} / {b.Z5Placed:0.000} | bound |\n");
        }
        Line(sb, "offline recall of ≥10% steps at 2–6% noise ≥ 0.85", off.Recall10, 0.85);
        Line(sb, "offline recall of ≥30% steps ≥ 0.95", off.Recall30, 0.95);
        Line(sb, "online false alarms ≤ 0.5 /1000", on.FalseAlarmsPer1000, MaxFalseAlarms, atMost: true);
        Line(sb, string.Create(ci, $"online F1 ≥ {OnlineF1:0.00}"), on.F1, OnlineF1);
        if (oracle is { } p)
            sb.Append(ci, $"| … bound: as offline (z ≥ 4 / ≥ 5 and placed within ±{CorpusEvaluator.Tolerance}), against the detector's online recall {on.Recall:0.000}; at its online precision {on.Precision:0.000}, F1 ≥ {OnlineF1:0.00} needs recall {RecallFor(OnlineF1, on.Precision):0.000} | {p.Z4Placed:0.000} / {p.Z5Placed:0.000} | bound |\n");
        Line(sb, "online median delay ≤ 3", on.MedianDelay ?? double.PositiveInfinity, 3, atMost: true);
        Line(sb, "online ≥30% steps alerted within 3 commits (share ≥ 0.9)", on.Within3, 0.9);
        if (oracle is { } o)
        {
            var points = $"{o.FastPoints} / {o.FastPoints + 1} points after the change";
            sb.Append(ci, $"| … bound: share of the {o.LargeSteps} steps ≥ 30% whose oracle z on {points} reaches {o.BudgetBar:0.00}, the bar of one test a point at {MaxFalseAlarms} false alarms /1000 with known Gaussian noise | {o.BudgetEarly:0.000} / {o.BudgetLater:0.000} | bound |\n");
            sb.Append(ci, $"| … bound: the same at the fast path's bar, z ≥ {o.FastBar:0.##} (the bar this detector alerts at after 3–4 points, kept that high for its false alarms on noise with outliers, modes and AR) | {o.FastEarly:0.000} / {o.FastLater:0.000} | bound |\n");
        }
        foreach (var (mode, before, after) in new[] { ("offline", old.Retrospective, off), ("online", old.Online!, on) })
        {
            var losses = after.Cells.Where(c => c.Value.Truths > 0 && Recall(c.Value) < Recall(before.Cells.GetValueOrDefault(c.Key)))
                .Select(c => $"{c.Key.Kind} {c.Key.Band} {Recall(before.Cells[c.Key]):0.00}→{Recall(c.Value):0.00}").ToList();
            sb.Append(CultureInfo.InvariantCulture, $"| {mode}: no kind × noise band loses recall | {(losses.Count == 0 ? "none lost" : string.Join("; ", losses))} | {(losses.Count == 0 ? "met" : "MISSED")} |\n");
        }
        return sb.ToString();
    }

    /// <summary>The recall at which precision <paramref name="precision"/> gives F1 <paramref name="f1"/>:
    /// F1 = 2PR/(P + R), so R = F1·P/(2P − F1); 1 when F1 is out of reach at any recall.</summary>
    public static double RecallFor(double f1, double precision) =>
        2 * precision > f1 ? Math.Min(1, f1 * precision / (2 * precision - f1)) : 1;

    private static double Recall(Cell c) => c.Truths == 0 ? 1 : (double)c.Recalled / c.Truths;

    private static void Line(StringBuilder sb, string goal, double value, double bound, bool atMost = false)
    {
        var met = atMost ? value <= bound : value >= bound;
        var verdict = met ? "met" : $"MISSED by {Math.Abs(value - bound):0.000}";
        sb.Append(CultureInfo.InvariantCulture, $"| {goal} | {value:0.000} | {verdict} |\n");
    }
}
