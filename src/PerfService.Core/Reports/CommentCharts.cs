using System.Globalization;
using System.Text;
using PerfService.Core.Comparison;

namespace PerfService.Core.Reports;

/// <summary>
/// The largest regressions' recent history on the default branch and where head lands, as Mermaid <c>xychart-beta</c>
/// charts (GitHub renders Mermaid code blocks) in one collapsed section. Charts are the first thing the renderer drops
/// when the comment would be too long.
/// </summary>
internal static class CommentCharts
{
    public const int MaxCharts = 5;

    public static void Write(StringBuilder sb, PullRequestReport report)
    {
        var rows = Largest(report.Rows);
        if (rows.Count == 0)
            return;
        var branch = report.HistoryBranch ?? "the default branch";
        var what = rows.Count == 1 ? "the largest regression" : $"the {rows.Count} largest regressions";
        sb.Append("<details>\n<summary>History of ")
            .Append(what)
            .Append(" on ")
            .Append(MarkdownText.Escape(branch, 60))
            .Append(", and where head lands</summary>\n\n");
        foreach (var row in rows)
            Chart(sb, row);
        sb.Append("</details>\n\n");
    }

    /// <summary>Unacknowledged regressions with history first, then acknowledged ones, each by the size of the
    /// change.</summary>
    internal static List<ReportRow> Largest(IReadOnlyList<ReportRow> rows) =>
        rows.Where(r => r.Outcome == Outcome.Regression && r.History.Count > 0 && r.HeadValue is not null)
            .OrderBy(r => r.Acknowledged)
            .ThenByDescending(r => Math.Abs(r.Change ?? 0))
            .ThenBy(r => r.Benchmark, StringComparer.Ordinal)
            .ThenBy(r => r.Profile, StringComparer.Ordinal)
            .Take(MaxCharts)
            .ToList();

    private static void Chart(StringBuilder sb, ReportRow row)
    {
        sb.Append("**")
            .Append(MarkdownText.Escape(row.Benchmark, 120))
            .Append("** · ")
            .Append(MarkdownText.Escape(row.Measure, 40))
            .Append(" · ")
            .Append(MarkdownText.Escape(row.Profile, 60))
            .Append(": head ")
            .Append(ValueFormat.Change(row.Change))
            .Append(row.BaseValue is null ? "" : " (the flat line is base)")
            .Append("\n\n");
        var labels = row.History.Select(p => Label(p.Commit)).Append("head").ToList();
        var values = row.History.Select(p => p.Value).Append(row.HeadValue!.Value).ToList();
        sb.Append("```mermaid\nxychart-beta\n")
            .Append("    title \"")
            .Append(Safe(row.Benchmark, 60))
            .Append("\"\n")
            .Append("    x-axis [")
            .AppendJoin(", ", labels.Select(l => $"\"{l}\""))
            .Append("]\n")
            .Append("    y-axis \"")
            .Append(Safe($"{row.Measure} ({row.Unit})", 40))
            .Append("\"\n")
            .Append("    line [")
            .AppendJoin(", ", values.Select(Number))
            .Append("]\n");
        // The base level as a flat second line: head's point is read against it.
        if (row.BaseValue is { } baseValue)
            sb.Append("    line [").AppendJoin(", ", values.Select(_ => Number(baseValue))).Append("]\n");
        sb.Append("```\n\n");
    }

    private static string Label(string commit) => Safe(commit.Length > 7 ? commit[..7] : commit, 12);

    private static string Number(double value) => value.ToString("G6", CultureInfo.InvariantCulture);

    /// <summary>Names come from anyone who can open a pull request: inside the chart's quoted strings keep only
    /// characters that cannot end the string, the line or the code fence.</summary>
    internal static string Safe(string text, int maxLength)
    {
        var sb = new StringBuilder(Math.Min(text.Length, maxLength));
        foreach (var c in text)
        {
            if (sb.Length == maxLength)
            {
                sb.Append('…');
                break;
            }
            sb.Append(
                char.IsAsciiLetterOrDigit(c)
                || c is ' ' or '.' or '_' or '-' or '/' or ':' or '=' or ',' or '(' or ')' or '+' or '%'
                    ? c
                    : '_'
            );
        }
        return sb.ToString();
    }
}
