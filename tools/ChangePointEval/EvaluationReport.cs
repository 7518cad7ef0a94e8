using System.Globalization;
using System.Text;
using PerfService.Core.ChangePoints;

namespace PerfService.ChangePointEval;

/// <summary>Accuracy of one mode. Recall10 is the recall for steps ≥ 10% in series with ≤ 5% noise.</summary>
public sealed record ModeReport(
    int Detections,
    int TruePositives,
    int FalsePositives,
    double Precision,
    double Recall,
    double Recall10,
    int Truths10,
    double FalseAlarmsPer1000,
    double? MedianDelay,
    int Withdrawn,
    IReadOnlyDictionary<string, double> FalseAlarmsPer1000ByKind,
    IReadOnlyDictionary<string, double> RecallBySize);

public sealed record EvaluationReport(int Series, int Points, int TrueChanges, ModeReport Retrospective, ModeReport? Online)
{
    public override string ToString()
    {
        var sb = new StringBuilder();
        var ci = CultureInfo.InvariantCulture;
        sb.Append(ci, $"corpus: {Series} series, {Points} points, {TrueChanges} true changes; match tolerance ±{CorpusEvaluator.Tolerance} points\n");
        Append(sb, "retrospective", Retrospective);
        if (Online is not null) Append(sb, "online", Online);
        return sb.ToString();
    }

    private static void Append(StringBuilder sb, string name, ModeReport r)
    {
        var ci = CultureInfo.InvariantCulture;
        sb.Append(ci, $"{name}:\n");
        sb.Append(ci, $"  detections {r.Detections} (TP {r.TruePositives}, FP {r.FalsePositives}{(r.Withdrawn > 0 ? $", withdrawn {r.Withdrawn}" : "")})\n");
        sb.Append(ci, $"  precision {r.Precision:0.000}  recall {r.Recall:0.000}  recall(step>=10%, noise<=5%) {r.Recall10:0.000} of {r.Truths10}\n");
        sb.Append(ci, $"  false alarms per 1000 unchanged points {r.FalseAlarmsPer1000:0.000}");
        if (r.MedianDelay is { } d) sb.Append(ci, $"  median delay {d:0.#} points");
        sb.Append('\n');
        sb.Append("  recall by step size:");
        foreach (var (k, v) in r.RecallBySize) sb.Append(ci, $" {k} {v:0.00};");
        sb.Append('\n');
        sb.Append("  false alarms per 1000 by kind:");
        foreach (var (k, v) in r.FalseAlarmsPer1000ByKind) sb.Append(ci, $" {k} {v:0.00};");
        sb.Append('\n');
    }
}
