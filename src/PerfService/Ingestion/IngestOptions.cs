using System.ComponentModel.DataAnnotations;

namespace PerfService.Ingestion;

public sealed class IngestOptions
{
    /// <summary>Largest accepted request body; more is answered with 413.</summary>
    [Range(1024, long.MaxValue)]
    public long MaxBodyBytes { get; set; } = 64 * 1024 * 1024;

    /// <summary>Largest size of one file after gunzipping a <c>.gz</c> upload (a gzip bomb stops here).</summary>
    [Range(1024, long.MaxValue)]
    public long MaxFileBytes { get; set; } = 256 * 1024 * 1024;

    [Range(1, 10_000)]
    public int MaxFiles { get; set; } = 2_000;
}
