using System.Globalization;
using System.Text;

namespace PerfService.ChangePointEval;

/// <summary>The detector's accuracy goals, each checked against a report and said met or missed by how much.</summary>
public static class Goals
{
    public const double MaxFalseAlarms = 0.5;

    public static string Render(EvaluationReport old, EvaluationReport now)
    {
        var sb = new StringBuilder("\ngoals (new detector)\n\n| goal | measured | |\n|---|---|---|\n");
        var off = now.Retrospective;
        var on = now.Online!;
        Line(sb, "offline false alarms ≤ 0.5 /1000", off.FalseAlarmsPer1000, MaxFalseAlarms, atMost: true);
        Line(sb, "offline F1 ≥ 0.82", off.F1, 0.82);
        Line(sb, "offline recall of ≥10% steps at 2–6% noise ≥ 0.85", off.Recall10, 0.85);
        Line(sb, "offline recall of ≥30% steps ≥ 0.95", off.Recall30, 0.95);
        Line(sb, "online false alarms ≤ 0.5 /1000", on.FalseAlarmsPer1000, MaxFalseAlarms, atMost: true);
        Line(sb, "online F1 ≥ 0.78", on.F1, 0.78);
        Line(sb, "online median delay ≤ 3", on.MedianDelay ?? double.PositiveInfinity, 3, atMost: true);
        Line(sb, "online ≥30% steps alerted within 3 commits (share ≥ 0.9)", on.Within3, 0.9);
        foreach (var (mode, before, after) in new[] { ("offline", old.Retrospective, off), ("online", old.Online!, on) })
        {
            var losses = after.Cells.Where(c => c.Value.Truths > 0 && Recall(c.Value) < Recall(before.Cells.GetValueOrDefault(c.Key)))
                .Select(c => $"{c.Key.Kind} {c.Key.Band} {Recall(before.Cells[c.Key]):0.00}→{Recall(c.Value):0.00}").ToList();
            sb.Append(CultureInfo.InvariantCulture, $"| {mode}: no kind × noise band loses recall | {(losses.Count == 0 ? "none lost" : string.Join("; ", losses))} | {(losses.Count == 0 ? "met" : "MISSED")} |\n");
        }
        return sb.ToString();
    }

    private static double Recall(Cell c) => c.Truths == 0 ? 1 : (double)c.Recalled / c.Truths;

    private static void Line(StringBuilder sb, string goal, double value, double bound, bool atMost = false)
    {
        var met = atMost ? value <= bound : value >= bound;
        var verdict = met ? "met" : $"MISSED by {Math.Abs(value - bound):0.000}";
        sb.Append(CultureInfo.InvariantCulture, $"| {goal} | {value:0.000} | {verdict} |\n");
    }
}
