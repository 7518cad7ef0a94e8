using System.Text.Json;

namespace PerfService.Core.Parsing.Common;

/// <summary>
/// One file as format recognition sees it: its '/'-separated path and name, and its content read at most once (the
/// whole JSON document, the first JSON line of NDJSON, the first lines of text), however many formats look at it.
/// </summary>
internal sealed class FileView(Artifact file) : IDisposable
{
    // Recognising a format needs the first lines, not the whole file: a 250 MB upload is not decoded into a 500 MB
    // string (and split into lines) just to find it is nothing PerfService reads.
    private const int HeadBytes = 1024 * 1024;
    private const int SniffChars = 65536;

    private JsonDocument? _document,
        _firstLine;
    private bool _documentRead,
        _firstLineRead;
    private string? _head;

    public Artifact File { get; } = file;

    public string Path { get; } = file.Path.Replace('\\', '/');

    public string Name => Path[(Path.LastIndexOf('/') + 1)..];

    /// <summary>The folder the file is in, "" at the root.</summary>
    public string Directory => Path.LastIndexOf('/') is var i and >= 0 ? Path[..i] : "";

    public ReadOnlyMemory<byte> Bytes { get; } = Utf8.WithoutBom(file.Content);

    public bool IsBlank => Utf8.IsBlank(Bytes.Span);

    /// <summary>Starts like JSON ('{' or '['): an export, an NDJSON stream, or a broken file of either.</summary>
    public bool IsJson => Utf8.FirstSignificant(Bytes.Span) is (byte)'{' or (byte)'[';

    /// <summary>The root of the file when the whole file is one valid JSON document.</summary>
    public JsonElement? Document
    {
        get
        {
            if (!_documentRead)
            {
                _documentRead = true;
                if (IsJson && JsonInput.TryParse(Bytes, out var document))
                    _document = document;
            }
            return _document?.RootElement;
        }
    }

    /// <summary>The first line's JSON when the file is several JSON lines (cargo-criterion messages, go test
    /// -json).</summary>
    public JsonElement? FirstLine
    {
        get
        {
            if (!_firstLineRead)
            {
                _firstLineRead = true;
                if (IsJson && Document is null && JsonInput.TryParse(FirstLineBytes(), out var line))
                    _firstLine = line;
            }
            return _firstLine?.RootElement;
        }
    }

    // The bytes, not the decoded head: a garbled byte must keep the line from parsing, as it keeps the file from it.
    private ReadOnlyMemory<byte> FirstLineBytes()
    {
        var span = Bytes.Span;
        var start = span.IndexOfAnyExcept(" \t\r\n"u8);
        var end = span[start..].IndexOf((byte)'\n');
        return end < 0 ? Bytes[start..] : Bytes.Slice(start, end);
    }

    /// <summary>JSON-shaped but neither a document nor JSON lines: formats may still recognise it by its key names, so
    /// that the right parser reports where it broke.</summary>
    public bool IsBrokenJson => IsJson && Document is null && FirstLine is null;

    /// <summary>The decoded first megabyte.</summary>
    public string Head => _head ??= Utf8.Decode(Bytes.Length > HeadBytes ? Bytes[..HeadBytes] : Bytes);

    /// <summary>The first 64 K characters, for key names of broken JSON.</summary>
    public string SniffText => Head.Length > SniffChars ? Head[..SniffChars] : Head;

    /// <summary>The head's lines, trailing spaces removed.</summary>
    public IEnumerable<string> Lines => TextLines.Read(Head).Select(l => l.Text.TrimEnd());

    /// <summary>True when the root is an object with that property of that kind.</summary>
    public bool Has(string key, JsonValueKind? kind = null) => Has(Document, key, kind);

    public static bool Has(JsonElement? element, string key, JsonValueKind? kind = null) =>
        element is { ValueKind: JsonValueKind.Object } e
        && e.TryGetProperty(key, out var v)
        && (kind is null || v.ValueKind == kind);

    public void Dispose()
    {
        _document?.Dispose();
        _firstLine?.Dispose();
    }
}
