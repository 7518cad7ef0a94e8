using Npgsql;

namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>Plain SQL against a test database, for tests that set up or inspect rows below the API.</summary>
public static class Sql
{
    public static async Task ExecAsync(this TestDatabase db, string sql)
    {
        await using var conn = new NpgsqlConnection(db.ConnectionString);
        await conn.OpenAsync();
        await using var cmd = new NpgsqlCommand(sql, conn) { CommandTimeout = 300 };
        await cmd.ExecuteNonQueryAsync();
    }

    public static async Task<T> ScalarAsync<T>(this TestDatabase db, string sql)
    {
        await using var conn = new NpgsqlConnection(db.ConnectionString);
        await conn.OpenAsync();
        await using var cmd = new NpgsqlCommand(sql, conn);
        return (T)(await cmd.ExecuteScalarAsync())!;
    }
}
