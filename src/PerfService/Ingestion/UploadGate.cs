using Microsoft.Extensions.Options;
using PerfService.Hosting;

namespace PerfService.Ingestion;

/// <summary>
/// Bounds the uploads one process reads and stores at once. An upload waits up to <see
/// cref="IngestOptions.QueueSeconds"/>
/// for a slot; then it is answered 503 with Retry-After, which the agent's spool and <c>perf submit</c> treat as
/// transient and retry.
/// </summary>
public sealed class UploadGate(IOptions<IngestOptions> options, TimeProvider time)
    : ConcurrencyGate(options.Value.MaxConcurrentUploads, TimeSpan.FromSeconds(options.Value.QueueSeconds), time);
