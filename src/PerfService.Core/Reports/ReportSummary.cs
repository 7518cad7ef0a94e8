namespace PerfService.Core.Reports;

/// <summary>
/// What the comment's first lines say: the counts over every profile, then each profile's. Computed from the report
/// and read by the comment and the dashboard's pull request page alike, so the two cannot disagree.
/// </summary>
public sealed record ReportSummary(ReportCounts Total, IReadOnlyList<ProfileCounts> Profiles)
{
    public static ReportSummary Of(PullRequestReport report) =>
        new(
            ReportCounts.Of(report),
            report
                .Rows.Select(r => r.Profile)
                .Concat(report.Targets.Select(t => t.Profile))
                .Distinct()
                .Order(StringComparer.Ordinal)
                .Select(p => new ProfileCounts(
                    p,
                    ReportCounts.Of(report.Rows.Where(r => r.Profile == p), report.Targets.Where(t => t.Profile == p))
                ))
                .ToList()
        );
}

public sealed record ProfileCounts(string Profile, ReportCounts Counts);

public sealed partial record PullRequestReport
{
    /// <summary>Computed on every read: it is not stored, and a report built in code has it without setting
    /// it.</summary>
    public ReportSummary Summary => ReportSummary.Of(this);

    /// <summary>What the pull request's check says: pending, failure or success, with its description.</summary>
    public CommitStatusSummary Check => CommitStatusSummary.From(this);

    /// <summary>The commit status context this report's verdict is posted under.</summary>
    public string StatusContext => CommitStatusSummary.Context(Project, FromSubmissions);
}
