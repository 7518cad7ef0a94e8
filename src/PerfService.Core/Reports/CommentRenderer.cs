using System.Text;
using static PerfService.Core.Contracts.CommitId;

namespace PerfService.Core.Reports;

/// <summary>
/// Renders the pull-request comment as GitHub markdown. Pure and deterministic (invariant culture, no clock), so
/// an unchanged report renders to the same bytes and is not posted again. Always fits in <c>maxLength</c>.
/// </summary>
public static class CommentRenderer
{
    /// <summary>GitHub rejects comment bodies longer than this.</summary>
    public const int GitHubMaxLength = 65_536;

    private const int MinLength = 1_000;

    /// <summary>Identifies this project's comment among everybody's. It must stay the body's last line: the publisher
    /// finds its comment by it after a crash, and a marker quoted in the middle of someone else's comment does not
    /// count.</summary>
    public static string Marker(string project) => $"<!-- perfservice:project={SafeSlug(project)} -->";

    public static bool HasMarker(string? body, string project) =>
        body is not null && body.TrimEnd().EndsWith(Marker(project), StringComparison.Ordinal);

    public static string Render(PullRequestReport report, int maxLength = GitHubMaxLength)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxLength, MinLength);
        var items = CommentItems.Prioritise(report);
        var text = Write(report, items, items.Count, charts: true);
        if (text.Length <= maxLength)
            return text;
        // Too long: the history charts go first, before any row.
        text = Write(report, items, items.Count, charts: false);
        if (text.Length <= maxLength)
            return text;

        // Keep the longest prefix of the priority order that fits. Each kept row adds more characters than the
        // "... and N more rows" note loses, so the length grows with the count and a binary search finds it.
        string? best = null;
        int low = 0,
            high = items.Count - 1;
        while (low <= high)
        {
            var keep = low + (high - low) / 2;
            var candidate = Write(report, items, keep);
            if (candidate.Length <= maxLength)
            {
                best = candidate;
                low = keep + 1;
            }
            else
            {
                high = keep - 1;
            }
        }
        return best ?? Minimal(report, maxLength);
    }

    private static string Write(PullRequestReport report, List<CommentItem> items, int keep, bool charts = false)
    {
        var url = MarkdownText.Url(report.DashboardUrl);
        var sb = new StringBuilder();
        WriteHeader(sb, report, report.Summary, url);

        var kept = items.Take(keep).ToList();
        CommentTables.Changes(sb, kept.Where(i => i.IsChange()).Select(i => i.Row!).ToList());
        if (charts)
            CommentCharts.Write(sb, report);
        CommentTables.FailedTargets(sb, kept.Where(i => i.IsFailedTarget()).Select(i => i.Target!).ToList());
        CommentTables.Others(
            sb,
            kept.Where(i => i.Row is not null && !i.IsChange()).Select(i => i.Row!).ToList(),
            kept.Where(i => i.Target is not null && !i.IsFailedTarget()).Select(i => i.Target!).ToList()
        );
        CommentTables.HistoryFootnote(sb, kept.Where(i => i.Row is not null).Select(i => i.Row!));
        CommentTables.MarginFootnote(sb, kept.Where(i => i.Row is not null).Select(i => i.Row!));
        CommentSubmitted.Section(sb, report);

        var omitted = items.Count - keep;
        if (omitted > 0)
        {
            var rows = omitted == 1 ? "1 more row" : $"{omitted} more rows";
            sb.Append("_… and ")
                .Append(rows)
                .Append(": see ")
                .Append(url is null ? "the PerfService dashboard" : $"the [dashboard]({url})")
                .Append("._\n\n");
        }
        sb.Append(Marker(report.Project));
        return sb.ToString();
    }

    private static void WriteHeader(StringBuilder sb, PullRequestReport report, ReportSummary summary, string? url)
    {
        var counts = summary.Total;
        var icon =
            report.PendingProfiles.Count > 0 ? "⏳"
            : counts.Blocking > 0 ? "🔴"
            : "🟢";
        sb.Append("### ")
            .Append(icon)
            .Append(" PerfService · ")
            .Append(MarkdownText.Code(report.Project))
            .Append("\n\n");
        sb.Append(counts.IsEmpty ? "No benchmark results for this pull request yet." : $"**{counts.Describe()}**")
            .Append("\n\n");
        CommentSubmitted.Heading(sb, report);

        if (summary.Profiles.Count > 1)
        {
            foreach (var profile in summary.Profiles)
                sb.Append("- ")
                    .Append(MarkdownText.Code(profile.Profile))
                    .Append(": ")
                    .Append(profile.Counts.Describe())
                    .Append('\n');
            sb.Append('\n');
        }

        if (report.PendingProfiles.Count > 0)
            sb.Append("Still benchmarking on ")
                .AppendJoin(", ", report.PendingProfiles.Select(MarkdownText.Code))
                .Append(": this comment is updated when they finish.\n\n");

        // Profile names come from the service's configuration, the text from DisturbedChoice: no user data.
        foreach (var d in report.Disturbances)
            sb.Append("_").Append(MarkdownText.Code(d.Profile)).Append(": ").Append(d.Said).Append("._\n\n");

        sb.Append("Head ").Append(MarkdownText.Code(Short(report.HeadCommit)));
        if (report.BaseCommit is { } baseCommit)
            sb.Append(" compared with base ").Append(MarkdownText.Code(Short(baseCommit)));
        if (url is not null)
            sb.Append(" · [Open in the PerfService dashboard](").Append(url).Append(')');
        // The regressions' alert group, where they are triaged together (one per head, as alerts group by range).
        foreach (
            var group in report
                .Rows.Where(r => r.AlertGroupId is not null && MarkdownText.Url(r.AlertGroupUrl) is not null)
                .DistinctBy(r => r.AlertGroupId)
                .Take(3)
        )
            sb.Append(" · [Alert group #")
                .Append(group.AlertGroupId)
                .Append("](")
                .Append(MarkdownText.Url(group.AlertGroupUrl))
                .Append(')');
        sb.Append("\n\n");
    }

    /// <summary>The fallback when even the summary does not fit: only numbers and the link.</summary>
    private static string Minimal(PullRequestReport report, int maxLength)
    {
        var url = MarkdownText.Url(report.DashboardUrl);
        var link = url is null ? "the PerfService dashboard" : $"the [dashboard]({url})";
        var text =
            $"### PerfService · {MarkdownText.Code(report.Project)}\n\n**{ReportCounts.Of(report).Describe()}**\n\n"
            + $"The report is too large for a comment: see {link}.\n\n{Marker(report.Project)}";
        return text.Length <= maxLength
            ? text
            : $"The PerfService report is too large for a comment.\n\n{Marker(report.Project)}";
    }

    private static string SafeSlug(string project) =>
        new(project.Select(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-' ? c : '_').ToArray());
}
