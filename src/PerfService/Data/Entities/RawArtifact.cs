namespace PerfService.Data.Entities;

/// <summary>The harness output exactly as uploaded (gzip-compressed), so a fixed parser can re-ingest old
/// runs.</summary>
public class RawArtifact
{
    public long Id { get; set; }
    public long RunId { get; set; }
    public required string Path { get; set; }
    public long Size { get; set; }
    public required byte[] Sha256 { get; set; }
    public required byte[] ContentGzip { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
}
