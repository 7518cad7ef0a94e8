using Npgsql;
using PerfService.Migrations;

namespace PerfService.IntegrationTests.Foundation;

public class SchemaTests
{
    [Fact]
    public async Task All_migrations_apply_to_an_empty_database_and_the_model_has_no_pending_changes()
    {
        await using var db = await TestDatabase.CreateAsync(migrate: false);
        await using var context = DesignTimeDbContextFactory.Create(db.ConnectionString);

        Assert.NotEmpty(context.Database.GetMigrations());
        await context.Database.MigrateAsync();

        Assert.Empty(await context.Database.GetPendingMigrationsAsync());
        Assert.False(context.Database.HasPendingModelChanges(), "the model has changes no migration captures: add a migration");
    }

    [Fact]
    public async Task Samples_are_stored_as_a_double_precision_array_and_history_has_its_index()
    {
        await using var db = await TestDatabase.CreateAsync();
        await using var conn = new NpgsqlConnection(db.ConnectionString);
        await conn.OpenAsync();

        await using var type = new NpgsqlCommand(
            "SELECT data_type, udt_name FROM information_schema.columns WHERE table_name = 'results' AND column_name = 'samples'", conn);
        await using (var reader = await type.ExecuteReaderAsync())
        {
            Assert.True(await reader.ReadAsync());
            Assert.Equal("ARRAY", reader.GetString(0));
            Assert.Equal("_float8", reader.GetString(1));
        }

        await using var index = new NpgsqlCommand(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'results' AND indexdef LIKE '%series_at%'", conn);
        var def = (string?)await index.ExecuteScalarAsync();
        Assert.NotNull(def);
        Assert.Contains("(benchmark_id, measure_id, profile_id, branch_id, series_at)", def);
    }
}
