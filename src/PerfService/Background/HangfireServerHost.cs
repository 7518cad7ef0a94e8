using Hangfire;
using Microsoft.Extensions.Options;

namespace PerfService.Background;

/// <summary>
/// Runs the Hangfire server once its storage can be opened. Hangfire's own hosted service opens the storage while the
/// host starts, so a service started while PostgreSQL is down would hang there instead of coming up not-ready and
/// recovering by itself; this one retries in the background. A process without the background role runs none.
/// </summary>
public sealed class HangfireServerHost(
    IServiceProvider services,
    IOptions<BackgroundOptions> options,
    ILogger<HangfireServerHost> logger
) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (!options.Value.Runs(ServiceRoles.Background))
        {
            logger.LogInformation(
                "Background role off (Background:Roles = {Roles}): no Hangfire server in this process",
                options.Value.Roles
            );
            return;
        }
        var delay = TimeSpan.FromSeconds(1);
        while (!stoppingToken.IsCancellationRequested)
        {
            BackgroundJobServer server;
            try
            {
                var storage = services.GetRequiredService<JobStorage>();
                server = new BackgroundJobServer(
                    new BackgroundJobServerOptions
                    {
                        WorkerCount = options.Value.WorkerCount,
                        SchedulePollingInterval = TimeSpan.FromSeconds(1),
                        Queues = ["critical", "default"],
                        Activator = services.GetRequiredService<JobActivator>(),
                    },
                    storage
                );
            }
            catch (Exception e)
            {
                logger.LogWarning(
                    "Background jobs cannot start yet ({Message}); retrying in {Delay}",
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
                delay = TimeSpan.FromSeconds(Math.Min(delay.TotalSeconds * 2, 30));
                continue;
            }

            try
            {
                await Task.Delay(Timeout.Infinite, stoppingToken);
            }
            catch (OperationCanceledException) { }
            server.SendStop();
            await server.WaitForShutdownAsync(CancellationToken.None);
            server.Dispose();
            return;
        }
    }
}
