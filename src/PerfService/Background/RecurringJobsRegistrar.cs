using Hangfire;
using Microsoft.Extensions.Options;
using PerfService.AgentJobs;

namespace PerfService.Background;

/// <summary>
/// Registers the recurring jobs, in one place with stable ids. Retries until the database answers, so a service
/// that starts before PostgreSQL does still comes up (not ready) and finishes its set-up by itself.
/// </summary>
public sealed class RecurringJobsRegistrar(
    IServiceProvider services,
    IOptions<ScheduleOptions> schedule,
    ILogger<RecurringJobsRegistrar> logger
) : BackgroundService
{
    private const string LeaseSweep = "lease-sweep",
        ArtifactRetention = "artifact-retention",
        SampleRetention = "sample-retention",
        ScheduledBaselines = "scheduled-baselines";

    /// <summary>The ids of every recurring job this service registers.</summary>
    public static readonly string[] Ids = [LeaseSweep, ArtifactRetention, SampleRetention, ScheduledBaselines];

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        for (
            var delay = TimeSpan.FromSeconds(1);
            !stoppingToken.IsCancellationRequested;
            delay = TimeSpan.FromSeconds(Math.Min(delay.TotalSeconds * 2, 30))
        )
        {
            try
            {
                var recurring = services.GetRequiredService<IRecurringJobManager>();
                if (!schedule.Value.Recurring)
                {
                    // Off: also off for a schedule an earlier start of this database registered.
                    foreach (var id in Ids)
                        recurring.RemoveIfExists(id);
                    logger.LogInformation("Recurring jobs off (Schedule:Recurring = false)");
                    return;
                }
                recurring.AddOrUpdate<LeaseSweepJob>(
                    LeaseSweep,
                    j => j.RunAsync(CancellationToken.None),
                    Cron.Minutely()
                );
                recurring.AddOrUpdate<ArtifactRetentionJob>(
                    ArtifactRetention,
                    j => j.RunAsync(CancellationToken.None),
                    Cron.Daily(3)
                );
                recurring.AddOrUpdate<SampleRetentionJob>(
                    SampleRetention,
                    j => j.RunAsync(CancellationToken.None),
                    Cron.Daily(4)
                );
                recurring.AddOrUpdate<ScheduledBaselineJob>(
                    ScheduledBaselines,
                    j => j.RunAsync(CancellationToken.None),
                    schedule.Value.BaselineCron
                );
                return;
            }
            catch (Exception e)
            {
                logger.LogWarning(
                    "Recurring jobs not registered yet ({Message}); retrying in {Delay}",
                    e.Message,
                    delay
                );
                try
                {
                    await Task.Delay(delay, stoppingToken);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }
    }
}
