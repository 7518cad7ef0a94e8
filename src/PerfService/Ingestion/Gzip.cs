using System.IO.Compression;

namespace PerfService.Ingestion;

public static class Gzip
{
    public static byte[] Compress(ReadOnlySpan<byte> content)
    {
        // Sized for typical harness output (about 4:1), but never a large guess up front: a 250 MB file of repeated
        // text compresses to little, and the buffer grows only as output arrives.
        using var output = new MemoryStream((int)Math.Min(content.Length / 4 + 64, 1024 * 1024));
        using (var gzip = new GZipStream(output, CompressionLevel.Fastest, leaveOpen: true))
            gzip.Write(content);
        return output.ToArray();
    }

    public static byte[] Decompress(byte[] content)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(new MemoryStream(content, writable: false), CompressionMode.Decompress))
            gzip.CopyTo(output);
        return output.ToArray();
    }
}
