using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.GitHub;

namespace PerfService.Bisection;

/// <summary>
/// Records the commits a push to the default branch brought, benchmarked or not, so that bisection knows what lies
/// inside a change point's range. Only the push's head gets a baseline job; the others are known from here alone.
/// </summary>
public sealed class DefaultBranchCommits(PerfDbContext db)
{
    public async Task RecordAsync(long projectId, IReadOnlyList<PushCommitPayload> commits, CancellationToken ct)
    {
        commits = commits.DistinctBy(c => c.Id.ToLowerInvariant()).ToList();
        if (commits.Count == 0)
            return;
        var shas = commits.Select(c => c.Id.ToLowerInvariant()).ToArray();
        // timestamptz takes UTC only; GitHub sends the committer's offset.
        var times = commits.Select(c => c.Timestamp?.ToUniversalTime()).ToArray();
        var subjects = commits.Select(c => c.Message?.Split('\n', 2)[0]).ToArray();
        // A commit row made by an earlier run keeps its time: it positions that run's points in every series.
        // The ordinality keeps the push's order in the ids, the tie-break between commits of the same second.
        await db.Database.ExecuteSqlAsync(
            $"""
            INSERT INTO commits (project_id, sha, committed_at, message, first_seen_at, on_default_branch)
            SELECT {projectId}, t.sha, t.at, t.subject, now(), true
            FROM unnest({shas}::text[], {times}::timestamptz[], {subjects}::text[]) WITH ORDINALITY AS t(sha, at, subject, n)
            ORDER BY t.n
            ON CONFLICT (project_id, sha) DO UPDATE SET on_default_branch = true,
              committed_at = coalesce(commits.committed_at, excluded.committed_at), message = coalesce(commits.message, excluded.message)
            """,
            ct
        );
    }
}
