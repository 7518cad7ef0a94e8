using Npgsql;
using PerfService.Auth;
using PerfService.Migrations;

namespace PerfService.FaultTests.Infrastructure;

/// <summary>
/// A new, migrated database on a PostgreSQL server (PERF_TEST_DB, or a test's own cluster), dropped on dispose. The
/// tests read the tables directly to check what was stored, independently of the API under test.
/// </summary>
public sealed class FreshDatabase : IAsyncDisposable
{
    private readonly string _server;

    private FreshDatabase(string server, string name)
    {
        _server = server;
        Name = name;
        ConnectionString = new NpgsqlConnectionStringBuilder(server) { Database = name }.ConnectionString;
        // The tests' own reads open a fresh connection each time: a pooled one may be dead after a PostgreSQL restart.
        _direct = new NpgsqlConnectionStringBuilder(ConnectionString) { Pooling = false }.ConnectionString;
    }

    private readonly string _direct;

    public string Name { get; }
    public string ConnectionString { get; }

    public static string TestServer =>
        Environment.GetEnvironmentVariable("PERF_TEST_DB")
        ?? throw new InvalidOperationException("PERF_TEST_DB is not set: run the tests with ./perf test, or point PERF_TEST_DB at a PostgreSQL server.");

    public static async Task<FreshDatabase> CreateAsync(string? server = null)
    {
        server ??= TestServer;
        var db = new FreshDatabase(server, "perf_fault_" + Guid.NewGuid().ToString("N")[..12]);
        await using (var admin = new NpgsqlConnection(server))
        {
            await admin.OpenAsync();
            await using var create = new NpgsqlCommand($"CREATE DATABASE \"{db.Name}\"", admin);
            await create.ExecuteNonQueryAsync();
        }
        // The same step as `./perf migrate`: EF Core's migrations, then Hangfire's storage schema.
        await DatabaseMigrator.MigrateAsync(db.ConnectionString);
        return db;
    }

    /// <summary>A token as `PerfService.dll token create` makes it, written straight into the database.</summary>
    public async Task<string> CreateTokenAsync(string name, params string[] scopes)
    {
        await using var context = DesignTimeDbContextFactory.Create(ConnectionString);
        return await TokenCommands.CreateAsync(context, name, scopes);
    }

    public async Task<T> ScalarAsync<T>(string sql, params object[] args)
    {
        await using var conn = new NpgsqlConnection(_direct);
        await conn.OpenAsync();
        await using var cmd = new NpgsqlCommand(sql, conn);
        foreach (var a in args) cmd.Parameters.Add(new NpgsqlParameter { Value = a });
        var value = await cmd.ExecuteScalarAsync();
        return value is null or DBNull ? default! : (T)Convert.ChangeType(value, Nullable.GetUnderlyingType(typeof(T)) ?? typeof(T));
    }

    public async Task<List<T>> QueryAsync<T>(string sql, Func<NpgsqlDataReader, T> row, params object[] args)
    {
        await using var conn = new NpgsqlConnection(_direct);
        await conn.OpenAsync();
        await using var cmd = new NpgsqlCommand(sql, conn);
        foreach (var a in args) cmd.Parameters.Add(new NpgsqlParameter { Value = a });
        await using var reader = await cmd.ExecuteReaderAsync();
        var rows = new List<T>();
        while (await reader.ReadAsync()) rows.Add(row(reader));
        return rows;
    }

    /// <summary>Every run of a project with its key and how many results and artifacts it has.</summary>
    public Task<List<StoredRun>> StoredRunsAsync(string project) => QueryAsync("""
        SELECT r.id, r.idempotency_key, r.job_id,
               (SELECT count(*) FROM results x WHERE x.run_id = r.id),
               (SELECT count(*) FROM artifacts a WHERE a.run_id = r.id)
        FROM runs r JOIN projects p ON p.id = r.project_id
        WHERE p.slug = $1 ORDER BY r.id
        """, r => new StoredRun(r.GetInt64(0), r.IsDBNull(1) ? null : r.GetString(1), r.IsDBNull(2) ? null : r.GetInt64(2),
            (int)r.GetInt64(3), (int)r.GetInt64(4)), project);

    /// <summary>Row counts of the tables an upload writes to: equal before and after means nothing was stored.</summary>
    public async Task<TableCounts> CountsAsync()
    {
        var counts = await QueryAsync("""
            SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM results), (SELECT count(*) FROM artifacts),
                   (SELECT count(*) FROM benchmarks), (SELECT count(*) FROM commits), (SELECT count(*) FROM branches),
                   (SELECT count(*) FROM projects), (SELECT count(*) FROM jobs)
            """, r => new TableCounts(r.GetInt64(0), r.GetInt64(1), r.GetInt64(2), r.GetInt64(3), r.GetInt64(4), r.GetInt64(5),
            r.GetInt64(6), r.GetInt64(7)));
        return counts[0];
    }

    public async ValueTask DisposeAsync()
    {
        NpgsqlConnection.ClearAllPools();
        try
        {
            await using var admin = new NpgsqlConnection(_server);
            await admin.OpenAsync();
            await using var drop = new NpgsqlCommand($"DROP DATABASE IF EXISTS \"{Name}\" WITH (FORCE)", admin);
            await drop.ExecuteNonQueryAsync();
        }
        catch (NpgsqlException)
        {
            // The server went away with its test (a private cluster): nothing to drop.
        }
    }
}

public sealed record StoredRun(long Id, string? Key, long? JobId, int Results, int Artifacts);

public sealed record TableCounts(long Runs, long Results, long Artifacts, long Benchmarks, long Commits, long Branches, long Projects, long Jobs);
