using Hangfire;
using Microsoft.Extensions.Options;
using PerfService.AgentJobs;

namespace PerfService.Background;

/// <summary>
/// Registers the recurring jobs, in one place with stable ids. Retries until the database answers, so a service
/// that starts before PostgreSQL does still comes up (not ready) and finishes its set-up by itself.
/// </summary>
public sealed class RecurringJobsRegistrar(IServiceProvider services, IOptions<ScheduleOptions> schedule, ILogger<RecurringJobsRegistrar> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        for (var delay = TimeSpan.FromSeconds(1); !stoppingToken.IsCancellationRequested; delay = TimeSpan.FromSeconds(Math.Min(delay.TotalSeconds * 2, 30)))
        {
            try
            {
                var recurring = services.GetRequiredService<IRecurringJobManager>();
                recurring.AddOrUpdate<LeaseSweepJob>("lease-sweep", j => j.RunAsync(CancellationToken.None), Cron.Minutely());
                recurring.AddOrUpdate<ArtifactRetentionJob>("artifact-retention", j => j.RunAsync(CancellationToken.None), Cron.Daily(3));
                recurring.AddOrUpdate<SampleRetentionJob>("sample-retention", j => j.RunAsync(CancellationToken.None), Cron.Daily(4));
                recurring.AddOrUpdate<ScheduledBaselineJob>("scheduled-baselines", j => j.RunAsync(CancellationToken.None),
                    schedule.Value.BaselineCron);
                return;
            }
            catch (Exception e)
            {
                logger.LogWarning("Recurring jobs not registered yet ({Message}); retrying in {Delay}", e.Message, delay);
                try { await Task.Delay(delay, stoppingToken); } catch (OperationCanceledException) { return; }
            }
        }
    }
}
