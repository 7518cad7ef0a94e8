using Npgsql;

namespace PerfService.Hosting;

/// <summary>
/// LISTENs on one PostgreSQL channel on a dedicated connection and wakes waiters within milliseconds of a NOTIFY from
/// any
/// replica. Waiters also re-check on a short timer of their own, so a lost notification (a dropped connection) costs a
/// poll interval, never work.
/// </summary>
public sealed class ChannelListener(NpgsqlDataSource dataSource, string channel, ILogger logger)
{
    private TaskCompletionSource _signal = NewSignal();

    /// <summary>Completes at the next notification (or never; callers add their own timeout).</summary>
    public Task NextAsync() => Volatile.Read(ref _signal).Task;

    public void Signal() => Interlocked.Exchange(ref _signal, NewSignal()).TrySetResult();

    /// <summary>Listens until <paramref name="stoppingToken"/> fires, reconnecting after a failure.</summary>
    public async Task ListenAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await using var conn = await dataSource.OpenConnectionAsync(stoppingToken);
                conn.Notification += (_, _) => Signal();
                await using (var listen = new NpgsqlCommand($"LISTEN {channel}", conn))
                    await listen.ExecuteNonQueryAsync(stoppingToken);
                Signal(); // anything sent while we were not listening
                while (!stoppingToken.IsCancellationRequested)
                    await conn.WaitAsync(stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e)
            {
                logger.LogWarning(e, "Notifications on {Channel} interrupted; reconnecting", channel);
                try
                {
                    await Task.Delay(TimeSpan.FromSeconds(1), stoppingToken);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }
    }

    private static TaskCompletionSource NewSignal() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
