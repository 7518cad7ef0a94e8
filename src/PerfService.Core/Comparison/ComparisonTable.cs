using System.Globalization;
using System.Text;

namespace PerfService.Core.Comparison;

/// <summary>
/// Plain-text table for <c>perf compare BASE HEAD</c>: one row per verdict, regressions first (then improvements,
/// inconclusive, unchanged), largest change first within each group, columns aligned, and a one-line summary.
/// </summary>
public static class ComparisonTable
{
    private static readonly string[] s_header =
    [
        "Benchmark",
        "Measure",
        "Base",
        "Head",
        "Change",
        "CI",
        "p (adj)",
        "Margin",
        "Verdict",
    ];

    public static string Render(IReadOnlyList<Verdict> verdicts, bool includeReason = false)
    {
        var ordered = new List<Verdict>(verdicts);
        ordered.Sort(Compare);
        var withProfile = ordered.Exists(v => v.Profile is not null);
        var header = new List<string>(s_header);
        if (withProfile)
            header.Insert(2, "Profile");
        if (includeReason)
            header.Add("Reason");
        var rows = new List<string[]>(ordered.Count + 1) { header.ToArray() };
        foreach (var v in ordered)
        {
            var cells = new List<string>(header.Count)
            {
                v.Key,
                v.Measure,
                Value(v.BaseMedian, v.Unit),
                Value(v.HeadMedian, v.Unit),
                double.IsNaN(v.Ratio) ? "n/a" : SampleComparer.Pct(v.Change),
                double.IsNaN(v.RatioLower)
                    ? "n/a"
                    : $"[{SampleComparer.Pct(v.ChangeLower)}, {SampleComparer.Pct(v.ChangeUpper)}]",
                double.IsNaN(v.AdjustedP) ? "n/a"
                : v.AdjustedP < 0.0001 ? "<0.0001"
                : v.AdjustedP.ToString("0.0000", CultureInfo.InvariantCulture),
                Margin(v),
                Label(v),
            };
            if (withProfile)
                cells.Insert(2, v.Profile ?? "");
            if (includeReason)
                cells.Add(v.Reason);
            rows.Add(cells.ToArray());
        }

        var widths = new int[header.Count];
        foreach (var row in rows)
            for (var c = 0; c < row.Length; c++)
                widths[c] = Math.Max(widths[c], row[c].Length);
        // Numbers right-aligned: everything between the measure/profile columns and the verdict.
        var firstNumeric = withProfile ? 3 : 2;
        var lastNumeric = firstNumeric + 5;
        var sb = new StringBuilder();
        for (var r = 0; r < rows.Count; r++)
        {
            var row = rows[r];
            for (var c = 0; c < row.Length; c++)
            {
                if (c > 0)
                    sb.Append("  ");
                var right = r > 0 && c >= firstNumeric && c <= lastNumeric;
                var last = c == row.Length - 1;
                sb.Append(
                    right ? row[c].PadLeft(widths[c])
                    : last ? row[c]
                    : row[c].PadRight(widths[c])
                );
            }
            sb.Append('\n');
            if (r == 0)
            {
                for (var c = 0; c < widths.Length; c++)
                {
                    if (c > 0)
                        sb.Append("  ");
                    sb.Append('-', widths[c]);
                }
                sb.Append('\n');
            }
        }
        int reg = 0,
            imp = 0,
            inc = 0,
            same = 0;
        foreach (var v in ordered)
            switch (v.Outcome)
            {
                case Outcome.Regression:
                    reg++;
                    break;
                case Outcome.Improvement:
                    imp++;
                    break;
                case Outcome.Inconclusive:
                    inc++;
                    break;
                default:
                    same++;
                    break;
            }
        sb.Append(
            CultureInfo.InvariantCulture,
            $"{reg} regression(s), {imp} improvement(s), {inc} inconclusive, {same} unchanged\n"
        );
        if (ordered.Exists(TwoMargins))
            sb.Append(Reports.ValueFormat.MarginLegend).Append('\n');
        return sb.ToString();
    }

    /// <summary>The same rows as a Markdown table (for a CI job summary), with the reason.</summary>
    public static string RenderMarkdown(IReadOnlyList<Verdict> verdicts)
    {
        var ordered = new List<Verdict>(verdicts);
        ordered.Sort(Compare);
        var sb = new StringBuilder();
        sb.Append("| Benchmark | Measure | Base | Head | Change | CI | p (adj) | Margin | Verdict | Reason |\n");
        sb.Append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
        foreach (var v in ordered)
        {
            string[] cells =
            [
                v.Key,
                v.Measure,
                Value(v.BaseMedian, v.Unit),
                Value(v.HeadMedian, v.Unit),
                double.IsNaN(v.Ratio) ? "n/a" : SampleComparer.Pct(v.Change),
                double.IsNaN(v.RatioLower)
                    ? "n/a"
                    : $"[{SampleComparer.Pct(v.ChangeLower)}, {SampleComparer.Pct(v.ChangeUpper)}]",
                double.IsNaN(v.AdjustedP) ? "n/a"
                : v.AdjustedP < 0.0001 ? "<0.0001"
                : v.AdjustedP.ToString("0.0000", CultureInfo.InvariantCulture),
                Margin(v),
                Label(v),
                v.Reason,
            ];
            sb.Append('|');
            foreach (var c in cells)
                sb.Append(' ').Append(c.Replace("|", "\\|", StringComparison.Ordinal)).Append(" |");
            sb.Append('\n');
        }
        if (ordered.Exists(TwoMargins))
            sb.Append('\n').Append(Reports.ValueFormat.MarginLegend).Append('\n');
        return sb.ToString();
    }

    private static string Margin(Verdict v) => Reports.ValueFormat.Margin(v.NoChangeMargin, v.Threshold);

    private static bool TwoMargins(Verdict v) => Reports.ValueFormat.HasTwoMargins(v.NoChangeMargin, v.Threshold);

    private static int Compare(Verdict a, Verdict b)
    {
        var c = Rank(a.Outcome).CompareTo(Rank(b.Outcome));
        if (c != 0)
            return c;
        c = Size(b).CompareTo(Size(a));
        return c != 0 ? c : string.CompareOrdinal(a.Key + "\0" + a.Measure, b.Key + "\0" + b.Measure);
    }

    private static int Rank(Outcome o) =>
        o switch
        {
            Outcome.Regression => 0,
            Outcome.Improvement => 1,
            Outcome.Inconclusive => 2,
            _ => 3,
        };

    private static double Size(Verdict v) => double.IsNaN(v.Ratio) || v.Ratio <= 0 ? 0 : Math.Abs(Math.Log(v.Ratio));

    private static string Label(Verdict v) =>
        v.Outcome switch
        {
            Outcome.Regression => "REGRESSION",
            Outcome.Improvement => "improvement",
            Outcome.Inconclusive => v.WantsRerun ? "inconclusive (re-run)" : "inconclusive",
            _ => "no change",
        };

    internal static string Value(double value, string unit)
    {
        if (double.IsNaN(value))
            return "n/a";
        var a = Math.Abs(value);
        var text =
            a >= 1000 ? value.ToString("#,0", CultureInfo.InvariantCulture)
            : a >= 100 ? value.ToString("0.0", CultureInfo.InvariantCulture)
            : a >= 1 ? value.ToString("0.00", CultureInfo.InvariantCulture)
            : value.ToString("0.####", CultureInfo.InvariantCulture);
        return string.IsNullOrEmpty(unit) ? text : text + " " + unit;
    }
}
