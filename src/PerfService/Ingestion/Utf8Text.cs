using System.Text.Json;

namespace PerfService.Ingestion;

/// <summary>
/// Text that arrived as invalid UTF-8. ASP.NET Core's form reader decodes multipart values and file names leniently,
/// replacing each invalid byte sequence by U+FFFD, so by the time the upload is read the raw bytes are gone and the
/// replacement character is the only trace. Metadata (branch, commit, machine names) never legitimately holds it.
/// </summary>
public static class Utf8Text
{
    public const char Replacement = '\uFFFD';

    /// <summary>Where in a JSON text a replacement character sits: the JSON path of the value or name, or null if
    /// none.</summary>
    public static string? FirstReplaced(string json)
    {
        if (!json.Contains(Replacement))
            return null;
        try
        {
            using var document = JsonDocument.Parse(json, new JsonDocumentOptions { MaxDepth = 16 });
            return Find(document.RootElement, "$") ?? "$";
        }
        catch (JsonException)
        {
            return "$";
        }
    }

    private static string? Find(JsonElement element, string path)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.String:
                return element.GetString()!.Contains(Replacement) ? path : null;
            case JsonValueKind.Object:
                foreach (var property in element.EnumerateObject())
                {
                    var at = $"{path}.{property.Name}";
                    if (property.Name.Contains(Replacement))
                        return at;
                    if (Find(property.Value, at) is { } found)
                        return found;
                }
                return null;
            case JsonValueKind.Array:
                var i = 0;
                foreach (var item in element.EnumerateArray())
                    if (Find(item, $"{path}[{i++}]") is { } found)
                        return found;
                return null;
            default:
                return null;
        }
    }
}
