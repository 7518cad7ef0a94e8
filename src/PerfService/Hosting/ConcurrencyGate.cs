namespace PerfService.Hosting;

/// <summary>
/// Bounds how many requests of one kind a process reads at once, so many large bodies cannot add up in memory or on
/// disk. A request waits up to <c>wait</c> for a slot (clients post in bursts, and a short wait is cheaper than a
/// retry); then <see cref="EnterAsync"/> answers null, which the endpoint turns into a 503 with Retry-After.
/// </summary>
public abstract class ConcurrencyGate(int slots, TimeSpan wait, TimeProvider time)
{
    private readonly SemaphoreSlim _slots = new(slots, slots);

    /// <summary>Slots free right now (for tests and diagnostics).</summary>
    public int Free => _slots.CurrentCount;

    public async Task<IDisposable?> EnterAsync(CancellationToken ct)
    {
        if (_slots.Wait(0))
            return new Slot(_slots);
        // The wait is timed by the service's clock; cancelling it leaves the semaphore untouched, so no slot leaks.
        using var timeout = new CancellationTokenSource(wait, time);
        using var either = CancellationTokenSource.CreateLinkedTokenSource(ct, timeout.Token);
        try
        {
            await _slots.WaitAsync(either.Token);
            return new Slot(_slots);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            return null;
        }
    }

    private sealed class Slot(SemaphoreSlim slots) : IDisposable
    {
        private int _released;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
                slots.Release();
        }
    }
}
