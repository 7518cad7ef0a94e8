using System.Security.Claims;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Npgsql;
using PerfService.Access;
using PerfService.Alerts;
using PerfService.Core.Contracts;
using PerfService.Core.Targets;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.Hosting.Http;

namespace PerfService.Dashboard;

internal static class OverviewEndpoint
{
    // runs has no (project, profile, suite, time) index, so "latest per profile and suite" looks at a bounded window
    // of the project's newest runs (an index range scan on (project_id, created_at)) instead of all of them.
    private const int RecentRuns = 5000;

    public static async Task<Results<Ok<OverviewDto>, ProblemHttpResult>> Get(
        string slug,
        PerfDbContext db,
        NpgsqlDataSource dataSource,
        ClaimsPrincipal user,
        CancellationToken ct
    )
    {
        var project = await db.FindProjectAsync(user, slug, ct);
        if (project is null)
            return Problems.ProjectNotFound(slug);

        var latest = await LatestRunsAsync(dataSource, project.Id, null, ct);
        var runIds = latest.Select(r => r.RunId).ToList();
        var failed = await db
            .TargetResults.AsNoTracking()
            .Where(t => runIds.Contains(t.RunId) && t.Outcome == TargetStatus.Fail)
            .OrderBy(t => t.RunId)
            .ThenBy(t => t.Name)
            .Select(t => new
            {
                t.RunId,
                t.Name,
                t.Actual,
                t.Limit,
                t.Detail,
            })
            .ToListAsync(ct);
        var profileOf = latest.ToDictionary(r => r.RunId, r => r.Profile);
        var alerts = await db
            .Alerts.AsNoTracking()
            .Where(a => a.ProjectId == project.Id)
            .WhereOpen()
            .GroupBy(a => a.State)
            .Select(g => new { State = g.Key, Count = g.Count() })
            .ToListAsync(ct);
        var branches = await db
            .Branches.AsNoTracking()
            .Where(b => b.ProjectId == project.Id)
            .OrderBy(b => b.Name)
            .Select(b => b.Name)
            .ToListAsync(ct);

        return TypedResults.Ok(
            new OverviewDto(
                new ProjectSummaryDto(
                    project.Slug,
                    project.Name,
                    project.DefaultBranch,
                    project.IsPublic,
                    Projects.RepositoryUrl.Redact(project.RepositoryUrl)
                ),
                latest,
                alerts.Where(a => a.State == AlertState.Active).Sum(a => a.Count),
                alerts.Where(a => a.State == AlertState.Acknowledged).Sum(a => a.Count),
                failed
                    .Select(t => new FailedTargetDto(t.RunId, profileOf[t.RunId], t.Name, t.Actual, t.Limit, t.Detail))
                    .ToList(),
                branches
            )
            {
                Targets = await TargetStatesAsync(db, dataSource, project, ct),
            }
        );
    }

    /// <summary>Targets as the default branch stands: a pull request's run does not change what main's page
    /// shows.</summary>
    private static async Task<List<TargetStateDto>> TargetStatesAsync(
        PerfDbContext db,
        NpgsqlDataSource dataSource,
        VisibleProject project,
        CancellationToken ct
    )
    {
        var mainBranch = await db
            .Branches.AsNoTracking()
            .Where(b => b.ProjectId == project.Id && b.Name == project.DefaultBranch)
            .Select(b => (long?)b.Id)
            .FirstOrDefaultAsync(ct);
        if (mainBranch is null)
            return [];
        var runs = (await LatestRunsAsync(dataSource, project.Id, mainBranch, ct)).ToDictionary(r => r.RunId);
        var runIds = runs.Keys.ToList();
        var results = await db
            .TargetResults.AsNoTracking()
            .Where(t => runIds.Contains(t.RunId))
            .Select(t => new
            {
                t.RunId,
                t.Name,
                t.Outcome,
                t.Actual,
                t.Limit,
                t.Detail,
            })
            .ToListAsync(ct);
        return results
            .Select(t => new TargetStateDto(
                t.Name,
                runs[t.RunId].Suite,
                runs[t.RunId].Profile,
                t.Outcome.ToString(),
                t.Actual,
                t.Limit,
                t.Detail,
                t.RunId,
                runs[t.RunId].Commit
            ))
            .OrderBy(t => t.Suite, StringComparer.Ordinal)
            .ThenBy(t => t.Name, StringComparer.Ordinal)
            .ThenBy(t => t.Profile, StringComparer.Ordinal)
            .ToList();
    }

    // Counts come from the run (written once at ingest), so the overview never reads results.
    internal static readonly string LatestRunsSql = $"""
        WITH recent AS (
            SELECT id, profile_id, suite_id, commit_id, branch_id, pull_request, created_at, result_count, failed_count
            FROM runs
            WHERE project_id = $1 AND role = '{RunRole.Head.Name()}' AND ($3::bigint IS NULL OR (branch_id = $3 AND pull_request IS NULL))
            ORDER BY created_at DESC, id DESC
            LIMIT $2
        ), latest AS (
            SELECT DISTINCT ON (profile_id, suite_id) *
            FROM recent
            ORDER BY profile_id, suite_id, created_at DESC, id DESC
        )
        SELECT l.id, p.name AS profile, s.name AS suite, c.sha, b.name AS branch, l.pull_request, l.created_at,
               l.result_count, l.failed_count
        FROM latest l
        JOIN profiles p ON p.id = l.profile_id
        JOIN suites s ON s.id = l.suite_id
        JOIN commits c ON c.id = l.commit_id
        LEFT JOIN branches b ON b.id = l.branch_id
        ORDER BY p.name, s.name
        """;

    /// <param name="branchId">Only runs of this branch (pull-request runs excluded); null: every head run.</param>
    private static async Task<List<LatestRunDto>> LatestRunsAsync(
        NpgsqlDataSource dataSource,
        long projectId,
        long? branchId,
        CancellationToken ct
    )
    {
        await using var cmd = dataSource.CreateCommand(LatestRunsSql);
        cmd.Parameters.Add(new() { Value = projectId });
        cmd.Parameters.Add(new() { Value = RecentRuns });
        cmd.Parameters.Add(
            new() { Value = (object?)branchId ?? DBNull.Value, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Bigint }
        );
        var rows = new List<LatestRunDto>();
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        var (id, profile, suite) = (reader.GetOrdinal("id"), reader.GetOrdinal("profile"), reader.GetOrdinal("suite"));
        var sha = reader.GetOrdinal("sha");
        var (branch, pullRequest, createdAt) = (
            reader.GetOrdinal("branch"),
            reader.GetOrdinal("pull_request"),
            reader.GetOrdinal("created_at")
        );
        var (results, failed) = (reader.GetOrdinal("result_count"), reader.GetOrdinal("failed_count"));
        while (await reader.ReadAsync(ct))
            rows.Add(
                new LatestRunDto(
                    reader.GetInt64(id),
                    reader.GetString(profile),
                    reader.GetString(suite),
                    reader.GetString(sha),
                    reader.IsDBNull(branch) ? null : reader.GetString(branch),
                    reader.IsDBNull(pullRequest) ? null : reader.GetInt32(pullRequest),
                    reader.GetFieldValue<DateTimeOffset>(createdAt),
                    reader.GetInt32(results),
                    reader.GetInt32(failed)
                )
            );
        return rows;
    }
}
