namespace PerfService.Core.Reports;

public enum CommitStatusState
{
    Pending,
    Success,
    Failure,
}

/// <summary>
/// The commit status a report stands for: pending while a profile still runs, failure while an unacknowledged
/// regression or failed target remains, success otherwise. GitHub allows 140 characters of description.
/// </summary>
public sealed record CommitStatusSummary(CommitStatusState State, string Description)
{
    public const int MaxDescriptionLength = 140;

    /// <summary>The status context: the agents' verdict under the project's name, results a CI job posted itself
    /// (<see cref="PullRequestReport.FromSubmissions"/>) under a context of their own beside it.</summary>
    public static string Context(string project, bool submitted) =>
        submitted ? $"perfservice/{project}/submitted" : $"perfservice/{project}";

    public static CommitStatusSummary From(PullRequestReport report)
    {
        if (report.AwaitingApprovalLabel is { } label)
            return new CommitStatusSummary(CommitStatusState.Pending, Shorten(AwaitingApproval(label)));
        var counts = ReportCounts.Of(report);
        var (state, text) =
            report.PendingProfiles.Count > 0 ? (CommitStatusState.Pending, PendingText(report, counts))
            : counts.Blocking > 0
                ? (CommitStatusState.Failure, $"{counts.Describe()}; acknowledge in PerfService to accept")
            : (CommitStatusState.Success, counts.IsEmpty ? "No benchmark results to compare" : counts.Describe());
        return new CommitStatusSummary(state, Shorten(text));
    }

    /// <summary>Said while an outside contributor's head waits: a maintainer adds the label or approves in
    /// PerfService.</summary>
    public static string AwaitingApproval(string label) =>
        $"Awaiting approval by a maintainer (label {label} or Approve in PerfService)";

    /// <summary>Said when the project benchmarks no pull request at all.</summary>
    public const string NotBenchmarked = "Not benchmarked: this project does not run pull requests (policy none)";

    private static string PendingText(PullRequestReport report, ReportCounts counts)
    {
        var running = $"Benchmarking on {string.Join(", ", report.PendingProfiles)}";
        return counts.IsEmpty ? running : $"{running}; so far {counts.Describe()}";
    }

    private static string Shorten(string text)
    {
        if (text.Length <= MaxDescriptionLength)
            return text;
        var end = MaxDescriptionLength - 1;
        if (char.IsHighSurrogate(text[end - 1]))
            end--;
        return text[..end].TrimEnd() + "…";
    }
}
