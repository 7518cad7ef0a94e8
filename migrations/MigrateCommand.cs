using System.CommandLine;

namespace PerfService.Migrations;

/// <summary>Applies every pending migration to the database named by --connection or PERF_DB, printing each step (./perf migrate).</summary>
public static class MigrateCommand
{
    public const string ConnectionVariable = "PERF_DB";

    public static Task<int> Main(string[] args) => Create().Parse(args).InvokeAsync();

    public static RootCommand Create()
    {
        // No default value factory: help would print the connection string, password included.
        var connection = new Option<string?>("--connection")
        {
            Description = $"Npgsql connection string of the database to migrate (default: ${ConnectionVariable})",
        };
        var root = new RootCommand("PerfService.Migrations: applies every pending EF Core migration, printing each step") { connection };
        root.SetAction(async (parse, ct) =>
        {
            var output = parse.InvocationConfiguration.Output;
            var error = parse.InvocationConfiguration.Error;
            var connectionString = parse.GetValue(connection) is { Length: > 0 } given ? given : Environment.GetEnvironmentVariable(ConnectionVariable);
            if (string.IsNullOrEmpty(connectionString))
            {
                await error.WriteLineAsync($"error: give --connection \"Host=...;Database=...\" or set {ConnectionVariable}");
                return 2;
            }
            try
            {
                var applied = await DatabaseMigrator.MigrateAsync(connectionString, step => output.WriteLine($"migrate: {step}"), ct);
                await output.WriteLineAsync(applied.Count == 0 ? "migrate: database is up to date" : $"migrate: applied {applied.Count} migration(s)");
                return 0;
            }
            catch (Npgsql.NpgsqlException e)
            {
                await error.WriteLineAsync($"migrate: cannot reach the database: {e.Message}");
                return 1;
            }
            catch (ArgumentException e)
            {
                await error.WriteLineAsync($"error: the connection string is not valid: {e.Message}");
                return 2;
            }
        });
        return root;
    }
}
