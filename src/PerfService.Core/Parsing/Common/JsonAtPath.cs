using System.Text.Json;

namespace PerfService.Core.Parsing.Common;

/// <summary>
/// A JSON element that knows its JSON path and file, so that every "expected a number" error can say exactly
/// where (<c>$.Benchmarks[3].Statistics.Mean</c>) without each parser threading paths by hand. A node keeps a spelled
/// path plus up to two steps below it (an index, then a property name) and spells its own path only when asked: a
/// run's samples and their results' fields are most of its elements, and a path string each was most of what parsing
/// them allocated.
/// </summary>
internal readonly struct JsonAtPath(JsonElement element, string path, string file, int index = -1, string? name = null)
{
    public static JsonAtPath Root(JsonDocument document, string file) => new(document.RootElement, "$", file);

    private readonly string _path = path;
    private readonly int _index = index;
    private readonly string? _name = name;

    public JsonElement Element { get; } = element;
    public string Path =>
        (_index, _name) switch
        {
            (< 0, null) => _path,
            (< 0, _) => WithName(_path, _name),
            (_, null) => $"{_path}[{_index}]",
            _ => WithName($"{_path}[{_index}]", _name),
        };
    public string File { get; } = file;
    public JsonValueKind Kind => Element.ValueKind;
    public bool IsObject => Kind == JsonValueKind.Object;
    public bool IsArray => Kind == JsonValueKind.Array;
    public bool IsNumber => Kind == JsonValueKind.Number;
    public bool IsString => Kind == JsonValueKind.String;

    public ParseException Error(string reason) => new(File, Path, reason);

    public string ChildPath(string name) => WithName(Path, name);

    /// <summary>The property, or null when it is absent or JSON null (harnesses use both for "not measured").</summary>
    public JsonAtPath? Get(string name)
    {
        if (!IsObject || !Element.TryGetProperty(name, out var value))
            return null;
        if (value.ValueKind == JsonValueKind.Null)
            return null;
        return Child(value, name);
    }

    // An array item's field keeps the item's steps; deeper nodes spell the path so far (once, or as given).
    private JsonAtPath Child(JsonElement value, string name, string? spelled = null) =>
        _name is null
            ? new JsonAtPath(value, _path, File, _index, name)
            : new JsonAtPath(value, spelled ?? Path, File, -1, name);

    /// <summary>The first present property among alternative spellings (criterion 0.2 capitalised its keys).</summary>
    public JsonAtPath? Get(string name, string alternative) => Get(name) ?? Get(alternative);

    public bool Has(string name) => IsObject && Element.TryGetProperty(name, out _);

    public JsonAtPath Required(string name, string expected)
    {
        if (!IsObject)
            throw Error($"expected an object with \"{name}\", found {Describe(Kind)}");
        return Get(name) ?? throw new ParseException(File, ChildPath(name), $"missing; expected {expected}");
    }

    public string? OptionalString(string name)
    {
        var node = Get(name);
        if (node is null)
            return null;
        return node.Value.IsString
            ? node.Value.Element.GetString()
            : throw node.Value.Error($"expected a string, found {Describe(node.Value.Kind)}");
    }

    public string RequiredString(string name) => Required(name, "a string").AsString();

    public string AsString() =>
        IsString ? Element.GetString()! : throw Error($"expected a string, found {Describe(Kind)}");

    public double? OptionalNumber(string name, bool nonNegative) => Get(name)?.AsNumber(nonNegative);

    public double RequiredNumber(string name, bool nonNegative) => Required(name, "a number").AsNumber(nonNegative);

    public double AsNumber(bool nonNegative)
    {
        if (!IsNumber)
        {
            // Some serialisers write NaN/Infinity as strings; name them so the user sees why.
            var shown = IsString ? $"the string \"{Truncate(Element.GetString()!)}\"" : Describe(Kind);
            throw Error($"expected a number, found {shown}");
        }
        if (!Element.TryGetDouble(out var value) || !double.IsFinite(value))
            throw Error($"the number {Truncate(Element.GetRawText())} is out of range");
        return Check.Value(value, this, "the value", nonNegative);
    }

    public long AsLong()
    {
        if (!IsNumber)
            throw Error($"expected an integer, found {Describe(Kind)}");
        if (Element.TryGetInt64(out var value))
            return value;
        // Some writers print integral counts as 1024.0.
        if (Element.TryGetDouble(out var d) && Math.Abs(d) < 9e15 && d == Math.Floor(d))
            return (long)d;
        throw Error($"expected an integer, found {Truncate(Element.GetRawText())}");
    }

    public IEnumerable<JsonAtPath> Items()
    {
        if (!IsArray)
            throw Error($"expected an array, found {Describe(Kind)}");
        var path = Path;
        var i = 0;
        foreach (var item in Element.EnumerateArray())
            yield return new JsonAtPath(item, path, File, i++);
    }

    public IEnumerable<(string Name, JsonAtPath Value)> Properties()
    {
        if (!IsObject)
            throw Error($"expected an object, found {Describe(Kind)}");
        // Deeper than an item's fields, the path so far is spelled once for all the fields.
        var spelled = _name is null ? null : Path;
        foreach (var p in Element.EnumerateObject())
            yield return (p.Name, Child(p.Value, p.Name, spelled));
    }

    public static string Describe(JsonValueKind kind) =>
        kind switch
        {
            JsonValueKind.Object => "an object",
            JsonValueKind.Array => "an array",
            JsonValueKind.String => "a string",
            JsonValueKind.Number => "a number",
            JsonValueKind.True or JsonValueKind.False => "a boolean",
            JsonValueKind.Null => "null",
            _ => "nothing",
        };

    private static string WithName(string path, string name)
    {
        var simple = name.Length > 0 && (char.IsAsciiLetter(name[0]) || name[0] == '_');
        foreach (var c in name)
            simple &= char.IsAsciiLetterOrDigit(c) || c == '_';
        return simple
            ? string.Concat(path, ".", name)
            : string.Concat(path, "['", name.Replace("\\", "\\\\").Replace("'", "\\'"), "']");
    }

    private static string Truncate(string s) => s.Length <= 40 ? s : s[..40] + "…";
}
