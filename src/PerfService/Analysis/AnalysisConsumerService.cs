using Microsoft.Extensions.Options;
using Npgsql;
using PerfService.Background;
using PerfService.Hosting;

namespace PerfService.Analysis;

/// <summary>
/// Runs <see cref="BackgroundOptions.AnalysisConsumers"/> analysis consumers in a process with the background role. A
/// consumer steps while runs are waiting, then sleeps until a run is queued (<c>NOTIFY perf_analysis</c>) or a short
/// poll finds one (a lost notification, runs released by a consumer that died); errors back off up to 30 s. Before each
/// step it yields to uploads when they are slow (<see cref="AnalysisYield"/>).
/// </summary>
public sealed class AnalysisConsumerService(
    AnalysisConsumer consumer,
    AnalysisYield yielding,
    NpgsqlDataSource dataSource,
    IOptions<BackgroundOptions> options,
    ILogger<AnalysisConsumerService> logger
) : BackgroundService
{
    private static readonly TimeSpan Poll = TimeSpan.FromSeconds(2);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (!options.Value.Runs(ServiceRoles.Background))
        {
            logger.LogInformation(
                "Background role off (Background:Roles = {Roles}): no analysis consumer in this process",
                options.Value.Roles
            );
            return;
        }
        var listener = new ChannelListener(dataSource, AnalysisRequests.Channel, logger);
        var listening = listener.ListenAsync(stoppingToken);
        await Task.WhenAll(
            Enumerable.Range(0, options.Value.AnalysisConsumers).Select(_ => ConsumeAsync(listener, stoppingToken))
        );
        await listening;
    }

    private async Task ConsumeAsync(ChannelListener listener, CancellationToken stoppingToken)
    {
        var backoff = TimeSpan.FromSeconds(1);
        var lastBatch = 0;
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                // Taken before the step, so a run queued during it wakes the next wait.
                var queued = listener.NextAsync();
                await yielding.WaitAsync(stoppingToken, lastBatch);
                var step = await consumer.StepAsync(stoppingToken);
                lastBatch = step.Analysed + step.Failed;
                if (step.TookAny)
                    continue;
                backoff = TimeSpan.FromSeconds(1);
                await Task.WhenAny(queued, Task.Delay(Poll, stoppingToken));
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e)
            {
                logger.LogWarning(e, "Analysis consumer failed; retrying in {Delay}", backoff);
                try
                {
                    await Task.Delay(backoff, stoppingToken);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
                backoff = TimeSpan.FromSeconds(Math.Min(backoff.TotalSeconds * 2, 30));
            }
        }
    }
}
