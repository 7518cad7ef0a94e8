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
        var dataSource = new NpgsqlDataSourceBuilder(ConnectionString(builder.Configuration)).Build();
        builder.Services.AddSingleton(dataSource);
        builder.Services.AddDbContext<PerfDbContext>(o => o.UsePerfDatabase(dataSource));
        return builder;
    }

    /// <summary>
    /// ConnectionStrings:Perf with automatic preparation on unless the string sets it: the statements of ingest,
    /// analysis, the read API and Hangfire repeat thousands of times a minute, and without it PostgreSQL parses and
    /// plans
    /// each one every time (a tenth of its CPU under the load test; 16 ms of planning for each run read by id).
    /// </summary>
    public static string ConnectionString(IConfiguration configuration)
    {
        var connectionString =
            configuration.GetConnectionString("Perf")
            ?? throw new InvalidOperationException(
                "ConnectionStrings:Perf is not set (./perf sets it from PERF_DB or the private cluster)."
            );
        var given = new System.Data.Common.DbConnectionStringBuilder { ConnectionString = connectionString };
        if (
            given
                .Keys.Cast<string>()
                .Any(k => k.Replace(" ", "").Equals("MaxAutoPrepare", StringComparison.OrdinalIgnoreCase))
        )
            return connectionString;
        return new NpgsqlConnectionStringBuilder(connectionString)
        {
            MaxAutoPrepare = 64,
            AutoPrepareMinUsages = 2,
        }.ConnectionString;
    }

    public static DbContextOptionsBuilder UsePerfDatabase(
        this DbContextOptionsBuilder options,
        NpgsqlDataSource dataSource
    ) => options.UseNpgsql(dataSource, o => o.MigrationsAssembly(MigrationsAssembly)).UseSnakeCaseNamingConvention();
}
