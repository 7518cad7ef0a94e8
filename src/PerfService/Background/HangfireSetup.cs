using Hangfire;
using Hangfire.PostgreSql;
using PerfService.AgentJobs;

namespace PerfService.Background;

/// <summary>
/// Background work runs on Hangfire inside the service, stored in the same PostgreSQL (schema "hangfire", which
/// Hangfire.PostgreSql creates and upgrades itself). Every replica is also a Hangfire server; jobs take IDs only.
/// </summary>
public static class HangfireSetup
{
    public static WebApplicationBuilder AddBackgroundJobs(this WebApplicationBuilder builder)
    {
        var connectionString = builder.Configuration.GetConnectionString("Perf")!;
        builder.Services.AddHangfire(c => c
            .SetDataCompatibilityLevel(CompatibilityLevel.Version_180)
            .UseSimpleAssemblyNameTypeSerializer()
            .UseRecommendedSerializerSettings()
            .UsePostgreSqlStorage(o => o.UseNpgsqlConnection(connectionString), new PostgreSqlStorageOptions
            {
                QueuePollInterval = TimeSpan.FromSeconds(1),
                PrepareSchemaIfNecessary = true,
            }));
        builder.Services.AddHostedService<HangfireServerHost>();
        builder.Services.AddTransient<LeaseSweepJob>();
        builder.Services.AddHostedService<RecurringJobsRegistrar>();
        return builder;
    }
}
