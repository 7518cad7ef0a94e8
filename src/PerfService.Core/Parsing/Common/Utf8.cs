using System.Text;

namespace PerfService.Core.Parsing.Common;

/// <summary>Byte-level helpers: harness output is UTF-8, sometimes with a BOM (Windows tools), never trusted to be
/// valid.</summary>
internal static class Utf8
{
    private static readonly byte[] _bom = [0xEF, 0xBB, 0xBF];

    public static ReadOnlyMemory<byte> WithoutBom(ReadOnlyMemory<byte> bytes) =>
        bytes.Span.StartsWith(_bom) ? bytes[3..] : bytes;

    public static bool IsBlank(ReadOnlySpan<byte> bytes)
    {
        foreach (var b in bytes)
            if (b is not ((byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n'))
                return false;
        return true;
    }

    /// <summary>Decodes leniently: a garbled byte becomes U+FFFD rather than an exception; the parsers then reject the
    /// line.</summary>
    public static string Decode(ReadOnlyMemory<byte> bytes) => Encoding.UTF8.GetString(WithoutBom(bytes).Span);

    /// <summary>Offset of the first byte that is not valid UTF-8, or null when all of it is valid.</summary>
    public static int? FirstInvalid(ReadOnlySpan<byte> bytes)
    {
        if (System.Text.Unicode.Utf8.IsValid(bytes))
            return null;
        for (var i = 0; i < bytes.Length; )
        {
            if (
                System.Text.Rune.DecodeFromUtf8(bytes[i..], out _, out var consumed)
                != System.Buffers.OperationStatus.Done
            )
                return i;
            i += consumed;
        }
        return null;
    }

    /// <summary>"line L, byte B" (1-based) of a byte offset, the same shape the JSON reader's errors use.</summary>
    public static string Location(ReadOnlySpan<byte> bytes, int offset, int lineOffset = 0)
    {
        var before = bytes[..offset];
        var line = before.Count((byte)'\n') + 1 + lineOffset;
        var lineStart = before.LastIndexOf((byte)'\n') + 1;
        return $"line {line}, byte {offset - lineStart + 1}";
    }

    /// <summary>The first non-whitespace byte, or 0 when there is none.</summary>
    public static byte FirstSignificant(ReadOnlySpan<byte> bytes)
    {
        foreach (var b in bytes)
            if (b is not ((byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n'))
                return b;
        return 0;
    }
}
