using Microsoft.Extensions.Hosting;

namespace PerfService.Agents.Worker;

/// <summary>The hosted shell around <see cref="AgentDriver"/>: SIGTERM/Ctrl+C cancel it (the running job is reported
/// as cancelled), and when the driver stops (--once, a refused token) the process exits with its code.</summary>
public sealed class AgentWorker(AgentDriver driver, IHostApplicationLifetime lifetime) : BackgroundService
{
    public int ExitCode { get; private set; } = 1;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            ExitCode = await driver.RunAsync(stoppingToken);
        }
        finally
        {
            lifetime.StopApplication();
        }
    }
}
