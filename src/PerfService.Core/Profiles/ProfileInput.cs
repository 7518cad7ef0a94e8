using System.IO.Compression;

namespace PerfService.Core.Profiles;

/// <summary>Reads a posted profile into memory within <see cref="ProfileLimits.MaxBytes"/>, unzipping it when it is
/// gzipped (Go writes pprof that way) with the same bound on what it unzips to: a gzip bomb stops at the
/// limit.</summary>
public static class ProfileInput
{
    public static byte[] Read(Stream stream, ProfileLimits limits)
    {
        var raw = ReadBounded(stream, limits.MaxBytes, "the profile is larger than");
        if (raw.Length < 2 || raw[0] != 0x1f || raw[1] != 0x8b)
            return raw;
        try
        {
            using var gzip = new GZipStream(new MemoryStream(raw), CompressionMode.Decompress);
            return ReadBounded(gzip, limits.MaxBytes, "the profile unzips to more than");
        }
        catch (InvalidDataException e)
        {
            throw new ProfileFormatException($"the profile is gzipped but cannot be unzipped: {e.Message}");
        }
    }

    private static byte[] ReadBounded(Stream stream, long maxBytes, string tooLarge)
    {
        using var buffer = new MemoryStream();
        var chunk = new byte[81920];
        int read;
        while ((read = stream.Read(chunk, 0, chunk.Length)) > 0)
        {
            if (buffer.Length + read > maxBytes)
                throw new ProfileFormatException($"{tooLarge} {maxBytes} bytes");
            buffer.Write(chunk, 0, read);
        }
        return buffer.ToArray();
    }

    /// <summary>Control characters would break the folded form's one-stack-a-line text; a frame name is only ever
    /// shown, so they become spaces.</summary>
    public static string FrameName(string name) =>
        name.Any(char.IsControl)
            ? string.Create(
                name.Length,
                name,
                (span, s) =>
                {
                    for (var i = 0; i < s.Length; i++)
                        span[i] = char.IsControl(s[i]) ? ' ' : s[i];
                }
            )
            : name;
}
