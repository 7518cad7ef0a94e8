using Microsoft.Extensions.Options;

namespace PerfService.Ingestion;

/// <summary>
/// Bounds the uploads one process reads and stores at once, so many large posts cannot add up in memory or on disk.
/// An upload waits up to <see cref="IngestOptions.QueueSeconds"/> for a slot (agents post in bursts at the end of a
/// round, and a short wait is cheaper than a retry); then it is answered 503 with Retry-After, which the agent's spool
/// and <c>perf submit</c> treat as transient and retry.
/// </summary>
public sealed class UploadGate(IOptions<IngestOptions> options)
{
    private readonly SemaphoreSlim _slots = new(options.Value.MaxConcurrentUploads, options.Value.MaxConcurrentUploads);

    /// <summary>Slots free right now (for tests and diagnostics).</summary>
    public int Free => _slots.CurrentCount;

    public async Task<IDisposable?> EnterAsync(CancellationToken ct) =>
        await _slots.WaitAsync(TimeSpan.FromSeconds(options.Value.QueueSeconds), ct) ? new Slot(_slots) : null;

    private sealed class Slot(SemaphoreSlim slots) : IDisposable
    {
        private int _released;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0) slots.Release();
        }
    }
}
