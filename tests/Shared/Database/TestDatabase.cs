using Npgsql;

namespace PerfService.TestSupport;

/// <summary>
/// A fresh, migrated database on the test server (PERF_TEST_DB, which ./perf test points at its private cluster, or a
/// test's own cluster), dropped again on dispose. Each test class gets its own, so no test sees another's rows. Linked
/// into the test projects that set UsesTestDatabase (tests/Directory.Build.props).
/// </summary>
public sealed class TestDatabase : IAsyncDisposable
{
    private readonly string _server;
    private readonly string _direct;

    private TestDatabase(string server, string name)
    {
        _server = server;
        Name = name;
        ConnectionString = new NpgsqlConnectionStringBuilder(server) { Database = name }.ConnectionString;
        // The tests' own reads open a fresh connection each time: a pooled one may be dead after a PostgreSQL restart.
        _direct = new NpgsqlConnectionStringBuilder(ConnectionString) { Pooling = false }.ConnectionString;
    }

    public string Name { get; }
    public string ConnectionString { get; }

    public static string ServerConnectionString =>
        Environment.GetEnvironmentVariable("PERF_TEST_DB")
        ?? throw new InvalidOperationException("PERF_TEST_DB is not set: run the tests with ./perf test, or point PERF_TEST_DB at a PostgreSQL server.");

    /// <param name="migrate">The same step as <c>./perf migrate</c>: EF Core's migrations, then Hangfire's storage schema.</param>
    /// <param name="server">Another server than PERF_TEST_DB (a test's own cluster).</param>
    public static async Task<TestDatabase> CreateAsync(bool migrate = true, string? server = null)
    {
        server ??= ServerConnectionString;
        var db = new TestDatabase(server, "perf_test_" + Guid.NewGuid().ToString("N")[..12]);
        await using (var admin = new NpgsqlConnection(server))
        {
            await admin.OpenAsync();
            await using var create = new NpgsqlCommand($"CREATE DATABASE \"{db.Name}\"", admin);
            await create.ExecuteNonQueryAsync();
        }
        if (migrate) await PerfService.Migrations.DatabaseMigrator.MigrateAsync(db.ConnectionString);
        return db;
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
