using System.Text;
using PerfService.Core.Comparison;
using PerfService.Core.Targets;

namespace PerfService.Core.Reports;

/// <summary>The comment's tables. Every cell that holds user text goes through <see
/// cref="MarkdownText.Escape"/>.</summary>
internal static class CommentTables
{
    public static void Changes(StringBuilder sb, IReadOnlyList<ReportRow> rows)
    {
        if (rows.Count == 0)
            return;
        sb.Append("| | Benchmark | Measure | Profile | Base | Head | Change | Change CI | Margin | p |\n")
            .Append("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        foreach (var row in rows)
        {
            var icon = row.Outcome == Outcome.Regression ? "🔴" : "🟢";
            sb.Append("| ")
                .Append(icon)
                .Append(" | ")
                .Append(Linked(row))
                .Append(" | ")
                .Append(MarkdownText.Escape(row.Measure, 40))
                .Append(" | ")
                .Append(MarkdownText.Escape(row.Profile, 60))
                .Append(" | ")
                .Append(ValueFormat.Value(row.BaseValue, row.Unit))
                .Append(" | ")
                .Append(ValueFormat.Value(row.HeadValue, row.Unit))
                .Append(" | ")
                .Append(ValueFormat.Change(row.Change))
                .Append(" | ")
                .Append(ValueFormat.Interval(row.ChangeCiLower, row.ChangeCiUpper))
                .Append(" | ")
                .Append(ValueFormat.Margin(row.NoChangeMargin, row.Threshold))
                .Append(" | ")
                .Append(ValueFormat.PValue(row.PValue))
                .Append(" |\n");
        }
        sb.Append('\n');
    }

    public static void FailedTargets(StringBuilder sb, IReadOnlyList<ReportTarget> targets)
    {
        if (targets.Count == 0)
            return;
        sb.Append("**Failed targets**\n\n| | Target | Profile | Figures |\n| --- | --- | --- | --- |\n");
        foreach (var target in targets)
            sb.Append("| ❌ | ")
                .Append(Target(target))
                .Append(" | ")
                .Append(MarkdownText.Escape(target.Profile, 60))
                .Append(" | ")
                .Append(Detail(target.Detail))
                .Append(" |\n");
        sb.Append('\n');
    }

    public static void Others(StringBuilder sb, IReadOnlyList<ReportRow> rows, IReadOnlyList<ReportTarget> targets)
    {
        if (rows.Count + targets.Count == 0)
            return;
        var what = rows.Count + targets.Count == 1 ? "1 other result" : $"{rows.Count + targets.Count} other results";
        sb.Append("<details>\n<summary>").Append(what).Append("</summary>\n\n");
        if (rows.Count > 0)
        {
            sb.Append("| Benchmark | Measure | Profile | Base | Head | Change | Margin | Outcome |\n")
                .Append("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n");
            foreach (var row in rows)
                sb.Append("| ")
                    .Append(Benchmark(row))
                    .Append(" | ")
                    .Append(MarkdownText.Escape(row.Measure, 40))
                    .Append(" | ")
                    .Append(MarkdownText.Escape(row.Profile, 60))
                    .Append(" | ")
                    .Append(ValueFormat.Value(row.BaseValue, row.Unit))
                    .Append(" | ")
                    .Append(ValueFormat.Value(row.HeadValue, row.Unit))
                    .Append(" | ")
                    .Append(ValueFormat.Change(row.Change))
                    .Append(" | ")
                    .Append(ValueFormat.Margin(row.NoChangeMargin, row.Threshold))
                    .Append(" | ")
                    .Append(OutcomeText(row))
                    .Append(" |\n");
            sb.Append('\n');
        }
        if (targets.Count > 0)
        {
            sb.Append("| Target | Profile | State | Figures |\n| --- | --- | --- | --- |\n");
            foreach (var target in targets)
                sb.Append("| ")
                    .Append(Target(target))
                    .Append(" | ")
                    .Append(MarkdownText.Escape(target.Profile, 60))
                    .Append(" | ")
                    .Append(
                        target.State switch
                        {
                            TargetStatus.Pass => "met",
                            TargetStatus.AtRisk => "at risk",
                            _ => "not measured",
                        }
                    )
                    .Append(" | ")
                    .Append(Detail(target.Detail))
                    .Append(" |\n");
            sb.Append('\n');
        }
        sb.Append("</details>\n\n");
    }

    /// <summary>Marks rows compared with the base branch's history; <see cref="HistoryFootnote"/> explains the
    /// mark.</summary>
    public const string HistoryMark = "†";

    public static void HistoryFootnote(StringBuilder sb, IEnumerable<ReportRow> rows)
    {
        if (!rows.Any(r => r.BaselineFromHistory))
            return;
        sb.Append(HistoryMark)
            .Append(
                " No base was measured alongside head: compared with the base branch's recent runs on the same profile, "
            )
            .Append("so drift between runs is not cancelled out.\n\n");
    }

    /// <summary>Explains the two figures of a margin, once, when a row shown has two.</summary>
    public static void MarginFootnote(StringBuilder sb, IEnumerable<ReportRow> rows)
    {
        if (!rows.Any(r => ValueFormat.HasTwoMargins(r.NoChangeMargin, r.Threshold)))
            return;
        sb.Append(ValueFormat.MarginLegend).Append("\n\n");
    }

    private static string Benchmark(ReportRow row) =>
        MarkdownText.Escape(row.Benchmark)
        + (row.BaselineFromHistory ? " " + HistoryMark : "")
        + (row.Outcome == Outcome.Regression && row.Acknowledged ? " _(acknowledged)_" : "");

    /// <summary>The benchmark cell, linked to its history in the explorer when the report has the link.</summary>
    private static string Linked(ReportRow row)
    {
        var url = MarkdownText.Url(row.ExplorerUrl);
        // Why it got slower: the differential flame graph, once the regression was profiled.
        var profile = MarkdownText.Url(row.ProfileUrl) is { } p ? " · [flame graph](" + p + ")" : "";
        if (url is null)
            return Benchmark(row) + profile;
        return "["
            + MarkdownText.Escape(row.Benchmark)
            + "]("
            + url
            + ")"
            + (row.BaselineFromHistory ? " " + HistoryMark : "")
            + (row.Outcome == Outcome.Regression && row.Acknowledged ? " _(acknowledged)_" : "")
            + profile;
    }

    private static string Target(ReportTarget target) =>
        MarkdownText.Escape(target.Name, 120)
        + (target.State == TargetStatus.Fail && target.Acknowledged ? " _(acknowledged)_" : "");

    private static string Detail(string? detail) =>
        string.IsNullOrEmpty(detail) ? "—" : MarkdownText.Escape(detail, 200);

    private static string OutcomeText(ReportRow row)
    {
        var outcome = row.Outcome == Outcome.NoChange ? "unchanged" : "inconclusive";
        return string.IsNullOrEmpty(row.Reason) ? outcome : $"{outcome}: {MarkdownText.Escape(row.Reason, 120)}";
    }
}
