using System.Text.Json;

namespace PerfService.Core.Parsing.Common;

/// <summary>Parses JSON with the depth limit and turns reader errors into <see cref="ParseException"/>s with a line
/// number.</summary>
internal static class JsonInput
{
    private static readonly JsonDocumentOptions _options = new() { MaxDepth = Limits.MaxJsonDepth };

    public static JsonDocument Parse(ReadOnlyMemory<byte> utf8, string file, int lineOffset = 0)
    {
        // The reader validates structure, not the UTF-8 inside strings; GetString() would throw later, deep in a
        // parser.
        if (Utf8.FirstInvalid(utf8.Span) is { } bad)
            throw new ParseException(
                file,
                Utf8.Location(utf8.Span, bad, lineOffset),
                "not valid UTF-8 text; expected a UTF-8 JSON file"
            );
        try
        {
            return JsonDocument.Parse(utf8, _options);
        }
        catch (JsonException ex)
        {
            throw ToParseException(ex, file, lineOffset);
        }
    }

    /// <summary>Parses the whole artifact as one JSON document (the BOM is skipped, emptiness reported
    /// plainly).</summary>
    public static JsonDocument Parse(Artifact artifact)
    {
        var bytes = Utf8.WithoutBom(artifact.Content);
        if (Utf8.IsBlank(bytes.Span))
            throw new ParseException(artifact.Path, null, "the file is empty");
        return Parse(bytes, artifact.Path);
    }

    public static bool TryParse(ReadOnlyMemory<byte> utf8, out JsonDocument? document)
    {
        document = null;
        if (Utf8.FirstInvalid(utf8.Span) is not null)
            return false;
        try
        {
            document = JsonDocument.Parse(utf8, _options);
            return true;
        }
        catch (JsonException)
        {
            return false;
        }
    }

    public static ParseException ToParseException(JsonException ex, string file, int lineOffset)
    {
        var location = ex.LineNumber is { } line
            ? $"line {line + 1 + lineOffset}" + (ex.BytePositionInLine is { } pos ? $", byte {pos + 1}" : "")
            : null;
        var message = ex.Message;
        // The reader appends its own "LineNumber: … | BytePositionInLine: …" which the location already says.
        var cut = message.IndexOf(" LineNumber:", StringComparison.Ordinal);
        if (cut > 0)
            message = message[..cut].TrimEnd(' ', '|', '.');
        var pathCut = message.IndexOf(" Path: ", StringComparison.Ordinal);
        if (pathCut > 0)
            message = message[..pathCut].TrimEnd(' ', '|', '.');
        var reason = message.Contains("maximum configured depth", StringComparison.OrdinalIgnoreCase)
            ? $"the JSON is nested deeper than {Limits.MaxJsonDepth} levels"
            : $"not valid JSON: {message}";
        return new ParseException(file, location, reason);
    }
}
