using Npgsql;

namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>
/// A fresh, migrated database on the test server (PERF_TEST_DB, which ./perf test points at its private cluster),
/// dropped again on dispose. Each test class gets its own, so no test sees another's rows.
/// </summary>
public sealed class TestDatabase : IAsyncDisposable
{
    private TestDatabase(string name, string connectionString)
    {
        Name = name;
        ConnectionString = connectionString;
    }

    public string Name { get; }
    public string ConnectionString { get; }

    public static string ServerConnectionString =>
        Environment.GetEnvironmentVariable("PERF_TEST_DB")
        ?? throw new InvalidOperationException("PERF_TEST_DB is not set: run the tests with ./perf test, or point PERF_TEST_DB at a PostgreSQL server.");

    public static async Task<TestDatabase> CreateAsync(bool migrate = true)
    {
        var name = "perf_test_" + Guid.NewGuid().ToString("N")[..12];
        await using (var admin = new NpgsqlConnection(ServerConnectionString))
        {
            await admin.OpenAsync();
            await using var cmd = new NpgsqlCommand($"CREATE DATABASE \"{name}\"", admin);
            await cmd.ExecuteNonQueryAsync();
        }
        var cs = new NpgsqlConnectionStringBuilder(ServerConnectionString) { Database = name }.ConnectionString;
        var db = new TestDatabase(name, cs);
        if (migrate)
        {
            await PerfService.Migrations.DatabaseMigrator.MigrateAsync(cs);
        }
        return db;
    }

    public async ValueTask DisposeAsync()
    {
        NpgsqlConnection.ClearAllPools();
        await using var admin = new NpgsqlConnection(ServerConnectionString);
        await admin.OpenAsync();
        await using var cmd = new NpgsqlCommand($"DROP DATABASE IF EXISTS \"{Name}\" WITH (FORCE)", admin);
        await cmd.ExecuteNonQueryAsync();
    }
}
