using System.CommandLine;
using PerfService.Migrations;

namespace PerfService.IntegrationTests.Foundation;

/// <summary>./perf migrate's command line (PerfService.Migrations) on a real, empty database.</summary>
public class MigrateCommandTests
{
    private static async Task<(int Exit, string Output, string Error)> RunAsync(params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exit = await MigrateCommand.Create().Parse(args).InvokeAsync(new InvocationConfiguration { Output = output, Error = error });
        return (exit, output.ToString(), error.ToString());
    }

    [Fact]
    public async Task Help_names_the_option_and_its_default_without_printing_a_secret()
    {
        var (exit, output, _) = await RunAsync("--help");
        Assert.Equal(0, exit);
        Assert.Contains("--connection", output);
        Assert.Contains("$PERF_DB", output);
    }

    [Fact]
    public async Task A_malformed_connection_string_or_an_unknown_option_is_refused()
    {
        var (exit, _, error) = await RunAsync("--connection", "Nonsense=1");
        Assert.Equal(2, exit);
        Assert.Contains("connection string is not valid", error);
        (exit, _, error) = await RunAsync("--conection", "Host=x");
        Assert.NotEqual(0, exit);
        Assert.Contains("--conection", error);
    }

    [Fact]
    public async Task It_migrates_an_empty_database_then_finds_it_up_to_date()
    {
        await using var database = await TestDatabase.CreateAsync(migrate: false);
        var (exit, output, error) = await RunAsync("--connection", database.ConnectionString);
        Assert.True(exit == 0, error);
        Assert.Matches(@"migrate: applied \d+ migration\(s\)", output);
        (exit, output, _) = await RunAsync("--connection", database.ConnectionString);
        Assert.Equal(0, exit);
        Assert.Contains("migrate: database is up to date", output);
    }
}
