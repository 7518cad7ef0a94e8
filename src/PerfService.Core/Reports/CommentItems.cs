using PerfService.Core.Comparison;
using PerfService.Core.Targets;

namespace PerfService.Core.Reports;

/// <summary>One table row of the comment: a benchmark comparison or a target.</summary>
internal sealed record CommentItem(ReportRow? Row, ReportTarget? Target);

/// <summary>
/// Orders a report's rows by how much a reader needs them, which is also the order they are dropped in when the
/// comment would exceed GitHub's limit: regressions (largest first), failed targets, improvements, then the rest.
/// </summary>
internal static class CommentItems
{
    public static List<CommentItem> Prioritise(PullRequestReport report)
    {
        var rows = report.Rows;
        var regressions = rows.Where(r => r.Outcome == Outcome.Regression)
            .OrderBy(r => r.Acknowledged)
            .ThenByDescending(Size)
            .ThenBy(Key, StringComparer.Ordinal);
        var failed = report
            .Targets.Where(t => t.State == TargetStatus.Fail)
            .OrderBy(t => t.Acknowledged)
            .ThenBy(t => t.Name, StringComparer.Ordinal)
            .ThenBy(t => t.Profile, StringComparer.Ordinal);
        var improvements = rows.Where(r => r.Outcome == Outcome.Improvement)
            .OrderByDescending(Size)
            .ThenBy(Key, StringComparer.Ordinal);
        var others = rows.Where(r => r.Outcome is Outcome.Inconclusive or Outcome.NoChange)
            .OrderBy(r => r.Outcome == Outcome.NoChange)
            .ThenBy(Key, StringComparer.Ordinal);
        var otherTargets = report
            .Targets.Where(t => t.State != TargetStatus.Fail)
            .OrderBy(t => t.Name, StringComparer.Ordinal)
            .ThenBy(t => t.Profile, StringComparer.Ordinal);

        return
        [
            .. regressions.Select(Of),
            .. failed.Select(Of),
            .. improvements.Select(Of),
            .. others.Select(Of),
            .. otherTargets.Select(Of),
        ];
    }

    public static bool IsChange(this CommentItem item) =>
        item.Row?.Outcome is Outcome.Regression or Outcome.Improvement;

    public static bool IsFailedTarget(this CommentItem item) => item.Target?.State == TargetStatus.Fail;

    private static CommentItem Of(ReportRow row) => new(row, null);

    private static CommentItem Of(ReportTarget target) => new(null, target);

    private static double Size(ReportRow row) => row.Change is { } c && double.IsFinite(c) ? Math.Abs(c) : 0;

    private static string Key(ReportRow row) => $"{row.Benchmark}\u0000{row.Measure}\u0000{row.Profile}";
}
