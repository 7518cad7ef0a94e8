using System.Security.Cryptography;
using System.Text;
using Microsoft.EntityFrameworkCore;
using Octokit;
using PerfService.Core.Reports;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.GitHub;

public sealed record GitHubRepo(string Owner, string Name)
{
    public static GitHubRepo? Parse(string? fullName) =>
        fullName?.Split('/') is [var owner, var name] && owner.Length > 0 && name.Length > 0
            ? new GitHubRepo(owner.Trim(), name.Trim())
            : null;

    public override string ToString() => $"{Owner}/{Name}";
}

/// <summary>
/// Posts a report as a commit status and this project's one comment. What was posted is kept in pull_request_comments
/// (comment id, body hash, head, state), so an unchanged report posts nothing and a retried job updates, never
/// duplicates.
/// </summary>
public sealed class PullRequestPublisher(
    PerfDbContext db,
    GitHubClientProvider clients,
    GitHubRetry retry,
    Microsoft.Extensions.Options.IOptions<GitHubOptions> options,
    TimeProvider time,
    ILogger<PullRequestPublisher> logger
)
{
    public async Task PublishAsync(long projectId, GitHubRepo repo, PullRequestReport report, CancellationToken ct)
    {
        var row = await db.PullRequestComments.FirstOrDefaultAsync(
            c => c.ProjectId == projectId && c.PullRequest == report.PullRequest,
            ct
        );
        if (row is null)
            db.PullRequestComments.Add(
                row = new PullRequestComment { ProjectId = projectId, PullRequest = report.PullRequest }
            );

        var body = WithNotes(report, row.Notes);
        var checks = options.Value.UsesApp;
        var hash = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(body)));
        var status = CommitStatusSummary.From(report);
        var state = status.State.ToString().ToLowerInvariant();
        var bodyChanged = row.BodyHash != hash;
        // Results a CI job posted itself have a status context of their own and no check run: the check is the agents'.
        checks &= !report.FromSubmissions;
        if (
            !bodyChanged
            && row.HeadCommit == report.HeadCommit
            && row.LastState == state
            && (!checks || row.CheckRunHead == report.HeadCommit)
        )
        {
            logger.LogInformation("Pull request {Repository}#{Number} is up to date", repo, report.PullRequest);
            return;
        }

        try
        {
            var github = await retry.RunAsync(
                "authentication",
                () => clients.ForRepositoryAsync(repo.Owner, repo.Name, ct),
                ct
            );
            // The status first: it is what gates merging, and it is one cheap call. Submitted results beside the
            // agents'
            // post theirs under their own context, which never changes the agents' one.
            await StatusAsync(github, repo, report, status, ct);
            if (report.Submitted is { } submitted)
                await StatusAsync(github, repo, submitted, CommitStatusSummary.From(submitted), ct);
            // Then the check run (Apps only); the state is saved after both, so a retry redoes whichever failed.
            if (checks)
                await CheckRunAsync(github, repo, report, row, body, ct);
            row.HeadCommit = report.HeadCommit;
            row.LastState = state;
            await SaveAsync(row, ct);

            if (!bodyChanged)
                return;
            // Until a report has rows there is nothing worth a new comment; an existing one is still updated to say so.
            var create = report.Rows.Count > 0 || report.Targets.Count > 0 || !string.IsNullOrWhiteSpace(row.Notes);
            var me = await retry.RunAsync("identity", () => clients.IdentityAsync(ct), ct);
            var commentId = await retry.RunAsync(
                "comment",
                () => UpsertCommentAsync(github, repo, report, row.GitHubCommentId, body, create, me),
                ct
            );
            // Without a comment yet (nothing worth one) the body is settled too: the same report asks nothing more of
            // GitHub.
            row.GitHubCommentId = commentId;
            row.BodyHash = hash;
            await SaveAsync(row, ct);
        }
        catch (AuthorizationException)
        {
            // A cached installation token may have been revoked: the next try starts from a fresh one.
            await clients.ForgetAsync(repo.Owner, repo.Name);
            throw;
        }
    }

    private Task StatusAsync(
        IGitHubClient github,
        GitHubRepo repo,
        PullRequestReport report,
        CommitStatusSummary status,
        CancellationToken ct
    ) =>
        retry.RunAsync(
            "commit status",
            () =>
                github.Repository.Status.Create(
                    repo.Owner,
                    repo.Name,
                    report.HeadCommit,
                    new NewCommitStatus
                    {
                        State = status.State switch
                        {
                            CommitStatusState.Pending => CommitState.Pending,
                            CommitStatusState.Failure => CommitState.Failure,
                            _ => CommitState.Success,
                        },
                        Description = status.Description,
                        Context = report.StatusContext,
                        TargetUrl = MarkdownText.Url(report.DashboardUrl),
                    }
                ),
            ct
        );

    /// <summary>
    /// The check run, where GitHub refusing a change (a 4xx other than authentication) never keeps the comment from
    /// following the report: the refusal is logged and the next change tries again.
    /// </summary>
    private async Task CheckRunAsync(
        IGitHubClient github,
        GitHubRepo repo,
        PullRequestReport report,
        PullRequestComment row,
        string body,
        CancellationToken ct
    )
    {
        try
        {
            await retry.RunAsync(
                "check run",
                () => CheckRuns.UpsertAsync(github, repo, report, row, body, time.GetUtcNow()),
                ct
            );
        }
        catch (ApiException e) when (e is not AuthorizationException && (int)e.StatusCode is >= 400 and < 500)
        {
            logger.LogWarning(
                "GitHub refused the check run of {Repository}#{Number} ({Status}: {Message}); the comment is still updated",
                repo,
                report.PullRequest,
                (int)e.StatusCode,
                e.Message
            );
        }
    }

    /// <summary>The report's comment, with the service's notes (answers to comment commands) above its
    /// marker.</summary>
    internal static string WithNotes(PullRequestReport report, string? notes)
    {
        if (string.IsNullOrWhiteSpace(notes))
            return CommentRenderer.Render(report);
        var section = $"\n\n{notes.Trim()}\n\n";
        var marker = CommentRenderer.Marker(report.Project);
        var rendered = CommentRenderer.Render(report, CommentRenderer.GitHubMaxLength - section.Length);
        return rendered.TrimEnd()[..^marker.Length].TrimEnd() + section + marker;
    }

    /// <summary>A commit status with no report behind it (e.g. "not benchmarked").</summary>
    public async Task PublishStatusAsync(
        GitHubRepo repo,
        string project,
        string sha,
        CommitState state,
        string description,
        CancellationToken ct
    )
    {
        var github = await retry.RunAsync(
            "authentication",
            () => clients.ForRepositoryAsync(repo.Owner, repo.Name, ct),
            ct
        );
        await retry.RunAsync(
            "commit status",
            () =>
                github.Repository.Status.Create(
                    repo.Owner,
                    repo.Name,
                    sha,
                    new NewCommitStatus
                    {
                        State = state,
                        Description = description,
                        Context = CommitStatusSummary.Context(project, submitted: false),
                    }
                ),
            ct
        );
    }

    private async Task<long?> UpsertCommentAsync(
        IGitHubClient github,
        GitHubRepo repo,
        PullRequestReport report,
        long? knownId,
        string body,
        bool create,
        string me
    )
    {
        if (knownId is { } id)
        {
            try
            {
                await github.Issue.Comment.Update(repo.Owner, repo.Name, id, body);
                return id;
            }
            catch (NotFoundException)
            {
                logger.LogInformation(
                    "Comment {Id} on {Repository}#{Number} is gone; looking again",
                    id,
                    repo,
                    report.PullRequest
                );
            }
        }

        // An earlier try may have created the comment and died before saving its id: the marker finds it. Only a
        // comment
        // the service's own identity wrote is adopted: anyone can paste the marker into a comment of theirs, and the
        // service editing it would put its report under their name (or let them plant text the report then carries).
        var comments = await github.Issue.Comment.GetAllForIssue(repo.Owner, repo.Name, report.PullRequest);
        var mine = comments.FirstOrDefault(c =>
            string.Equals(c.User?.Login, me, StringComparison.OrdinalIgnoreCase)
            && CommentRenderer.HasMarker(c.Body, report.Project)
        );
        if (mine is not null)
        {
            if (mine.Body.Replace("\r\n", "\n", StringComparison.Ordinal) != body)
                await github.Issue.Comment.Update(repo.Owner, repo.Name, mine.Id, body);
            return mine.Id;
        }
        if (!create)
            return null;
        var created = await github.Issue.Comment.Create(repo.Owner, repo.Name, report.PullRequest, body);
        logger.LogInformation("Commented on {Repository}#{Number} ({Id})", repo, report.PullRequest, created.Id);
        return created.Id;
    }

    private Task SaveAsync(PullRequestComment row, CancellationToken ct)
    {
        row.UpdatedAt = time.GetUtcNow();
        return db.SaveChangesAsync(ct);
    }
}
