using PerfService.Auth;
using PerfService.Migrations;

namespace PerfService.FaultTests.Infrastructure;

/// <summary>What the fault tests read from a <see cref="TestDatabase"/> directly, to check what was stored independently
/// of the API under test.</summary>
public static class StoredState
{
    /// <summary>A token as `PerfService.dll token create` makes it, written straight into the database.</summary>
    public static async Task<string> CreateTokenAsync(this TestDatabase db, string name, params string[] scopes)
    {
        await using var context = DesignTimeDbContextFactory.Create(db.ConnectionString);
        return await TokenCommands.CreateAsync(context, name, scopes);
    }

    /// <summary>Every run of a project with its key and how many results and artifacts it has.</summary>
    public static Task<List<StoredRun>> StoredRunsAsync(this TestDatabase db, string project) => db.QueryAsync("""
        SELECT r.id, r.idempotency_key, r.job_id,
               (SELECT count(*) FROM results x WHERE x.run_id = r.id),
               (SELECT count(*) FROM artifacts a WHERE a.run_id = r.id)
        FROM runs r JOIN projects p ON p.id = r.project_id
        WHERE p.slug = $1 ORDER BY r.id
        """, r => new StoredRun(r.GetInt64(0), r.IsDBNull(1) ? null : r.GetString(1), r.IsDBNull(2) ? null : r.GetInt64(2),
            (int)r.GetInt64(3), (int)r.GetInt64(4)), project);

    /// <summary>Row counts of the tables an upload writes to: equal before and after means nothing was stored.</summary>
    public static async Task<TableCounts> CountsAsync(this TestDatabase db)
    {
        var counts = await db.QueryAsync("""
            SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM results), (SELECT count(*) FROM artifacts),
                   (SELECT count(*) FROM benchmarks), (SELECT count(*) FROM commits), (SELECT count(*) FROM branches),
                   (SELECT count(*) FROM projects), (SELECT count(*) FROM jobs)
            """, r => new TableCounts(r.GetInt64(0), r.GetInt64(1), r.GetInt64(2), r.GetInt64(3), r.GetInt64(4), r.GetInt64(5),
            r.GetInt64(6), r.GetInt64(7)));
        return counts[0];
    }
}

public sealed record StoredRun(long Id, string? Key, long? JobId, int Results, int Artifacts);

public sealed record TableCounts(long Runs, long Results, long Artifacts, long Benchmarks, long Commits, long Branches, long Projects, long Jobs);
