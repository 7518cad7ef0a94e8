using Hangfire;
using Hangfire.PostgreSql;
using Microsoft.Extensions.DependencyInjection.Extensions;
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
        // Hangfire opens and returns a pooled connection for nearly every storage call (about 1,000 a second under the
        // load test), and Npgsql resets each one on return: seven statements when prepared statements must survive.
        // Hangfire keeps no session state (its locks are rows, its transactions explicit, long polling is off), so its
        // own pool skips the reset.
        var connectionString = new Npgsql.NpgsqlConnectionStringBuilder(
            Data.DataExtensions.ConnectionString(builder.Configuration)
        )
        {
            NoResetOnClose = true,
        }.ConnectionString;
        // The dashboard's login form (HangfireLogin) and Hangfire's own POST actions are anti-forgery protected.
        builder.Services.AddAntiforgery();
        builder
            .Services.AddOptions<BackgroundOptions>()
            .BindConfiguration(BackgroundOptions.Section)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder
            .Services.AddOptions<ScheduleOptions>()
            .BindConfiguration(ScheduleOptions.Section)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder
            .Services.AddOptions<RetentionOptions>()
            .BindConfiguration(RetentionOptions.Section)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        builder.Services.AddHangfire(
            (sp, c) =>
                c.SetDataCompatibilityLevel(CompatibilityLevel.Version_180)
                    .UseSimpleAssemblyNameTypeSerializer()
                    .UseRecommendedSerializerSettings()
                    // Hangfire's log provider is process-wide; a host that needs another one (the test host, where many
                    // hosts
                    // come and go in one process) registers its own ILogProvider.
                    .UseLogProvider(
                        sp.GetService<Hangfire.Logging.ILogProvider>()
                            ?? new Hangfire.AspNetCore.AspNetCoreLogProvider(sp.GetRequiredService<ILoggerFactory>())
                    )
        );
        // Storage, client and recurring manager belong to this host, not to Hangfire's process-wide JobStorage.Current:
        // several hosts in one process (the test suite) must never queue into each other's databases.
        var storageOptions = new PostgreSqlStorageOptions
        {
            QueuePollInterval = TimeSpan.FromSeconds(1),
            PrepareSchemaIfNecessary = false,
        };
        builder.Services.AddSingleton<JobStorage>(_ => new PostgreSqlStorage(
            new Hangfire.PostgreSql.Factories.NpgsqlConnectionFactory(connectionString, storageOptions, null),
            storageOptions
        ));
        builder.Services.AddSingleton<IBackgroundJobClient>(sp => new BackgroundJobClient(
            sp.GetRequiredService<JobStorage>()
        ));
        builder.Services.AddSingleton<IRecurringJobManager>(sp => new RecurringJobManager(
            sp.GetRequiredService<JobStorage>()
        ));
        builder.Services.AddSingleton<JobActivator>(sp => new Hangfire.AspNetCore.AspNetCoreJobActivator(
            sp.GetRequiredService<IServiceScopeFactory>()
        ));
        builder.Services.AddHostedService<HangfireServerHost>();
        builder.Services.AddTransient<LeaseSweepJob>();
        builder.Services.AddScoped<ArtifactRetentionJob>();
        builder.Services.AddScoped<SampleRetentionJob>();
        builder.Services.TryAddSingleton(TimeProvider.System);
        builder.Services.AddScoped<ScheduledBaselineJob>();
        builder.Services.AddHostedService<RecurringJobsRegistrar>();
        return builder;
    }
}
