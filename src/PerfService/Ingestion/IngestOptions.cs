using System.ComponentModel.DataAnnotations;

namespace PerfService.Ingestion;

public sealed class IngestOptions
{
    /// <summary>Largest accepted request body; more is answered with 413.</summary>
    [Range(1024, long.MaxValue)]
    public long MaxBodyBytes { get; set; } = 64 * 1024 * 1024;

    /// <summary>Largest size of one file after gunzipping a <c>.gz</c> upload (a gzip bomb stops here). Below 2 GiB:
    /// a file is handed to the parsers as one span.</summary>
    [Range(1024, int.MaxValue)]
    public long MaxFileBytes { get; set; } = 256 * 1024 * 1024;

    /// <summary>Largest size of all files of one request together, once decompressed: many small bombs stop
    /// here.</summary>
    [Range(1024, long.MaxValue)]
    public long MaxRequestBytes { get; set; } = 512L * 1024 * 1024;

    [Range(1, 10_000)]
    public int MaxFiles { get; set; } = 2_000;

    /// <summary>Files larger than this, once decompressed, are spooled to a temporary file (deleted after the request)
    /// and mapped, rather than held on the heap.</summary>
    [Range(0, long.MaxValue)]
    public long SpoolThresholdBytes { get; set; } = 1024 * 1024;

    /// <summary>Where spooled files go; empty for the system's temporary folder.</summary>
    public string? SpoolDirectory { get; set; }

    /// <summary>Uploads read and stored at once by one service process; more wait (see <see
    /// cref="QueueSeconds"/>).</summary>
    [Range(1, 1_000)]
    public int MaxConcurrentUploads { get; set; } = 4;

    /// <summary>How long an upload waits for a slot before it is answered 503 with Retry-After.</summary>
    [Range(0, 600)]
    public int QueueSeconds { get; set; } = 10;
}
