using Octokit;
using PerfService.Core.Comparison;
using PerfService.Core.Reports;
using PerfService.Data.Entities;

namespace PerfService.GitHub;

/// <summary>
/// The check run <c>PerfService / project</c> of a pull request's head (GitHub App installs only: GitHub lets only Apps
/// write checks). Created for a head and updated while it is queued (the head awaits approval) or in progress (profiles
/// run); completed with the same report as the comment, it is final, as GitHub keeps it: a new conclusion (an
/// acknowledgement) or the head running again is a new check run. A failing check offers "Acknowledge".
/// </summary>
public static class CheckRuns
{
    /// <summary>GitHub's limit on a check run output's summary.</summary>
    public const int MaxSummaryLength = 65_535;
    public const string AcknowledgeAction = "acknowledge";
    private const string Completed = "completed:";

    public static string Name(string project) => $"PerfService / {project}";

    public static async Task UpsertAsync(
        IGitHubClient github,
        GitHubRepo repo,
        PullRequestReport report,
        PullRequestComment row,
        string body,
        DateTimeOffset now
    )
    {
        var counts = ReportCounts.Of(report);
        var status = CommitStatusSummary.From(report);
        var running = status.State == CommitStatusState.Pending;
        var output = new NewCheckRunOutput(status.Description, Summary(report, body));
        var details = MarkdownText.Url(report.DashboardUrl);
        // Only regressions can be acknowledged from the check; a failed target is fixed, not accepted.
        var canAcknowledge = !running && report.Rows.Any(r => r.Outcome == Outcome.Regression && !r.Acknowledged);
        IReadOnlyList<NewCheckRunAction> actions = canAcknowledge
            ? [new NewCheckRunAction("Acknowledge", "Accept these regressions (write access)", AcknowledgeAction)]
            : [];
        CheckStatus state = running
            ? (report.AwaitingApprovalLabel is null ? CheckStatus.InProgress : CheckStatus.Queued)
            : CheckStatus.Completed;
        CheckConclusion? conclusion =
            running ? null
            : counts.Blocking > 0 ? CheckConclusion.Failure
            : counts.Inconclusive > 0 ? CheckConclusion.Neutral
            : CheckConclusion.Success;

        var wanted =
            conclusion is { } c ? $"{Completed}{c.ToString().ToLowerInvariant()}"
            : state == CheckStatus.Queued ? "queued"
            : "in_progress";
        if (row.CheckRunId is { } id && row.CheckRunHead == report.HeadCommit)
        {
            // GitHub keeps a completed run as it was: the same conclusion stays on it (the comment carries the rest), a
            // new one, or the head running again, is a new run.
            if (row.CheckRunState?.StartsWith(Completed, StringComparison.Ordinal) == true)
            {
                if (row.CheckRunState == wanted)
                    return;
            }
            else
            {
                try
                {
                    await github.Check.Run.Update(
                        repo.Owner,
                        repo.Name,
                        id,
                        new CheckRunUpdate
                        {
                            Status = state,
                            Conclusion = conclusion,
                            CompletedAt = conclusion is null ? null : now,
                            Output = output,
                            DetailsUrl = details,
                            Actions = actions,
                        }
                    );
                    row.CheckRunState = wanted;
                    return;
                }
                catch (NotFoundException)
                {
                    // Deleted with the repository's history, or never ours: a new one is made below.
                }
                catch (ApiValidationException)
                {
                    // Refused: completed after all (a completion whose answer was lost, or a row from before the state
                    // was kept). It stays as it is; a new one carries the report.
                }
            }
        }
        var created = await github.Check.Run.Create(
            repo.Owner,
            repo.Name,
            new NewCheckRun(Name(report.Project), report.HeadCommit)
            {
                Status = state,
                Conclusion = conclusion,
                CompletedAt = conclusion is null ? null : now,
                StartedAt = now,
                Output = output,
                DetailsUrl = details,
                ExternalId = report.Project,
                Actions = actions,
            }
        );
        row.CheckRunId = created.Id;
        row.CheckRunHead = report.HeadCommit;
        row.CheckRunState = wanted;
    }

    /// <summary>The comment's report, with what is still running; cut to GitHub's limit.</summary>
    internal static string Summary(PullRequestReport report, string body)
    {
        var done = report
            .Rows.Select(r => r.Profile)
            .Concat(report.Targets.Select(t => t.Profile))
            .Distinct()
            .Except(report.PendingProfiles)
            .Order()
            .ToList();
        var progress =
            report.PendingProfiles.Count == 0
                ? ""
                : $"**Profiles done:** {(done.Count == 0 ? "none yet" : string.Join(", ", done))} · **left:** {string.Join(", ", report.PendingProfiles)}\n\n";
        var text = progress + body;
        if (text.Length <= MaxSummaryLength)
            return text;
        var link = MarkdownText.Url(report.DashboardUrl) is { } url ? $" See the [full report]({url})." : "";
        var tail = $"\n\n… (cut at GitHub's {MaxSummaryLength:N0}-character limit).{link}";
        var end = MaxSummaryLength - tail.Length;
        if (char.IsHighSurrogate(text[end - 1]))
            end--;
        return text[..end] + tail;
    }
}
