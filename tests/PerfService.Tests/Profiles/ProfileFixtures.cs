using System.IO.Compression;
using PerfService.Core.Profiles;

namespace PerfService.Tests.Profiles;

/// <summary>tests/fixtures/profiles: real profiles of this repository's suites (PROVENANCE.md there says how each
/// was made), and the hostile inputs made from them.</summary>
internal static class ProfileFixtures
{
    public static byte[] Bytes(string name) => File.ReadAllBytes(TestPaths.Fixture("profiles", name));

    public static FoldedStacks Read(byte[] bytes, ProfileFormat format, ProfileLimits? limits = null) =>
        ProfileReader.Read(new MemoryStream(bytes), format, limits ?? ProfileLimits.Default);

    /// <summary>Samples whose innermost frame is <paramref name="frame"/>.</summary>
    public static long Self(FoldedStacks folded, string frame) =>
        folded.Stacks.Where(s => FoldedStacks.Frames(s.Key)[^1] == frame).Sum(s => s.Value);

    /// <summary>Samples with <paramref name="frame"/> anywhere on the stack.</summary>
    public static long Total(FoldedStacks folded, string frame) =>
        folded.Stacks.Where(s => FoldedStacks.Frames(s.Key).Contains(frame)).Sum(s => s.Value);

    /// <summary>A small gzip file that unzips to <paramref name="bytes"/> zeros: a bomb when that is over the limit.</summary>
    public static byte[] GzipOfZeros(long bytes)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.SmallestSize, leaveOpen: true))
        {
            var zeros = new byte[1 << 20];
            for (long written = 0; written < bytes; written += zeros.Length) gzip.Write(zeros, 0, (int)Math.Min(zeros.Length, bytes - written));
        }
        return output.ToArray();
    }

    public const string Script = "<script>alert(1)</script><img src=x onerror=alert(2)>";
}
