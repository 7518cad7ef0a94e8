using Npgsql;

namespace PerfService.AgentJobs;

/// <summary>
/// Wakes waiting claims within milliseconds of a job being queued, on any replica: every enqueue or requeue sends
/// <c>NOTIFY perf_jobs</c>, and each service instance LISTENs on one dedicated connection. Waiters also re-check on a
/// short timer, so a lost notification (a dropped connection) costs a second, never a job.
/// </summary>
public sealed class JobNotifier(NpgsqlDataSource dataSource, ILogger<JobNotifier> logger) : BackgroundService
{
    public const string Channel = "perf_jobs";
    private TaskCompletionSource _signal = NewSignal();

    /// <summary>Completes at the next notification (or never; callers add their own timeout).</summary>
    public Task NextAsync() => Volatile.Read(ref _signal).Task;

    public void Signal() => Interlocked.Exchange(ref _signal, NewSignal()).TrySetResult();

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await using var conn = await dataSource.OpenConnectionAsync(stoppingToken);
                conn.Notification += (_, _) => Signal();
                await using (var listen = new NpgsqlCommand($"LISTEN {Channel}", conn)) await listen.ExecuteNonQueryAsync(stoppingToken);
                Signal(); // anything queued while we were not listening
                while (!stoppingToken.IsCancellationRequested) await conn.WaitAsync(stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e)
            {
                logger.LogWarning(e, "Job notifications interrupted; reconnecting");
                try { await Task.Delay(TimeSpan.FromSeconds(1), stoppingToken); } catch (OperationCanceledException) { return; }
            }
        }
    }

    private static TaskCompletionSource NewSignal() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
