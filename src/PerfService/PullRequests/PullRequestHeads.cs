using System.Data;
using Npgsql;
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
public sealed class PullRequestHeads(NpgsqlDataSource dataSource)
{
    public async Task<HeadState> RecordAsync(long projectId, PullRequestEvent e, CancellationToken ct)
    {
        var pr = e.PullRequest;
        await using var cmd = dataSource.CreateCommand("""
            INSERT INTO pull_request_heads AS h (project_id, pull_request, head_commit, head_repository, author, author_association, trusted, updated_at, received_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
            ON CONFLICT (project_id, pull_request) DO UPDATE SET
                head_commit = excluded.head_commit, head_repository = excluded.head_repository, author = excluded.author,
                author_association = excluded.author_association,
                trusted = CASE WHEN h.head_commit = excluded.head_commit THEN h.trusted ELSE excluded.trusted END,
                updated_at = excluded.updated_at, received_at = excluded.received_at
            WHERE h.updated_at < excluded.updated_at
               OR (h.updated_at = excluded.updated_at AND (h.head_commit = excluded.head_commit OR h.head_commit = $9))
            RETURNING head_commit, trusted
            """);
        cmd.Parameters.Add(new() { Value = projectId });
        cmd.Parameters.Add(new() { Value = e.Number });
        cmd.Parameters.Add(new() { Value = pr.Head.Sha.ToLowerInvariant() });
        cmd.Parameters.Add(new() { Value = (object?)pr.Head.Repo?.FullName ?? DBNull.Value });
        cmd.Parameters.Add(new() { Value = (object?)pr.User?.Login ?? DBNull.Value });
        cmd.Parameters.Add(new() { Value = (object?)pr.AuthorAssociation ?? DBNull.Value });
        cmd.Parameters.Add(new() { Value = PullRequestTrust.IsTrusted(e) });
        cmd.Parameters.Add(new() { Value = pr.UpdatedAt.ToUniversalTime() });
        cmd.Parameters.Add(new() { Value = (object?)e.Before?.ToLowerInvariant() ?? DBNull.Value, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Text });
        await using (var r = await cmd.ExecuteReaderAsync(ct))
            if (await r.ReadAsync(ct)) return new HeadState(true, r.GetString("head_commit"), r.GetBoolean("trusted"));

        await using var current = dataSource.CreateCommand("SELECT head_commit, trusted FROM pull_request_heads WHERE project_id = $1 AND pull_request = $2");
        current.Parameters.Add(new() { Value = projectId });
        current.Parameters.Add(new() { Value = e.Number });
        await using var c = await current.ExecuteReaderAsync(ct);
        await c.ReadAsync(ct);
        return new HeadState(false, c.GetString("head_commit"), c.GetBoolean("trusted"));
    }
}
