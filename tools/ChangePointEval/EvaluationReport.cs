using System.Globalization;
using System.Text;

namespace PerfService.ChangePointEval;

/// <summary>
/// Accuracy of one mode. <see cref="FalseAlarmsPer1000"/> is per 1,000 points of no-change series.
/// <see cref="Recall10"/>: steps ≥ 10% on series with 2%–6% noise; <see cref="Recall30"/>: steps ≥ 30%;
/// <see cref="Within3"/>: the share of steps ≥ 30% alerted at most 3 points after their first point (online).
/// <see cref="Exact"/>: the share of true positives placed at the change's own point, the commit a user is shown; a
/// placing that wins matches within the tolerance by leaving the exact point shows here.
/// </summary>
public sealed record ModeReport(
    int Detections,
    int TruePositives,
    double Precision,
    double Recall,
    double F1,
    double FalseAlarmsPer1000,
    double Recall10,
    int Truths10,
    double Recall30,
    double Within3,
    int Truths30,
    double? MedianDelay,
    int Withdrawn,
    double Exact,
    IReadOnlyDictionary<(string Kind, string Band), Cell> Cells,
    IReadOnlyDictionary<string, double> RecallBySize);

public sealed record EvaluationReport(int Series, int Points, int TrueChanges, ModeReport Retrospective, ModeReport? Online)
{
    public override string ToString() => Render([("detector", this)]);

    /// <summary>
    /// Side-by-side tables (markdown) of several detectors on the same corpus: the headline figures, recall by step
    /// size, and false alarms and recall per series kind × noise band, so that a loss in one kind shows.
    /// </summary>
    public static string Render(IReadOnlyList<(string Name, EvaluationReport Report)> rows)
    {
        var ci = CultureInfo.InvariantCulture;
        var sb = new StringBuilder();
        var first = rows[0].Report;
        sb.Append(ci, $"corpus: {first.Series} series, {first.Points} points, {first.TrueChanges} true changes; match ±{CorpusEvaluator.Tolerance} points, same direction\n\n");
        sb.Append("| detector | mode | F1 | precision | recall | false alarms /1000 | recall ≥10% at 2–6% noise | recall ≥30% | ≥30% within 3 | median delay | withdrawn | found at its own point |\n");
        sb.Append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        foreach (var (name, report) in rows)
            foreach (var (mode, r) in Modes(report))
            {
                var delay = r.MedianDelay is { } d ? d.ToString("0.#", ci) : "–";
                var within = mode == "online" ? r.Within3.ToString("0.00", ci) : "–";
                sb.Append(ci, $"| {name} | {mode} | {r.F1:0.000} | {r.Precision:0.000} | {r.Recall:0.000} | {r.FalseAlarmsPer1000:0.00} | {r.Recall10:0.00} of {r.Truths10} | {r.Recall30:0.00} of {r.Truths30} | {within} | {delay} | {r.Withdrawn} | {r.Exact:0.00} |\n");
            }

        sb.Append("\nrecall by step size\n\n| detector | mode |");
        var sizes = first.Retrospective.RecallBySize.Keys.ToList();
        foreach (var s in sizes) sb.Append(ci, $" {s} |");
        sb.Append("\n|---|---|").Append(string.Concat(Enumerable.Repeat("---|", sizes.Count))).Append('\n');
        foreach (var (name, report) in rows)
            foreach (var (mode, r) in Modes(report))
            {
                sb.Append(ci, $"| {name} | {mode} |");
                foreach (var s in sizes) sb.Append(ci, $" {r.RecallBySize.GetValueOrDefault(s):0.00} |");
                sb.Append('\n');
            }

        var names = string.Join(" → ", rows.Select(r => r.Name));
        sb.Append(ci, $"\nper series kind × noise band ({names}): false alarms per 1,000 points of no-change series, recall of the others\n\n");
        sb.Append("| kind | noise | no-change points | false alarms offline | false alarms online | changes | recall offline | recall online |\n");
        sb.Append("|---|---|---|---|---|---|---|---|\n");
        foreach (var key in first.Retrospective.Cells.Keys)
        {
            var c = first.Retrospective.Cells[key];
            sb.Append(ci, $"| {key.Kind} | {key.Band} | {c.QuietPoints} | {Join(rows, key, false, Alarms)} | {Join(rows, key, true, Alarms)} | {c.Truths} | {Join(rows, key, false, Recall)} | {Join(rows, key, true, Recall)} |\n");
        }
        return sb.ToString();
    }

    private static string Alarms(Cell c) => c.QuietPoints == 0 ? "–" : (1000.0 * c.Alarms / c.QuietPoints).ToString("0.00", CultureInfo.InvariantCulture);

    private static string Recall(Cell c) => c.Truths == 0 ? "–" : ((double)c.Recalled / c.Truths).ToString("0.00", CultureInfo.InvariantCulture);

    private static string Join(IReadOnlyList<(string Name, EvaluationReport Report)> rows, (string, string) key, bool online, Func<Cell, string> format) =>
        string.Join(" → ", rows.Select(r => (online ? r.Report.Online : r.Report.Retrospective) is { } m ? format(m.Cells.GetValueOrDefault(key)) : "–"));

    private static IEnumerable<(string Mode, ModeReport Report)> Modes(EvaluationReport report)
    {
        yield return ("offline", report.Retrospective);
        if (report.Online is { } online) yield return ("online", online);
    }
}
