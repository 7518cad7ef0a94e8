using Microsoft.Extensions.Options;

namespace PerfService.Ingestion;

/// <summary>
/// Bounds the uploads one process reads and stores at once, so many large posts cannot add up in memory or on disk.
/// An upload waits up to <see cref="IngestOptions.QueueSeconds"/> for a slot (agents post in bursts at the end of a
/// round, and a short wait is cheaper than a retry); then it is answered 503 with Retry-After, which the agent's spool
/// and <c>perf submit</c> treat as transient and retry.
/// </summary>
public sealed class UploadGate(IOptions<IngestOptions> options, TimeProvider time)
{
    private readonly SemaphoreSlim _slots = new(options.Value.MaxConcurrentUploads, options.Value.MaxConcurrentUploads);

    /// <summary>Slots free right now (for tests and diagnostics).</summary>
    public int Free => _slots.CurrentCount;

    public async Task<IDisposable?> EnterAsync(CancellationToken ct)
    {
        if (_slots.Wait(0)) return new Slot(_slots);
        // The wait is timed by the service's clock; cancelling it leaves the semaphore untouched, so no slot leaks.
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(options.Value.QueueSeconds), time);
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
            if (Interlocked.Exchange(ref _released, 1) == 0) slots.Release();
        }
    }
}
