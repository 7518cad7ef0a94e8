namespace PerfService.Benchmarks;

/// <summary>The database ./perf bench gives the benchmarks (PERF_BENCH_DB, a fresh one on the private cluster), migrated.</summary>
internal static class BenchDatabase
{
    public static async Task<string> MigratedAsync()
    {
        var cs = Environment.GetEnvironmentVariable("PERF_BENCH_DB") ?? throw new InvalidOperationException("PERF_BENCH_DB is not set; run ./perf bench");
        await PerfService.Migrations.DatabaseMigrator.MigrateAsync(cs);
        return cs;
    }
}
