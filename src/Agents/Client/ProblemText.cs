using System.Text.Json;

namespace PerfService.Agents.Client;

/// <summary>Turns an error answer into one line: the ProblemDetails' "title: detail", else the start of the
/// body.</summary>
public static class ProblemText
{
    public static async Task<string> ReadAsync(HttpResponseMessage response, CancellationToken ct)
    {
        string body;
        try
        {
            body = await response.Content.ReadAsStringAsync(ct);
        }
        catch (Exception e) when (e is HttpRequestException or IOException)
        {
            return $"HTTP {(int)response.StatusCode}";
        }
        return FromBody((int)response.StatusCode, body);
    }

    public static string FromBody(int status, string body)
    {
        try
        {
            using var doc = JsonDocument.Parse(body);
            // A bare JSON string (e.g. TypedResults.Conflict("…")) is the message itself.
            if (doc.RootElement.ValueKind == JsonValueKind.String)
                return doc.RootElement.GetString() ?? $"HTTP {status}";
            if (doc.RootElement.ValueKind == JsonValueKind.Object)
            {
                var title = Text(doc.RootElement, "title");
                var detail = Text(doc.RootElement, "detail");
                if (title is not null || detail is not null)
                    return string.Join(": ", new[] { title, detail }.Where(s => !string.IsNullOrWhiteSpace(s)));
            }
        }
        catch (JsonException)
        {
            // Not JSON: fall through to the raw text.
        }
        var text = body.Trim();
        return text.Length == 0 ? $"HTTP {status}"
            : text.Length > 500 ? text[..500] + "…"
            : text;
    }

    private static string? Text(JsonElement e, string name) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;
}
