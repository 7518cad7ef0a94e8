using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.GitHub;

namespace PerfService.PullRequests;

/// <summary>What recording an event's head found: whether the event is the newest seen, and the head's trust.</summary>
public sealed record HeadState(bool Fresh, string HeadCommit, bool Trusted);

/// <summary>
/// Keeps the newest head of each pull request from GitHub's events, which can arrive late or out of order
/// (redeliveries, retries). Events are ordered by the pull request's <c>updated_at</c>: an older event is stale and
/// acts on nothing. Two events in the same second may change the head only when the newer names the recorded head as
/// its <c>before</c> (a synchronize). A head's trust is decided by the event that brought it and kept after.
/// </summary>
public sealed class PullRequestHeads(PerfDbContext db)
{
    public async Task<HeadState> RecordAsync(long projectId, PullRequestEvent e, CancellationToken ct)
    {
        var pr = e.PullRequest;
        var recorded = await db
            .Database.SqlQuery<Head>(
                $"""
                INSERT INTO pull_request_heads AS h (project_id, pull_request, head_commit, head_repository, author, author_association, trusted, updated_at, received_at)
                VALUES ({projectId}, {e.Number}, {pr.Head.Sha.ToLowerInvariant()}, {pr.Head.Repo?.FullName}, {pr.User?.Login},
                        {pr.AuthorAssociation}, {PullRequestTrust.IsTrusted(
                    e
                )}, {pr.UpdatedAt.ToUniversalTime()}, now())
                ON CONFLICT (project_id, pull_request) DO UPDATE SET
                    head_commit = excluded.head_commit, head_repository = excluded.head_repository, author = excluded.author,
                    author_association = excluded.author_association,
                    trusted = CASE WHEN h.head_commit = excluded.head_commit THEN h.trusted ELSE excluded.trusted END,
                    updated_at = excluded.updated_at, received_at = excluded.received_at
                WHERE h.updated_at < excluded.updated_at
                   OR (h.updated_at = excluded.updated_at
                       AND (h.head_commit = excluded.head_commit OR h.head_commit = {e.Before?.ToLowerInvariant()}::text))
                RETURNING head_commit, trusted
                """
            )
            .ToListAsync(ct);
        if (recorded is [var fresh])
            return new HeadState(true, fresh.HeadCommit, fresh.Trusted);

        return await db
            .PullRequestHeads.AsNoTracking()
            .Where(h => h.ProjectId == projectId && h.PullRequest == e.Number)
            .Select(h => new HeadState(false, h.HeadCommit, h.Trusted))
            .FirstAsync(ct);
    }

    private sealed record Head(string HeadCommit, bool Trusted);
}
