using System.Text;
using PerfService.Core.Comparison;
using static PerfService.Core.Contracts.CommitId;

namespace PerfService.Core.Reports;

/// <summary>
/// What the comment says of results a CI job posted itself (<c>perf submit --pr</c>, an ingest token, no agent job): a
/// line under the heading when they are all there is, or a section of their own below the agents' verdict, with their
/// own counts and largest changes. Either way they are named as such, so that nobody reads them as the agents' verdict.
/// </summary>
internal static class CommentSubmitted
{
    /// <summary>The section shows at most this many changes; the dashboard has the rest.</summary>
    public const int MaxRows = 10;

    public static void Heading(StringBuilder sb, PullRequestReport report)
    {
        if (!report.FromSubmissions)
            return;
        sb.Append("Results posted by a CI job, not measured by PerfService's agents (status ")
            .Append(Context(report))
            .Append(").\n\n");
    }

    public static void Section(StringBuilder sb, PullRequestReport report)
    {
        if (report.Submitted is not { } submitted)
            return;
        sb.Append("#### Submitted from CI\n\n")
            .Append(
                "Posted by a CI job, not measured by PerfService's agents: they do not count in the verdict above (status "
            )
            .Append(Context(submitted))
            .Append(").\n\n");
        var counts = submitted.Summary.Total;
        sb.Append(counts.IsEmpty ? "No results yet" : $"**{counts.Describe()}**")
            .Append(" · head ")
            .Append(MarkdownText.Code(Short(submitted.HeadCommit)))
            .Append("\n\n");
        var changes = submitted
            .Rows.Where(r => r.Outcome is Outcome.Regression or Outcome.Improvement)
            .OrderByDescending(r => Math.Abs(r.Change ?? 0))
            .ToList();
        CommentTables.Changes(sb, changes.Take(MaxRows).ToList());
        if (changes.Count > MaxRows)
            sb.Append("_… and ").Append(changes.Count - MaxRows).Append(" more changes: see the dashboard._\n\n");
    }

    // The context is fixed words around the project's slug: a code span whenever the slug makes one.
    private static string Context(PullRequestReport report) =>
        MarkdownText.Code(report.Project).StartsWith('`')
            ? $"`{report.StatusContext}`"
            : MarkdownText.Escape(report.StatusContext);
}
