using System.IO.Compression;
using Microsoft.IO;

namespace PerfService.Ingestion;

public static class Gzip
{
    // Compressed output is written into pooled blocks and copied out once at its final size: a MemoryStream's
    // doubling buffers were a twentieth of what the web role allocated under load, the largest on the large-object
    // heap. The pool keeps at most a few megabytes of free blocks, so one large profile does not pin its size for good.
    private static readonly RecyclableMemoryStreamManager Buffers = new(
        new RecyclableMemoryStreamManager.Options
        {
            MaximumSmallPoolFreeBytes = 8 * 1024 * 1024,
            MaximumLargePoolFreeBytes = 8 * 1024 * 1024,
        }
    );

    public static byte[] Compress(ReadOnlySpan<byte> content)
    {
        using var output = Buffers.GetStream("gzip");
        using (var gzip = new GZipStream(output, CompressionLevel.Fastest, leaveOpen: true))
            gzip.Write(content);
        return output.ToArray();
    }

    public static byte[] Decompress(byte[] content)
    {
        using var output = Buffers.GetStream("gunzip");
        using (var gzip = new GZipStream(new MemoryStream(content, writable: false), CompressionMode.Decompress))
            gzip.CopyTo(output);
        return output.ToArray();
    }
}
