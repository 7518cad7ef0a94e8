using Microsoft.Extensions.Configuration;
using Npgsql;
using PerfService.Data;

namespace PerfService.IntegrationTests.Foundation;

/// <summary>
/// The service prepares its repeated statements unless the operator's connection string says otherwise, and the
/// statements still run on a real server with preparation on.
/// </summary>
public class ConnectionStringTests
{
    private static string Tuned(string connectionString) => DataExtensions.ConnectionString(
        new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { ["ConnectionStrings:Perf"] = connectionString }).Build());

    [Fact]
    public void Automatic_preparation_is_on_by_default()
    {
        var tuned = new NpgsqlConnectionStringBuilder(Tuned("Host=db;Database=perf;Username=perf"));
        Assert.Equal(64, tuned.MaxAutoPrepare);
        Assert.Equal(2, tuned.AutoPrepareMinUsages);
        Assert.Equal("db", tuned.Host);
    }

    [Theory]
    [InlineData("Host=db;Max Auto Prepare=0")]
    [InlineData("Host=db;maxautoprepare=0")]
    public void An_operator_setting_wins(string given)
    {
        Assert.Equal(given, Tuned(given));
        Assert.Equal(0, new NpgsqlConnectionStringBuilder(Tuned(given)).MaxAutoPrepare);
    }

    [Fact]
    public void A_missing_connection_string_says_which_setting()
    {
        var e = Assert.Throws<InvalidOperationException>(() => DataExtensions.ConnectionString(new ConfigurationBuilder().Build()));
        Assert.Contains("ConnectionStrings:Perf", e.Message);
    }

    [Fact]
    public async Task A_statement_run_repeatedly_is_prepared_on_the_server()
    {
        await using var db = await TestDatabase.CreateAsync(migrate: false);
        await using var source = NpgsqlDataSource.Create(Tuned(db.ConnectionString + ";Pooling=false"));
        await using var conn = await source.OpenConnectionAsync();
        for (var i = 0; i < 3; i++)
        {
            await using var cmd = new NpgsqlCommand("SELECT $1::int + 1", conn) { Parameters = { new() { Value = i } } };
            Assert.Equal(i + 1, await cmd.ExecuteScalarAsync());
        }
        await using var prepared = new NpgsqlCommand("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int + 1%'", conn);
        Assert.Equal(1L, await prepared.ExecuteScalarAsync());
    }
}
