using System.IO.Compression;

namespace PerfService.Ingestion;

public static class Gzip
{
    // Compressed output goes into pooled blocks and is copied out once, at its final size.
    public static byte[] Compress(ReadOnlySpan<byte> content)
    {
        using var output = PooledStreams.Get("gzip");
        using (var gzip = new GZipStream(output, CompressionLevel.Fastest, leaveOpen: true))
            gzip.Write(content);
        return output.ToArray();
    }

    public static byte[] Decompress(byte[] content)
    {
        using var output = PooledStreams.Get("gunzip");
        using (var gzip = new GZipStream(new MemoryStream(content, writable: false), CompressionMode.Decompress))
            gzip.CopyTo(output);
        return output.ToArray();
    }
}
