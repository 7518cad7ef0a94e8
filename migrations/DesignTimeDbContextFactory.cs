using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Design;
using Npgsql;
using PerfService.Data;

namespace PerfService.Migrations;

/// <summary>Lets <c>dotnet ef migrations add X --project migrations</c> work without a startup project or a live database.</summary>
public sealed class DesignTimeDbContextFactory : IDesignTimeDbContextFactory<PerfDbContext>
{
    public PerfDbContext CreateDbContext(string[] args) => Create(
        Environment.GetEnvironmentVariable("PERF_DB") ?? "Host=127.0.0.1;Database=perf_design;Username=postgres");

    public static PerfDbContext Create(string connectionString)
    {
        var dataSource = new NpgsqlDataSourceBuilder(connectionString).Build();
        var options = new DbContextOptionsBuilder<PerfDbContext>();
        options.UsePerfDatabase(dataSource);
        return new PerfDbContext(options.Options);
    }
}
