namespace PerfService.Migrations;

/// <summary>Applies every pending migration to the database named by --connection or PERF_DB, printing each step.</summary>
internal static class MigrateCommand
{
    public static async Task<int> Main(string[] args)
    {
        var connectionString = args.SkipWhile(a => a != "--connection").Skip(1).FirstOrDefault()
            ?? Environment.GetEnvironmentVariable("PERF_DB");
        if (string.IsNullOrEmpty(connectionString))
        {
            Console.Error.WriteLine("usage: PerfService.Migrations --connection \"Host=...;Database=...\" (or set PERF_DB)");
            return 2;
        }

        try
        {
            var applied = await DatabaseMigrator.MigrateAsync(connectionString, step => Console.WriteLine($"migrate: {step}"));
            Console.WriteLine(applied.Count == 0 ? "migrate: database is up to date" : $"migrate: applied {applied.Count} migration(s)");
            return 0;
        }
        catch (Npgsql.NpgsqlException e)
        {
            Console.Error.WriteLine($"migrate: cannot reach the database: {e.Message}");
            return 1;
        }
    }
}
