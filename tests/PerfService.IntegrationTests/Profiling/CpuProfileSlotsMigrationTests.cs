using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql;
using PerfService.Migrations;
using PerfService.TestSupport;

namespace PerfService.IntegrationTests.Profiling;

/// <summary>
/// Profiles became unique per job slot (benchmark, suite, side, round). A database from before may hold a slot twice
/// (a retried upload); the migration keeps the first of each and builds the index instead of failing the upgrade.
/// </summary>
public class CpuProfileSlotsMigrationTests
{
    private const string Before = "20261127091032_RunDisturbance";

    [Fact]
    public async Task A_slot_stored_twice_before_the_unique_index_keeps_its_first_profile_and_the_upgrade_succeeds()
    {
        await using var database = await TestDatabase.CreateAsync(migrate: false);
        await MigrateAsync(database, Before);
        await using (var conn = new NpgsqlConnection(database.ConnectionString))
        {
            await conn.OpenAsync();
            // The rows' jobs and projects do not matter here: skip the foreign-key triggers for this session.
            await using (var replica = new NpgsqlCommand("SET session_replication_role = replica", conn))
                await replica.ExecuteNonQueryAsync();
            await using var insert = new NpgsqlCommand(
                """
                INSERT INTO cpu_profiles (id, job_id, project_id, profile_id, suite, benchmark, role, round, format,
                                          native_size, native_gzip, folded_gzip, samples, created_at)
                VALUES (1, 7, 1, 1, 'go', 'BenchmarkRead', 'base', 1, 'pprof', 1, '\x00', '\x00', 10, now()),
                       (2, 7, 1, 1, 'go', 'BenchmarkRead', 'base', 1, 'pprof', 1, '\x00', '\x00', 11, now()),
                       (3, 7, 1, 1, 'go', 'BenchmarkRead', 'head', 1, 'pprof', 1, '\x00', '\x00', 12, now()),
                       (4, 7, 1, 1, 'go', 'BenchmarkRead', 'base', 1, 'pprof', 1, '\x00', '\x00', 13, now());
                """,
                conn
            );
            await insert.ExecuteNonQueryAsync();
        }

        await MigrateAsync(database, null);

        var kept = await database.QueryAsync("SELECT id FROM cpu_profiles ORDER BY id", r => r.GetInt64(0));
        Assert.Equal([1L, 3L], kept);
        var unique = await database.ScalarAsync<bool>(
            "SELECT indisunique FROM pg_index WHERE indexrelid = 'ix_cpu_profiles_job_id_benchmark_suite_role_round'::regclass"
        );
        Assert.True(unique);
    }

    private static async Task MigrateAsync(TestDatabase database, string? target)
    {
        await using var db = DesignTimeDbContextFactory.Create(database.ConnectionString);
        await db.GetService<IMigrator>().MigrateAsync(target);
    }
}
