using System.IO.Compression;

namespace PerfService.Ingestion;

public static class Gzip
{
    public static byte[] Compress(ReadOnlySpan<byte> content)
    {
        using var output = new MemoryStream(content.Length / 4 + 64);
        using (var gzip = new GZipStream(output, CompressionLevel.Fastest, leaveOpen: true)) gzip.Write(content);
        return output.ToArray();
    }

    public static byte[] Decompress(byte[] compressed)
    {
        using var input = new GZipStream(new MemoryStream(compressed), CompressionMode.Decompress);
        using var output = new MemoryStream();
        input.CopyTo(output);
        return output.ToArray();
    }
}
