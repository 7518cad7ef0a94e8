using Npgsql;
using PerfService.Hosting;

namespace PerfService.AgentJobs;

/// <summary>
/// Wakes waiting claims within milliseconds of a job being queued, on any replica: every enqueue or requeue sends
/// <c>NOTIFY perf_jobs</c>, and each service instance LISTENs on one dedicated connection. Waiters also re-check on a
/// short timer, so a lost notification (a dropped connection) costs a second, never a job.
/// </summary>
public sealed class JobNotifier(NpgsqlDataSource dataSource, ILogger<JobNotifier> logger) : BackgroundService
{
    public const string Channel = "perf_jobs";
    private readonly ChannelListener _listener = new(dataSource, Channel, logger);

    /// <summary>Completes at the next notification (or never; callers add their own timeout).</summary>
    public Task NextAsync() => _listener.NextAsync();

    public void Signal() => _listener.Signal();

    protected override Task ExecuteAsync(CancellationToken stoppingToken) => _listener.ListenAsync(stoppingToken);
}
