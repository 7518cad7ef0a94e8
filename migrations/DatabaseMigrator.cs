using Hangfire.PostgreSql;
using Microsoft.EntityFrameworkCore;
using Npgsql;

namespace PerfService.Migrations;

/// <summary>The one migration step: EF Core's migrations, then Hangfire's storage schema (idempotent both).</summary>
public static class DatabaseMigrator
{
    public static async Task<IReadOnlyList<string>> MigrateAsync(string connectionString, Action<string>? progress = null, CancellationToken ct = default)
    {
        await using var db = DesignTimeDbContextFactory.Create(connectionString);
        var pending = (await db.Database.GetPendingMigrationsAsync(ct)).ToList();
        foreach (var (name, i) in pending.Select((n, i) => (n, i))) progress?.Invoke($"[{i + 1}/{pending.Count}] {name}");
        await db.Database.MigrateAsync(ct);

        progress?.Invoke("hangfire storage schema");
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        PostgreSqlObjectsInstaller.Install(connection, "hangfire");
        return pending;
    }
}
