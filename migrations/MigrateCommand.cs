using Microsoft.EntityFrameworkCore;

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

        await using var db = DesignTimeDbContextFactory.Create(connectionString);
        try
        {
            var pending = (await db.Database.GetPendingMigrationsAsync()).ToList();
            if (pending.Count == 0)
            {
                Console.WriteLine("migrate: database is up to date");
                return 0;
            }
            foreach (var (name, i) in pending.Select((n, i) => (n, i)))
                Console.WriteLine($"migrate: [{i + 1}/{pending.Count}] {name}");
            await db.Database.MigrateAsync();
            Console.WriteLine($"migrate: applied {pending.Count} migration(s)");
            return 0;
        }
        catch (Npgsql.NpgsqlException e)
        {
            Console.Error.WriteLine($"migrate: cannot reach the database: {e.Message}");
            return 1;
        }
    }
}
