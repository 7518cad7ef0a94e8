using Microsoft.EntityFrameworkCore;
using Npgsql;

namespace PerfService.Data;

public static class DataExtensions
{
    public const string MigrationsAssembly = "PerfService.Migrations";

    /// <summary>
    /// One NpgsqlDataSource for the process (pooling, raw SQL, COPY) and the EF context on top of it.
    /// The connection string is ConnectionStrings:Perf (env ConnectionStrings__Perf; ./perf maps PERF_DB to it).
    /// </summary>
    public static WebApplicationBuilder AddPerfData(this WebApplicationBuilder builder)
    {
        var connectionString = builder.Configuration.GetConnectionString("Perf")
            ?? throw new InvalidOperationException("ConnectionStrings:Perf is not set (./perf sets it from PERF_DB or the private cluster).");
        var dataSource = new NpgsqlDataSourceBuilder(connectionString).Build();
        builder.Services.AddSingleton(dataSource);
        builder.Services.AddDbContext<PerfDbContext>(o => o.UsePerfDatabase(dataSource));
        return builder;
    }

    public static DbContextOptionsBuilder UsePerfDatabase(this DbContextOptionsBuilder options, NpgsqlDataSource dataSource) =>
        options.UseNpgsql(dataSource, o => o.MigrationsAssembly(MigrationsAssembly))
            .UseSnakeCaseNamingConvention();
}
