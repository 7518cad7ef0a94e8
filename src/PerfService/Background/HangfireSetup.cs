using Hangfire;
using Hangfire.PostgreSql;
using PerfService.AgentJobs;

namespace PerfService.Background;

/// <summary>
/// Background work runs on Hangfire inside the service, stored in the same PostgreSQL (schema "hangfire"). Like the EF
/// schema, Hangfire's is installed by the explicit migration step (migrations/), never at service start. Every replica
/// is also a Hangfire server; jobs take IDs only.
/// </summary>
public static class HangfireSetup
{
    public static WebApplicationBuilder AddBackgroundJobs(this WebApplicationBuilder builder)
    {
        var connectionString = builder.Configuration.GetConnectionString("Perf")!;
        builder.Services.AddHangfire(c => c
            .SetDataCompatibilityLevel(CompatibilityLevel.Version_180)
            .UseSimpleAssemblyNameTypeSerializer()
            .UseRecommendedSerializerSettings());
        // Storage, client and recurring manager belong to this host, not to Hangfire's process-wide JobStorage.Current:
        // several hosts in one process (the test suite) must never queue into each other's databases.
        var storageOptions = new PostgreSqlStorageOptions { QueuePollInterval = TimeSpan.FromSeconds(1), PrepareSchemaIfNecessary = false };
        builder.Services.AddSingleton<JobStorage>(_ =>
            new PostgreSqlStorage(new Hangfire.PostgreSql.Factories.NpgsqlConnectionFactory(connectionString, storageOptions, null), storageOptions));
        builder.Services.AddSingleton<IBackgroundJobClient>(sp => new BackgroundJobClient(sp.GetRequiredService<JobStorage>()));
        builder.Services.AddSingleton<IRecurringJobManager>(sp => new RecurringJobManager(sp.GetRequiredService<JobStorage>()));
        builder.Services.AddHostedService<HangfireServerHost>();
        builder.Services.AddTransient<LeaseSweepJob>();
        builder.Services.AddScoped<ArtifactRetentionJob>();
        builder.Services.AddScoped<ScheduledBaselineJob>();
        builder.Services.AddHostedService<RecurringJobsRegistrar>();
        return builder;
    }
}
