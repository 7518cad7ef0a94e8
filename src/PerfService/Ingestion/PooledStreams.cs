using Microsoft.IO;

namespace PerfService.Ingestion;

/// <summary>
/// Memory streams in pooled blocks (Microsoft.IO.RecyclableMemoryStream) for what ingest holds for the length of one
/// request: an upload's files and their compressed copies. Fresh arrays for each, growing by doubling and the larger
/// ones on the large-object heap, were about a fifth of what the web role allocated under load and set off its gen-2
/// collections (docs/measurements/2026-11-28-ingest-allocations.md).
/// </summary>
internal static class PooledStreams
{
    // The pool keeps at most this much free, so that one large profile or burst does not pin its size for good.
    private const long MostFreeBytes = 16 * 1024 * 1024;

    private static readonly RecyclableMemoryStreamManager Manager = new(
        new RecyclableMemoryStreamManager.Options
        {
            MaximumSmallPoolFreeBytes = MostFreeBytes,
            MaximumLargePoolFreeBytes = MostFreeBytes,
        }
    );

    /// <summary>An empty stream; its blocks go back to the pool when it is disposed, so nothing may read its buffer
    /// after that.</summary>
    public static RecyclableMemoryStream Get(string tag) => Manager.GetStream(tag);
}
